"""Fonts: OFL Lato from PyPI, and a game's own fonts from its fonts/ folder, registered once with ReportLab
(embedded as subsets) and measured there.

The same metrics place text for both backends, so PDF and SVG lines break at the same words.
"""
from __future__ import annotations

import base64
from dataclasses import dataclass
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




@dataclass(frozen=True)
class GameFace:
    """One face of a game's own font family (fonts/*.ttf), registered under a name that carries a hash of
    the file, so two games (or an edited file) with the same family never share a registration."""

    path: str
    family: str  # as the font names itself: "Tomson Talks"
    style: str  # Regular, Bold, Italic, BoldItalic, Black, BlackItalic, or the font's own word
    bold: bool
    italic: bool
    faces: tuple[tuple[str, str], ...] = ()  # (style, registered name) of every face of the family

    @property
    def label(self) -> str:
        """The face as a designer names it: `Tomson Talks Regular`."""
        return f"{self.family} {self.style}"

    def sibling(self, style: str) -> str | None:
        return dict(self.faces).get(style)

    @property
    def lato(self) -> str:
        """The Lato face of the same weight and slant, for the characters this font lacks."""
        return {(False, False): "Lato-Regular", (True, False): "Lato-Bold", (False, True): "Lato-Italic",
                (True, True): "Lato-BoldItalic"}[self.bold, self.italic]


GAME_FACES: dict[str, GameFace] = {}  # registered name -> face; filled by look/gamefonts.py


def font_path(name: str) -> str:
    if name == SYMBOL_FONT:
        return str(font_file(SYMBOL_FILE))
    if name in GAME_FACES:
        return GAME_FACES[name].path
    return str(files("font_lato") / "files" / FONT_FILES[name])


@cache
def register(name: str) -> str:
    """Register a font with ReportLab on first use; returns its name."""
    if name not in FONT_FILES and name != SYMBOL_FONT and name not in GAME_FACES:
        raise KeyError(f"unknown font {name!r}; known: {', '.join(FONT_FILES)}")
    pdfmetrics.registerFont(TTFont(name, font_path(name)))
    return name


def bolder(font: str) -> str:
    """What **bold** turns `font` into: Lato's next weight, a game family's bold face when it has one."""
    face = GAME_FACES.get(font)
    if face is None:
        return BOLDER.get(font, font)
    return face.sibling({"Regular": "Bold", "Italic": "BoldItalic", "Bold": "Black",
                         "BoldItalic": "BlackItalic"}.get(face.style, "")) or font


def italic(font: str) -> str:
    """What *italic* turns `font` into (italic inside italic stands upright again)."""
    face = GAME_FACES.get(font)
    if face is None:
        return ITALIC.get(font, font)
    turned = {"Regular": "Italic", "Italic": "Regular", "Bold": "BoldItalic", "BoldItalic": "Bold",
              "Black": "BlackItalic", "BlackItalic": "Black"}.get(face.style, "")
    return face.sibling(turned) or font


def svg_font(font: str) -> tuple[str, str, str]:
    """(font-family, font-weight, font-style) for SVG; a game face is named first, Lato after it."""
    face = GAME_FACES.get(font)
    if face is None:
        return SVG_FONT[font]
    family = face.family.replace("'", "")
    return (f"'{family}', {SVG_FONT[face.lato][0]}", "bold" if face.bold else "normal",
            "italic" if face.italic else "normal")


@cache
def font_face_css(font: str) -> str:
    """An @font-face rule carrying a game face's whole file, so a browser draws the SVG as the PDF prints."""
    face = GAME_FACES[font]
    with open(face.path, "rb") as f:
        data = base64.b64encode(f.read()).decode()
    kind = "opentype" if face.path.lower().endswith(".otf") else "truetype"
    return (f"@font-face {{ font-family: '{face.family.replace(chr(39), '')}'; "
            f"font-weight: {'bold' if face.bold else 'normal'}; font-style: {'italic' if face.italic else 'normal'}; "
            f"src: url(data:font/{'otf' if kind == 'opentype' else 'ttf'};base64,{data}) format('{kind}'); }}")


def missing_glyphs(text: str, font: str) -> list[str]:
    """The characters of `text` a game face lacks (in order, once each); none for Lato, which falls back
    to DejaVu Sans for symbols by design."""
    if font not in GAME_FACES:
        return []
    glyphs = _glyphs(font)
    return list(dict.fromkeys(ch for ch in text if ord(ch) not in glyphs and not ch.isspace()))


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
    lato = GAME_FACES[font].lato if font in GAME_FACES else None  # a game font falls back to Lato, visibly
    for char in text:
        use = font
        if not _has_glyph(font, char):
            if lato and _has_glyph(lato, char):
                use = lato
            elif _has_glyph(SYMBOL_FONT, char):
                use = SYMBOL_FONT
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
