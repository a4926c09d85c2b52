"""The A Handful of Stars board: the shared board regions plus a star map of system locations
sized to the round system tiles, their connections, and the lettered connections that black holes
are moved to during set-up."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..scene import Circle, Element, Line, Style
from . import layout
from .base import FaceContext
from .board import BoardParams, board


class System(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    id: str
    x: float
    y: float


class Connection(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    a: str
    b: str
    letter: str | None = Field(None, description="a black hole placed on a tile with this letter goes here")


class HandfulBoardParams(BoardParams):
    layout: Literal["handful_board"] = "handful_board"
    tile_d: float = Field(38, gt=0, description="system tile diameter in mm; locations are drawn a bit larger")
    systems: list[System] = []
    connections: list[Connection] = []

    @model_validator(mode="after")
    def _links_known(self):
        ids = {s.id for s in self.systems}
        if len(ids) != len(self.systems):
            raise ValueError("systems: duplicate id")
        for c in self.connections:
            for end in (c.a, c.b):
                if end not in ids:
                    raise ValueError(f"connections: no system with id {end!r}")
        letters = [c.letter for c in self.connections if c.letter]
        if len(set(letters)) != len(letters):
            raise ValueError("connections: a black-hole letter is used twice")
        return self


@layout("handful_board", HandfulBoardParams)
def handful_board(ctx: FaceContext, p: HandfulBoardParams) -> list[Element]:
    out = board(ctx, p)
    by_id = {s.id: s for s in p.systems}
    r = p.tile_d / 2 + 1.5
    lane = Style(stroke="#7986CB", stroke_width=2.2)
    for c in p.connections:
        a, b = by_id[c.a], by_id[c.b]
        out.append(Line(a.x, a.y, b.x, b.y, lane))
    for c in p.connections:
        if not c.letter:
            continue
        a, b = by_id[c.a], by_id[c.b]
        mx, my = (a.x + b.x) / 2, (a.y + b.y) / 2
        out += [Circle(mx, my, 4.2, Style(fill="#FFFFFF", stroke="#000000", stroke_width=0.9)),
                ctx.text("connections.letter", c.letter, mx - 4, my - 4, 8, 8, font="Lato-Black", size=10,
                         min_size=6, color="#000000", align="center", valign="middle")]
    for s in p.systems:
        out += [Circle(s.x, s.y, r, Style(fill="#101A33", stroke="#FFFFFF", stroke_width=0.8)),
                Circle(s.x, s.y, r - 1.6, Style(stroke="#5C6BC0", stroke_width=0.3, dash=(1.5, 1))),
                ctx.text("systems.id", s.id, s.x - 5, s.y + r - 8, 10, 5, font="Lato-Bold", size=7, min_size=6,
                         color="#9FA8DA", align="center", valign="middle")]
    return out
