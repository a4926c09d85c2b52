"""--ink low keeps every coloured line and frame: on every distinct low-ink face of the four games, a line or an
outline drawn in a colour (a player's frame, a track's border, a yellow board edge) and lying on light grounds
only reads at 4.5 : 1 or more against each of them, its own fill included (the board's yellow #F9A825 edge was
1.94 : 1 on white). A ground's hatching is a pattern, left light on purpose, and not judged."""
from __future__ import annotations

import pytest

from starpnp.generator.look.ink import (IDENTITY, fills, group_matrix, hatching, hex_of, is_fill, least_contrast,
                                        line_grounds, outline_grounds, rgb, then)
from starpnp.generator.look.layouts.base import luminance
from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.look.render import SceneCache, faces
from starpnp.generator.look.scene import Group, Hatching, Line

GAMES = ["handful_of_stars", "starship_catan", "stars_inc", "stratastar"]
LEAST = 4.5


def drawn(elements, m=IDENTITY):
    """(element, matrix) in drawing order, leaving out hatching."""
    for e in elements:
        if isinstance(e, Hatching):
            continue
        if isinstance(e, Group):
            yield from drawn(e.children, then(m, group_matrix(e)))
        else:
            yield e, m


def faint_frames(scene) -> list[str]:
    flat = list(drawn(scene.elements))
    out = []
    for i, (e, m) in enumerate(flat):
        style = getattr(e, "style", None)
        if not style or not style.stroke or hatching(style.stroke) is None:
            continue
        below = fills(flat[:i])
        grounds = (line_grounds if isinstance(e, Line) else outline_grounds)(e, m, below)
        if is_fill(e):
            grounds |= {hex_of(rgb(style.fill))}
        if any(luminance(g) < 0.5 for g in grounds):
            continue  # a detail on a dark part of an icon: not a frame on the light ground
        ratio = least_contrast(style.stroke, grounds)
        if ratio < LEAST:
            out.append(f"{scene.label}: {type(e).__name__} {style.stroke} on {sorted(grounds)}: {ratio:.2f} : 1")
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_coloured_lines_and_frames_read_on_the_light_ground(game_id):
    folder = find_game(game_id)
    seen, found = set(), []
    for face in faces(load_game(folder), SceneCache(3.0, folder, ink="low")):
        for scene in (face.front, face.back):
            if scene is not None and id(scene) not in seen:
                seen.add(id(scene))
                found += faint_frames(scene)
    assert not found, f"{len(found)} faint:\n" + "\n".join(dict.fromkeys(found))
