"""An icon key: every icon a set prints, drawn beside its name in two columns, so a player never has to
guess what a symbol on a card, tile or board stands for."""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..palette import Color, resolve
from ..scene import Element, Rect, Style
from . import layout
from .base import FaceContext, FaceParams, readable_ink
from .starship_catan_pieces import LegendEntry, _legend_entry


class IconKeyParams(FaceParams):
    layout: Literal["icon_key"] = "icon_key"
    title: str = "Icon key"
    color: Color = "#37474F"
    entries: list[LegendEntry] = Field(min_length=1, description="one per icon the set prints, with its name")
    footer: str = ""


@layout("icon_key", IconKeyParams)
def icon_key(ctx: FaceContext, p: IconKeyParams) -> list[Element]:
    w, h = ctx.width, ctx.height
    frame = resolve(p.color)
    ink = readable_ink(frame)
    inset, title_h = 3.0, 9.0
    footer_h = 5.0 if p.footer else 0.0
    out: list[Element] = [ctx.background(frame)]
    out.append(ctx.text("title", p.title, inset, inset, w - 2 * inset, title_h, font="Lato-Black", size=12,
                        min_size=8, color=ink, align="center", valign="middle"))
    top = inset + title_h
    panel_h = h - top - inset - footer_h
    out.append(Rect(inset, top, w - 2 * inset, panel_h, Style(fill="#FFFFFF"), radius=1.5))
    rows = (len(p.entries) + 1) // 2
    row_h = min(7.0, (panel_h - 2.0) / rows)
    column_w = (w - 2 * inset - 2.0) / 2
    for i, entry in enumerate(p.entries):
        out.extend(_legend_entry(ctx, entry, inset + 1.5 + (i // rows) * column_w, top + 1.0 + (i % rows) * row_h,
                                 column_w, row_h, "#1A1A1A"))
    if p.footer:
        out.append(ctx.text("footer", p.footer, inset, h - inset - footer_h, w - 2 * inset, footer_h,
                            font="Lato-Italic", size=6.5, min_size=6, color=ink, align="center", valign="middle"))
    return out
