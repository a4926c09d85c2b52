"""Starship Catan, our edition: every blank the rulebook leaves gets a designed value (`{ours: VALUE}`), the
values agree with what the rulebook does fix, and docs/editions/starship_catan.md lists each one.
Rulebook: /work/shared/seeds/003_*.txt ("SETUP", "PHASES", "TRADING AND BUILDING")."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from starpnp.generator.build import BuildOptions
from starpnp.generator.look.fonts import text_width_mm
from starpnp.generator.sheets.imposition import Settings
from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.look.render import SceneCache
from starpnp.generator.look.scene import Rect, Text
from starpnp.generator.data.yamlio import load_yaml
from scene_text import component_text
from starpnp_test_support import pdf_page_texts

GAME = "starship_catan"
EDITION_DOC = Path(__file__).resolve().parents[2] / "docs" / "editions" / "starship_catan.md"
# The die square's and the victory-point pill's fills, as the game's card layout file draws them.
CARD_WINDOW = load_yaml(find_game(GAME) / "layouts" / "starship_catan_card.yaml")["boxes"]["window"]["boxes"]
YELLOW_DIE, VP_GOLD = CARD_WINDOW["die"]["fill"], CARD_WINDOW["vp"]["boxes"]["pill"]["fill"]
# what the rulebook fixes, as it says it (so a wrong rule number in game.yaml fails here too)
RULEBOOK = {"ship_cost": [1, 1, 1], "tile_level_i_cost": [2], "tile_level_ii_cost": [2, 1],
            "module_level_i_cost": [1, 1, 1], "module_level_ii_cost": [1, 1, 2], "library_price": 3,
            "diplomat_buys": 1, "explore_actions": 2, "storage_limit": 2, "science_limit": 4, "start_goods": 2,
            "start_science": 1, "level_ii_vp": 1, "trading_posts_per_turn": 2}
STACKS, STACK_SIZE, ADVENTURE_PLANETS = 4, 10, 4  # "4 Sector stacks of 10", "4 Adventure Planets"
TABLE_BEGIN = "<!-- edition table: made from the data by tests/games/test_starship_catan_edition.py -->"
TABLE_END = "<!-- end of edition table -->"
TABLE_HEADER = "| component | piece | field | our value |"


def build(shared_builds, write_ins: bool) -> tuple[dict, str]:
    """The manifest and every page's text of a real A4 build."""
    folder = shared_builds.build(find_game(GAME), BuildOptions(settings=Settings(paper="a4"), formats=("pdf",),
                                                               strict=True, write_ins=write_ins)).folder
    manifest = json.loads((folder / "manifest.json").read_text())
    pdf = folder / f"{GAME}-a4{'-write-ins' if write_ins else ''}.pdf"
    return manifest, " ".join(pdf_page_texts(pdf))


@pytest.fixture(scope="module")
def edition(shared_builds):
    return build(shared_builds, write_ins=False)


@pytest.fixture(scope="module")
def write_ins(shared_builds):
    return build(shared_builds, write_ins=True)


@pytest.fixture(scope="module")
def game():
    return load_game(find_game(GAME))


def pieces(game, comp_id):
    """Piece name -> (front params, back params) of one component, one colour's worth."""
    comp = next(c for c in game.components if c.spec.id == comp_id)
    return {p.name: (p.front.params, p.back.params if p.back else None) for p in comp.pieces}


def faces(game, comp_id):
    """Piece name -> the drawn front of one component (the first colour's, for per-player pieces)."""
    comp = next(c for c in game.components if c.spec.id == comp_id)
    cache = SceneCache(0.0, Path(game.folder))
    drawn = {}
    for piece in comp.pieces:
        drawn.setdefault(piece.name, cache.face(comp, piece, "front"))
    return drawn


# ---- the build prints our edition, --write-ins the blanks ------------------------------------------------

def test_the_build_prints_no_write_in_field(edition):
    manifest, text = edition
    assert manifest["unspecified"] == [] and not manifest["write_ins"]
    assert len(manifest["edition"]) > 400  # the 64 cards alone hold over 300
    assert "write in" not in text


def test_write_ins_bring_every_blank_back(edition, write_ins):
    (ours, _), (blanks, text) = edition, write_ins
    assert blanks["write_ins"]
    assert sorted(blanks["unspecified"]) == sorted(ours["edition"])  # each designed value, and only those
    assert text.count("write in") >= 64 + 6  # a name on every card and module shell at least
    for value in ("Ferrum Rock", "Cloak Module", "Crystal", "Homestead"):  # our values are gone
        assert value in edition[1] and value not in text


# ---- rule facts -------------------------------------------------------------------------------------------

def test_the_rule_numbers_are_the_rulebooks(game):
    assert {name: game.info.number(name) for name in RULEBOOK} == RULEBOOK


def test_ship_costs_are_printed_on_the_ships_the_hangar_and_the_reference(game):
    """'Colony Ship: 1 1 1', 'Trade Ship: 1 1 1', each with the same resources wherever it is printed."""
    ship, _ = pieces(game, "starship")["Starship"]
    _, build_side = pieces(game, "reference")["A turn"]
    hangar = {row.label: (row.cost, row.resources) for row in ship.hangar_costs}
    table = {row.label: (row.cost, row.resources) for row in build_side.costs}
    for label, token in (("Colony ship", "Colony ship"), ("Trade ship", "Trade ship")):
        on_token = pieces(game, "ships")[token][0]
        spare = pieces(game, "spare_ships")[f"{token} (spare)"][0]
        assert hangar[label] == table[label] == (on_token.cost, on_token.cost_resources) == \
            (spare.cost, spare.cost_resources) == (RULEBOOK["ship_cost"], hangar[label][1])
        assert len(set(hangar[label][1])) == 3  # three different resources, one of each
    for comp in ("starship", "reference"):
        printed = component_text(game, comp)
        assert re.search(r"Colony ship 1× 1× 1×", printed) and re.search(r"Trade ship 1× 1× 1×", printed), comp
    assert re.search(r"C Colony ship 1 1 1", component_text(game, "ships"))
    assert re.search(r"T Trade ship 1 1 1", component_text(game, "ships"))


def test_every_cost_on_the_pieces_is_the_reference_tables(game):
    """The build side of the reference is the one table of costs: the tiles and modules print the same."""
    _, build_side = pieces(game, "reference")["A turn"]
    table = {row.label: (row.cost, row.resources) for row in build_side.costs}
    for comp, name in (("boosters", "Booster"), ("cannons", "Cannon")):
        front, back = pieces(game, comp)[name]
        assert table[f"{name} I"] == (front.cost, front.cost_resources)
        assert table[f"{name} II"] == (back.cost, back.cost_resources)
    for name, (front, back) in pieces(game, "modules").items():
        assert table["Module I"] == (back.cost, back.cost_resources), name
        assert table["Module II"] == (front.cost, front.cost_resources), name
    for name, (front, _) in pieces(game, "advanced_modules").items():
        assert table["Module II"] == (front.cost, front.cost_resources), name
    storage = {row.icon for row in pieces(game, "starship")["Starship"][0].storage}
    used = {icon for cost, icons in table.values() for icon in icons}
    assert used == storage  # every resource is spent on something, and nothing unknown is asked for


def production(params):
    return params.die, params.fields["Produces"]


def test_modules_carry_their_production_number_at_both_levels(game):
    """Production pays 'if the die matches any Colony cards, or Modules': each module shows its number, and
    the level II module placed on top repeats it."""
    level_i = pieces(game, "modules")
    level_ii = {name.removesuffix(" II"): front for name, (front, _) in pieces(game, "advanced_modules").items()}
    numbers = {name: production(front) for name, (front, _) in level_i.items()}
    assert sorted(die for die, _ in numbers.values()) == [1, 2, 3, 4, 5, 6]  # each roll feeds one module
    assert {name: production(front) for name, front in level_ii.items()} == numbers
    yellow = pieces(game, "dice")["Yellow die"][0].faces
    assert sorted(int(face.removeprefix("pips:")) for face in yellow) == [1, 2, 3, 4, 5, 6]
    for comp in ("modules", "advanced_modules"):
        for name, scene in faces(game, comp).items():
            die = next(e for e in scene.elements if isinstance(e, Rect) and e.style.fill == YELLOW_DIE)
            inside = [t.lines[0].text for t in scene.elements if isinstance(t, Text) and t.lines
                      and die.x <= t.lines[0].x <= die.x + die.w and die.y <= t.lines[0].y <= die.y + die.h]
            expected = level_i[name.removesuffix(" II")][0].die
            assert inside == [str(expected)], (comp, name)


def test_library_and_diplomat_outpost_are_printed_where_players_need_them(game):
    reference = component_text(game, "reference")
    (price,) = set(re.findall(r"Galactic Library: buy or sell Science at (\d+) Astro each", reference))
    (buys,) = set(re.findall(r"Diplomat Outpost: buy just (\d+) resource, sell nothing", reference))
    assert (int(price), int(buys)) == (3, 1)  # "for 3 Astro each"; "only buy 1 resource, no selling"
    cards = pieces(game, "sector_cards") | pieces(game, "reserve_sector_cards")
    libraries = [front for front, _ in cards.values() if front.kind == "Galactic Library"]
    assert len(libraries) == 1 and "3 Astro each" in libraries[0].text
    outposts = [front for front, _ in cards.values() if front.kind == "Diplomat Outpost"]
    assert outposts and all("Buy 1 " in o.text and "Nothing can be sold" in o.text for o in outposts)
    assert all("Price" in o.fields and "Resource" in o.fields for o in outposts)


def test_the_set_up_puts_one_module_face_up_on_the_reference(game):
    reference = component_text(game, "reference")
    assert "pick 1 of your 6 modules to start face up" in reference  # "Select 1 Module to be face up"
    assert re.search(r"Start: 25 Astro each, 2 Trade Goods, 1 Science", reference)


def test_level_ii_texts_name_their_module_and_point_nowhere(game):
    """A text that says a value 'is below' while the field prints above it misleads: texts carry no
    directions, and each level II text names the level I module it goes on."""
    for comp in ("modules", "advanced_modules"):
        printed = component_text(game, comp)
        assert not re.search(r"\b(below|above)\b", printed), comp
    for name, (front, _) in pieces(game, "advanced_modules").items():
        assert front.text.startswith(f"Goes on your level I {front.title}."), name


def test_the_vp_badge_holds_its_words(game):
    """'1 VP' sits inside its gold pill, at a readable size, wherever a badge is printed."""
    checked = 0
    for comp in ("advanced_modules", "people_cards", "sector_cards", "reserve_sector_cards"):
        for name, scene in faces(game, comp).items():
            pills = [e for e in scene.elements if isinstance(e, Rect) and e.style.fill == VP_GOLD]
            words = [t for t in scene.elements if isinstance(t, Text) and t.lines and t.lines[0].text.endswith("VP")]
            assert len(pills) == len(words) <= 1, (comp, name)
            for pill, text in zip(pills, words):
                line = text.lines[0]
                half = text_width_mm(line.text, text.font, text.size) / 2
                assert text.size >= 6 and pill.x <= line.x - half and line.x + half <= pill.x + pill.w, (comp, name)
                assert pill.y <= line.y <= pill.y + pill.h, (comp, name)
                checked += 1
    assert checked >= 6 + 2 + 15  # level II modules, Friend and Hero, every colony and trading post


def test_trade_goods_and_science_are_tracked_once(game):
    """'6 Resource Arrows', '2 Trade Goods', '1 Science point': the goods and science are where their arrows
    start on the storage scales, not also separate markers."""
    names = {p.name.lower() for c in game.components for p in c.pieces if c.spec.id != "starship"}
    assert not any("trade goods" in n or "science" in n for n in names)
    storage = pieces(game, "starship")["Starship"][0].storage
    arrows = sum(p.count for p in next(c for c in game.components if c.spec.id == "resource_arrows").pieces
                 if p.color == "red")
    assert len(storage) == arrows == 6
    printed = component_text(game, "starship")
    assert re.search(r"Trade Goods start with 2", printed) and re.search(r"Science Science Lab holds 4 · start 1", printed)


# ---- the edition agrees with the rulebook's counts and its own parts ---------------------------------------

def test_sector_cards_fill_four_stacks_with_four_adventure_planets(game):
    cards = pieces(game, "sector_cards")
    assert sum(p.count for c in game.components if c.spec.id == "sector_cards" for p in c.pieces) == STACKS * STACK_SIZE
    kinds = [front.kind for front, _ in cards.values()]
    assert kinds.count("Adventure planet") == ADVENTURE_PLANETS
    # the right mix: every kind the rulebook's flight names, none crowding the others out
    for kind in ("Colony planet", "Trading post planet", "Trade planet", "Pirate", "Galactic Library",
                 "Diplomat Outpost"):
        assert 1 <= kinds.count(kind) <= STACK_SIZE, kind
    assert len({front.title for front, _ in cards.values()}) == len(cards)  # every card has its own name


def test_reserve_deck_is_numbered_from_one_and_refills_what_founding_removes(game):
    cards = pieces(game, "reserve_sector_cards")
    assert sorted(front.number for front, _ in cards.values()) == list(range(1, len(cards) + 1))
    foundable = [front for front, _ in cards.values() if front.kind in ("Colony planet", "Trading post planet")]
    assert len(foundable) > len(cards) / 2


def test_council_missions_are_grouped_and_point_at_adventure_planets(game):
    planets = {front.title for front, _ in pieces(game, "sector_cards").values() if front.kind == "Adventure planet"}
    missions = pieces(game, "council_cards")
    groups = sorted({front.number for front, _ in missions.values()})
    assert groups[0] == 1 and groups == list(range(1, len(groups) + 1))  # sorted by number, #1 on top
    assert sum(1 for front, _ in missions.values() if front.number == 1) >= 3  # "Turn over the top 3"
    assert {front.fields["At"] for front, _ in missions.values()} == planets


def test_dice_and_ship_parts_reach_what_the_cards_ask(game):
    """Nothing dead: every pirate can be beaten and every card of a stack can be reached."""
    blue = [int(f.removeprefix("pips:")) for f in pieces(game, "dice")["Blue die"][0].faces]
    yellow = [int(f.removeprefix("pips:")) for f in pieces(game, "dice")["Yellow die"][0].faces]
    booster_dots = 2 * pieces(game, "boosters")["Booster"][1].dots  # 2 tiles, level II side
    cannon_dots = 3 * pieces(game, "cannons")["Cannon"][1].dots  # 3 tiles
    assert max(yellow) + booster_dots == STACK_SIZE  # the fastest ship reaches the last card
    strengths = [int(front.fields["Strength"]) for comp in ("sector_cards", "reserve_sector_cards")
                 for front, _ in pieces(game, comp).values() if front.kind == "Pirate"]
    assert max(strengths) <= max(blue) + cannon_dots  # a fully armed ship can beat every pirate
    assert min(strengths) >= max(blue)  # unarmed, only the best roll beats even the weakest: cannons matter
    for front, back in [*pieces(game, "boosters").values(), *pieces(game, "cannons").values()]:
        assert front.fields == {next(iter(front.fields)): f"+{front.dots}"}
        assert back.fields == {next(iter(back.fields)): f"+{back.dots}"}


def test_storage_and_hangar_values_fit_the_board(game):
    ship, _ = pieces(game, "starship")["Starship"]
    level_i, level_ii = pieces(game, "modules"), pieces(game, "advanced_modules")
    storage = [int(level_i["Logistics Module"][0].fields["Storage limit"]),
               int(level_ii["Logistics Module II"][0].fields["Storage limit"])]
    assert RULEBOOK["storage_limit"] < storage[0] < storage[1] <= max(row.top for row in ship.storage)
    explore = [int(level_i["Command Module"][0].fields["Explore actions"]),
               int(level_ii["Command Module II"][0].fields["Explore actions"])]
    assert RULEBOOK["explore_actions"] < explore[0] < explore[1] <= STACK_SIZE
    hangar = [ship.hangar_capacity, int(level_i["Module 6"][0].fields["Hangar spaces"]),
              int(level_ii["Module 6 II"][0].fields["Hangar spaces"])]
    assert len(ship.hangar_ships) < hangar[0] < hangar[1] < hangar[2]  # room to build beyond the starting two
    tokens = {name: front.label for name, (front, _) in (pieces(game, "ships") | pieces(game, "spare_ships")).items()}
    spares = sum(p.count for c in game.components if c.spec.id in ("ships", "spare_ships") for p in c.pieces
                 if p.color == "red")
    assert spares >= hangar[2] and set(tokens.values()) == {"C", "T"}


def test_every_resource_can_be_made_and_bought(game):
    """Each storage resource has a source: a colony or module producing it, and a place that sells it."""
    names = {row.name for row in pieces(game, "starship")["Starship"][0].storage}
    cards = [front for comp in ("sector_cards", "reserve_sector_cards") for front, _ in pieces(game, comp).values()]
    produced = {f.fields["Produces"].removeprefix("1 ") for f in cards if "Produces" in f.fields}
    produced |= {f.fields["Produces"].removeprefix("1 ") for f, _ in pieces(game, "modules").values()}
    sold = {f.fields["Resource"] for f in cards if "Resource" in f.fields} | {"Science"}  # the Library
    assert produced == names and sold == names


# ---- the edition's document -------------------------------------------------------------------------------

def value_at(params, path: str):
    """The value a dotted path such as `front.storage[2].name` names in a face's fields."""
    node = params.model_dump()
    for key, index in re.findall(r"\.?([^.\[\]]+)|\[(\d+)\]", path.split(".", 1)[1]):
        node = node[int(index)] if index else node[key]
    return node


def shown(value) -> str:
    """A value as the edition table writes it."""
    if isinstance(value, dict):
        return "; ".join(f"{k}: {shown(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(shown(v) for v in value)
    return str(value).replace("|", "\\|")


def edition_rows(game) -> list[str]:
    """One table row per value of our edition: component, piece, field, value."""
    by_piece = {(c.spec.id, p.name): p for c in game.components for p in c.pieces}
    rows = []
    for entry in game.edition:
        comp_id, name, path = entry.split(": ", 2)
        piece = by_piece[(comp_id, name)]
        face = piece.front if path.startswith("front.") else piece.back
        rows.append(f"| {comp_id} | {name} | {path} | {shown(value_at(face.params, path))} |")
    return rows


def test_the_edition_document_lists_every_value_we_designed(game):
    """The table between the markers is the data's edition, value for value; the prose around it is the
    document's own. `STARPNP_WRITE_DOCS=1` rewrites the table (and fails once, so the change is seen)."""
    text = EDITION_DOC.read_text()
    head, rest = text.split(TABLE_BEGIN + "\n", 1)
    table, tail = rest.split(TABLE_END, 1)
    rows = edition_rows(game)
    wanted = "\n".join([TABLE_HEADER, "|---|---|---|---|", *rows]) + "\n"
    if table != wanted and os.environ.get("STARPNP_WRITE_DOCS"):
        EDITION_DOC.write_text(head + TABLE_BEGIN + "\n" + wanted + TABLE_END + tail)
    assert len(rows) > 400
    listed = table.splitlines()[2:]
    missing = [row for row in rows if row not in listed]
    assert missing == [], f"{len(missing)} values missing from {EDITION_DOC.name}, first: {missing[:3]}"
    assert [row for row in listed if row not in rows] == []  # nothing the data no longer holds
