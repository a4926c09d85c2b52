"""Every game of ours builds cleanly on A4 and Letter (no warning but the listed `unspecified` fields), in the
shared player colours, with every line of text printed at 6 pt or more."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from starpnp.generator.build import BuildOptions
from starpnp.generator.sheets.imposition import Settings
from starpnp.generator.look.loader import builtin_games, find_game, load_game
from starpnp.generator.data.palette import PLAYER_COLORS
from starpnp.generator.look.render import SceneCache
from scene_text import printed_texts

README = Path(__file__).resolve().parents[2] / "README.md"
GAMES = ["handful_of_stars", "starship_catan", "stars_inc", "stratastar"]


def test_all_four_games_are_ours():
    assert builtin_games() == sorted(GAMES)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", GAMES)
def test_game_builds_without_warnings(game, paper, shared_builds):
    options = BuildOptions(settings=Settings(paper=paper), formats=("pdf",), strict=True)
    result = shared_builds.build(find_game(game), options)  # strict: any warning raises BuildFailed
    assert result.warnings == []
    assert result.pages > 1 and (result.folder / f"{game}-{paper}.pdf").is_file()
    # README's section on the game says what a user gets
    readme = README.read_text()
    a4 = re.search(rf"`starpnp build {game}` — (\d+) pieces on (\d+) A4 (?:or Letter pages|pages \((\d+) on Letter\))",
                   readme)
    assert a4, f"README has no pieces/pages line for {game}"
    pieces, a4_pages, letter_pages = int(a4[1]), int(a4[2]), int(a4[3] or a4[2])
    assert (pieces, a4_pages if paper == "a4" else letter_pages) == (result.pieces, result.pages)


@pytest.mark.parametrize("game", GAMES)
def test_player_colours_come_from_the_shared_palette(game):
    info = load_game(find_game(game)).info
    assert set(info.colors) <= set(PLAYER_COLORS)
    # colours are told apart in greyscale by a shape and a letter of their own
    shapes = {PLAYER_COLORS[c].shape for c in info.colors}
    letters = {PLAYER_COLORS[c].letter for c in info.colors}
    assert len(shapes) == len(letters) == len(info.colors)


@pytest.mark.parametrize("game", GAMES)
def test_every_face_prints_its_text_at_six_points_or_more(game):
    folder = find_game(game)
    loaded = load_game(folder, set(load_game(folder).info.options))  # every build option on
    cache = SceneCache(3.0, folder)
    for comp in loaded.components:
        for piece in comp.pieces:
            for side in ("front", "back") if piece.back else ("front",):
                cache.face(comp, piece, side)
    assert cache.warnings == []
    lines = [(text, size) for scene in cache.scenes.values() for text, size in printed_texts(scene.elements)]
    assert len(lines) > 100
    assert sorted({(text, round(size, 2)) for text, size in lines if size < 6 - 1e-6}) == []


# the die net's faces in order: top, left, front, right, back, bottom (builtin die_net layout); these are opposite
OPPOSITE = ((0, 5), (1, 3), (2, 4))


@pytest.mark.parametrize("game", GAMES)
def test_die_nets_put_opposite_faces_as_a_standard_die_does(game):
    """A 1-6 die folds with opposite faces summing to 7; a die of 1-3 twice, to 4."""
    dice = [p for c in load_game(find_game(game)).components if c.spec.kind == "die" for p in c.pieces]
    for piece in dice:
        faces = [int(f.split(":")[1]) for f in piece.front.params.faces if str(f).startswith("pips:")]
        if len(faces) == 6:
            total = min(faces) + max(faces)
            assert all(faces[a] + faces[b] == total for a, b in OPPOSITE), (piece.name, faces)
