"""A picture dropped on a face, scaled down to what its box needs at 600 dpi before it is kept.

A phone photo holds 12 to 50 million pixels; a card's art window prints about one million at 600 dpi, and a
folder's art past MAX_ART_PIXELS is refused by the build. So the studio keeps no more than the box can show:
the picture's proportions, orientation (EXIF), colour profile and format stay as they were, so it prints as
the original would have, only smaller on disk and quicker to draw. A picture already small enough is kept
byte for byte (the same file dropped twice is then one file in art/).
"""
from __future__ import annotations

import io
import math
from dataclasses import dataclass

from ..data.limits import MAX_ART_PIXELS

PRINT_DPI = 600  # what a box is given: beyond it a printer shows no more
MM_PER_INCH = 25.4
WORTH_SCALING = 0.9  # scaled to less than this share of each side: a small trim is not worth a new encoding
JPEG_QUALITY = 92  # high enough that a photo scaled once looks as it did


@dataclass(frozen=True)
class Box:
    """The millimetres a picture is drawn in and how it is fitted there (`cover` fills and crops)."""

    w: float
    h: float
    fit: str = "cover"


@dataclass(frozen=True)
class Fitted:
    data: bytes
    size: tuple[int, int]  # the pixels kept
    scaled: bool


def needed_scale(width: int, height: int, box: Box) -> float:
    """The share of each side a `width` × `height` picture needs to print `box` at PRINT_DPI (1 or more: all
    of it), never more pixels than a folder may hold."""
    need_w, need_h = box.w / MM_PER_INCH * PRINT_DPI, box.h / MM_PER_INCH * PRINT_DPI
    ratios = (need_w / width, need_h / height)
    scale = min(ratios) if box.fit == "contain" else max(ratios)  # cover: the side that is cropped least
    return min(scale, math.sqrt(MAX_ART_PIXELS / (width * height)))


def fitted(data: bytes, box: Box | None) -> Fitted:
    """`data` (a PNG or JPEG Pillow has verified) as it is kept for `box`: scaled down when it holds more than
    the box shows at 600 dpi, else unchanged."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        width, height = image.size
        scale = needed_scale(width, height, box) if box else math.sqrt(min(1.0, MAX_ART_PIXELS / (width * height)))
        if scale >= WORTH_SCALING:
            return Fitted(data, (width, height), False)
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        kept = {key: image.info[key] for key in ("icc_profile", "exif", "dpi") if key in image.info}
        kept.pop("dpi", None)  # the pixels per inch are no longer the original's; the box sets the size
        format_ = image.format
        if format_ == "JPEG":
            image.draft(image.mode, size)  # decode at a reduced size: a 48 Mpx photo never fills memory
        picture = image.convert("RGBA") if image.mode in ("P", "LA", "1") or "transparency" in image.info \
            else image
        smaller = picture.resize(size, Image.Resampling.LANCZOS)
    out = io.BytesIO()
    if format_ == "JPEG":
        if smaller.mode not in ("RGB", "L", "CMYK"):
            smaller = smaller.convert("RGB")
        smaller.save(out, "JPEG", quality=JPEG_QUALITY, optimize=True, **kept)
    else:
        smaller.save(out, "PNG", optimize=False, **kept)
    return Fitted(out.getvalue(), size, True)
