"""Stratastar empire chits: the player's colour all over, the colour's shape for greyscale prints,
the unit's icon and name, and its force in battle where it has one."""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..scene import Circle, Element, Rect, Style
from . import layout
from .base import FaceContext, FaceParams, IconName, mix, readable_ink


class EmpireChitParams(FaceParams):
    layout: Literal["stratastar_chit"] = "stratastar_chit"
    label: str = Field(description="the unit's name along the bottom")
    icon: IconName
    force: int | None = Field(None, ge=0, description="force value in battle, shown in a disc top right")


@layout("stratastar_chit", EmpireChitParams)
def empire_chit(ctx: FaceContext, p: EmpireChitParams) -> list[Element]:
    w, h = ctx.width, ctx.height
    side = min(w, h)
    background = ctx.color.hex if ctx.color else "#CFD8DC"
    ink = readable_ink(background)
    inset = side * 0.06
    out: list[Element] = [
        ctx.background(background),
        Rect(inset, inset, w - 2 * inset, h - 2 * inset,
             Style(stroke=mix(background, ink, 0.45), stroke_width=max(0.2, side * 0.012)),
             radius=max(0.0, ctx.corner_radius - inset / 2)),
    ]
    corner = side * 0.27
    out.extend(ctx.player_mark(inset * 1.4, inset * 1.4, corner))
    if p.force is not None:
        r = corner / 2
        cx, cy = w - inset * 1.4 - r, inset * 1.4 + r
        out.append(Circle(cx, cy, r, Style(fill=ink)))
        out.append(ctx.text("force", str(p.force), cx - r, cy - r, 2 * r, 2 * r, font="Lato-Black", size=9,
                            min_size=6, color=background, align="center", valign="middle"))
    icon_size = side * 0.44
    out.append(ctx.icon(p.icon, (w - icon_size) / 2, side * 0.2, icon_size, ink, background))
    label_h = side * 0.24
    out.append(ctx.text("label", p.label, inset * 1.5, h - inset - label_h, w - 3 * inset, label_h,
                        font="Lato-Black", size=8, min_size=6, color=ink, align="center", valign="middle"))
    return out
