"""Our own vector icons, each drawn in a 100 × 100 box and scaled into place.

An icon takes the ink colour and the colour it sits on (for cut-outs) and returns scene
elements. Add an icon by writing one small function with @icon("name").
"""
from __future__ import annotations

from pathlib import Path as FilePath
from typing import Callable

from .geometry import arc_commands, ellipse_commands, hexagon, regular_polygon, star_points
from .registry import LazyRegistry
from .scene import Circle, Element, Group, Line, Path, Polygon, Rect, Style
from .text import fit_text

IconFn = Callable[[str, str], list[Element]]
# The shared icons below, plus those in generator/iconsets/<name>.py, imported when first drawn.
ICONS: LazyRegistry = LazyRegistry("starpnp.generator.iconsets", FilePath(__file__).parent / "iconsets", "icon")


def icon(name: str):
    def register(fn: IconFn) -> IconFn:
        ICONS[name] = fn
        return fn

    return register


def draw_icon(name: str, x: float, y: float, size: float, ink: str, paper: str = "#ffffff") -> Group:
    """The icon scaled into the square (x, y, size); unknown names raise KeyError."""
    return Group(tuple(ICONS[name](ink, paper)), dx=x, dy=y, scale=size / 100)


def fill(color: str) -> Style:
    return Style(fill=color)


def line(color: str, width: float = 6) -> Style:
    return Style(stroke=color, stroke_width=width)


def solid(color: str, edge: str, width: float = 4) -> Style:
    return Style(fill=color, stroke=edge, stroke_width=width)


def letter(text: str, ink: str, size_pt: float = 150, box=(10, 18, 80, 64)) -> Element:
    x, y, w, h = box
    return fit_text(text, x, y, w, h, font="Lato-Black", size=size_pt, min_size=20, color=ink,
                    align="center", valign="middle").text


# --- space --------------------------------------------------------------------------------------

@icon("star")
def _star(ink, paper):
    return [Polygon(star_points(50, 52, 48, 20), fill(ink))]


@icon("planet")
def _planet(ink, paper):
    return [
        Circle(50, 50, 28, fill(ink)),
        Group((Path(ellipse_commands(0, 0, 46, 12), line(ink, 5)),), dx=50, dy=50, rotate=-20),
        Group((Path(ellipse_commands(0, 0, 46, 12), line(paper, 2)),), dx=50, dy=50, rotate=-20),
    ]


@icon("world")
def _world(ink, paper):
    return [
        Circle(50, 50, 42, fill(ink)),
        Path(ellipse_commands(50, 50, 18, 42), line(paper, 3)),
        Line(8, 50, 92, 50, line(paper, 3)),
        Line(16, 30, 84, 30, line(paper, 3)),
        Line(16, 70, 84, 70, line(paper, 3)),
    ]


@icon("homeworld")
def _homeworld(ink, paper):
    return _world(ink, paper) + [
        Circle(50, 50, 46, line(ink, 4)),
        Polygon(((38, 2), (44, 12), (50, 0), (56, 12), (62, 2), (62, 16), (38, 16)), solid(ink, paper, 2)),
    ]


@icon("supernova")
def _supernova(ink, paper):
    return [Polygon(star_points(50, 50, 49, 22, 12), fill(ink)), Circle(50, 50, 15, fill(paper)),
            Circle(50, 50, 9, fill(ink))]


@icon("black_hole")
def _black_hole(ink, paper):
    return [
        Circle(50, 50, 46, fill(ink)),
        Path(arc_commands(50, 50, 36, 0, 250), line(paper, 4)),
        Path(arc_commands(50, 50, 26, 120, 370), line(paper, 4)),
        Path(arc_commands(50, 50, 16, 240, 490), line(paper, 4)),
        Circle(50, 50, 7, fill(paper)),
    ]


@icon("nebula")
def _nebula(ink, paper):
    blobs = [(30, 55, 22), (52, 42, 26), (72, 58, 20), (48, 66, 18), (20, 38, 12), (80, 36, 12)]
    return [Circle(x, y, r, Style(fill=ink, opacity=0.85)) for x, y, r in blobs] + [
        Circle(40, 48, 4, fill(paper)), Circle(64, 56, 3, fill(paper)), Circle(54, 34, 2.5, fill(paper))]


@icon("deep_space")
def _deep_space(ink, paper):
    dots = [(18, 22, 3), (70, 15, 2), (44, 48, 4), (82, 62, 3), (25, 78, 2), (60, 84, 3), (12, 55, 2)]
    return [Circle(x, y, r, fill(ink)) for x, y, r in dots] + [Polygon(star_points(70, 38, 8, 3, 4), fill(ink))]


@icon("wormhole")
def _wormhole(ink, paper):
    return [Path(arc_commands(50, 50, r, a, a + 300), line(ink, 7))
            for r, a in ((42, 0), (30, 90), (18, 180))] + [Circle(50, 50, 6, fill(ink))]


@icon("stargate")
def _stargate(ink, paper):
    ticks = [Polygon(((46, y0), (54, y0), (50, y1)), fill(ink)) for y0, y1 in ((0, 12), (100, 88))]
    side = [Polygon(((x0, 46), (x0, 54), (x1, 50)), fill(ink)) for x0, x1 in ((0, 12), (100, 88))]
    return [Circle(50, 50, 36, line(ink, 9)), Circle(50, 50, 22, line(ink, 3)),
            Circle(50, 50, 8, fill(ink))] + ticks + side


@icon("fleet")
def _fleet(ink, paper):
    return [Polygon(((50, 4), (84, 90), (50, 72), (16, 90)), fill(ink)),
            Polygon(((50, 30), (58, 58), (42, 58)), fill(paper))]


@icon("warfleet")
def _warfleet(ink, paper):
    ship = ((50, 4), (70, 56), (50, 46), (30, 56))
    return [Polygon(tuple((x + dx, y + dy) for x, y in ship), solid(ink, paper, 3))
            for dx, dy in ((-26, 38), (26, 38), (0, 0))]


@icon("colony")
def _colony(ink, paper):
    dome = arc_commands(50, 70, 38, 180, 360) + (("Z",),)
    return [Path(dome, fill(ink)), Rect(6, 68, 88, 12, fill(ink)),
            Rect(42, 50, 16, 20, fill(paper), radius=3), Line(50, 32, 50, 8, line(ink, 5)),
            Polygon(((50, 6), (70, 12), (50, 18)), fill(ink))]


@icon("starbase")
def _starbase(ink, paper):
    return [Circle(50, 50, 40, line(ink, 10)), Rect(44, 4, 12, 92, fill(ink)), Rect(4, 44, 92, 12, fill(ink)),
            Circle(50, 50, 16, solid(ink, paper, 4))]


@icon("outpost")
def _outpost(ink, paper):
    return [Polygon(((50, 8), (90, 28), (90, 72), (50, 92), (10, 72), (10, 28)), fill(ink)),
            Line(50, 50, 50, 92, line(paper, 3)), Line(50, 50, 10, 28, line(paper, 3)),
            Line(50, 50, 90, 28, line(paper, 3))]


@icon("alien")
def _alien(ink, paper):
    return [Path(ellipse_commands(50, 46, 36, 42), fill(ink)),
            Group((Path(ellipse_commands(0, 0, 12, 6), fill(paper)),), dx=34, dy=48, rotate=30),
            Group((Path(ellipse_commands(0, 0, 12, 6), fill(paper)),), dx=66, dy=48, rotate=-30),
            Line(42, 74, 58, 74, line(paper, 3))]


@icon("matter")
def _matter(ink, paper):
    return [Polygon(hexagon(50, 50, 44), fill(ink)), Polygon(hexagon(50, 50, 24), line(paper, 5))]


@icon("culture")
def _culture(ink, paper):
    return [Polygon(((10, 30), (50, 6), (90, 30)), fill(ink)), Rect(10, 84, 80, 10, fill(ink))] + [
        Rect(x, 34, 10, 46, fill(ink)) for x in (18, 45, 72)]


@icon("technology")
def _technology(ink, paper):
    pins = [Rect(x, y, 6, 14, fill(ink)) for x in (30, 47, 64) for y in (2, 84)]
    pins += [Rect(x, y, 14, 6, fill(ink)) for y in (30, 47, 64) for x in (2, 84)]
    return pins + [Rect(16, 16, 68, 68, fill(ink), radius=6), Rect(32, 32, 36, 36, line(paper, 4), radius=3)]


@icon("shuffle")
def _shuffle(ink, paper):
    return [Path(arc_commands(50, 50, 34, 200, 340, 4), line(ink, 9)),
            Polygon(((80, 22), (96, 40), (72, 44)), fill(ink)),
            Path(arc_commands(50, 50, 34, 20, 160, 4), line(ink, 9)),
            Polygon(((20, 78), (4, 60), (28, 56)), fill(ink))]


# --- actions ------------------------------------------------------------------------------------

@icon("attack")
def _attack(ink, paper):
    return [Polygon(((58, 2), (22, 54), (46, 54), (36, 98), (80, 38), (54, 38), (70, 2)), fill(ink))]


@icon("move")
def _move(ink, paper):
    return [Polygon(((6, 38), (56, 38), (56, 14), (96, 50), (56, 86), (56, 62), (6, 62)), fill(ink))]


@icon("build")
def _build(ink, paper):
    return [Group((Rect(-7, -10, 14, 62, fill(ink), radius=3), Rect(-30, -40, 60, 28, fill(ink), radius=4)),
                  dx=50, dy=52, rotate=-35)]


@icon("trade")
def _trade(ink, paper):
    return [Polygon(((4, 32), (30, 8), (30, 22), (80, 22), (80, 42), (30, 42), (30, 56)), fill(ink)),
            Polygon(((96, 68), (70, 44), (70, 58), (20, 58), (20, 78), (70, 78), (70, 92)), fill(ink))]


@icon("research")
def _research(ink, paper):
    return [Polygon(((36, 4), (64, 4), (62, 12), (60, 12), (60, 38), (90, 88), (86, 96), (14, 96), (10, 88),
                     (40, 38), (40, 12), (38, 12)), fill(ink)),
            Polygon(((30, 66), (70, 66), (82, 88), (18, 88)), fill(paper)),
            Circle(44, 78, 4, fill(ink)), Circle(58, 74, 3, fill(ink))]


@icon("science")
def _science(ink, paper):
    orbit = Path(ellipse_commands(0, 0, 46, 16), line(ink, 5))
    return [Group((orbit,), dx=50, dy=50, rotate=a) for a in (0, 60, 120)] + [Circle(50, 50, 9, fill(ink))]


@icon("booster")
def _booster(ink, paper):
    return [Polygon(((50, 2), (68, 30), (68, 64), (32, 64), (32, 30)), fill(ink)),
            Polygon(((32, 50), (16, 70), (32, 68)), fill(ink)), Polygon(((68, 50), (84, 70), (68, 68)), fill(ink)),
            Polygon(((38, 68), (62, 68), (50, 98)), fill(ink)), Circle(50, 34, 7, fill(paper))]


@icon("cannon")
def _cannon(ink, paper):
    return [Rect(8, 40, 70, 20, fill(ink), radius=4), Rect(70, 34, 10, 32, fill(ink)),
            Circle(34, 70, 18, fill(ink)), Circle(34, 70, 7, fill(paper)), Line(82, 50, 98, 50, line(ink, 4)),
            Line(84, 38, 96, 30, line(ink, 3)), Line(84, 62, 96, 70, line(ink, 3))]


@icon("trade_ship")
def _trade_ship(ink, paper):
    return [Polygon(((4, 50), (24, 30), (82, 30), (96, 50), (82, 70), (24, 70)), fill(ink)),
            Rect(32, 38, 14, 24, fill(paper)), Rect(52, 38, 14, 24, fill(paper))]


@icon("colony_ship")
def _colony_ship(ink, paper):
    return [Polygon(((4, 50), (24, 32), (78, 32), (96, 50), (78, 68), (24, 68)), fill(ink)),
            Path(arc_commands(54, 50, 14, 180, 360) + (("Z",),), fill(paper))]


@icon("astro")
def _astro(ink, paper):
    return [Circle(50, 50, 46, fill(ink)), Circle(50, 50, 38, line(paper, 3)), letter("A", paper)]


@icon("fame")
def _fame(ink, paper):
    return [Polygon(((30, 4), (44, 4), (50, 40), (56, 4), (70, 4), (60, 48), (40, 48)), fill(ink)),
            Circle(50, 66, 30, fill(ink)), Polygon(star_points(50, 67, 20, 8), fill(paper))]


@icon("friendship")
def _friendship(ink, paper):
    heart = (("M", 50, 92), ("C", 10, 62, 2, 40, 10, 24), ("C", 18, 8, 42, 6, 50, 26),
             ("C", 58, 6, 82, 8, 90, 24), ("C", 98, 40, 90, 62, 50, 92), ("Z",))
    return [Path(heart, fill(ink))]


@icon("victory")
def _victory(ink, paper):
    cup = (("M", 22, 8), ("L", 78, 8), ("C", 78, 50, 66, 62, 50, 62), ("C", 34, 62, 22, 50, 22, 8), ("Z",))
    return [Path(cup, fill(ink)), Path(arc_commands(22, 28, 14, 90, 270), line(ink, 6)),
            Path(arc_commands(78, 28, 14, -90, 90), line(ink, 6)), Rect(44, 60, 12, 20, fill(ink)),
            Rect(26, 80, 48, 12, fill(ink), radius=3)]


@icon("pirate")
def _pirate(ink, paper):
    return [Path(ellipse_commands(50, 40, 36, 34), fill(ink)), Rect(32, 60, 36, 24, fill(ink), radius=6),
            Circle(36, 40, 9, fill(paper)), Circle(64, 40, 9, fill(paper)),
            Polygon(((50, 50), (56, 62), (44, 62)), fill(paper)),
            Line(40, 74, 40, 84, line(paper, 3)), Line(50, 74, 50, 84, line(paper, 3)),
            Line(60, 74, 60, 84, line(paper, 3))]


@icon("hazard")
def _hazard(ink, paper):
    return [Polygon(((50, 4), (96, 90), (4, 90)), fill(ink)), Rect(45, 30, 10, 34, fill(paper), radius=3),
            Circle(50, 76, 6, fill(paper))]


@icon("module")
def _module(ink, paper):
    teeth = [Group((Rect(-8, -48, 16, 20, fill(ink)),), dx=50, dy=50, rotate=a) for a in range(0, 360, 45)]
    return teeth + [Circle(50, 50, 32, fill(ink)), Circle(50, 50, 13, fill(paper))]


@icon("pawn")
def _pawn(ink, paper):
    return [Circle(50, 22, 18, fill(ink)), Polygon(((30, 44), (70, 44), (82, 96), (18, 96)), fill(ink))]


@icon("first_player")
def _first_player(ink, paper):
    return [Circle(50, 50, 46, fill(ink)), letter("1", paper)]


@icon("logistics")
def _logistics(ink, paper):
    return [Rect(8, 30, 56, 40, fill(ink)), Polygon(((64, 40), (84, 40), (96, 56), (96, 70), (64, 70)), fill(ink)),
            Circle(26, 76, 10, solid(ink, paper, 4)), Circle(78, 76, 10, solid(ink, paper, 4))]


# --- resources (Stars, Inc. elements and Starship Catan goods) ----------------------------------

def _element(symbol: str) -> IconFn:
    def draw(ink, paper):
        return [Circle(50, 50, 46, fill(ink)), Circle(50, 50, 40, line(paper, 3)), letter(symbol, paper)]

    return draw


for _symbol, _name in (("H", "hydrogen"), ("He", "helium"), ("C", "carbon"), ("Fe", "iron")):
    icon(_name)(_element(_symbol))


@icon("ore")
def _ore(ink, paper):
    return [Polygon(((20, 30), (46, 10), (80, 22), (94, 58), (70, 90), (26, 86), (6, 58)), fill(ink)),
            Line(46, 10, 50, 50, line(paper, 3)), Line(50, 50, 94, 58, line(paper, 3)),
            Line(50, 50, 26, 86, line(paper, 3))]


@icon("fuel")
def _fuel(ink, paper):
    drop = (("M", 50, 4), ("C", 64, 30, 86, 50, 86, 66), ("C", 86, 86, 70, 96, 50, 96),
            ("C", 30, 96, 14, 86, 14, 66), ("C", 14, 50, 36, 30, 50, 4), ("Z",))
    return [Path(drop, fill(ink)), Path(arc_commands(50, 66, 20, 100, 180, 2), line(paper, 5))]


@icon("food")
def _food(ink, paper):
    leaf = (("M", 50, 96), ("C", 10, 70, 10, 30, 50, 4), ("C", 90, 30, 90, 70, 50, 96), ("Z",))
    return [Path(leaf, fill(ink)), Line(50, 96, 50, 20, line(paper, 4))]


@icon("goods")
def _goods(ink, paper):
    return [Rect(8, 20, 84, 70, fill(ink), radius=4), Line(8, 40, 92, 40, line(paper, 4)),
            Line(50, 40, 50, 90, line(paper, 4)), Rect(38, 8, 24, 14, fill(ink))]


@icon("carbon_resource")
def _carbon_resource(ink, paper):
    return [Polygon(hexagon(50, 50, 46), fill(ink)), Polygon(hexagon(50, 50, 30), line(paper, 4)),
            Polygon(hexagon(50, 50, 14), fill(paper))]


# --- player colour shapes: printed beside every colour so it reads in greyscale ------------------

@icon("shape_triangle")
def _tri(ink, paper):
    return [Polygon(((50, 6), (96, 90), (4, 90)), fill(ink))]


@icon("shape_circle")
def _circle(ink, paper):
    return [Circle(50, 50, 46, fill(ink))]


@icon("shape_square")
def _square(ink, paper):
    return [Rect(8, 8, 84, 84, fill(ink))]


@icon("shape_diamond")
def _diamond(ink, paper):
    return [Polygon(((50, 2), (98, 50), (50, 98), (2, 50)), fill(ink))]


@icon("shape_star")
def _shape_star(ink, paper):
    return [Polygon(star_points(50, 54, 50, 22), fill(ink))]


@icon("shape_pentagon")
def _pentagon(ink, paper):
    return [Polygon(regular_polygon(50, 54, 48, 5), fill(ink))]
