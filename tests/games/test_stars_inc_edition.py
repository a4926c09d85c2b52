"""Stars, Inc., our edition (issue #11): every gap in the rulebook prints a value we designed, `--write-ins` prints
the write-in areas back, our values keep to what the rulebook does say, docs/editions/stars_inc.md lists every
one, the advanced game's tie rule is on the board, and four ringed pawns fit one track space.
Rulebook: /work/shared/seeds/002_*.txt (v4.2: "Setup", "Harvest Phase", "Action Phase", "End of Game", FAQ)."""
from __future__ import annotations

import json
import math
import re
from itertools import combinations
from pathlib import Path

import pdfplumber
import pytest

from starpnp.companion.rules import stars_inc as si
from starpnp.generator.build import BuildOptions
from starpnp.generator.look.fonts import text_width_mm
from starpnp.generator.sheets.imposition import Settings
from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.look.render import SceneCache
from starpnp.generator.look.scene import Circle, Rect, Text
from scene_text import component_text, printed_texts

GAME = "stars_inc"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "editions" / "stars_inc.md"
RULEBOOK_NAMES = {"Giant Molecular Cloud", "Superluminous Supernova", "Overdensity", "Stroemgren Sphere",
                  "Time Stasis", "Time Vortex", "Overcrowding"}  # the seven the FAQ names
HYDROGEN = (2, 4)  # "The environment card will list between 2 H and 4 H"
KINDS, COPIES = 9, 2  # "18 environment cards, two each of nine distinct astronomical environments"
# every gap the rulebook leaves: each environment's numbers and effect, two names, one merger
GAPS = {f"environments: {name}: front.{field}" for name in RULEBOOK_NAMES
        for field in ("harvest", "actions", "effect")} | {
    f"environments: {name}: front.{field}" for name in ("Eighth environment", "Ninth environment")
    for field in ("title", "harvest", "actions", "effect")} | {
    "merger_reference: Merger reference: front.outcomes[1].text",  # a red dwarf with a white dwarf
    "merger_reference: Merger reference: front.notes[0]"}  # where a merger's new star goes
PT_TO_MM = 25.4 / 72


@pytest.fixture(scope="module")
def game():
    return load_game(find_game(GAME))


@pytest.fixture(scope="module")
def builds(shared_builds):
    """Our edition and the write-in set, each built to its own folder: (manifest, PDF path) by kind."""
    made = {}
    for write_ins in (False, True):
        result = shared_builds.build(find_game(GAME), BuildOptions(settings=Settings(paper="a4"), formats=("pdf",),
                                                                   strict=True, write_ins=write_ins))
        pdf = next(f for f in result.files if f.suffix == ".pdf")
        made[write_ins] = (json.loads((result.folder / "manifest.json").read_text()), pdf)
    return made


def pdf_words(path, manifest, component: str) -> list[str]:
    """The words printed on one component's pages (cards print turned, so their order is the page's, not ours)."""
    pages = next(c["pages"] for c in manifest["components"] if c["id"] == component)
    with pdfplumber.open(path) as pdf:
        return [w["text"] for n in pages for w in pdf.pages[n - 1].extract_words()]


def edition_value(game, entry: str):
    """The value an edition entry ("component: piece: front.path") prints, read from the loaded piece."""
    comp_id, label, where = entry.split(": ")
    comp = next(c for c in game.components if c.spec.id == comp_id)
    value = next(p for p in comp.pieces if p.name == label).front.params.model_dump()
    for key, index in re.findall(r"(\w+)(?:\[(\d+)\])?", where.split(".", 1)[1]):
        value = value[key] if index == "" else value[key][int(index)]
    return value


def environments(game):
    return next(c for c in game.components if c.spec.id == "environments").pieces


def test_our_edition_prints_no_write_in_and_write_ins_bring_every_one_back(builds):
    (ours, ours_pdf), (blank, blank_pdf) = builds[False], builds[True]
    assert ours["unspecified"] == [] and set(ours["edition"]) == GAPS and len(ours["edition"]) == 31
    assert set(blank["unspecified"]) == GAPS and blank["write_ins"] is True
    cards, chart = pdf_words(ours_pdf, ours, "environments"), pdf_words(ours_pdf, ours, "merger_reference")
    blank_cards, blank_chart = (pdf_words(blank_pdf, blank, "environments"),
                                pdf_words(blank_pdf, blank, "merger_reference"))
    assert "write" not in cards + chart
    # 7 named cards x (harvest, actions, effect) + 2 unnamed x (name too), each twice; the merger cell and note
    assert blank_cards.count("write") == (7 * 3 + 2 * 4) * COPIES and blank_chart.count("write") == 2
    assert (cards.count("Protoplanetary"), blank_cards.count("Protoplanetary")) == (COPIES, 0)
    assert (cards.count("Tidal"), blank_cards.count("Tidal")) == (COPIES, 0)
    assert cards.count("THIS") == KINDS * COPIES and blank_cards.count("THIS") == 0  # an effect on every card
    assert chart.count("sunlike") == blank_chart.count("sunlike") + 1  # red dwarf + white dwarf: a new sunlike star


def test_environments_keep_to_the_rulebook(game):
    pieces = environments(game)
    assert len(pieces) == KINDS and all(p.count == COPIES for p in pieces)
    titles = [p.front.params.title for p in pieces]
    assert len(set(titles)) == KINDS and RULEBOOK_NAMES < set(titles)
    harvest = game.info.number("environment_harvest")
    actions = game.info.number("environment_actions")
    assert len(harvest) == len(actions) == KINDS
    for p in pieces:
        card = p.front.params
        key = card.title.lower().replace(" ", "_")
        assert card.harvest == harvest[key] and card.actions == actions[key]  # printed from game.yaml's rules
        (hydrogen,) = re.fullmatch(r"(\d+) H", card.harvest).groups()
        assert HYDROGEN[0] <= int(hydrogen) <= HYDROGEN[1]
        assert isinstance(card.actions, int) and card.actions >= 1
    assert tuple(game.info.number("environment_hydrogen")) == HYDROGEN
    # a mix, not one card copied nine times: every hydrogen the rulebook allows, more than one tempo, and
    # nine different effects
    assert {int(h.split()[0]) for h in harvest.values()} == set(range(HYDROGEN[0], HYDROGEN[1] + 1))
    assert len(set(actions.values())) > 1
    assert len({p.front.params.effect for p in pieces}) == KINDS


def test_the_companion_takes_every_environment(game):
    """The phone's 'flip the next environment' accepts each card's hydrogen and actions as printed."""
    seats = [{"id": "p1", "name": "Ann", "color": "red"}, {"id": "p2", "name": "Bo", "color": "blue"}]
    for p in environments(game):
        card = p.front.params
        state = si.apply(si.RULES.initial_state(seats, {}),
                         {"type": "new_round", "player": "p1", "hydrogen": int(card.harvest.split()[0]),
                          "actions": card.actions, "environment": card.title})
        assert si.derive(state)["environment"]["name"] == card.title


def test_each_card_prints_its_numbers_and_effect(game):
    cache = SceneCache(0.0, find_game(GAME))
    comp = next(c for c in game.components if c.spec.id == "environments")
    for piece in comp.pieces:
        card = piece.front.params
        printed = [text for text, _ in printed_texts(cache.face(comp, piece, "front").elements)]
        assert card.harvest.split()[0] in printed and str(card.actions) in printed
        assert re.sub(r"\s+", " ", card.effect) in " ".join(printed)  # the effect, whole, in its lines' order
        assert not any("write in" in text for text in printed)


def test_a_white_dwarf_merges_as_a_red_dwarf(game):
    """"White dwarfs ... act like they are a red dwarf for merger mass rules": our red dwarf + white dwarf cell."""
    chart = next(c for c in game.components if c.spec.id == "merger_reference").pieces[0].front.params
    outcome = {frozenset(o.pair): o.text for o in chart.outcomes}
    assert outcome[frozenset({"Red dwarf", "White dwarf"})] == outcome[frozenset({"Red dwarf"})]
    for bigger in ("Sunlike star", "Blue giant"):
        assert outcome[frozenset({"White dwarf", bigger})] == outcome[frozenset({"Red dwarf", bigger})]


def test_the_docs_list_every_value_of_ours(game, builds):
    text = DOCS.read_text()
    section = text.split("## Every value we chose", 1)[1].split("\n## ", 1)[0]
    rows = {tuple(cell.strip() for cell in line.strip("|").split("|"))
            for line in section.splitlines() if line.startswith("| ") and not line.startswith("| piece")}
    expected = {(entry.split(": ")[1], entry.split(": front.")[1], str(edition_value(game, entry)))
                for entry in game.edition}
    assert rows == expected
    for choice in builds[False][0]["ours"]:  # the other choices of ours the build report lists
        assert f"| {choice} |" in text


def test_the_advanced_tie_rule_is_printed(game):
    """"If there is a tie, play another full round" (advanced game); standard: most planets, then shared."""
    board = re.sub(r"\s+", " ", component_text(game, "board"))
    assert re.search(r"Tie, advanced: play another full round", board)
    assert re.search(r"Tie, standard: most planets wins; still tied, share the win", board)


def _overlaps(circle: Circle, box: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = box
    nearest_x, nearest_y = min(max(circle.cx, x0), x1), min(max(circle.cy, y0), y1)
    return math.hypot(circle.cx - nearest_x, circle.cy - nearest_y) < circle.r


def _line_boxes(text: Text):
    """The box each printed line of `text` covers, in mm (ascender to descender)."""
    size = text.size * PT_TO_MM
    for line in text.lines:
        width = text_width_mm(line.text, text.font, text.size)
        left = {"left": line.x, "center": line.x - width / 2, "right": line.x - width}[text.align]
        yield left, line.y - 0.8 * size, left + width, line.y + 0.25 * size


def test_four_ringed_pawns_fit_one_track_space(game):
    """Measured on the drawn board: the rulebook lets N = 4 stars share a space, and each may wear planet rings.
    A ring sits on its pawn's foot, so each space needs four ring discs that do not overlap, inside the space,
    each covering its pawn's folded foot, and hiding none of the space's printed words."""
    by_id = {c.spec.id: c for c in game.components}
    ring = by_id["planet_rings"].spec.size[0]
    pawn = by_id["pawns"]
    foot_w, foot_d = pawn.spec.size[0], 2 * pawn.pieces[0].front.params.tab  # tabs fold out one each way
    board_piece = by_id["board"].pieces[0]
    board = board_piece.front.params
    scene = SceneCache(0.0, find_game(GAME)).face(by_id["board"], board_piece, "front")
    slots = [e for e in scene.elements if isinstance(e, Circle) and e.style.dash]
    words = [box for e in scene.elements if isinstance(e, Text) for box in _line_boxes(e)]
    for track in board.tracks:
        spaces = [e for e in scene.elements if isinstance(e, Rect) and not e.style.dash
                  and (e.w, e.h) == (track.space_w, track.space_h) and e.y == track.y]
        assert len(spaces) == len(track.spaces)
        for space in spaces:
            inside = [c for c in slots if space.x < c.cx < space.x + space.w and space.y < c.cy < space.y + space.h]
            assert len(inside) == game.info.players.max
            discs = [Circle(c.cx, c.cy, ring / 2, c.style) for c in inside]
            for disc in discs:
                assert space.x <= disc.cx - disc.r and disc.cx + disc.r <= space.x + space.w
                assert space.y <= disc.cy - disc.r and disc.cy + disc.r <= space.y + space.h
                assert math.hypot(foot_w / 2, foot_d / 2) <= disc.r  # the ring covers the foot
                hidden = [box for box in words if _overlaps(disc, box)]
                assert hidden == []
            for a, b in combinations(discs, 2):
                assert math.hypot(a.cx - b.cx, a.cy - b.cy) >= ring - 1e-9
            assert all(2 * c.r >= ring - 1e-9 for c in inside)  # the drawn slot is a whole ring wide


def test_the_contents_page_names_the_pieces_that_carry_our_edition(builds):
    """Page 1 marks each component printing our edition's values (or, with --write-ins, write-in areas) and
    says what the mark means; a value of ours only in a component's `ours` list (the tanks' sizes, the board's
    tracks) is marked too, and never claimed as the rulebook's; components the rulebook fully fixes carry no
    mark."""
    for write_ins, mark in ((False, "(our edition)"), (True, "(write-ins)")):
        _, pdf = builds[write_ins]
        with pdfplumber.open(pdf) as document:
            page_one = document.pages[0].extract_text()
        assert f"Environment cards {mark}" in page_one and f"Merger reference card {mark}" in page_one
        assert f"Pieces marked {mark}" in page_one
        assert "Player boards (our edition)" in page_one  # the tanks' sizes are ours, with or without write-ins
        assert "First player token token 1 " in page_one  # unmarked: the rulebook fixes it
        assert "every count and cost" not in page_one.replace("\n", " ")
