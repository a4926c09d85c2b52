"""Starship Catan cards and tiles: title band, level badge, red side dots, labelled values and cost strips.

Our rulebook copy lost the resource symbols of every cost (only the amounts survive), so a cost prints
each amount beside a small square: our edition's resource icon, or a write-in box with --write-ins.
The same layout draws boosters and cannons (30 mm tiles), modules, the colony card, the sector and council
cards and the reference's build side. A sector card whose kind is left open (`icon: unspecified`) shows a
'circle one' row of every kind instead of its icon.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..fonts import text_width_mm
from ..palette import Color, resolve
from ..scene import Circle, Element, Line, Rect, Style
from ..model import is_unspecified
from . import layout
from .base import FaceContext, FaceParams, IconName, known_icon, mix, readable_ink

RED_DOT = "#D32F2F"
INK = "#1A1A1A"
YELLOW_DIE = "#FBC02D"
VP_GOLD = "#F9A825"
Blank = Literal["unspecified"]


def resource_icons(names, info):
    """Each name checked as an icon; `unspecified` (write-in squares) passes as it is."""
    return names if isinstance(names, str) else [known_icon(n, info) for n in names]


class CostRow(BaseModel):
    """One labelled cost, e.g. `Colony ship: 1 1 1` with a resource icon (or write-in square) per amount."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    label: str
    cost: list[int] = Field(min_length=1)
    resources: list[str] | Blank = "unspecified"

    @field_validator("resources")
    @classmethod
    def _known(cls, names, info):
        return resource_icons(names, info)


class LegendEntry(BaseModel):
    """An icon and the name it stands for; either may be left open (a dashed circle, a write-in line)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    icon: Blank | IconName
    name: str


class StarshipCatanCardParams(FaceParams):
    layout: Literal["starship_catan_card"] = "starship_catan_card"
    open_panel: bool = Field(False, description="the white panel runs out to the bleed: for an aid's second "
                             "side, where a frame would show a front/back shift as an uneven border")
    title: str = Field(description="name; 'unspecified' prints a write-in line")
    kind: str = Field("", description="small line under the title: what sort of piece this is")
    color: Color = Field("#37474F", description="frame colour: hex or palette name")
    icon: Blank | IconName | None = Field(None, description="'unspecified' shows the 'circle one' choices instead")
    level: Literal["", "I", "II"] = ""
    dots: int = Field(0, ge=0, le=3, description="red dots telling the tile's sides apart")
    number: Blank | str | int | None = Field(None, description="shown in a disc at the top left, e.g. a deck order")
    die: Blank | int | None = Field(None, description="yellow-die number this piece produces on (a yellow square)")
    vp: Blank | Annotated[int, Field(ge=0)] | None = Field(None, description="victory points, in a gold badge")
    fields: dict[str, str] | Blank = Field({}, description="label -> value lines; a value 'unspecified' prints a "
                                                          "write-in line, the whole 'unspecified' the blank_fields")
    blank_fields: list[str] = Field([], description="labels of the write-in lines when fields is 'unspecified'")
    choices: list[IconName] = Field([], description="icons in a 'circle one' row, for shells of unknown cards")
    choices_label: str = "circle one"
    costs: list[CostRow] = Field([], description="labelled cost rows, e.g. a build table")
    legend: list[LegendEntry] = Field([], description="what the icons stand for, in two columns")
    text: str = Field("", description="effect in our own words; 'unspecified' prints a write-in box")
    cost: list[int] = Field([], description="resource amounts of the cost, in order")
    cost_resources: list[str] | Blank = Field(
        "unspecified", description="an icon per amount, or 'unspecified' for write-in squares")
    cost_label: str = "Cost"

    @field_validator("cost_resources")
    @classmethod
    def _known(cls, names, info):
        return resource_icons(names, info)


def _badge(ctx: FaceContext, label: str, cx: float, cy: float, r: float, fill: str, field: str) -> list[Element]:
    ink = readable_ink(fill)
    return [Circle(cx, cy, r, Style(fill=fill, stroke="#FFFFFF", stroke_width=0.4)),
            ctx.text(field, label, cx - r, cy - r, 2 * r, 2 * r, font="Lato-Black", size=11, min_size=6,
                     color=ink, align="center", valign="middle", max_lines=1)]


def vp_pill(ctx: FaceContext, vp: int, right: float, top: float, height: float) -> list[Element]:
    """A gold pill as wide as its 'N VP' text needs, its right edge at `right`: the words never leave it."""
    label = f"{vp} VP"
    size = 7.0
    width = text_width_mm(label, "Lato-Black", size) + 2.4
    left = right - width
    return [Rect(left, top, width, height, Style(fill=VP_GOLD, stroke="#FFFFFF", stroke_width=0.4), radius=height / 2),
            ctx.text("vp", label, left, top, width, height, font="Lato-Black", size=size, min_size=6,
                     color=readable_ink(VP_GOLD), align="center", valign="middle", max_lines=1)]


def die_badge(ctx: FaceContext, die: int | str, x: float, y: float, s: float) -> list[Element]:
    """The yellow die's face this piece produces on; a blank face to write on when left open."""
    out: list[Element] = [Rect(x, y, s, s, Style(fill=YELLOW_DIE, stroke=INK, stroke_width=0.3), radius=s * 0.2)]
    if is_unspecified(die):
        out.append(Rect(x + s * 0.2, y + s * 0.2, s * 0.6, s * 0.6, Style(fill="#FFFFFF", stroke="#555555",
                                                                        stroke_width=0.2, dash=(0.6, 0.4))))
    else:
        out.append(ctx.text("die", str(die), x, y, s, s, font="Lato-Black", size=10, min_size=6, color=INK,
                            align="center", valign="middle", max_lines=1))
    return out


def cost_strip(ctx: FaceContext, label: str, amounts: list[int], resources: list[str] | str, x: float, y: float,
               w: float, h: float, frame: str, label_w: float | None = None) -> list[Element]:
    """A tinted strip: the label, then each amount beside its resource icon (a dashed square when open)."""
    out: list[Element] = [Rect(x, y, w, h, Style(fill=mix(frame, "#FFFFFF", 0.85)), radius=1)]
    label_w = min(12.0, w * 0.3) if label_w is None else label_w
    out.append(ctx.text("cost_label", label, x + 1, y, label_w, h, font="Lato-Bold", size=7, min_size=6,
                        color=INK, valign="middle", max_lines=1))
    slot = min((w - label_w - 2) / len(amounts), 11.0)
    box = min(h - 1.2, 4.2)
    for i, amount in enumerate(amounts):
        sx = x + label_w + 1 + i * slot
        out.append(ctx.text("cost", f"{amount}×", sx, y, slot - box - 0.6, h, font="Lato-Black", size=8,
                            min_size=6, color=INK, align="right", valign="middle", max_lines=1))
        bx, by = sx + slot - box - 0.4, y + (h - box) / 2
        if isinstance(resources, list):
            out.append(ctx.icon(resources[i], bx, by, box, frame))
        else:
            out.append(Rect(bx, by, box, box, Style(fill="#FFFFFF", stroke="#555555", stroke_width=0.2,
                                                    dash=(0.7, 0.5)), radius=0.5))
    return out


def _field_line(ctx: FaceContext, label: str, value: str, x: float, y: float, w: float, h: float,
                label_w: float) -> list[Element]:
    out: list[Element] = [ctx.text(f"fields.{label}", label, x, y, label_w, h, font="Lato-Bold", size=7,
                                   min_size=6, color="#37474F", valign="middle")]
    if is_unspecified(value):
        out.append(Line(x + label_w + 1, y + h - 1.2, x + w, y + h - 1.2,
                        Style(stroke="#777777", stroke_width=0.25, dash=(1.0, 0.7))))
    else:
        out.append(ctx.text(f"fields.{label}", value, x + label_w + 1, y, w - label_w - 1, h, font="Lato-Black",
                            size=8, min_size=6, color=INK, valign="middle", max_lines=2))
    return out


def _lines(p: StarshipCatanCardParams) -> dict[str, str]:
    """The label -> value lines to print: the blank labels as write-ins when the values are left open."""
    if is_unspecified(p.fields):
        return {label: "unspecified" for label in p.blank_fields}
    return p.fields


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
        disc = mix(frame, "#000000", 0.4)
        out.extend(_badge(ctx, "" if is_unspecified(p.number) else str(p.number), inset + r,
                          inset + title_h / 2, r, disc if not is_unspecified(p.number) else "#FFFFFF", "number"))
    if p.level:
        out.extend(_badge(ctx, p.level, w - inset - r, inset + title_h / 2, r, "#FFFFFF", "level"))
    top = inset + title_h
    panel_h = h - top - inset
    if p.open_panel:
        out.append(Rect(-ctx.bleed, top, w + 2 * ctx.bleed, h - top + ctx.bleed, Style(fill="#FFFFFF")))
    else:
        out.append(Rect(inset, top, w - 2 * inset, panel_h, Style(fill="#FFFFFF"), radius=1.2))
    x, pw = inset + 1.2, w - 2 * inset - 2.4
    y, bottom = top + 1.0, h - inset - 1.0
    # fixed rows from the bottom up: cost strip, then fields, text
    if p.cost:
        cost_h = 4.6 if small else 6.0
        out.extend(cost_strip(ctx, p.cost_label, p.cost, p.cost_resources, x, bottom - cost_h, pw, cost_h, frame))
        bottom -= cost_h + 1.0
    if p.kind and not is_unspecified(p.kind):
        out.append(ctx.text("kind", p.kind.upper(), x, y, pw, 3.6, font="Lato-Bold", size=6, min_size=6,
                            color=mix(frame, "#000000", 0.3), align="center", valign="middle", max_lines=1))
        y += 3.8
    lines = _lines(p)
    row_h = 5.2
    fields_h = row_h * len(lines)
    cost_row_h = 5.4
    costs_h = cost_row_h * len(p.costs)
    legend_row_h = 5.0
    legend_h = legend_row_h * ((len(p.legend) + 1) // 2) + (1.0 if p.legend else 0)
    open_kind = is_unspecified(p.icon) and bool(p.choices)
    choices_h = 12.5 if open_kind else 0.0
    dots_h = 3.6 if p.dots else 0.0
    room = bottom - y - fields_h - costs_h - legend_h - choices_h - dots_h
    shows_icon = p.icon is not None and not open_kind  # an open icon without choices: a circle to draw in
    text_h = 0.0
    if p.text:
        text_h = room * (0.62 if shows_icon else 1.0)
    icon_h = room - text_h - (1.0 if p.text and shows_icon else 0)
    if shows_icon and icon_h > 3:
        size = min(icon_h, pw) * 0.82
        out.append(Rect(x, y, pw, icon_h, Style(fill=mix(frame, "#FFFFFF", 0.88)), radius=1))
        if is_unspecified(p.icon):
            out.append(Circle(x + pw / 2, y + icon_h / 2, size / 2, Style(fill="#FFFFFF", stroke="#777777",
                                                                          stroke_width=0.25, dash=(1.0, 0.7))))
        else:
            out.append(ctx.icon(p.icon, x + (pw - size) / 2, y + (icon_h - size) / 2, size, frame))
        corner = min(6.0, icon_h * 0.4)
        if ctx.color is not None:
            out.extend(ctx.player_mark(x + 0.8, y + 0.8, corner))
        if p.die is not None:
            out.extend(die_badge(ctx, p.die, x + 0.8, y + icon_h - corner - 0.8, corner))
        if isinstance(p.vp, int):
            out.extend(vp_pill(ctx, p.vp, x + pw - 0.8, y + 0.8, min(4.6, icon_h * 0.34)))
        y += icon_h + (1.0 if p.text else 0)
    if p.dots:
        d = 1.3
        span = (p.dots - 1) * 3.6
        for i in range(p.dots):
            out.append(Circle(w / 2 - span / 2 + i * 3.6, y + dots_h / 2, d,
                              Style(fill=RED_DOT, stroke="#FFFFFF", stroke_width=0.2)))
        y += dots_h
    if open_kind:
        out.extend(_choices(ctx, p, x, y, pw, choices_h, frame))
        y += choices_h
    label_w = min(max((text_width_mm(label, "Lato-Bold", 7) + 1 for label in lines), default=0), pw * 0.55)
    for label, value in lines.items():
        out.extend(_field_line(ctx, label, value, x, y, pw, row_h, max(label_w, pw * 0.3)))
        y += row_h
    label_w = max(text_width_mm(row.label, "Lato-Bold", 7) for row in p.costs) + 1.5 if p.costs else 0
    for row in p.costs:
        out.extend(cost_strip(ctx, row.label, row.cost, row.resources, x, y + 0.2, pw, cost_row_h - 0.4, frame,
                              label_w))
        y += cost_row_h
    if p.legend:
        y += 1.0
        for i, entry in enumerate(p.legend):
            ex, ey = x + (i % 2) * pw / 2, y + (i // 2) * legend_row_h
            out.extend(_legend_entry(ctx, entry, ex, ey, pw / 2, legend_row_h, frame))
        y += legend_h - 1.0
    if is_unspecified(p.text):
        label = "effect (not given in the rulebook)"
        if text_width_mm(f"write in: {label}", "Lato-Italic", 6) > pw - 2.6:
            label = "effect"  # the write-in label must stay on one line
        out.extend(ctx.write_in(label, x, y + 0.5, pw, bottom - y - 0.5))
    elif p.text:
        out.append(ctx.text("text", p.text, x + 0.5, y, pw - 1, bottom - y, size=7.5, min_size=6, color=INK,
                            align="center", valign="middle"))
    if isinstance(p.vp, int) and not shows_icon:
        out.extend(vp_pill(ctx, p.vp, w - inset - 0.8, top + 0.8, 4.6))
    return out


def _legend_entry(ctx: FaceContext, entry: LegendEntry, x: float, y: float, w: float, h: float,
                  frame: str) -> list[Element]:
    box = h * 0.8
    by = y + (h - box) / 2
    if is_unspecified(entry.icon):
        out: list[Element] = [Circle(x + box / 2, by + box / 2, box / 2, Style(stroke="#777777", stroke_width=0.25,
                                                                                dash=(0.8, 0.6)))]
    else:
        out = [ctx.icon(entry.icon, x, by, box, frame)]
    if is_unspecified(entry.name):
        out.append(Line(x + box + 1, y + h - 0.8, x + w - 1.5, y + h - 0.8,
                        Style(stroke="#777777", stroke_width=0.25, dash=(1.0, 0.7))))
    else:
        out.append(ctx.text("legend", entry.name, x + box + 1, y, w - box - 2, h, font="Lato-Bold", size=7,
                            min_size=6, color=INK, valign="middle", max_lines=1))
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
