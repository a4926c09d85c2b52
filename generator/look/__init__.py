"""Stage 2, look: takes a game's data with its layout files, icons, art and fonts; gives one scene per face
(rectangles, paths, text and icons in mm), drawn as the layout says, with the warnings drawing raises."""
