"""Folding standees, and rings that slide over them.

A standee prints flat as one strip, top to bottom: a base tab, the back panel turned 180°, the fold
line (the figure's head), the front panel upright, a second base tab. Cut the strip out, fold at the
head and glue the panels back to back: the back then reads upright from behind. Folding the two tabs
outward, one each way, gives a T-shaped foot the figure stands on.
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..palette import Color, resolve
from ..scene import Circle, Element, Group, Line, Rect, Style
from . import layout
from .base import FaceContext, FaceParams, IconName, mix, readable_ink

FOLD = Style(stroke="#1A1A1A", stroke_width=0.3, dash=(1.6, 1.0))


class StandeeParams(FaceParams):
    layout: Literal["standee"] = "standee"
    label: str = Field("", description="name across the foot of each panel")
    icon: IconName | None = Field(None, description="the figure drawn on both panels")
    color: Color | None = Field(None, description="panel colour; default the piece's player colour or grey")
    back_label: str | None = Field(None, description="label on the back panel; default the front's")
    back_icon: IconName | None = Field(None, description="icon on the back panel; default the front's")
    tab: float = Field(9.0, gt=3, description="height of each base tab in mm")
    tab_text: str = Field("fold out", description="small print on the tabs")


def panel(ctx: FaceContext, w: float, h: float, color: str, label: str, icon: str | None) -> list[Element]:
    """One side of the figure, drawn upright in its own box (0, 0, w, h)."""
    ink = readable_ink(color)
    side = min(w, h)
    out: list[Element] = [Rect(-ctx.bleed, 0, w + 2 * ctx.bleed, h, Style(fill=color)),
                          Rect(1.2, 1.2, w - 2.4, h - 2.4, Style(stroke=mix(color, ink, 0.45), stroke_width=0.3),
                               radius=1.5)]
    label_h = min(5.0, h * 0.18) if label else 0.0
    mark = side * 0.36 if ctx.color else 0.0
    icon_top = 2.0 + mark * 0.55
    icon_size = max(0.0, min(w - 4.0, h - icon_top - label_h - 3.0))
    if icon:
        out.append(ctx.icon(icon, (w - icon_size) / 2, icon_top, icon_size, ink, color))
    if ctx.color:
        out.extend(ctx.player_mark(1.6, 1.6, mark))
        out.append(ctx.text("letter", ctx.color.letter, w - 1.6 - mark, 1.6, mark, mark, font="Lato-Black",
                            size=8, min_size=6, color=ink, align="center", valign="middle"))
    if label:
        out.append(ctx.text("label", label, 1.5, h - label_h - 1.6, w - 3, label_h, font="Lato-Black", size=7,
                            min_size=6, color=ink, align="center", valign="middle"))
    return out


def tab(ctx: FaceContext, y: float, w: float, h: float, color: str, text: str, turned: bool) -> list[Element]:
    """A base tab: a lighter tint of the panel colour (run into the bleed) with its instruction, read from
    the side of the panel it belongs to."""
    tint = mix(color, "#FFFFFF", 0.55)
    b = ctx.bleed
    out: list[Element] = [Rect(-b, y - (b if turned else 0), w + 2 * b, h + b, Style(fill=tint))]
    if text:
        words = ctx.text("tab_text", text, 1, 0, w - 2, h, font="Lato-Bold", size=6, min_size=6,
                         color=readable_ink(tint), align="center", valign="middle")
        out.append(Group((words,), dx=w if turned else 0, dy=y + h if turned else y, rotate=180 if turned else 0))
    return out


@layout("standee", StandeeParams)
def standee(ctx: FaceContext, p: StandeeParams) -> list[Element]:
    w, h = ctx.width, ctx.height
    body = (h - 2 * p.tab) / 2
    if body < w * 0.6:
        ctx.warn(f"tab: {p.tab:g} mm tabs leave panels only {body:.1f} mm tall")
    color = resolve(p.color) if p.color else (ctx.color.hex if ctx.color else "#CFD8DC")
    fold_y = p.tab + body
    front = panel(ctx, w, body, color, p.label, p.icon)
    back = panel(ctx, w, body, color, p.label if p.back_label is None else p.back_label, p.back_icon or p.icon)
    out: list[Element] = [ctx.background("#FFFFFF")]
    out += tab(ctx, 0, w, p.tab, color, p.tab_text, turned=True)
    out += tab(ctx, h - p.tab, w, p.tab, color, p.tab_text, turned=False)
    # the back panel turned about its centre, so it stands upright once folded behind the front
    out.append(Group(tuple(back), dx=w, dy=fold_y, rotate=180))
    out.append(Group(tuple(front), dx=0, dy=fold_y))
    for y in (p.tab, fold_y, h - p.tab):
        out.append(Line(-ctx.bleed, y, w + ctx.bleed, y, FOLD))
    return out


class RingParams(FaceParams):
    layout: Literal["standee_ring"] = "standee_ring"
    label: str = Field("", description="short name under the slot")
    sublabel: str = Field("", description="a second small line, e.g. what the piece yields")
    icon: IconName | None = Field(None, description="drawn above the slot")
    color: Color = "#9E9E9E"
    slot_w: float = Field(22.0, gt=0, description="slot length in mm: a little more than the standee's width")
    slot_h: float = Field(2.0, gt=0, description="slot height in mm: room for the folded, glued panels")


@layout("standee_ring", RingParams)
def standee_ring(ctx: FaceContext, p: RingParams) -> list[Element]:
    """A round piece with a slot cut through its middle, slid down over a standee to sit on its foot."""
    w, h = ctx.width, ctx.height
    r = min(w, h) / 2
    color = resolve(p.color)
    ink = readable_ink(color)
    if p.slot_w >= 2 * r - 2:
        ctx.warn(f"slot_w: a {p.slot_w:g} mm slot does not fit a {2 * r:g} mm piece")
    cx, cy = w / 2, h / 2
    out: list[Element] = [ctx.background(color), Circle(cx, cy, r * 0.9, Style(stroke=mix(color, ink, 0.5),
                                                                                 stroke_width=0.3))]
    half = cy - p.slot_h / 2
    if p.icon:
        size = half * 0.62
        out.append(ctx.icon(p.icon, cx - size / 2, cy - p.slot_h / 2 - size - 1.2, size, ink, color))
    below = cy + p.slot_h / 2 + 1
    text_w = r * 1.3
    if p.label:
        out.append(ctx.text("label", p.label, cx - text_w / 2, below, text_w, 4, font="Lato-Black", size=7,
                            min_size=6, color=ink, align="center", valign="middle"))
    if p.sublabel:
        out.append(ctx.text("sublabel", p.sublabel, cx - text_w / 2, below + 4, text_w, 3.5,
                            font="Lato-Bold", size=6, min_size=6, color=ink, align="center", valign="middle"))
    out.append(Rect(cx - p.slot_w / 2, cy - p.slot_h / 2, p.slot_w, p.slot_h,
                    Style(fill="#FFFFFF", stroke="#1A1A1A", stroke_width=0.25), radius=p.slot_h / 2))
    out.append(ctx.outline())
    return out
