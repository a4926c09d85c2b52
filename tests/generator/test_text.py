"""Word wrapping adds up word widths instead of measuring every candidate line: the lines it makes must be
exactly those that measuring whole lines would make."""
from __future__ import annotations

import pytest

from starpnp.generator.look.fonts import text_width_mm
from starpnp.generator.look.text import wrap

TEXTS = [
    "Play card 12 in its phase. Discard it after use, then draw 3.",
    "Gain 2 ★ and move your ship ⚠ one sector; if the sector holds a pirate, fight it before you trade.",
    "Antidisestablishmentarianism-sized-word fits nowhere but stays whole",
    "First paragraph here.\nSecond paragraph, a little longer than the first one.",
]


@pytest.mark.parametrize("font", ["Lato-Regular", "Lato-Black"])
@pytest.mark.parametrize("width", [12.0, 25.0, 40.5, 57.0])
@pytest.mark.parametrize("size", [6.0, 8.5, 12.0])
def test_every_line_is_as_long_as_fits_and_no_longer(font, width, size):
    for text in TEXTS:
        for paragraph, lines in zip(text.split("\n"), split_paragraphs(text, wrap(text, font, size, width))):
            assert " ".join(lines) == " ".join(paragraph.split())
            for line, following in zip(lines, lines[1:] + [None]):
                if " " in line:  # one word too long for the box stays whole on its own line
                    assert text_width_mm(line, font, size) <= width, line
                if following is not None:  # greedy: the next word would not have fitted
                    assert text_width_mm(f"{line} {following.split()[0]}", font, size) > width, line


def split_paragraphs(text: str, lines: list[str]) -> list[list[str]]:
    """The wrapped lines grouped by paragraph (each paragraph's words, in order)."""
    groups, rest = [], list(lines)
    for paragraph in text.split("\n"):
        words, taken = len(paragraph.split()), []
        while rest and sum(len(line.split()) for line in taken) < words:
            taken.append(rest.pop(0))
        groups.append(taken)
    return groups
