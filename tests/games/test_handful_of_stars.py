"""A Handful of Stars: every piece of the rulebook's component list, in its numbers, and the board's
rule-bearing marks. Rulebook: /work/shared/seeds/004_*.txt ("Components", "Starting the game",
"Ending the game", "Full description of the cards")."""
from __future__ import annotations

import json
from collections import Counter

import pytest
from pypdf import PdfReader

from starpnp.generator.build import BuildOptions, build_game
from starpnp.generator.imposition import Settings
from starpnp.generator.loader import find_game, load_game

GAME = "handful_of_stars"
COLOURS = 4  # "Four sets of player pieces"


@pytest.fixture(scope="module")
def game():
    return load_game(find_game(GAME))


def build(out, paper):
    """A strict build (any warning raises) of the PDF; the manifest and the PDF's path."""
    result = build_game(find_game(GAME), BuildOptions(settings=Settings(paper=paper), out=out, formats=("pdf",),
                                                      strict=True))
    manifest = json.loads((out / GAME / "manifest.json").read_text())
    return manifest, next(p for p in result.files if p.suffix == ".pdf")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build(tmp_path_factory.mktemp("hos-a4"), "a4")


def test_letter_builds_without_warnings(tmp_path):
    manifest, _ = build(tmp_path, "letter")
    assert manifest["warnings"] == [] and manifest["paper"] == "letter"
    assert quantities(manifest)["technology"] == 41


def quantities(manifest) -> dict[str, int]:
    return {c["id"]: c["quantity"] for c in manifest["components"]}


def component(game, comp_id):
    return next(c for c in game.components if c.spec.id == comp_id)


def test_rulebook_component_counts(built):
    manifest, _ = built
    q = quantities(manifest)
    assert manifest["warnings"] == []
    assert q["board"] == 1                      # 1 game board
    assert q["habitable_tiles"] == 19           # 19 habitable system tiles
    assert q["uninhabitable_tiles"] == 19       # 19 uninhabitable system tiles
    assert q["habitable_cards"] == 19           # 19 habitable system cards
    assert q["uninhabitable_cards"] == 17       # 17 uninhabitable system cards
    assert q["aliens"] == 18                    # 18 alien counters
    assert q["developments"] == 33              # 33 development counters
    assert q["wormholes"] == 4                  # 4 wormhole counters
    assert q["black_holes"] == 16               # 16 black hole discs
    assert q["game_markers"] == 3               # 3 game markers
    assert q["race_identity"] == 7              # 7 race identity cards
    assert q["race_abilities"] == 21            # 21 race ability cards
    assert q["technology"] == 41                # 41 technology cards
    assert q["starting_cards"] == 4 * COLOURS   # 4 starting cards per player
    assert q["player_display"] == COLOURS       # 1 player display per player
    assert q["star_bases"] == 6 * COLOURS       # 6 star base counters per player
    assert q["home_worlds"] == COLOURS          # 1 home world per player
    for per_player in ("fleets", "colony_discs", "outposts"):
        assert q[per_player] % COLOURS == 0 and q[per_player] > 0
    # a two-player start needs 2 + 1 + 8 fleets and 8 outposts (5 + 5 systems each)
    assert q["fleets"] // COLOURS >= 11 and q["outposts"] // COLOURS >= 8
    by_id = {c["id"]: c for c in manifest["components"]}
    assert by_id["developments"]["double_sided"] and by_id["aliens"]["double_sided"]


def test_player_pieces_come_in_every_colour(built):
    manifest, _ = built
    for comp in manifest["components"]:
        if comp["per_player"]:
            colours = Counter(p["color"] for p in comp["pieces"] for _ in range(p["count"]))
            assert set(colours) == {"red", "blue", "green", "yellow"}, comp["id"]
            assert len(set(colours.values())) == 1, comp["id"]


TECH_COUNTS = {  # the "(n)" the card list gives, plus the ten single cards we class as Technology
    "Development": 3, "Dreadnoughts": 2, "Culture": 4, "Force Shields": 2, "High-Energy Weapons": 2,
    "Mass Armies": 2, "Missiles": 2, "Mobile Factories": 2, "Rapid-Reaction Force": 2, "Research Laboratories": 4,
    "Space Mines": 2, "Star Bomb": 2, "Terra-forming": 2, "Advanced Cybernetics": 1, "Artificial Intelligence": 1,
    "Black-Hole Creator": 1, "Fast Ships": 1, "Hyper-Search Engine": 1, "Retreat": 1, "Star Base Movement": 1,
    "Stealth Technology": 1, "Temporary Wormhole": 1, "Wormhole Technology": 1,
}


def test_technology_deck_matches_card_list(game):
    tech = component(game, "technology")
    assert {p.name: p.count for p in tech.pieces} == TECH_COUNTS
    assert sum(TECH_COUNTS.values()) == 41
    fronts = {p.name: p.front.params for p in tech.pieces}
    assert fronts["Wormhole Technology"].cost == 2  # "two Research points"
    labs = fronts["Research Laboratories"].resources
    assert [(r.kind, r.value) for r in labs] == [("research", 2)]  # "a Research Points value of two"
    assert "Technology" in tech.spec.note and "Race Ability" in tech.spec.ours[0]


def test_race_cards_three_per_race(game):
    races = [p.name for p in component(game, "race_identity").pieces]
    assert races == ["Aggroloids", "Bilderoids", "Culturemoogs", "Exploremords", "Peacenims", "Storbots",
                     "Technoids"]
    per_race = Counter()
    for piece in component(game, "race_abilities").pieces:
        per_race[piece.front.params.footer] += piece.count
    assert per_race == {race: 3 for race in races}
    for piece in component(game, "race_identity").pieces:
        assert len(piece.front.params.items) == 3
    # no race ability card is also counted in the Technology deck
    tech_names = {p.name for p in component(game, "technology").pieces}
    described = {"Super Dreadnoughts", "Armaments", "Production Line", "Festival of Culture", "Scouts", "Diplomacy",
                 "Warehouse", "Out of Storage", "Recycling Plant", "Blue-Sky Research", "Top-Secret Research"}
    ability_names = {p.front.params.title for p in component(game, "race_abilities").pieces}
    assert described <= ability_names and not ability_names & tech_names
    assert len(ability_names) == 21  # the 11 the card list describes and the 10 of our edition


def test_board_map_and_black_hole_letters(game):
    board = component(game, "board").pieces[0].front.params
    assert len(board.systems) == 38  # 38 system locations, one per tile
    ids = {s.id for s in board.systems}
    linked = {end for c in board.connections for end in (c.a, c.b)}
    assert linked == ids  # every location is reachable
    board_letters = sorted(c.letter for c in board.connections if c.letter)
    tiles = component(game, "habitable_tiles").pieces + component(game, "uninhabitable_tiles").pieces
    tile_letters = sorted(p.front.params.black_hole for p in tiles if p.front.params.black_hole)
    assert board_letters == tile_letters == list("ABCDEFGHIJKLMNO")  # "potential for fifteen Black Holes"


def test_board_tracks(game):
    regions = component(game, "board").pieces[0].front.params.regions
    shuffle = next(r for r in regions if r.type == "track" and r.title == "Shuffle track")
    assert (shuffle.start, shuffle.cells) == (0, 21)  # spaces 0-20
    assert shuffle.marks == {14: "2 players", 18: "3 players", 20: "4 players"}
    slots = {r.title: r.slots for r in regions if r.type == "box" and r.slots}
    assert any(n == 8 and t.startswith("Technology cards") for t, n in slots.items())
    development = [r for r in regions if r.type == "grid"]
    assert [(g.cols, g.rows) for g in development] == [(6, 1)] and development[0].cell >= 22  # 22 mm counters
    combat = [r for r in regions if r.type == "track" and isinstance(r.cells, list) and "0" in r.cells]
    assert combat and any("defender" in r.title for r in regions if r.type == "track")


def test_pdf_prints_end_triggers_and_display(built):
    manifest, pdf = built
    by_id = {c["id"]: c for c in manifest["components"]}
    pages = sorted({n for comp in ("board", "player_display", "race_identity") for n in by_id[comp]["pages"]})
    reader = PdfReader(pdf)
    text = " ".join(reader.pages[n - 1].extract_text() or "" for n in pages)
    for words in ("2 players", "3 players", "4 players", "Reserve One", "Reserve Two", "Colony track",
                  "Wormhole technology", "Aggroloids", "Technoids", "Super Dreadnoughts"):
        assert words in text, words
