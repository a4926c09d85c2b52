"""Stratastar: every piece the rulebook names, in its numbers, the Power-card option, the board's corner
homeworlds, and legible faces. Rulebook: /work/shared/seeds/001_*.txt ("MAP OF THE GALAXY", "EMPIRE
CHITS", "THE GALAXY DECK", "OPTIONAL RULES", "OPTIONAL ABILITY LIST")."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from starpnp.generator.build import BuildOptions, build_game
from starpnp.generator.imposition import Settings
from starpnp.generator.loader import find_game, load_game
from starpnp.generator.yamlio import DataError, load_yaml

GAME = "stratastar"
COLOURS = ["red", "blue", "green", "yellow"]  # "Each player gets a set of chits in a different color", 2-4 players
ABILITIES = ["Scout", "Hyper Jump", "Defend the Homeworld!", "Expansion", "Wormholes", "Piracy", "Planning",
             "Treason", "Allied Minor Race", "Treaty", "Nebulous Navigation", "Border Raids", "Warfleet",
             "Sabotage", "Planet Buster", "Nova Mine"]  # the "OPTIONAL ABILITY LIST", 16 entries


@pytest.fixture(scope="module", params=["a4", "letter"])
def manifest(request, tmp_path_factory):
    out = tmp_path_factory.mktemp(f"ss-{request.param}")
    build_game(find_game(GAME), BuildOptions(settings=Settings(paper=request.param), out=out, formats=("pdf",),
                                             strict=True))
    return json.loads((out / GAME / "manifest.json").read_text())


@pytest.fixture(scope="module")
def game():
    return load_game(find_game(GAME))


@pytest.fixture(scope="module")
def powered():
    return load_game(find_game(GAME), {"power_cards"})


def entry(manifest, comp_id):
    return next(c for c in manifest["components"] if c["id"] == comp_id)


def counts_by_name(comp):
    """Piece name -> copies, with the power-card candidates folded into their card type."""
    counts: Counter = Counter()
    for piece in comp["pieces"]:
        counts[piece["name"].split(" (")[0]] += piece["count"]
    return counts


def test_map_chits_have_the_rulebooks_mix_and_one_common_back(manifest):
    chits = entry(manifest, "map_chits")
    assert chits["quantity"] == 100  # "Make 100 map chits"
    assert counts_by_name(chits) == {"Homeworld": 4, "World": 20, "Supernova": 4, "Black Hole": 4, "Nebula": 8,
                                     "Blank": 60}
    assert chits["double_sided"]


def test_each_colour_has_its_empire_set(manifest):
    chits = entry(manifest, "empire_chits")
    assert chits["per_player"] and chits["quantity"] == 4 * 45
    per_colour = {c: Counter() for c in COLOURS}
    for piece in chits["pieces"]:
        per_colour[piece["color"]][piece["name"]] += piece["count"]
    for colour in COLOURS:  # "10 Fleet, 10 Stargate, and 20 colony chits"; Warfleet count is ours
        assert per_colour[colour] == {"Fleet": 10, "Stargate": 10, "Colony": 20, "Warfleet": 5}
    assert "empire_chits: Warfleet: count" in manifest["ours"]


def test_galaxy_deck_has_85_cards_with_a_common_back(manifest):
    deck = entry(manifest, "galaxy_deck")
    assert deck["quantity"] == 85  # "The deck contains 85 cards"
    assert counts_by_name(deck) == {"Attack": 20, "Move": 20, "Build": 20, "Trade": 20, "Research": 5}
    assert deck["double_sided"]


def test_one_card_per_optional_ability_and_a_reference_per_player(manifest):
    abilities = entry(manifest, "abilities")
    assert [p["name"] for p in abilities["pieces"]] == ABILITIES
    assert all(p["count"] == 1 for p in abilities["pieces"])
    assert entry(manifest, "turn_reference")["quantity"] == 4  # up to 4 players
    assert manifest["unspecified"] == []  # the rulebook gives every number we print


def test_board_is_tiled_over_the_page(manifest):
    board = entry(manifest, "board")
    assert board["quantity"] == 1
    assert len(board["pages"]) > 2  # an assembly map, then the overlapping tiles


def stars(game):
    deck = next(c for c in game.components if c.spec.id == "galaxy_deck")
    return Counter({p.name.split(" (")[0]: p.count for p in deck.pieces if p.front.params.star})


def test_power_cards_star_four_of_each_type_only_with_the_option(game, powered):
    assert stars(game) == {}
    # "Draw a star on 4 build, 4 attack, 4 trade, and 4 move cards"
    assert stars(powered) == {"Attack": 4, "Move": 4, "Build": 4, "Trade": 4}
    deck = next(c for c in powered.components if c.spec.id == "galaxy_deck")
    assert deck.quantity == 85


def test_board_is_a_10_by_10_grid_with_homeworld_corners_sized_to_the_chits(game):
    board = next(c for c in game.components if c.spec.id == "board")
    grid = next(r for r in board.pieces[0].front.params.regions if r.type == "grid")
    assert (grid.cols, grid.rows) == (10, 10)  # "use a 10 X 10 grid"
    corners = {(c.col, c.row) for c in grid.cells if c.label == "Homeworld"}
    assert corners == {(0, 0), (9, 0), (0, 9), (9, 9)}
    chit = next(c for c in game.components if c.spec.id == "map_chits").spec.size
    assert chit[0] <= grid.cell <= chit[0] + 4


def test_yaml_merge_keys_let_a_card_override_a_field_but_not_repeat_one(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text("a: &card {count: 16, title: Move}\nb: {<<: *card, count: 4}\n")
    assert load_yaml(good)["b"] == {"count": 4, "title": "Move"}
    bad = tmp_path / "bad.yaml"
    bad.write_text("b: {count: 4, count: 5}\n")
    with pytest.raises(DataError, match="duplicate key 'count'"):
        load_yaml(bad)
