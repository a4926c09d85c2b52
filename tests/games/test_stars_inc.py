"""Stars, Inc.: every piece of the rulebook's component list in its numbers, the rule-bearing marks on the
boards, and the folding standee. Rulebook: /work/shared/seeds/002_*.txt (v4.2: "Components List", "Setup",
"Harvest Phase", "Action Phase", "Anytime During Round", "Frequently Asked Questions")."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from starpnp.generator.build import BuildOptions
from starpnp.generator.sheets.imposition import Settings
from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.look.render import SceneCache
from starpnp.generator.look.scene import Group, Line
from scene_text import printed_texts

GAME = "stars_inc"
COLOURS = {"red", "yellow", "green", "blue"}  # "5 each in red, yellow, green, and blue"
ENVIRONMENTS = ["Giant Molecular Cloud", "Superluminous Supernova", "Overdensity", "Stroemgren Sphere",
                "Time Stasis", "Time Vortex", "Overcrowding"]  # the seven names the rulebook gives


@pytest.fixture(scope="module")
def game():
    return load_game(find_game(GAME))


@pytest.fixture(scope="module", params=["a4", "letter"])
def built(request, shared_builds):
    result = shared_builds.build(find_game(GAME), BuildOptions(settings=Settings(paper=request.param),
                                                               formats=("pdf",), strict=True))
    return json.loads((result.folder / "manifest.json").read_text())


@pytest.fixture(scope="module")
def scenes(game):
    """Every face drawn once, keyed by (component id, piece name, colour, side)."""
    cache = SceneCache(3.0, find_game(GAME))
    drawn = {}
    for comp in game.components:
        for piece in comp.pieces:
            for side in ("front", "back") if piece.back else ("front",):
                drawn[comp.spec.id, piece.name, piece.color, side] = cache.face(comp, piece, side)
    assert cache.warnings == []
    return drawn


def component(game, comp_id):
    return next(c for c in game.components if c.spec.id == comp_id)


def words(scene) -> list[str]:
    return [t for t, _ in printed_texts(scene.elements)]


def test_rulebook_component_counts(built):
    q = {c["id"]: c["quantity"] for c in built["components"]}
    assert built["warnings"] == []
    assert q == {
        "board": 1,                 # 1 game board
        "player_boards": 4,         # 4 player boards with resource tracks and reference information
        "environments": 18,         # 18 environment cards, two each of nine environments
        "merger_reference": 1,      # the merger chart, as one reference card
        "icon_key": 1,              # ours: every icon the set prints, named, on page 2
        "pawns": 20,                # 20 player pawns, 5 each in four colours
        "planet_rings": 50,         # 50 planet rings, 25 each in orange and black
        "resource_markers": 16,     # 16 resource cubes, 4 each in four colours
        "first_player": 1,          # 1 first player token
    }
    by_id = {c["id"]: c for c in built["components"]}
    assert len(by_id["board"]["pages"]) > 2  # 457 mm square: tiled, with an assembly map
    assert by_id["environments"]["double_sided"]


def test_player_pieces_come_in_every_colour(built):
    for comp_id, each in (("pawns", 5), ("player_boards", 1)):
        comp = next(c for c in built["components"] if c["id"] == comp_id)
        colours = Counter(p["color"] for p in comp["pieces"] for _ in range(p["count"]))
        assert colours == {c: each for c in COLOURS}


def test_nine_environments_twice_seven_named(game):
    envs = component(game, "environments")
    assert [p.count for p in envs.pieces] == [2] * 9
    titles = [p.front.params.title for p in envs.pieces]
    assert titles[:7] == ENVIRONMENTS
    assert {"environments: Eighth environment: front.title",
            "environments: Ninth environment: front.title"} <= set(game.edition)  # the other two names are ours
    flagged = [p.front.params.title for p in envs.pieces if p.front.params.badge]
    assert flagged == ENVIRONMENTS[:4]  # the FAQ's environments for new players


def test_our_choices_are_reported(built):
    # the rulebook's gaps (our edition, write-ins on request) are tested in test_stars_inc_edition.py
    assert {"board: tracks", "player_boards: tanks.rows.max", "planet_rings: Rocky planet: color",
            "resource_markers: Iron marker: color"} <= set(built["ours"])


def test_merger_chart_from_the_rulebook_notes(game, scenes):
    chart = component(game, "merger_reference").pieces[0].front.params
    outcome = {frozenset(o.pair): o.text for o in chart.outcomes}
    assert outcome[frozenset({"Red dwarf"})] == "a new sunlike star"  # same track: next track up
    assert outcome[frozenset({"Sunlike star"})] == "a new blue giant"
    assert outcome[frozenset({"Blue giant"})] == "supernova: 2 Fe"  # FAQ: two blue giants
    assert outcome[frozenset({"White dwarf"})].startswith("type Ia")  # MERGE c
    assert outcome[frozenset({"White dwarf", "Blue giant"})] == outcome[frozenset({"Red dwarf", "Blue giant"})]
    assert [p.cost for p in chart.prices] == ["2 He", "6 He", "8 He"]
    printed = words(scenes[("merger_reference", "Merger reference", None, "front")])
    assert not any("write in" in w for w in printed)  # the one open pair is our edition's (a new sunlike star)


def test_board_tracks_capacity_and_costs(game, scenes):
    board = component(game, "board").pieces[0].front.params
    tracks = {t.title: t for t in board.tracks}
    assert set(tracks) == {"Blue Giant", "Sunlike Star", "Red Dwarf"}
    assert {name: t.cost for name, t in tracks.items()} == {"Blue Giant": "7 H", "Sunlike Star": "3 H",
                                                            "Red Dwarf": "1 H"}
    assert tracks["Blue Giant"].capacity == tracks["Sunlike Star"].capacity == "N stars"
    assert tracks["Red Dwarf"].capacity is None  # the red dwarf track holds any number
    assert [s.yields for s in tracks["Blue Giant"].spaces][-1] == "1 He + 1 C"  # hypergiant
    assert tracks["Blue Giant"].end.yields == "2 Fe"  # supernova
    assert [s.yields for s in tracks["Sunlike Star"].spaces][-2:] == ["1 C", "1 pt"]  # red giant, white dwarf
    printed = words(scenes[("board", "Game board", None, "front")])
    capped = len(tracks["Blue Giant"].spaces) + len(tracks["Sunlike Star"].spaces)
    assert printed.count("max N stars") == capped
    assert printed.count("no limit") == len(tracks["Red Dwarf"].spaces)
    assert [str(n) for n in range(10)] == [w for w in printed if w.isdigit() and len(w) == 1][-10:]
    assert board.score.cells == 10  # the 0–9 score track; rings count the tens


def test_player_board_tanks_conversions_and_costs(game, scenes):
    params = component(game, "player_boards").pieces[0].front.params
    start = {t.symbol: t.start for t in params.tanks.rows}
    assert start == {"H": 6, "He": 2, "C": 0, "Fe": 0}  # set-up values
    assert all(t.max >= 8 for t in params.tanks.rows)  # room for the dearest cost, 8 He
    assert [(c.give, c.get) for c in params.conversions.items] == [("4 H", "1 He"), ("3 He", "1 C"),
                                                                   ("2 C", "1 pt")]
    costs = {row.label: row.cost for action in params.actions for row in action.rows}
    assert costs == {
        "Blue giant": "7 H", "Sunlike star": "3 H", "Red dwarf": "1 H",
        "Rocky planet": "2 H + 2 C + 2 Fe", "Gas planet": "4 H + 6 He + 2 Fe",
        "Your own star": "free", "Someone else's star": "1 He",
        "Two of your stars": "2 He", "Two of one opponent's": "6 He", "Any two white dwarfs": "8 He",
    }
    printed = words(scenes[("player_boards", "Player board", "red", "front")])
    assert {"MAKE", "MOVE", "MERGE", "BLOCK (not an action)"} <= set(printed)


def test_standee_folds_into_a_figure(game, scenes):
    pawns = component(game, "pawns")
    w, h = pawns.spec.size
    tab = pawns.pieces[0].front.params.tab
    scene = scenes[("pawns", "Pawn", "green", "front")]
    folds = sorted(e.y1 for e in scene.elements if isinstance(e, Line) and e.style.dash and e.y1 == e.y2)
    assert folds == pytest.approx([tab, h / 2, h - tab])  # base tab, head, base tab
    panels = [e for e in scene.elements if isinstance(e, Group) and e.children and e.dy == pytest.approx(h / 2)]
    assert sorted(g.rotate for g in panels) == [0, 180]  # the back is turned to read upright once folded
    assert words(scene).count("G") == 2  # greyscale letter on both panels


def test_rings_slide_over_a_pawn(game):
    pawn_w = component(game, "pawns").spec.size[0]
    rings = component(game, "planet_rings")
    assert {p.name: p.count for p in rings.pieces} == {"Rocky planet": 25, "Gas planet": 25}
    for piece in rings.pieces:
        assert pawn_w < piece.front.params.slot_w < rings.spec.size[0]


def test_resource_markers_four_of_each(game):
    markers = component(game, "resource_markers")
    assert [(p.front.params.icon, p.count) for p in markers.pieces] == [
        ("hydrogen", 4), ("helium", 4), ("carbon", 4), ("iron", 4)]
