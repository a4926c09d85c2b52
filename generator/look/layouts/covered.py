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


def line_areas(elements: tuple[Element, ...] | list[Element], dx: float = 0.0, dy: float = 0.0) -> Iterator[Area]:
    """Where each drawn line of text sits: its width as set, from cap height to descender."""
    for e in elements:
        if isinstance(e, Text):
            size = e.size / PT_PER_MM
            for line in e.lines:
                width = text_width_mm(line.text, e.font, e.size)
                left = line.x - {"center": width / 2, "right": width}.get(e.align, 0.0)
                yield left + dx, line.y - CAP * size + dy, width, (CAP + DESCENT) * size
        elif isinstance(e, Group) and not e.rotate and e.scale == 1.0:
            yield from line_areas(e.children, dx + e.dx, dy + e.dy)


def opaque(elements: tuple[Element, ...] | list[Element], dx: float = 0.0, dy: float = 0.0) -> Iterator[Rect | Circle]:
    """The shapes that hide what is under them: filled rects and discs at full opacity, and images."""
    for e in elements:
        if isinstance(e, Rect) and e.style.fill and e.style.opacity >= 1.0:
            yield Rect(e.x + dx, e.y + dy, e.w, e.h, e.style)
        elif isinstance(e, Circle) and e.style.fill and e.style.opacity >= 1.0:
            yield Circle(e.cx + dx, e.cy + dy, e.r, e.style)
        elif isinstance(e, Image):
            yield Rect(e.x + dx, e.y + dy, e.w, e.h, None)
        elif isinstance(e, Group) and not e.rotate and e.scale == 1.0 and not isinstance(e.clip, (Circle,)):
            yield from opaque(e.children, dx + e.dx, dy + e.dy)


def hides(shape: Rect | Circle, area: Area) -> bool:
    x, y, w, h = area
    x, y, w, h = x + SLACK, y + SLACK, w - 2 * SLACK, h - 2 * SLACK
    if w <= 0 or h <= 0:
        return False
    if isinstance(shape, Circle):
        nearest_x = min(max(shape.cx, x), x + w)
        nearest_y = min(max(shape.cy, y), y + h)
        return (nearest_x - shape.cx) ** 2 + (nearest_y - shape.cy) ** 2 < shape.r ** 2
    return shape.x < x + w and x < shape.x + shape.w and shape.y < y + h and y < shape.y + shape.h


def warn_hidden_text(ctx: FaceContext, drawn: list[tuple[str, list[Element]]]) -> None:
    """A warning for each text box whose words a box drawn after it hides, naming both boxes."""
    for index, (name, elements) in enumerate(drawn):
        lines = list(line_areas(elements))
        if not lines:
            continue
        for other, later in drawn[index + 1:]:
            hidden = [area for shape in opaque(later) for area in lines if hides(shape, area)]
            if hidden:
                left = min(a[0] for a in hidden)
                top = min(a[1] for a in hidden)
                right = max(a[0] + a[2] for a in hidden)
                bottom = max(a[1] + a[3] for a in hidden)
                ctx.warn(f"{name}: text hidden under box {other!r} drawn over it",
                         (left, top, right - left, bottom - top))
                break
