"""Chits, counters, tokens and tiles: one strong icon, an optional label and value."""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..geometry import hexagon
from ..palette import Color
from ..scene import Circle, Element, Polygon, Rect, Style
from ..model import is_unspecified
from . import layout
from .base import FaceContext, FaceParams, IconName, legible, mix, readable_ink, text_ground


class ChitParams(FaceParams):
    layout: Literal["chit"] = "chit"
    label: str = Field("", description="short name under the icon; 'unspecified' prints a write-in box")
    sublabel: str = ""
    icon: IconName | None = None
    color: Color | None = Field(None, description="background; default the piece's player colour or grey")
    ink: Color | None = Field(None, description="icon and text colour; default readable on the background")
    value: str | int | None = Field(None, description="number in the top corner")
    art: str | None = None
    art_fit: Literal["cover", "contain"] = "cover"
    ring: bool = Field(True, description="an inner ring inside the cut line")


def _inner_shape(ctx: FaceContext, inset: float, style: Style):
    w, h = ctx.width, ctx.height
    if ctx.shape == "round":
        return Circle(w / 2, h / 2, min(w, h) / 2 - inset, style)
    if ctx.shape == "hex":
        return Polygon(hexagon(w / 2, h / 2, h / 2 - inset * 1.15), style)
    return Rect(inset, inset, w - 2 * inset, h - 2 * inset, style, radius=max(0.0, ctx.corner_radius - inset))


@layout("chit", ChitParams)
def chit(ctx: FaceContext, p: ChitParams) -> list[Element]:
    w, h = ctx.width, ctx.height
    side = min(w, h)
    background = text_ground(p.color if p.color else (ctx.color.hex if ctx.color else "#CFD8DC"))
    ink = legible(p.ink, background) if p.ink else readable_ink(background)
    out: list[Element] = [ctx.background(background)]
    if p.art:
        out.extend(ctx.art(p.art, 0, 0, w, h, p.art_fit))
    if p.ring:
        out.append(_inner_shape(ctx, side * 0.06, Style(stroke=mix(background, ink, 0.5),
                                                         stroke_width=max(0.2, side * 0.012))))
    has_label = bool(p.label)
    label_h = side * 0.2 if has_label else 0
    sub_h = side * 0.13 if p.sublabel else 0
    icon_size = side * (0.5 if has_label or p.sublabel else 0.62)
    block = icon_size + label_h + sub_h
    top = (h - block) / 2
    if p.icon:
        out.append(ctx.icon(p.icon, (w - icon_size) / 2, top, icon_size, ink, background))
    y = top + (icon_size if p.icon else 0)
    text_w = side * (0.64 if ctx.shape != "rect" else 0.84)
    size = max(6.0, min(12.0, side * 0.55))
    if is_unspecified(p.label):
        out.extend(ctx.write_in("name", (w - text_w) / 2, y, text_w, max(label_h, 6)))
    elif has_label:
        out.append(ctx.text("label", p.label, (w - text_w) / 2, y, text_w, label_h, font="Lato-Black",
                            size=size, min_size=6, color=ink, align="center", valign="middle", max_lines=2))
    if p.sublabel:
        out.append(ctx.text("sublabel", p.sublabel, (w - text_w) / 2, y + label_h, text_w, sub_h, font="Lato-Bold",
                            size=size * 0.7, min_size=6, color=ink, align="center", valign="middle"))
    if p.value is not None:
        r = side * 0.14
        cx, cy = (w / 2, side * 0.2) if ctx.shape != "rect" else (w - r * 1.3, r * 1.3)
        out.append(Circle(cx, cy, r, Style(fill=ink)))
        out.append(ctx.text("value", str(p.value), cx - r, cy - r, 2 * r, 2 * r, font="Lato-Black", size=size,
                            min_size=6, color=background, align="center", valign="middle"))
    if ctx.color is not None and p.color is not None:
        mark = side * 0.2
        out.extend(ctx.player_mark(side * 0.1, side * 0.1, mark))
    if ctx.shape != "rect":
        out.append(ctx.outline())
    return out
