"""What is printed at a point (generator.look.ink.Printed, which `--ink low` asks thousands of times per game): a
shape's box only picks which shapes to test, so every answer is the one a plain walk over every fill gives,
on the shapes' edges and corners too."""
from __future__ import annotations

import math
import random

import pytest

from starpnp.generator.look.ink import (Printed, apply, fills, flatten, hex_of, inside_polygon, is_fill, line_points,
                                   outline, rgb)
from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.look.render import SceneCache
from starpnp.generator.look.scene import Circle, Group, Path, Polygon, Rect, Style, Text


def plain(shapes, x: float, y: float) -> str:
    """Every fill in order, tested by the even-odd rule (a circle by its distance), blended over white."""
    color = (1.0, 1.0, 1.0)
    for shape, m in shapes:
        if isinstance(shape, Circle):
            cx, cy = apply(m, shape.cx, shape.cy)
            r = shape.r * math.hypot(m[0], m[1])
            hit = (x - cx) ** 2 + (y - cy) ** 2 <= r * r
        else:
            points = [apply(m, *p) for p in outline(shape)]
            hit = len(points) > 2 and inside_polygon(points, x, y)
        if hit:
            a = shape.style.opacity
            color = tuple(a * f + (1 - a) * c for f, c in zip(rgb(shape.style.fill), color))
    return hex_of(color)


def corners(shapes) -> list[tuple[float, float]]:
    """Every placed corner of every shape, and points a hair to either side of it."""
    found = []
    for shape, m in shapes:
        points = [(shape.cx + dx, shape.cy + dy) for dx, dy in ((-shape.r, 0), (shape.r, 0), (0, -shape.r),
                  (0, shape.r))] if isinstance(shape, Circle) else outline(shape)
        for x, y in (apply(m, *p) for p in points):
            found += [(x + dx, y + dy) for dx in (-1e-9, 0.0, 1e-9) for dy in (-1e-9, 0.0, 1e-9)]
    return found


def test_a_rectangle_holds_its_top_and_left_edges_and_not_its_bottom_and_right():
    red = Rect(10, 10, 20, 10, Style(fill="#FF0000"))
    printed = Printed([(red, (1, 0, 0, 1, 0, 0))])
    assert [printed.at(10, 10), printed.at(29.999, 19.999), printed.at(30, 15), printed.at(20, 20)] == \
        ["#FF0000", "#FF0000", "#FFFFFF", "#FFFFFF"]


def test_overlapping_turned_round_and_translucent_shapes_print_what_the_plain_walk_prints():
    scene = (Rect(0, 0, 60, 40, Style(fill="#102030")),
             Group((Rect(-10, -5, 20, 10, Style(fill="#C04020")),), dx=30, dy=20, rotate=30),
             Group((Rect(0, 0, 8, 8, Style(fill="#20A040")),), dx=5, dy=5, rotate=90),
             Circle(20, 20, 7.5, Style(fill="#FFD000", opacity=0.5)),
             Polygon(((40, 5), (55, 35), (35, 30)), Style(fill="#8040C0")),
             Path((("M", 2, 30), ("L", 12, 38), ("L", 14, 30), ("C", 10, 26, 6, 26, 2, 30), ("Z",)),
                  Style(fill="#00A0A0")),
             Group((Circle(0, 0, 2, Style(fill="#FFFFFF")),), dx=50, dy=10, scale=1.5),
             Rect(4, 24, 50, 12, Style(fill="#FFFFFF", opacity=0.6)))
    shapes = list(flatten(scene))
    printed = fills(shapes)
    rng = random.Random(27)
    points = corners(shapes) + [(rng.uniform(-5, 65), rng.uniform(-5, 45)) for _ in range(3000)]
    colours = [plain(shapes, x, y) for x, y in points]
    assert [printed.at(x, y) for x, y in points] == colours
    assert len(set(colours)) >= 9  # the points do fall on every colour
    # A few points at once are looked up among the shapes whose box meets theirs: a box may touch a shape's.
    assert [printed.grounds(points[i:i + 2]) for i in range(len(points) - 1)] == \
        [set(colours[i:i + 2]) for i in range(len(points) - 1)]


@pytest.mark.parametrize("ink", ["full", "low"])
def test_every_face_of_a_game_prints_what_the_plain_walk_prints(ink):
    """Each text's points read against what is drawn before it, and every corner of every fill of the face."""
    folder = find_game("stratastar")
    cache, asked = SceneCache(3.0, folder, ink=ink), 0
    for comp in load_game(folder).components:
        for piece in comp.pieces:
            for side in ("front", "back") if piece.back else ("front",):
                flat = list(flatten(cache.face(comp, piece, side).elements))
                shapes = [(e, m) for e, m in flat if is_fill(e)]
                everything = fills(flat)
                points = corners(shapes)
                assert [everything.at(x, y) for x, y in points] == [plain(shapes, x, y) for x, y in points]
                for i, (text, m) in enumerate(flat):
                    if isinstance(text, Text):
                        before = [(e, n) for e, n in flat[:i] if is_fill(e)]
                        points = [p for line in text.lines for p in line_points(text, line, m)]
                        assert fills(flat[:i]).grounds(points) == {plain(before, x, y) for x, y in points}
                        asked += len(points)
    assert asked > 1000
