"""The Stars, Inc. player board: four element tanks, the fusion conversions and what every action costs.

Tanks are tracks a resource marker slides along (start values highlighted, the top cell is the cap);
costs are drawn with the same number-and-disc amounts as the game board.
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from ..palette import Color, resolve
from ..scene import Element, Polygon, Rect, Style
from . import layout
from .base import FaceContext, IconName, mix, readable_ink
from .board import BoardParams, Region, board
from .stars_inc_common import SYMBOLS, check_amount, draw_amount


class Tank(Region):
    symbol: Literal["H", "He", "C", "Fe"]
    name: str
    max: int = Field(ge=1, le=30, description="the cap: the highest cell printed")
    start: int = Field(0, ge=0, description="set-up value, highlighted")

    @model_validator(mode="after")
    def _start_in_range(self):
        if self.start > self.max:
            raise ValueError(f"start {self.start} is above max {self.max}")
        return self


class Tanks(Region):
    x: float
    y: float
    w: float = Field(gt=0)
    cell_h: float = Field(10.5, gt=0)
    start_label: str = "start"
    rows: list[Tank] = Field(min_length=1)


class Conversion(Region):
    give: str
    get: str
    name: str = ""

    _amounts = field_validator("give", "get")(lambda cls, v: check_amount(v))


class Conversions(Region):
    x: float
    y: float
    w: float = Field(gt=0)
    h: float = Field(22, gt=0)
    title: str = ""
    note: str = ""
    color: Color = "#FFF3E0"
    items: list[Conversion] = Field(min_length=1)


class CostRow(Region):
    label: str
    cost: str
    note: str = ""
    icon: IconName | None = None
    _cost = field_validator("cost")(lambda cls, v: check_amount(v))


class Action(Region):
    x: float
    y: float
    w: float = Field(gt=0)
    title: str
    subtitle: str = ""
    icon: IconName | None = None
    color: Color = "#283593"
    row_h: float = Field(8.5, gt=0)
    rows: list[CostRow] = Field(min_length=1)


class PlayerBoardParams(BoardParams):
    layout: Literal["stars_inc_player_board"] = "stars_inc_player_board"
    tanks: Tanks | None = None
    conversions: Conversions | None = None
    actions: list[Action] = []


def _tanks(ctx: FaceContext, t: Tanks) -> list[Element]:
    out: list[Element] = []
    y = t.y
    for tank in t.rows:
        name, disc, _ = SYMBOLS[tank.symbol]
        out.append(ctx.icon(name, t.x, y, 5.5, disc, readable_ink(disc)))
        out.append(ctx.text("tanks.name", f"{tank.name} tank", t.x + 7, y, t.w / 2, 5.5, font="Lato-Black",
                            size=10, min_size=6, color="#1A1A1A", valign="middle"))
        out.append(ctx.text("tanks.max", f"holds up to {tank.max}", t.x + t.w / 2, y, t.w / 2, 5.5,
                            font="Lato-Italic", size=8, min_size=6, color="#555555", align="right", valign="middle"))
        top = y + 6.5
        cells = tank.max + 1
        cw = t.w / cells
        tint = mix(disc, "#FFFFFF", 0.8)
        for value in range(cells):
            x = t.x + value * cw
            start = value == tank.start
            fill = resolve("#F9A825") if start else ("#FFFFFF" if value % 5 else tint)
            out.append(Rect(x, top, cw, t.cell_h, Style(fill=fill, stroke="#1A1A1A", stroke_width=0.35)))
            out.append(ctx.text("tanks.cells", str(value), x, top + 0.3, cw, t.cell_h * 0.62, font="Lato-Bold",
                                size=10, min_size=6, color="#1A1A1A", align="center", valign="middle"))
            if start:
                out.append(ctx.text("tanks.start", t.start_label, x, top + t.cell_h * 0.6, cw, t.cell_h * 0.38,
                                    font="Lato-Bold", size=6, min_size=6, color="#1A1A1A", align="center",
                                    valign="middle"))
        y = top + t.cell_h + 3.5
    return out


def _conversions(ctx: FaceContext, c: Conversions) -> list[Element]:
    fill = resolve(c.color)
    out: list[Element] = [Rect(c.x, c.y, c.w, c.h, Style(fill=fill, stroke="#1A1A1A", stroke_width=0.4), radius=2)]
    top = c.y + 1.5
    if c.title:
        out.append(ctx.text("conversions.title", c.title, c.x + 2.5, top, c.w * 0.45, 5.5, font="Lato-Black",
                            size=10, min_size=6, color="#1A1A1A", valign="middle"))
    if c.note:
        out.append(ctx.text("conversions.note", c.note, c.x + c.w * 0.45, top, c.w * 0.55 - 2.5, 5.5,
                            font="Lato-Italic", size=8, min_size=6, color="#1A1A1A", align="right",
                            valign="middle"))
    top += 7
    each = (c.w - 4) / len(c.items)
    for i, item in enumerate(c.items):
        x = c.x + 2 + i * each
        out.append(Rect(x + 1, top, each - 2, c.y + c.h - top - 1.5, Style(fill="#FFFFFF"), radius=1.5))
        mid = x + each / 2
        out.extend(draw_amount(ctx, "conversions.give", item.give, mid - 4, top + 1.2, 6.5, "#1A1A1A", "right"))
        out.append(Polygon(((mid - 2.5, top + 2), (mid + 2.5, top + 4.45), (mid - 2.5, top + 6.9)),
                           Style(fill="#1A1A1A")))
        out.extend(draw_amount(ctx, "conversions.get", item.get, mid + 4, top + 1.2, 6.5, "#1A1A1A"))
        if item.name:
            out.append(ctx.text("conversions.name", item.name, x + 2, top + 8.2, each - 4, c.y + c.h - top - 10,
                                font="Lato-Italic", size=7, min_size=6, color="#444444", align="center",
                                valign="middle"))
    return out


def _action(ctx: FaceContext, a: Action) -> list[Element]:
    color = resolve(a.color)
    ink = readable_ink(color)
    band = 7.5
    height = band + len(a.rows) * a.row_h + 1.5
    out: list[Element] = [Rect(a.x, a.y, a.w, height, Style(fill="#FFFFFF", stroke=color, stroke_width=0.6), radius=2),
                          Rect(a.x, a.y, a.w, band, Style(fill=color), radius=2)]
    text_x = a.x + 2
    if a.icon:
        out.append(ctx.icon(a.icon, a.x + 1.5, a.y + 1, band - 2, ink, color))
        text_x += band - 1
    out.append(ctx.text("actions.title", a.title, text_x, a.y, a.w * 0.4, band, font="Lato-Black", size=11,
                        min_size=6, color=ink, valign="middle"))
    if a.subtitle:
        out.append(ctx.text("actions.subtitle", a.subtitle, a.x + a.w * 0.35, a.y, a.w * 0.65 - 2, band,
                            font="Lato-Bold", size=7.5, min_size=6, color=ink, align="right", valign="middle"))
    y = a.y + band + 0.75
    for i, row in enumerate(a.rows):
        if i % 2:
            out.append(Rect(a.x + 0.6, y, a.w - 1.2, a.row_h, Style(fill=mix(color, "#FFFFFF", 0.9))))
        x = a.x + 2
        if row.icon:
            out.append(ctx.icon(row.icon, x, y + (a.row_h - 6) / 2, 6, color))
            x += 7.5
        cost_w = a.w * 0.36
        label_h = a.row_h * (0.55 if row.note else 1)
        out.append(ctx.text("actions.rows.label", row.label, x, y, a.x + a.w - cost_w - x, label_h,
                            font="Lato-Bold", size=8.5, min_size=6, color="#1A1A1A", valign="middle"))
        if row.note:
            out.append(ctx.text("actions.rows.note", row.note, x, y + label_h - 0.3, a.x + a.w - cost_w - x,
                                a.row_h - label_h + 0.3, size=6.5, min_size=6, color="#444444", valign="middle"))
        out.extend(draw_amount(ctx, "actions.rows.cost", row.cost, a.x + a.w - 2, y + (a.row_h - 5.5) / 2, 5.5,
                               "#1A1A1A", "right"))
        y += a.row_h
    return out


@layout("stars_inc_player_board", PlayerBoardParams)
def stars_inc_player_board(ctx: FaceContext, p: PlayerBoardParams) -> list[Element]:
    out = board(ctx, p)
    if p.tanks:
        out.extend(_tanks(ctx, p.tanks))
    if p.conversions:
        out.extend(_conversions(ctx, p.conversions))
    for action in p.actions:
        out.extend(_action(ctx, action))
    return out
