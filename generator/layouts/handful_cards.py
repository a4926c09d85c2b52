"""A Handful of Stars faces: deck cards (cost, VP, timing, effect, resource symbols) and system tiles.

Every value the rulebook does not give may be `unspecified`; it then prints a tidy dashed spot to
write in, so one layout serves the known cards and the ones a player completes by hand.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..palette import Color, resolve
from ..scene import Circle, Element, Rect, Style
from ..model import is_unspecified
from . import layout
from .base import FaceContext, FaceParams, IconName, mix, readable_ink

RESOURCES = {  # icon, colour
    "energy": ("hs_energy", "#EF6C00"),
    "matter": ("matter", "#5D4037"),
    "population": ("hs_population", "#2E7D32"),
    "research": ("science", "#1565C0"),
}
DASHED = Style(fill="#FFFFFF", stroke="#555555", stroke_width=0.25, dash=(1.2, 0.8))


class Resource(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    kind: Literal["energy", "matter", "population", "research"]
    value: int = Field(ge=1)


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
