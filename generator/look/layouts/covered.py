"""Text that another box hides: a text box's words under an opaque box drawn after it (a rect, disc or image).
Fitting checks each text against its own box only; this checks what the eye sees on the finished face."""
from __future__ import annotations

from typing import Iterator

from ..fonts import text_width_mm
from ..scene import Circle, Element, Group, Image, Rect, Text
from ..units import PT_PER_MM
from .base import FaceContext

Area = tuple[float, float, float, float]  # x, y, w, h in mm
SLACK = 0.3  # mm an opaque box may overlap a line's letters before it counts as hiding them
CAP, DESCENT = 0.72, 0.2  # of the size: how far Lato's capitals rise above the baseline, its descenders below


class Line:
    """One drawn line of text: its band from cap height to descender, and its width only when asked (most
    boxes drawn after a text lie above or below it, and need no measuring)."""

    __slots__ = ("top", "bottom", "text", "font", "size", "x", "align")

    def __init__(self, e: Text, line, dx: float, dy: float):
        size = e.size / PT_PER_MM
        self.top, self.bottom = line.y - CAP * size + dy, line.y + DESCENT * size + dy
        self.text, self.font, self.size, self.x, self.align = line.text, e.font, e.size, line.x + dx, e.align

    def area(self) -> Area:
        width = text_width_mm(self.text, self.font, self.size)
        left = self.x - {"center": width / 2, "right": width}.get(self.align, 0.0)
        return left, self.top, width, self.bottom - self.top


def text_lines(elements: tuple[Element, ...] | list[Element], dx: float = 0.0, dy: float = 0.0) -> Iterator[Line]:
    """Every drawn line of text among the elements."""
    for e in elements:
        if isinstance(e, Text):
            for line in e.lines:
                yield Line(e, line, dx, dy)
        elif isinstance(e, Group) and not e.rotate and e.scale == 1.0 and e.matrix is None:
            yield from text_lines(e.children, dx + e.dx, dy + e.dy)


Shape = tuple[float, float, float, float]  # a rect's x, y, w, h; a disc's cx, cy, r and -1


def opaque(elements: tuple[Element, ...] | list[Element], dx: float = 0.0, dy: float = 0.0) -> Iterator[Shape]:
    """The shapes that hide what is under them: filled rects and discs at full opacity, and images."""
    for e in elements:
        if isinstance(e, Rect) and e.style.fill and e.style.opacity >= 1.0:
            yield e.x + dx, e.y + dy, e.w, e.h
        elif isinstance(e, Circle) and e.style.fill and e.style.opacity >= 1.0:
            yield e.cx + dx, e.cy + dy, e.r, -1.0
        elif isinstance(e, Image):
            yield e.x + dx, e.y + dy, e.w, e.h
        elif isinstance(e, Group) and not e.rotate and e.scale == 1.0 and e.matrix is None \
                and not isinstance(e.clip, Circle):
            yield from opaque(e.children, dx + e.dx, dy + e.dy)


def hides(shape: Shape, line: Line) -> Area | None:
    """The line's area when the shape covers part of it (beyond SLACK on every side), else None."""
    sx, sy, sw, sh = shape
    top, bottom = (sy - sw, sy + sw) if sh < 0 else (sy, sy + sh)
    if bottom <= line.top + SLACK or top >= line.bottom - SLACK:
        return None
    area = line.area()
    x, y, w, h = area
    x, y, w, h = x + SLACK, y + SLACK, w - 2 * SLACK, h - 2 * SLACK
    if w <= 0 or h <= 0:
        return None
    if sh < 0:  # a disc
        nearest_x = min(max(sx, x), x + w)
        nearest_y = min(max(sy, y), y + h)
        return area if (nearest_x - sx) ** 2 + (nearest_y - sy) ** 2 < sw ** 2 else None
    return area if sx < x + w and x < sx + sw and sy < y + h and y < sy + sh else None


def warn_hidden_text(ctx: FaceContext, drawn: list[tuple[str, list[Element]]]) -> None:
    """A warning for each text box whose words a box drawn after it hides, naming both boxes."""
    texts = [(index, name, lines) for index, (name, elements) in enumerate(drawn)
             if (lines := list(text_lines(elements)))]
    if not texts:
        return
    covers = [(index, name, shapes) for index, (name, elements) in enumerate(drawn[texts[0][0] + 1:], texts[0][0] + 1)
              if (shapes := list(opaque(elements)))]
    for index, name, lines in texts:
        for later, other, shapes in covers:
            if later <= index:
                continue
            hidden = [area for shape in shapes for line in lines if (area := hides(shape, line))]
            if hidden:
                left = min(a[0] for a in hidden)
                top = min(a[1] for a in hidden)
                right = max(a[0] + a[2] for a in hidden)
                bottom = max(a[1] + a[3] for a in hidden)
                ctx.warn(f"{name}: text hidden under box {other!r} drawn over it",
                         (left, top, right - left, bottom - top))
                break
