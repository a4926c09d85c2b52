"""The A Handful of Stars board: the shared board regions plus a star map of system locations sized to
the round system tiles, their connections, and card spaces cut to the cards' own size.

Black holes land at random each game: every lane end is lettered by its compass direction (A-F, see
LANE_LETTERS), and a black-hole tile sends its disc along its *own* location's lane with that letter.
Since the tiles are shuffled onto the locations, the lanes that get black holes change from game to game.
"""
from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from ..model import CARD_SIZES
from ..palette import Color, resolve
from ..scene import Circle, Element, Line, Rect, Style
from . import layout
from .base import FaceContext, IconName, mix, readable_ink
from .board import BoardParams, board

LANE_LETTERS = "ABCDEF"  # clockwise from north-east, 60 degrees apart: A NE, B E, C SE, D SW, E W, F NW
CARD_MARGIN = 1.0  # a card space is this much wider and taller than the card, so the card lies inside it
TITLE_H = 7.0


def lane_letter(x: float, y: float, to_x: float, to_y: float) -> str:
    """The compass letter of the lane leaving (x, y) towards (to_x, to_y); y grows downwards (mm on the page)."""
    angle = math.degrees(math.atan2(y - to_y, to_x - x))  # 0 = east, counter-clockwise
    return LANE_LETTERS[round(((60 - angle) % 360) / 60) % 6]


class System(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    id: str
    x: float
    y: float


class Connection(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    a: str
    b: str


class CardSpace(BaseModel):
    """A box with room for `slots` cards side by side, each slot the card's size plus CARD_MARGIN."""
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    x: float
    y: float
    w: float = Field(gt=0)
    title: str
    slots: int = Field(1, ge=1)
    card: Literal["poker", "bridge", "mini", "tarot"] = "poker"
    landscape: bool = Field(False, description="the card lies on its long side")
    icon: IconName | None = None
    color: Color = "#E0F2F1"

    @property
    def slot_size(self) -> tuple[float, float]:
        w, h = CARD_SIZES[self.card]
        w, h = (h, w) if self.landscape else (w, h)
        return w + CARD_MARGIN, h + CARD_MARGIN

    @property
    def h(self) -> float:
        return TITLE_H + self.slot_size[1] + 2.5

    def slot_rects(self) -> list[tuple[float, float, float, float]]:
        """(x, y, w, h) of each card slot, centred in the box under its title."""
        sw, sh = self.slot_size
        gap = 1.5
        x0 = self.x + (self.w - (self.slots * sw + (self.slots - 1) * gap)) / 2
        return [(x0 + i * (sw + gap), self.y + TITLE_H, sw, sh) for i in range(self.slots)]

    @model_validator(mode="after")
    def _cards_fit(self):
        sw = self.slot_size[0]
        need = self.slots * sw + (self.slots - 1) * 1.5 + 2
        if need > self.w:
            raise ValueError(f"{self.slots} {self.card} card spaces need a box {need:g} mm wide, not {self.w:g}")
        return self


class HandfulBoardParams(BoardParams):
    layout: Literal["handful_board"] = "handful_board"
    tile_d: float = Field(38, gt=0, description="system tile diameter in mm; locations are drawn a bit larger")
    systems: list[System] = []
    connections: list[Connection] = []
    card_spaces: list[CardSpace] = []
    compass: tuple[float, float] | None = Field(None, description="centre of the lane-letter compass rose, mm")

    @field_validator("systems")
    @classmethod
    def _unique_ids(cls, systems: list[System]) -> list[System]:
        if len({s.id for s in systems}) != len(systems):
            raise ValueError("duplicate system id")
        return systems

    @field_validator("connections")
    @classmethod
    def _links_known(cls, connections: list[Connection], info: ValidationInfo) -> list[Connection]:
        """Each connection joins two known systems, and no system has two lanes in one compass direction
        (a black-hole letter must name one lane)."""
        if "systems" not in info.data:  # the systems themselves are wrong: that error says enough
            return connections
        by_id = {s.id: s for s in info.data["systems"]}
        ends: set[tuple[str, str]] = set()
        for c in connections:
            for end in (c.a, c.b):
                if end not in by_id:
                    raise ValueError(f"no system with id {end!r}")
            for a, b in ((c.a, c.b), (c.b, c.a)):
                letter = lane_letter(by_id[a].x, by_id[a].y, by_id[b].x, by_id[b].y)
                if (a, letter) in ends:
                    raise ValueError(f"system {a!r} has two lanes towards {letter}; move one so each direction "
                                     f"holds one lane")
                ends.add((a, letter))
        return connections


def _card_space(ctx: FaceContext, space: CardSpace) -> list[Element]:
    fill = resolve(space.color)
    ink = readable_ink(fill)
    out: list[Element] = [Rect(space.x, space.y, space.w, space.h, Style(fill=fill, stroke="#1A1A1A", stroke_width=0.4),
                               radius=1.5),
                          ctx.text("card_spaces.title", space.title, space.x + 2, space.y + 0.8, space.w - 12, 5.5,
                                   font="Lato-Black", size=9, min_size=6, color=ink, valign="middle")]
    if space.icon:
        out.append(ctx.icon(space.icon, space.x + space.w - 8, space.y + 0.5, 6, ink, fill))
    dashed = Style(fill=mix(fill, "#FFFFFF", 0.5), stroke=mix(fill, ink, 0.5), stroke_width=0.3, dash=(1.5, 1))
    out += [Rect(x, y, w, h, dashed, radius=1.5) for x, y, w, h in space.slot_rects()]
    return out


def _compass(ctx: FaceContext, cx: float, cy: float) -> list[Element]:
    """Six spokes with their letters: which way a lane letter points."""
    out: list[Element] = [Circle(cx, cy, 3, Style(fill="#FFFFFF"))]
    for i, letter in enumerate(LANE_LETTERS):
        angle = math.radians(60 - 60 * i)
        x, y = cx + 13 * math.cos(angle), cy - 13 * math.sin(angle)
        out += [Line(cx + 3 * math.cos(angle), cy - 3 * math.sin(angle), x, y, Style(stroke="#FFFFFF", stroke_width=0.6)),
                Circle(x, y, 2.6, Style(fill="#FFFFFF", stroke="#000000", stroke_width=0.4)),
                ctx.text("compass", letter, x - 2.6, y - 2.6, 5.2, 5.2, font="Lato-Black", size=8, min_size=6,
                         color="#000000", align="center", valign="middle")]
    return out


@layout("handful_board", HandfulBoardParams)
def handful_board(ctx: FaceContext, p: HandfulBoardParams) -> list[Element]:
    out = board(ctx, p)
    for space in p.card_spaces:
        out.extend(_card_space(ctx, space))
    by_id = {s.id: s for s in p.systems}
    r = p.tile_d / 2 + 1.5
    lane = Style(stroke="#7986CB", stroke_width=2.2)
    for c in p.connections:
        a, b = by_id[c.a], by_id[c.b]
        out.append(Line(a.x, a.y, b.x, b.y, lane))
    badge = Style(fill="#FFFFFF", stroke="#000000", stroke_width=0.4)
    for c in p.connections:  # each lane end carries its direction letter, seen from that end's location
        for a, b in ((by_id[c.a], by_id[c.b]), (by_id[c.b], by_id[c.a])):
            length = math.hypot(b.x - a.x, b.y - a.y)
            x = a.x + (b.x - a.x) * (r + 2.6) / length
            y = a.y + (b.y - a.y) * (r + 2.6) / length
            out += [Circle(x, y, 2.2, badge),
                    ctx.text("connections.letter", lane_letter(a.x, a.y, b.x, b.y), x - 2.2, y - 2.2, 4.4, 4.4,
                             font="Lato-Black", size=7, min_size=6, color="#000000", align="center", valign="middle")]
    for s in p.systems:
        out += [Circle(s.x, s.y, r, Style(fill="#101A33", stroke="#FFFFFF", stroke_width=0.8)),
                Circle(s.x, s.y, r - 1.6, Style(stroke="#5C6BC0", stroke_width=0.3, dash=(1.5, 1))),
                ctx.text("systems.id", s.id, s.x - 5, s.y + r - 8, 10, 5, font="Lato-Bold", size=7, min_size=6,
                         color="#9FA8DA", align="center", valign="middle")]
    if p.compass:
        out.extend(_compass(ctx, *p.compass))
    return out
