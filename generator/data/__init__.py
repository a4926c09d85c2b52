"""Stage 1, data: takes a game folder's YAML, CSV and override files; gives validated values (the model of
a game, its pieces, player colours and declared tracker), or errors that name file, line and key."""
