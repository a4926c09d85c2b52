"""The Stars, Inc. game board: one evolution track per star type and the 0–9 score track.

Every track space holds four standees on their folded feet, with room for a planet ring round each (the
slots are drawn ring-sized when the board knows the ring's diameter), and says what a star there yields at
harvest and how many stars it may hold. The generic board regions (boxes, text) still work
for everything else on the board.
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from ..palette import Color, resolve
from ..scene import Circle, Element, Group, Polygon, Rect, Style
from . import layout
from .base import FaceContext, IconName, mix, readable_ink
from .board import BoardParams, Region, board
from .stars_inc_common import check_amount, draw_amount

FOOT = 19.0  # a standee's folded foot is about this square, in mm
SCORE_GAP = 6.0  # mm between the two halves of a split score track


class TrackSpace(Region):
    stage: str = Field(description="the stage of life, e.g. Main sequence")
    icon: IconName | None = None
    yields: str = Field("", description="harvest from a star here, e.g. '3 He' or '1 He + 1 C'")
    note: str = Field("", description="one short line under the yield")
    color: Color | None = None
    _yields = field_validator("yields")(lambda cls, v: check_amount(v))


class TrackEnd(Region):
    title: str
    text: str = ""
    icon: IconName | None = None
    yields: str = ""
    _yields = field_validator("yields")(lambda cls, v: check_amount(v))


class EvolutionTrack(Region):
    title: str
    x: float
    y: float
    icon: str | None = None
    color: Color = "#1565C0"
    cost: str = Field("", description="what making a star here costs, e.g. '7 H'")
    capacity: str | None = Field(None, description="printed on every space, e.g. 'N stars'; none: no limit")
    rule: str = Field("", description="the capacity rule in the name panel")
    no_limit_text: str = "no limit"
    space_w: float = Field(52, gt=FOOT)
    space_h: float = Field(64, gt=FOOT)
    head_w: float = Field(58, gt=0, description="width of the track's name panel")
    spaces: list[TrackSpace] = Field(min_length=1)
    end: TrackEnd | None = Field(None, description="where a star goes off the end of the track")

    _cost = field_validator("cost")(lambda cls, v: check_amount(v))


class ScoreTrack(Region):
    x: float
    y: float
    title: str = "Score"
    cells: int = Field(10, ge=1)
    cell_w: float = Field(42, gt=FOOT)
    cell_h: float = Field(44, gt=FOOT)
    color: Color = "#FFF8E1"
    note: str = ""
    gap_after: int | None = Field(None, ge=0, description="a 6 mm gap after this cell: a lane where a board "
                                                          "seam can fall between the cells")

    def cell_x(self, i: int) -> float:
        return self.x + i * self.cell_w + (SCORE_GAP if self.gap_after is not None and i > self.gap_after else 0)

    @property
    def width(self) -> float:
        return self.cell_x(self.cells - 1) + self.cell_w - self.x


class StarsIncBoardParams(BoardParams):
    layout: Literal["stars_inc_board"] = "stars_inc_board"
    tracks: list[EvolutionTrack] = []
    score: ScoreTrack | None = None
    ring: float = Field(0, ge=0, description="planet ring diameter in mm: track spaces then draw four ring-sized "
                                             "slots, so four ringed stars stand in one space; 0: foot squares")


def _footprints(x: float, y: float, w: float, h: float, n: int, ink: str) -> list[Element]:
    """n dashed squares where standee feet stand, in a 2-wide grid centred in the box."""
    cols = min(2, n)
    rows = -(-n // cols)
    gap = 2.0
    size = min(FOOT, (w - gap * (cols + 1)) / cols, (h - gap * (rows + 1)) / rows)
    x0 = x + (w - cols * size - (cols - 1) * gap) / 2
    y0 = y + (h - rows * size - (rows - 1) * gap) / 2
    style = Style(stroke=ink, stroke_width=0.3, dash=(1.2, 0.9))
    return [Rect(x0 + (i % cols) * (size + gap), y0 + (i // cols) * (size + gap), size, size, style, radius=1.5)
            for i in range(n)]


def _ring_slots(ctx: FaceContext, x: float, y: float, w: float, h: float, ring: float,
                ink: str) -> list[Element]:
    """Four dashed circles as wide as a planet ring, two by two and evenly spread in the box: four stars
    with rings round their feet stand in one space without their rings riding on each other."""
    gap_x, gap_y = (w - 2 * ring) / 3, (h - 2 * ring) / 3
    if min(gap_x, gap_y) < 0:
        ctx.warn(f"tracks: a {w:g} x {h:g} mm slot area cannot hold four {ring:g} mm planet rings")
    style = Style(stroke=ink, stroke_width=0.3, dash=(1.2, 0.9))
    out: list[Element] = []
    for row in range(2):
        for col in range(2):
            cx = x + gap_x + ring / 2 + col * (ring + gap_x)
            cy = y + gap_y + ring / 2 + row * (ring + gap_y)
            out.append(Circle(cx, cy, ring / 2, style))
            out.append(Rect(cx - FOOT / 2, cy - FOOT / 2, FOOT, FOOT, Style(stroke=ink, stroke_width=0.15,
                                                                             dash=(0.4, 0.8)), radius=1.5))
    return out


def _arrow(x: float, y: float, size: float, color: str) -> Element:
    """The way stars move on, between two spaces: a link, which a board seam may cut."""
    return Group((Polygon(((x, y - size / 2), (x + size * 0.8, y), (x, y + size / 2)), Style(fill=color)),),
                 link=True)


def _track(ctx: FaceContext, t: EvolutionTrack, ring: float) -> list[Element]:
    color = resolve(t.color)
    ink = readable_ink(color)
    light = mix(color, "#FFFFFF", 0.82)
    out: list[Element] = []
    # name panel: icon, title, cost to make a star here, the capacity rule
    hx, hy, hw, hh = t.x, t.y, t.head_w, t.space_h
    out.append(Rect(hx, hy, hw, hh, Style(fill=color, stroke="#1A1A1A", stroke_width=0.5), radius=3))
    if t.icon:
        out.append(ctx.icon(t.icon, hx + 3, hy + 3, 16, ink, color))
    out.append(ctx.text("tracks.title", t.title, hx + 21, hy + 3, hw - 23, 16, font="Lato-Black", size=15,
                        min_size=8, color=ink, valign="middle", max_lines=2))
    line_y = hy + 23
    if t.cost:
        out.append(ctx.text("tracks.cost", "Make a star", hx + 3, line_y, hw - 6, 5, font="Lato-Bold", size=9,
                            min_size=6, color=ink, valign="middle"))
        out.append(Rect(hx + 3, line_y + 6, hw - 6, 11, Style(fill="#FFFFFF"), radius=2))
        out.extend(draw_amount(ctx, "tracks.cost", t.cost, hx + hw / 2, line_y + 7, 9, "#1A1A1A", "center"))
        line_y += 20
    rule = t.rule or (f"Each space holds at most {t.capacity}." if t.capacity else "Any number of stars.")
    out.append(ctx.text("tracks.capacity", rule, hx + 3, line_y, hw - 6, hy + hh - line_y - 2, font="Lato-Bold",
                        size=9, min_size=6, color=ink, valign="middle"))
    # the spaces, joined by arrows, the first one marked as where new stars start
    x = hx + hw + 6
    for i, s in enumerate(t.spaces):
        fill = resolve(s.color) if s.color else light
        sink = readable_ink(fill)
        out.append(Rect(x, hy, t.space_w, t.space_h, Style(fill=fill, stroke=color, stroke_width=1.2), radius=3))
        band = 9.0
        out.append(Rect(x, hy, t.space_w, band, Style(fill=color), radius=3))
        out.append(Rect(x, hy + band - 3, t.space_w, 3, Style(fill=color)))
        stage = ("START · " if i == 0 else "") + s.stage
        out.append(ctx.text("tracks.spaces.stage", stage, x + 2, hy, t.space_w - 4, band, font="Lato-Black",
                            size=9, min_size=6, color=ink, align="center", valign="middle"))
        if s.icon:
            out.append(ctx.icon(s.icon, x + 2, hy + band + 1.5, 9, color, fill))
        if s.yields:
            out.extend(draw_amount(ctx, "tracks.spaces.yields", s.yields, x + t.space_w - 2, hy + band + 2, 7,
                                   sink, "right"))
        foot_top = hy + band + 11
        if s.note:
            out.append(ctx.text("tracks.spaces.note", s.note, x + 2, foot_top - 1, t.space_w - 4, 4,
                                font="Lato-Bold", size=6.5, min_size=6, color=sink, align="center",
                                valign="middle"))
            foot_top += 3.5
        cap_h = 7.0
        slots = (x, foot_top, t.space_w, hy + t.space_h - cap_h - 1.5 - foot_top)
        out.extend(_ring_slots(ctx, *slots, ring, mix(fill, sink, 0.5)) if ring else
                   _footprints(*slots, 4, mix(fill, sink, 0.5)))
        cap = f"max {t.capacity}" if t.capacity else t.no_limit_text
        out.append(Rect(x + 3, hy + t.space_h - cap_h - 1.5, t.space_w - 6, cap_h - 1,
                        Style(fill="#FFFFFF" if t.capacity else fill, stroke=color, stroke_width=0.4), radius=2.5))
        out.append(ctx.text("tracks.capacity", cap, x + 4, hy + t.space_h - cap_h - 1.5, t.space_w - 8, cap_h - 1,
                            font="Lato-Black", size=8, min_size=6, color="#1A1A1A" if t.capacity else sink,
                            align="center", valign="middle"))
        x += t.space_w
        if i < len(t.spaces) - 1 or t.end:
            out.append(_arrow(x + 1.2, hy + t.space_h / 2, 6, color))
        x += 6
    if t.end:
        out.extend(_end(ctx, t.end, x, hy, t.space_w, t.space_h, color))
    return out


def _end(ctx: FaceContext, e: TrackEnd, x: float, y: float, w: float, h: float, color: str) -> list[Element]:
    """Off the end of a track: a dashed box saying what happens to the star and its owner."""
    out: list[Element] = [Rect(x, y, w, h, Style(fill="#FFFFFF", stroke=color, stroke_width=0.8, dash=(2.5, 1.5)),
                               radius=3)]
    if e.icon:
        out.append(ctx.icon(e.icon, x + w / 2 - 8, y + 3, 16, color))
    out.append(ctx.text("tracks.end.title", e.title, x + 2, y + 20, w - 4, 7, font="Lato-Black", size=10,
                        min_size=6, color="#1A1A1A", align="center", valign="middle"))
    top = y + 28
    if e.yields:
        out.extend(draw_amount(ctx, "tracks.end.yields", e.yields, x + w / 2, top, 7, "#1A1A1A", "center"))
        top += 9
    if e.text:
        out.append(ctx.text("tracks.end.text", e.text, x + 2.5, top, w - 5, y + h - top - 2, size=8, min_size=6,
                            color="#1A1A1A", align="center"))
    return out


def _score(ctx: FaceContext, s: ScoreTrack, ink: str) -> list[Element]:
    """The 0–9 track; its title and note stand on the board's own colour, so they take `ink`."""
    out: list[Element] = [ctx.text("score.title", s.title, s.x, s.y, 120, 9, font="Lato-Black", size=15,
                                   color=ink, valign="middle")]
    if s.note:
        out.append(ctx.text("score.note", s.note, s.x + 40, s.y, s.width - 40, 9, size=9, min_size=6,
                            color=ink, align="right", valign="middle"))
    top = s.y + 11
    fill = resolve(s.color)
    for i in range(s.cells):
        x = s.cell_x(i)
        out.append(Rect(x, top, s.cell_w, s.cell_h, Style(fill=fill, stroke="#1A1A1A", stroke_width=0.5)))
        out.append(ctx.text("score.cells", str(i), x + 1.5, top + 0.5, 10, 10, font="Lato-Black", size=20,
                            min_size=8, color="#1A1A1A", valign="middle"))
        out.extend(_footprints(x + 8, top + 6, s.cell_w - 8, s.cell_h - 6, 4, "#9E9E9E"))
    return out


@layout("stars_inc_board", StarsIncBoardParams)
def stars_inc_board(ctx: FaceContext, p: StarsIncBoardParams) -> list[Element]:
    out = board(ctx, p)
    for t in p.tracks:
        out.extend(_track(ctx, t, p.ring))
    if p.score:
        out.extend(_score(ctx, p.score, readable_ink(resolve(p.color))))
    return out
