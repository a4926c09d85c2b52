"""Stars, Inc. environment cards: name, the hydrogen every player harvests, the actions each player may
take this round, and the environment's effect. Anything the rulebook leaves out gets a write-in box."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from ..palette import Color, resolve
from ..scene import Element, Rect, Style
from ..model import is_unspecified
from . import layout
from .base import FaceContext, FaceParams, IconName, mix, readable_ink
from .stars_inc_common import check_amount, draw_amount


class EnvironmentParams(FaceParams):
    layout: Literal["stars_inc_environment"] = "stars_inc_environment"
    title: str = Field(description="the environment's name; 'unspecified' prints a write-in box")
    type: str = "Environment"
    icon: IconName | None = None
    color: Color = "#283593"
    harvest: str = Field(description="hydrogen every player gathers, e.g. '3 H', or 'unspecified'")
    harvest_hint: str = Field("2–4", description="printed in the write-in box when harvest is unspecified")
    actions: str | int = Field(description="actions per player this round, or 'unspecified'")
    effect: str = Field(description="the effect in our own words, or 'unspecified'")
    hint: str = Field("", description="a fact the rulebook gives about this card elsewhere, in our words")
    badge: str = Field("", description="a small flag in the art window")
    _harvest = field_validator("harvest")(lambda cls, v: v if is_unspecified(v) else check_amount(v))


def _stat(ctx: FaceContext, field: str, label: str, value: str, hint: str, amount: bool, x, y, w, h,
          frame: str) -> list[Element]:
    out: list[Element] = [Rect(x, y, w, h, Style(fill=mix(frame, "#FFFFFF", 0.88)), radius=1.5),
                          ctx.text(field, label.upper(), x + 1, y + 0.5, w - 2, 3.6, font="Lato-Black", size=6,
                                   min_size=6, color=mix(frame, "#000000", 0.3), align="center",
                                   valign="middle")]
    box_y, box_h = y + 4.5, h - 5.5
    if is_unspecified(value):
        out.append(Rect(x + 2, box_y, w - 4, box_h, Style(fill="#FFFFFF", stroke="#555555", stroke_width=0.25,
                                                            dash=(1.2, 0.8)), radius=1))
        out.append(ctx.text(field, f"write in ({hint})", x + 2.5, box_y + box_h - 3.4, w - 5, 3.2,
                            font="Lato-Italic", size=6, min_size=6, color="#555555", align="center",
                            valign="middle"))
    elif amount:
        out.extend(draw_amount(ctx, field, value, x + w / 2, box_y + 0.5, box_h - 1, "#1A1A1A", "center"))
    else:
        out.append(ctx.text(field, value, x + 1, box_y, w - 2, box_h, font="Lato-Black", size=13, min_size=6,
                            color="#1A1A1A", align="center", valign="middle"))
    return out


@layout("stars_inc_environment", EnvironmentParams)
def environment(ctx: FaceContext, p: EnvironmentParams) -> list[Element]:
    w, h = ctx.width, ctx.height
    frame = resolve(p.color)
    ink = readable_ink(frame)
    inset = 3.0
    title_h = 10.0
    out: list[Element] = [ctx.background(frame)]
    if is_unspecified(p.title):
        out.extend(ctx.write_in("name", inset + 2, inset + 0.5, w - 2 * inset - 4, title_h - 1))
    else:
        out.append(ctx.text("title", p.title, inset + 1, inset, w - 2 * inset - 2, title_h, font="Lato-Black",
                            size=11, min_size=7, color=ink, align="center", valign="middle", max_lines=2))
    top = inset + title_h
    out.append(Rect(inset, top, w - 2 * inset, h - top - inset, Style(fill="#FFFFFF"), radius=2))
    ax, aw, art_h = inset + 2, w - 2 * inset - 4, 22.0
    ay = top + 2
    out.append(Rect(ax, ay, aw, art_h, Style(fill=mix(frame, "#FFFFFF", 0.85)), radius=1.5))
    if p.icon and not is_unspecified(p.title):  # a card whose name is written in gets no picture of ours
        size = art_h * 0.78
        out.append(ctx.icon(p.icon, ax + (aw - size) / 2, ay + (art_h - size) / 2, size, frame,
                            mix(frame, "#FFFFFF", 0.85)))
    if p.badge:
        out.append(Rect(ax + 1, ay + art_h - 5, 22, 4, Style(fill=frame), radius=1))
        out.append(ctx.text("badge", p.badge, ax + 1.5, ay + art_h - 5, 21, 4, font="Lato-Bold", size=6,
                            min_size=6, color=ink, align="center", valign="middle"))
    y = ay + art_h + 0.8
    out.append(ctx.text("type", p.type.upper(), ax, y, aw, 4, font="Lato-Bold", size=6.5, min_size=6,
                        color=mix(frame, "#000000", 0.25), align="center", valign="middle"))
    y += 4.5
    half = (aw - 2) / 2
    out += _stat(ctx, "harvest", "Harvest", p.harvest, f"{p.harvest_hint} H", True, ax, y, half,
                 13, frame)
    out += _stat(ctx, "actions", "Actions", str(p.actions), "number", False, ax + half + 2, y, half,
                 13, frame)
    y += 15
    hint_h = 9.0 if p.hint else 0.0
    bottom = h - inset - 1.5
    effect_h = bottom - hint_h - y
    if is_unspecified(p.effect):
        out.extend(ctx.write_in("effect (not given in the rulebook)", ax, y, aw, effect_h))
    else:  # the round's rule: the card's main text, on a tinted panel like the two numbers above
        out.append(Rect(ax, y, aw, effect_h, Style(fill=mix(frame, "#FFFFFF", 0.93)), radius=1.5))
        out.append(ctx.text("effect", "THIS ROUND", ax + 1, y + 0.5, aw - 2, 3.6, font="Lato-Black", size=6,
                            min_size=6, color=mix(frame, "#000000", 0.3), align="center", valign="middle"))
        out.append(ctx.text("effect", p.effect, ax + 2, y + 4.5, aw - 4, effect_h - 5.5, size=10, min_size=6,
                            color="#1A1A1A", align="center", valign="middle"))
    if p.hint:
        out.append(ctx.text("hint", p.hint, ax, bottom - hint_h + 0.5, aw, hint_h - 0.5, font="Lato-Italic",
                            size=6, min_size=6, color="#444444", align="center", valign="middle"))
    return out
