"""Stars, Inc.: the star types along the evolution tracks, planets, actions and environments."""
from __future__ import annotations

from ..geometry import arc_commands, ellipse_commands, star_points
from ..icons import fill, icon, letter, line, solid
from ..scene import Circle, Group, Line, Path, Polygon, Rect


def _blend(ink: str, paper: str, t: float) -> str:
    """A flat tint between ink and paper: no transparency, so every PDF viewer draws it the same."""
    a, b = ink.lstrip("#"), paper.lstrip("#")
    if len(a) != 6 or len(b) != 6:
        return ink
    return "#" + "".join(f"{round(int(a[i:i + 2], 16) * (1 - t) + int(b[i:i + 2], 16) * t):02X}" for i in (0, 2, 4))


def _rays(count: int, inner: float, outer: float, width: float, ink: str) -> list:
    """Spikes round the centre, drawn as thin triangles turned about (50, 50)."""
    spike = Polygon(((-width / 2, -inner), (0, -outer), (width / 2, -inner)), fill(ink))
    return [Group((spike,), dx=50, dy=50, rotate=i * 360 / count) for i in range(count)]


# --- star types -------------------------------------------------------------------------------

@icon("si_blue_giant")
def _blue_giant(ink, paper):
    return _rays(12, 30, 49, 12, ink) + [Circle(50, 50, 33, fill(ink)), Circle(40, 40, 8, fill(_blend(ink, paper, 0.5)))]


@icon("si_hypergiant")
def _hypergiant(ink, paper):
    return [Polygon(star_points(50, 50, 48, 40, 16), fill(ink)), Circle(50, 50, 30, line(paper, 3)),
            Circle(50, 50, 14, fill(paper)), Circle(50, 50, 8, fill(ink))]


@icon("si_sunlike")
def _sunlike(ink, paper):
    return _rays(8, 30, 46, 10, ink) + [Circle(50, 50, 26, fill(ink))]


@icon("si_red_giant")
def _red_giant(ink, paper):
    return [Circle(50, 50, 47, fill(_blend(ink, paper, 0.65))), Circle(50, 50, 38, fill(ink)),
            Circle(50, 50, 10, fill(paper)), Circle(50, 50, 5, fill(ink))]


@icon("si_white_dwarf")
def _white_dwarf(ink, paper):
    return [Circle(50, 50, 44, line(ink, 3)), Circle(50, 50, 30, line(ink, 2)),
            Polygon(star_points(50, 50, 24, 6, 4), fill(ink)), Circle(50, 50, 8, solid(paper, ink, 3))]


@icon("si_red_dwarf")
def _red_dwarf(ink, paper):
    return [Circle(50, 50, 40, line(ink, 3)), Circle(50, 50, 22, fill(ink))]


# --- planets ----------------------------------------------------------------------------------

@icon("si_rocky_planet")
def _rocky(ink, paper):
    return [Circle(50, 50, 44, fill(ink)), Circle(34, 36, 9, fill(paper)), Circle(62, 30, 5, fill(paper)),
            Circle(60, 62, 12, fill(paper)), Circle(32, 68, 5, fill(paper)), Circle(60, 62, 6, fill(ink))]


@icon("si_gas_planet")
def _gas(ink, paper):
    bands = tuple(Rect(0, y, 100, 6, fill(paper)) for y in (30, 46, 62))
    return [Circle(50, 50, 34, fill(ink)), Group(bands, clip=Circle(50, 50, 34, fill(ink))),
            Group((Path(ellipse_commands(0, 0, 49, 11), line(ink, 5)),), dx=50, dy=50, rotate=-15)]


# --- actions and scoring ----------------------------------------------------------------------

@icon("si_point")
def _point(ink, paper):
    return [Circle(50, 50, 46, fill(ink)), Polygon(star_points(50, 53, 32, 13), fill(paper))]


@icon("si_diamond")
def _diamond(ink, paper):
    outline = ((22, 14), (78, 14), (96, 38), (50, 94), (4, 38))
    return [Polygon(outline, fill(ink)), Line(4, 38, 96, 38, line(paper, 3)),
            Polygon(((34, 14), (26, 38), (50, 92), (74, 38), (66, 14)), line(paper, 3))]


@icon("si_make")
def _make(ink, paper):
    return [Circle(50, 50, 46, fill(ink)), Rect(42, 22, 16, 56, fill(paper), radius=3),
            Rect(22, 42, 56, 16, fill(paper), radius=3)]


@icon("si_merge")
def _merge(ink, paper):
    return [Circle(22, 26, 16, fill(ink)), Circle(22, 74, 16, fill(ink)),
            Path((("M", 38, 30), ("C", 52, 34, 54, 50, 64, 50)), line(ink, 7)),
            Path((("M", 38, 70), ("C", 52, 66, 54, 50, 64, 50)), line(ink, 7)),
            Circle(78, 50, 20, fill(ink))]


@icon("si_block")
def _block(ink, paper):
    shield = (("M", 50, 4), ("L", 90, 18), ("C", 90, 60, 74, 82, 50, 96), ("C", 26, 82, 10, 60, 10, 18), ("Z",))
    return [Path(shield, fill(ink)), Line(30, 30, 70, 70, line(paper, 9)), Line(70, 30, 30, 70, line(paper, 9))]


@icon("si_harvest")
def _harvest(ink, paper):
    return [Path(arc_commands(50, 40, 40, 20, 160, 6), line(ink, 9)), Polygon(((50, 96), (26, 58), (74, 58)),
                                                                                 fill(ink)),
            Rect(43, 30, 14, 30, fill(ink))]


@icon("si_any_element")
def _any_element(ink, paper):
    dots = ((28, 28, "H"), (72, 28, "He"), (28, 72, "C"), (72, 72, "Fe"))
    out = []
    for x, y, symbol in dots:
        out += [Circle(x, y, 21, fill(ink)), letter(symbol, paper, 60, (x - 17, y - 12, 34, 24))]
    return out


# --- environments -----------------------------------------------------------------------------

@icon("si_molecular_cloud")
def _molecular_cloud(ink, paper):
    puffs = ((28, 56, 22), (50, 40, 26), (72, 56, 22), (50, 64, 20), (16, 44, 12), (84, 42, 12))
    return ([Circle(x, y, r, fill(_blend(ink, paper, 0.45))) for x, y, r in puffs]
            + [Circle(x, y, r * 0.62, fill(ink)) for x, y, r in puffs[:4]]
            + [Polygon(star_points(x, y, 7, 2.6, 4), fill(paper)) for x, y in ((40, 50), (62, 60), (52, 34))])


@icon("si_cluster")
def _cluster(ink, paper):
    spots = ((50, 50, 14), (26, 30, 9), (74, 28, 10), (28, 72, 10), (72, 74, 9), (50, 14, 6), (50, 88, 6),
             (12, 50, 6), (88, 50, 6))
    return [Polygon(star_points(x, y, r, r * 0.42), fill(ink)) for x, y, r in spots]


@icon("si_stroemgren")
def _stroemgren(ink, paper):
    return [Circle(50, 50, 46, fill(_blend(ink, paper, 0.7))), Circle(50, 50, 46, line(ink, 3)),
            Polygon(star_points(50, 50, 22, 9), fill(ink))]


@icon("si_hourglass")
def _hourglass(ink, paper):
    return [Rect(18, 4, 64, 10, fill(ink), radius=3), Rect(18, 86, 64, 10, fill(ink), radius=3),
            Polygon(((24, 14), (76, 14), (54, 50), (76, 86), (24, 86), (46, 50)), line(ink, 5)),
            Polygon(((34, 24), (66, 24), (50, 46)), fill(ink)), Polygon(((50, 66), (68, 82), (32, 82)), fill(ink))]


@icon("si_vortex")
def _vortex(ink, paper):
    return [Path(arc_commands(50, 50, r, start, start + 250), line(ink, 6))
            for r, start in ((44, 0), (32, 90), (20, 180))] + [Circle(50, 50, 8, fill(ink))]


@icon("si_crowd")
def _crowd(ink, paper):
    out = []
    for x, y, s in ((30, 18, 0.55), (70, 18, 0.55), (50, 40, 0.6)):
        out += [Circle(x, y + 12 * s / 0.6, 12 * s / 0.6, solid(ink, paper, 3)),
                Polygon(((x - 18, y + 62), (x - 10, y + 28), (x + 10, y + 28), (x + 18, y + 62)),
                        solid(ink, paper, 3))]
    return out


@icon("si_galaxy")
def _galaxy(ink, paper):
    arm = (("M", 50, 50), ("C", 50, 20, 90, 16, 94, 40))
    return [Group((Path(arm, line(ink, 8)),), dx=0, dy=0), Group((Path(arm, line(ink, 8)),), dx=100, dy=100,
                                                                   rotate=180),
            Circle(50, 50, 14, fill(ink)), Circle(18, 20, 3, fill(ink)), Circle(84, 82, 3, fill(ink))]
