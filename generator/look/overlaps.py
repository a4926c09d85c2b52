"""Nothing printed over anything else: a face's text whose ink would share paper with another element's ink
(a track's line through a word, a rule through a title, two texts on one another) is found from the scene
alone, in millimetres, without drawing a pixel: quick enough for every face of a set at each `check`.

A text's ink is the box of each of its lines: its measured width, from the baseline up to the capitals'
height, and below the baseline a box under each run of letters with descenders. Each other element is taken
in that box's own frame (so a text turned a quarter, or any angle, is tested as exactly as an upright one):
- a line, or a shape's outline, overlaps when its stroke crosses the box;
- a filled shape overlaps when its edge crosses the box or the whole shape lies inside it; a fill that holds
  the whole box is the ground the text stands on (a label on its own badge, a card's background);
- another text overlaps when the two boxes meet;
- nothing drawn before the last opaque fill that holds the text's whole box shows there (a lane's line
  under the badge its letter stands on).
A ground's hatching (`--ink low`) is a pattern texts are made to read on, and an icon set in a rich text is
part of it. (generator.look.layouts.covered warns, as a face is drawn, of a text an opaque box drawn after it
hides; this check sees every element, in both inks, on the finished face.)
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from . import fonts
from .ink import Matrix, apply, group_matrix, then, IDENTITY
from .layouts.covered import CAP as CAP_HEIGHT, DESCENT as DESCENDER  # of the size, as the layouts' own check
from .scene import Circle, Group, Hatching, Image, Line, Path, Polygon, Rect, RichText, Scene, Text

DESCENDERS = frozenset("gjpqyQ,;()[]{}|/_@$")
SLACK = 0.15  # mm a box is taken in on every side: glyphs' side bearings, and ink that only touches
CURVE_STEPS = 8  # straight pieces a Bézier curve is taken as
PT = 25.4 / 72


@dataclass(frozen=True, slots=True)
class Inked:
    """One element's ink placed on the face: its points in face millimetres, its kind for the warning."""

    kind: str  # "text", "line", "outline", "fill", "disc", "ring"
    name: str  # what the warning calls it
    owner: int  # texts of one Text or RichText share it and never overlap each other
    rings: tuple[tuple[tuple[float, float], ...], ...] = ()  # closed outlines, or one open polyline for a line
    width: float = 0.0  # stroke width, mm, placed
    circle: tuple[float, float, float] = (0.0, 0.0, 0.0)  # cx, cy, r for discs and rings
    box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # x0, y0, x1, y1 of its ink, placed
    frame: Matrix = IDENTITY  # texts: their line's own frame (line box upright from (0, 0))
    size: tuple[float, float] = (0.0, 0.0)  # texts: the line box's width and height in its frame
    clip: tuple[float, float, float, float] | None = None  # the box its group clips it to, placed
    opaque: bool = False  # fills: whether it hides what is under it


def overlaps(scene: Scene) -> list[str]:
    """'"<words>" runs into <the other element>' for each pair of a text and an element whose inks meet, each
    pair once (a box's fill and outline are one element)."""
    inked: list[Inked] = []
    _collect(scene.elements, IDENTITY, None, inked, [0], None)
    found: dict[tuple[int, int], str] = {}
    placed = [(order, other, other.owner, *other.box, other.clip) for order, other in enumerate(inked)]
    for index, text in enumerate(inked):
        if text.kind != "text":
            continue
        # the elements of other owners whose boxes meet the text's, within their clips (compared inline: this runs
        # for every pair of a text and an element of the face)
        x0, y0, x1, y1 = text.box
        near = [(order, other) for order, other, owner, a0, b0, a1, b1, clip in placed
                if owner != text.owner and a0 <= x1 and x0 <= a1 and b0 <= y1 and y0 <= b1
                and (clip is None or (clip[0] <= x1 and x0 <= clip[2] and clip[1] <= y1 and y0 <= clip[3]))]
        # the last opaque fill under the text that holds its whole box hides all drawn before it (a lane's line
        # under the badge its letter stands on)
        ground = max((order for order, other in near if order < index and _holds(other, text)), default=-1)
        for order, other in near:
            if order < ground or (other.kind == "text" and order < index):
                continue  # hidden under the text's ground, or a pair of texts met already
            if _meets(text, other):
                found.setdefault((text.owner, other.owner), f"{text.name} runs into {other.name}")
    return list(found.values())


def _collect(elements, m: Matrix, clip, out: list[Inked], counter: list[int], rich: int | None) -> None:
    for element in elements:
        if isinstance(element, Hatching):
            continue
        if isinstance(element, Group):
            inner = then(m, group_matrix(element))
            box = clip
            if element.clip is not None:
                placed = _box(_points_of(element.clip, inner, circle_box=True))
                box = placed if clip is None else _intersect(clip, placed)
            owner = rich
            if isinstance(element, RichText):
                counter[0] += 1
                owner = counter[0]
            _collect(element.children, inner, box, out, counter, owner)
            continue
        if rich is None:
            counter[0] += 1
        owner = rich if rich is not None else counter[0]
        out.extend(_inked(element, m, clip, owner))


def _inked(element, m: Matrix, clip, owner: int) -> list[Inked]:
    scale = math.hypot(m[0], m[1])
    if isinstance(element, Text):
        return [box for line in element.lines if line.text.strip()
                for box in _line_boxes(element, line, m, clip, owner)]
    if isinstance(element, Image):
        corners = ((element.x, element.y), (element.x + element.w, element.y),
                   (element.x + element.w, element.y + element.h), (element.x, element.y + element.h))
        ring = tuple(apply(m, *p) for p in corners)
        # a picture may be clear in places: it hides nothing under a text
        return [Inked("fill", f"a picture at {_at(ring[0])}", owner, (ring,), box=_box(ring), clip=clip)]
    style = element.style
    if style.opacity <= 0:
        return []
    stroke = style.stroke_width * scale if style.stroke else 0.0
    out = []
    if isinstance(element, Line):
        a, b = apply(m, element.x1, element.y1), apply(m, element.x2, element.y2)
        if stroke:
            out.append(Inked("line", f"a line from {_at(a)} to {_at(b)}", owner, ((a, b),), stroke,
                             box=_grow(_box((a, b)), stroke / 2), clip=clip))
        return out
    if isinstance(element, Circle):
        cx, cy = apply(m, element.cx, element.cy)
        r = element.r * scale
        box = (cx - r, cy - r, cx + r, cy + r)
        where = f"at {_at((cx, cy))}, radius {r:.1f} mm"
        if style.fill:
            out.append(Inked("disc", f"a disc {where}", owner, circle=(cx, cy, r), box=box, clip=clip,
                             opaque=style.opacity >= 1))
        if stroke:
            out.append(Inked("ring", f"a circle {where}", owner, width=stroke, circle=(cx, cy, r),
                             box=_grow(box, stroke / 2), clip=clip))
        return out
    rings = _rings(element, m)
    if not rings:
        return out
    box = _box([p for ring in rings for p in ring])
    name = {Rect: "a box", Polygon: "a shape", Path: "a shape"}[type(element)] + f" at {_at((box[0], box[1]))}"
    if style.fill:
        out.append(Inked("fill", name, owner, rings, box=box, clip=clip, opaque=style.opacity >= 1))
    if stroke:
        out.append(Inked("outline", f"the outline of {name[2:] if name.startswith('a ') else name}", owner,
                         rings, stroke, box=_grow(box, stroke / 2), clip=clip))
    return out


def _line_boxes(text: Text, line, m: Matrix, clip, owner: int) -> list[Inked]:
    """The line's ink as boxes: its body from the baseline up to the capitals' height, and below the baseline
    only under its runs of letters with descenders (a "p" deep in a line is no reason to reach its first "h")."""
    em = text.size * PT
    width = fonts.text_width_mm(line.text, text.font, text.size)
    left = line.x - {"left": 0.0, "center": 0.5, "right": 1.0}[text.align] * width
    words = line.text.strip()
    name = f'"{words[:40]}…"' if len(words) > 40 else f'"{words}"'
    boxes = [(left, line.y - CAP_HEIGHT * em, left + width, line.y)]
    for run in re.finditer(f"[{re.escape(''.join(sorted(DESCENDERS)))}]+", line.text):
        start = left + fonts.text_width_mm(line.text[:run.start()], text.font, text.size)
        boxes.append((start, line.y, start + fonts.text_width_mm(run[0], text.font, text.size),
                      line.y + DESCENDER * em))
    return [_text_box(box, m, clip, owner, name) for box in boxes]


def _text_box(box, m: Matrix, clip, owner: int, name: str) -> Inked:
    x0, y0, x1, y1 = box
    frame = then(m, (1, 0, 0, 1, x0 + SLACK, y0 + SLACK))  # the box's own frame: (0, 0) its top-left corner
    w, h = max(x1 - x0 - 2 * SLACK, 0.0), max(y1 - y0 - 2 * SLACK, 0.0)
    corners = [apply(frame, x, y) for x, y in ((0, 0), (w, 0), (w, h), (0, h))]
    return Inked("text", name, owner, (tuple(corners),), box=_box(corners), frame=frame, size=(w, h), clip=clip)


def _meets(text: Inked, other: Inked) -> bool:
    """Whether the other element's ink meets the text's line box, worked out in the line's frame."""
    back = _inverse(text.frame)
    w, h = text.size
    box = (0.0, 0.0, w, h)
    if other.kind in ("disc", "ring"):
        cx, cy, r = other.circle
        (cx, cy), scale = apply(back, cx, cy), math.hypot(back[0], back[1])
        if 0 <= cx <= w and 0 <= cy <= h:
            return False  # centred on the text: its own badge, which it may crowd
        r *= scale
        near = math.hypot(cx - min(max(cx, 0.0), w), cy - min(max(cy, 0.0), h))
        far = max(math.hypot(cx - x, cy - y) for x, y in ((0, 0), (w, 0), (w, h), (0, h)))
        if other.kind == "ring":
            half = other.width * scale / 2
            return near <= r + half and far >= r - half
        return near < r < far  # its edge crosses the box, or the whole disc lies inside it
    rings = [tuple(apply(back, *p) for p in ring) for ring in other.rings]
    if other.kind in ("line", "outline"):
        half = other.width * math.hypot(back[0], back[1]) / 2
        grown = _grow(box, half)
        closed = other.kind == "outline"
        return any(_segment_meets(a, b, grown) for ring in rings for a, b in _edges(ring, closed))
    if any(_segment_meets(a, b, box) for ring in rings for a, b in _edges(ring, True)):
        return True  # a fill's or another text's edge crosses the line
    if other.kind == "text" and _inside(rings, (w / 2, h / 2)):
        return True  # the other text's box holds this one
    return any(0 <= x <= w and 0 <= y <= h for ring in rings for x, y in ring[:1])  # it lies inside the box


def _holds(ground: Inked, text: Inked) -> bool:
    """Whether the element is an opaque fill that holds the text's whole box."""
    if ground.kind not in ("fill", "disc") or not ground.opaque:
        return False
    back = _inverse(text.frame)
    w, h = text.size
    if ground.kind == "disc":
        cx, cy, r = ground.circle
        (cx, cy), r = apply(back, cx, cy), r * math.hypot(back[0], back[1])
        return max(math.hypot(cx - x, cy - y) for x, y in ((0, 0), (w, 0), (w, h), (0, h))) <= r
    rings = [tuple(apply(back, *p) for p in ring) for ring in ground.rings]
    return not any(_segment_meets(a, b, (0.0, 0.0, w, h)) for ring in rings for a, b in _edges(ring, True)) \
        and _inside(rings, (w / 2, h / 2))


def _rings(element, m: Matrix) -> tuple[tuple[tuple[float, float], ...], ...]:
    if isinstance(element, Rect):
        e = element
        return (tuple(apply(m, *p) for p in ((e.x, e.y), (e.x + e.w, e.y), (e.x + e.w, e.y + e.h),
                                               (e.x, e.y + e.h))),)
    if isinstance(element, Polygon):
        return (tuple(apply(m, *p) for p in element.points),) if len(element.points) >= 2 else ()
    rings, ring, here = [], [], (0.0, 0.0)
    for cmd in element.commands:
        if cmd[0] == "M":
            if len(ring) >= 2:
                rings.append(tuple(ring))
            here = cmd[1:3]
            ring = [apply(m, *here)]
        elif cmd[0] == "L":
            here = cmd[1:3]
            ring.append(apply(m, *here))
        elif cmd[0] == "C":
            (x0, y0), (x1, y1, x2, y2, x3, y3) = here, cmd[1:7]
            for step in range(1, CURVE_STEPS + 1):
                t = step / CURVE_STEPS
                u = 1 - t
                ring.append(apply(m, u ** 3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t ** 3 * x3,
                                  u ** 3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t ** 3 * y3))
            here = (x3, y3)
    if len(ring) >= 2:
        rings.append(tuple(ring))
    return tuple(rings)


def _points_of(shape, m: Matrix, circle_box: bool = False):
    if isinstance(shape, Circle):
        cx, cy = apply(m, shape.cx, shape.cy)
        r = shape.r * math.hypot(m[0], m[1])
        return [(cx - r, cy - r), (cx + r, cy + r)]
    return [p for ring in _rings(shape, m) for p in ring]


def _edges(ring, closed: bool):
    pairs = list(zip(ring, ring[1:]))
    if closed and len(ring) > 2:
        pairs.append((ring[-1], ring[0]))
    return pairs


def _segment_meets(a, b, box) -> bool:
    """Liang–Barsky: whether the segment a–b has a point inside the box."""
    x0, y0, x1, y1 = box
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    low, high = 0.0, 1.0
    for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


def _inside(rings, point) -> bool:
    """Even-odd: whether the point lies inside the outlines taken together (a ring's hole is outside)."""
    x, y = point
    hit = False
    for ring in rings:
        for (x1, y1), (x2, y2) in _edges(ring, True):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                hit = not hit
    return hit


def _inverse(m: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    det = a * d - b * c
    ia, ib, ic, id_ = d / det, -b / det, -c / det, a / det
    return ia, ib, ic, id_, -(ia * e + ic * f), -(ib * e + id_ * f)


def _box(points) -> tuple[float, float, float, float]:
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(xs), min(ys), max(xs), max(ys)


def _grow(box, by: float):
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def _intersect(a, b):
    return max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])


def _at(point) -> str:
    return f"({point[0]:.1f}, {point[1]:.1f}) mm"
