"""Fonts: OFL Lato from PyPI, registered once with ReportLab (embedded as subsets) and measured there.

The same metrics place text for both backends, so PDF and SVG lines break at the same words.
"""
from __future__ import annotations

from functools import cache, lru_cache
from importlib.resources import files

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from ...resources import font_file

FONT_FILES = {
    "Lato-Regular": "Lato-Regular.ttf",
    "Lato-Bold": "Lato-Bold.ttf",
    "Lato-Italic": "Lato-Italic.ttf",
    "Lato-Black": "Lato-Black.ttf",
    "Lato-BoldItalic": "Lato-BoldItalic.ttf",
    "Lato-BlackItalic": "Lato-BlackItalic.ttf",
}
# What **bold** and *italic* in a text turn its font into (italic inside italic stands upright again).
BOLDER = {"Lato-Regular": "Lato-Bold", "Lato-Italic": "Lato-BoldItalic", "Lato-Bold": "Lato-Black",
          "Lato-BoldItalic": "Lato-BlackItalic", "Lato-Black": "Lato-Black", "Lato-BlackItalic": "Lato-BlackItalic"}
ITALIC = {"Lato-Regular": "Lato-Italic", "Lato-Italic": "Lato-Regular", "Lato-Bold": "Lato-BoldItalic",
          "Lato-BoldItalic": "Lato-Bold", "Lato-Black": "Lato-BlackItalic", "Lato-BlackItalic": "Lato-Black"}
# Symbols Lato lacks (★ → ⚠ …) come from DejaVu Sans, shipped with starpnp (fontfiles/, its licence beside it)
# since no PyPI package carries it alone; also embedded as a subset.
SYMBOL_FONT = "DejaVuSans"
SYMBOL_FILE = "DejaVuSans.ttf"
# SVG has no embedded fonts: name the family and weight so viewers with Lato match the PDF.
SVG_FONT = {
    "Lato-Regular": ("Lato, 'DejaVu Sans', sans-serif", "normal", "normal"),
    "Lato-Bold": ("Lato, 'DejaVu Sans', sans-serif", "bold", "normal"),
    "Lato-Italic": ("Lato, 'DejaVu Sans', sans-serif", "normal", "italic"),
    "Lato-Black": ("Lato, 'DejaVu Sans', sans-serif", "900", "normal"),
    "Lato-BoldItalic": ("Lato, 'DejaVu Sans', sans-serif", "bold", "italic"),
    "Lato-BlackItalic": ("Lato, 'DejaVu Sans', sans-serif", "900", "italic"),
}


def font_path(name: str) -> str:
    if name == SYMBOL_FONT:
        return str(font_file(SYMBOL_FILE))
    return str(files("font_lato") / "files" / FONT_FILES[name])


@cache
def register(name: str) -> str:
    """Register a font with ReportLab on first use; returns its name."""
    if name not in FONT_FILES and name != SYMBOL_FONT:
        raise KeyError(f"unknown font {name!r}; known: {', '.join(FONT_FILES)}")
    pdfmetrics.registerFont(TTFont(name, font_path(name)))
    return name


@cache
def _glyphs(font: str) -> dict[int, int]:
    return pdfmetrics.getFont(register(font)).face.charToGlyph


def _has_glyph(font: str, char: str) -> bool:
    return ord(char) in _glyphs(font)


@lru_cache(maxsize=1 << 12)
def runs(text: str, font: str) -> tuple[tuple[str, str], ...]:
    """`text` as (font, piece) runs: the text font wherever it has the glyph, DejaVu Sans for the rest.
    Cached: wrapping measures the same words and lines again at every size it tries."""
    if all(map(_glyphs(font).__contains__, map(ord, text))):  # the common case, checked in one pass
        return ((font, text),) if text else ()
    out: list[tuple[str, str]] = []
    for char in text:
        use = SYMBOL_FONT if not _has_glyph(font, char) and _has_glyph(SYMBOL_FONT, char) else font
        if out and out[-1][0] == use:
            out[-1] = (use, out[-1][1] + char)
        else:
            out.append((use, char))
    return tuple(out)


def text_width_mm(text: str, font: str, size_pt: float) -> float:
    """Advance width of `text` in millimetres, symbols measured in the font that will draw them."""
    return width_per_pt(text, font) * size_pt * 25.4 / 72


@lru_cache(maxsize=1 << 12)
def width_per_pt(text: str, font: str) -> float:
    """Advances add up without kerning, so one measure per text serves every size fit_text tries."""
    return sum(pdfmetrics.stringWidth(piece, register(f), 1.0) for f, piece in runs(text, font))


def ascent_mm(font: str, size_pt: float) -> float:
    face = pdfmetrics.getFont(register(font)).face
    return face.ascent / 1000 * size_pt * 25.4 / 72


def descent_mm(font: str, size_pt: float) -> float:
    face = pdfmetrics.getFont(register(font)).face
    return -face.descent / 1000 * size_pt * 25.4 / 72
