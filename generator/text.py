"""Text boxes: word wrapping, alignment and shrink-to-fit, done once for both backends."""
from __future__ import annotations

import math
from dataclasses import dataclass

from .fonts import ascent_mm, descent_mm, text_width_mm, width_per_pt
from .scene import Text, TextLine

PT_TO_MM = 25.4 / 72
LEADING = 1.18  # line height as a multiple of the font size


@dataclass(frozen=True)
class FitResult:
    text: Text
    fits: bool


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap; explicit newlines start new paragraphs; a word too long stays whole.

    Advances add up without kerning, so a line is as wide as its words and spaces: each word is measured
    once (words repeat across a deck), not every candidate line."""
    per_pt = width / (size * PT_TO_MM)  # the box's width in widths-per-point
    space = width_per_pt(" ", font)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words: list[str] = []
        used = 0.0
        for word in paragraph.split():
            advance = width_per_pt(word, font)
            if words and used + space + advance > per_pt:
                lines.append(" ".join(words))
                words, used = [word], advance
            else:
                used += space + advance if words else advance
                words.append(word)
        lines.append(" ".join(words))
    return lines


def _fits(lines: list[str], font: str, size: float, w: float, h: float) -> bool:
    height = len(lines) * size * LEADING * PT_TO_MM
    return height <= h + 1e-6 and all(text_width_mm(line, font, size) <= w + 1e-6 for line in lines)


def fit_text(
    text: str,
    x: float,
    y: float,
    w: float,
    h: float,
    *,
    font: str = "Lato-Regular",
    size: float = 9.0,
    min_size: float = 6.0,
    color: str = "#000000",
    align: str = "left",
    valign: str = "top",
    max_lines: int | None = None,
) -> FitResult:
    """Place `text` in the box, shrinking by half points down to `min_size` until it fits.

    When it still does not fit, the text is set at `min_size` anyway and `fits` is False, so the
    caller can warn; nothing is silently dropped.
    """
    current = size
    most = h / (LEADING * PT_TO_MM)  # the largest size whose one line fits the box's height
    if current > most:  # start there (on the same half-point steps), not thousands of steps above it
        current = max(min_size, current - math.ceil((current - most) / 0.5) * 0.5)
    while True:
        lines = wrap(text, font, current, w)
        ok = _fits(lines, font, current, w, h) and (max_lines is None or len(lines) <= max_lines)
        if ok or current - 0.5 < min_size - 1e-9:
            break
        current -= 0.5
    line_height = current * LEADING * PT_TO_MM
    block = line_height * (len(lines) - 1) + ascent_mm(font, current) + descent_mm(font, current)
    top = {"top": y, "middle": y + (h - block) / 2, "bottom": y + h - block}[valign]
    anchor_x = {"left": x, "center": x + w / 2, "right": x + w}[align]
    first_baseline = top + ascent_mm(font, current)
    placed = tuple(
        TextLine(anchor_x, first_baseline + i * line_height, line) for i, line in enumerate(lines) if line
    )
    return FitResult(Text(placed, font, current, color, align), ok)
