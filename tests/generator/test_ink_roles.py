"""--ink low keeps meaning: pieces of one component that differ in the rich look still differ in grey.

Each component's faces are rendered at 150 dpi, rich in colour and low-ink in grey. Two faces that differ
in the rich look (a colour, an icon, a number) must differ visibly in the low-ink grey too: by 1.2 mm² of
strong change (a bold 2 mm glyph), or, where the rich look itself differs only by a smaller mark, by a third
of what the colour showed. A printer in black and white, or a player who cannot tell red from green, must
still tell them apart.
"""
from __future__ import annotations

import io
import itertools

import pypdfium2
import pytest
from PIL import Image, ImageChops

from starpnp.generator.exports.face_files import PDFIUM, face_pdf
from starpnp.generator.look.render import faces
from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.look.render import SceneCache

GAMES = ["handful_of_stars", "starship_catan", "stars_inc", "stratastar"]
DPI = 150
PIXEL_MM2 = (25.4 / DPI) ** 2
VISIBLE_MM2 = 1.2  # about a bold 2 mm glyph's worth of changed ink
STRONG = 64  # of 255 grey levels: a change a reader sees at a glance


def picture(scene, mode: str) -> Image.Image:
    buffer = io.BytesIO()
    face_pdf([scene], buffer)
    with PDFIUM:
        return pypdfium2.PdfDocument(buffer.getvalue())[0].render(scale=DPI / 72).to_pil().convert(mode)


def changed_mm2(a: Image.Image, b: Image.Image, least: int) -> float:
    """How much of the face changes by more than `least` in any channel (rich) or in grey (low)."""
    difference = ImageChops.difference(a, b)
    if difference.mode == "RGB":  # the largest change of the three channels
        red, green, blue = difference.split()
        difference = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    return sum(difference.histogram()[least + 1:]) * PIXEL_MM2


@pytest.mark.parametrize("game", GAMES)
def test_pieces_with_different_roles_differ_in_low_ink_grey(game):
    folder = find_game(game)
    loaded = load_game(folder)
    rich, low = faces(loaded, SceneCache(3.0, folder)), faces(loaded, SceneCache(3.0, folder, ink="low"))
    sides: dict[tuple[str, str], list] = {}
    for a, b in zip(rich, low):
        for side in ("front", "back"):
            if getattr(a, side) is not None:
                sides.setdefault((a.component, side), []).append((a.stem, getattr(a, side), getattr(b, side)))
    alike = []
    compared = 0
    for (component, side), entries in sides.items():
        coloured = [picture(scene, "RGB") for _, scene, _ in entries]
        grey = [picture(scene, "L") for _, _, scene in entries]
        for i, j in itertools.combinations(range(len(entries)), 2):
            if coloured[i].size != coloured[j].size:
                continue
            in_colour = changed_mm2(coloured[i], coloured[j], 24)
            if in_colour < 0.5:  # the same role: alike in the rich look too (an option's unused star)
                continue
            compared += 1
            in_grey = changed_mm2(grey[i], grey[j], STRONG)
            if in_grey < min(VISIBLE_MM2, in_colour / 3):
                alike.append(f"{component} {side}: {entries[i][0]} and {entries[j][0]} differ by "
                             f"{in_grey:.2f} mm² in low-ink grey ({in_colour:.2f} mm² in colour)")
    assert compared > 10
    assert not alike, "\n".join(alike)
