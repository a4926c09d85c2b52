"""Fonts: OFL Lato from PyPI, registered once with ReportLab (embedded as subsets) and measured there.

The same metrics place text for both backends, so PDF and SVG lines break at the same words.
"""
from __future__ import annotations

from functools import cache
from importlib.resources import files

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_FILES = {
    "Lato-Regular": "Lato-Regular.ttf",
    "Lato-Bold": "Lato-Bold.ttf",
    "Lato-Italic": "Lato-Italic.ttf",
    "Lato-Black": "Lato-Black.ttf",
}
# SVG has no embedded fonts: name the family and weight so viewers with Lato match the PDF.
SVG_FONT = {
    "Lato-Regular": ("Lato, sans-serif", "normal", "normal"),
    "Lato-Bold": ("Lato, sans-serif", "bold", "normal"),
    "Lato-Italic": ("Lato, sans-serif", "normal", "italic"),
    "Lato-Black": ("Lato, sans-serif", "900", "normal"),
}


def font_path(name: str) -> str:
    return str(files("font_lato") / "files" / FONT_FILES[name])


@cache
def register(name: str) -> str:
    """Register a font with ReportLab on first use; returns its name."""
    if name not in FONT_FILES:
        raise KeyError(f"unknown font {name!r}; known: {', '.join(FONT_FILES)}")
    pdfmetrics.registerFont(TTFont(name, font_path(name)))
    return name


def text_width_mm(text: str, font: str, size_pt: float) -> float:
    """Advance width of `text` in millimetres."""
    return pdfmetrics.stringWidth(text, register(font), size_pt) * 25.4 / 72


def ascent_mm(font: str, size_pt: float) -> float:
    face = pdfmetrics.getFont(register(font)).face
    return face.ascent / 1000 * size_pt * 25.4 / 72


def descent_mm(font: str, size_pt: float) -> float:
    face = pdfmetrics.getFont(register(font)).face
    return -face.descent / 1000 * size_pt * 25.4 / 72
