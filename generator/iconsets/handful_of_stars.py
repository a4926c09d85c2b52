"""Icons for A Handful of Stars: Energy and Population (Matter and Research use the shared `matter` and
`science`), combat, reserve, development, a system, and one emblem per race.

All drawn by us in the shared 100 × 100 box; names carry an `hs_` prefix so they never clash.
"""
from __future__ import annotations

from ..geometry import arc_commands, ellipse_commands, hexagon, regular_polygon, star_points
from ..icons import fill, icon, line, solid
from ..scene import Circle, Group, Line, Path, Polygon, Rect


# --- resources ----------------------------------------------------------------------------------

@icon("hs_energy")
def _energy(ink, paper):
    """A bolt inside a ring: distinct from the plain `attack` bolt."""
    return [Circle(50, 50, 44, line(ink, 7)),
            Polygon(((56, 12), (28, 56), (48, 56), (40, 90), (72, 44), (52, 44), (62, 12)), fill(ink))]


@icon("hs_population")
def _population(ink, paper):
    people = []
    for cx, cy, r in ((26, 40, 12), (74, 40, 12), (50, 30, 15)):
        people.append(Circle(cx, cy, r, solid(ink, paper, 3)))
        body = arc_commands(cx, cy + r * 3.3, r * 1.7, 180, 360) + (("Z",),)
        people.append(Path(body, solid(ink, paper, 3)))
    return people


# --- combat, reserve, development ----------------------------------------------------------------

@icon("hs_combat")
def _combat(ink, paper):
    blade = (Rect(-5, -46, 10, 62, fill(ink)), Polygon(((-5, -46), (5, -46), (0, -56)), fill(ink)),
             Rect(-16, 16, 32, 7, fill(ink), radius=2), Rect(-4, 23, 8, 18, fill(ink), radius=2))
    return [Group(blade, dx=50, dy=52, rotate=a) for a in (-40, 40)]


@icon("hs_reserve")
def _reserve(ink, paper):
    """A vault: cards kept back for later."""
    return [Rect(8, 14, 84, 76, fill(ink), radius=8), Circle(50, 52, 22, line(paper, 6)),
            Line(50, 34, 50, 70, line(paper, 5)), Line(32, 52, 68, 52, line(paper, 5)),
            Rect(14, 86, 14, 10, fill(ink)), Rect(72, 86, 14, 10, fill(ink))]


@icon("hs_development")
def _development(ink, paper):
    """A gear with a rising arrow: infrastructure grown on a colony."""
    teeth = [Group((Rect(-8, -48, 16, 16, fill(ink)),), dx=50, dy=50, rotate=a) for a in range(0, 360, 45)]
    return teeth + [Circle(50, 50, 36, fill(ink)),
                    Polygon(((50, 24), (70, 48), (58, 48), (58, 74), (42, 74), (42, 48), (30, 48)), fill(paper))]


@icon("hs_system")
def _system(ink, paper):
    """A star with two orbiting worlds: a star system location."""
    return [Circle(50, 50, 44, line(ink, 3)), Circle(50, 50, 28, line(ink, 3)),
            Polygon(star_points(50, 50, 18, 8, 8), fill(ink)), Circle(50, 6, 7, fill(ink)),
            Circle(74, 66, 6, fill(ink))]


# --- race emblems ---------------------------------------------------------------------------------

@icon("hs_aggroloids")
def _aggroloids(ink, paper):
    """A spiked mine: all points outward."""
    return [Polygon(star_points(50, 50, 48, 28, 7), fill(ink)), Circle(50, 50, 20, fill(paper)),
            Circle(50, 50, 11, fill(ink))]


@icon("hs_bilderoids")
def _bilderoids(ink, paper):
    """Hammer over a brick wall."""
    bricks = [Rect(x, y, 26, 12, fill(ink), radius=1) for x, y in ((8, 80), (37, 80), (66, 80), (22, 64), (51, 64))]
    hammer = (Rect(-5, -6, 10, 52, fill(ink), radius=2), Rect(-22, -20, 44, 18, fill(ink), radius=3))
    return bricks + [Group(hammer, dx=50, dy=22, rotate=-30)]


@icon("hs_culturemoogs")
def _culturemoogs(ink, paper):
    """Two beamed musical notes."""
    return [Path(ellipse_commands(28, 78, 14, 10), fill(ink)), Path(ellipse_commands(72, 70, 14, 10), fill(ink)),
            Rect(36, 18, 6, 60, fill(ink)), Rect(80, 10, 6, 60, fill(ink)),
            Polygon(((36, 18), (86, 10), (86, 24), (36, 32)), fill(ink))]


@icon("hs_exploremords")
def _exploremords(ink, paper):
    """A compass rose."""
    return [Circle(50, 50, 44, line(ink, 5)),
            Polygon(((50, 6), (60, 50), (50, 94), (40, 50)), fill(ink)),
            Polygon(((6, 50), (50, 40), (94, 50), (50, 60)), fill(ink)), Circle(50, 50, 6, fill(paper))]


@icon("hs_peacenims")
def _peacenims(ink, paper):
    """An olive branch in a ring."""
    leaves = [Group((Path(ellipse_commands(0, 0, 11, 5), fill(ink)),), dx=50 + dx, dy=y, rotate=r)
              for y in (30, 46, 62) for dx, r in ((-12, 35), (12, -35))]
    return [Circle(50, 50, 44, line(ink, 6)), Line(50, 20, 50, 84, line(ink, 5))] + leaves


@icon("hs_storbots")
def _storbots(ink, paper):
    """A robot head on a storage crate."""
    return [Rect(12, 56, 76, 38, fill(ink), radius=3), Line(12, 72, 88, 72, line(paper, 3)),
            Rect(26, 14, 48, 36, fill(ink), radius=6), Circle(40, 30, 6, fill(paper)), Circle(60, 30, 6, fill(paper)),
            Line(50, 14, 50, 4, line(ink, 4)), Circle(50, 4, 4, fill(ink))]


@icon("hs_technoids")
def _technoids(ink, paper):
    """A hexagonal circuit node."""
    nodes = regular_polygon(50, 50, 40, 6)
    return [Polygon(hexagon(50, 50, 46), line(ink, 5)), Circle(50, 50, 14, fill(ink))] + [
        Line(50, 50, x, y, line(ink, 4)) for x, y in nodes[::2]] + [
        Circle(x, y, 7, fill(ink)) for x, y in nodes[::2]]
