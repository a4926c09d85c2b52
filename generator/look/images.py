"""Fitting art into boxes, shared by both backends."""
from __future__ import annotations

import re
from pathlib import Path
from typing import BinaryIO
from xml.etree import ElementTree

from .scene import Image
from ..data.inside import named_inside
from ..data.limits import MAX_ART_PIXELS

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".svg"}


def cover_or_contain(image: Image, image_w: float, image_h: float) -> tuple[float, float, float, float]:
    """The rectangle (x, y, w, h) the whole image is drawn at; the box clips it for `cover`. What does not
    fit is shared out by the image's focus: (0.5, 0.5) crops both sides alike, (0.5, 0.3) keeps more of the
    top (as CSS object-position does), so both backends crop one picture the same way."""
    scale_w, scale_h = image.w / image_w, image.h / image_h
    scale = max(scale_w, scale_h) if image.fit == "cover" else min(scale_w, scale_h)
    w, h = image_w * scale, image_h * scale
    across, down = image.focus
    return image.x + (image.w - w) * across, image.y + (image.h - h) * down, w, h


def svg_aspect(path: str) -> float | None:
    """An SVG file's width over its height, from its viewBox (what a browser fits into an <image>), else its
    width and height; None when neither says (the SVG writer then lets preserveAspectRatio centre it)."""
    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError):
        return None
    box = (root.get("viewBox") or "").replace(",", " ").split()
    sizes = [float(part) for part in box[2:]] if len(box) == 4 and all(NUMBER.fullmatch(p) for p in box) else []
    if not sizes:
        found = [LENGTH.fullmatch(root.get(side) or "") for side in ("width", "height")]
        sizes = [float(match[1]) for match in found if match and match[2] != "%"]
    return sizes[0] / sizes[1] if len(sizes) == 2 and min(sizes) > 0 else None


XLINK = "{http://www.w3.org/1999/xlink}href"


def outside(path: str, folders: list[Path]) -> bool:
    """Whether art named `path` lies outside every one of the game's folders (absolute, `..`, or a link
    leading out): building someone's folder must never print a file it merely points at."""
    return named_inside(path, folders) is None


MAX_ART_NAME = 255  # characters in an art path; file systems refuse longer names (and a longer one is a slip)
INSIDE = "art must be inside the game's folder (no absolute path, .. or link leading out)"


def art_refused(path: str, folders: list[Path]) -> str | None:
    """Why art named `path` is refused outright, as bad data (None when it is not): a name no file can have,
    a place outside the game's folders (`folders[0]` is the one art is relative to), or SVG with a size no
    page can hold. A missing or unreadable file is only warned about as it is drawn: a set in progress
    still builds with a placeholder."""
    if any(ord(ch) < 32 for ch in path):
        return "an art path may not contain control characters (NUL, tab, line break)"
    if len(path) > MAX_ART_NAME:
        return f"an art path is at most {MAX_ART_NAME} characters; this one has {len(path)}"
    file = folders[0] / path
    try:
        file.resolve()
    except RuntimeError:
        return "the art file is a link that leads back to itself"
    if outside(path, folders):
        return INSIDE
    try:
        if not file.is_file():
            return None
        if file.suffix.lower() in RASTER_SUFFIXES:
            return _too_many_pixels(file)
        if file.suffix.lower() != ".svg":
            return None
        return _svg_problem(file)
    except (OSError, ElementTree.ParseError):  # unreadable: the warning as it is drawn says so
        return None


RASTER_SUFFIXES = {".png", ".jpg", ".jpeg"}
EMBEDDED = re.compile(r"data:image/(jpe?g|png);base64,")  # a picture inside SVG art, as the SVG reader draws it


def _embedded_pixels(data: str) -> str | None:
    """Why a picture embedded in SVG art (base64) has more pixels than a face may draw, or None."""
    import base64
    import binascii
    import io

    try:
        return _too_many_pixels(io.BytesIO(base64.b64decode(data.encode("ascii", "replace"))))
    except (binascii.Error, ValueError):
        return None


def _too_many_pixels(path: Path | BinaryIO) -> str | None:
    """Why a PNG or JPEG has more pixels than a face may draw (MAX_ART_PIXELS: drawing one takes memory in
    proportion), read from its header alone; or None (an unreadable file is warned about as it is drawn)."""
    import warnings

    from PIL import Image as PILImage  # only sets with art pay for Pillow

    # past its own limit Pillow warns on stderr; our limit is lower and our line says it (past twice its
    # limit Pillow refuses to open the file, below)
    warnings.filterwarnings("ignore", category=PILImage.DecompressionBombWarning)
    limit = f"the limit is {MAX_ART_PIXELS:,} (5,000 × 5,000, a 211 mm square at 600 dpi)"
    try:
        with PILImage.open(path) as pil:
            width, height = pil.size
    except PILImage.DecompressionBombError:  # not an OSError: Pillow's own guard, past twice its limit
        return f"too many pixels: more than {2 * PILImage.MAX_IMAGE_PIXELS:,}, a decompression bomb; {limit}"
    except (OSError, SyntaxError, ValueError):
        return None
    if width * height > MAX_ART_PIXELS:
        return f"too many pixels: {width:,} × {height:,} = {width * height:,}; {limit}"
    return None


SVG_LIMIT = 1_000_000  # no SVG width, height, viewBox or coordinate is larger (ReportLab writes up to 1e20)
SVG_SMALLEST = 0.01  # nor a width or height smaller: art is scaled by box / size, and a tiny size overflows too
LENGTH = re.compile(r"\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(px|pt|pc|mm|cm|in|em|ex|%)?\s*")
NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
NOT_GEOMETRY = {"id", "class", "href", XLINK}
MAX_SVG_BYTES = 20 * 1024 * 1024


def _svg_size(root: ElementTree.Element) -> str | None:
    """Why the SVG's own size cannot be drawn, or None: a width and height, or a viewBox, that are
    finite, positive and within SVG_SMALLEST to SVG_LIMIT."""
    box = root.get("viewBox")
    if box is not None:
        parts = box.replace(",", " ").split()
        numbers = [float(part) for part in parts if NUMBER.fullmatch(part)]
        if len(parts) != 4 or len(numbers) != 4 or not all(abs(n) <= SVG_LIMIT for n in numbers) \
                or not SVG_SMALLEST <= min(numbers[2:]):
            return (f"SVG viewBox is {box[:40]!r}; it must be four numbers 'x y width height' with the width "
                    f"and height between {SVG_SMALLEST:g} and {SVG_LIMIT:,}")
    lengths = 0
    for side in ("width", "height"):
        value = root.get(side)
        if value is None:
            continue
        match = LENGTH.fullmatch(value)
        if match and match[2] == "%":
            continue
        if not match or not SVG_SMALLEST <= float(match[1]) <= SVG_LIMIT:
            return f"SVG {side} is {value[:20]!r}, not a size between {SVG_SMALLEST:g} and {SVG_LIMIT:,}"
        lengths += 1
    if box is None and lengths < 2:
        return "SVG art needs a width and height (not in %) or a viewBox"
    return None


def _svg_problem(path: Path) -> str | None:
    if path.stat().st_size > MAX_SVG_BYTES:
        return f"SVG art is larger than {MAX_SVG_BYTES // 1024 // 1024} MB"
    root = ElementTree.parse(path).getroot()
    for element in root.iter():
        link = element.get("href") or element.get(XLINK)
        if link and not link.startswith(("#", "data:")):
            return "SVG art may not use other files (href to " + link[:40] + ")"
        if link and (embedded := EMBEDDED.match(link)) and (problem := _embedded_pixels(link[embedded.end():])):
            return f"SVG art's embedded picture: {problem}"
    problem = _svg_size(root)
    if problem:
        return problem
    for element in root.iter():
        for name, value in element.items():
            if name in NOT_GEOMETRY:
                continue
            for number in NUMBER.findall(re.sub(r"#[\w-]+", "", value)):
                if not abs(float(number)) <= SVG_LIMIT:
                    tag = element.tag.rpartition("}")[2]
                    return f"SVG <{tag} {name[:20]}> holds {number[:20]}, beyond ±{SVG_LIMIT:,}"
    return None


def image_problem(path: Path) -> str | None:
    """Why an art file cannot be used (missing, wrong kind, unreadable, too big, pointing at other files),
    or None when it is fine."""
    if path.suffix.lower() not in IMAGE_SUFFIXES:
        return "not a PNG, JPEG or SVG file"
    if not path.is_file():
        return "image file not found"
    if path.suffix.lower() == ".svg":
        try:
            return _svg_problem(path)
        except (OSError, ElementTree.ParseError) as exc:
            return f"image file is unreadable ({type(exc).__name__})"
    from PIL import Image as PILImage  # only sets with art pay for Pillow

    if problem := _too_many_pixels(path):
        return problem
    try:
        with PILImage.open(path) as pil:
            pil.verify()
    except (OSError, SyntaxError, ValueError, PILImage.DecompressionBombError) as exc:
        return f"image file is unreadable ({type(exc).__name__})"
    return None
