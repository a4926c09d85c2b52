"""Icons for Stratastar: the card backs' emblems and one picture per optional ability.

All drawn by us in the shared 100 × 100 box; names carry an `ss_` prefix so they never clash.
"""
from __future__ import annotations

import math

from ..geometry import arc_commands, ellipse_commands, star_points
from ..icons import ICONS, fill, icon, line, solid
from ..scene import Circle, Group, Line, Path, Polygon, Rect, Style


def _ship(dx: float, dy: float, scale: float, ink: str, paper: str) -> Group:
    """The shared `fleet` arrowhead, moved and scaled inside a picture."""
    return Group(tuple(ICONS["fleet"](ink, paper)), dx=dx, dy=dy, scale=scale)


# --- emblems ------------------------------------------------------------------------------------

@icon("ss_galaxy")
def _galaxy(ink, paper):
    """A two-armed spiral with a bright core: the Galaxy deck's back."""
    arms = [Path(arc_commands(50 + s * 6, 50, r, a, a + 150), line(ink, w))
            for s, base in ((1, 0), (-1, 180)) for r, a, w in ((40, base + 200, 5), (28, base + 190, 6),
                                                                (16, base + 180, 7))]
    return arms + [Circle(50, 50, 10, fill(ink)), Polygon(star_points(16, 18, 7, 2.5, 4), fill(ink)),
                   Polygon(star_points(86, 82, 6, 2, 4), fill(ink))]


@icon("ss_ability")
def _ability(ink, paper):
    """A star inside an open ring: a talent only some empires have."""
    return [Path(arc_commands(50, 50, 44, -60, 240), line(ink, 6)),
            Polygon(star_points(50, 52, 30, 12), fill(ink)),
            Circle(50, 6, 5, fill(ink))]


# --- abilities ----------------------------------------------------------------------------------

@icon("ss_scout")
def _scout(ink, paper):
    """A ship trailing three steps."""
    dots = [Circle(18 + i * 16, 86 - i * 16, 6 - i, fill(ink)) for i in range(3)]
    return dots + [Group((_ship(-30, -30, 0.6, ink, paper),), dx=66, dy=34, rotate=45)]


@icon("ss_hyperjump")
def _hyperjump(ink, paper):
    """A dashed arc leaping from a ring to a landing star."""
    return [Path(arc_commands(50, 74, 38, 180, 360, 10), Style(stroke=ink, stroke_width=5, dash=(9, 6))),
            Circle(12, 80, 8, line(ink, 5)), Polygon(star_points(88, 76, 12, 5), fill(ink)),
            Polygon(((50, 24), (62, 36), (50, 48)), fill(ink))]


@icon("ss_defend")
def _defend(ink, paper):
    """A shield with a planet on it."""
    shield = (("M", 50, 4), ("L", 90, 18), ("C", 90, 58, 74, 84, 50, 96), ("C", 26, 84, 10, 58, 10, 18), ("Z",))
    return [Path(shield, fill(ink)), Circle(50, 46, 18, fill(paper)),
            Group((Path(ellipse_commands(0, 0, 28, 7), line(paper, 4)),), dx=50, dy=46, rotate=-20),
            Circle(50, 46, 11, fill(ink))]


@icon("ss_expansion")
def _expansion(ink, paper):
    """A colony dome sending out a new ship."""
    dome = arc_commands(36, 90, 30, 180, 360) + (("Z",),)
    return [Path(dome, fill(ink)), Rect(2, 88, 68, 8, fill(ink)),
            _ship(56, 4, 0.42, ink, paper),
            Rect(70, 60, 26, 6, fill(ink)), Rect(80, 50, 6, 26, fill(ink))]


@icon("ss_planning")
def _planning(ink, paper):
    """A card lifted back off the discard pile."""
    pile = [Rect(10 + i * 4, 52 - i * 4, 46, 44, solid(paper, ink, 4), radius=4) for i in range(3)]
    return pile + [Path(arc_commands(62, 52, 26, 200, 330), line(ink, 7)),
                   Polygon(((80, 20), (96, 44), (70, 44)), fill(ink))]


@icon("ss_treason")
def _treason(ink, paper):
    """A dagger behind a ship that has changed sides."""
    dagger = (Polygon(((0, -48), (7, -38), (6, 10), (-6, 10), (-7, -38)), fill(ink)),
              Rect(-20, 10, 40, 8, fill(ink), radius=3), Rect(-5, 18, 10, 24, fill(ink), radius=2))
    return [Group(dagger, dx=66, dy=46, rotate=35), _ship(0, 46, 0.5, ink, paper)]


@icon("ss_treaty")
def _treaty(ink, paper):
    """A scroll with a sealed ribbon."""
    return [Rect(16, 10, 62, 78, solid(paper, ink, 6), radius=6),
            Line(28, 28, 66, 28, line(ink, 5)), Line(28, 42, 66, 42, line(ink, 5)), Line(28, 56, 52, 56, line(ink, 5)),
            Polygon(((66, 74), (60, 98), (72, 90), (84, 98), (78, 74)), fill(ink)),
            Circle(72, 70, 14, fill(ink)), Polygon(star_points(72, 70, 8, 3.5), fill(paper))]


@icon("ss_border_raid")
def _border_raid(ink, paper):
    """A ship crossing a dashed border towards a colony."""
    return [Line(50, 2, 50, 98, Style(stroke=ink, stroke_width=4, dash=(8, 6))),
            Group((_ship(-25, -25, 0.5, ink, paper),), dx=34, dy=34, rotate=90),
            Path(arc_commands(72, 90, 20, 180, 360) + (("Z",),), fill(ink)), Rect(50, 88, 44, 6, fill(ink))]


@icon("ss_sabotage")
def _sabotage(ink, paper):
    """A gear struck through: an action undone."""
    teeth = [Group((Rect(-7, -46, 14, 18, fill(ink)),), dx=50, dy=50, rotate=a) for a in range(0, 360, 45)]
    return teeth + [Circle(50, 50, 30, fill(ink)), Circle(50, 50, 12, fill(paper)),
                    Line(12, 88, 88, 12, line(paper, 14)), Line(12, 88, 88, 12, line(ink, 7))]


@icon("ss_planet_buster")
def _planet_buster(ink, paper):
    """A planet split by a jagged crack, shards flying off."""
    crack = ((34, 14), (48, 36), (38, 52), (56, 66), (48, 92))
    return [Circle(48, 54, 38, fill(ink)),
            Path((("M", *crack[0]), *(("L", x, y) for x, y in crack[1:])), line(paper, 7)),
            Polygon(((80, 8), (94, 14), (84, 22)), fill(ink)), Polygon(((88, 34), (98, 40), (88, 44)), fill(ink))]


@icon("ss_nova_mine")
def _nova_mine(ink, paper):
    """A round mine bristling with spikes."""
    spikes = [Polygon((polar(a - 14, 28), polar(a, 49), polar(a + 14, 28)), fill(ink)) for a in range(0, 360, 45)]
    return spikes + [Circle(50, 50, 31, fill(ink)), Circle(40, 40, 7, fill(paper))]


def polar(degrees: float, r: float) -> tuple[float, float]:
    """A point r from the icon's centre, `degrees` clockwise from the right."""
    a = math.radians(degrees)
    return (50 + r * math.cos(a), 50 + r * math.sin(a))


@icon("ss_draw")
def _draw(ink, paper):
    """Three cards fanned out in a hand."""
    return [Group((Rect(-18, -60, 36, 52, solid(paper, ink, 5), radius=5),), dx=50, dy=90, rotate=a)
            for a in (-24, 0, 24)] + [Polygon(star_points(50, 50, 9, 4), fill(ink))]


@icon("ss_nebula")
def _nebula(ink, paper):
    """A cloud of overlapping puffs with a few stars, drawn opaque: the PDF backend's transparency does
    not survive inside reused faces (ExtGState missing in the form resources)."""
    puffs = [(30, 56, 22), (52, 42, 26), (72, 58, 20), (48, 68, 18), (20, 38, 12), (80, 36, 12)]
    return [Circle(x, y, r, fill(ink)) for x, y, r in puffs] + [
        Circle(x, y, r, line(paper, 2)) for x, y, r in ((20, 38, 12), (80, 36, 12))] + [
        Polygon(star_points(40, 50, 6, 2.2, 4), fill(paper)), Circle(64, 58, 3, fill(paper)),
        Circle(54, 32, 2.5, fill(paper))]
