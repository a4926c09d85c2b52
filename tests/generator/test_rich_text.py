"""Rich text in every text field: **bold**, *italic*, line breaks and `{icon}` drawn inline at text height on the
baseline, measured in the PDF (pdfplumber) and the SVG the two backends write."""
from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pdfplumber
import pytest

from starpnp.generator.look.ink import low_ink
from starpnp.generator.look.layouts.base import FaceContext
from starpnp.generator.look.scene import Rect, RichText, Scene, Style, Text
from starpnp.generator.sheets.svg import scene_to_svg
from starpnp.generator.look.text import PT_TO_MM, fit_rich, fit_text
from starpnp.generator.look.units import PT_PER_MM
from pdf_probe import scene_pdf

SVG = "{http://www.w3.org/2000/svg}"
SIZE = 10.0  # pt
EM = SIZE * PT_TO_MM  # the font size in mm: an inline icon's side
# shape_square draws Rect(8, 8, 84, 84) in its 100 × 100 box: the box is found back from the square.
INSET, SIDE = 0.08, 0.84


def face() -> FaceContext:
    return FaceContext(60, 40, 0, "rect", 0, None, Path("."), "cards.yaml: deck: Attack: front")


def scene_of(*elements) -> Scene:
    return Scene(60, 40, 0, (Rect(0, 0, 60, 40, Style(fill="#FFFFFF")), *elements))


def pdf_page(scene: Scene):
    return pdfplumber.open(io.BytesIO(scene_pdf(scene)))


def test_an_icon_in_running_text_sits_on_the_baseline_at_text_height_in_the_pdf():
    ctx = face()
    text = ctx.text("text", "Pay 2 {shape_square} to move", 5, 5, 50, 20, size=SIZE, min_size=SIZE)
    assert ctx.warnings == []
    with pdf_page(scene_of(text)) as pdf:
        page = pdf.pages[0]
        mm = 1 / PT_PER_MM
        chars = page.chars
        baseline = (float(page.height) - chars[0]["matrix"][5]) * mm
        two = next(ch for ch in chars if ch["text"] == "2")
        to = next(ch for ch in chars if ch["text"] == "t")
        square = [r for r in page.rects if r["width"] * mm < 10]
    assert "".join(ch["text"] for ch in chars).replace(" ", "") == "Pay2tomove"
    assert len(square) == 1
    left, top, side = square[0]["x0"] * mm, square[0]["top"] * mm, square[0]["height"] * mm
    assert side == pytest.approx(SIDE * EM, abs=0.01)  # the icon's box is as tall as the text
    box_left, box_bottom = left - INSET * EM, top + side + INSET * EM
    assert box_bottom == pytest.approx(baseline, abs=0.01)  # standing on the baseline
    space = two["x1"] * mm  # after "2", a space, the icon, a space, "to"
    assert space < box_left < box_left + EM < to["x0"] * mm
    assert (box_left - two["x1"] * mm) == pytest.approx(to["x0"] * mm - (box_left + EM), abs=0.01)


def test_an_icon_in_running_text_sits_on_the_baseline_at_text_height_in_the_svg():
    ctx = face()
    text = ctx.text("text", "Pay 2 {shape_square} to move", 5, 5, 50, 20, size=SIZE, min_size=SIZE)
    root = ET.fromstring(scene_to_svg(scene_of(text)))
    baseline = float(next(root.iter(f"{SVG}text")).get("y"))
    icons = [g for g in root.iter(f"{SVG}g") if "scale(" in g.get("transform", "")]
    assert len(icons) == 1
    translate, scale = icons[0].get("transform").split(" scale(")
    dx, dy = map(float, translate[len("translate("):-1].split())
    s = float(scale[:-1])
    square = icons[0].find(f"{SVG}rect")
    side = float(square.get("height")) * s
    assert side == pytest.approx(SIDE * EM, abs=0.01)
    assert dy + 100 * s == pytest.approx(baseline, abs=0.01)  # the icon's box bottom on the baseline
    assert 100 * s == pytest.approx(EM, abs=0.001)
    pieces = {t.text: t for t in root.iter(f"{SVG}text")}
    assert sorted(pieces) == ["Pay 2", "to move"]
    # each piece as wide as it was placed, whatever font the viewer falls back to: "to" starts past the icon
    assert float(pieces["Pay 2"].get("textLength")) == pytest.approx(fit_width("Pay 2", "Lato-Regular"), abs=0.001)
    assert float(pieces["Pay 2"].get("x")) + float(pieces["Pay 2"].get("textLength")) < dx
    assert dx + EM < float(pieces["to move"].get("x"))


def test_bold_italic_and_line_breaks_reach_the_pdf_in_their_fonts():
    ctx = face()
    text = ctx.text("text", "Gain **two ships** and *one* card.\nThen end.", 5, 5, 50, 25, size=SIZE)
    with pdf_page(scene_of(text)) as pdf:
        chars = pdf.pages[0].chars
    fonts = {}
    for ch in chars:
        fonts.setdefault(ch["fontname"].split("+")[-1], []).append(ch["text"])
    assert "".join(fonts["Lato-Bold"]) == "twoships"
    assert "".join(fonts["Lato-Italic"]) == "one"
    assert "".join(fonts["Lato-Regular"]).replace(" ", "") == "Gainandcard.Thenend."
    then = next(ch for ch in chars if ch["text"] == "T")
    assert then["top"] > chars[0]["bottom"]  # the line break starts a new line
    assert then["x0"] == pytest.approx(chars[0]["x0"], abs=0.01)  # at the box's left edge


def test_words_in_another_font_follow_on_at_their_widths():
    """A bold word is as wide as Lato-Bold makes it; the words after it start where it ends plus a space."""
    plain = fit_text("Gain two", 0, 0, 50, 10, size=SIZE).text
    rich = fit_rich("Gain **two** now", 0, 0, 50, 10, size=SIZE, icon=lambda *a: None).text
    texts = {t.font: t for t in rich.children if isinstance(t, Text)}
    assert texts["Lato-Regular"].lines[0].text == "Gain"
    assert texts["Lato-Bold"].lines[0].x == pytest.approx(plain.lines[0].x + fit_width("Gain ", "Lato-Regular"))


def fit_width(text: str, font: str) -> float:
    from starpnp.generator.look.fonts import text_width_mm

    return text_width_mm(text, font, SIZE)


def test_plain_text_takes_the_plain_path_unchanged():
    for text in ("Move one fleet", "Costs 5 * 2 here", "A {brace} alone", "Line one\nline two"):
        plain = fit_text(text, 3, 4, 30, 12, size=9)
        rich = fit_rich(text, 3, 4, 30, 12, size=9, icon=lambda *a: None)
        assert (rich.text, rich.fits, rich.size) == (plain.text, plain.fits, plain.size)


@pytest.mark.parametrize("align", ["left", "center", "right"])
def test_rich_lines_are_aligned_in_the_box_as_plain_ones(align):
    plain = fit_text("Draw a card", 5, 5, 40, 10, size=SIZE, align=align).text
    rich = fit_rich("Draw a *card*", 5, 5, 40, 10, size=SIZE, align=align, icon=lambda *a: None).text
    regular = next(t for t in rich.children if isinstance(t, Text) and t.font == "Lato-Regular")
    width = fit_width("Draw a ", "Lato-Regular") + fit_width("card", "Lato-Italic")
    left = {"left": 0, "center": 0.5, "right": 1}[align] * width
    assert regular.lines[0].x == pytest.approx(plain.lines[0].x - left, abs=0.001)  # plain.x is the anchor


def test_shrink_to_fit_counts_icons_and_warns_at_the_minimum_size():
    ctx = face()
    long = "Pay " + " ".join(["{shape_square}"] * 40)
    text = ctx.text("text", long, 5, 5, 30, 8, size=12, min_size=6)
    assert ctx.warnings == ["cards.yaml: deck: Attack: front: text: text does not fit its box even at 6 pt"]
    icons = [g for g in text.children if not isinstance(g, Text)]
    assert len(icons) == 40 and all(g.scale * 100 == pytest.approx(6 * PT_TO_MM) for g in icons)
    ctx = face()
    fitted = ctx.text("text", "Pay {shape_square} {shape_square}", 5, 5, 30, 8, size=40, min_size=6)
    assert ctx.warnings == []
    icons = [g for g in fitted.children if not isinstance(g, Text)]
    assert icons[0].dx + 2 * icons[0].scale * 100 < icons[1].dx + icons[1].scale * 100 <= 35 + 1e-6


def test_a_placeholder_that_names_no_icon_prints_as_written_and_is_reported():
    ctx = face()
    text = ctx.text("text", "Gain 2 {sciense} now", 5, 5, 50, 20, size=SIZE)
    assert isinstance(text, Text) and text.lines[0].text == "Gain 2 {sciense} now"
    assert len(ctx.warnings) == 1
    assert ctx.warnings[0].startswith("cards.yaml: deck: Attack: front: text: {sciense} is neither an icon nor a "
                                      "rule number, printed as written; did you mean {")  # the nearest icons


def test_low_ink_recolours_inline_icons_with_their_words():
    ctx = face()
    text = ctx.text("text", "Gain {shape_square} **now**", 5, 5, 50, 10, size=SIZE, color="#FFFFFF")
    dark = Scene(60, 40, 0, (Rect(0, 0, 60, 40, Style(fill="#0D1B3D")), text))
    light = next(e for e in low_ink(dark).elements if isinstance(e, RichText))  # small faces gain hatching
    assert isinstance(light, RichText)
    colours = {t.color for t in light.children if isinstance(t, Text)}
    square = next(g for g in light.children if not isinstance(g, Text)).children[0]
    assert len(colours) == 1 and colours != {"#FFFFFF"} and square.style.fill in colours


def test_rule_numbers_and_icons_share_a_text(game):
    """`{rules.NAME}` is filled in on load; the `{icon}` beside it is drawn when the face is."""
    from starpnp.generator.look.render import faces
    from starpnp.generator.look.loader import load_game
    from starpnp.generator.look.render import SceneCache

    with (game / "game.yaml").open("a") as file:
        file.write("rules:\n  fleet_cost: {value: 3, means: what a fleet costs}\n")
    text = (game / "cards.yaml").read_text()
    (game / "cards.yaml").write_text(text.replace("text: Fight a neighbour.",
                                                  "text: 'Pay {rules.fleet_cost} {move}, then **fight**.'"))
    cache = SceneCache(3.0, game)
    attack = next(f for f in faces(load_game(game), cache) if f.stem == "attack").front
    assert cache.warnings == []
    rich = [e for e in attack.elements if isinstance(e, RichText)]
    assert len(rich) == 1
    words = {t.font: [line.text for line in t.lines] for t in rich[0].children if isinstance(t, Text)}
    assert words == {"Lato-Regular": ["Pay 3", ", then", "."], "Lato-Bold": ["fight"]}  # the icon before the comma
    assert sum(not isinstance(child, Text) for child in rich[0].children) == 1
