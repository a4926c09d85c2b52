"""Stratastar player aids: a title band, then one entry per phase or rule, each with an icon, a bold
name, who it concerns and a short explanation, so a player finds a phase at a glance."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..palette import Color, resolve
from ..scene import Circle, Element, Line, Rect, Style
from . import layout
from .base import FaceContext, FaceParams, IconName, mix, readable_ink


class Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    name: str
    text: str = Field(description="in our own words")
    icon: IconName | None = None
    tag: str = Field("", description="small note right of the name, e.g. who acts")


class AidParams(FaceParams):
    layout: Literal["stratastar_aid"] = "stratastar_aid"
    title: str
    color: Color = "#1A237E"
    icon: IconName | None = None
    numbered: bool = Field(True, description="number the entries (phases) instead of plain bullets")
    entries: list[Entry] = Field(min_length=1)
    footer: str = ""


@layout("stratastar_aid", AidParams)
def aid(ctx: FaceContext, p: AidParams) -> list[Element]:
    w, h = ctx.width, ctx.height
    frame = resolve(p.color)
    ink = readable_ink(frame)
    inset, title_h = 3.0, 11.0
    out: list[Element] = [ctx.background(frame)]
    text_x = inset + (title_h if p.icon else 2)
    if p.icon:
        out.append(ctx.icon(p.icon, inset + 1, inset + 1.5, title_h - 3, ink, frame))
    out.append(ctx.text("title", p.title, text_x, inset, w - text_x - inset - 1, title_h, font="Lato-Black",
                        size=12, min_size=7, color=ink, valign="middle"))
    top = inset + title_h
    # the white panel runs out to the bleed: an aid is printed on both sides, and a frame near the cut
    # would show a front/back shift as an uneven border
    out.append(Rect(-ctx.bleed, top, w + 2 * ctx.bleed, h - top + ctx.bleed, Style(fill="#FFFFFF")))
    footer_h = 6.0 if p.footer else 0.0
    row = (h - top - inset - 2 - footer_h) / len(p.entries)
    badge = 6.0
    pale = mix(frame, "#FFFFFF", 0.88)
    for i, entry in enumerate(p.entries):
        y = top + 1 + i * row
        if i % 2 == 0:
            out.append(Rect(inset + 1, y, w - 2 * inset - 2, row, Style(fill=pale), radius=1.5))
        bx, by = inset + 2.2, y + 1.2
        out.append(Circle(bx + badge / 2, by + badge / 2, badge / 2, Style(fill=frame)))
        if p.numbered:
            out.append(ctx.text("entries.number", str(i + 1), bx, by, badge, badge, font="Lato-Black", size=9,
                                min_size=6, color=ink, align="center", valign="middle"))
        if entry.icon:
            icon_y = by + badge + 1.2 if p.numbered else by + 0.9
            icon_box = badge if p.numbered else badge - 1.8
            ix = bx if p.numbered else bx + 0.9
            out.append(ctx.icon(entry.icon, ix, icon_y, icon_box, frame if p.numbered else ink,
                                "#FFFFFF" if p.numbered else frame))
        x = bx + badge + 2
        tx_w = w - inset - 2 - x
        out.append(ctx.text(f"entries[{i}].name", entry.name, x, y + 1, tx_w * (0.6 if entry.tag else 1), 5.5,
                            font="Lato-Black", size=9.5, min_size=7, color=mix(frame, "#000000", 0.2),
                            valign="middle"))
        if entry.tag:
            out.append(ctx.text(f"entries[{i}].tag", entry.tag, x + tx_w * 0.6, y + 1, tx_w * 0.4, 5.5,
                                font="Lato-Italic", size=7, min_size=6, color="#555555", align="right",
                                valign="middle"))
        out.append(ctx.text(f"entries[{i}].text", entry.text, x, y + 6.8, tx_w, row - 7.6, size=8.5, min_size=6,
                            color="#1A1A1A"))
    if p.footer:
        fy = h - inset - footer_h - 0.5
        out.append(Line(inset + 4, fy, w - inset - 4, fy, Style(stroke=mix(frame, "#FFFFFF", 0.5),
                                                                 stroke_width=0.3)))
        out.append(ctx.text("footer", p.footer, inset + 2, fy + 0.3, w - 2 * inset - 4, footer_h, font="Lato-Bold",
                            size=7.5, min_size=6, color=mix(frame, "#000000", 0.2), align="center",
                            valign="middle"))
    return out
