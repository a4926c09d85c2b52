"""A game folder is untrusted input (issue #33): each way a shared folder could reach Python, read outside
itself or take the machine is refused by `check` and `build` alike with one line naming file, line and limit,
exit status 2, under a memory cap and a time limit, and an environment variable's value never reaches any
output."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cli_runner import TINY_CARDS as CARDS, TINY_GAME as GAME, TINY_PROBE as PROBE, UNTRUSTED_MARKER as MARKER
from cli_runner import refused_untrusted as refused, run_untrusted as run, tiny_game


@pytest.fixture
def game(tmp_path) -> Path:
    """A one-card game with its own layout file `probe`, and a file outside it holding the marker."""
    (tmp_path / "outside.txt").write_text(f"{MARKER}\n{MARKER},x\n")
    return tiny_game(tmp_path / "tiny")


def with_box(game: Path, box: str, let: str = "") -> None:
    (game / "layouts" / "probe.yaml").write_text(PROBE + f"  probe: {box}\n" + (f"let:\n{let}" if let else ""))


# ---- expressions are data, not Python -------------------------------------------------------------------

@pytest.mark.parametrize("expression, expected", [
    ("column([upper], '__globals__')", "upper is a function; call it"),
    ("column(column([text_width], '__globals__'), 'os')", "text_width is a function"),
    ("quoted(min)", "min is a function"),
    ("w.__class__", "'__class__' is not allowed"),
    ("title.upper()", "unknown function"),
    ("__builtins__", "'__builtins__' is not allowed"),
    ("[c for c in title]", "listcomp is not allowed"),
    ("(lambda: 1)()", "unknown function"),
    ("(lambda: 1)", "lambda is not allowed"),
    ("str(title, encoding='x')", "without name="),
    ("title if 1 else title.__doc__", "'__doc__' is not allowed"),
    ("title.__len__", "'__len__' is not allowed"),
])
def test_an_expression_cannot_reach_python(game, expression, expected):
    with_box(game, f'{{kind: text, x: 1, y: 1, w: 20, h: 10, text: "{{{expression}}}"}}')
    refused(game, "probe.yaml:5: boxes.probe.text:", expected)


def test_a_field_of_an_entry_is_its_data_never_a_python_attribute(game):
    """`column()` and `.name` read declared fields and mapping keys only: a model's methods, class and
    dunders are not fields, so the box is not drawn and the warning says why; the marker is nowhere."""
    (game / "layouts" / "probe.yaml").write_text(
        "fields:\n  title: {type: text, default: ''}\n  rows: {type: list, items: {name: {type: text}}, default: []}\n"
        "boxes:\n  names: {kind: text, x: 1, y: 1, w: 50, h: 10, text: \"{column(rows, 'model_fields')}\"}\n"
        "  copy: {kind: text, x: 1, y: 20, w: 50, h: 10, text: \"{column(rows, 'copy')}\"}\n")
    (game / "cards.yaml").write_text(CARDS.replace("title: Hello}", "title: Hello, rows: [{name: a}]}"))
    result = run("check", game)
    assert result.returncode == 0 and "Traceback" not in result.stderr and MARKER not in result.stdout
    assert "box names: not drawn: no field 'model_fields'" in result.stdout, result.stdout
    assert "box copy: not drawn: no field 'copy'" in result.stdout


# ---- nothing outside the folder ------------------------------------------------------------------------

def test_a_spreadsheet_linking_out_of_the_folder_is_refused_unread(game):
    (game / "cards.csv").symlink_to(game.parent / "outside.txt")
    (game / "cards.yaml").write_text(CARDS.replace("      - {count: 1}\n", "").replace("items:", "items: cards.csv"))
    refused(game, "cards.yaml:", "components[0].items: 'cards.csv': a spreadsheet must be a file inside the "
                                 "game's folder")


def test_an_icon_file_linking_out_of_the_folder_is_refused_unread(game):
    (game / "icons").mkdir()
    (game / "icons" / "spy.svg").symlink_to(game.parent / "outside.txt")
    refused(game, "icons/spy.svg: an icon file must be a file inside the game's folder")


def test_an_icon_file_linking_to_itself_is_no_icon_and_stops_nothing(game):
    """A link in a loop (icons/loop.svg -> loop.svg) is not a file: check lists the game's warnings as for a
    folder without it, no traceback."""
    (game / "icons").mkdir()
    (game / "icons" / "loop.svg").symlink_to("loop.svg")
    result = run("check", game)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr[-2000:]


def test_an_icons_folder_linking_out_of_the_folder_is_refused_unread(game):
    """Each icon file's own place is resolved only when it is a link; the folder is resolved too."""
    (game.parent / "elsewhere").mkdir()
    (game.parent / "elsewhere" / "spy.svg").write_text(f"<svg>{MARKER}</svg>")
    (game / "icons").symlink_to(game.parent / "elsewhere")
    refused(game, "icons/spy.svg: an icon file must be a file inside the game's folder")


@pytest.mark.parametrize("name", ["layouts/linked.yaml", "linked.yaml"])
def test_a_layout_or_data_file_linking_out_of_the_folder_is_refused_unread(game, name):
    (game.parent / "outside.yaml").write_text(f"description: {MARKER}\n")
    (game / name).symlink_to(game.parent / "outside.yaml")
    refused(game, f"{name}: ", "must be a file inside the game's folder")


def listing(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("linked", [".cache", ".cache/published", "copy"])
def test_a_cache_linking_out_of_the_folder_is_never_read_or_written_through(game, linked):
    """A published sheet's kept copy: `.cache`, `.cache/published` or the copy itself links to an outside
    folder holding a "kept copy" full of the marker. Refused in one line before any fetch (the address is an
    unused loopback port: there is nothing to fetch), so the outside copy is neither printed nor replaced."""
    from starpnp.generator.data.published import cached_copy

    url = "https://127.0.0.1:9/sheet.csv"
    outside = game.parent / "elsewhere"
    relative = cached_copy(game, url).relative_to(game)
    (outside / relative).parent.mkdir(parents=True)
    (outside / relative).write_text(f"title\n{MARKER}\n")
    (game / "cards.yaml").write_text(CARDS.replace("      - {count: 1}\n", "").replace("items:", f"items: {url}"))
    if linked == "copy":
        (game / relative).parent.mkdir(parents=True)
        (game / relative).symlink_to(outside / relative)
        expected = f"{game / relative}: "
    else:
        (game / linked).parent.mkdir(parents=True, exist_ok=True)
        (game / linked).symlink_to(outside / linked)
        expected = f"{game / linked}: "
    before = listing(outside)
    line = refused(game, expected, "must be a real folder or file inside the game's folder, not a link")
    assert "127.0.0.1" not in line and listing(outside) == before


def test_a_converted_font_is_never_read_or_written_through_a_cache_link(game):
    """An .otf font is converted once into .cache/fonts/; a `.cache` linking out holding a "converted copy"
    is refused, neither embedded nor overwritten."""
    fixtures = Path(__file__).resolve().parent.parent / "fixtures"
    (game / "fonts").mkdir()
    shutil.copy(fixtures / "fonts" / "ComicNeue-Regular.otf", game / "fonts")
    with_box(game, "{kind: text, x: 1, y: 1, w: 40, h: 10, text: Hi, font: Comic Neue}")
    outside = game.parent / "elsewhere"
    (outside / "fonts").mkdir(parents=True)
    (outside / "fonts" / "planted.ttf").write_text(MARKER)
    (game / ".cache").symlink_to(outside)
    before = listing(outside)
    refused(game, f"{game / '.cache'}: must be a real folder or file inside the game's folder, not a link")
    assert listing(outside) == before


@pytest.fixture
def extending_outside(game) -> Path:
    """An overrides folder `mine` beside `tiny` whose overrides.yaml extends it: `../tiny`, outside itself."""
    mine = game.parent / "mine"
    mine.mkdir()
    (mine / "overrides.yaml").write_text("extends: ../tiny\ngame: {name: Mine}\n")
    return mine


def test_extends_outside_the_folder_is_one_warning_line_from_check_and_build(extending_outside):
    """On the command line its user named the folder, so the game beside it is read, and said so in one
    line naming it, the same from check and build."""
    out = extending_outside.parent / "out"
    said = []
    for command in (["check", extending_outside], ["build", extending_outside, "--format", "pdf", "--out", out]):
        result = run(*command)
        assert result.returncode == 0 and "Traceback" not in result.stderr, result.stdout + result.stderr
        said.append([line.strip() for line in result.stdout.splitlines() if "warning:" in line])
    expected = (f"warning: {extending_outside / 'overrides.yaml'}:1: extends: '../tiny': a game outside this "
                f"folder, read because the command line named this folder (a server refuses it)")
    assert said == [[expected], [expected]]


@pytest.mark.parametrize("option", ["--game-folder", "--print-folder"])
def test_a_server_refuses_a_folder_extending_a_game_outside_it(extending_outside, option, tmp_path):
    """`serve` refuses it in one line at start-up, before listening (a port nothing else uses)."""
    result = run("serve", option, extending_outside, "--port", "5312", "--data", tmp_path / "data")
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.strip() == (f"{option}: {extending_outside / 'overrides.yaml'}:1: extends: '../tiny': a "
                                     f"game outside this folder; a server reads nothing outside the folders it is "
                                     f"given")


# ---- one budget for every input -----------------------------------------------------------------------------

def csv_game(game: Path, cell: str) -> None:
    (game / "cards.csv").write_text(f'count,title\n1,"{cell}"\n')
    (game / "cards.yaml").write_text(CARDS.replace("      - {count: 1}\n", "").replace(
        "items:", "items: cards.csv").replace("title: Hello", "title: x"))


def test_a_spreadsheet_cell_nested_thousands_deep_is_refused(game):
    csv_game(game, "[" * 5000 + "]" * 5000)
    refused(game, "cards.csv:2: title: nested too deep (at most 60 levels)")


def test_a_spreadsheet_cell_holding_an_alias_bomb_is_refused(game):
    bomb = "[&a [x,x,x,x,x,x,x,x,x], &b [*a,*a,*a,*a,*a,*a,*a,*a,*a], &c [*b,*b,*b,*b,*b,*b,*b,*b,*b], " \
           "&d [*c,*c,*c,*c,*c,*c,*c,*c,*c], &e [*d,*d,*d,*d,*d,*d,*d,*d,*d], &f [*e,*e,*e,*e,*e,*e,*e,*e,*e], " \
           "&g [*f,*f,*f,*f,*f,*f,*f,*f,*f], [*g,*g,*g,*g,*g,*g,*g,*g,*g]]"
    csv_game(game, bomb)
    refused(game, "cards.csv:2: title: aliases expand to more than 200000 values")


@pytest.mark.parametrize("box, expected", [
    ("{kind: rect, x: 1, y: 1, w: 2, h: '1e308*10'}", "probe.yaml:5: boxes.probe.h: a number is inf, over the "
                                                      "limit of 1,000,000,000"),
    ("{kind: rect, x: 1, y: 1, w: 2, h: 1e308}", "probe.yaml:5: boxes.probe.h: a number is 1e+308"),
    ("{kind: text, x: 1, y: 1, w: 2, h: 2, text: \"{'x' * 10000000000}\"}",
     "probe.yaml:5: boxes.probe.text: a text or list repeated is 10,000,000,000, over the limit of 10,000"),
    ("{kind: rect, x: " + "+".join(["1"] * 30000) + ", y: 1, w: 2, h: 2}",
     "probe.yaml:5: boxes.probe.x: the length of an expression is 59,999, over the limit of 2,000"),
    ("{kind: rect, x: " + "-" * 1900 + "1, y: 1, w: 2, h: 2}", "probe.yaml:5: boxes.probe.x:"),
    ("{kind: group, repeat: entries(10000), boxes: {inner: {kind: rect, repeat: entries(10000), x: 1, y: 1, "
     "w: 1, h: 1}}}", "the count of boxes one face draws is 100,001, over the limit of 100,000"),
    ("{kind: polygon, points: 'polygon_points(10, 10, 5, 10000000)', fill: '#000000'}",
     "probe.yaml:5: boxes.probe.points: the corners of a shape is 10,000,000, over the limit of 10,000"),
    ("{kind: polygon, points: 'star_points(10, 10, 5, 2, 10000000)', fill: '#000000'}",
     "the corners of a shape is 20,000,000"),
    ("{kind: rect, repeat: 'steps(0, 1, 100000000)', x: 1, y: 1, w: 1, h: 1}",
     "boxes.probe.repeat: a count of entries is 100,000,000, over the limit of 10,000"),
    ("{kind: text, x: 1, y: 1, w: 2, h: 2, text: '{title:999999999}'}", "not an expression"),
    ("{kind: text, x: 1, y: 1, w: 2, h: 2, text: \"{'%999999999d' % 1}\"}", None),
])
def test_a_layout_that_would_crash_or_eat_the_machine_is_refused(game, box, expected):
    with_box(game, box)
    if expected is None:  # `text % value` is no formatting: a box not drawn, said in one short warning
        result = run("check", game)
        assert result.returncode == 0 and "% is the remainder of numbers" in result.stdout, result.stdout
        return
    refused(game, expected)


@pytest.mark.parametrize("name", ["__class__", "_x", "model_config"])
def test_a_field_named_like_pythons_own_names_is_refused(game, name):
    (game / "layouts" / "probe.yaml").write_text(PROBE.replace("title:", f"{name}:"))
    refused(game, f"probe.yaml:2: fields.{name}: a field name may not begin with _ or model_")


def test_an_extends_chain_thousands_long_is_refused(game):
    for n in range(2000):
        (game / "layouts" / f"l{n}.yaml").write_text(f"extends: l{n + 1}\n" if n < 1999 else PROBE)
    (game / "cards.yaml").write_text(CARDS.replace("layout: probe", "layout: l0"))
    refused(game, "l20.yaml:1: extends: the chain of layout files extending one another is 21, over the limit of 20")


def test_a_let_past_a_limit_is_refused_at_its_line(game):
    with_box(game, "{kind: rect, x: 1, y: 1, w: 2, h: big}", let="  half: 1e9\n  big: half * half\n")
    refused(game, "probe.yaml:8: let.big: a number is 1e+18, over the limit of 1,000,000,000")


def test_a_let_holding_a_list_as_written_is_no_crash(game):
    with_box(game, "{kind: polygon, points: corners, fill: '#000000'}", let="  corners: [[0, 0], [5, 0], [0, 5]]\n")
    result = run("check", game)
    assert result.returncode == 0 and not result.stderr, result.stderr


def test_a_warning_of_any_length_is_one_short_line(game):
    with_box(game, "{kind: warn, text: \"{'w' * 9000}\"}")
    result = run("check", game)
    assert result.returncode == 0, result.stderr
    (warning,) = [line for line in result.stdout.splitlines() if "warning:" in line]
    assert len(warning.strip().removeprefix("warning: ")) == 500 and warning.endswith("w…")


@pytest.mark.parametrize("svg, expected", [
    ("<g>" * 50_000 + "</g>" * 50_000, "elements nested more than 40 deep"),
    ('<path d="M0 0 L1e308 5 Z"/>', "<path> d: L='1e308' is beyond ±1,000,000"),
    ('<g transform="scale(1e30)"><rect width="1" height="1"/></g>', "transform scale='1e30' is beyond ±1,000,000"),
])
def test_an_icon_file_nested_too_deep_or_drawing_beyond_any_page_is_refused(game, svg, expected):
    (game / "icons").mkdir()
    (game / "icons" / "odd.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">{svg}</svg>')
    refused(game, "icons/odd.svg:", expected)


# ---- serve --game-folder ---------------------------------------------------------------------------------

def test_serve_refuses_a_game_folder_that_check_refuses(game, tmp_path):
    (game / "game.yaml").write_text(GAME + "tracker:\n  counters: [{id: points, label: Points, min: 0, max: 9}]\n"
                                           "  score: points\n")
    with_box(game, "{kind: rect, x: 1, y: 1, w: 2, h: '1e308*10'}")
    result = run("serve", "--game-folder", game, "--port", "5311", "--data", tmp_path / "data")
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("--game-folder: ") and "probe.yaml:5: boxes.probe.h: a number is inf" in line
