"""Icons are SVG files: ours in the package, a game's own in its icons/ folder, drawn as vectors in both
backends, with files outside the subset refused by name."""
from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path

import pytest

from cli_runner import replace, run
from starpnp_test_support import MINI
from pdf_probe import render
from starpnp.generator.look.iconfile import IconFileError, read_icon_file
from starpnp.generator.look.icons import builtin_icons, draw_icon, find_icon, icon_names
from starpnp.generator.look.loader import builtin_games, our_game
from starpnp.generator.look.scene import Circle, Group, Path as PathShape, Polygon, Rect, Text
from starpnp.resources import components_dir

GREEN = "#2E7D32"
BEACON = f"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <title>beacon</title>
  <circle cx="50" cy="50" r="48"/>
  <rect x="20" y="20" width="60" height="60" style="fill:{GREEN};stroke:#fff;stroke-width:4"/>
</svg>"""


def game_with_icon(folder: Path, svg: str = BEACON, name: str = "beacon") -> Path:
    shutil.copytree(MINI, folder)
    (folder / "icons").mkdir()
    (folder / "icons" / f"{name}.svg").write_text(svg)
    replace(folder / "chits.yaml", "{layout: chit, label: Fleet, icon: fleet}", "{layout: chit, label: Fleet, icon: beacon}")
    return folder


def test_a_game_folders_own_icon_is_drawn_in_the_pdf_and_the_svg(tmp_path):
    game = game_with_icon(tmp_path / "mini")
    result = run("build", game, "--out", tmp_path / "out", "--format", "pdf,svg", "--strict")
    assert result.returncode == 0, result.stderr
    out = tmp_path / "out" / "mini"
    chits = next(c for c in json.loads((out / "manifest.json").read_text())["components"] if c["id"] == "fleets")
    page = render(out / "mini-a4.pdf", chits["pages"][0], tmp_path, dpi=100)
    green = sum(n for n, (r, g, b) in page.getcolors(1 << 20) if abs(r - 0x2E) < 8 and abs(g - 0x7D) < 8 and abs(b - 0x32) < 8)
    assert green > 200, "the game's own icon is not on the chit page"

    face = (out / "svg" / "fleets" / "fleet-red-front.svg").read_text()
    label_ink = re.search(r'<g fill="(#[0-9A-F]{6})" font-family=[^>]*><text[^>]*>Fleet<', face)[1]
    # the red chit: the layout prints its icon in the label's ink on the chit's red, the icon's paper
    assert re.search(rf'<circle cx="50" cy="50" fill="{label_ink}" r="48"', face), "black in the file is the ink"
    assert f'<rect fill="{GREEN}" height="60" stroke="#C62828" stroke-width="4" width="60" x="20" y="20"' in face, \
        "white in the file is the paper"


def test_a_users_overrides_folder_uses_its_own_icons_and_the_extended_games(tmp_path):
    base = game_with_icon(tmp_path / "base")
    mine = tmp_path / "mine"
    (mine / "icons").mkdir(parents=True)
    (mine / "icons" / "mark.svg").write_text(BEACON.replace(GREEN, "#6A1B9A"))
    (mine / "overrides.yaml").write_text("extends: ../base\ncomponents:\n  deck:\n    items:\n"
                                         "      Attack: {icon: mark}\n")
    result = run("build", mine, "--out", tmp_path / "out", "--format", "svg")
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stdout.splitlines() if "warning:" in line]
    assert len(warnings) == 1 and "extends: '../base': a game outside this folder" in warnings[0], warnings
    faces = {p.name: p.read_text() for p in (tmp_path / "out" / "mine" / "svg").rglob("*.svg")}
    assert any('fill="#6A1B9A"' in text for text in faces.values()), "the user's own icon is missing"
    assert any(f'fill="{GREEN}"' in text for text in faces.values()), "the extended game's icon is missing"
    assert base.is_dir()


def test_a_game_folders_icon_with_the_name_of_one_of_ours_replaces_ours_in_that_game(tmp_path):
    game = tmp_path / "mini"
    shutil.copytree(MINI, game)
    (game / "icons").mkdir()
    (game / "icons" / "fleet.svg").write_text(BEACON)
    assert run("build", game, "--out", tmp_path / "out", "--format", "svg").returncode == 0
    assert f'fill="{GREEN}"' in (tmp_path / "out" / "mini" / "svg" / "fleets" / "fleet-red-front.svg").read_text()
    assert not (game / "icons" / "fleet.svg").samefile(find_icon("fleet").file)


@pytest.mark.parametrize("svg, message", [
    ("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'><circle r='4'></svg>", "not valid SVG"),
    ("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'><image href='a.png'/></svg>",
     "<image> is outside what is drawn"),
    ("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'><g filter='url(#f)'><path d='M0 0h9v9z'/></g></svg>",
     "<g> filter='url(#f)': filters are outside what is drawn"),
    ("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'><rect width='9' height='9' fill='url(#g)'/></svg>",
     "<rect> fill='url(#g)': gradients and patterns are outside what is drawn"),
    ("<svg xmlns='http://www.w3.org/2000/svg'><rect width='9' height='9'/></svg>", "<svg> needs a viewBox"),
    ("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 9 9'><circle r='-2'/></svg>", "<circle> r='-2' is negative"),
    ("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 9 9'><g style='mask:url(#m)'><rect width='9' height='9'/></g></svg>",
     "<g> mask='url(#m)': masks are outside what is drawn"),
])
def test_check_and_build_name_an_icon_file_they_cannot_draw(tmp_path, svg, message):
    game = game_with_icon(tmp_path / "mini", svg=svg, name="broken")
    for command in (("check", game), ("build", game, "--out", tmp_path / "out", "--format", "pdf")):
        result = run(*command)
        assert result.returncode == 2, result.stdout
        assert "Traceback" not in result.stderr
        assert result.stderr.startswith(f"{game / 'icons' / 'broken.svg'}: ")
        assert message in result.stderr.splitlines()[0]


def test_check_names_the_first_element_outside_what_is_drawn_in_each_icon_file_one_line_a_file(tmp_path):
    game = game_with_icon(tmp_path / "mini")
    head = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 9 9'><rect width='9' height='9'/>"
    (game / "icons" / "one.svg").write_text(head + "<image href='a.png'/><g filter='url(#f)'/></svg>")
    (game / "icons" / "two.svg").write_text(head + "<g mask='url(#m)'><path d='M0 0h9'/></g>"
                                                   "<rect width='2' height='2' fill='url(#g)'/></svg>")
    result = run("check", game)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        f"{game / 'icons' / 'one.svg'}: <image> is outside what is drawn (what icons may use: see components/README.md)",
        f"{game / 'icons' / 'two.svg'}: <g> mask='url(#m)': masks are outside what is drawn (what icons may use: see "
        "components/README.md)"]


def test_check_warns_of_a_path_drawn_up_to_an_error_naming_the_file(tmp_path):
    game = game_with_icon(tmp_path / "mini", svg=BEACON.replace("<title>", '<path d="M10 10 L20 20 # 5"/><title>'))
    result = run("check", game)
    assert result.returncode == 0, result.stderr
    assert f"warning: {game / 'icons' / 'beacon.svg'}: <path> d: '#' is not SVG path data; drawn up to there" \
        in result.stdout, result.stdout


def test_an_unknown_icon_suggests_the_game_folders_own(tmp_path):
    game = game_with_icon(tmp_path / "mini")
    replace(game / "chits.yaml", "icon: beacon}", "icon: beakon}")
    result = run("check", game)
    assert result.returncode == 2
    assert re.search(r"chits\.yaml:\d+: components\[0\]\.front\.icon: unknown icon 'beakon'; did you mean beacon",
                     result.stderr), result.stderr


def icon(tmp_path: Path, body: str, view_box: str = "0 0 100 100") -> Path:
    file = tmp_path / "probe.svg"
    file.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view_box}">{body}</svg>')
    return file


def test_path_data_in_every_supported_form_becomes_absolute_lines_and_curves(tmp_path):
    (path,) = read_icon_file(icon(tmp_path, '<path d="m10,10 h20 v10 l-5 5 H10 L10 40 c0 10 10 10 10 0 '
                                               's10 -10 20 0 Q50 60 60 40 t20 0 z M1 2 3 4"/>')).elements
    assert path.commands == (
        ("M", 10, 10), ("L", 30, 10), ("L", 30, 20), ("L", 25, 25), ("L", 10, 25), ("L", 10, 40),
        ("C", 10, 50, 20, 50, 20, 40), ("C", 20, 30, 30, 30, 40, 40),
        ("C", 40 + 2 / 3 * 10, 40 + 2 / 3 * 20, 60 + 2 / 3 * -10, 40 + 2 / 3 * 20, 60, 40),
        ("C", 60 + 2 / 3 * 10, 40 + 2 / 3 * -20, 80 + 2 / 3 * -10, 40 + 2 / 3 * -20, 80, 40),
        ("Z",), ("M", 1, 2), ("L", 3, 4))


def test_an_arc_becomes_curves_through_the_same_points(tmp_path):
    half, quarter, turned = read_icon_file(icon(tmp_path, '<path d="M0 50 A50 50 0 0 1 100 50"/>'
                                                               '<path d="M30 20 a10 10 0 1 1 -10 -10"/>'
                                                               '<path d="M10 10 a20 10 90 0 0 20 0"/>')).elements
    (_, *start), first, second = half.commands
    assert start == [0, 50] and first[5:] == pytest.approx((50, 0)) and second[5:] == (100, 50)
    assert first[1:3] == pytest.approx((0, 50 - 4 / 3 * math.tan(math.pi / 8) * 50))  # leaves upwards
    ends = [c[5:] for c in quarter.commands[1:]]
    # the long way round (large arc), clockwise on the page (sweep): three quarter turns, via bottom and left
    assert len(ends) == 3 and ends[-1] == (20, 10)
    assert ends[0] == pytest.approx((20, 30)) and ends[1] == pytest.approx((10, 20))
    # an ellipse turned upright: 10 wide, so the chord is its width, and the arc dips 20 below it
    assert turned.commands[1][5:] == pytest.approx((20, 30)) and turned.commands[2][5:] == (30, 10)


def test_shapes_transforms_and_clips_become_scene_elements(tmp_path):
    elements = read_icon_file(icon(tmp_path, """
        <defs><clipPath id="c"><circle cx="50" cy="50" r="30"/></clipPath></defs>
        <g transform="translate(10 20) rotate(90) scale(2)" clip-path="url(#c)" stroke="currentColor" stroke-width="3">
          <rect x="1" y="2" width="3" height="4" rx="1" fill="none"/>
          <polygon points="0,0 10,0 5,8"/>
        </g>
        <ellipse cx="0" cy="0" rx="4" ry="2" transform="skewX(45)"/>
        <text x="50" y="60" font-family="Lato" font-weight="900" font-size="10" text-anchor="middle" fill="#fff">A</text>
    """)).elements
    group, skewed, text = elements
    assert group.matrix == pytest.approx((0, 2, -2, 0, 10, 20))  # translate, then rotate, then scale
    assert isinstance(group.clip, PathShape) and group.clip.commands[0] == ("M", 80, 50)  # the circle's outline
    rect, triangle = group.children
    assert isinstance(rect, Rect) and rect.radius == 1 and rect.style.fill is None
    assert rect.style.stroke == "ink" and rect.style.stroke_width == 3  # inherited from the group
    assert isinstance(triangle, Polygon) and triangle.style.fill == "ink"  # no fill: SVG's black, the ink
    assert skewed.matrix == pytest.approx((1, 0, 1, 1, 0, 0)) and isinstance(skewed.children[0], PathShape)
    assert isinstance(text, Text) and text.font == "Lato-Black" and text.align == "center" and text.color == "paper"
    assert text.size == pytest.approx(10 * 72 / 25.4)  # user units (mm at size 100) in, points out


def test_style_sheets_presentation_attributes_and_inheritance_cascade_as_css_does(tmp_path):
    shapes = read_icon_file(icon(tmp_path, """
        <style>.a, #b { fill: #fff } path.a { stroke-linecap: round } * { stroke-linejoin: bevel }</style>
        <g fill-rule="evenodd" stroke="black" opacity=".5" stroke-miterlimit="7">
          <path class="a" d="M0 0h9v9z" fill="#000"/>
          <path id="b" d="M0 0h9v9z" style="fill:black" fill-opacity=".25" stroke-opacity="50%"/>
          <path class="a" d="M0 0h9v9z" stroke-dasharray="1 2 3" stroke-dashoffset="2" style="stroke-linecap:inherit"/>
        </g>
        <path d="M0 0h9v9z" fill="none" stroke="none"/>
        <path d="M0 0h9v9z" visibility="hidden"/>
    """)).elements[0].children
    a, b, c = (shape.style for shape in shapes)
    assert a.fill == "paper" and a.cap == "round" and a.join == "bevel"  # a rule beats an attribute
    assert b.fill == "ink" and b.fill_opacity == 0.25 and b.stroke_opacity == 0.5  # style="" beats a rule
    assert {a.fill_rule, b.fill_rule} == {"evenodd"} and {a.opacity, b.opacity} == {0.5} and a.miter_limit == 7
    assert c.dash == (1, 2, 3, 1, 2, 3) and c.dash_offset == 2 and c.cap == "butt"  # an odd dash list repeats


def test_use_draws_a_symbol_or_an_element_by_id_and_width_and_height_stand_for_a_viewbox(tmp_path):
    file = tmp_path / "use.svg"
    file.write_text("""<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
        width="64px" height="32"><defs><symbol id="s" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5"/></symbol>
        <rect id="r" width="1" height="1"/></defs>
        <use xlink:href="#s" x="20" width="40" height="20" fill="#fff"/><use href="#r" y="5"/></svg>""")
    drawing = read_icon_file(file)
    assert drawing.view_box == (0, 0, 64, 32)
    symbol, rect = drawing.elements
    # the symbol's 10 x 10 fitted, centred, into 40 x 20 at x=20: scale 2, 10 in from the left
    assert symbol.matrix == (1, 0, 0, 1, 20, 0) and symbol.children[0].matrix == (2, 0, 0, 2, 10, 0)
    assert symbol.children[0].children[0].style.fill == "paper"  # inherited from the <use>
    assert rect.matrix == (1, 0, 0, 1, 0, 5) and rect.children[0].style.fill == "ink"


@pytest.mark.parametrize("body, message", [
    ('<defs><g id="a0"><rect width="1" height="1"/></g>'
     + "".join(f'<g id="a{i}">' + f'<use href="#a{i - 1}"/>' * 10 + "</g>" for i in range(1, 8))
     + '</defs><use href="#a7"/>', "elements drawn (each <use> counting what it draws) is 20,001, over the limit of 20,000"),
    ('<g id="loop"><use href="#loop"/></g>', "<use> href='#loop' refers to itself"),
    ('<use href="other.svg#a"/>', "<use> href='other.svg#a': a reference to another file is outside what is drawn"),
    ('<style>g > path { fill: red }</style>', "<style>: selector 'g > path': only types, ids and classes are read"),
])
def test_a_use_bomb_a_loop_and_what_is_outside_are_named_in_one_line(tmp_path, body, message):
    with pytest.raises(IconFileError) as error:
        read_icon_file(icon(tmp_path, body))
    assert str(error.value).startswith(f"{tmp_path / 'probe.svg'}: ") and message in str(error.value)


def test_a_path_with_an_error_is_drawn_up_to_it_with_a_warning_naming_the_file(tmp_path):
    drawing = read_icon_file(icon(tmp_path, '<path d="MZ"/><path id="p" d="M0 0 L10 0 10 10 L5 Z"/><path d="M0 0 a1 1 0 01.5 2"/>'))
    cut, arc = drawing.elements
    assert cut.commands == (("M", 0, 0), ("L", 10, 0), ("L", 10, 10))  # up to the L that has one number
    assert arc.commands[-1][-2:] == (0.5, 2)  # an arc's flags written together (01.5) are read apart
    assert drawing.warnings == (f"{tmp_path / 'probe.svg'}: <path> d: M needs 2 numbers; drawn up to there, as a browser does",
                                f'{tmp_path / "probe.svg"}: <path id="p"> d: L needs 2 numbers; drawn up to there, as a browser does')


def test_black_and_white_print_as_the_ink_and_paper_and_greys_as_a_tint_between(tmp_path):
    file = icon(tmp_path, '<rect width="1" height="1" fill="black"/><rect width="1" height="1" fill="#FFF"/>'
                          '<rect width="1" height="1" fill="rgb(50%,50%,50%)"/><rect width="1" height="1" fill="#336699"/>'
                          '<rect width="1" height="1" fill="currentColor" stroke="#404040" stroke-width="1"/>')
    (tmp_path / "game" / "icons").mkdir(parents=True)
    shutil.copy(file, tmp_path / "game" / "icons" / "probe.svg")
    drawn = draw_icon("probe", 5, 6, 20, "#102030", "#F0E0D0", tmp_path / "game")
    assert (drawn.dx, drawn.dy, drawn.scale) == (5, 6, 0.2)
    fills = [e.style.fill for e in drawn.children]
    assert fills == ["#102030", "#F0E0D0", "#808080", "#336699", "#102030"]
    assert drawn.children[4].style.stroke == "#485058"  # #40 grey: 64/255 of the way to the paper


def test_an_icon_file_is_read_once_and_again_when_it_changes(tmp_path):
    folder = tmp_path / "game"
    (folder / "icons").mkdir(parents=True)
    file = folder / "icons" / "dot.svg"
    file.write_text(BEACON)
    first = find_icon("dot", folder)
    assert find_icon("dot", folder) is first
    file.write_text(BEACON.replace('r="48"', 'r="40"  '))
    changed = find_icon("dot", folder)
    assert changed is not first and changed.elements[0].r == 40


def test_a_viewbox_other_than_a_square_at_the_origin_is_fitted_and_centred(tmp_path):
    (tmp_path / "g" / "icons").mkdir(parents=True)
    icon(tmp_path / "g" / "icons", '<rect x="10" y="0" width="200" height="100"/>', "10 0 200 100").rename(
        tmp_path / "g" / "icons" / "wide.svg")
    drawn = find_icon("wide", tmp_path / "g").draw(0, 0, 50, "#000000")
    assert drawn.scale == 0.25  # the longer side fills the square
    inner = drawn.children[0]
    assert (inner.dx, inner.dy) == (-10, 50)  # the viewBox's corner to the origin, its short side centred


def test_every_icon_we_ship_draws_and_no_game_icon_hides_one_of_ours():
    ours = set(icon_names())
    assert len(ours) >= 50
    for name in ours:
        assert isinstance(draw_icon(name, 0, 0, 10, "#000000"), Group)
    for game in builtin_games():
        own = {file.stem for file in (components_dir() / game / "icons").glob("*.svg")}
        assert not own & ours, f"{game}: an icon of its own hides one of ours"
        for name in own:
            assert isinstance(draw_icon(name, 0, 0, 10, "#000000", game_folder=components_dir() / game), Group)


def test_our_icons_and_the_code_that_draws_them_name_no_game():
    names = {game for game in builtin_games()} | {our_game(game).name.lower() for game in builtin_games()}
    names |= {name.replace("_", " ") for name in names}
    engine = Path(__file__).resolve().parents[2] / "generator" / "look"
    files = [engine / "icons.py", engine / "iconfile.py", *sorted(builtin_icons().glob("*.svg"))]
    for file in files:
        text = file.read_text().lower()
        assert not [name for name in names if name in text], file
    assert not (engine / "iconsets").exists()
