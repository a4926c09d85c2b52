"""Fitting art into boxes, shared by both backends."""
from __future__ import annotations

from .scene import Image


def cover_or_contain(image: Image, image_w: float, image_h: float) -> tuple[float, float, float, float]:
    """The rectangle (x, y, w, h) the whole image is drawn at; the box clips it for `cover`."""
    scale_w, scale_h = image.w / image_w, image.h / image_h
    scale = max(scale_w, scale_h) if image.fit == "cover" else min(scale_w, scale_h)
    w, h = image_w * scale, image_h * scale
    return image.x + (image.w - w) / 2, image.y + (image.h - h) / 2, w, h
