"""Fold-up dice: a cube net of six faces in a cross, with glue tabs, fold lines and a cut outline.

The piece's size is the net's bounding box: four faces wide plus one tab, three faces high. Faces are
numbers, pips (`pips:N`), icon names (`icon:name`) or `unspecified` (a small write-in square).
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from ..palette import Color, resolve
from ..scene import Circle, Element, Line, Polygon, Rect, Style
from ..model import is_unspecified
from . import layout
from .base import FaceContext, FaceParams, known_icon, mix, readable_ink

TAB_RATIO = 0.3  # tab depth as a share of the face side
# faces of the cross (col, row): top, then left, front, right, back in the middle row, then bottom
CELLS = ((1, 0), (0, 1), (1, 1), (2, 1), (3, 1), (1, 2))
# glue tabs (cell, edge): each closes one of the seven open seams, none overlaps another
TABS = (((0, 1), "top"), ((0, 1), "bottom"), ((2, 1), "top"), ((2, 1), "bottom"),
        ((3, 1), "top"), ((3, 1), "bottom"), ((3, 1), "right"))
PIPS = {1: ((0, 0),), 2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1)),
        4: ((-1, -1), (1, -1), (-1, 1), (1, 1)), 5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
        6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1))}


def face_value(value: str, info) -> str:
    """Reject pips other than 1-6 and unknown icons while the data is loaded, not when drawing."""
    if value.startswith("pips:") and value[5:] not in {str(n) for n in PIPS}:
        raise ValueError(f"pips must be 1 to 6 on a die face; got {value!r}")
    if value.startswith("icon:"):
        known_icon(value[5:], info)
    return value


class DieNetParams(FaceParams):
    layout: Literal["die_net"] = "die_net"
    title: str = Field(description="printed beside the net, e.g. 'Yellow die'")
    color: Color = Field("#FFFFFF", description="face colour: hex or palette name")
    faces: list[str] | Literal["unspecified"] = Field(
        description="six faces: '3', 'pips:3', 'icon:name' or 'unspecified'; or 'unspecified' for all six")
    note: str = Field("Cut on the solid line, fold on the dashed lines, glue the grey tabs under the faces.",
                      description="assembly hint printed in the free corner")

    @field_validator("faces")
    @classmethod
    def _six(cls, faces, info):
        if isinstance(faces, list):
            if len(faces) != 6:
                raise ValueError(f"a die has 6 faces; got {len(faces)}")
            return [face_value(f, info) for f in faces]
        return faces


def net_side(width: float, height: float) -> float:
    """The face side that fits the net (4 faces + 1 tab wide, 3 faces high) into the piece."""
    return min(width / (4 + TAB_RATIO), height / 3)


def _tab(x: float, y: float, s: float, edge: str) -> tuple:
    """A trapezoid glued under the neighbouring face, tapered so tabs at a corner never touch."""
    t, k = s * TAB_RATIO, s * 0.22
    if edge == "top":
        return ((x, y), (x + k, y - t), (x + s - k, y - t), (x + s, y))
    if edge == "bottom":
        return ((x, y + s), (x + k, y + s + t), (x + s - k, y + s + t), (x + s, y + s))
    return ((x + s, y), (x + s + t, y + k), (x + s + t, y + s - k), (x + s, y + s))


def _outline(s: float) -> list[tuple[float, float]]:
    """The cut path around the cross and its tabs, clockwise from the top face's top-left corner."""
    pts: list[tuple[float, float]] = []
    tabs = {(cell, edge): _tab(cell[0] * s, cell[1] * s, s, edge) for cell, edge in TABS}

    def edge(cell, side, start, end):
        tab = tabs.get((cell, side))
        pts.extend(tab if tab else (start, end))

    edge((1, 0), "top", (s, 0), (2 * s, 0))
    pts.append((2 * s, s))
    edge((2, 1), "top", (2 * s, s), (3 * s, s))
    edge((3, 1), "top", (3 * s, s), (4 * s, s))
    edge((3, 1), "right", (4 * s, s), (4 * s, 2 * s))
    edge((3, 1), "bottom", (4 * s, 2 * s), (3 * s, 2 * s))  # tab points listed left to right: reverse below
    pts[-4:] = pts[-4:][::-1]
    edge((2, 1), "bottom", (3 * s, 2 * s), (2 * s, 2 * s))
    pts[-4:] = pts[-4:][::-1]
    pts.extend(((2 * s, 3 * s), (s, 3 * s), (s, 2 * s)))
    edge((0, 1), "bottom", (s, 2 * s), (0, 2 * s))
    pts[-4:] = pts[-4:][::-1]
    pts.append((0, s))
    edge((0, 1), "top", (0, s), (s, s))
    pts.append((s, 0))
    return pts


def _face(ctx: FaceContext, value: str, x: float, y: float, s: float, fill: str, index: int) -> list[Element]:
    ink = readable_ink(fill)
    if is_unspecified(value):
        pad = s * 0.14
        return ctx.write_in(f"face {index + 1}", x + pad, y + pad, s - 2 * pad, s - 2 * pad)
    if value.startswith("pips:"):
        r, step = s * 0.085, s * 0.27
        return [Circle(x + s / 2 + dx * step, y + s / 2 + dy * step, r, Style(fill=ink))
                for dx, dy in PIPS[int(value[5:])]]
    if value.startswith("icon:"):
        size = s * 0.66
        return [ctx.icon(value[5:], x + (s - size) / 2, y + (s - size) / 2, size, ink, fill)]
    return [ctx.text("faces", value, x + s * 0.1, y + s * 0.1, s * 0.8, s * 0.8, font="Lato-Black",
                     size=s * 1.6, min_size=6, color=ink, align="center", valign="middle", max_lines=1)]


@layout("die_net", DieNetParams)
def die_net(ctx: FaceContext, p: DieNetParams) -> list[Element]:
    s = net_side(ctx.width, ctx.height)
    fill = resolve(p.color)
    faces = ["unspecified"] * 6 if isinstance(p.faces, str) else p.faces
    out: list[Element] = [ctx.background("#FFFFFF")]
    tab_style = Style(fill="#D5D8DC", stroke="#8A9096", stroke_width=0.2)
    for cell, edge in TABS:
        out.append(Polygon(_tab(cell[0] * s, cell[1] * s, s, edge), tab_style))
    for i, (col, row) in enumerate(CELLS):
        x, y = col * s, row * s
        out.append(Rect(x, y, s, s, Style(fill=fill)))
        out.append(Rect(x + s * 0.05, y + s * 0.05, s * 0.9, s * 0.9,
                        Style(stroke=mix(fill, readable_ink(fill), 0.3), stroke_width=0.2), radius=s * 0.08))
        out.extend(_face(ctx, faces[i], x, y, s, fill, i))
    fold = Style(stroke="#555555", stroke_width=0.25, dash=(1.2, 1.0))
    folds = [(s, s, s, 2 * s), (2 * s, s, 2 * s, 2 * s), (3 * s, s, 3 * s, 2 * s),
             (s, s, 2 * s, s), (s, 2 * s, 2 * s, 2 * s)]
    folds += [_tab_base(cell, edge, s) for cell, edge in TABS]
    out.extend(Line(*f, fold) for f in folds)
    out.append(Polygon(tuple(_outline(s)), Style(stroke="#1A1A1A", stroke_width=0.3)))
    # title and hint in the free corners of the bounding box (cut away after printing)
    ink = "#1A1A1A"
    t = s * TAB_RATIO
    out.append(ctx.text("title", p.title, 2 * s + 1, 0.5, 2 * s - 2, s - t - 1, font="Lato-Black",
                        size=11, min_size=6, color=ink, valign="middle", max_lines=2))
    out.append(ctx.text("note", p.note, 2 * s + 1, 2 * s + t + 0.5, 2 * s - 2, s - t - 1, font="Lato-Italic",
                        size=7, min_size=6, color="#555555", valign="top"))
    return out


def _tab_base(cell: tuple[int, int], edge: str, s: float) -> tuple[float, float, float, float]:
    x, y = cell[0] * s, cell[1] * s
    if edge == "top":
        return (x, y, x + s, y)
    if edge == "bottom":
        return (x, y + s, x + s, y + s)
    return (x + s, y, x + s, y + s)
