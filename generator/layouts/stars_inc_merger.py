"""The Stars, Inc. merger chart: what any two star types become, as a half matrix of icons, with the
three merge prices above it and the rules every merger shares below. A pair the rulebook does not settle
prints a write-in cell."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from ..palette import Color, resolve
from ..scene import Element, Rect, Style
from ..model import is_unspecified
from . import layout
from .base import FaceContext, FaceParams, IconName, mix, readable_ink
from .board import Region
from .stars_inc_common import check_amount, draw_amount


class StarType(Region):
    name: str
    icon: IconName


class Outcome(Region):
    pair: tuple[str, str]
    icon: IconName | None = None
    text: str = Field(description="what the merger makes, or 'unspecified'")


class Price(Region):
    label: str
    cost: str

    _cost = field_validator("cost")(lambda cls, v: check_amount(v))


class MergerParams(FaceParams):
    layout: Literal["stars_inc_merger"] = "stars_inc_merger"
    title: str
    color: Color = "#283593"
    icon: IconName | None = None
    prices: list[Price] = []
    types: list[StarType] = Field(min_length=2, description="lightest first")
    outcomes: list[Outcome]
    notes: list[str] = []

    @model_validator(mode="after")
    def _every_pair_once(self):
        names = [t.name for t in self.types]
        seen = {frozenset(o.pair) for o in self.outcomes}
        for o in self.outcomes:
            if not set(o.pair) <= set(names):
                raise ValueError(f"outcome {list(o.pair)}: not among the types {names}")
        missing = [f"{a} + {b}" for i, a in enumerate(names) for b in names[i:] if frozenset((a, b)) not in seen]
        if missing:
            raise ValueError(f"no outcome for {', '.join(missing)}")
        return self


@layout("stars_inc_merger", MergerParams)
def merger(ctx: FaceContext, p: MergerParams) -> list[Element]:
    w, h = ctx.width, ctx.height
    frame = resolve(p.color)
    ink = readable_ink(frame)
    inset, title_h = 3.0, 10.0
    out: list[Element] = [ctx.background(frame)]
    out.append(ctx.text("title", p.title, inset + 2, inset, w - 2 * inset - 4, title_h, font="Lato-Black", size=12,
                        min_size=7, color=ink, align="center", valign="middle"))
    if p.icon:
        out.append(ctx.icon(p.icon, w - inset - title_h + 1, inset + 1, title_h - 2, ink, frame))
    top = inset + title_h
    out.append(Rect(inset, top, w - 2 * inset, h - top - inset, Style(fill="#FFFFFF"), radius=2))
    x0, inner = inset + 2, w - 2 * inset - 4
    y = top + 2
    # prices: one column each
    if p.prices:
        each = inner / len(p.prices)
        for i, price in enumerate(p.prices):
            px = x0 + i * each
            out.append(Rect(px + 0.5, y, each - 1, 12, Style(fill=mix(frame, "#FFFFFF", 0.88)), radius=1.5))
            out.append(ctx.text("prices.label", price.label, px + 1, y + 0.3, each - 2, 5, font="Lato-Bold", size=6.5,
                                min_size=6, color="#1A1A1A", align="center", valign="middle"))
            out.extend(draw_amount(ctx, "prices.cost", price.cost, px + each / 2, y + 5.5, 5.5, "#1A1A1A", "center"))
        y += 14
    # the half matrix: heavier types to the right and further down
    n = len(p.types)
    head = 13.0
    cell = (inner - head) / n
    by_pair = {frozenset(o.pair): o for o in p.outcomes}
    tint = mix(frame, "#FFFFFF", 0.88)
    for i, t in enumerate(p.types):
        cx, ry = x0 + head + i * cell, y + head + i * cell
        out.append(ctx.icon(t.icon, cx + (cell - 6) / 2, y, 6, frame))
        out.append(ctx.text("types.name", t.name, cx, y + 6.3, cell, head - 6.5, font="Lato-Bold", size=6.5,
                            min_size=6, color="#1A1A1A", align="center", valign="middle", max_lines=2))
        out.append(ctx.icon(t.icon, x0, ry + 1, 5, frame))
        out.append(ctx.text("types.name", t.name, x0, ry + 6.3, head - 0.5, cell - 6.5, font="Lato-Bold", size=6.5,
                            min_size=6, color="#1A1A1A", valign="top", max_lines=2))
    for row, a in enumerate(p.types):
        for col, b in enumerate(p.types[row:], row):
            o = by_pair[frozenset((a.name, b.name))]
            cx, cy = x0 + head + col * cell, y + head + row * cell
            if is_unspecified(o.text):
                out.extend(ctx.write_in("rule", cx + 0.4, cy + 0.4, cell - 0.8, cell - 0.8))
                continue
            out.append(Rect(cx + 0.4, cy + 0.4, cell - 0.8, cell - 0.8, Style(fill=tint, stroke=frame,
                                                                           stroke_width=0.3), radius=1.5))
            text_top = cy + 1.5
            if o.icon:
                out.append(ctx.icon(o.icon, cx + (cell - 7) / 2, cy + 1.5, 7, frame, tint))
                text_top += 7.5
            out.append(ctx.text("outcomes.text", o.text, cx + 0.8, text_top, cell - 1.6, cy + cell - text_top - 0.8,
                                font="Lato-Bold", size=6.5, min_size=6, color="#1A1A1A", align="center",
                                valign="middle"))
    y += head + n * cell + 2
    if p.notes:
        row_h = (h - inset - 1.5 - y) / len(p.notes)
        for i, note in enumerate(p.notes):
            ny = y + i * row_h
            out.append(Rect(x0, ny + row_h / 2 - 0.8, 1.6, 1.6, Style(fill=frame)))
            if is_unspecified(note):
                out.extend(ctx.write_in("rule", x0 + 3, ny + 0.3, inner - 3, row_h - 0.6))
                continue
            out.append(ctx.text(f"notes[{i}]", note, x0 + 3, ny, inner - 3, row_h, size=7, min_size=6,
                                color="#1A1A1A", valign="middle"))
    return out
