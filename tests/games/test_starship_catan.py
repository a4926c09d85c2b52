"""Starship Catan: every piece the rulebook's setup names, in its numbers, the fold-up dice, legible faces
and, built with --write-ins, clean write-in shells (our edition's values: test_starship_catan_edition.py).
Rulebook: /work/shared/seeds/003_*.txt ("SETUP", "PHASES", "SPECIAL VICTORY POINT CARDS", "GAME END")."""
from __future__ import annotations

import json
import math

import pytest
from pydantic import ValidationError

from starpnp.generator.build import BuildOptions
from starpnp.generator.sheets.imposition import Settings
from starpnp.generator.look.layouts import layouts_for
from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.look.render import SceneCache
from starpnp.generator.look.scene import Circle, Group, Line, Polygon, Rect, Text

GAME = "starship_catan"
COLOURS = ["red", "blue"]  # a two-player game


@pytest.fixture(scope="module", params=["a4", "letter"])
def manifest(request, shared_builds):
    result = shared_builds.build(find_game(GAME), BuildOptions(settings=Settings(paper=request.param),
                                                               formats=("pdf",), strict=True))
    return json.loads((result.folder / "manifest.json").read_text())


def drawn_faces(write_ins: bool) -> dict:
    """(component id, piece name, colour, side) -> the drawn face, of our edition or of the write-in set."""
    game = load_game(find_game(GAME), write_ins=write_ins)
    cache = SceneCache(3.0, find_game(GAME))
    faces = {}
    for comp in game.components:
        for piece in comp.pieces:
            for side in ("front", "back") if piece.back else ("front",):
                faces[(comp.spec.id, piece.name, piece.color, side)] = cache.face(comp, piece, side)
    return faces


@pytest.fixture(scope="module")
def scenes():
    return drawn_faces(write_ins=False)


@pytest.fixture(scope="module")
def write_in_scenes():
    return drawn_faces(write_ins=True)


def entry(manifest, comp_id):
    return next(c for c in manifest["components"] if c["id"] == comp_id)


def per_colour(comp):
    """Piece name -> copies for each player colour, checking both colours get the same set."""
    by_colour: dict[str, dict[str, int]] = {}
    for piece in comp["pieces"]:
        by_colour.setdefault(piece["color"], {})[piece["name"]] = piece["count"]
    assert sorted(by_colour) == sorted(COLOURS)
    first, second = by_colour.values()
    assert first == second
    return first


def test_each_player_gets_the_setup_list(manifest):
    assert per_colour(entry(manifest, "starship")) == {"Starship": 1}  # "Starship"
    assert sum(per_colour(entry(manifest, "boosters")).values()) == 2  # "2 Booster and 3 Cannon tiles"
    assert sum(per_colour(entry(manifest, "cannons")).values()) == 3
    assert per_colour(entry(manifest, "ships")) == {"Colony ship": 1, "Trade ship": 1}  # "1 Colony [C] and Trade [T] Ship"
    assert per_colour(entry(manifest, "resource_arrows")) == {"Resource arrow": 5, "Pink resource arrow": 1}  # "6 (1 pink)"
    assert per_colour(entry(manifest, "colony_card")) == {"Colony": 1}  # "Colony card and 6 ... Modules"
    modules = per_colour(entry(manifest, "modules"))
    assert len(modules) == 6 and set(modules.values()) == {1}
    assert {"Command Module", "Logistics Module", "Trade Module"} <= set(modules)  # the three the rulebook names


def test_tiles_and_modules_are_double_sided(manifest):
    for comp_id in ("boosters", "cannons", "modules"):  # level I / level II; built / not built
        assert entry(manifest, comp_id)["double_sided"]


def test_shared_pieces(manifest):
    advanced = entry(manifest, "advanced_modules")
    assert advanced["quantity"] == 6 and not advanced["per_player"]  # "the 6 Advanced level II Modules"
    people = entry(manifest, "people_cards")
    assert {p["name"] for p in people["pieces"]} == {"Friend of the People", "Hero of the People"}
    assert people["quantity"] == 2
    assert entry(manifest, "sector_cards")["quantity"] == 40  # "4 Sector stacks of 10", borderless
    assert entry(manifest, "dice")["quantity"] == 2  # the yellow and the blue die
    assert {p["name"] for p in entry(manifest, "dice")["pieces"]} == {"Yellow die", "Blue die"}
    assert entry(manifest, "score_board")["quantity"] == 1


def test_astro_bank_covers_both_starting_purses(manifest):
    astro = entry(manifest, "astro")
    total = sum(p["count"] * int(p["name"].split()[0]) for p in astro["pieces"])
    assert total >= 2 * 25  # "25 Astro" each


def test_our_other_choices_are_reported(manifest):
    ours = set(manifest["ours"])
    assert {"reserve_sector_cards: count", "council_cards: count", "astro: denominations",
            "spare_ships: count", "score_board: Fame track"} <= ours


def text_items(elements, depth=0):
    """Every Text with whether it sits inside an icon (scaled group)."""
    for e in elements:
        if isinstance(e, Group):
            yield from text_items(e.children, depth + (e.scale != 1))
        elif isinstance(e, Text):
            yield e, depth


def test_victory_track_runs_to_10_and_marks_the_end(scenes):
    board = scenes[("score_board", "Starship Catan · Score", None, "front")]
    words = [line.text for t, _ in text_items(board.elements) for line in t.lines]
    assert words.count("10") == 3 and "game ends" in words  # "The game ends when either player has 10 VP"
    assert "Hero card" in words and "Friend card" in words  # the cards come at 3 points


def test_die_net_is_a_closed_cube_with_seven_glue_tabs(scenes):
    die = scenes[("dice", "Yellow die", None, "front")].elements
    s = 24.0  # the face side that fits four faces and a tab across 104 mm and three faces into 72 mm
    faces = [e for e in die if isinstance(e, Rect) and e.style.fill == "#FBC02D"]
    assert sorted((e.x / s, e.y / s, e.w, e.h) for e in faces) == sorted(
        (col, row, s, s) for col, row in ((1, 0), (0, 1), (1, 1), (2, 1), (3, 1), (1, 2)))  # a cross of six
    tabs = [e.points for e in die if isinstance(e, Polygon) and e.style.fill == "#D5D8DC"]
    assert len(tabs) == 7  # 12 cube edges - 5 fold edges = 7 seams, one tab each
    (cut,) = [e.points for e in die if isinstance(e, Polygon) and e.style.fill is None]
    xs, ys = [p[0] for p in cut], [p[1] for p in cut]
    assert min(xs) == 0 and min(ys) == 0 and max(ys) == 3 * s and max(xs) <= 104
    # every consecutive pair of outline points is joined by one straight cut: no jumps across the net
    for (x1, y1), (x2, y2) in zip(cut, cut[1:] + cut[:1]):
        assert math.dist((x1, y1), (x2, y2)) <= s + 1e-9
    assert all(point in cut for tab in tabs for point in tab)  # the cut goes round every tab
    pips = [e for e in die if isinstance(e, Circle)]
    assert len(pips) == 1 + 2 + 3 + 4 + 5 + 6


def test_die_net_checks_its_faces():
    params = layouts_for()["die_net"].params
    with pytest.raises(ValidationError, match="at least 6 items"):
        params(layout="die_net", title="d", faces=["1", "2"])
    with pytest.raises(ValidationError, match="should match pattern"):
        params(layout="die_net", title="d", faces=["pips:7"] + ["1"] * 5)
    ok = params(layout="die_net", title="d", faces=[f"pips:{n}" for n in range(1, 7)])
    assert ok.faces[5] == "pips:6"
    assert params(layout="die_net", title="d", faces="unspecified").faces == "unspecified"


def test_die_faces_are_write_ins_with_dashed_folds(write_in_scenes):
    die = write_in_scenes[("dice", "Yellow die", None, "front")]
    labels = [line.text for t, _ in text_items(die.elements) for line in t.lines]
    assert [f"write in: face {n}" for n in range(1, 7)] == [x for x in labels if x.startswith("write in: face")]
    folds = [e for e in die.elements if isinstance(e, Line) and e.style.dash]
    assert len(folds) == 5 + 7  # five folds between faces, one at the base of each tab
    cut = [e for e in die.elements if isinstance(e, Polygon) and e.style.fill is None]
    assert len(cut) == 1


def test_write_in_labels_stay_on_one_line(write_in_scenes):
    """A write-in label that wraps spills out of its box: each must fit on one line at 6 pt."""
    wrapped = [(key, t.lines[0].text) for key, scene in write_in_scenes.items() for t, _ in text_items(scene.elements)
               if t.lines and t.lines[0].text.startswith("write in") and len(t.lines) > 1]
    assert wrapped == []
