"""A game's own typefaces: font files (.ttf or .otf) in its folder's fonts/,
named in a layout by family and style as the font names itself: `font: Tomson Talks`, `font: Comic Neue
Bold` (case, spaces and hyphens do not matter). `**bold**` in a text takes the family's bold face when the
folder has one. The PDF embeds each face as a subset, the SVG carries the file (fonts.font_face_css).

ReportLab embeds TrueType outlines only, so an .otf with PostScript (CFF) outlines is converted once with
fontTools (imported only then) into the folder's .cache/fonts/, and that copy is what the files use. A font
file is refused in one line when it leads out of the folder, is larger than MAX_FONT_BYTES, or is no font.
"""
from __future__ import annotations

import hashlib
import io
import re
import stat
from pathlib import Path

from reportlab.pdfbase.ttfonts import TTFError, TTFontFile

from ..data.errors import DataError
from ..data.inside import INSIDE, kept_file, kept_since, within, write_kept
from ..data.limits import MAX_FONT_MIB
from .fonts import FONT_FILES, GAME_FACES, SYMBOL_FONT, GameFace

FONTS_FOLDER = "fonts"
CONVERTED = Path(".cache") / "fonts"  # TrueType copies of PostScript-outline .otf files, by content hash
FONT_SUFFIXES = (".ttf", ".otf")
MAX_FONT_BYTES = MAX_FONT_MIB * 1024 * 1024  # a face is tens or hundreds of kilobytes; CJK faces a few MB
WEIGHTS = {"thin": "Thin", "extralight": "ExtraLight", "light": "Light", "regular": "Regular", "normal": "Regular",
           "book": "Regular", "medium": "Medium", "semibold": "SemiBold", "bold": "Bold", "extrabold": "ExtraBold",
           "black": "Black", "heavy": "Black"}
_FOUND: dict[tuple, dict[str, str]] = {}


def compact(name: str) -> str:
    """A font name as looked up: `Tomson Talks-Bold` and `tomsontalks bold` are the same."""
    return re.sub(r"[\s_-]+", "", name).lower()


def font_files(folders: tuple[Path, ...]) -> list[Path]:
    return [path for folder in folders for path in sorted((folder / FONTS_FOLDER).glob("*"))
            if path.suffix.lower() in FONT_SUFFIXES]


def game_fonts(folders: tuple[Path, ...]) -> dict[str, str]:
    """Every way a layout may name a face of the folders' fonts -> that face's registered font name; the
    first folder's family wins over a later one's of the same name. Read again only when a file changes."""
    files = font_files(folders)
    key = tuple((path, path.lstat().st_mtime_ns, path.lstat().st_size) for path in files)
    if key not in _FOUND:
        if len(_FOUND) > 32:  # a long-running server or --watch sees many folders and edits
            _FOUND.clear()
        _FOUND[key] = _read(folders, files)
    return _FOUND[key]


def _read(folders: tuple[Path, ...], files: list[Path]) -> dict[str, str]:
    families: dict[str, list[tuple[str, str, str]]] = {}  # family -> [(style, registered, path)]
    for path in files:
        family, style, digest, usable = _face_names(path, folders)
        faces = families.setdefault(family, [])
        if all(style != known for known, _, _ in faces):
            faces.append((style, f"{re.sub(r'[^A-Za-z0-9]', '', family)}-{style}~{digest}", str(usable)))
    names: dict[str, str] = {}
    for family, faces in families.items():
        siblings = tuple((style, registered) for style, registered, _ in faces)
        for style, registered, path in faces:
            GAME_FACES[registered] = GameFace(path, family, style, bold=style.startswith(("Bold", "Black",
                                              "ExtraBold", "SemiBold")), italic=style.endswith("Italic"),
                                              faces=siblings)
            names.setdefault(compact(f"{family} {style}"), registered)
        plain = dict(siblings).get("Regular") or faces[0][1]
        names.setdefault(compact(family), plain)
    return names


def _face_names(path: Path, folders: tuple[Path, ...]) -> tuple[str, str, str, Path]:
    """(family, style such as Bold or BoldItalic, a short hash of the file, the TrueType file to use) of one
    font file."""
    where = f"{path}"
    try:
        if not within(path, folders):
            raise DataError(f"{where}: a font {INSIDE}")
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FONT_BYTES:
            raise DataError(f"{where}: not a font file of at most {MAX_FONT_BYTES // 1024 // 1024} MiB")
        data = path.read_bytes()
    except OSError as exc:
        raise DataError(f"{where}: cannot read: {exc.strerror or exc}") from None
    digest = hashlib.sha256(data).hexdigest()[:8]
    usable = path
    if data[:4] == b"OTTO":  # PostScript outlines
        folder, kept = path.parent.parent, CONVERTED / f"{path.stem}-{digest}.ttf"
        usable = kept_file(folder, kept)  # real folders and a real file: never read or written through a link
        if kept_since(usable) is None:
            _as_truetype(path, folder, kept, where)
    try:
        font = TTFontFile(str(usable), validate=0)
    except (TTFError, Exception) as exc:  # noqa: BLE001 - ReportLab's parser fails many ways on a bad file
        raise DataError(f"{where}: not a font ReportLab can embed ({str(exc)[:120]})") from None
    family = _text(font.familyName) or path.stem
    return family, _style(_text(font.styleName)), digest, usable


def _as_truetype(source: Path, folder: Path, kept: Path, where: str) -> None:
    """A PostScript-outline OpenType font as TrueType: each glyph's cubic curves as quadratic ones, the
    tables that describe outlines rebuilt (fontTools' own otf2ttf recipe)."""
    try:
        from fontTools.pens.cu2quPen import Cu2QuPen
        from fontTools.pens.ttGlyphPen import TTGlyphPen
        from fontTools.ttLib import TTFont, newTable

        font = TTFont(str(source))
        order = font.getGlyphOrder()
        font["loca"] = newTable("loca")
        font["glyf"] = glyf = newTable("glyf")
        glyf.glyphOrder, glyf.glyphs = order, {}
        glyphs = font.getGlyphSet()
        for name in order:
            pen = TTGlyphPen(glyphs)
            glyphs[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
            glyf[name] = pen.glyph()
        font["maxp"] = maxp = newTable("maxp")
        maxp.tableVersion, maxp.maxZones = 0x00010000, 1
        for field in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                      "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
            setattr(maxp, field, 0)
        post = font["post"]
        post.formatType, post.extraNames, post.mapping, post.glyphOrder = 2.0, [], {}, order
        for table in ("CFF ", "VORG"):
            if table in font:
                del font[table]
        font.sfntVersion = "\0\1\0\0"
        converted = io.BytesIO()
        font.save(converted)
        write_kept(folder, kept, converted.getvalue())
    except OSError as exc:
        raise DataError(f"{where}: cannot keep a TrueType copy in {(folder / kept).parent}: "
                        f"{exc.strerror or exc}") from None
    except DataError:
        raise
    except Exception as exc:  # noqa: BLE001 - fontTools fails many ways on a damaged font
        raise DataError(f"{where}: not a font that can be embedded ({type(exc).__name__}: {str(exc)[:100]})") from None


def _text(value) -> str:
    return (value.decode("latin-1") if isinstance(value, bytes) else str(value or "")).strip()


def _style(words: str) -> str:
    """`Bold Italic`, `BoldOblique`, `Regular` as Bold/Italic/BoldItalic/Regular (other weights kept)."""
    low = compact(words)
    slant = "Italic" if "italic" in low or "oblique" in low else ""
    low = low.replace("italic", "").replace("oblique", "")
    weight = WEIGHTS.get(low, low.title() if low else "Regular")
    if weight == "Regular" and slant:
        return slant
    return weight + slant


def resolve_font(name: str, names: dict[str, str]) -> str | None:
    """The registered font a layout's `font:` names: Lato's own names as they are, a game face by family and
    style; None for a name neither knows."""
    if name in FONT_FILES or name == SYMBOL_FONT or name in GAME_FACES:
        return name
    return names.get(compact(name))
