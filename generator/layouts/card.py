"""Card faces: a coloured frame, a title band, an icon or art window, a type line and rules text."""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..palette import Color, resolve
from ..scene import Circle, Element, Polygon, Rect, Style
from ..geometry import star_points
from ..model import is_unspecified
from . import layout
from .base import FaceContext, FaceParams, IconName, legible, mix, readable_ink, text_ground


class CardParams(FaceParams):
    layout: Literal["card"] = "card"
    title: str
    type: str = Field("", description="small line under the art: the card's kind")
    color: Color = Field("#37474F", description="frame colour: hex or palette name")
    icon: IconName | None = None
    art: str | None = Field(None, description="image file for the art window (relative to the data)")
    art_fit: Literal["cover", "contain"] = "cover"
    cost: str | int | None = Field(None, description="shown in a disc at the top left")
    value: str | int | None = Field(None, description="shown in a disc at the top right")
    text: str = Field("", description="rules text in our own words; 'unspecified' prints a write-in area")
    footer: str = ""
    star: bool = Field(False, description="the Power-card star")
    write_in: list[str] = Field([], description="labels of extra write-in areas")


def _disc(ctx: FaceContext, label: str, x: float, y: float, r: float, color: str) -> list[Element]:
    ink = readable_ink(color)
    return [Circle(x, y, r, Style(fill="#FFFFFF")), Circle(x, y, r - 0.6, Style(fill=resolve(color))),
            ctx.text("cost", label, x - r, y - r, 2 * r, 2 * r, font="Lato-Black", size=12, min_size=6,
                     color=ink, align="center", valign="middle")]


@layout("card", CardParams)
def card(ctx: FaceContext, p: CardParams) -> list[Element]:
    w, h = ctx.width, ctx.height
    frame = text_ground(p.color)
    ink = readable_ink(frame)
    inset = 3.0
    title_h = max(8.0, h * 0.12)
    panel_top = inset + title_h
    art_h = h * 0.36
    out: list[Element] = [ctx.background(frame)]
    # title band on the frame; discs for cost/value leave it room
    pad = title_h * 0.95 if (p.cost is not None or p.value is not None) else 2.0
    out.append(ctx.text("title", p.title, inset + pad, inset, w - 2 * (inset + pad), title_h, font="Lato-Black",
                        size=12, min_size=7, color=ink, align="center", valign="middle", max_lines=2))
    out.append(Rect(inset, panel_top, w - 2 * inset, h - panel_top - inset, Style(fill="#FFFFFF"), radius=2.0))
    # art window
    ax, ay, aw = inset + 2, panel_top + 2, w - 2 * inset - 4
    out.append(Rect(ax, ay, aw, art_h, Style(fill=mix(frame, "#FFFFFF", 0.85)), radius=1.5))
    if p.art:
        out.extend(ctx.art(p.art, ax, ay, aw, art_h, p.art_fit))
    elif p.icon:
        size = min(aw, art_h) * 0.72
        out.append(ctx.icon(p.icon, ax + (aw - size) / 2, ay + (art_h - size) / 2, size, frame))
    if p.star:
        out.append(Polygon(star_points(ax + aw - 6, ay + 6, 5, 2.1), Style(fill="#F9A825", stroke="#1A1A1A",
                                                                           stroke_width=0.3)))
    if ctx.color is not None:
        out.extend(ctx.player_mark(ax + 1.5, ay + 1.5, 7))
    y = ay + art_h + 1.2
    if p.type:
        out.append(ctx.text("type", p.type.upper(), ax, y, aw, 4.5, font="Lato-Bold", size=7, min_size=6,
                            color=legible(mix(frame, "#000000", 0.25), "#FFFFFF"), align="center", valign="middle"))
        y += 5
    footer_h = 4.0 if p.footer else 0.0
    bottom = h - inset - 1.5 - footer_h
    write_h = 13.0 * len(p.write_in)
    if is_unspecified(p.text):
        out.extend(ctx.write_in("effect (not given in the rulebook)", ax, y, aw, bottom - y - write_h))
    elif p.text:
        out.append(ctx.text("text", p.text, ax + 1, y + 0.5, aw - 2, bottom - y - write_h - 0.5, size=8.5,
                            min_size=6, color="#1A1A1A", align="center", valign="middle"))
    for i, label in enumerate(p.write_in):
        out.extend(ctx.write_in(label, ax, bottom - write_h + i * 13 + 0.5, aw, 12))
    if p.footer:
        out.append(ctx.text("footer", p.footer, ax, h - inset - 1 - footer_h, aw, footer_h, font="Lato-Italic",
                            size=6, min_size=6, color="#555555", align="center", valign="middle"))
    if p.cost is not None:
        out.extend(_disc(ctx, str(p.cost), inset + title_h * 0.45, inset + title_h * 0.5, title_h * 0.42,
                         text_ground(mix(frame, "#000000", 0.35))))
    if p.value is not None:
        out.extend(_disc(ctx, str(p.value), w - inset - title_h * 0.45, inset + title_h * 0.5,
                         title_h * 0.42, text_ground(mix(frame, "#000000", 0.35))))
    return out


class CardBackParams(FaceParams):
    layout: Literal["card_back"] = "card_back"
    title: str
    subtitle: str = ""
    color: Color = "#101A33"
    icon: IconName | None = "star"
    art: str | None = None


@layout("card_back", CardBackParams)
def card_back(ctx: FaceContext, p: CardBackParams) -> list[Element]:
    """A back with nothing near the cut, so front/back misregistration of a few millimetres never shows: the
    ground runs to the bleed, the art stays in the middle. The name prints once, above; the deck's name below."""
    w, h = ctx.width, ctx.height
    color = text_ground(p.color)
    ink = readable_ink(color)
    out: list[Element] = [ctx.background(color)]
    if p.art:
        return out + ctx.art(p.art, -ctx.bleed, -ctx.bleed, w + 2 * ctx.bleed, h + 2 * ctx.bleed)
    size = min(w, h) * 0.42
    if p.icon:
        out.append(ctx.icon(p.icon, (w - size) / 2, (h - size) / 2, size, mix(color, ink, 0.6), color))
    band = min(9.0, h * 0.12)
    out.append(ctx.text("title", p.title, 6, h * 0.14, w - 12, band, font="Lato-Black", size=11, min_size=6,
                        color=ink, align="center", valign="middle"))
    if p.subtitle:
        out.append(ctx.text("subtitle", p.subtitle, 6, h * 0.86 - band, w - 12, band, font="Lato-Bold",
                            size=8, min_size=6, color=legible(mix(color, ink, 0.35), color), align="center",
                            valign="middle"))
    return out


class ReferenceParams(FaceParams):
    layout: Literal["reference"] = "reference"
    title: str
    color: Color = "#37474F"
    icon: IconName | None = None
    steps: list[str] = Field(description="numbered lines, in our own words")
    footer: str = ""


@layout("reference", ReferenceParams)
def reference(ctx: FaceContext, p: ReferenceParams) -> list[Element]:
    """A player aid: title band and numbered steps, sized to share the space evenly. The white panel runs
    out to the bleed below the band, so an aid printed on both sides shows no border a shift would make
    uneven."""
    w, h = ctx.width, ctx.height
    frame = text_ground(p.color)
    ink = readable_ink(frame)
    inset = 3.0
    title_h = max(8.0, h * 0.1)
    out: list[Element] = [ctx.background(frame)]
    out.append(ctx.text("title", p.title, inset + 2, inset, w - 2 * inset - 4, title_h, font="Lato-Black",
                        size=11, min_size=7, color=ink, align="center", valign="middle"))
    top = inset + title_h
    b = ctx.bleed
    out.append(Rect(-b, top, w + 2 * b, h - top + b, Style(fill="#FFFFFF")))
    footer_h = 5.0 if p.footer else 0.0
    avail = h - top - inset - 3 - footer_h
    row = avail / max(1, len(p.steps))
    num = min(5.0, row * 0.8)
    for i, step in enumerate(p.steps):
        y = top + 1.5 + i * row
        out.append(Circle(inset + 2 + num / 2, y + row / 2, num / 2, Style(fill=frame)))
        out.append(ctx.text("steps", str(i + 1), inset + 2, y + row / 2 - num / 2, num, num, font="Lato-Black",
                            size=7, min_size=5, color=ink, align="center", valign="middle"))
        out.append(ctx.text(f"steps[{i}]", step, inset + 4 + num, y, w - 2 * inset - 6 - num, row, size=7.5,
                            min_size=6, color="#1A1A1A", valign="middle"))
    if p.footer:
        out.append(ctx.text("footer", p.footer, inset + 2, h - inset - 1.5 - footer_h, w - 2 * inset - 4,
                            footer_h, font="Lato-Italic", size=6, min_size=6, color="#555555", align="center",
                            valign="middle"))
    if p.icon:
        out.append(ctx.icon(p.icon, w - inset - title_h + 1, inset + 1, title_h - 2, ink, frame))
    return out
