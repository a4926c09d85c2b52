"""Regions: general drawing primitives a board declares in its data (grids, tracks, boxes, linked spaces, text
and icons), each placed in millimetres from the face's top-left trim corner.

A layout file draws them with a `regions` box over a field of type `regions` (see look/builtin/layouts/board.yaml),
so a board's design lives entirely in its YAML.
"""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from ...data.model import is_unspecified
from ...data.palette import Color, resolve
from ..scene import Circle, Element, Line, Rect, Style
from .base import FaceContext, IconName, mix, readable_ink, text_ground


class Region(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class Placed(Region):
    """A region whose top-left corner (a space: its centre) is placed in mm."""

    x: float
    y: float


class Sized(Placed):
    w: float = Field(gt=0)
    h: float = Field(gt=0)


class GridCell(Region):
    col: int = Field(ge=0)
    row: int = Field(ge=0)
    label: str = ""
    icon: IconName | None = None
    color: Color | None = None


class GridRegion(Placed):
    type: Literal["grid"]
    cols: int = Field(ge=1)
    rows: int = Field(ge=1)
    cell: float = Field(gt=0, description="square cell size in mm")
    color: Color = "#FFFFFF"
    line: Color = "#1A1A1A"
    coordinates: bool = Field(True, description="letters above and numbers beside")
    cells: list[GridCell] = []


class TrackRegion(Placed):
    type: Literal["track"]
    cells: int | list[str] = Field(description="how many numbered cells, or their labels")
    start: int = 0
    cell_w: float = Field(12, gt=0)
    cell_h: float = Field(12, gt=0)
    per_row: int | None = Field(None, ge=1, description="wrap after this many cells (rows snake)")
    title: str = ""
    color: Color = "#FFFFFF"
    marks: dict[int, str] = Field({}, description="cell number -> note printed under it, cell highlighted")
    mark_color: Color = "#F9A825"


class BoxRegion(Sized):
    type: Literal["box"]
    title: str = ""
    text: str = ""
    icon: IconName | None = None
    color: Color = "#FFFFFF"
    slots: int = Field(0, ge=0, description="empty outlined slots in a row, e.g. for cards or chits")
    slot_shape: Literal["rect", "round", "hex"] = "rect"


class Space(Placed):
    id: str
    label: str = ""
    icon: IconName | None = None
    color: Color | None = None


class SpacesRegion(Region):
    type: Literal["spaces"]
    r: float = Field(8, gt=0, description="space radius in mm")
    color: Color = "#FFFFFF"
    spaces: list[Space]
    links: list[tuple[str, str]] = []


class TextRegion(Sized):
    type: Literal["text"]
    text: str
    size: float = Field(9, ge=6)
    bold: bool = False
    align: Literal["left", "center", "right"] = "left"
    color: Color = "#1A1A1A"


class IconRegion(Placed):
    type: Literal["icon"]
    name: IconName
    size: float = Field(gt=0)
    color: Color = "#1A1A1A"


AnyRegion = Annotated[
    Union[GridRegion, TrackRegion, BoxRegion, SpacesRegion, TextRegion, IconRegion], Field(discriminator="type")]


def _grid(ctx: FaceContext, g: GridRegion) -> list[Element]:
    out: list[Element] = [Rect(g.x, g.y, g.cols * g.cell, g.rows * g.cell, Style(fill=resolve(g.color)))]
    for c in g.cells:
        x, y = g.x + c.col * g.cell, g.y + c.row * g.cell
        fill = text_ground(c.color or g.color)
        out.append(Rect(x, y, g.cell, g.cell, Style(fill=fill)))
        ink = readable_ink(fill)
        if c.icon:
            size = g.cell * (0.5 if c.label else 0.7)
            out.append(ctx.icon(c.icon, x + (g.cell - size) / 2, y + g.cell * 0.1, size, ink, fill))
        if c.label:
            out.append(ctx.text("cells.label", c.label, x + 1, y + g.cell * 0.64, g.cell - 2, g.cell * 0.32,
                                font="Lato-Bold", size=8, min_size=6, color=ink, align="center", valign="middle"))
    line = Style(stroke=resolve(g.line), stroke_width=0.4)
    for i in range(g.cols + 1):
        out.append(Line(g.x + i * g.cell, g.y, g.x + i * g.cell, g.y + g.rows * g.cell, line))
    for j in range(g.rows + 1):
        out.append(Line(g.x, g.y + j * g.cell, g.x + g.cols * g.cell, g.y + j * g.cell, line))
    if g.coordinates:
        for i in range(g.cols):
            out.append(ctx.text("grid", chr(ord("A") + i), g.x + i * g.cell, g.y - 7, g.cell, 6, font="Lato-Bold",
                                size=10, color="#1A1A1A", align="center", valign="middle"))
        for j in range(g.rows):
            out.append(ctx.text("grid", str(j + 1), g.x - 8, g.y + j * g.cell, 7, g.cell, font="Lato-Bold",
                                size=10, color="#1A1A1A", align="center", valign="middle"))
    return out


def _track(ctx: FaceContext, t: TrackRegion) -> list[Element]:
    labels = t.cells if isinstance(t.cells, list) else [str(t.start + i) for i in range(t.cells)]
    per_row = t.per_row or len(labels)
    out: list[Element] = []
    top = t.y
    if t.title:
        out.append(ctx.text("title", t.title, t.x, t.y, per_row * t.cell_w, 6, font="Lato-Black", size=10,
                            color="#1A1A1A", valign="middle"))
        top += 7
    row_pitch = t.cell_h + (5 if t.marks else 1.5)
    for i, label in enumerate(labels):
        row, col = divmod(i, per_row)
        if row % 2:
            col = per_row - 1 - col  # snake so the track reads continuously
        x, y = t.x + col * t.cell_w, top + row * row_pitch
        number = t.start + i
        marked = number in t.marks and not isinstance(t.cells, list)
        fill = text_ground(t.mark_color if marked else t.color)
        out.append(Rect(x, y, t.cell_w, t.cell_h, Style(fill=fill, stroke="#1A1A1A", stroke_width=0.35)))
        out.append(ctx.text("cells", label, x + 0.5, y, t.cell_w - 1, t.cell_h, font="Lato-Bold",
                            size=min(11, t.cell_h * 1.6), min_size=6, color=readable_ink(fill), align="center",
                            valign="middle"))
        if marked:
            out.append(ctx.text("marks", t.marks[number], x - 2, y + t.cell_h + 0.3, t.cell_w + 4, 4,
                                font="Lato-Bold", size=6, min_size=6, color="#1A1A1A", align="center"))
    return out


def _box(ctx: FaceContext, b: BoxRegion) -> list[Element]:
    fill = text_ground(b.color)
    ink = readable_ink(fill)
    out: list[Element] = [Rect(b.x, b.y, b.w, b.h, Style(fill=fill, stroke="#1A1A1A", stroke_width=0.4), radius=1.5)]
    y = b.y + 1.5
    if b.title:
        out.append(ctx.text("title", b.title, b.x + 2, y, b.w - 4, 5.5, font="Lato-Black", size=9, min_size=6,
                            color=ink, valign="middle"))
        y += 6.5
    if b.icon:
        out.append(ctx.icon(b.icon, b.x + b.w - 9, b.y + 1.5, 7, ink, fill))
    if b.slots:
        gap = 2.0
        slot_h = b.h - (y - b.y) - gap - (9 if b.text else 0)
        slot_w = min((b.w - gap * (b.slots + 1)) / b.slots, slot_h * (1 if b.slot_shape != "rect" else 0.72))
        x0 = b.x + (b.w - (slot_w * b.slots + gap * (b.slots - 1))) / 2
        dashed = Style(stroke=mix(fill, ink, 0.5), stroke_width=0.3, dash=(1.5, 1))
        for i in range(b.slots):
            x = x0 + i * (slot_w + gap)
            if b.slot_shape == "round":
                out.append(Circle(x + slot_w / 2, y + slot_w / 2, slot_w / 2, dashed))
            else:
                out.append(Rect(x, y, slot_w, slot_h, dashed, radius=1.5))
        y += slot_h + gap
    if is_unspecified(b.text):
        out.extend(ctx.write_in("details (not given in the rulebook)", b.x + 2, y, b.w - 4, b.y + b.h - y - 2))
    elif b.text:
        out.append(ctx.text("text", b.text, b.x + 2, y, b.w - 4, b.y + b.h - y - 1.5, size=8, min_size=6,
                            color=ink))
    return out


def _spaces(ctx: FaceContext, s: SpacesRegion) -> list[Element]:
    by_id = {sp.id: sp for sp in s.spaces}
    out: list[Element] = []
    for a, b in s.links:
        if a not in by_id or b not in by_id:
            missing = a if a not in by_id else b
            ctx.warn(f"regions.links: no space with id {missing!r}")
            continue
        out.append(Line(by_id[a].x, by_id[a].y, by_id[b].x, by_id[b].y, Style(stroke="#5C6BC0", stroke_width=1.2)))
    for sp in s.spaces:
        fill = text_ground(sp.color or s.color)
        ink = readable_ink(fill)
        out.append(Circle(sp.x, sp.y, s.r, Style(fill=fill, stroke="#1A237E", stroke_width=0.6)))
        if sp.icon:
            size = s.r * 1.0
            out.append(ctx.icon(sp.icon, sp.x - size / 2, sp.y - s.r * 0.8, size, ink, fill))
        if is_unspecified(sp.label):
            out.append(Line(sp.x - s.r * 0.7, sp.y + s.r * 0.55, sp.x + s.r * 0.7, sp.y + s.r * 0.55,
                            Style(stroke="#888888", stroke_width=0.2)))
        elif sp.label:
            out.append(ctx.text("spaces.label", sp.label, sp.x - s.r * 0.9, sp.y + (0.15 if sp.icon else -0.45) * s.r,
                                s.r * 1.8, s.r * 0.7, font="Lato-Bold", size=7, min_size=6, color=ink,
                                align="center", valign="middle"))
    return out


def draw_regions(ctx: FaceContext, regions: list) -> list[Element]:
    """Each region's elements, in order."""
    draw = {"grid": _grid, "track": _track, "box": _box, "spaces": _spaces}
    out: list[Element] = []
    for region in regions:
        if region.type in draw:
            out.extend(draw[region.type](ctx, region))
        elif region.type == "text":
            out.append(ctx.text("text", region.text, region.x, region.y, region.w, region.h,
                                font="Lato-Bold" if region.bold else "Lato-Regular", size=region.size,
                                min_size=6, color=resolve(region.color), align=region.align))
        else:
            out.append(ctx.icon(region.name, region.x, region.y, region.size, region.color))
    return out
