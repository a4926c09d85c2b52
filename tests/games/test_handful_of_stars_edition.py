"""A Handful of Stars, our edition: every value the rulebook leaves out is designed (`{ours: ...}`), prints
in the default build, comes back as a write-in with --write-ins, agrees with the rulebook's facts and
numbers, and is listed in docs/editions/handful_of_stars.md."""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from starpnp.generator.build import BuildOptions
from starpnp.generator.sheets.imposition import Settings
from starpnp.generator.look.loader import find_game, load_game
from starpnp_test_support import pdf_page_texts

GAME = "handful_of_stars"
DOC = Path(__file__).resolve().parents[2] / "docs" / "editions" / "handful_of_stars.md"
RACES = ("Aggroloids", "Bilderoids", "Culturemoogs", "Exploremords", "Peacenims", "Storbots", "Technoids")


def build(shared_builds, write_ins):
    """A strict build of the A4 PDF: (manifest, every page's text)."""
    result = shared_builds.build(find_game(GAME), BuildOptions(settings=Settings(paper="a4"), formats=("pdf",),
                                                               strict=True, write_ins=write_ins))
    manifest = json.loads((result.folder / "manifest.json").read_text())
    pdf = next(p for p in result.files if p.suffix == ".pdf")
    return manifest, " ".join(pdf_page_texts(pdf))


@pytest.fixture(scope="module")
def game():
    return load_game(find_game(GAME))


@pytest.fixture(scope="module")
def edition_build(shared_builds):
    return build(shared_builds, write_ins=False)


def pieces(game, comp_id):
    return next(c for c in game.components if c.spec.id == comp_id).pieces


def params(game, comp_id):
    """{piece name: front params}, one per item (per-player copies share them)."""
    return {p.name: p.front.params for p in pieces(game, comp_id)}


def test_the_build_prints_no_write_in_field(edition_build, game):
    manifest, text = edition_build
    assert manifest["unspecified"] == [] and manifest["warnings"] == []
    assert len(manifest["edition"]) == len(game.edition) > 150
    assert "write in" not in text


def test_write_ins_bring_back_every_value_of_ours(shared_builds, edition_build):
    manifest, _ = edition_build
    blank, text = build(shared_builds, write_ins=True)
    assert blank["write_ins"] and blank["warnings"] == []
    assert sorted(blank["unspecified"]) == sorted(manifest["edition"])
    for label in ("write in: card name", "write in: when it is played", "effect (not given in the rulebook)"):
        assert label in text, label


def test_technology_costs_and_symbols(game):
    """Wormhole Technology costs 2 Research and Research Laboratories pays 2 (rulebook); every other card has a
    cost of ours from 1 to 4 and one resource symbol of 1, so no card is dead in hand."""
    tech = params(game, "technology")
    assert tech["Wormhole Technology"].cost == 2 and tech["Wormhole Technology"].resources == []
    assert [(r.kind, r.value) for r in tech["Research Laboratories"].resources] == [("research", 2)]
    for name, card in tech.items():
        assert isinstance(card.cost, int) and 1 <= card.cost <= 4, name
        if name not in ("Wormhole Technology", "Research Laboratories"):
            assert [r.value for r in card.resources] == [1], name
    assert tech["Terra-forming"].cost == max(c.cost for c in tech.values())  # "even Terra-forming"
    costs = Counter(c.cost for c in tech.values())
    assert len(costs) == 4  # a spread of prices, not one price for all


def test_culture_scores_less_than_a_colony(game):
    culture = params(game, "technology")["Culture"]
    colony_vp = game.info.rules["system_vp"].value["colony"]
    assert isinstance(culture.vp, int) and 0 < culture.vp < colony_vp and culture.vp <= culture.cost


# Timing the rulebook's card text states: "as an action", "as a free action", "if this card is in your
# reserve", or a card played during a combat.
RULEBOOK_TIMING = {
    "Armaments": "Action", "Production Line": "Free action", "Warehouse": "Free action", "Scouts": "Free action",
    "Hyper-Search Engine": "Free action", "Dreadnoughts": "Reserve", "Fast Ships": "Reserve",
    "Artificial Intelligence": "Reserve", "Festival of Culture": "Reserve", "Stealth Technology": "Reserve",
    "Culture": "Reserve", "Super Dreadnoughts": "Reserve", "Mass Armies": "Reserve", "Missiles": "Combat",
    "Rapid-Reaction Force": "Combat", "Star Bomb": "Combat", "Force Shields": "Combat", "Retreat": "Combat",
    "Diplomacy": "Combat",
}


def test_every_card_says_when_it_is_played(game):
    cards = params(game, "technology") | params(game, "race_abilities")
    for name, tag in RULEBOOK_TIMING.items():
        assert tag in cards[name].tags, name
    for name, card in cards.items():
        if name not in ("Research Laboratories", "Wormhole Technology"):  # spent for Research / set aside
            assert card.tags, name


def test_race_cards_are_three_each_and_all_designed(game):
    identity = params(game, "race_identity")
    abilities = params(game, "race_abilities")
    for race in RACES:
        own = [name for name, card in abilities.items() if card.footer == race]
        assert identity[race].items == own, race
    for name, card in abilities.items():
        assert card.title == name and card.text and card.tags and card.resources, name
        assert [r.value for r in card.resources] == [1], name
    numbers = game.info.rules["our_card_strength"].value
    assert f"+{numbers['war_fervour']} combat strength" in abilities["War Fervour"].text
    assert f"+{numbers['minefield_network']} strength" in abilities["Minefield Network"].text


def test_starting_cards_are_four_different_weak_cards(game):
    """Four Starting cards per player, identical between players; ours pay 1 of two resources each."""
    start = pieces(game, "starting_cards")
    by_colour = Counter(p.color for p in start for _ in range(p.count))
    assert set(by_colour.values()) == {4}
    cards = params(game, "starting_cards")
    assert len(cards) == 4
    for name, card in cards.items():
        assert card.title == name and [r.value for r in card.resources] == [1, 1], name
        assert len({r.kind for r in card.resources}) == 2, name
    kinds = Counter(r.kind for card in cards.values() for r in card.resources)
    assert set(kinds) == {"energy", "matter", "population", "research"}


def test_uninhabitable_systems_are_richer_and_habitable_ones_feed_people(game):
    """Rulebook: habitable systems score more and allow building, "uninhabitable systems tend to be more resource
    rich"; uninhabitable tiles lack the Population symbol, so their cards do too in our edition."""
    habitable = params(game, "habitable_cards").values()
    uninhabitable = params(game, "uninhabitable_cards").values()
    for card in habitable:
        assert "population" in {r.kind for r in card.resources}
        assert max(r.value for r in card.resources) <= 2
    for card in uninhabitable:
        assert "population" not in {r.kind for r in card.resources}
        assert sorted(r.value for r in card.resources) == [1, 2]
    best = lambda cards: sum(max(r.value for r in c.resources) for c in cards) / len(cards)
    assert best(uninhabitable) > best(habitable)


def test_neutral_worlds_defend_with_tile_plus_alien(game):
    """18 Alien counters and 19 habitable tile strengths: a neutral world (tile + alien) averages more than one
    Fleet and no more than two, and none outlasts four Fleets."""
    fleet = game.info.rules["combat_strength"].value["fleet"]
    aliens = [card.value for p in pieces(game, "aliens") for card in [p.front.params] for _ in range(p.count)]
    assert len(aliens) == 18 and all(isinstance(v, int) and 0 <= v for v in aliens)
    tiles = [card.strength for card in params(game, "habitable_tiles").values()]
    assert len(tiles) == 19 and all(isinstance(v, int) and v >= 1 for v in tiles)
    assert all(card.strength is None for card in params(game, "uninhabitable_tiles").values())
    mean = sum(tiles) / len(tiles) + sum(aliens) / len(aliens)
    assert fleet < mean <= 2 * fleet
    assert max(tiles) + max(aliens) <= 4 * fleet


def test_development_counters_are_the_kinds_the_rulebook_names(game):
    """33 counters: resource counters, '+1 Reserve' counters and counters showing VP (rulebook)."""
    counters = [p.front.params for p in pieces(game, "developments") for _ in range(p.count)]
    assert len(counters) == 33
    resource = [c for c in counters if c.resources]
    reserve = [c for c in counters if "+1 Reserve" in c.text]
    vp = [c for c in counters if c.vp is not None]
    assert len(resource) + len(reserve) + len(vp) == 33 and resource and reserve and vp
    assert {r.kind for c in resource for r in c.resources} == {"energy", "matter", "population", "research"}
    assert all(isinstance(c.vp, int) and c.vp < game.info.rules["system_vp"].value["colony"] for c in vp)


def shown(value) -> str:
    """A value as the doc's table writes it: resources '1 Population or 1 Energy', tags 'Action, One-use'."""
    if isinstance(value, list):
        if value and hasattr(value[0], "kind"):
            return " or ".join(f"{r.value} {r.kind.capitalize()}" for r in value)
        return ", ".join(value) if value else "none"
    return str(value)


def field_value(face, path: str):
    """The value at a manifest path such as 'resources' or 'items[1]'."""
    value = face
    for name, index in re.findall(r"(\w+)(?:\[(\d+)\])?", path):
        value = getattr(value, name)
        if index:
            value = value[int(index)]
    return value


def test_the_doc_lists_every_value_of_ours(game):
    doc = DOC.read_text()
    for heading in ("## What the rulebook fixes", "## How we designed the rest", "## Every value of our edition"):
        assert heading in doc
    listing = doc.split("## Every value of our edition", 1)[1].splitlines()
    rows = {line for line in listing if line.startswith("| ") and not line.startswith("| Component")}
    for entry in game.edition:
        comp, piece, field = entry.split(": ")
        side, path = field.split(".", 1)
        spec = next(p for p in pieces(game, comp) if p.name == piece)
        value = field_value(spec.front.params if side == "front" else spec.back.params, path)
        assert f"| {comp} | {piece} | {path} | {shown(value)} |" in rows, entry
    assert len(rows) == len(game.edition)  # and no row the data no longer says
