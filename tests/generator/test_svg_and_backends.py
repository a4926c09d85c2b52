"""SVG output, and one scene drawn through both backends landing in the same places."""
from __future__ import annotations

import io
from pathlib import Path
import xml.etree.ElementTree as ET

import pdfplumber
import pytest

from starpnp.generator.look.scene import Circle, Group, Line, Rect, Scene, Style
from starpnp.generator.sheets.svg import scene_to_svg
from starpnp.generator.look.text import fit_text
from starpnp.generator.look.units import PT_PER_MM
from pdf_probe import render, scene_pdf

SVG = "{http://www.w3.org/2000/svg}"
TOL = 0.05


def test_every_svg_parses_and_measures_trim_plus_bleed(mini):
    svg_dir = mini["_out"] / "svg"
    for comp in mini["components"]:
        files = sorted((svg_dir / comp["id"]).glob("*.svg"))
        assert files, comp["id"]
        w, h = (v + 2 * comp["bleed_mm"] for v in comp["trim_mm"])
        for path in files:
            root = ET.parse(path).getroot()
            assert root.get("width") == f"{w:g}mm" and root.get("height") == f"{h:g}mm", path.name
            x0, y0, vw, vh = map(float, root.get("viewBox").split())
            assert (x0, y0, vw, vh) == pytest.approx((-comp["bleed_mm"], -comp["bleed_mm"], w, h))


def test_svg_names_pieces_by_colour_and_side(mini):
    names = {p.name for p in (mini["_out"] / "svg" / "fleets").glob("*.svg")}
    assert {"fleet-red-front.svg", "fleet-red-back.svg", "fleet-blue-front.svg", "fleet-blue-back.svg"} <= names


def sample_scene() -> Scene:
    ink = Style(fill="#C62828")
    text = fit_text("Move one fleet", 4, 40, 40, 10, size=10, min_size=6, color="#000000").text
    return Scene(50, 70, 3, (
        Rect(5, 7, 20, 10, ink),
        Circle(30, 30, 6, Style(fill="#1565C0")),
        Line(2, 60, 48, 60, Style(stroke="#000000", stroke_width=0.5)),
        Group((Rect(0, 0, 4, 5, ink),), dx=40, dy=50),
        text,
    ))


def pdf_positions(scene: Scene):
    """Rectangles, curves, lines and first glyphs as pdfplumber reads them, in mm from the bleed corner."""
    with pdfplumber.open(io.BytesIO(scene_pdf(scene))) as pdf:
        page = pdf.pages[0]
        mm = 1 / PT_PER_MM
        rects = sorted((r["x0"] * mm, r["top"] * mm, r["width"] * mm, r["height"] * mm) for r in page.rects
                       if r["width"] * mm < scene.outer_width - 1)  # the bleed clip is not drawn
        curves = [(c["x0"] * mm, c["top"] * mm, c["x1"] * mm, c["bottom"] * mm) for c in page.curves]
        lines = [(ln["x0"] * mm, ln["top"] * mm, ln["x1"] * mm) for ln in page.lines]
        origin = page.chars[0]["matrix"][4:]  # the glyph's origin: left edge on the baseline, y up
        first_char = (origin[0] * mm, (float(page.height) - origin[1]) * mm)
    return rects, curves, lines, first_char


def svg_positions(scene: Scene):
    """The same things read from the SVG, converted from its viewBox (origin at -bleed) to the bleed corner."""
    root = ET.fromstring(scene_to_svg(scene))
    b = scene.bleed
    rects = []
    for group in root.iter(f"{SVG}g"):
        dx, dy = 0.0, 0.0
        transform = group.get("transform", "")
        if transform.startswith("translate("):
            dx, dy = map(float, transform[len("translate("):-1].split())
        for r in group.findall(f"{SVG}rect"):
            rects.append((float(r.get("x")) + dx + b, float(r.get("y")) + dy + b,
                          float(r.get("width")), float(r.get("height"))))
    circle = next(root.iter(f"{SVG}circle"))
    cx, cy, r = (float(circle.get(k)) for k in ("cx", "cy", "r"))
    line = next(root.iter(f"{SVG}line"))
    text = next(root.iter(f"{SVG}text"))
    return (sorted(rects), [(cx - r + b, cy - r + b, cx + r + b, cy + r + b)],
            [(float(line.get("x1")) + b, float(line.get("y1")) + b, float(line.get("x2")) + b)],
            (float(text.get("x")) + b, float(text.get("y")) + b))


def test_both_backends_put_every_element_in_the_same_place():
    scene = sample_scene()
    p_rects, p_curves, p_lines, p_char = pdf_positions(scene)
    s_rects, s_curves, s_lines, s_char = svg_positions(scene)
    assert len(p_rects) == len(s_rects) == 2
    for a, b in zip(p_rects, s_rects):
        assert a == pytest.approx(b, abs=TOL)
    assert p_curves[0] == pytest.approx(s_curves[0], abs=TOL)
    assert p_lines[0] == pytest.approx(s_lines[0], abs=TOL)
    assert p_char == pytest.approx(s_char, abs=TOL)  # text: same start and baseline


def test_transparency_inside_a_placed_piece_reaches_the_page(tmp_path):
    """Pieces become PDF forms; their transparency must survive (poppler once reported 'ExtGState unknown')."""
    from starpnp.generator.sheets.imposition import Placed, Settings, Sheet
    from starpnp.generator.sheets.pdf import PdfDocument

    scene = Scene(40, 40, 0, (Rect(0, 0, 40, 40, Style(fill="#FFFFFF")),
                              Rect(0, 0, 40, 40, Style(fill="#C62828", opacity=0.5))))
    path = tmp_path / "alpha.pdf"
    doc = PdfDocument(str(path), Settings(), "Alpha", {"x": "X"})
    doc.sheet(Sheet("front", ["x"], placed=[Placed(scene, 50, 50, 0, "x")]))
    doc.save()
    r, g, b = render(path, 1, tmp_path, dpi=25.4).getpixel((70, 70))  # 1 px per mm; poppler must not complain
    assert (r, g, b) == pytest.approx((227, 148, 148), abs=4)  # half red over white, not red and not white


def test_symbols_missing_from_lato_are_drawn_from_dejavu(tmp_path):
    from starpnp.generator.look import fonts

    assert fonts.font_path(fonts.SYMBOL_FONT).startswith(str(Path(fonts.__file__).parent))  # ours, not the system's
    line = fit_text("Power ★ card", 2, 2, 40, 10, size=10, min_size=6, color="#000000").text
    scene = Scene(50, 20, 0, (line,))
    with pdfplumber.open(io.BytesIO(scene_pdf(scene))) as pdf:
        chars = pdf.pages[0].chars
    assert "".join(ch["text"] for ch in chars) == "Power ★ card"
    star = next(ch for ch in chars if ch["text"] == "★")
    assert star["fontname"].endswith("DejaVuSans") and chars[0]["fontname"].endswith("Lato-Regular")
    after = chars[chars.index(star) + 1]  # the next glyph starts where the star's advance ends
    assert after["x0"] == pytest.approx(star["x1"], abs=0.01)
