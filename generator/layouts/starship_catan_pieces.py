"""Starship Catan cards and tiles: title band, level badge, red side dots, labelled values and a cost strip.

Our rulebook copy lost the resource symbols of every cost (only the amounts survive), so a cost prints
each amount beside a small square: an icon when the data names the resource, a write-in box otherwise.
The same layout draws boosters and cannons (30 mm tiles), modules, the colony card and the card shells.
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from ..fonts import text_width_mm
from ..palette import Color, resolve
from ..scene import Circle, Element, Line, Rect, Style
from ..model import is_unspecified
from . import layout
from .base import FaceContext, FaceParams, IconName, known_icon, mix, readable_ink

RED_DOT = "#D32F2F"
INK = "#1A1A1A"


class StarshipCatanCardParams(FaceParams):
    layout: Literal["starship_catan_card"] = "starship_catan_card"
    title: str = Field(description="name; 'unspecified' prints a write-in line")
    kind: str = Field("", description="small line under the title: what sort of piece this is")
    color: Color = Field("#37474F", description="frame colour: hex or palette name")
    icon: IconName | None = None
    level: Literal["", "I", "II"] = ""
    dots: int = Field(0, ge=0, le=3, description="red dots telling the tile's sides apart")
    number: str | int | None = Field(None, description="shown in a disc at the top left, e.g. a deck order")
    vp: int | None = Field(None, ge=0, description="victory points, shown in a star-coloured badge")
    fields: dict[str, str] = Field({}, description="label -> value lines; 'unspecified' prints a write-in line")
    choices: list[IconName] = Field([], description="icons in a 'circle one' row, for shells of unknown cards")
    choices_label: str = "circle one"
    text: str = Field("", description="effect in our own words; 'unspecified' prints a write-in box")
    cost: list[int] = Field([], description="resource amounts of the cost, in order")
    cost_resources: list[str] | Literal["unspecified"] = Field(
        "unspecified", description="an icon per amount, or 'unspecified' for write-in squares")
    cost_label: str = "Cost"

    @field_validator("cost_resources")
    @classmethod
    def _resources(cls, names):
        return names if isinstance(names, str) else [known_icon(n) for n in names]


def _badge(ctx: FaceContext, label: str, cx: float, cy: float, r: float, fill: str, field: str) -> list[Element]:
    ink = readable_ink(fill)
    return [Circle(cx, cy, r, Style(fill=fill, stroke="#FFFFFF", stroke_width=0.4)),
            ctx.text(field, label, cx - r, cy - r, 2 * r, 2 * r, font="Lato-Black", size=11, min_size=6,
                     color=ink, align="center", valign="middle", max_lines=1)]


def _cost(ctx: FaceContext, p: StarshipCatanCardParams, x: float, y: float, w: float, h: float,
          frame: str) -> list[Element]:
    out: list[Element] = [Rect(x, y, w, h, Style(fill=mix(frame, "#FFFFFF", 0.85)), radius=1)]
    label_w = min(12.0, w * 0.3)
    out.append(ctx.text("cost_label", p.cost_label, x + 1, y, label_w, h, font="Lato-Bold", size=7, min_size=6,
                        color=INK, valign="middle", max_lines=1))
    slot = (w - label_w - 2) / len(p.cost)
    box = min(h - 1.2, 4.2)
    for i, amount in enumerate(p.cost):
        sx = x + label_w + 1 + i * slot
        out.append(ctx.text("cost", f"{amount}×", sx, y, slot - box - 0.6, h, font="Lato-Black", size=8,
                            min_size=6, color=INK, align="right", valign="middle", max_lines=1))
        bx, by = sx + slot - box - 0.4, y + (h - box) / 2
        if isinstance(p.cost_resources, list):
            out.append(ctx.icon(p.cost_resources[i], bx, by, box, frame))
        else:
            out.append(Rect(bx, by, box, box, Style(fill="#FFFFFF", stroke="#555555", stroke_width=0.2,
                                                    dash=(0.7, 0.5)), radius=0.5))
    return out


def _field_line(ctx: FaceContext, label: str, value: str, x: float, y: float, w: float, h: float) -> list[Element]:
    label_w = w * 0.46
    out: list[Element] = [ctx.text(f"fields.{label}", label, x, y, label_w, h, font="Lato-Bold", size=7,
                                   min_size=6, color="#37474F", valign="middle")]
    if is_unspecified(value):
        out.append(Line(x + label_w + 1, y + h - 1.2, x + w, y + h - 1.2,
                        Style(stroke="#777777", stroke_width=0.25, dash=(1.0, 0.7))))
    else:
        out.append(ctx.text(f"fields.{label}", value, x + label_w + 1, y, w - label_w - 1, h, font="Lato-Black",
                            size=8, min_size=6, color=INK, valign="middle"))
    return out


@layout("starship_catan_card", StarshipCatanCardParams)
def starship_catan_card(ctx: FaceContext, p: StarshipCatanCardParams) -> list[Element]:
    w, h = ctx.width, ctx.height
    frame = resolve(p.color)
    ink = readable_ink(frame)
    small = min(w, h) < 40
    inset = 1.6 if small else 2.5
    title_h = 6.0 if small else max(8.0, h * 0.11)
    out: list[Element] = [ctx.background(frame)]
    # title band: number disc on the left, level badge on the right
    r = title_h * 0.42
    left = inset + (2 * r + 1 if p.number is not None else 1)
    right = inset + (2 * r + 1 if p.level else 1)
    if is_unspecified(p.title):
        out.extend(ctx.write_in("name", left, inset + 0.3, w - left - right, title_h - 0.6, ink=ink))
    else:
        out.append(ctx.text("title", p.title, left, inset, w - left - right, title_h, font="Lato-Black",
                            size=7.5 if small else 11, min_size=6, color=ink, align="center", valign="middle",
                            max_lines=1 if small else 2))
    if p.number is not None:
        out.extend(_badge(ctx, str(p.number), inset + r, inset + title_h / 2, r, mix(frame, "#000000", 0.4),
                          "number"))
    if p.level:
        out.extend(_badge(ctx, p.level, w - inset - r, inset + title_h / 2, r, "#FFFFFF", "level"))
    top = inset + title_h
    panel_h = h - top - inset
    out.append(Rect(inset, top, w - 2 * inset, panel_h, Style(fill="#FFFFFF"), radius=1.2))
    x, pw = inset + 1.2, w - 2 * inset - 2.4
    y, bottom = top + 1.0, h - inset - 1.0
    # fixed rows from the bottom up: cost strip, then fields, text
    if p.cost:
        cost_h = 4.6 if small else 6.0
        out.extend(_cost(ctx, p, x, bottom - cost_h, pw, cost_h, frame))
        bottom -= cost_h + 1.0
    if p.kind:
        out.append(ctx.text("kind", p.kind.upper(), x, y, pw, 3.6, font="Lato-Bold", size=6, min_size=6,
                            color=mix(frame, "#000000", 0.3), align="center", valign="middle", max_lines=1))
        y += 3.8
    row_h = 5.2
    fields_h = row_h * len(p.fields)
    choices_h = 12.5 if p.choices else 0.0
    dots_h = 3.6 if p.dots else 0.0
    room = bottom - y - fields_h - choices_h - dots_h
    text_h = 0.0
    if p.text:
        text_h = room * (0.62 if p.icon else 1.0)
    icon_h = room - text_h - (1.0 if p.text and p.icon else 0)
    if p.icon and icon_h > 3:
        size = min(icon_h, pw) * 0.82
        out.append(Rect(x, y, pw, icon_h, Style(fill=mix(frame, "#FFFFFF", 0.88)), radius=1))
        out.append(ctx.icon(p.icon, x + (pw - size) / 2, y + (icon_h - size) / 2, size, frame))
        if ctx.color is not None:
            mark = min(6.0, icon_h * 0.4)
            out.extend(ctx.player_mark(x + 0.8, y + 0.8, mark))
        if p.vp is not None:
            vr = min(5.0, icon_h * 0.32)
            out.extend(_badge(ctx, f"{p.vp} VP", x + pw - vr - 0.8, y + vr + 0.8, vr, "#F9A825", "vp"))
        y += icon_h + (1.0 if p.text else 0)
    if p.dots:
        d = 1.3
        span = (p.dots - 1) * 3.6
        for i in range(p.dots):
            out.append(Circle(w / 2 - span / 2 + i * 3.6, y + dots_h / 2, d,
                              Style(fill=RED_DOT, stroke="#FFFFFF", stroke_width=0.2)))
        y += dots_h
    if p.choices:
        out.extend(_choices(ctx, p, x, y, pw, choices_h, frame))
        y += choices_h
    for label, value in p.fields.items():
        out.extend(_field_line(ctx, label, value, x, y, pw, row_h))
        y += row_h
    if is_unspecified(p.text):
        label = "effect (not given in the rulebook)"
        if text_width_mm(f"write in: {label}", "Lato-Italic", 6) > pw - 2.6:
            label = "effect"  # the write-in label must stay on one line
        out.extend(ctx.write_in(label, x, y + 0.5, pw, bottom - y - 0.5))
    elif p.text:
        out.append(ctx.text("text", p.text, x + 0.5, y, pw - 1, bottom - y, size=7.5, min_size=6, color=INK,
                            align="center", valign="middle"))
    if p.vp is not None and not p.icon:
        vr = title_h * 0.42
        out.extend(_badge(ctx, f"{p.vp} VP", w - inset - vr, top + vr + 1, vr, "#F9A825", "vp"))
    return out


def _choices(ctx: FaceContext, p: StarshipCatanCardParams, x: float, y: float, w: float, h: float,
             frame: str) -> list[Element]:
    label_h = 5.8
    out: list[Element] = [ctx.text("choices_label", p.choices_label, x, y, w, label_h, font="Lato-Italic", size=6,
                                   min_size=6, color="#555555", align="center", valign="middle", max_lines=2)]
    size = min(h - label_h - 0.8, w / len(p.choices) - 1.2)
    step = w / len(p.choices)
    top = y + label_h + 0.4
    for i, name in enumerate(p.choices):
        cx = x + step * (i + 0.5)
        out.append(Circle(cx, top + size / 2, size / 2 + 0.4, Style(stroke=mix(frame, "#FFFFFF", 0.5),
                                                                   stroke_width=0.2)))
        out.append(ctx.icon(name, cx - size * 0.36, top + size * 0.14, size * 0.72, frame))
    return out
