"""--ink low: the four games on a light ground, a third of the ink or less, in a file of its own."""
from __future__ import annotations

import subprocess
from dataclasses import replace

import pytest
from PIL import Image

from starpnp.generator.build import BuildOptions, build_game
from starpnp.generator.sheets.imposition import Settings
from starpnp.generator.look.ink import (HATCH_WIDTH, LARGE, LINE_SEEN, MARK_CONTRAST, area, fills, flatten, least_contrast,
                                   line_grounds)
from starpnp.generator.look.layouts.base import luminance
from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.look.render import SceneCache
from starpnp.generator.look.scene import Circle, Group, Line, Path, Polygon, Rect
from starpnp_test_support import require_tool

GAMES = ["handful_of_stars", "starship_catan", "stars_inc", "stratastar"]


def ink_of(pdf, tmp_path) -> float:
    """Page-equivalents of solid black: every page rendered grey at 20 dpi, its darkness summed."""
    prefix = tmp_path / pdf.stem
    subprocess.run([require_tool("pdftoppm", "poppler-utils"), "-gray", "-r", "20", str(pdf), str(prefix)],
                   check=True)
    total = 0.0
    for page in sorted(tmp_path.glob(f"{pdf.stem}-*.pgm")):
        image = Image.open(page)
        pixels = image.size[0] * image.size[1]
        total += sum((255 - value) * count for value, count in enumerate(image.histogram())) / 255 / pixels
    return total


def test_low_ink_takes_a_third_of_the_ink_or_less_and_leaves_the_full_build_alone(tmp_path, shared_builds):
    full = low = 0.0
    for game in GAMES:
        built = {ink: shared_builds.build(find_game(game), BuildOptions(settings=Settings(ink=ink), formats=("pdf",)))
                 for ink in ("full", "low")}
        assert not (built["low"].folder / f"{game}-a4.pdf").exists()  # low ink writes a file of its own
        full += ink_of(built["full"].folder / f"{game}-a4.pdf", tmp_path)
        low += ink_of(built["low"].folder / f"{game}-a4-ink-low.pdf", tmp_path)
    assert full > 30  # the rich default: dark card backs and boards
    assert low <= full / 3, f"--ink low lays down {low:.1f} page-equivalents of black, the default {full:.1f}"


@pytest.mark.parametrize("game", GAMES)
def test_no_large_solid_fill_is_dark_with_low_ink(game):
    folder = find_game(game)
    loaded = load_game(folder)
    cache = SceneCache(3.0, folder, ink="low")
    dark = []
    for comp in loaded.components:
        for piece in comp.pieces:
            for side in ("front", "back") if piece.back else ("front",):
                scene = cache.face(comp, piece, side)
                for shape, m in flatten(scene.elements):
                    if isinstance(shape, (Rect, Circle, Polygon, Path)) and shape.style.fill \
                            and area(shape, m) >= LARGE and luminance(shape.style.fill) < 0.6:
                        dark.append(f"{comp.spec.id}: {piece.name}: {side}: {shape.style.fill}")
    assert dark == []


def svg_dark_grounds(svg) -> list[str]:
    """Rectangles and circles in an SVG face larger than LARGE (after their groups' scale) filled dark."""
    import re
    import xml.etree.ElementTree as ET

    found = []

    def walk(node, scale):
        for child in node:
            match = re.search(r"scale\(([\d.]+)", child.get("transform", ""))
            inner = scale * float(match.group(1)) if match else scale
            tag, fill = child.tag.rsplit("}", 1)[-1], child.get("fill", "none")
            if fill.startswith("#") and tag in ("rect", "circle"):
                size = (float(child.get("width")) * float(child.get("height")) if tag == "rect"
                        else 3.14159 * float(child.get("r")) ** 2)
                if size * inner * inner >= LARGE and luminance(fill) < 0.6:
                    found.append(f"{svg.parent.name}/{svg.name}: {tag} {fill}")
            walk(child, inner)

    walk(ET.parse(svg).getroot(), 1.0)
    return found


def test_svg_and_png_exports_print_low_ink_in_folders_of_their_own(tmp_path):
    """--ink low reaches every format, and its files sit beside the default build's instead of over them."""
    folder = find_game("stratastar")
    for ink in ("full", "low"):
        build_game(folder, BuildOptions(settings=Settings(ink=ink), out=tmp_path, formats=("svg", "png"), dpi=72))
    out = tmp_path / "stratastar"
    full_svgs = sorted(p.relative_to(out / "svg") for p in (out / "svg").rglob("*.svg"))
    low_svgs = sorted(p.relative_to(out / "svg-ink-low") for p in (out / "svg-ink-low").rglob("*.svg"))
    assert full_svgs == low_svgs and len(full_svgs) > 20
    assert any(svg_dark_grounds(out / "svg" / name) for name in full_svgs)  # the rich default has dark grounds
    assert [dark for name in low_svgs for dark in svg_dark_grounds(out / "svg-ink-low" / name)] == []

    def darkness(png_folder) -> float:
        total = 0.0
        for png in png_folder.rglob("*.png"):
            grey = Image.open(png).convert("L")
            total += sum((255 - v) * n for v, n in enumerate(grey.histogram())) / 255
        return total

    full, low = darkness(out / "png"), darkness(out / "png-ink-low")
    assert low <= full / 3, f"low-ink PNGs carry {low / full:.0%} of the default's ink"


@pytest.mark.parametrize("game", GAMES)
def without_hatching(elements) -> tuple:
    """The elements less the hatching low ink adds over coloured fills (clipped groups of thin lines), so
    the rest lines up one to one with the rich look's elements."""
    kept = []
    for e in elements:
        if isinstance(e, Group):
            if e.clip is not None and e.children and all(
                    isinstance(c, Line) and c.style.stroke_width == HATCH_WIDTH for c in e.children):
                continue
            e = replace(e, children=without_hatching(e.children))
        kept.append(e)
    return tuple(kept)


def test_every_line_that_shows_in_the_full_look_still_shows_with_low_ink(game):
    """A white compass spoke on a dark board would vanish on the white ground: it is darkened instead."""
    folder = find_game(game)
    loaded = load_game(folder)
    full, low = SceneCache(3.0, folder), SceneCache(3.0, folder, ink="low")
    vanished = []
    for comp in loaded.components:
        for piece in comp.pieces:
            for side in ("front", "back") if piece.back else ("front",):
                rich = list(flatten(full.face(comp, piece, side).elements))
                light = list(flatten(without_hatching(low.face(comp, piece, side).elements)))
                for i, ((before, m), (after, _)) in enumerate(zip(rich, light)):
                    if isinstance(before, Line) and before.style.stroke:
                        shown = least_contrast(before.style.stroke, line_grounds(before, m, fills(rich[:i])))
                        now = least_contrast(after.style.stroke, line_grounds(after, m, fills(light[:i])))
                        if shown >= LINE_SEEN and now < MARK_CONTRAST and now < shown:
                            vanished.append(f"{comp.spec.id}: {piece.name}: {side}: {before.style.stroke} "
                                            f"{shown:.1f}:1 -> {now:.1f}:1")
    assert vanished == []
