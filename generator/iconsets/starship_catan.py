"""Starship Catan: the resource arrow, the sector card kinds, the council, the dice and the starship.

All drawn by us in the shared 100 × 100 box; names carry an `sc_` prefix so they never clash.
"""
from __future__ import annotations

from ..geometry import arc_commands
from ..icons import fill, icon, line, solid
from ..scene import Circle, Line, Path, Polygon, Rect


@icon("sc_arrow")
def _arrow(ink, paper):
    """The resource arrow: points at the amount on a storage scale."""
    return [Polygon(((50, 4), (88, 46), (64, 46), (64, 96), (36, 96), (36, 46), (12, 46)), fill(ink)),
            Rect(44, 58, 12, 28, fill(paper), radius=3)]


@icon("sc_starship")
def _starship(ink, paper):
    return [Polygon(((96, 50), (62, 26), (20, 26), (6, 16), (6, 84), (20, 74), (62, 74)), fill(ink)),
            Polygon(((70, 42), (84, 50), (70, 58)), fill(paper)),
            Rect(26, 38, 10, 24, fill(paper), radius=2), Rect(42, 38, 10, 24, fill(paper), radius=2)]


@icon("sc_library")
def _library(ink, paper):
    """The Galactic Library: an open book under a star."""
    left = Path((("M", 50, 38), ("C", 38, 30, 20, 30, 6, 36), ("L", 6, 90), ("C", 20, 84, 38, 84, 50, 92),
                 ("Z",)), fill(ink))
    right = Path((("M", 50, 38), ("C", 62, 30, 80, 30, 94, 36), ("L", 94, 90), ("C", 80, 84, 62, 84, 50, 92),
                  ("Z",)), fill(ink))
    star = Polygon(((50, 2), (55, 14), (68, 14), (58, 22), (62, 34), (50, 27), (38, 34), (42, 22), (32, 14),
                    (45, 14)), fill(ink))
    return [left, right, Line(50, 40, 50, 90, line(paper, 3)), star]


@icon("sc_adventure")
def _adventure(ink, paper):
    """An adventure planet: a planet with a flag planted on it."""
    return [Circle(44, 62, 34, fill(ink)), Path(arc_commands(44, 62, 24, 200, 260), line(paper, 4)),
            Line(66, 34, 66, 4, line(ink, 5)), Polygon(((68, 4), (96, 12), (68, 22)), fill(ink))]


@icon("sc_council")
def _council(ink, paper):
    """The Galactic Council: three seats round a table."""
    seats = [Circle(x, y, 11, fill(ink)) for x, y in ((22, 24), (50, 14), (78, 24))]
    table = Path(arc_commands(50, 72, 42, 180, 360) + (("Z",),), fill(ink))
    return seats + [table, Rect(8, 72, 84, 8, fill(ink)), Rect(16, 80, 8, 16, fill(ink)),
                    Rect(76, 80, 8, 16, fill(ink))]


@icon("sc_die")
def _die(ink, paper):
    pips = [Circle(x, y, 8, fill(paper)) for x, y in ((30, 30), (70, 30), (50, 50), (30, 70), (70, 70))]
    return [Rect(8, 8, 84, 84, fill(ink), radius=16)] + pips


@icon("sc_trading_post")
def _trading_post(ink, paper):
    """A trading post: a small station with a crate beside it."""
    return [Circle(38, 50, 30, solid(ink, paper, 4)), Rect(24, 44, 28, 12, fill(paper)),
            Line(68, 50, 84, 50, line(ink, 6)), Rect(76, 34, 20, 20, fill(ink), radius=2),
            Line(76, 44, 96, 44, line(paper, 3))]
