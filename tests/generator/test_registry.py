"""Layouts are found one way only: by name among layout files, the built-in ones (package data) first, then
the game folder's own `layouts/*.yaml`; no Python module registers one."""
from __future__ import annotations

from pathlib import Path

import starpnp.generator.look.layouts as layouts_package
from starpnp.generator.look.layouts import builtin_layouts, layouts_for


def test_every_layout_is_a_file_and_boards_and_dice_are_built_in():
    files = {path.stem for path in builtin_layouts().glob("*.yaml")}
    assert set(layouts_for()) == files
    assert {"board", "die_net", "card", "player_board"} <= files


def test_a_games_board_file_replaces_the_built_in_board_for_that_game_only(tmp_path):
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "board.yaml").write_text("extends: board\nfields:\n  motto: {type: text}\n")
    own, builtin = layouts_for((tmp_path,))["board"], layouts_for()["board"]
    assert "motto" in own.params.model_fields and "motto" not in builtin.params.model_fields
    assert "regions" in own.params.model_fields  # what it extends comes along


def test_no_module_registers_a_layout_by_decorator_or_list():
    sources = [path.read_text(encoding="utf-8") for path in Path(layouts_package.__file__).parent.glob("*.py")]
    assert not [text for text in sources if "@layout(" in text or "PYTHON_LAYOUTS" in text or "REGISTERED" in text]
    assert not hasattr(layouts_package, "layout")
