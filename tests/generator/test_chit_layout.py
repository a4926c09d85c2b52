"""The builtin chit layout on a round or hex piece with a value, an icon and a label: all three inside the ring,
so the overlap check finds nothing on it (a 16 mm round coin's "Coin" ran into its ring, issue #52)."""
from __future__ import annotations

import itertools

import yaml

from starpnp.generator.look.loader import load_game
from starpnp.generator.look.overlaps import overlaps
from starpnp.generator.look.render import SceneCache

SIZES = (12, 16, 20, 25, 32, 40)  # mm: the smallest token a rulebook asks for up to a large tile
SHAPES = ("round", "hex")
FRONTS = ({"label": "Coin", "value": 1}, {"label": "Fleet", "value": 10}, {"label": "Research", "value": 3},
          {"label": "Alien", "sublabel": "home", "value": 2}, {"label": "Two words", "value": 5})
ICONS = ("star", "fleet", "research", "alien")


def game_with_chits(folder):
    """A game folder holding one chit per size, shape and front, in the player colours and grey."""
    components = []
    for n, (size, shape, front) in enumerate(itertools.product(SIZES, SHAPES, FRONTS)):
        colour = ("#F9A825", "#1565C0", "#C62828", None)[n % 4]
        components.append({
            "id": f"chit_{n}", "name": f"Chit {size} {shape} {front['label']}", "kind": "token", "size": size,
            "shape": shape, "items": [{"count": 1}],
            "front": {"layout": "chit", "icon": ICONS[n % len(ICONS)], **front,
                      **({"color": colour} if colour else {})},
        })
    folder.mkdir()
    (folder / "game.yaml").write_text(yaml.safe_dump({"id": "chits", "name": "Chits", "players": {"min": 2, "max": 2},
                                                      "colors": ["red", "blue"]}))
    (folder / "chits.yaml").write_text(yaml.safe_dump({"components": components}))
    return folder


def test_a_round_or_hex_chit_with_value_icon_and_label_keeps_them_off_its_ring(tmp_path):
    """Each chit is clean under the overlap check, or its label cannot fit at 6 pt and the designer is told so
    (a 12 mm coin's "Research"); every label fits from 32 mm up, and each short one from 20 mm."""
    folder = game_with_chits(tmp_path / "chits")
    game = load_game(folder)
    found, told, faces = [], [], 0
    for ink in ("full", "low"):
        cache = SceneCache(3.0, folder, ink=ink)
        for comp in game.components:
            before = len(cache.warnings)
            scene = cache.face(comp, comp.pieces[0], "front")
            faces += 1
            if any("does not fit" in warning for warning in cache.warnings[before:]) or comp.spec.name in told:
                told.append(comp.spec.name)  # a face's warnings are said once, the first time it is drawn
                continue
            found += [f"{ink}: {comp.spec.name}: {problem}" for problem in overlaps(scene)]
    assert faces == 2 * len(SIZES) * len(SHAPES) * len(FRONTS)
    assert not found, "\n".join(found)
    assert all(int(name.split()[1]) < (32 if name.endswith(("Research", "words", "Alien")) else 20)
               for name in told), sorted(set(told))
