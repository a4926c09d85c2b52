"""A Handful of Stars: every piece of the rulebook's component list, in its numbers, and the board's
rule-bearing marks. Rulebook: /work/shared/seeds/004_*.txt ("Components", "Starting the game",
"Ending the game", "Full description of the cards")."""
from __future__ import annotations

import json
import math
import random
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from starpnp.generator.build import BuildOptions
from starpnp.generator.sheets.imposition import Settings
from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.data.model import CARD_SIZES
from starpnp.generator.look.render import SceneCache
from starpnp.generator.look.scene import Rect, Text
from starpnp.generator.data.yamlio import DataErrors

from scene_text import component_text
from starpnp_test_support import pdf_page_texts

GAME = "handful_of_stars"
COLOURS = 4  # "Four sets of player pieces"
PT = 25.4 / 72  # mm per point
EDITION_DOC = Path(__file__).resolve().parents[2] / "docs" / "editions" / "handful_of_stars.md"


@pytest.fixture(scope="module")
def game():
    return load_game(find_game(GAME))


def build(shared_builds, paper):
    """A strict build (any warning raises) of the PDF; the manifest and the PDF's path."""
    result = shared_builds.build(find_game(GAME), BuildOptions(settings=Settings(paper=paper), formats=("pdf",),
                                                               strict=True))
    manifest = json.loads((result.folder / "manifest.json").read_text())
    return manifest, next(p for p in result.files if p.suffix == ".pdf")


@pytest.fixture(scope="module")
def built(shared_builds):
    return build(shared_builds, "a4")


def test_letter_builds_without_warnings(shared_builds):
    manifest, _ = build(shared_builds, "letter")
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


def board_scene(game):
    """The board's face as it prints: (its params, every element drawn)."""
    comp = component(game, "board")
    piece = comp.pieces[0]
    return piece.front.params, SceneCache(0.0, Path(game.folder)).face(comp, piece, "front").elements


def printed_letters(elements):
    """(letter, x, y) of every one-letter A-F text on a face, y near the middle of the letter."""
    return [(line.text, line.x, line.y - text.size * 0.35 * PT / 2) for text in elements if isinstance(text, Text)
            for line in text.lines if line.text in set("ABCDEF")]


def test_board_map_reaches_every_location(game):
    board = component(game, "board").pieces[0].front.params
    assert len(board.systems) == 38  # 38 system locations, one per tile
    ids = {s.id for s in board.systems}
    assert {end for c in board.connections for end in (c.a, c.b)} == ids


def lane_table(game):
    """{(location, printed letter): lane} read off the printed board: the letter drawn at each lane's end."""
    board, elements = board_scene(game)
    letters = printed_letters(elements)
    by_id = {s.id: s for s in board.systems}
    ring = board.tile_d / 2 + 1.5
    table = {}
    for c in board.connections:
        for a, b in ((by_id[c.a], by_id[c.b]), (by_id[c.b], by_id[c.a])):
            length = math.hypot(b.x - a.x, b.y - a.y)
            # the letter sits on the lane just outside the location's ring, within a letter's width
            near = [t for t, x, y in letters if abs(math.hypot(x - a.x, y - a.y) - ring - 2.6) < 1.5
                    and abs((b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x)) / length < 1.5
                    and (b.x - a.x) * (x - a.x) + (b.y - a.y) * (y - a.y) > 0]
            assert len(near) == 1, (a.id, b.id, near)
            assert (a.id, near[0]) not in table, f"location {a.id} prints {near[0]} on two lanes"
            table[(a.id, near[0])] = frozenset((c.a, c.b))
    return table


def black_holes_of_one_game(rng, lanes, locations, tiles):
    """The rulebook's set-up: tiles shuffled onto the locations, then each black-hole tile's disc moves along
    its location's lane with that letter, unless there is none or a disc is already there."""
    placed = set()
    for location, tile in zip(locations, rng.sample(tiles, len(tiles))):
        lane = lanes.get((location, tile.front.params.black_hole))
        if tile.front.params.black_hole and lane:
            placed.add(lane)
    return placed


def test_black_holes_fall_on_different_lanes_each_game(game):
    """Rulebook, Starting the game: black holes follow the randomly placed tiles ("potential for fifteen"),
    so no lane is closed every game and most lanes can close."""
    lanes = lane_table(game)
    locations = [s.id for s in component(game, "board").pieces[0].front.params.systems]
    tiles = [p for comp in ("habitable_tiles", "uninhabitable_tiles") for p in component(game, comp).pieces]
    assert len(tiles) == len(locations) == 38
    assert sum(1 for t in tiles if t.front.params.black_hole) == 15
    rng = random.Random(11)
    games = [black_holes_of_one_game(rng, lanes, locations, tiles) for _ in range(300)]
    assert all(len(g) <= 15 for g in games)  # 16 discs: at least one spare for Black-Hole Creator
    ever = set().union(*games)
    assert len(ever) >= 0.8 * len(set(lanes.values()))
    assert not set.intersection(*games)  # no lane is closed in every game
    assert len({frozenset(g) for g in games}) == len(games)
    text = component_text(game, "board")
    assert "own lane with the same letter" in text and "set the disc aside" in text


def test_fast_ships_never_lengthen_a_retreat(game):
    """Rulebook, Fast Ships: "You cannot use 'Fast Ships' to retreat further than you would normally"."""
    fast = next(p for p in component(game, "technology").pieces if p.name == "Fast Ships").front.params
    assert re.search(r"(cannot|never)[^.]*retreat", fast.text)
    assert not re.search(r"no longer retreat", fast.text, re.I)
    assert "2 connections" in fast.text


def test_habitable_or_not_as_the_rulebook_or_our_edition_says(game):
    """Only Berylith's kind follows from the rulebook (a colony worth 5 VP in the combat example); Ishtar,
    Hap and Boldar are named without a kind, so theirs is ours and says so, in the data and in the doc."""
    habitable = {p.name: p for p in component(game, "habitable_tiles").pieces}
    uninhabitable = {p.name: p for p in component(game, "uninhabitable_tiles").pieces}
    assert "Berylith" in habitable
    ours = {name: item.ours for comp in ("habitable_tiles", "uninhabitable_tiles")
            for name, item in zip([p.name for p in component(game, comp).pieces], component(game, comp).spec.items)}
    for name in ("Ishtar", "Hap", "Boldar"):
        assert "habitable" in ours[name], name
    for name, item_ours in ours.items():  # every other tile is ours altogether
        assert name in ("Berylith", "Ishtar", "Hap", "Boldar") or "system" in item_ours, name
    assert all(p.front.params.habitable for p in habitable.values())
    assert not any(p.front.params.habitable for p in uninhabitable.values())
    assert {p.name for p in component(game, "habitable_cards").pieces} == set(habitable)
    assert {p.name for p in component(game, "uninhabitable_cards").pieces} <= set(uninhabitable)
    doc = EDITION_DOC.read_text()
    for line in ("Ishtar and Hap are habitable", "Boldar is uninhabitable"):
        assert line in doc


def test_uninhabitable_cards_keep_the_terraforming_exception(game):
    """Rulebook: an uninhabitable system "can only have an Outpost placed on it"; Terra-forming replaces one
    with a Colony. Both say so."""
    for piece in component(game, "uninhabitable_cards").pieces:
        assert re.search(r"Only an Outpost.*unless Terra-forming makes it a Colony", piece.front.params.text)
    terra = next(p for p in component(game, "technology").pieces if p.name == "Terra-forming").front.params
    assert "Uninhabitable" in terra.text and "Colony" in terra.text


def test_card_spaces_hold_their_cards(game):
    """Measured on the drawn board: every dashed card space is at least a poker card (63 x 88), eight for the
    Technology offer and one under the Wormhole technology title, all inside the board and apart."""
    board, elements = board_scene(game)
    width, height = component(game, "board").spec.size
    card_w, card_h = CARD_SIZES["poker"]
    spaces = [e for e in elements if isinstance(e, Rect) and e.style.dash and min(e.w, e.h) > 50]
    assert len(spaces) == 9
    for e in spaces:
        assert (e.w >= card_w and e.h >= card_h) or (e.w >= card_h and e.h >= card_w), e
        assert e.x >= 2 and e.y >= 2 and e.x + e.w <= width - 2 and e.y + e.h <= height - 2  # inside the frame
    for i, a in enumerate(spaces):
        for b in spaces[i + 1:]:
            assert a.x + a.w <= b.x or b.x + b.w <= a.x or a.y + a.h <= b.y or b.y + b.h <= a.y
    titles = {line.text: (line.x, line.y) for t in elements if isinstance(t, Text) for line in t.lines}
    tx, ty = titles["Wormhole technology"]
    below = [e for e in spaces if e.x - 3 <= tx <= e.x + e.w and 0 < e.y - ty < 6]  # the title starts at its left
    assert len(below) == 1 and below[0].w >= card_h and below[0].h >= card_w  # the card lies on its long side
    offer = [e for e in spaces if e is not below[0]]
    assert len(offer) == 8 and all(e.w >= card_w and e.h >= card_h for e in offer)  # eight, upright
    for s in board.systems:  # no card space covers a system location
        for e in spaces:
            nearest = (min(max(s.x, e.x), e.x + e.w), min(max(s.y, e.y), e.y + e.h))
            assert math.hypot(s.x - nearest[0], s.y - nearest[1]) > board.tile_d / 2


def test_board_tracks(game):
    regions = component(game, "board").pieces[0].front.params.regions
    shuffle = next(r for r in regions if r.type == "track" and r.title == "Shuffle track")
    assert (shuffle.start, shuffle.cells) == (0, 21)  # spaces 0-20
    assert {m.at: m.note for m in shuffle.marks} == {14: "2 players", 18: "3 players", 20: "4 players"}
    development = [r for r in regions if r.type == "grid"]
    assert [(g.cols, g.rows) for g in development] == [(6, 1)] and development[0].cell >= 22  # 22 mm counters
    combat = [r for r in regions if r.type == "track" and "0" in r.labels]
    assert combat and any("defender" in r.title for r in regions if r.type == "track")


DECK_CARDS = {"technology": 41, "habitable_cards": 19, "uninhabitable_cards": 17, "race_identity": 7,
              "race_abilities": 21, "starting_cards": 4 * COLOURS}  # the rulebook's component list


def test_page_one_counts_the_deck_cards(built):
    manifest, pdf = built
    assert {cid: q for cid, q in quantities(manifest).items() if cid in DECK_CARDS} == DECK_CARDS
    page_one = PdfReader(pdf).pages[0].extract_text()
    (printed,) = re.findall(r"(\d+) deck cards", page_one)
    assert int(printed) == sum(DECK_CARDS.values()) == 121
    assert re.search(r"(\d+) turn reference cards", page_one).group(1) == str(quantities(manifest)["turn_reference"])


def test_turn_reference_sums_up_the_game_precis(game, built):
    """Game Precis: two actions then refill to six; reshuffles move the Shuffle marker; the end triggers;
    and the nine actions with their costs."""
    manifest, _ = built
    assert quantities(manifest)["turn_reference"] == COLOURS
    text = component_text(game, "turn_reference")
    for words in ("two actions", "draw back up to 6 cards", "move the Shuffle marker up one space",
                  "14 / 18 / 20 (2 / 3 / 4 players)", "play one more", "most VP wins", "most systems",
                  "Build: 1 Matter + 1 Population a unit, up to 2", "home world or colonies only",
                  "Move: 1 Energy per Fleet per lane", "1 Research per wormhole jump", "No black-hole lanes",
                  "Invade one system at most", "Outpost 1 Population", "Colony 3 Population, habitable only",
                  "Draft one Technology card", "Reserve One takes any card", "Discard any cards",
                  "Remove one card from play", "Play an Action card", "pass", "ONE resource type or its text"):
        assert words in text, words


def test_pdf_prints_end_triggers_and_display(built):
    manifest, pdf = built
    by_id = {c["id"]: c for c in manifest["components"]}
    pages = sorted({n for comp in ("board", "player_display", "race_identity") for n in by_id[comp]["pages"]})
    texts = pdf_page_texts(pdf)
    text = " ".join(texts[n - 1] for n in pages)
    for words in ("2 players", "3 players", "4 players", "Reserve One", "Reserve Two", "Colony track",
                  "Wormhole technology", "Aggroloids", "Technoids", "Super Dreadnoughts"):
        assert words in text, words


@pytest.mark.parametrize("change, warning", [
    (("        - {a: '1', b: '2'}\n", "        - {a: '1', b: '2'}\n        - {a: '1', b: '3'}\n"),
     "connections: system '1' has two lanes towards B"),
    (("- {x: 186, y: 352, w: 174, slots: 2,", "- {x: 186, y: 352, w: 174, slots: 3,"),
     "card_spaces[1]: 3 poker card spaces need a box 197 mm wide, not 174"),
    (("        - {a: '1', b: '2'}\n", "        - {a: '1', b: '99'}\n"), "connections[0]: no system with id '99'"),
    (("        - {id: '2', x: 112, y: 40}\n", "        - {id: '1', x: 112, y: 40}\n"),
     "systems[1]: a second system with id '1'"),
])
def test_a_board_that_breaks_the_black_hole_letters_or_card_spaces_is_reported(tmp_path, change, warning):
    """The board's layout file warns of what would make a black-hole letter ambiguous, a lane lead nowhere or a
    card not fit, naming the file, the field and its line."""
    folder = tmp_path / GAME
    shutil.copytree(find_game(GAME), folder)
    board = folder / "board.yaml"
    old, new = change
    assert old in board.read_text()
    board.write_text(board.read_text().replace(old, new, 1))
    game = load_game(folder)
    comp = component(game, "board")
    cache = SceneCache(0.0, folder)
    cache.face(comp, comp.pieces[0], "front")
    named = re.compile(r"board\.yaml:\d+: board: A Handful of Stars: front: " + re.escape(warning))
    assert [w for w in cache.warnings if named.match(w)], cache.warnings


def test_the_combat_track_runs_without_a_gap(game):
    """Defender's tens, 10 to 1, the tie, then the attacker's 1 to 10 and tens back along a second row (the rows
    snake): each part starts where the last ends, so no stretch of the track lies empty (and none crosses a
    seam: the board's seam tests hold it)."""
    board = next(c for c in game.components if c.spec.id == "board")
    regions = board.pieces[0].front.params.regions
    rows: dict[float, list] = {}
    for r in regions:
        if r.type == "track" and r.cell_h == 11 and r.labels:
            rows.setdefault(r.y if r.title == "" else r.y + 7, []).append(r)
    assert len(rows) == 2
    spans = []
    for row in rows.values():
        row.sort(key=lambda r: r.x)
        for a, b in zip(row, row[1:]):
            assert a.x + len(a.labels) * a.cell_w == pytest.approx(b.x), (a.labels, b.labels)
        spans.append((row[0].x, row[-1].x + len(row[-1].labels) * row[-1].cell_w))
    (_, first_end), (_, second_end) = spans
    assert first_end == pytest.approx(second_end)  # the second row turns back under the tie
    labels = [label for row in rows.values() for r in row for label in r.labels]
    assert len(labels) == 25 and labels.count("0") == 1
