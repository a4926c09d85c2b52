"""What is printed behind a text, and `--ink low`: the same faces on a light ground.

A scene is flattened (groups' translation, rotation and scale applied) so a point's printed colour can be
worked out from the filled shapes drawn before it. `low_ink` turns large fills into pale tints outlined in
their own colour and the face's ground white, then recolours only the texts that no longer read, the lines
and outlines under MARK_CONTRAST on the lighter ground (a white compass spoke on what is now white paper, a
player's blue ring on white) and the marks it hid or paled.
"""
from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache

from . import fonts
from .geometry import IDENTITY, Matrix, then
from .layouts.base import TEXT_CONTRAST, contrast_ratio, luminance, mix, readable_ink
from ..data.palette import resolve
from .scene import Circle, Element, Group, Hatching, Line, Path, Polygon, Rect, RichText, Scene, Style, Text, TextLine

PALE = 0.88  # how far a large fill moves toward white
LARGE = 80.0  # mm²: fills larger than this are grounds, not art details
LINE_SEEN = 1.5  # a line with less contrast than this against what is behind it has all but vanished
# Lines and outlines (a ring, a rim, a track's line), an icon's inner details (an arrow's notch, eyes, a
# gear) and labels read as text must, 4.5:1 (WCAG AA), and a little more: a thin line or a glyph's stroke
# prints lighter than its colour at its edges, where it covers part of a dot.
MARK_CONTRAST = 5.0
Shape = Rect | Circle | Polygon | Path


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def group_matrix(g: Group) -> Matrix:
    """The group's own transform, in the order the PDF backend applies it: translate, rotate, scale, matrix."""
    r = math.radians(g.rotate)
    cos, sin = math.cos(r), math.sin(r)
    m = then(then((1, 0, 0, 1, g.dx, g.dy), (cos, sin, -sin, cos, 0, 0)), (g.scale, 0, 0, g.scale, 0, 0))
    return m if g.matrix is None else then(m, g.matrix)


def flatten(elements, m: Matrix = IDENTITY):
    """(element, matrix) in drawing order, through nested groups."""
    for e in elements:
        if isinstance(e, Group):
            yield from flatten(e.children, then(m, group_matrix(e)))
        else:
            yield e, m


def flatten_both(elements, twins, m: Matrix = IDENTITY):
    """(element, its twin, matrix) in drawing order through two trees of the same shape whose groups are
    placed alike (a face and its low-ink version)."""
    for e, twin in zip(elements, twins):
        if isinstance(e, Group):
            yield from flatten_both(e.children, twin.children, then(m, group_matrix(e)))
        else:
            yield e, twin, m


def with_children(group: Group, children: tuple[Element, ...]) -> Group:
    """The group with these children: itself when they are its own."""
    if len(children) == len(group.children) and all(a is b for a, b in zip(children, group.children)):
        return group
    return replace(group, children=children)


def inside_polygon(points, x: float, y: float) -> bool:
    hit = False
    for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def outline(shape: Shape) -> list[tuple[float, float]]:
    """Corners of a rectangle, polygon or path (a path by its points, curves by their end points)."""
    if isinstance(shape, Rect):
        return [(shape.x, shape.y), (shape.x + shape.w, shape.y), (shape.x + shape.w, shape.y + shape.h),
                (shape.x, shape.y + shape.h)]
    if isinstance(shape, Polygon):
        return list(shape.points)
    return [cmd[-2:] for cmd in shape.commands if cmd[0] != "Z"]


def area(shape: Shape, m: Matrix) -> float:
    scale = abs(m[0] * m[3] - m[1] * m[2])
    if isinstance(shape, Circle):
        return math.pi * shape.r ** 2 * scale
    points = outline(shape)
    return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]))) / 2 * scale


@lru_cache(maxsize=4096)
def rgb(color: str) -> tuple[float, float, float]:
    h = resolve(color).lstrip("#")
    return tuple(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))


@lru_cache(maxsize=1 << 14)
def hex_of(channels: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(c * 255):02X}" for c in channels)


def is_fill(element: Element) -> bool:
    return isinstance(element, (Rect, Circle, Polygon, Path)) and bool(element.style.fill)


NEAR = 1e-6  # mm: a point this far outside a shape's box is outside it, whatever the rounding of its edges


def placed(shape: Shape, m: Matrix) -> tuple:
    """A filled shape as Printed keeps it (see there)."""
    paint = rgb(shape.style.fill), shape.style.fill_alpha
    if isinstance(shape, Circle):
        cx, cy = apply(m, shape.cx, shape.cy)
        r = shape.r * math.hypot(m[0], m[1])
        return cx - r - NEAR, cy - r - NEAR, cx + r + NEAR, cy + r + NEAR, (cx, cy, r * r), *paint
    points = [apply(m, *p) for p in outline(shape)]
    if len(points) == 4 and points[0][1] == points[1][1] and points[1][0] == points[2][0] \
            and points[2][1] == points[3][1] and points[3][0] == points[0][0]:
        (x0, y0), _, (x1, y1), _ = points  # the even-odd rule's two upright edges: x0 <= x < x1 inside
        return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1), None, *paint
    if len(points) < 3:  # covers nothing: a box no point is in
        return math.inf, math.inf, -math.inf, -math.inf, None, *paint
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(xs) - NEAR, min(ys), max(xs) + NEAR, max(ys), points, *paint


class Printed:
    """The filled shapes drawn so far on a face, in order: what is printed at a point, over white paper.

    Each shape is placed once, when it is added: its outline (a circle: centre and radius squared), its box
    and its colour. A point outside a shape's box is outside the shape, so only the shapes whose box holds
    the point are tested, with the same arithmetic as ever: an upright rectangle by its box, half-open as
    the even-odd rule makes it, a circle by distance, any other outline by the even-odd rule."""

    def __init__(self, shapes=(), parts: list | None = None):
        # (left, bottom, right, top, how, rgb, opacity); how: None for an upright rectangle (its box is the
        # shape), a tuple (cx, cy, r²) for a circle, else the list of the placed outline's points (the box of
        # either widened by NEAR).
        self.parts: list[tuple] = [] if parts is None else parts
        for shape, m in shapes:
            self.add(shape, m)

    def add(self, shape: Shape, m: Matrix) -> None:
        self.parts.append(placed(shape, m))

    def at(self, x: float, y: float) -> str:
        """The colour printed at (x, y)."""
        color = (1.0, 1.0, 1.0)
        for left, bottom, right, top, how, paint, a in self.parts:
            # An outline's edges cross the level y only if bottom <= y < top (exactly): outside that, or
            # left or right of its box, the even-odd count is even.
            if not (left <= x <= right and bottom <= y <= top):
                continue
            if how is None:
                if x == right or y == top:
                    continue
            elif type(how) is tuple:
                cx, cy, r2 = how
                if (x - cx) ** 2 + (y - cy) ** 2 > r2:
                    continue
            elif not inside_polygon(how, x, y):
                continue
            color = paint if a == 1 else tuple(a * f + (1 - a) * c for f, c in zip(paint, color))
        return hex_of(color)

    def grounds(self, points) -> set[str]:
        """The colours printed at these points. Only the shapes whose box meets the points' box can print
        there; an opaque upright rectangle holding the whole box hides every shape before it; and when every
        shape left holds the whole box, every point is painted alike."""
        points = set(points)
        if not points:
            return set()
        xs, ys = [x for x, _ in points], [y for _, y in points]
        x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
        near, whole, start = [], [], 0
        for part in self.parts:
            left, bottom, right, top, how, _, a = part
            if left <= x1 and right >= x0 and bottom <= y1 and top >= y0:
                holds = how is None and left <= x0 and x1 < right and bottom <= y0 and y1 < top
                if holds and a == 1:
                    start = len(near)
                near.append(part)
                whole.append(holds)
        shown = Printed(parts=near[start:])
        if all(whole[start:]):
            return {shown.at(x0, y0)}
        return {shown.at(x, y) for x, y in points}


def fills(flat) -> Printed:
    return Printed((e, m) for e, m in flat if is_fill(e))


def line_points(text: Text, line: TextLine, m: Matrix) -> list[tuple[float, float]]:
    """Points across one line's box (inset a little), placed by m."""
    width = fonts.text_width_mm(line.text, text.font, text.size)
    left = line.x - {"left": 0.0, "center": 0.5, "right": 1.0}[text.align] * width
    top = line.y - fonts.ascent_mm(text.font, text.size) * 0.7
    xs = [left + width * t for t in (0.05, 0.5, 0.95)]
    ys = [top, (top + line.y) / 2, line.y - 0.1]
    return [apply(m, x, y) for x in xs for y in ys]


def worst_ground(text: Text, line: TextLine, m: Matrix, below: Printed) -> tuple[float, str]:
    """The lowest contrast the line has with what is behind it, and that colour."""
    return min((contrast_ratio(text.color, g), g) for g in below.grounds(line_points(text, line, m)))


def reads_on_all(color: str, grounds: set[str], least: float = TEXT_CONTRAST) -> str:
    """`color` moved toward black or white just far enough to reach `least` contrast on every one of
    `grounds` (or as near as it gets)."""
    return reads_on_every(color, frozenset(grounds), least)


@lru_cache(maxsize=4096)
def reads_on_every(color: str, grounds: frozenset[str], least: float) -> str:
    scored = [(min(contrast_ratio(shade, g) for g in grounds), shade) for shade in
              (mix(color, ink, step / 10) for step in range(11) for ink in ("#1A1A1A", "#FFFFFF"))]
    good = [shade for ratio, shade in scored if ratio >= least]
    return good[0] if good else max(scored)[1]


def line_grounds(line: Line, m: Matrix, below: Printed) -> set[str]:
    """The colours printed behind a line, at a quarter, half and three quarters of its length."""
    return below.grounds(apply(m, line.x1 + (line.x2 - line.x1) * t, line.y1 + (line.y2 - line.y1) * t)
                         for t in (0.25, 0.5, 0.75))


def shape_grounds(shape: Shape, m: Matrix, below: Printed) -> set[str]:
    """The colours printed behind a small shape, at its corners (a circle: round its middle)."""
    if isinstance(shape, Circle):
        points = [(shape.cx + shape.r * 0.6 * dx, shape.cy + shape.r * 0.6 * dy) for dx, dy in
                  ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))]
    else:
        points = outline(shape)
    return below.grounds(apply(m, x, y) for x, y in points)


def outline_grounds(shape: Shape, m: Matrix, below: Printed) -> set[str]:
    """The colours printed behind an outline where it runs: round a circle, at a shape's corners."""
    if not isinstance(shape, Circle):
        return shape_grounds(shape, m, below)
    return below.grounds(apply(m, shape.cx + shape.r * math.cos(turn * math.pi / 4),
                               shape.cy + shape.r * math.sin(turn * math.pi / 4)) for turn in range(8))


def vanished(shape: Shape, original: Shape, m: Matrix, below: Printed, below_rich: Printed) -> bool:
    """A small shape (an icon's part) the lighter ground hides, which showed on the rich ground: a white
    glyph on what was a dark chit."""
    return least_contrast(shape.style.fill, shape_grounds(shape, m, below)) < LINE_SEEN \
        and least_contrast(original.style.fill, shape_grounds(original, m, below_rich)) >= LINE_SEEN


def outlined_well(shape: Shape, m: Matrix, below: Printed, hatching_of) -> bool:
    """The shape's own outline shows it on the light ground and its hatching as text would (a white disc
    ringed in black)."""
    return bool(shape.style.stroke) and least_contrast(
        shape.style.stroke, hatching_of(shape_grounds(shape, m, below))) >= TEXT_CONTRAST


def dimmed(shape: Shape, original: Shape, m: Matrix, below: Printed, below_rich: Printed) -> bool:
    """A small shape meant to be seen (it showed on the rich look) that reads less than a mark must on what it
    sits on in the light one: an icon's detail in the player's colour (a blue notch cut into a white arrow,
    whose white is now dark ink; an alien's eyes), a disc in the player's yellow on the white paper."""
    grounds = others(shape, shape_grounds(shape, m, below))
    rich = others(original, shape_grounds(original, m, below_rich))
    return bool(grounds) and bool(rich) and least_contrast(shape.style.fill, grounds) < MARK_CONTRAST \
        and least_contrast(original.style.fill, rich) >= LINE_SEEN


def others(shape: Shape, grounds: set[str]) -> set[str]:
    """The grounds a small shape is told apart from: not its own colour, where it lies on another part of the
    same silhouette (an icon drawn as overlapping parts in one ink)."""
    return grounds - {hex_of(rgb(shape.style.fill))}


def fades(shape: Shape, m: Matrix, below: Printed, hatching_of) -> bool:
    """A small mark, not pale itself, that reads less than text must on the light ground (a yellow diamond on
    white, a grey icon on a hatched tint)."""
    grounds = others(shape, shape_grounds(shape, m, below))
    return luminance(shape.style.fill) < 0.6 and shape.style.opacity >= 1 and bool(grounds) \
        and least_contrast(shape.style.fill, hatching_of(grounds)) < TEXT_CONTRAST


def least_contrast(color: str, grounds: set[str]) -> float:
    return min(contrast_ratio(color, g) for g in grounds)


def _low(element: Element, m: Matrix, face_area: float, patterns: dict[int, Group], small: set) -> Element:
    """The element on a light ground; a large fill's hatching goes into `patterns` under the new fill's id
    (added after the texts are checked, which read only fills); a fill too small to change goes into `small`
    as (its id, m), so its area is not worked out again."""
    if isinstance(element, Group):
        inner = then(m, group_matrix(element))
        return with_children(element, tuple(_low(child, inner, face_area, patterns, small)
                                            for child in element.children))
    if not isinstance(element, (Rect, Circle, Polygon, Path)) or not element.style.fill:
        return element
    size = area(element, m)
    if size < LARGE:
        small.add((id(element), m))
        return element
    own = resolve(element.style.fill)
    ground = size >= 0.8 * face_area
    if ground:  # the face's ground: white, as the paper
        light = replace(element, style=replace(element.style, fill="#FFFFFF"))
    else:
        edge = element.style.stroke or mix(own, "#000000", 0.2)
        light = replace(element, style=Style(
            fill=mix(own, "#FFFFFF", PALE), stroke=edge, stroke_width=max(element.style.stroke_width, 0.35),
            dash=element.style.dash if element.style.stroke else (), opacity=element.style.opacity,
            fill_rule=element.style.fill_rule))  # an icon's holes stay holes
    pattern = hatch(element, own, ground) if element.style.opacity >= 1 and face_area <= HATCHED_FACE else None
    if pattern is not None:
        patterns[id(light)] = pattern
    return light


def hatched_grounds(patterns: dict[int, Group], pale) -> dict[str, set[str]]:
    """Light fill colour -> the colours of the hatching drawn over fills of that colour: what else a text or
    mark on such a ground stands on."""
    fills_by_id = {id(e): e for e, _ in flatten(pale) if is_fill(e)}
    out: dict[str, set[str]] = {}
    for key, group in patterns.items():
        light = hex_of(rgb(fills_by_id[key].style.fill))
        out.setdefault(light, set()).add(hex_of(rgb(group.children[0].style.stroke)))
    return out


# What a colour becomes on a light ground, so that pieces told apart by colour alone stay apart in grey:
# a hatching whose angle follows the colour's hue (the player colours each get their own) and whose spacing
# follows its lightness (pink is not red). Hue anchors in degrees -> hatching angle in degrees.
HUE_ANGLES = ((0, 45), (25, 165), (48, 0), (125, 135), (175, 30), (213, 90), (280, 60), (330, 120))
HATCH_WIDTH = 0.25  # mm
GREYISH = 0.2  # colours with less saturation than this keep a plain tint
HATCHED_FACE = 3000.0  # mm²: chits, tokens, markers and tiles, told apart by colour; cards and boards by words
BADGE_SHARE = 0.25  # of the face: a fill this small with a text on it is a badge, a plain tint (no hatching)


@lru_cache(maxsize=1024)
def hatching(color: str) -> tuple[float, float] | None:
    """(angle, spacing) of the hatching that stands for `color` on a light ground; None for greys."""
    import colorsys

    hue, lightness, saturation = colorsys.rgb_to_hls(*rgb(color))
    if saturation < GREYISH or lightness > 0.93 or lightness < 0.08:
        return None
    degrees = hue * 360
    angle = min(HUE_ANGLES, key=lambda anchor: min(abs(degrees - anchor[0]), 360 - abs(degrees - anchor[0])))[1]
    spacing = 2.0 if lightness < 0.5 else 2.8 if lightness < 0.7 else 3.6
    return angle, spacing


def hatch(shape: Shape, color: str, ground: bool = False) -> Group | None:
    """Lines across the shape's box at the colour's angle and spacing, clipped to the shape; lighter and
    wider apart on a face's ground, where texts stand on them."""
    pattern = hatching(color)
    if pattern is None or isinstance(shape, Path):
        return None
    angle, spacing = pattern
    spacing *= 1.25 if ground else 1.0
    points = [(shape.cx - shape.r, shape.cy - shape.r), (shape.cx + shape.r, shape.cy + shape.r)] \
        if isinstance(shape, Circle) else outline(shape)
    x0, y0 = min(x for x, _ in points), min(y for _, y in points)
    x1, y1 = max(x for x, _ in points), max(y for _, y in points)
    cx, cy, reach = (x0 + x1) / 2, (y0 + y1) / 2, math.hypot(x1 - x0, y1 - y0) / 2 + spacing
    dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    style = Style(stroke=mix(color, "#FFFFFF", 0.55 if ground else 0.5), stroke_width=HATCH_WIDTH)
    lines = tuple(Line(cx + n * spacing * -dy - reach * dx, cy + n * spacing * dx - reach * dy,
                       cx + n * spacing * -dy + reach * dx, cy + n * spacing * dx + reach * dy, style)
                  for n in range(-int(reach / spacing), int(reach / spacing) + 1))
    return Hatching(lines, clip=shape)


def with_hatching(elements, patterns: dict[int, Group]) -> tuple[Element, ...]:
    """The elements with each recorded fill's hatching drawn right after it."""
    out: list[Element] = []
    for element in elements:
        if isinstance(element, Group):
            element = with_children(element, with_hatching(element.children, patterns))
        out.append(element)
        if id(element) in patterns:
            out.append(patterns[id(element)])
    return tuple(out)


def low_ink(scene: Scene) -> Scene:
    """The face on a light ground: large fills pale, outlined and hatched after their colour, the ground
    white (hatched too), every text legible on the ground and its hatching, every line that showed still
    showing, and the icons and marks that stood out on a rich ground dark on the light one (a white ship on a
    red chit turns dark, a yellow diamond darkens to read on white)."""
    patterns: dict[int, Group] = {}
    small: set[tuple[int, Matrix]] = set()
    face_area = scene.outer_width * scene.outer_height
    pale = tuple(_low(e, IDENTITY, face_area, patterns, small) for e in scene.elements)
    flat = list(flatten_both(pale, scene.elements))
    texts = [(i, apply(m, e.lines[0].x, e.lines[0].y - e.size * 0.12)) for i, (e, _, m) in enumerate(flat)
             if isinstance(e, Text) and e.lines]  # where each text stands (about its first line's middle)

    def badge(index: int, shape: Shape, m: Matrix) -> bool:
        """A shape a later text stands on: it stays light, outlined, so its text reads as before."""
        left, bottom, right, top = placed(shape, m)[:4]
        return any(i > index and left <= x <= right and bottom <= y <= top for i, (x, y) in texts)

    for index, (element, _, m) in enumerate(flat):  # a badge (a resource's pill) is a plain tint: no hatching
        if id(element) in patterns and area(element, m) < BADGE_SHARE * face_area and badge(index, element, m):
            del patterns[id(element)]  # runs across the symbol and the number on it
    hatches = hatched_grounds(patterns, pale) if patterns else {}

    def with_hatching_of(grounds: set[str]) -> set[str]:
        return grounds.union(*(hatches.get(g, ()) for g in grounds))

    # by the element's place in drawing order, not its id: one icon's parts are shared by every copy of it (a
    # white bolt on a red header, and the same bolt on a red disc that stays red)
    recoloured: dict[int, str] = {}
    silhouettes: dict[str, str] = {}  # a small fill's rich colour -> what it was recoloured to, for its other parts
    restroked: dict[int, str] = {}  # a filled shape's outline, recoloured apart from its fill
    outlined: set[int] = set()
    below, below_rich = Printed(), Printed()  # the fills drawn so far, light and rich (element i is the same)
    for index, (element, original, m) in enumerate(flat):
        if isinstance(element, Text) and element.lines:
            grounds = with_hatching_of(
                below.grounds(point for line in element.lines for point in line_points(element, line, m)))
            if least_contrast(element.color, grounds) < MARK_CONTRAST:
                recoloured[index] = reads_on_all(element.color, grounds, MARK_CONTRAST)
        elif isinstance(element, (Line, Rect, Circle, Polygon, Path)) and element.style.stroke \
                and not element.style.fill:  # a line, or an outline (an arrow's arc, a ring)
            behind = line_grounds if isinstance(element, Line) else outline_grounds
            grounds = behind(element, m, below)
            if least_contrast(element.style.stroke, grounds) < MARK_CONTRAST \
                    and (least_contrast(element.style.stroke, behind(element, m, below_rich)) >= LINE_SEEN
                         or hatching(element.style.stroke) is not None):  # a colour: a player's frame, say
                recoloured[index] = reads_on_all(element.style.stroke, grounds, MARK_CONTRAST)
        elif is_fill(element):
            hidden = (id(element), m) in small and not outlined_well(element, m, below, with_hatching_of) \
                and vanished(element, original, m, below, below_rich)
            own = hex_of(rgb(original.style.fill))
            if (id(element), m) in small and own in silhouettes and own in shape_grounds(original, m, below_rich):
                recoloured[index] = silhouettes[own]  # drawn on a part of its own colour: one shape, one colour
            elif hidden and badge(index, element, m):
                outlined.add(index)
                recoloured[index] = reads_on_all(element.style.fill, shape_grounds(element, m, below), MARK_CONTRAST)
            elif hidden or (id(element), m) in small and fades(element, m, below, with_hatching_of) \
                    and not badge(index, element, m):  # a text on it was made to read on its colour
                grounds = shape_grounds(element, m, below)
                recoloured[index] = reads_on_all(
                    element.style.fill, with_hatching_of(others(element, grounds) or grounds), MARK_CONTRAST)
            elif (id(element), m) in small and not badge(index, element, m) \
                    and not outlined_well(element, m, below, with_hatching_of) \
                    and dimmed(element, original, m, below, below_rich):  # light on what is now dark ink
                recoloured[index] = reads_on_all(
                    element.style.fill, others(element, shape_grounds(element, m, below)), MARK_CONTRAST)
            if (id(element), m) in small and index in recoloured and index not in outlined:
                silhouettes.setdefault(own, recoloured[index])
            stroke = element.style.stroke
            if stroke and hatching(stroke) is not None:  # a coloured frame round a fill: it reads on both sides
                grounds = outline_grounds(element, m, below) | {hex_of(rgb(recoloured.get(index, element.style.fill)))}
                if least_contrast(stroke, grounds) < TEXT_CONTRAST:  # one that reads already keeps its colour
                    restroked[index] = reads_on_all(stroke, grounds, MARK_CONTRAST)
            # what later elements stand on: the fill as it prints, recoloured (an arrow's body, now dark ink)
            shown = element if index not in recoloured or index in outlined else \
                replace(element, style=replace(element.style, fill=recoloured[index]))
            part = placed(shown, m)
            below.parts.append(part)
            below_rich.parts.append(part if original is shown else placed(original, m))

    places = iter(range(len(flat)))  # recolour meets the elements in the order flatten_both gave them

    def recolour(element: Element) -> Element:
        if isinstance(element, RichText):
            return recolour_rich(element)
        if isinstance(element, Group):
            return with_children(element, tuple(recolour(child) for child in element.children))
        index = next(places)
        if index in restroked:
            element = replace(element, style=replace(element.style, stroke=restroked[index]))
        if index not in recoloured:
            return element
        if index in outlined:  # a light badge the white ground hides keeps its fill and gains an outline
            return replace(element, style=replace(element.style, stroke=recoloured[index],
                                                  stroke_width=max(element.style.stroke_width, 0.3)))
        if is_fill(element):  # an icon's part or a mark that the light ground hid or paled: dark enough to read
            return replace(element, style=replace(element.style, fill=recoloured[index]))
        if isinstance(element, (Line, Rect, Circle, Polygon, Path)):
            return replace(element, style=replace(element.style, stroke=recoloured[index]))
        return replace(element, color=recoloured[index])

    def recolour_rich(rich: RichText) -> RichText:
        """A rich text's words in one new colour, and its icons with them (their cut-outs too)."""
        parts = [(next(places), e) for e, _ in flatten(rich.children)]
        words = [(index, e) for index, e in parts if isinstance(e, Text)]
        new = next((recoloured[index] for index, _ in words if index in recoloured), None)
        if new is None:
            return rich
        old = words[0][1].color
        return repaint(rich, {old: new, resolve(old): new, readable_ink(old): readable_ink(new)})

    elements = tuple(recolour(e) for e in pale) if recoloured or restroked else pale
    return replace(scene, elements=with_hatching(elements, patterns) if patterns else elements)


def repaint(element: Element, colours: dict[str, str]) -> Element:
    """The element with every fill, stroke and text colour found in `colours` swapped for its new one."""
    if isinstance(element, Group):
        return replace(element, children=tuple(repaint(child, colours) for child in element.children))
    if isinstance(element, Text):
        return replace(element, color=colours.get(element.color, element.color))
    if isinstance(element, (Rect, Circle, Polygon, Path, Line)):
        style = element.style
        return replace(element, style=replace(style, fill=colours.get(style.fill, style.fill),
                                              stroke=colours.get(style.stroke, style.stroke)))
    return element
