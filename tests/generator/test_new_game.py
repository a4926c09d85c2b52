"""`starpnp new`: a game folder of one's own that builds at once and says what each file is for."""
from __future__ import annotations

from cli_runner import run

from starpnp.generator.look.loader import game_info, load_game


def test_new_writes_a_game_that_checks_and_loads_with_its_tracker(tmp_path):
    folder = tmp_path / "harbour"
    result = run("new", "Harbour Lights", folder)
    assert result.returncode == 0, result.stderr
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["README.md", "board.yaml", "cards.csv", "cards.yaml", "counters.yaml", "game.yaml", "icons", "layouts"]
    readme = (folder / "README.md").read_text()
    assert all(f"`{name}" in readme for name in names if name != "README.md")
    game = load_game(folder)
    assert game.info.id == "harbour_lights" and game.info.name == "Harbour Lights"
    assert [c.spec.id for c in game.components] == ["board", "deck", "markers", "coins"]
    deck = next(c for c in game.components if c.spec.id == "deck")
    assert sum(p.count for p in deck.pieces) == 9  # one sheet of cards
    assert game_info(folder).tracker.ends[0].reaches == 20
    assert run("check", folder).returncode == 0


def test_new_refuses_a_folder_in_use_and_a_name_that_breaks_yaml(tmp_path):
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "notes.txt").write_text("mine")
    result = run("new", "Fine", tmp_path / "used")
    assert result.returncode == 2 and "not empty" in result.stderr and (tmp_path / "used" / "notes.txt").exists()
    result = run("new", 'Bad: "name"', tmp_path / "bad")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
