"""The Starship Catan player board: a hull with booster and cannon slots, resource storage and the hangar.

Storage rows are scales the resource arrows point at; cells above the base limit are shaded because only
a module opens them. Slot counts and the scale length come from the data, so the drawing holds no rules.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..fonts import text_width_mm
from ..palette import Color, resolve
from ..scene import Circle, Element, Polygon, Rect, Style
from ..model import is_unspecified
from . import layout
from .base import FaceContext, FaceParams, IconName, legible, mix, readable_ink
from .starship_catan_pieces import Blank, CostRow, cost_strip

INK = "#1A1A1A"


class StorageRow(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    name: str = Field(description="resource name; 'unspecified' prints a write-in line")
    icon: Blank | IconName | None = Field(None, description="'unspecified' draws a dashed circle to draw in")
    top: int = Field(4, ge=1, le=8, description="highest number on the scale")
    limit: int | None = Field(None, ge=0, description="base limit: cells above it are shaded")
    note: str = ""
    arrow: Blank | Color | None = Field(None, description="colour of the arrow kept for this row, e.g. the pink one")


class ShipParams(FaceParams):
    layout: Literal["starship_catan_ship"] = "starship_catan_ship"
    title: str = "Starship"
    color: Color = Field("#E8EAF6", description="board background")
    hull: Color = Field("#F7F9FC", description="hull fill; its outline takes the player colour")
    slot: float = Field(32, gt=0, description="booster and cannon slot size in mm (tile + a margin)")
    boosters: int = Field(2, ge=0, le=3)
    booster_note: str = ""
    cannons: int = Field(3, ge=0, le=3)
    cannon_note: str = ""
    storage_title: str = "Storage"
    storage: list[StorageRow] = Field([], max_length=8)
    storage_note: str = ""
    hangar_ships: list[str] = Field([], description="labels of the starting ships' spaces, e.g. C and T")
    hangar_capacity: int | Literal["unspecified"] = "unspecified"
    hangar_note: str = ""
    hangar_costs: list[CostRow] = Field([], description="what a new ship for the hangar costs")


def _panel(ctx: FaceContext, title: str, x, y, w, h, accent: str, icon: str | None = None) -> list[Element]:
    out: list[Element] = [Rect(x, y, w, h, Style(fill="#FFFFFF", stroke=accent, stroke_width=0.5), radius=2),
                          Rect(x, y, w, 7, Style(fill=accent), radius=2),
                          Rect(x, y + 4, w, 3, Style(fill=accent))]
    ink = readable_ink(accent)
    out.append(ctx.text("title", title, x + 2, y, w - 4 - (6 if icon else 0), 7, font="Lato-Black", size=9,
                        min_size=6, color=ink, valign="middle", max_lines=1))
    if icon:
        out.append(ctx.icon(icon, x + w - 7, y + 0.8, 5.4, ink, accent))
    return out


def _slots(ctx: FaceContext, n: int, icon: str, label: str, x, y, s, gap, accent) -> list[Element]:
    out: list[Element] = []
    for i in range(n):
        sy = y + i * (s + gap)
        out.append(Rect(x, sy, s, s, Style(fill=mix(accent, "#FFFFFF", 0.9), stroke=mix(accent, "#FFFFFF", 0.3),
                                           stroke_width=0.35, dash=(1.5, 1)), radius=1.5))
        out.append(ctx.icon(icon, x + s * 0.25, sy + s * 0.12, s * 0.5, mix(accent, "#FFFFFF", 0.55)))
        out.append(ctx.text("slot", f"{label} {i + 1}", x, sy + s * 0.68, s, s * 0.22, font="Lato-Bold", size=7,
                            min_size=6, color=mix(accent, "#000000", 0.2), align="center", valign="middle"))
    return out


def _storage_row(ctx: FaceContext, row: StorageRow, i: int, x, y, w, h, accent) -> list[Element]:
    out: list[Element] = []
    icon_s = h * 0.8
    if row.icon and not is_unspecified(row.icon):
        out.append(ctx.icon(row.icon, x, y + (h - icon_s) / 2, icon_s, accent))
    else:
        out.append(Circle(x + icon_s / 2, y + h / 2, icon_s / 2, Style(stroke="#777777", stroke_width=0.25,
                                                                        dash=(0.8, 0.6))))
    name_x, name_w = x + icon_s + 1.5, w * 0.34
    if is_unspecified(row.name):
        out.extend(ctx.write_in("resource", name_x, y + 0.6, name_w, h - 1.2))
    else:
        if row.arrow and not is_unspecified(row.arrow):
            out.append(ctx.icon("sc_arrow", name_x + name_w - h * 0.55, y + h * 0.05, h * 0.5, row.arrow))
        out.append(ctx.text(f"storage[{i}].name", row.name, name_x, y, name_w, h * (0.62 if row.note else 1),
                            font="Lato-Black", size=8.5, min_size=6, color=INK, valign="middle", max_lines=1))
        if row.note:
            out.append(ctx.text(f"storage[{i}].note", row.note, name_x, y + h * 0.55, name_w, h * 0.45,
                                font="Lato-Italic", size=6, min_size=6, color="#555555", valign="top",
                                max_lines=1))
    cells_x = name_x + name_w + 1.5
    cell = min(h, (x + w - cells_x) / (row.top + 1))
    for n in range(row.top + 1):
        over = row.limit is not None and n > row.limit
        fill = mix(accent, "#FFFFFF", 0.72) if over else "#FFFFFF"
        out.append(Rect(cells_x + n * cell, y, cell, h, Style(fill=fill, stroke=INK, stroke_width=0.3)))
        out.append(ctx.text(f"storage[{i}]", str(n), cells_x + n * cell, y, cell, h, font="Lato-Bold", size=9,
                            min_size=6, color=INK, align="center", valign="middle"))
    if row.limit is not None and row.limit < row.top:
        lx = cells_x + (row.limit + 1) * cell
        out.append(Rect(lx - 0.5, y - 0.6, 1.0, h + 1.2, Style(fill=INK)))
    return out


def _hull(w: float, h: float) -> tuple:
    """A blunt-nosed hull: engines on the left, nose on the right."""
    return ((6, h * 0.2), (16, 16), (w - 38, 16), (w - 5, h * 0.42), (w - 5, h * 0.58), (w - 38, h - 5),
            (16, h - 5), (6, h * 0.8))


@layout("starship_catan_ship", ShipParams)
def starship_catan_ship(ctx: FaceContext, p: ShipParams) -> list[Element]:
    w, h = ctx.width, ctx.height
    accent = ctx.color.hex if ctx.color else "#37474F"
    out: list[Element] = [ctx.background(p.color)]
    # engine flames behind the hull, hull outlined in the player colour
    for fy in (0.32, 0.68):
        out.append(Polygon(((8, h * fy - 9), (0, h * fy), (8, h * fy + 9)), Style(fill="#FFB300")))
    out.append(Polygon(_hull(w, h), Style(fill=resolve(p.hull), stroke=accent, stroke_width=1.2)))
    out.append(ctx.text("title", p.title, 16, 3, w - 60, 11, font="Lato-Black", size=16, min_size=8,
                        color=INK, valign="middle", max_lines=1))
    out.extend(_bridge(ctx, w, h, accent))
    s, gap = p.slot, 3.0
    top = 22.0
    # boosters at the engines
    col_w = s + 6
    out.extend(_panel(ctx, "Boosters", 14, top, col_w, 7 + 2 + p.boosters * (s + gap) + 11, accent, "booster"))
    out.extend(_slots(ctx, p.boosters, "booster", "Booster", 17, top + 9, s, gap, accent))
    if p.booster_note:
        out.append(ctx.text("booster_note", p.booster_note, 16, top + 9 + p.boosters * (s + gap), col_w - 4, 10,
                            size=7, min_size=6, color=INK, align="center", valign="middle"))
    # cannons towards the nose
    cx = w - 44 - col_w
    out.extend(_panel(ctx, "Cannons", cx, top, col_w, 7 + 2 + p.cannons * (s + gap) + 11, accent, "cannon"))
    out.extend(_slots(ctx, p.cannons, "cannon", "Cannon", cx + 3, top + 9, s, gap, accent))
    if p.cannon_note:
        out.append(ctx.text("cannon_note", p.cannon_note, cx + 2, top + 9 + p.cannons * (s + gap), col_w - 4, 10,
                            size=7, min_size=6, color=INK, align="center", valign="middle"))
    # storage and hangar between them
    mx, mw = 14 + col_w + 5, cx - (14 + col_w) - 10
    row_h, row_gap = 9.0, 2.2
    store_h = 9 + len(p.storage) * (row_h + row_gap) + (8 if p.storage_note else 0)
    out.extend(_panel(ctx, p.storage_title, mx, top, mw, store_h, accent, "goods"))
    for i, row in enumerate(p.storage):
        out.extend(_storage_row(ctx, row, i, mx + 2.5, top + 9 + i * (row_h + row_gap), mw - 5, row_h, accent))
    if p.storage_note:
        out.append(ctx.text("storage_note", p.storage_note, mx + 2.5, top + store_h - 8.5, mw - 5, 8, size=6.5,
                            min_size=6, color="#37474F", valign="middle"))
    hy = top + store_h + 4
    hh = h - 9 - hy
    out.extend(_panel(ctx, "Hangar", mx, hy, mw, hh, accent, "colony_ship"))
    out.extend(_hangar(ctx, p, mx + 3, hy + 9, mw - 6, hh - 11, accent))
    return out


def _bridge(ctx: FaceContext, w: float, h: float, accent: str) -> list[Element]:
    """The nose: a bridge window carrying the player's colour, shape and name, readable in greyscale."""
    cx, cy, r = w - 22, h / 2, 13.0
    out: list[Element] = [Circle(cx, cy, r + 1.5, Style(fill=accent)), Circle(cx, cy, r, Style(fill="#FFFFFF"))]
    out.extend(ctx.player_mark(cx - r * 0.8, cy - r * 0.8, r * 1.6))
    if ctx.color is not None:
        out.append(ctx.text("player", ctx.color.name, cx - 16, cy + r + 3, 32, 6, font="Lato-Black", size=10,
                            min_size=6, color=accent, align="center", valign="middle", max_lines=1))
    return out


def _hangar(ctx: FaceContext, p: ShipParams, x, y, w, h, accent) -> list[Element]:
    """Ship spaces in a row (a write-in beside them when the capacity is left open), then the ship costs
    and the note across the panel's width."""
    out: list[Element] = []
    known = p.hangar_capacity if isinstance(p.hangar_capacity, int) else len(p.hangar_ships)
    r = min(h * 0.22, 9.0)
    for i in range(known):
        cx, cy = x + r + 1 + i * (2 * r + 4), y + r + 0.5
        space = mix(accent, "#FFFFFF", 0.9)
        out.append(Circle(cx, cy, r, Style(fill=space, stroke=mix(accent, "#FFFFFF", 0.3),
                                           stroke_width=0.35, dash=(1.5, 1))))
        label = p.hangar_ships[i] if i < len(p.hangar_ships) else ""
        out.append(ctx.text("hangar_ships", label, cx - r, cy - r, 2 * r, 2 * r, font="Lato-Black", size=16,
                            min_size=6, color=legible(mix(accent, "#FFFFFF", 0.45), space), align="center",
                            valign="middle"))
    if is_unspecified(p.hangar_capacity):
        tx = x + known * (2 * r + 4) + 1
        out.extend(ctx.write_in("hangar capacity", tx, y, x + w - tx, 2 * r + 1))
    ny = y + 2 * r + 2.5
    label_w = max((text_width_mm(row.label, "Lato-Bold", 7) + 1.5 for row in p.hangar_costs), default=0)
    for row in p.hangar_costs:
        out.extend(cost_strip(ctx, row.label, row.cost, row.resources, x, ny, w, 5.0, accent, label_w))
        ny += 5.8
    if p.hangar_note and y + h - ny >= 4:
        out.append(ctx.text("hangar_note", p.hangar_note, x, ny, w, y + h - ny, size=7, min_size=6,
                            color=INK, valign="middle"))
    return out
