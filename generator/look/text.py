"""Text boxes: word wrapping, alignment and shrink-to-fit, done once for both backends."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Callable, NamedTuple

from .fonts import ascent_mm, bolder, italic as italic_of, descent_mm, text_width_mm, width_per_pt
from .scene import Element, RichText, Text, TextLine

PT_TO_MM = 25.4 / 72
LEADING = 1.18  # line height as a multiple of the font size
ICON_EM = 1.0  # an inline icon is a square as tall as the font size, standing on the baseline


class FitResult(NamedTuple):  # a tuple: made for every text fitted, and quicker to make than a frozen dataclass
    text: Text | RichText
    fits: bool
    size: float  # the size the text was set at, in points
    unknown: tuple[str, ...] = ()  # `{name}` placeholders that named no icon (printed as written)


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
    # The loop of _shrink and the sums of _first_baseline, written out: this is the hot path of every plain
    # text, and calling through them made it a tenth slower.
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
    return FitResult(Text(placed, font, current, color, align), ok, current)


def _shrink(wrap_at, fits, size: float, min_size: float, h: float, max_lines: int | None):
    """(size, lines, fits): the largest half-point step from `size` down to `min_size` whose lines fit, as
    fit_text finds it."""
    current = size
    most = h / (LEADING * PT_TO_MM)  # the largest size whose one line fits the box's height
    if current > most:  # start there (on the same half-point steps), not thousands of steps above it
        current -= math.ceil((current - most) / 0.5) * 0.5
    while True:
        lines = wrap_at(current)
        ok = fits(lines, current) and (max_lines is None or len(lines) <= max_lines)
        if ok or current - 0.5 < min_size - 1e-9:
            return current, lines, ok
        current -= 0.5


def _first_baseline(font: str, size: float, count: int, y: float, h: float, valign: str) -> float:
    line_height = size * LEADING * PT_TO_MM
    block = line_height * (count - 1) + ascent_mm(font, size) + descent_mm(font, size)
    top = {"top": y, "middle": y + (h - block) / 2, "bottom": y + h - block}[valign]
    return top + ascent_mm(font, size)


# --- rich text: **bold**, *italic*, {icon} -------------------------------------------------------------

IconDrawer = Callable[[str, float, float, float, str], "Element | None"]
"""Draws the named icon in the square (x, y, size) in the given ink; None when no icon has that name."""
MARKUP = re.compile(r"(\*\*|\*|\{[A-Za-z_][A-Za-z0-9_.]*\}|\n|[ \t\r]+)")
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_.]*)\}")


@dataclass(frozen=True, slots=True)
class Piece:
    """Part of a word in one font, or an inline icon (font None, text its name)."""

    font: str | None
    text: str


Word = tuple[Piece, ...]


def placeholders(text: str) -> list[str]:
    """Every `{name}` in a text, in order."""
    return PLACEHOLDER.findall(text)


def rich_words(text: str, font: str, is_icon: Callable[[str], bool]) -> tuple[list[list[Word]], bool]:
    """The text as paragraphs of words, and whether any markup took effect. A `*` or `**` without a partner
    and a `{name}` that is no icon print as written."""
    tokens = [t for t in MARKUP.split(text) if t]
    pairs = {mark: tokens.count(mark) // 2 * 2 for mark in ("**", "*")}
    used = {"**": 0, "*": 0}
    bold = italic = rich = False
    paragraphs: list[list[Word]] = [[]]
    word: list[Piece] = []

    def end_word() -> None:
        if word:
            paragraphs[-1].append(tuple(word))
            word.clear()

    for token in tokens:
        if token in used and used[token] < pairs[token]:
            used[token] += 1
            bold, italic = (not bold, italic) if token == "**" else (bold, not italic)
            rich = True
        elif token == "\n":
            end_word()
            paragraphs.append([])
        elif token.isspace():
            end_word()
        elif PLACEHOLDER.fullmatch(token) and is_icon(token[1:-1]):
            word.append(Piece(None, token[1:-1]))
            rich = True
        else:
            styled = italic_of(font) if italic else font
            styled = bolder(styled) if bold else styled
            if word and word[-1].font == styled:
                word[-1] = Piece(styled, word[-1].text + token)
            else:
                word.append(Piece(styled, token))
    end_word()
    return paragraphs, rich


def word_width(word: Word) -> float:
    """A word's advance in widths-per-point (an icon is ICON_EM wide)."""
    return sum(ICON_EM if p.font is None else width_per_pt(p.text, p.font) for p in word)


def wrap_words(paragraphs: list[list[Word]], space: float, per_pt: float) -> list[list[Word]]:
    """Greedy word wrap of rich words, by the same rule as `wrap`; `per_pt` is the box's width in widths-per-point.

    Not shared with `wrap`: that is the hot path of every plain text, and one loop for both (measuring
    through a callback) made plain text fitting about a quarter slower."""
    lines: list[list[Word]] = []
    for paragraph in paragraphs:
        words: list[Word] = []
        used = 0.0
        for word in paragraph:
            advance = word_width(word)
            if words and used + space + advance > per_pt:
                lines.append(words)
                words, used = [word], advance
            else:
                used += space + advance if words else advance
                words.append(word)
        lines.append(words)
    return lines


def line_width(line: list[Word], space: float) -> float:
    return sum(map(word_width, line)) + space * max(len(line) - 1, 0)


def fit_rich(
    text: str,
    x: float,
    y: float,
    w: float,
    h: float,
    *,
    icon: IconDrawer,
    font: str = "Lato-Regular",
    size: float = 9.0,
    min_size: float = 6.0,
    color: str = "#000000",
    align: str = "left",
    valign: str = "top",
    max_lines: int | None = None,
) -> FitResult:
    """fit_text for a text that may hold **bold**, *italic* and `{icon}` (drawn by `icon` at text height on the
    baseline). A text without markup goes to fit_text unchanged, as fast and placed to the same micrometre."""
    if "*" not in text and "{" not in text:
        return fit_text(text, x, y, w, h, font=font, size=size, min_size=min_size, color=color, align=align,
                        valign=valign, max_lines=max_lines)
    style = dict(font=font, size=size, min_size=min_size, color=color, align=align, valign=valign,
                 max_lines=max_lines)
    known: dict[str, bool] = {}

    def is_icon(name: str) -> bool:
        if name not in known:
            known[name] = icon(name, 0.0, 0.0, 1.0, color) is not None
        return known[name]

    paragraphs, rich = rich_words(text, font, is_icon)
    unknown = tuple(name for name in placeholders(text) if not known.get(name))
    if not rich:
        plain = fit_text(text, x, y, w, h, **style)
        return FitResult(plain.text, plain.fits, plain.size, unknown)
    space = width_per_pt(" ", font)
    current, lines, ok = _shrink(
        lambda at: wrap_words(paragraphs, space, w / (at * PT_TO_MM)),
        lambda lines, at: len(lines) * at * LEADING * PT_TO_MM <= h + 1e-6
        and all(line_width(line, space) * at * PT_TO_MM <= w + 1e-6 for line in lines),
        size, min_size, h, max_lines)
    placed = _place_rich(lines, x, w, _first_baseline(font, current, len(lines), y, h, valign), current, font,
                         space, color, align, icon)
    return FitResult(placed, ok, current, unknown)


def _place_rich(lines: list[list[Word]], x: float, w: float, first_baseline: float, size: float, font: str,
                space: float, color: str, align: str, icon: IconDrawer) -> RichText:
    """Every piece at its place, left to right: one left-aligned Text per font, then the icons. Neighbouring
    words in the text's own font share one text line, so plain stretches draw as plain text does."""
    mm = size * PT_TO_MM  # millimetres per width-per-point
    line_height = size * LEADING * PT_TO_MM
    spans: dict[str, list[TextLine]] = {}
    icons: list[Element] = []
    for i, line in enumerate(lines):
        baseline = first_baseline + i * line_height
        width = line_width(line, space) * mm
        cursor = {"left": x, "center": x + (w - width) / 2, "right": x + w - width}[align]
        joins = False  # whether the next piece of the text's own font continues the span before it
        for j, word in enumerate(line):
            if j:
                cursor += space * mm
            for k, piece in enumerate(word):
                if piece.font is None:
                    icons.append(icon(piece.text, cursor, baseline - ICON_EM * mm, ICON_EM * mm, color))
                    cursor += ICON_EM * mm
                    joins = False
                    continue
                runs = spans.setdefault(piece.font, [])
                if joins and piece.font == font and j and not k:
                    last = runs[-1]
                    runs[-1] = TextLine(last.x, last.y, f"{last.text} {piece.text}")
                else:
                    runs.append(TextLine(cursor, baseline, piece.text))
                cursor += width_per_pt(piece.text, piece.font) * mm
                joins = piece.font == font and k == len(word) - 1
    texts = tuple(Text(tuple(runs), f, size, color, "left") for f, runs in spans.items())
    return RichText(texts + tuple(icons))
