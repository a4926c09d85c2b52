"""Starship Catan tokens: icon, a short label and the owner's shape inside the cut line.

The shared chit puts the player mark in the bounding box's corner, which a round cut removes; here the
mark sits inside the token so red and blue pieces stay apart in greyscale.
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from ..palette import Color, resolve
from ..scene import Circle, Element, Rect, Style
from . import layout
from .base import FaceContext, FaceParams, IconName, mix, readable_ink
from .starship_catan_pieces import Blank, resource_icons


class TokenParams(FaceParams):
    layout: Literal["starship_catan_token"] = "starship_catan_token"
    icon: IconName | None = None
    label: str = Field("", description="one big letter or a short word")
    sublabel: str = ""
    color: Color | None = Field(None, description="background; default the player colour")
    ink: Color | None = None
    cost: list[int] = Field([], description="what the piece costs to build, one amount per resource")
    cost_resources: list[str] | Blank = Field("unspecified", description="an icon per amount, or write-in squares")

    @field_validator("cost_resources")
    @classmethod
    def _known(cls, names, info):
        return resource_icons(names, info)


@layout("starship_catan_token", TokenParams)
def starship_catan_token(ctx: FaceContext, p: TokenParams) -> list[Element]:
    w, h = ctx.width, ctx.height
    s = min(w, h)
    background = resolve(p.color) if p.color else (ctx.color.hex if ctx.color else "#CFD8DC")
    ink = resolve(p.ink) if p.ink else readable_ink(background)
    out: list[Element] = [ctx.background(background)]
    round_ = ctx.shape == "round"
    if round_:
        out.append(Circle(w / 2, h / 2, s / 2 - s * 0.06, Style(stroke=mix(background, ink, 0.5),
                                                                 stroke_width=max(0.2, s * 0.012))))
    mark = s * (0.2 if p.cost else 0.24 if s >= 14 else 0.3)
    has_text = bool(p.label or p.sublabel)
    icon_size = s * (0.5 if not has_text else 0.2 if p.cost else 0.36)
    # stack: icon, label, sublabel, owner mark, centred as one block
    label_h = s * 0.2 if p.label else 0
    sub_h = s * 0.13 if p.sublabel else 0
    mark_h = mark if ctx.color is not None else 0
    cost_h = s * 0.16 if p.cost else 0
    block = (icon_size if p.icon else 0) + label_h + sub_h + cost_h + mark_h
    y = (h - block) / 2
    if p.icon:
        out.append(ctx.icon(p.icon, (w - icon_size) / 2, y, icon_size, ink, background))
        y += icon_size
    text_w = s * (0.7 if round_ else 0.9)
    if p.label:
        out.append(ctx.text("label", p.label, (w - text_w) / 2, y, text_w, label_h, font="Lato-Black",
                            size=max(6.0, s * 0.5), min_size=6, color=ink, align="center", valign="middle",
                            max_lines=1))
        y += label_h
    if p.sublabel:
        out.append(ctx.text("sublabel", p.sublabel, (w - text_w) / 2, y, text_w, sub_h, font="Lato-Bold",
                            size=6, min_size=6, color=ink, align="center", valign="middle", max_lines=1))
        y += sub_h
    if p.cost:
        out.extend(_cost_row(ctx, p, w / 2, y, cost_h, ink, background))
        y += cost_h
    if ctx.color is not None:
        out.extend(ctx.player_mark((w - mark) / 2, y, mark))
    if round_:
        out.append(ctx.outline())
    elif s < 14:
        out.append(Rect(0, 0, w, h, Style(stroke=mix(background, ink, 0.4), stroke_width=0.2),
                        radius=ctx.corner_radius))
    return out


def _cost_row(ctx: FaceContext, p: TokenParams, cx: float, y: float, h: float, ink: str, paper: str) -> list[Element]:
    """`1 [icon] 1 [icon] 1 [icon]` centred on cx: the build cost, small enough for a token."""
    box = h * 0.8
    step = box * 2.1
    left = cx - step * len(p.cost) / 2
    out: list[Element] = []
    for i, amount in enumerate(p.cost):
        sx = left + i * step
        out.append(ctx.text("cost", str(amount), sx, y, step - box - 0.2, h, font="Lato-Black", size=6,
                            min_size=6, color=ink, align="right", valign="middle", max_lines=1))
        bx, by = sx + step - box, y + (h - box) / 2
        if isinstance(p.cost_resources, list):
            out.append(ctx.icon(p.cost_resources[i], bx, by, box, ink, paper))
        else:
            out.append(Rect(bx, by, box, box, Style(fill="#FFFFFF", stroke=ink, stroke_width=0.15,
                                                    dash=(0.5, 0.35)), radius=0.3))
    return out
