"""Player boards (mats, displays): a title band in the player's colour and labelled sections of
slots where cards, counters and pieces are put. Any game may use it; sections are placed in mm.

A section is a tinted panel with a title, an optional icon, a row of slots (card-, square- or
round-shaped, each with an optional caption and icon) and a line of help text in our own words.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..palette import Color, resolve
from ..scene import Circle, Element, Rect, Style
from ..model import is_unspecified
from . import layout
from .base import FaceContext, FaceParams, IconName, legible, mix, readable_ink


class Slot(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    label: str = ""
    icon: IconName | None = None
    filled: bool = Field(False, description="tinted: marks where a piece starts the game")


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    x: float
    y: float
    w: float = Field(gt=0)
    h: float = Field(gt=0)
    title: str
    icon: IconName | None = None
    text: str = Field("", description="help line under the slots; 'unspecified' prints a write-in area")
    slot_shape: Literal["card", "square", "round"] = "square"
    slot_size: float = Field(20, gt=0, description="slot width in mm (cards keep the 63:88 ratio)")
    slots: list[Slot] | int = Field(0, description="how many slots, or each slot's caption and icon")


class PlayerBoardParams(FaceParams):
    layout: Literal["player_board"] = "player_board"
    title: str
    color: Color | None = Field(None, description="band colour; default the piece's player colour")
    sections: list[Section] = []


CARD_RATIO = 88 / 63
GAP = 2.0


def _slot(ctx: FaceContext, sec: Section, slot: Slot, x, y, tint, ink) -> list[Element]:
    w = sec.slot_size
    h = w * CARD_RATIO if sec.slot_shape == "card" else w
    fill = mix(tint, "#FFFFFF", 0.35) if slot.filled else "#FFFFFF"
    edge = Style(fill=fill, stroke=mix(tint, "#000000", 0.45), stroke_width=0.35, dash=() if slot.filled else (1.5, 1))
    out: list[Element] = [Circle(x + w / 2, y + h / 2, w / 2, edge) if sec.slot_shape == "round"
                          else Rect(x, y, w, h, edge, radius=1.5)]
    if slot.icon:
        size = min(w, h) * 0.42
        out.append(ctx.icon(slot.icon, x + (w - size) / 2, y + h / 2 - size * 0.75, size, mix(tint, "#000000", 0.4),
                            fill))
    if slot.label:
        out.append(ctx.text("sections.slots.label", slot.label, x + 1, y + h / 2 + (size * 0.3 if slot.icon else -3),
                            w - 2, 6 if slot.icon else 6, font="Lato-Bold", size=7, min_size=6,
                            color=legible(mix(tint, "#000000", 0.55), fill), align="center", valign="middle",
                            max_lines=2))
    return out


def _section(ctx: FaceContext, sec: Section, tint: str) -> list[Element]:
    ink = "#1A1A1A"
    out: list[Element] = [Rect(sec.x, sec.y, sec.w, sec.h, Style(fill=mix(tint, "#FFFFFF", 0.82),
                                                                 stroke=mix(tint, "#000000", 0.3), stroke_width=0.4),
                               radius=2)]
    out.append(ctx.text("sections.title", sec.title, sec.x + 3, sec.y + 1.5, sec.w - 14, 6, font="Lato-Black",
                        size=10, min_size=6, color=ink, valign="middle"))
    if sec.icon:
        out.append(ctx.icon(sec.icon, sec.x + sec.w - 9, sec.y + 1.2, 7, mix(tint, "#000000", 0.4),
                            mix(tint, "#FFFFFF", 0.82)))
    slots = [Slot() for _ in range(sec.slots)] if isinstance(sec.slots, int) else sec.slots
    top = sec.y + 9
    if slots:
        sw = sec.slot_size
        sh = sw * CARD_RATIO if sec.slot_shape == "card" else sw
        row_w = len(slots) * sw + (len(slots) - 1) * GAP
        if row_w > sec.w - 4 or top + sh > sec.y + sec.h - 1:
            ctx.warn(f"sections: slots of {sec.title!r} do not fit the section")
        x = sec.x + (sec.w - row_w) / 2
        for slot in slots:
            out.extend(_slot(ctx, sec, slot, x, top, tint, ink))
            x += sw + GAP
        top += sh + 1.5
    room = sec.y + sec.h - top - 1.5
    if is_unspecified(sec.text):
        out.extend(ctx.write_in("details (not given in the rulebook)", sec.x + 3, top, sec.w - 6, room))
    elif sec.text:
        out.append(ctx.text("sections.text", sec.text, sec.x + 3, top, sec.w - 6, room, size=8, min_size=6,
                            color=ink, align="center", valign="middle"))
    return out


@layout("player_board", PlayerBoardParams)
def player_board(ctx: FaceContext, p: PlayerBoardParams) -> list[Element]:
    w, h = ctx.width, ctx.height
    tint = resolve(p.color) if p.color else (ctx.color.hex if ctx.color else "#546E7A")
    band = 13.0
    out: list[Element] = [ctx.background("#FFFFFF"), Rect(-ctx.bleed, -ctx.bleed, w + 2 * ctx.bleed, band + ctx.bleed,
                                                            Style(fill=tint))]
    title = p.title + (f" — {ctx.color.name}" if ctx.color else "")
    out.append(ctx.text("title", title, 16, 1.5, w - 32, band - 3, font="Lato-Black", size=14, min_size=8,
                        color=readable_ink(tint), align="center", valign="middle"))
    out.append(Rect(1.5, 1.5, w - 3, h - 3, Style(stroke=tint, stroke_width=0.8), radius=2))
    if ctx.color is not None:
        out.extend(ctx.player_mark(3, 1.5, 10))
        out.extend(ctx.player_mark(w - 13, 1.5, 10))
    for sec in p.sections:
        out.extend(_section(ctx, sec, tint))
    return out
