"""Stratastar: every piece the rulebook names, in its numbers, the Power-card option, the board's corner
homeworlds, and what the pieces print against the rulebook's facts (issue #11). Rulebook:
/work/shared/seeds/001_*.txt ("MAP OF THE GALAXY", "EMPIRE CHITS", "THE GALAXY DECK", "TURN SEQUENCE" and its
phases, "BATTLE PHASE", "RESEARCH CARDS", "OPTIONAL ABILITIES", "OPTIONAL RULES", "OPTIONAL ABILITY LIST")."""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from starpnp.generator.build import BuildOptions
from starpnp.generator.sheets.imposition import Settings
from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.look.render import SceneCache
from starpnp.generator.data.yamlio import DataError, load_yaml
from scene_text import component_text, printed_texts

GAME = "stratastar"
COLOURS = ["red", "blue", "green", "yellow"]  # "Each player gets a set of chits in a different color", 2-4 players
# the "OPTIONAL ABILITY LIST", 16 entries, with what each one discards (Wormholes names no cost)
ABILITY_COSTS = {"Scout": "2 Move", "Hyper Jump": "5 Move", "Defend the Homeworld!": "4 Move",
                 "Expansion": "2 Build", "Wormholes": None, "Piracy": "2 Attack", "Planning": "2 Build",
                 "Treason": "5 Trade", "Allied Minor Race": "4 Trade", "Treaty": "5 Trade",
                 "Nebulous Navigation": "2 Move", "Border Raids": "1 Attack", "Warfleet": "2 Build",
                 "Sabotage": "3 Attack", "Planet Buster": "5 Attack", "Nova Mine": "5 Attack"}
ABILITIES = list(ABILITY_COSTS)
RECOMMENDED = {"Spying", "Diplomacy", "Retreat"}  # "optional, but recommended"
OTHER_OPTIONS = {"Exploration", "To the death", "Low technology", "Power cards",  # "OPTIONAL RULES"
                 "Uneven start", "Breakthrough technology"}  # "MORE OPTIONAL ABILITIES"


@pytest.fixture(scope="module", params=["a4", "letter"])
def manifest(request, shared_builds):
    result = shared_builds.build(find_game(GAME), BuildOptions(settings=Settings(paper=request.param),
                                                               formats=("pdf",), strict=True))
    return json.loads((result.folder / "manifest.json").read_text())


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
    assert chits["per_player"] and chits["quantity"] == 4 * 42
    per_colour = {c: Counter() for c in COLOURS}
    for piece in chits["pieces"]:
        per_colour[piece["color"]][piece["name"]] += piece["count"]
    for colour in COLOURS:  # "10 Fleet, 10 Stargate, and 20 colony chits"; Warfleet count is ours
        assert per_colour[colour] == {"Fleet": 10, "Stargate": 10, "Colony": 20, "Warfleet": 2}
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


# ---- what the pieces print, against the rulebook's facts (issue #11) ---------------------------------------

def face_text(game, comp_id: str, side: str = "front", piece: str | None = None) -> str:
    """The lines printed on one face (of the named piece, else the first), in order, as one spaced string."""
    comp = next(c for c in game.components if c.spec.id == comp_id)
    chosen = next(p for p in comp.pieces if piece in (None, p.name))
    scene = SceneCache(0.0, Path(game.folder)).face(comp, chosen, side)
    return " ".join(text for text, _ in printed_texts(scene.elements))


def groups(pattern: str, text: str) -> tuple[str, ...] | None:
    """The groups of the first match of `pattern` in `text` (None when it is not printed)."""
    match = re.search(pattern, text, re.IGNORECASE)
    return match.groups() if match else None


def test_research_can_be_used_as_any_other_type_of_card(game):
    """"A research card can be used like any other type of card. Basic Research: Discard a research card in your
    trade phase to draw 2 cards.\""""
    card = face_text(game, "galaxy_deck", piece="Research")
    assert "card of any other type: Attack, Move, Build or Trade" in card
    assert "in your trade phase to draw 2 cards" in card
    assert "Research = draw 2" in face_text(game, "turn_reference")


def test_the_turn_aid_shows_free_trade_and_lets_both_sides_play_attack_cards(game):
    """"Free Trade: All players may freely trade cards with each other"; the Battle phase, unlike Support, Build
    and Movement, is not "Active player only": "Players simultaneously reveal the Attack cards they are using"."""
    front, back = face_text(game, "turn_reference"), face_text(game, "turn_reference", "back")
    (trade,) = groups(r"2 Trade (.*) 3 Support", front)
    assert trade.startswith("all, then active player Free trade: all may swap cards.")
    for phase in ("3 Support", "4 Build", "5 Movement"):
        assert f"{phase} active player only" in front
    (battle,) = groups(r"6 Battle (.*) Win:", front)
    assert "active player" not in battle
    assert battle.startswith("both sides fight") and "Both sides may play Attack cards, shown together" in battle
    assert "Attack cards Both sides choose theirs in secret and show them at once, a single time" in back


def named(text: str, names) -> set[str]:
    return {n for n in names if re.search(rf"\b{re.escape(n)}\b", text, re.IGNORECASE)}


def test_the_recommended_options_are_the_rulebooks_three(game):
    """"The following rules for spying, diplomacy, and retreat are optional, but recommended": the aid's front
    recommends those and nothing else; its back carries the other optional rules."""
    front, back = face_text(game, "options_reference"), face_text(game, "options_reference", "back")
    every_option = RECOMMENDED | OTHER_OPTIONS | set(ABILITIES)
    assert front.startswith("Recommended options")
    assert named(front, every_option) == RECOMMENDED
    assert named(back, every_option) == OTHER_OPTIONS
    assert "recommended" not in back.lower()


def test_a_starred_attack_card_prints_its_double_force(game, powered):
    """Attack cards have a force value of 1; a Power card is "worth two cards"."""
    plain = face_text(game, "galaxy_deck", piece="Attack").lower()  # the type line prints in capitals
    starred = face_text(powered, "galaxy_deck", piece="Attack (with power_cards)").lower()
    assert "force +1 in battle" in plain and "counts as two cards" not in plain
    assert "force +2 in battle" in starred and "counts as two cards" in starred
    assert "counts as two cards" in face_text(powered, "galaxy_deck", piece="Move (with power_cards)").lower()


def test_start_support_draw_size_and_victory_are_the_rulebooks(game):
    """"4 Fleets and one stargate", "dealt 5 cards"; "discard up to 3 cards"; "starting max draw size is 5 cards",
    "+1 for every 3 colonies"; "Homeworld can support 2 Fleets", "an additional Fleet for every 2 colonies";
    "colonies on 12 worlds"."""
    front, back = face_text(game, "turn_reference"), face_text(game, "turn_reference", "back")
    start = r"Start: shuffle the Galaxy deck and deal (\d+) cards each; (\d+) fleets and (\d+) stargate on your homeworld"
    assert groups(start, back) == ("5", "4", "1")
    assert groups(r"discard up to (\d+) cards", front) == ("3",)
    assert groups(r"max draw size \((\d+), plus 1 for every (\d+) colonies\)", front) == ("5", "3")
    assert groups(r"Max draw size (\d+) cards, plus 1 for every (\d+) colonies", back) == ("5", "3")
    assert groups(r"keeps (\d+) fleets, plus 1 more per (\d+) colonies; a Build card may count as a", front) == (
        "2", "2")
    assert groups(r"Support limit (\d+) fleets, plus 1 per (\d+) colonies", back) == ("2", "2")
    for text in (front, back, component_text(game, "board"), game.info.about):  # about: the contents page
        assert groups(r"colonies on (\d+) worlds", text) == ("12",)


def test_force_values_are_the_rulebooks(game):
    """"Each unit has a force value = 1" (units: Fleets and Colonies), "Homeworlds have a force value = 4",
    "Attack Cards have a force value = 1", a Warfleet "generates 3 Force points"; a stargate is no unit."""
    back = face_text(game, "turn_reference", "back")
    assert groups(r"Each fleet and colony in the square counts (\d+), a homeworld (\d+), each Attack card played (\d+)",
                  back) == ("1", "4", "1")
    for comp in ("map_chits", "board"):
        assert groups(r"Homeworld force (\d+)", component_text(game, comp)) == ("4",)
    chits = {name: face_text(game, "empire_chits", piece=name) for name in ("Fleet", "Colony", "Warfleet", "Stargate")}
    assert chits == {"Fleet": "1 Fleet", "Colony": "1 Colony", "Warfleet": "3 Warfleet", "Stargate": "Stargate"}
    assert "a fleet of force 3" in face_text(game, "abilities", piece="Warfleet")


def test_build_and_trade_costs_are_the_rulebooks(game):
    """Build: a Fleet or a colony for 1 Build card, a Stargate for 3, Terraforming for 5 ("Add an additional
    colony"); Internal Trade: a Trade card and X others draw X + 1, once per turn."""
    front, card = face_text(game, "turn_reference"), face_text(game, "galaxy_deck", piece="Build")
    assert groups(r"Build cards: (\d+) = a fleet at your homeworld, or a colony under your fleet", front) == ("1",)
    assert groups(r"(\d+) = a stargate at a colony. (\d+) = terraform: one more colony there", front) == ("3", "5")
    assert groups(r"(\d+) card = a fleet at your homeworld, or a colony where your fleet", card) == ("1",)
    assert groups(r"(\d+) cards = a stargate at one of your colonies. (\d+) cards = terraform a world you colonised: "
                  r"add one more colony", card) == ("3", "5")
    assert "Once a turn: Trade + X cards = draw X + 1" in front
    assert "Once per turn: discard it with X other cards to draw X + 1" in face_text(game, "galaxy_deck",
                                                                                    piece="Trade")


def test_each_ability_card_discards_what_the_list_says(game):
    for name, cost in ABILITY_COSTS.items():
        card = face_text(game, "abilities", piece=name).lower()
        assert (f"discard {cost}" if cost else "no discard").lower() in card, name
    scout = face_text(game, "abilities", piece="Scout")
    assert "3 squares" in scout and "up to" not in scout  # "move a Fleet 3 spaces"


def test_the_board_setup_counts_the_chits_that_fill_the_map(game):
    """"Place the other map chits face down randomly on the board, one per space. Leave the corners empty": the
    non-homeworld chits fill the squares but the four corners exactly."""
    (printed,) = groups(r"the other (\d+) map chits go face down", component_text(game, "board"))
    chits = next(c for c in game.components if c.spec.id == "map_chits").pieces
    grid = next(r for r in next(c for c in game.components if c.spec.id == "board").pieces[0].front.params.regions
                if r.type == "grid")
    assert int(printed) == sum(p.count for p in chits if p.name != "Homeworld") == grid.cols * grid.rows - 4
