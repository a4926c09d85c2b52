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


def image_problem(path: Path) -> str | None:
    """Why an art file cannot be used (missing, wrong kind, unreadable), or None when it is fine."""
    if path.suffix.lower() not in IMAGE_SUFFIXES:
        return "not a PNG, JPEG or SVG file"
    if not path.is_file():
        return "image file not found"
    try:
        if path.suffix.lower() == ".svg":
            ElementTree.parse(path)
        else:
            from PIL import Image as PILImage  # only sets with art pay for Pillow

            with PILImage.open(path) as pil:
                pil.verify()
    except (OSError, SyntaxError, ValueError, ElementTree.ParseError) as exc:
        return f"image file is unreadable ({type(exc).__name__})"
    return None
