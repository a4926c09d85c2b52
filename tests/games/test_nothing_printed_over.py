"""Nothing printed over anything else, on every face of the four games: in full and low ink, with and without
--write-ins, no text's ink meets another element's (generator.look.overlaps, which `starpnp check` runs too).
Faces are the same scenes on A4 and Letter (the paper changes only where they are imposed), so one drawing of
each face covers both papers; the write-in set draws only the faces it changes (one memo for both sets)."""
from __future__ import annotations

import pytest

from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.look.overlaps import overlaps
from starpnp.generator.look.render import SceneCache, faces

GAMES = ["handful_of_stars", "starship_catan", "stars_inc", "stratastar"]


@pytest.mark.parametrize("ink", ["full", "low"])
@pytest.mark.parametrize("game_id", GAMES)
def test_no_text_runs_into_another_element(game_id, ink):
    folder = find_game(game_id)
    memo: dict = {}
    found, checked = [], {}
    for write_ins in (False, True):
        for face in faces(load_game(folder, write_ins=write_ins), SceneCache(3.0, folder, memo=memo, ink=ink)):
            for scene in (face.front, face.back):
                if scene is not None and id(scene) not in checked:
                    checked[id(scene)] = scene  # kept, so no other scene is made with its id
                    found += [f"{scene.label}: {problem}" + " (--write-ins)" * write_ins for problem in overlaps(scene)]
    assert not found, "\n".join(found)
