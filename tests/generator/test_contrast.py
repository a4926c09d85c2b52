"""Every line of text on every face of the four games reads against what is printed behind it: a contrast
ratio of at least 4.5 : 1 (WCAG AA), with every build option on and with --write-ins.

What is behind a line is worked out from the scene as it prints (generator.look.ink): the filled shapes drawn
before the text, in order, blended by their opacity, at points across the line's box. Raster or SVG art
behind a text is not judged (our four games draw none). --ink low is checked too: it recolours texts with
the same reckoning, so here it mostly proves that the pale grounds left nothing unreadable behind.
"""
from __future__ import annotations

import pytest

from starpnp.generator.look.ink import fills, flatten, worst_ground
from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.look.render import SceneCache
from starpnp.generator.look.scene import Rect, Text

GAMES = ["handful_of_stars", "starship_catan", "stars_inc", "stratastar"]
MINIMUM = 4.5


def low_contrast(scene) -> list[str]:
    """("'text' #INK on #BACK (ratio)", (ink, back)) for every line of text reading below MINIMUM somewhere."""
    flat = list(flatten(scene.elements))
    found = []
    for i, (element, m) in enumerate(flat):
        if isinstance(element, Text):
            below = fills(flat[:i])
            for line in element.lines:
                ratio, behind = worst_ground(element, line, m, below)
                if ratio < MINIMUM:
                    found.append((f"{line.text!r} {element.color} on {behind} ({ratio:.2f}:1)",
                                  (element.color, behind)))
    return found


def every_face(game: str, write_ins: bool, ink: str = "full"):
    folder = find_game(game)
    loaded = load_game(folder, set(load_game(folder).info.options), write_ins)
    cache = SceneCache(3.0, folder, ink=ink)
    for comp in loaded.components:
        for piece in comp.pieces:
            for side in ("front", "back") if piece.back else ("front",):
                yield f"{comp.spec.id}: {piece.name}" + (f" ({piece.color})" if piece.color else "") + f": {side}", \
                    cache.face(comp, piece, side)


def problems_of(game: str, write_ins: bool, ink: str = "full") -> list[tuple[str, tuple[str, str]]]:
    seen: set[int] = set()
    problems = []
    for where, scene in every_face(game, write_ins, ink):
        if id(scene) not in seen:
            seen.add(id(scene))
            problems += [(f"{where}: {text}", pair) for text, pair in low_contrast(scene)]
    return problems


@pytest.mark.parametrize("ink, write_ins", [("full", False), ("full", True), ("low", False)])
@pytest.mark.parametrize("game", GAMES)
def test_every_text_reads_against_what_is_behind_it(game, write_ins, ink):
    problems = sorted(text for text, _ in problems_of(game, write_ins, ink))
    assert problems == [], f"{len(problems)} lines of text below {MINIMUM}:1:\n" + "\n".join(problems[:60])


def test_the_checker_sees_dark_text_on_a_dark_ground():
    """The Stars, Inc. board's 'Score' heading was #1A1A1A on #0D1B3D (about 1 : 1): the check must catch it."""
    from starpnp.generator.look.scene import Scene, Style
    from starpnp.generator.look.text import fit_text

    heading = fit_text("Score", 10, 10, 40, 9, font="Lato-Black", size=15, color="#1A1A1A").text
    scene = Scene(100, 100, 0, (Rect(-3, -3, 106, 106, Style(fill="#0D1B3D")), heading))
    assert low_contrast(scene) == [("'Score' #1A1A1A on #0D1B3D (1.03:1)", ("#1A1A1A", "#0D1B3D"))]
    readable = fit_text("Score", 10, 10, 40, 9, font="Lato-Black", size=15, color="#FFFFFF").text
    assert low_contrast(Scene(100, 100, 0, (Rect(-3, -3, 106, 106, Style(fill="#0D1B3D")), readable))) == []
