"""A budget of work, not only of size (issue #41): each cause of a hang, a blow-up or a traceback that a
stranger's game folder could bring is refused by `check` and `build` alike, each its own process under a
1.5 GB address-space cap with an environment variable planted: no traceback, done within 30 s, one line,
the same from both, the variable's value nowhere.

Each test is a one-card game with one small layout file (or card list); a refusal is exit status 2 and one
line on stderr, a face that cannot be drawn whole is one warning line, the same in both reports."""
from __future__ import annotations

import zipfile
from functools import partial
from pathlib import Path

import pytest

from cli_runner import TINY_CARDS, TINY_GAME as GAME, TINY_PROBE as LAYOUT, refused_untrusted, run_untrusted
from cli_runner import tiny_game, untrusted_check_and_build

TIME_LIMIT = 30  # seconds a run may take: nothing past it
run = partial(run_untrusted, time_limit=TIME_LIMIT)
refused = partial(refused_untrusted, time_limit=TIME_LIMIT)


@pytest.fixture
def game(tmp_path) -> Path:
    return tiny_game(tmp_path / "tiny")


def with_layout(game: Path, boxes: str = "", let: str = "", checks: str = "") -> None:
    (game / "layouts" / "probe.yaml").write_text(LAYOUT + boxes + (f"let:\n{let}" if let else "")
                                                 + (f"checks:\n{checks}" if checks else ""))


def warned(game: Path, *expected: str) -> str:
    """check and build: done (status 0), and the same one warning, every `expected` in it."""
    lines = []
    for result in untrusted_check_and_build(game, TIME_LIMIT):
        assert result.returncode == 0, result.stderr[-2000:]
        warnings = [line.strip().removeprefix("warning: ") for line in result.stdout.splitlines()
                    if line.strip().startswith("warning: ")]
        assert len(warnings) == 1, result.stdout
        lines.append(warnings[0])
    assert lines[0] == lines[1], lines
    assert all(text in lines[0] for text in expected), lines[0]
    return lines[0]


# ---- every value bounded as it is made ---------------------------------------------------------------------

@pytest.mark.parametrize("expression, expected", [
    ("len(str([[[0] * 10000] * 10000] * 10000))", "the size of a value made"),  # shared lists counted each time
    ("[[0] * 10000] * 10000 == [[0] * 10000] * 10000", "is 100,010,000, over the limit of 100,000"),
    ("len([[0] * 9000, [0] * 9000] + [[0] * 9000] * 10)",  # + measured before the lists are joined
     "the size of a value made (entries and characters, lists within lists counted each time) is 108,012"),
    ("len(upper(str(steps(0, 0.123456789, 10000))))", "the length of a text"),  # a function's text
    ("7 in [round(1e9)] * 3 * 100000000000000000000 * 100000000000000000000", "over the limit of 10,000"),
    ("len(str(123456789012345 * 123456789012345 * 123456789012345))",
     "the digits of a whole number is 43, over the limit of 30"),
])
def test_a_value_past_its_whole_size_is_refused_as_it_is_made(game, expression, expected):
    with_layout(game, f"  probe: {{kind: rect, x: 1, y: 1, w: 2, h: '{expression}'}}\n")
    refused(game, "probe.yaml:5: boxes.probe.h:", expected)


def test_a_template_of_many_long_placeholders_stops_at_the_texts_limit(game):
    with_layout(game, "  probe: {kind: text, x: 1, y: 1, w: 20, h: 9, text: '" + "{long}" * 500 + "'}\n",
                let="  long: \"'x' * 9000\"\n")
    refused(game, "probe.yaml:5: boxes.probe.text: the length of a text is 18,000, over the limit of 10,000")


@pytest.mark.parametrize("chain, expected", [
    ("'x' * 5000", "probe.yaml:9: let.l2: the length of a text is 20,000, over the limit of 10,000"),
    ("[[0] * 100] * 100", "probe.yaml:11: let.l4: the size of a value made"),
])
def test_a_chain_of_lets_doubling_is_refused_at_the_first_past_the_limit(game, chain, expected):
    lets = f"  l0: \"{chain}\"\n" + "".join(f"  l{n}: l{n - 1} + l{n - 1}\n" for n in range(1, 60))
    with_layout(game, "  probe: {kind: rect, x: 1, y: 1, w: 2, h: 'len(l59)'}\n", let=lets)
    refused(game, expected)


def test_a_chain_of_lets_squaring_is_refused_at_the_first_past_the_limit(game):
    lets = "  l0: 1000\n" + "".join(f"  l{n}: l{n - 1} * l{n - 1}\n" for n in range(1, 60))
    with_layout(game, "  probe: {kind: rect, x: 1, y: 1, w: 2, h: 'l59 % 7'}\n", let=lets)
    refused(game, "probe.yaml:9: let.l2: a number is 1e+12, over the limit of 1,000,000,000")


# ---- what a face draws in all, and its time --------------------------------------------------------------

@pytest.mark.parametrize("box", [
    "{kind: polygon, repeat: entries(10000), points: 'polygon_points(10, 10, 5, 10000)', fill: '#000000'}",
    "{kind: path, repeat: entries(10000), commands: \"[['M', 0, 0]] + [['L', 1, 1]] * 9999\", stroke: '#000000'}",
    "{kind: text, repeat: entries(10000), x: 1, y: 1, w: 20, h: 9, text: \"{str(index) * 2500}\"}",
])
def test_a_face_drawing_too_much_in_all_is_refused(game, box):
    with_layout(game, f"  probe: {box}\n")
    refused(game, "probe.yaml:5: boxes.probe: what one face draws (corners, path commands and characters in all) is 2",
            "over the limit of 200,000")


SLOW = ("  probe: {kind: group, repeat: entries(10000), boxes: {inner: {kind: rect, repeat: entries(9), x: 1, y: 1, "
        "w: 2, h: '" + " + ".join(["len(str(a == b))"] * 100) + "'}}}\n")


def test_a_face_whose_work_no_budget_counts_is_stopped_by_its_clock(game):
    """90,000 boxes each compare two lists of 10,000 numbers 100 times: every value and count is within its
    limits, and the face's CPU time is what ends it, in one line naming the face and the limit."""
    with_layout(game, SLOW, let="  a: '[0.5] * 10000'\n  b: '[0.5] * 10000'\n")
    refused(game, "cards.yaml: deck: Hello: front: drawing this face took more than 2 s of CPU time, the limit "
                  "of one face")


# ---- face-level lets and checks in the guard boxes have ---------------------------------------------------

def test_a_face_level_let_that_cannot_be_computed_is_one_warning(game):
    with_layout(game, "  probe: {kind: rect, x: 1, y: 1, w: 2, h: 'a + 1', fill: '#000000'}\n", let="  a: 1 / 0\n")
    warned(game, "front: let a: division by zero; the face's boxes are not drawn")


def test_a_check_that_cannot_be_computed_is_one_warning(game):
    with_layout(game, checks="  - {when: 1 / 0, warn: never}\n")
    warned(game, "front: checks[0]: not checked: division by zero")


@pytest.mark.parametrize("points, expected", [
    ("star_points(10, 10, 5, 2, -5)", "box probe: not drawn: a shape has 2 points or more, not -5"),
    ("polygon_points(10, 10, 5, 2)", "box probe: not drawn: a shape has 3 sides or more, not 2"),
    ("[]", "box probe: not drawn: a polygon's points are one or more [x, y] pairs of numbers; got '[]'"),
    ("[['a', 1]]", "box probe: not drawn: a polygon's points are one or more [x, y] pairs of numbers"),
])
def test_a_polygon_with_no_corners_is_one_warning_not_a_crash_at_writing(game, points, expected):
    with_layout(game, f"  probe: {{kind: polygon, points: \"{points}\", fill: '#000000'}}\n")
    warned(game, expected)


# ---- card lists: counted before anything is made ----------------------------------------------------------

ODS_CONTENT = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content '
               'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
               'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
               'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>'
               '<table:table table:name="Cards"><table:table-row><table:table-cell><text:p>count</text:p>'
               '</table:table-cell><table:table-cell><text:p>title</text:p></table:table-cell></table:table-row>'
               '{rows}</table:table></office:spreadsheet></office:body></office:document-content>')


def with_card_list(game: Path, name: str) -> None:
    (game / "cards.yaml").write_text(TINY_CARDS.replace("      - {count: 1}\n", "").replace("items:", f"items: {name}"))


@pytest.mark.parametrize("row, expected", [
    ('<table:table-row><table:table-cell table:number-columns-repeated="100000000"><text:p>1</text:p>'
     '</table:table-cell></table:table-row>', "the count of columns is 100,000,000, over the limit of 1,000"),
    ('<table:table-row><table:table-cell table:number-columns-repeated="1000000000"/>'
     '<table:table-cell><text:p>1</text:p></table:table-cell></table:table-row>',
     "the count of columns is 1,000,000,001, over the limit of 1,000"),
    ('<table:table-row table:number-rows-repeated="100000000"><table:table-cell><text:p>1</text:p>'
     '</table:table-cell></table:table-row>', "the count of rows up to the last used one is 100,000,001, over the "
                                               "limit of 100,000"),
])
def test_an_ods_sheet_repeating_a_cell_or_row_past_its_limits_is_refused_unbuilt(game, row, expected):
    with zipfile.ZipFile(game / "cards.ods", "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("content.xml", ODS_CONTENT.format(rows=row))
    with_card_list(game, "cards.ods")
    refused(game, "cards.ods:Cards: ", expected)


def test_an_xlsx_sheet_wider_than_a_card_list_is_refused(game):
    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = "Cards"
    book.active.append(["count", "title"])
    book.active.cell(2, 1, 1)
    book.active.cell(2, 16384, "x")
    book.save(game / "cards.xlsx")
    with_card_list(game, "cards.xlsx")
    refused(game, "cards.xlsx:Cards: the count of columns is 16,384, over the limit of 1,000")


def test_a_csv_of_a_million_rows_is_refused_at_the_row_past_the_limit(game):
    (game / "cards.csv").write_text("count\n" + "1\n" * 1_000_000)  # 2 MB
    with_card_list(game, "cards.csv")
    refused(game, "cards.csv:100002: the count of rows under the header is 100,001, over the limit of 100,000")


def test_a_csv_of_50000_columns_is_refused_at_its_header(game):
    (game / "cards.csv").write_text(",".join(f"c{n}" for n in range(50_000)) + "\n" + "1," * 49_999 + "1\n")
    with_card_list(game, "cards.csv")
    refused(game, "cards.csv:1: the count of columns is 50,000, over the limit of 1,000")


# ---- serve --game-folder: the same budgets at start-up ------------------------------------------------------

def test_serve_refuses_at_start_up_a_game_folder_whose_layout_never_finishes(game, tmp_path):
    (game / "game.yaml").write_text(GAME + "tracker:\n  counters: [{id: points, label: Points, min: 0, max: 9}]\n"
                                           "  score: points\n")
    with_layout(game, SLOW, let="  a: '[0.5] * 10000'\n  b: '[0.5] * 10000'\n")
    result = run("serve", "--game-folder", game, "--port", "5317", "--data", tmp_path / "data")
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr[-2000:]
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("--game-folder: cards.yaml: deck: Hello: front: drawing this face took more than 2 s"), line
