"""What a designer met in their first hour with a game of their own (issue #35), each fixed: the scaffold's
two-line titles, warnings that name the spreadsheet, a quote left open, accented names, the watch's report,
a mistyped column, the coin's number, `build --help` and what `check` sees."""
from __future__ import annotations

from pathlib import Path

import pytest

from cli_runner import one_line, run
from starpnp.generator.customise import new_game
from starpnp.generator.look.checks import face_warnings
from starpnp.generator.look.loader import load_game
from starpnp.generator.look.render import SceneCache, faces, slug
from starpnp.generator.look.scene import Circle, Group

TWO_LINE_TITLES = ["Harbour Master General", "Windfall of the Northern Harbour Lights", "Lighthouse Keeper's Oath"]


@pytest.fixture
def scaffold(tmp_path) -> Path:
    folder = tmp_path / "harbour"
    new_game("Harbour Lights", folder)
    return folder


def titled(folder: Path, titles: list[str]) -> None:
    rows = "".join(f"1,{title},Event,1,1,Look out.,\n" for title in titles)
    (folder / "cards.csv").write_text("count,title,type,cost,value,text,color\n" + rows)


def test_the_scaffold_checks_clean_with_two_line_titles(scaffold):
    titled(scaffold, TWO_LINE_TITLES)
    game = load_game(scaffold)
    assert face_warnings(game, scaffold) == []
    deck = next(c for c in game.components if c.spec.id == "deck")
    cache = SceneCache(3.0, scaffold)
    for piece in deck.pieces:  # and each title really is on two lines
        scene = cache.face(deck, piece, "front")
        assert any(len(getattr(e, "lines", ())) == 2 for e in scene.elements), piece.name


def test_check_names_a_text_box_hidden_under_another_box(scaffold):
    """The scaffold's layout as it was: the title box 12 mm tall in a 10.56 mm band."""
    layout = scaffold / "layouts" / "deck_card.yaml"
    layout.write_text(layout.read_text().replace("let:\n  title_h: 12", "let: {}\n#").replace(
        "title: {size: 14}", "title: {h: 12, size: 14}"))
    titled(scaffold, ["Trade", "Harbour Master General"])
    result = run("check", scaffold)
    assert result.returncode == 0 and "1 warning" in result.stdout, result.stdout + result.stderr
    assert ("  warning: cards.csv:3: deck: Harbour Master General: front: title: text hidden under box 'panel' "
            "drawn over it") in result.stdout.splitlines()
    assert run("check", scaffold, "--strict").returncode == 2


def test_a_warning_about_a_csv_row_names_the_csv(scaffold):
    titled(scaffold, ["Trade", "Pay {nugget}"])
    [warning] = face_warnings(load_game(scaffold), scaffold)
    assert warning.startswith("cards.csv:3: deck: Pay {nugget}: front: title: {nugget} is neither an icon")


@pytest.mark.parametrize("tail", ["", '1,Anchor,Event,1,1,"Drop it, then wait.",\n'])
def test_a_quote_left_open_in_a_csv_is_an_error_on_its_row(scaffold, tail):
    cards = scaffold / "cards.csv"
    cards.write_text(cards.read_text().replace('the other at the bottom."', "the other at the bottom.") + tail)
    one_line(run("check", scaffold), f"{cards}:3:", 'a quoted cell is not closed (a " is missing)')


def test_a_cell_holding_rows_is_a_quote_closed_too_late(scaffold):
    cards = scaffold / "cards.csv"
    text = cards.read_text().replace('the other at the bottom."', "the other at the bottom.")
    cards.write_text(text + '1,Ruler,Event,1,1,As long as 12",\n')  # that quote closes the cell left open
    result = run("check", scaffold)
    assert result.returncode == 2 and f"{cards}:3: a quoted cell runs over" in result.stderr, result.stderr


def test_a_multi_line_cell_still_reads(scaffold):
    (scaffold / "cards.csv").write_text('count,title,text\n1,Anchor,"Drop it.\nThen wait."\n2,Sail,Go.\n')
    deck = next(c for c in load_game(scaffold).components if c.spec.id == "deck")
    assert [(p.name, p.count, p.front.origin[""]) for p in deck.pieces] == [("Anchor", 1, 2), ("Sail", 2, 4)]


def test_accented_names_keep_their_letters_in_file_names(tmp_path):
    assert slug("Ünïcode Grove") == "unicode-grove" and slug("Œuvre Straße") == "oeuvre-strasse"
    assert slug("日本") == "piece"
    folder = tmp_path / "grove"
    new_game("Ünïcode Grove", folder)
    (folder / "cards.csv").write_text("count,title\n1,Élan Vital\n")
    game = load_game(folder)
    assert game.info.id == "unicode_grove"
    stems = [face.stem for face in faces(game, SceneCache(3.0, folder)) if face.component == "deck"]
    assert stems == ["elan-vital"]


def test_a_typo_in_a_csv_header_is_one_line(scaffold):
    cards = scaffold / "cards.csv"
    cards.write_text(cards.read_text().replace("count,title,", "count,titel,", 1))
    one_line(run("check", scaffold), f"{cards}:1: titel: unknown column; did you mean 'title'?")


def test_the_coins_number_stays_clear_of_its_icon(scaffold):
    game = load_game(scaffold)
    coins = next(c for c in game.components if c.spec.id == "coins")
    scene = SceneCache(3.0, scaffold).face(coins, coins.pieces[0], "front")
    [icon] = [e for e in scene.elements if isinstance(e, Group)]
    disc = next(e for e in scene.elements if isinstance(e, Circle) and e.style.fill and e.r < 3)
    assert disc.cy + disc.r <= icon.dy, (disc, icon.dy)


def test_build_help_lists_the_formats():
    help_text = " ".join(run("build", "--help").stdout.split())
    assert "pdf, svg, png, pdf- single, tts" in help_text or "pdf, svg, png, pdf-single, tts" in help_text
