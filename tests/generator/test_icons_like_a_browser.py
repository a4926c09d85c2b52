"""Icon files drawn as Chromium draws them: one small file per SVG feature icon sets use (tests/fixtures/icons/),
drawn by our PDF backend (rasterised by PDFium) and our SVG backend (drawn by Chromium), full and low ink, and
compared with Chromium's drawing of the file itself (icon_likeness: shared ink, pixel for pixel, at least 0.9)."""
from __future__ import annotations

from pathlib import Path

import pytest

from icon_likeness import ALIKE, browser_drawings, likeness, our_drawings
from starpnp.generator.look.icons import find_icon

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "icons"
NAMES = sorted(file.stem for file in FIXTURES.glob("*.svg"))


@pytest.fixture(scope="module")
def page(browser):
    context = browser.new_context(device_scale_factor=1)
    yield context.new_page()
    context.close()


def test_every_fixture_is_drawn_in_the_pdf_and_the_svg_full_and_low_ink_as_chromium_draws_the_file(page, tmp_path):
    assert {"evenodd_holes", "round_caps_and_joins", "use_of_symbol", "class_styles", "skewed_group", "opacity",
            "path_with_an_error"} <= set(NAMES)
    game = tmp_path / "game"
    (game / "icons").mkdir(parents=True)
    for name in NAMES:
        (game / "icons" / f"{name}.svg").write_bytes((FIXTURES / f"{name}.svg").read_bytes())
    icons = [find_icon(name, game) for name in NAMES]
    theirs = browser_drawings(page, [(FIXTURES / f"{name}.svg").read_bytes() for name in NAMES])
    unlike = []
    for low in (False, True):
        pdf, svg = our_drawings(page, icons, low)
        for name, chromium, from_pdf, from_svg in zip(NAMES, theirs, pdf, svg):
            for output, ours in (("pdf", from_pdf), ("svg", from_svg)):
                score = likeness(chromium, ours)
                if score < ALIKE:
                    unlike.append(f"{name} {output} {'low' if low else 'full'} ink: {score:.3f}")
    assert not unlike, unlike
    warned = find_icon("path_with_an_error", game).warnings
    assert len(warned) == 2 and all(w.startswith(f"{game / 'icons' / 'path_with_an_error.svg'}: <path> d: ")
                                    for w in warned), warned
