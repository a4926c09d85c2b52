"""Card backs tolerate 2 mm of front/back misregistration: nothing on the back of a card runs along the cut
a few millimetres inside it (a frame there would show the shift as an uneven border)."""
from __future__ import annotations

import pytest

from starpnp.generator.look.ink import apply, flatten
from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.look.render import SceneCache
from starpnp.generator.look.scene import Rect, Scene

GAMES = ["handful_of_stars", "starship_catan", "stars_inc", "stratastar"]
NEAR = (0.3, 5.0)  # mm inside the cut where an edge running along it would show a shift


def edges_along_the_cut(scene: Scene) -> list[str]:
    """Rectangles (filled or outlined) with an edge parallel to the cut, NEAR it, along most of that side."""
    w, h = scene.width, scene.height
    found = []
    for shape, m in flatten(scene.elements):
        if not isinstance(shape, Rect) or not (shape.style.fill or shape.style.stroke):
            continue
        (x0, y0), (x1, y1) = apply(m, shape.x, shape.y), apply(m, shape.x + shape.w, shape.y + shape.h)
        left, right, top, bottom = min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1)
        long_x, long_y = right - left > 0.5 * w, bottom - top > 0.5 * h
        for name, distance, long in (("left", left, long_y), ("right", w - right, long_y),
                                     ("top", top, long_x), ("bottom", h - bottom, long_x)):
            if long and NEAR[0] <= distance <= NEAR[1]:
                found.append(f"{name} edge {distance:.1f} mm inside the cut ({shape.style.fill or shape.style.stroke})")
    return found


def card_back_problems(game: str) -> list[tuple[str, str]]:
    """(layout, problem) for every card back with an edge along its cut."""
    folder = find_game(game)
    cache = SceneCache(3.0, folder)
    problems = []
    for comp in load_game(folder).components:
        for piece in comp.pieces:
            if comp.spec.kind == "card" and piece.back and comp.double_sided:
                problems += [(piece.back.layout, f"{comp.spec.id}: {piece.name}: {p}")
                             for p in edges_along_the_cut(cache.face(comp, piece, "back"))]
    return problems


@pytest.mark.parametrize("game", GAMES)
def test_card_backs_have_nothing_running_along_the_cut(game):
    assert sorted({p for _, p in card_back_problems(game)}) == []


def test_a_frame_near_the_cut_is_caught():
    from starpnp.generator.look.scene import Style

    frame = Scene(63, 88, 3, (Rect(-3, -3, 69, 94, Style(fill="#101A33")),
                              Rect(3, 3, 57, 82, Style(stroke="#8888AA", stroke_width=0.6))))
    assert len(edges_along_the_cut(frame)) == 4
