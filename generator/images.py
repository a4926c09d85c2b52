"""Fitting art into boxes, shared by both backends."""
from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

from .scene import Image

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".svg"}


def cover_or_contain(image: Image, image_w: float, image_h: float) -> tuple[float, float, float, float]:
    """The rectangle (x, y, w, h) the whole image is drawn at; the box clips it for `cover`."""
    scale_w, scale_h = image.w / image_w, image.h / image_h
    scale = max(scale_w, scale_h) if image.fit == "cover" else min(scale_w, scale_h)
    w, h = image_w * scale, image_h * scale
    return image.x + (image.w - w) / 2, image.y + (image.h - h) / 2, w, h


MAX_PIXELS = 60_000_000  # a 300 dpi A3 page is 17 Mpx; far beyond that is a decompression bomb
XLINK = "{http://www.w3.org/1999/xlink}href"


def outside(path: str, folders: list[Path]) -> bool:
    """Whether art named `path` lies outside every one of the game's folders (absolute, `..`, or a link
    leading out): building someone's folder must never print a file it merely points at."""
    if Path(path).is_absolute() or "\0" in path:
        return True
    for folder in folders:
        root = folder.resolve()
        try:
            (folder / path).resolve().relative_to(root)
            return False
        except (ValueError, OSError, RuntimeError):  # RuntimeError: a symlink loop
            continue
    return True


def _svg_problem(path: Path) -> str | None:
    root = ElementTree.parse(path).getroot()
    for element in root.iter():
        link = element.get("href") or element.get(XLINK)
        if link and not link.startswith(("#", "data:")):
            return "SVG art may not use other files (href to " + link[:40] + ")"
    for side in ("width", "height"):
        value = root.get(side, "").rstrip("px").strip()
        if value:
            try:
                number = float(value.rstrip("mcinpt%"))
            except ValueError:
                continue
            if not number > 0 or number != number or number == float("inf"):
                return f"SVG {side} is {value[:20]!r}, not a size"
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

    try:
        with PILImage.open(path) as pil:
            if pil.width * pil.height > MAX_PIXELS:
                return f"image is {pil.width} × {pil.height} pixels, more than {MAX_PIXELS // 1_000_000} megapixels"
            pil.verify()
    except PILImage.DecompressionBombError:  # not an OSError: Pillow's own guard, past twice its limit
        return "image is too large to open safely (a decompression bomb)"
    except (OSError, SyntaxError, ValueError) as exc:
        return f"image file is unreadable ({type(exc).__name__})"
    return None
