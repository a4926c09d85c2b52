"""A Handful of Stars faces: deck cards (cost, VP, timing, effect, resource symbols) and system tiles.

Every value the rulebook does not give may be `unspecified`; it then prints a tidy dashed spot to
write in, so one layout serves the known cards and the ones a player completes by hand.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..palette import Color, resolve
from ..scene import Circle, Element, Line, Rect, Style
from ..model import is_unspecified
from . import layout
from .base import FaceContext, FaceParams, IconName, mix, readable_ink

RESOURCES = {  # icon, colour
    "energy": ("hs_energy", "#EF6C00"),
    "matter": ("matter", "#5D4037"),
    "population": ("hs_population", "#2E7D32"),
    "research": ("science", "#1565C0"),
}
TAGS = ("Action", "Free action", "One-use", "Combat", "Reserve")
DASHED = Style(fill="#FFFFFF", stroke="#555555", stroke_width=0.25, dash=(1.2, 0.8))


class Resource(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    kind: Literal["energy", "matter", "population", "research"]
    value: int = Field(ge=1)


def _known_tags(tags):
    if isinstance(tags, list):
        for tag in tags:
            if tag not in TAGS:
                raise ValueError(f"unknown tag {tag!r}; known: {', '.join(TAGS)}")
    return tags


class HandfulCardParams(FaceParams):
    layout: Literal["handful_card"] = "handful_card"
    title: str = Field(description="card name; 'unspecified' prints a write-in line")
    kind: str = Field(description="card type shown in the footer, e.g. Technology")
    color: Color = "#00695C"
    icon: IconName | None = None
    cost: int | str | None = Field(None, description="Research needed to draft it; 'unspecified' = write-in disc")
    vp: int | str | None = Field(None, description="victory points; 'unspecified' = write-in disc")
    tags: list[str] | str = Field([], description=f"timing chips from {', '.join(TAGS)}, or 'unspecified'")
    text: str = Field("", description="effect in our words; 'unspecified' prints a write-in area")
    items: list[str] = Field([], description="a short list under the text; 'unspecified' entries are write-in lines")
    items_title: str = Field("", description="small heading over the list")
    resources: list[Resource] | str = Field([], description="resource symbols, or 'unspecified'")
    footer: str = ""
    _tags = field_validator("tags")(lambda cls, v: _known_tags(v))


def _write_line(ctx: FaceContext, label: str, x, y, w, h, ink) -> list[Element]:
    """A labelled dashed box, smaller than FaceContext.write_in, for one word or number."""
    return [Rect(x, y, w, h, DASHED, radius=1),
            ctx.text("write-in label", label, x + 1, y + 0.3, w - 2, min(3.2, h - 0.4), font="Lato-Italic", size=6,
                     min_size=6, color=ink)]


def _disc(ctx: FaceContext, field: str, value, cx, cy, r, color, icon_name: str | None, label: str):
    """A value disc; an icon sits in it when there is no number, a dashed ring when unspecified."""
    if is_unspecified(value):
        return [Circle(cx, cy, r, DASHED),
                ctx.text(field, label, cx - r, cy + r * 0.1, 2 * r, r * 0.7, font="Lato-Italic", size=6, min_size=6,
                         color="#555555", align="center", valign="middle"),
                ctx.icon(icon_name, cx - r * 0.35, cy - r * 0.75, r * 0.7, "#9E9E9E")] if icon_name else [
                Circle(cx, cy, r, DASHED)]
    ink = readable_ink(color)
    out: list[Element] = [Circle(cx, cy, r, Style(fill="#FFFFFF")), Circle(cx, cy, r - 0.5, Style(fill=color))]
    out.append(ctx.text(field, str(value), cx - r, cy - r * 0.85, 2 * r, r * 1.25, font="Lato-Black", size=11,
                        min_size=6, color=ink, align="center", valign="middle"))
    out.append(ctx.text(field, label, cx - r, cy + r * 0.25, 2 * r, r * 0.7, font="Lato-Bold", size=6, min_size=6,
                        color=ink, align="center", valign="middle"))
    return out


def resource_badges(ctx: FaceContext, resources, x, y, w, h) -> list[Element]:
    """Resource symbols centred in a strip: coloured disc, icon and number."""
    if is_unspecified(resources):
        out = [Rect(x, y, w, h, DASHED, radius=1.5)]
        if w >= 40:  # a counter's strip is too narrow for the label: its faint icons say enough
            out.append(ctx.text("resources", "write in: resource symbols", x + 1.5, y + 0.5, w - 3, 3.2,
                                font="Lato-Italic", size=6, min_size=6, color="#555555"))
        size = min(h - 4.5 if w >= 40 else h * 0.6, (w - 7.5) / 4)
        for i, (name, color) in enumerate(RESOURCES.values()):
            out.append(ctx.icon(name, x + w - (4 - i) * (size + 1.5), y + h - size - 0.8, size,
                                mix(color, "#FFFFFF", 0.55)))
        return out
    out: list[Element] = []
    if not resources:
        return out
    gap = 2.0
    badge = min(h, 10.0, (w - gap * (len(resources) - 1)) / (1.8 * len(resources)))  # narrow counters shrink them
    pill = badge * 1.8
    total = len(resources) * pill + (len(resources) - 1) * gap
    bx = x + (w - total) / 2
    by = y + (h - badge) / 2
    for res in resources:
        name, color = RESOURCES[res.kind]
        ink = readable_ink(color)  # dark on the energy orange, white on the others
        out += [Rect(bx, by, pill, badge, Style(fill=color), radius=badge / 2),
                ctx.icon(name, bx + badge * 0.18, by + badge * 0.15, badge * 0.7, ink, color),
                ctx.text("resources", str(res.value), bx + badge * 0.85, by, pill - badge * 0.95, badge,
                         font="Lato-Black", size=13, min_size=7, color=ink, align="center", valign="middle")]
        bx += pill + gap
    return out


def _tag_chips(ctx: FaceContext, tags, x, y, w, h, color) -> list[Element]:
    if is_unspecified(tags):
        return _write_line(ctx, "write in: when it is played", x + w * 0.15, y, w * 0.7, h, "#555555")
    out: list[Element] = []
    if not tags:
        return out
    chip_w = min(20.0, (w - 1.5 * (len(tags) - 1)) / len(tags))
    cx = x + (w - (chip_w * len(tags) + 1.5 * (len(tags) - 1))) / 2
    for tag in tags:
        out.append(Rect(cx, y, chip_w, h, Style(fill=color), radius=h / 2))
        out.append(ctx.text("tags", tag.upper(), cx + 1, y, chip_w - 2, h, font="Lato-Black", size=6, min_size=6,
                            color=readable_ink(color), align="center", valign="middle"))
        cx += chip_w + 1.5
    return out


@layout("handful_card", HandfulCardParams)
def handful_card(ctx: FaceContext, p: HandfulCardParams) -> list[Element]:
    w, h = ctx.width, ctx.height
    frame = resolve(p.color)
    ink = readable_ink(frame)
    inset = 3.0
    title_h = 11.0
    out: list[Element] = [ctx.background(frame)]
    # title band, with room for the cost and VP discs
    side = title_h * 0.95 if (p.cost is not None or p.vp is not None) else 1.5
    tx, tw = inset + side, w - 2 * (inset + side)
    if is_unspecified(p.title):
        out += [Rect(tx, inset + 1.5, tw, title_h - 3, Style(fill=mix(frame, "#FFFFFF", 0.85), stroke=ink,
                                                             stroke_width=0.25, dash=(1.2, 0.8)), radius=1),
                ctx.text("title", "write in: card name", tx + 1, inset + 1.7, tw - 2, 3.2, font="Lato-Italic", size=6,
                         min_size=6, color=mix(frame, "#000000", 0.5))]
    else:
        out.append(ctx.text("title", p.title, tx, inset, tw, title_h, font="Lato-Black", size=11, min_size=7,
                            color=ink, align="center", valign="middle", max_lines=2))
    panel_top = inset + title_h
    out.append(Rect(inset, panel_top, w - 2 * inset, h - panel_top - inset, Style(fill="#FFFFFF"), radius=2))
    ax, aw = inset + 2, w - 2 * inset - 4
    art_h = h * 0.2
    ay = panel_top + 2
    out.append(Rect(ax, ay, aw, art_h, Style(fill=mix(frame, "#FFFFFF", 0.85)), radius=1.5))
    if p.icon:
        size = art_h * 0.8
        out.append(ctx.icon(p.icon, ax + (aw - size) / 2, ay + (art_h - size) / 2, size, frame,
                            mix(frame, "#FFFFFF", 0.85)))
    if ctx.color is not None:
        out.extend(ctx.player_mark(ax + 1.5, ay + 1.5, 7))
    y = ay + art_h + 1.5
    tags_h = 4.2
    out.extend(_tag_chips(ctx, p.tags, ax, y, aw, tags_h, mix(frame, "#000000", 0.2)))
    if p.tags:
        y += tags_h + 1.2
    footer_h = 4.0
    bottom = h - inset - footer_h - 0.5
    res_h = 11.0 if p.resources else 0.0
    items_h = 0.0
    if p.items:
        items_h = 5.2 * len(p.items) + (4.5 if p.items_title else 0)
    text_bottom = bottom - res_h - (1 if res_h else 0) - items_h
    if is_unspecified(p.text):
        out.extend(ctx.write_in("effect (not given in the rulebook)", ax, y, aw, text_bottom - y))
    elif p.text:
        out.append(ctx.text("text", p.text, ax + 0.5, y, aw - 1, text_bottom - y, size=8, min_size=6,
                            color="#1A1A1A", align="center", valign="middle"))
    iy = text_bottom
    if p.items and p.items_title:
        out.append(ctx.text("items_title", p.items_title.upper(), ax, iy, aw, 4.2, font="Lato-Black", size=6.5,
                            min_size=6, color=mix(frame, "#000000", 0.2), valign="middle"))
        iy += 4.5
    for i, entry in enumerate(p.items):
        if is_unspecified(entry):
            out.extend(_write_line(ctx, "write in: ability card", ax + 4, iy + 0.4, aw - 8, 4.6, "#555555"))
        else:
            out.append(Circle(ax + 5, iy + 2.7, 0.9, Style(fill=frame)))
            out.append(ctx.text(f"items[{i}]", entry, ax + 7, iy + 0.2, aw - 9, 5, font="Lato-Bold", size=7.5,
                                min_size=6, color="#1A1A1A", valign="middle"))
        iy += 5.2
    if res_h:
        out.extend(resource_badges(ctx, p.resources, ax, bottom - res_h, aw, res_h))
    footer = p.kind.upper() + (f" · {p.footer}" if p.footer else "")
    out.append(ctx.text("footer", footer, ax, h - inset - footer_h, aw, footer_h, font="Lato-Bold", size=6,
                        min_size=6, color=mix(frame, "#000000", 0.3), align="center", valign="middle"))
    disc_r = title_h * 0.43
    if p.cost is not None:
        out.extend(_disc(ctx, "cost", p.cost, inset + disc_r + 0.3, inset + title_h / 2, disc_r,
                         RESOURCES["research"][1], "science", "cost"))
    if p.vp is not None:
        out.extend(_disc(ctx, "vp", p.vp, w - inset - disc_r - 0.3, inset + title_h / 2, disc_r, "#F9A825",
                         "victory", "VP"))
    return out


class SystemTileParams(FaceParams):
    layout: Literal["handful_tile"] = "handful_tile"
    system: str = Field(description="the system's name")
    habitable: bool
    strength: int | str | None = Field(None, description="combat strength of a neutral habitable system")
    black_hole: Literal["A", "B", "C", "D", "E", "F"] | None = Field(
        None, description="compass letter of the lane from this tile's location that gets a black hole")
    wormhole: bool = False


GREEN, RED = "#2E7D32", "#C62828"


@layout("handful_tile", SystemTileParams)
def handful_tile(ctx: FaceContext, p: SystemTileParams) -> list[Element]:
    """A round system tile: green rim and Population symbol when habitable, red rim when not."""
    w, h = ctx.width, ctx.height
    r = min(w, h) / 2
    cx, cy = w / 2, h / 2
    rim = GREEN if p.habitable else RED
    out: list[Element] = [ctx.background("#101A33"), Circle(cx, cy, r * 0.9, Style(stroke=rim, stroke_width=r * 0.1))]
    out.append(ctx.icon("hs_system", cx - r * 0.3, cy - r * 0.72, r * 0.6, "#3F51B5", "#101A33"))
    out.append(ctx.text("system", p.system, cx - r * 0.7, cy - r * 0.12, r * 1.4, r * 0.36, font="Lato-Black", size=9,
                        min_size=6, color="#FFFFFF", align="center", valign="middle"))
    row = cy + r * 0.3
    s = r * 0.36
    spots: list = []
    if p.habitable:
        spots.append("population")
    if p.strength is not None:
        spots.append("strength")
    if p.black_hole:
        spots.append("black_hole")
    if p.wormhole:
        spots.append("wormhole")
    gap = s * 0.25
    x = cx - (len(spots) * s + (len(spots) - 1) * gap) / 2
    for spot in spots:
        if spot == "population":
            out += [Circle(x + s / 2, row + s / 2, s / 2, Style(fill=GREEN)),
                    ctx.icon("hs_population", x + s * 0.15, row + s * 0.15, s * 0.7, "#FFFFFF", GREEN)]
        elif spot == "strength":
            if is_unspecified(p.strength):
                out += [Circle(x + s / 2, row + s / 2, s / 2, DASHED),
                        ctx.icon("hs_combat", x + s * 0.25, row + s * 0.25, s * 0.5, "#CFD8DC")]
            else:  # crossed swords over the number: a defence strength, never read as an amount of Population
                out += [Circle(x + s / 2, row + s / 2, s / 2, Style(fill="#FFFFFF", stroke="#B71C1C", stroke_width=0.5)),
                        ctx.icon("hs_combat", x + s * 0.32, row + s * 0.08, s * 0.36, "#B71C1C"),
                        ctx.text("strength", str(p.strength), x, row + s * 0.38, s, s * 0.55, font="Lato-Black",
                                 size=7.5, min_size=6, color="#1A1A1A", align="center", valign="middle")]
        elif spot == "black_hole":
            out += [Circle(x + s / 2, row + s / 2, s / 2, Style(fill="#000000", stroke="#FFFFFF", stroke_width=0.3)),
                    ctx.text("black_hole", p.black_hole, x, row, s, s, font="Lato-Black", size=9, min_size=6,
                             color="#FFFFFF", align="center", valign="middle")]
        else:
            out.append(ctx.icon("wormhole", x, row, s, "#B39DDB", "#101A33"))
        x += s + gap
    out.append(Line(cx - r * 0.5, cy + r * 0.24, cx + r * 0.5, cy + r * 0.24, Style(stroke=rim, stroke_width=0.3)))
    out.append(ctx.outline())
    return out


class CounterParams(FaceParams):
    layout: Literal["handful_counter"] = "handful_counter"
    title: str
    icon: IconName | None = None
    color: Color = "#37474F"
    value: int | str | None = Field(None, description="a number in a disc; 'unspecified' = write-in ring")
    vp: int | str | None = Field(None, description="victory points in a gold disc; 'unspecified' = write-in ring")
    resources: list[Resource] | str = Field([], description="resource symbols, or 'unspecified'")
    text: str = Field("", description="'unspecified' prints a write-in box for the counter's face")


@layout("handful_counter", CounterParams)
def handful_counter(ctx: FaceContext, p: CounterParams) -> list[Element]:
    """A small counter's revealed face: icon and title above, the value or a write-in spot below."""
    w, h = ctx.width, ctx.height
    side = min(w, h)
    bg = resolve(p.color)
    ink = readable_ink(bg)
    out: list[Element] = [ctx.background(bg)]
    icon_s = side * 0.26
    if p.icon:
        out.append(ctx.icon(p.icon, (w - icon_s) / 2, side * 0.08, icon_s, mix(bg, ink, 0.6), bg))
    out.append(ctx.text("title", p.title, w * 0.12, side * 0.33, w * 0.76, side * 0.16, font="Lato-Black", size=7,
                        min_size=6, color=ink, align="center", valign="middle"))
    spot_y, spot_h = side * 0.52, side * 0.4
    r = spot_h / 2
    if is_unspecified(p.value):
        out.append(Circle(w / 2, spot_y + r, r, DASHED))
    elif p.value is not None:
        out += [Circle(w / 2, spot_y + r, r, Style(fill="#FFFFFF")),
                ctx.text("value", str(p.value), w / 2 - r, spot_y, 2 * r, 2 * r, font="Lato-Black", size=10,
                         min_size=6, color="#1A1A1A", align="center", valign="middle")]
    if p.vp is not None:
        out.extend(_disc(ctx, "vp", p.vp, w / 2, spot_y + r, r, "#F9A825", "victory", "VP"))
    if p.resources:
        out.extend(resource_badges(ctx, p.resources, w * 0.06, spot_y, w * 0.88, spot_h))
    if is_unspecified(p.text):
        bw = side * (0.62 if ctx.shape == "round" else 0.8)
        out.append(Rect((w - bw) / 2, spot_y, bw, spot_h * 0.9, DASHED, radius=1))
    elif p.text:
        out.append(ctx.text("text", p.text, w * 0.1, spot_y, w * 0.8, spot_h, size=6, min_size=6, color=ink,
                            align="center", valign="middle"))
    if ctx.shape != "rect":
        out.append(ctx.outline())
    return out


class PieceParams(FaceParams):
    layout: Literal["handful_piece"] = "handful_piece"
    icon: IconName
    label: str = ""
    value: int | None = Field(None, description="combat strength, in a disc")


@layout("handful_piece", PieceParams)
def handful_piece(ctx: FaceContext, p: PieceParams) -> list[Element]:
    """A player's piece: its colour, one icon, and the colour's shape so it reads in greyscale."""
    w, h = ctx.width, ctx.height
    side = min(w, h)
    bg = ctx.color.hex if ctx.color else "#9E9E9E"
    ink = readable_ink(bg)
    round_piece = ctx.shape == "round"
    out: list[Element] = [ctx.background(bg)]
    icon_s = side * (0.42 if p.label else 0.5)
    icon_y = side * (0.16 if p.label else 0.14)
    out.append(ctx.icon(p.icon, (w - icon_s) / 2, icon_y, icon_s, ink, bg))
    if p.label:
        out.append(ctx.text("label", p.label, w * 0.12, icon_y + icon_s, w * 0.76, side * 0.2, font="Lato-Black",
                            size=7, min_size=6, color=ink, align="center", valign="middle"))
    mark = side * (0.3 if side < 15 else 0.26)
    mx, my = ((w - mark) / 2, h - mark - side * 0.06) if round_piece else (side * 0.06, h - mark - side * 0.06)
    if not p.label:
        out.extend(ctx.player_mark(mx, my, mark))
    else:
        out.extend(ctx.player_mark(side * 0.06, side * 0.06, mark))
    if p.value is not None:
        r = side * 0.15
        cx, cy = w - r - side * 0.06, r + side * 0.06
        out += [Circle(cx, cy, r, Style(fill="#FFFFFF", stroke="#1A1A1A", stroke_width=0.2)),
                ctx.text("value", str(p.value), cx - r, cy - r, 2 * r, 2 * r, font="Lato-Black", size=7, min_size=6,
                         color="#1A1A1A", align="center", valign="middle")]
    if round_piece:
        out.append(ctx.outline())
    else:
        out.append(Rect(side * 0.03, side * 0.03, w - side * 0.06, h - side * 0.06,
                        Style(stroke=mix(bg, ink, 0.5), stroke_width=0.2), radius=0.8))
    return out
