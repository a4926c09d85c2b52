"""Every set has an icon key: each icon drawn on any of its pieces is named on the key, and the key names no
icon the set does not print. The icons are caught as the layouts draw them, so a new icon on a card fails
here until the key explains it."""
from __future__ import annotations

from pathlib import Path

import pytest

import starpnp.generator.look.layouts.base as layout_base
from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.look.render import SceneCache

GAMES = ["handful_of_stars", "starship_catan", "stars_inc", "stratastar"]
KEY = "icon_key"


def icons_drawn(game_id: str, monkeypatch) -> tuple[set[str], list[str]]:
    """(icons on every piece but the key, icon names the key lists)."""
    folder = find_game(game_id)
    game = load_game(folder)
    drawn: set[str] = set()
    draw = layout_base.draw_icon

    def spy(name, *args, **kwargs):
        drawn.add(name)
        return draw(name, *args, **kwargs)

    monkeypatch.setattr(layout_base, "draw_icon", spy)
    cache = SceneCache(0.0, Path(folder))
    key = next(c for c in game.components if c.spec.id == KEY)
    for comp in game.components:
        if comp is key:
            continue
        for piece in comp.pieces:
            for side in ("front", "back") if piece.back else ("front",):
                cache.face(comp, piece, side)
    return drawn, [entry.icon for entry in key.pieces[0].front.params.entries]


@pytest.mark.parametrize("game", GAMES)
def test_the_icon_key_names_every_icon_the_set_prints_and_no_other(game, monkeypatch):
    drawn, listed = icons_drawn(game, monkeypatch)
    assert len(listed) == len(set(listed)), "an icon is listed twice"
    assert sorted(drawn - set(listed)) == [], "printed but not on the icon key"
    assert sorted(set(listed) - drawn) == [], "on the icon key but printed nowhere"


@pytest.mark.parametrize("game", GAMES)
def test_the_icon_key_prints_every_name_it_lists(game):
    from scene_text import component_text

    loaded = load_game(find_game(game))
    key = next(c for c in loaded.components if c.spec.id == KEY)
    text = component_text(loaded, KEY)
    for entry in key.pieces[0].front.params.entries:
        assert entry.name.split()[0] in text, entry.name
