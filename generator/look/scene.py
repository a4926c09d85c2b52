"""The scene: what one component face looks like, as plain shapes in millimetres.

Origin is the trim's top-left corner, y grows downwards; the bleed area extends to negative
coordinates and past the trim size. Backends draw scenes and know nothing about games.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union


@dataclass(frozen=True, slots=True)
class Style:
    fill: str | None = None  # "#rrggbb"
    stroke: str | None = None
    stroke_width: float = 0.3  # mm
    dash: tuple[float, ...] = ()  # mm
    opacity: float = 1.0
    # What icon files (SVG) say about their paint; the defaults draw as every face always has.
    fill_opacity: float = 1.0  # times opacity, for the fill alone
    stroke_opacity: float = 1.0  # times opacity, for the stroke alone
    fill_rule: str = "nonzero"  # nonzero | evenodd: which parts of a self-crossing outline are inside
    cap: str = "butt"  # butt | round | square: a stroke's open ends
    join: str = "miter"  # miter | round | bevel: a stroke's corners
    miter_limit: float | None = None  # None: the backend's own (PDF 10, SVG 4); icons give SVG's 4
    dash_offset: float = 0.0  # how far into the dash pattern a stroke starts

    @property
    def plain_stroke(self) -> bool:
        """A stroke drawn with the backends' own line looks, nothing of an icon file's."""
        return self.cap == "butt" and self.join == "miter" and self.miter_limit is None and not self.dash_offset

    @property
    def fill_alpha(self) -> float:
        return self.opacity * self.fill_opacity


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    style: Style
    radius: float = 0.0


@dataclass(frozen=True, slots=True)
class Circle:
    cx: float
    cy: float
    r: float
    style: Style


@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    style: Style


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    style: Style


@dataclass(frozen=True, slots=True)
class Path:
    """Absolute commands: ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y), ("Z",)."""

    commands: tuple[tuple, ...]
    style: Style


@dataclass(frozen=True, slots=True)
class TextLine:
    """One line already fitted by generator.look.text; x is the anchor point, y the baseline."""

    x: float
    y: float
    text: str


@dataclass(frozen=True, slots=True)
class Text:
    lines: tuple[TextLine, ...]
    font: str  # registered font name, e.g. "Lato-Bold"
    size: float  # points (the unit typographers and printers think in)
    color: str
    align: str = "left"  # left | center | right


@dataclass(frozen=True, slots=True)
class Image:
    """A raster or SVG file fitted into a box; `fit` is cover (fill and crop) or contain. `focus` is the point
    of the picture (fractions across and down) kept in view where `cover` crops it, and the side `contain`
    leans to: (0.5, 0.5), the centre, crops evenly."""

    x: float
    y: float
    w: float
    h: float
    path: str
    fit: str = "cover"
    focus: tuple[float, float] = (0.5, 0.5)


@dataclass(frozen=True, slots=True)
class Group:
    """Children drawn with an optional clip shape, translation, rotation (degrees), scale and then a matrix
    (a b c d e f, as SVG's `matrix()`: what an icon file's transforms, skews among them, come to).

    `link` marks what joins spaces (an arrow between two track spaces): a board's seam may cut it, as it may
    cut a connecting line, since the two halves meet again once the tiles are assembled."""

    children: tuple["Element", ...]
    clip: Union[Rect, Circle, Polygon, Path, None] = None  # a Path clips by its style's fill_rule
    dx: float = 0.0
    dy: float = 0.0
    rotate: float = 0.0
    scale: float = 1.0
    link: bool = False
    matrix: tuple[float, float, float, float, float, float] | None = None


@dataclass(frozen=True, slots=True)
class RichText(Group):
    """Text with **bold**, *italic* and inline icons, placed by generator.look.text: one left-aligned Text per
    font and the icons, each a square at text height on its line's baseline. A group, so every backend draws
    it as it is; its own type so `--ink low` recolours its icons with its words."""


@dataclass(frozen=True, slots=True)
class Hatching(Group):
    """`--ink low`'s lines across a ground, standing for its colour: a pattern texts are made to read on, so
    the overlap check (generator.look.overlaps) lets texts stand on it. A group, drawn as any other."""


Element = Union[Rect, Circle, Polygon, Line, Path, Text, Image, Group]


@dataclass(frozen=True, slots=True)
class Scene:
    """One face of one piece: trim size, bleed and the shape it is cut to."""

    width: float
    height: float
    bleed: float
    elements: tuple[Element, ...]
    shape: str = "rect"  # rect | round | hex: the cut outline
    corner_radius: float = 0.0
    label: str = ""  # for SVG titles and debugging

    @property
    def outer_width(self) -> float:
        return self.width + 2 * self.bleed

    @property
    def outer_height(self) -> float:
        return self.height + 2 * self.bleed


@dataclass
class SceneBuilder:
    """Collects elements in drawing order; layouts use it so they read top to bottom."""

    elements: list[Element] = field(default_factory=list)

    def add(self, *elements: Element) -> None:
        self.elements.extend(e for e in elements if e is not None)

    def freeze(self) -> tuple[Element, ...]:
        return tuple(self.elements)
