"""The loader records where every value of every piece came from (issue #48): file, line or cell, key path,
through which `columns:` mapping, option variant or override; shared between faces alike in that."""
from __future__ import annotations

from pathlib import Path

from starpnp.generator.look.loader import load_game

GAME = "id: tiny\nname: Tiny\nplayers: {min: 2, max: 4}\ncolors: [red, blue]\noptions: {gold: {help: gilded}}\n"
CARDS = """components:
  - id: deck
    name: Deck
    kind: card
    size: poker
    front: {layout: card, color: "#123456"}
    back: {layout: card, title: BACK}
    items:
      - count: 3
        title: Storm
        text: Rain falls.
        with_option:
          gold: {copies: 1, color: "#FFD700"}
      - {count: 2, title: Calm, text: Sun shines., back: {title: CALM}}
"""


def folder(tmp_path: Path, cards: str = CARDS, **files: str) -> Path:
    game = tmp_path / "tiny"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text(GAME)
    (game / "cards.yaml").write_text(cards)
    for name, text in files.items():
        (game / name.replace("_", ".", 1)).write_text(text)
    return game


def pieces(game: Path, options=frozenset()):
    return next(c for c in load_game(game, options).components if c.spec.id == "deck").pieces


def test_each_value_names_its_file_line_and_key_path_and_how_it_came(tmp_path):
    game = folder(tmp_path)
    storm, calm = pieces(game)
    title, color = storm.front.origin.where("title"), storm.front.origin.where("color")
    assert (Path(title.file).name, title.line, title.path, title.how) == (
        "cards.yaml", 10, ("components", 0, "items", 0, "title"), "item")
    assert (color.line, color.path, color.how) == (6, ("components", 0, "front", "color"), "component")
    assert storm.front.origin.where("count").path == ("components", 0, "items", 0, "count")
    assert calm.back.origin.where("title").path == ("components", 0, "items", 1, "back", "title")
    assert storm.back.origin.where("title").how == "component"
    art = storm.front.origin.where("art")  # the layout's default: where the item's own value would go
    assert art.how == "layout" and not art.given and art.path == ("components", 0, "items", 0, "art")
    # faces given the same fields from the same places share their names and paths; an item's faces its place
    assert storm.front.origin.shape is calm.front.origin.shape
    assert storm.front.origin.item is storm.back.origin.item


def test_an_options_variant_is_a_piece_of_the_item_its_values_and_copies_named_where_written(tmp_path):
    plain, gilded, calm = pieces(folder(tmp_path), {"gold"})
    assert [(p.name, p.count) for p in (plain, gilded, calm)] == [("Storm", 2), ("Storm (with gold)", 1), ("Calm", 2)]
    assert gilded.front.origin.where("color").path == ("components", 0, "items", 0, "with_option", "gold", "color")
    assert gilded.front.origin.where("color").how == "option gold"
    assert gilded.front.origin.where("count").path[-1] == "copies"
    assert plain.front.origin.written_count(5) == 6 and gilded.front.origin.written_count(5) == 5


def test_a_spreadsheets_value_names_its_row_column_and_cell_through_columns(tmp_path):
    cards = CARDS.split("    items:")[0] + "    items: cards.csv\n    columns: {Name: title}\n"
    game = folder(tmp_path, cards, cards_csv="count,Name,text\n3,Storm,Rain falls.\n2,Calm,Sun shines.\n")
    storm, calm = pieces(game)
    title = calm.front.origin.where("title")
    assert (Path(title.file).name, title.line, title.column, title.cell, title.mapped) == (
        "cards.csv", 3, "Name", "B3", True)
    assert title.shown() == "cards.csv:3, cell B3 (Name)"
    assert storm.front.origin.where("art").shown() == "cards.csv:2, row 2, a new column art"
    assert storm.front.origin.table is calm.front.origin.table and calm.front.origin.table.delimiter == ","


def test_an_overrides_folders_value_names_its_line_in_overrides_yaml(tmp_path):
    mine = tmp_path / "mine"
    folder(mine)  # the game it extends, inside it
    (mine / "overrides.yaml").write_text("extends: tiny\ncomponents:\n  deck:\n    items:\n"
                                         "      Calm:\n        title: Breeze\n")
    storm, calm = pieces(mine)
    title = calm.front.origin.where("title")
    assert (Path(title.file).name, title.line, title.path, title.how) == (
        "overrides.yaml", 6, ("components", "deck", "items", "Calm", "title"), "override")
    assert calm.front.origin.item.key == "Calm" and storm.front.origin.item.key == "Storm"
    assert Path(storm.front.origin.where("title").file).name == "cards.yaml"
