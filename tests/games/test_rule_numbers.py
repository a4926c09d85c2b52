"""The numbers the companion plays by are the numbers the printed set shows: each test reads what the pieces
print and checks the companion's behaviour against it (both come from the game's `rules:` in game.yaml)."""
from __future__ import annotations

import re

import pytest

from starpnp.companion.rules import handful_of_stars as hs
from starpnp.companion.rules import stars_inc as si
from starpnp.companion.rules import starship_catan as sc
from starpnp.companion.rules import stratastar as ss
from starpnp.generator.look.loader import find_game, load_game
from scene_text import component_text

SEATS = [{"id": "p1", "name": "Ann", "color": "red"}, {"id": "p2", "name": "Bo", "color": "blue"}]


@pytest.fixture(scope="module")
def stratastar():
    return load_game(find_game("stratastar"))


def number(pattern: str, text: str) -> tuple[int, ...]:
    match = re.search(pattern, text, re.IGNORECASE)
    assert match, f"{pattern!r} is not printed"
    return tuple(int(g) for g in match.groups())


def test_stratastar_victory_support_and_draw_size_match_the_turn_aid(stratastar):
    aid = component_text(stratastar, "turn_reference")
    state = ss.RULES.initial_state(SEATS, {})
    empire = state["empires"]["p1"]
    (worlds,) = number(r"colonies on (\d+) worlds", aid)
    assert ss.derive(state)["empires"]["p1"]["worlds_to_win"] == worlds
    support, per = number(r"(\d+) fleets, plus 1 per (\d+) colonies", aid)
    assert ss.support_limit(empire) == support
    assert ss.support_limit({**empire, "colonies": per}) == support + 1
    assert ss.support_limit({**empire, "colonies": per - 1}) == support
    base, every = number(r"(\d+) cards, plus 1 for every (\d+) colonies", aid)
    assert ss.max_draw(empire) == base
    assert ss.max_draw({**empire, "colonies": every}) == base + 1
    assert ss.max_draw({**empire, "colonies": every - 1}) == base
    hand, fleets, gates = number(r"deal (\d+) cards each; (\d+) fleets and (\d+) stargate", aid)
    assert (empire["fleets"], empire["stargates"]) == (fleets, gates)
    assert ss.max_draw(empire) == hand


def test_stratastar_battle_force_matches_the_chits(stratastar):
    (homeworld,) = number(r"Homeworld force (\d+)", component_text(stratastar, "map_chits"))
    assert ss.battle_outcome({"homeworld": 1}, {})["force"]["attacker"] == homeworld
    chits = {p.name: p for p in next(c for c in stratastar.components if c.spec.id == "empire_chits").pieces}
    for piece, unit in (("Fleet", "fleets"), ("Warfleet", "warfleets"), ("Colony", "colonies")):
        assert ss.battle_outcome({unit: 1}, {})["force"]["attacker"] == chits[piece].front.params.force, piece
    (attack,) = number(r"force \+(\d+) in battle", component_text(stratastar, "galaxy_deck"))
    assert ss.battle_outcome({"attack": 1}, {})["force"]["attacker"] == attack


def test_stratastar_refuses_the_chit_after_the_last_printed_one(stratastar):
    chits = {p.name: p.count for p in next(c for c in stratastar.components if c.spec.id == "empire_chits").pieces
             if p.color == "red"}
    state = ss.RULES.initial_state(SEATS, {})
    state["empires"]["p1"].update(fleets=chits["Fleet"], stargates=chits["Stargate"], colonies=chits["Colony"],
                                  worlds=1)
    state["turn"]["phase"] = ss.PHASES.index("build")
    state["empires"]["p1"]["warfleets"] = chits["Warfleet"]
    for kind, field in (("build_fleet", "Fleet"), ("build_stargate", "Stargate"), ("terraform", "Colony"),
                        ("build_warfleet", "Warfleet")):
        with pytest.raises(ss.RuleError, match=str(chits[field])):
            ss.apply(state, {"type": kind, "player": "p1"})


# ---- Stars, Inc.: the player boards' tanks, costs and conversions, the board's yields ----------------------

@pytest.fixture(scope="module")
def stars_inc():
    return load_game(find_game("stars_inc"))


def stars_state(**tanks):
    state = si.RULES.initial_state(SEATS, {})
    state["tanks"]["p1"].update(tanks)
    return state


def test_stars_inc_tanks_start_and_stop_where_the_player_board_says(stars_inc):
    board = component_text(stars_inc, "player_boards")
    state = si.RULES.initial_state(SEATS, {})
    for tank, name in (("H", "Hydrogen"), ("He", "Helium"), ("C", "Carbon"), ("Fe", "Iron")):
        (most,) = number(rf"{tank} {name} tank start \d+ · holds up to (\d+)", board)
        (said,) = number(rf"{tank} {name} tank start (\d+) ·", board)
        (start,) = number(rf"{tank} {name} tank start \d+ · holds up to \d+ [\d ]*?(\d+) start", board)
        assert state["caps"][tank] == most and state["tanks"]["p1"][tank] == start == said, tank


@pytest.mark.parametrize("label, star", [("Blue giant", "blue_giant"), ("Sunlike star", "sunlike"),
                                         ("Red dwarf", "red_dwarf")])
def test_stars_inc_a_star_costs_what_the_player_board_says(stars_inc, label, star):
    (cost,) = number(rf"{label} on the first space of its track (\d+) H", component_text(stars_inc, "player_boards"))
    made = si.apply(stars_state(H=cost), {"type": "make_star", "player": "p1", "star": star})
    assert made["tanks"]["p1"]["H"] == 0 and made["stars"]["p1"][star] == 1
    with pytest.raises(si.RuleError):
        si.apply(stars_state(H=cost - 1), {"type": "make_star", "player": "p1", "star": star})


def test_stars_inc_fusion_and_block_cost_what_the_player_board_says(stars_inc):
    board = component_text(stars_inc, "player_boards")
    for source, product, conversion in (("H", "He", "h_to_he"), ("He", "C", "he_to_c")):
        (rate,) = number(rf"(\d+) {source} 1 {product}", board)
        fused = si.apply(stars_state(**{source: rate, product: 0}),
                         {"type": "convert", "player": "p1", "conversion": conversion})
        assert (fused["tanks"]["p1"][source], fused["tanks"]["p1"][product]) == (0, 1), conversion
    (iron,) = number(r"Pay (\d+) Fe to stop", board)
    assert si.BLOCK_IRON == iron


def test_stars_inc_harvest_yields_what_the_board_says(stars_inc):
    board = component_text(stars_inc, "board")
    state = si.RULES.initial_state(SEATS, {})
    for stage, printed in (("blue_giant", r"START · Main sequence (\d+) He"), ("red_dwarf", r"Red dwarf (\d+) He")):
        (helium,) = number(printed, board)
        with_star = {**state, "stars": {**state["stars"], "p1": {**state["stars"]["p1"], stage: 1}}}
        assert si.harvest_preview(with_star, "p1")["He"] == helium, stage


# ---- A Handful of Stars: the shuffle track's end triggers, system VP and unit strengths ---------------------

@pytest.fixture(scope="module")
def handful():
    return load_game(find_game("handful_of_stars"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_handful_the_game_ends_at_the_shuffle_track_mark(handful, players):
    (mark,) = number(rf"(\d+) {players} players", component_text(handful, "board"))
    seats = [{"id": f"p{i}", "name": f"P{i}", "color": c} for i, c in
             enumerate(("red", "blue", "green", "yellow")[:players], 1)]
    state = hs.RULES.initial_state(seats, {})
    for shuffle in range(mark):
        assert hs.derive(state)["turns_left"] is None, shuffle  # no end in sight before the mark
        state = hs.apply(state, {"type": "shuffle", "player": "p1"})
    assert hs.derive(state)["turns_left"] is not None


def test_handful_systems_and_units_count_what_the_pieces_print(handful):
    home, colony, outpost = number(r"Home world (\d+) VP, colony (\d+), outpost (\d+)", component_text(handful, "board"))
    assert (hs.systems_vp(1, 0, 0), hs.systems_vp(0, 1, 0), hs.systems_vp(0, 0, 1)) == (home, colony, outpost)
    (fleet,) = number(r"Fleet (\d+)", component_text(handful, "fleets"))
    (base,) = number(r"Base (\d+)", component_text(handful, "star_bases"))
    reserve = hs.RULES.initial_state(SEATS, {})["empires"]["p1"]["reserve"]
    strength = lambda fleets, bases: sum(p for _, p in hs.side_strength(hs._new_side(fleets, bases, True), reserve))
    assert (strength(1, 0), strength(0, 1)) == (fleet, base)


# ---- Starship Catan: the score board, the people cards and the storage scales -------------------------------

@pytest.fixture(scope="module")
def starship():
    return load_game(find_game("starship_catan"))


def test_starship_catan_wins_claims_and_storage_match_the_set(starship):
    score = component_text(starship, "score_board")
    (victory,) = number(r"(\d+) game ends", score)
    state = sc.RULES.initial_state(SEATS, {})
    assert sc.derive(state)["target"] == victory
    (claim,) = number(r"reach (\d+) Friendship points", component_text(starship, "people_cards"))
    assert number(r"(\d+) Friend card", score) == (claim,)
    one_short = sc.apply(state, {"type": "points", "player": "p1", "kind": "friendship", "delta": claim - 1})
    assert sc.derive(one_short)["friend_of_the_people"] is None
    claimed = sc.apply(one_short, {"type": "points", "player": "p1", "kind": "friendship", "delta": 1})
    assert sc.derive(claimed)["friend_of_the_people"] == "p1"
    (limit,) = number(r"Up to (\d+) of each", component_text(starship, "starship"))
    full = sc.apply(sc.RULES.initial_state(SEATS, {}),
                    {"type": "resource", "player": "p1", "resource": "resource_a", "delta": limit})
    with pytest.raises(sc.RuleError):
        sc.apply(full, {"type": "resource", "player": "p1", "resource": "resource_a", "delta": 1})
    (lab,) = number(r"Science Lab holds (\d+)", component_text(starship, "starship"))
    assert sc.derive(full)["players"]["p1"]["resources"]["science"]["limit"] == lab


def test_stars_inc_harvest_pawns_planets_white_dwarfs_and_rounds_match_the_set(stars_inc):
    player_board, board = component_text(stars_inc, "player_boards"), component_text(stars_inc, "board")
    state = si.RULES.initial_state(SEATS, {})
    (per_pawn,) = number(r"\+(\d+) H at harvest for each pawn here", player_board)
    assert si.harvest_preview(state, "p1")["H"] == per_pawn * si.PAWNS_TO_PLAY  # no environment yet, no stars
    (choices,) = number(r"Rocky planet: any (\d+) elements", board)
    rocky = {**state, "planets": {**state["planets"], "p1": {"rocky": 1, "gas": 0}}}
    assert si.harvest_preview(rocky, "p1")["rocky_choices"] == choices
    (arrival,) = number(r"\+(\d+) point when it arrives", board)
    giant = {**state, "stars": {**state["stars"], "p1": {**state["stars"]["p1"], "red_giant": 1}}}
    aged = si.apply(giant, {"type": "move_star", "player": "p1", "star": "red_giant", "evolves": "yes"})
    assert aged["points"]["p1"] == arrival
    (rounds,) = number(r"the last \((\d+)th\) environment", board)
    assert si.derive(state)["rounds_left"] == rounds


def test_handful_combat_cards_add_what_they_print(handful):
    technology = component_text(handful, "technology")
    reserve = hs.RULES.initial_state(SEATS, {})["empires"]["p1"]["reserve"]
    fleet_alone = sum(p for _, p in hs.side_strength(hs._new_side(1, 0, True), reserve))
    for card, printed in (("dreadnoughts", r"Dreadnoughts RESERVE In your Reserve: \+(\d+) combat strength"),
                          ("super_dreadnoughts", r"\+(\d+) combat strength, attacking or defending, where you "
                                                 r"have a Fleet\. Adds to Dreadnoughts")):
        (adds,) = number(printed, technology + " " + component_text(handful, "race_abilities"))
        with_card = {**reserve, card: 1}
        assert sum(p for _, p in hs.side_strength(hs._new_side(1, 0, True), with_card)) == fleet_alone + adds, card


def test_starship_catan_players_start_with_the_astro_the_reference_says(starship):
    (astro,) = number(r"Start: (\d+) Astro each", component_text(starship, "reference"))
    assert all(p["astro"] == astro for p in sc.derive(sc.RULES.initial_state(SEATS, {}))["players"].values())


def test_handful_refuses_a_colony_or_outpost_the_set_has_no_piece_for(handful):
    """Limits the printed set has: colony discs (less the two marking the VP tracks) and outpost cubes."""
    pieces = {p.name: p.count for c in handful.components for p in c.pieces if p.color == "red"}
    state = hs.RULES.initial_state(SEATS, {})
    empire = state["empires"]["p1"]
    full = {**state, "empires": {**state["empires"], "p1": {**empire, "colonies": pieces["Colony disc"] - 2,
                                                            "outposts": pieces["Outpost"]}}}
    for kind in ("colony", "outpost", "upgrade_outpost"):
        with pytest.raises(hs.RuleError, match="on the board"):
            hs.apply(full, {"type": kind, "player": "p1"})
    room = {**full, "empires": {**full["empires"], "p1": {**full["empires"]["p1"], "colonies": pieces["Colony disc"] - 3}}}
    assert hs.apply(room, {"type": "colony", "player": "p1"})["empires"]["p1"]["colonies"] == pieces["Colony disc"] - 2


def _handful_cards(handful) -> dict:
    """Every printed Technology and Race Ability card by the phone's name for it (lower case, underscores)."""
    return {re.sub(r"[^a-z]+", "_", piece.front.params.title.lower()).strip("_"): piece.front.params
            for c in handful.components if c.spec.id in ("technology", "race_abilities") for piece in c.pieces}


def test_handful_every_card_the_phone_knows_is_printed_with_the_timing_the_phone_plays(handful):
    printed = _handful_cards(handful)
    known = {**dict.fromkeys(hs.RESERVE_CARDS, "Reserve"), **dict.fromkeys(hs.COMBAT_CARDS, "Combat"),
             "rapid_reaction_force": "Combat"}
    for card, timing in known.items():
        assert card in printed, f"the phone knows {card}, no card prints it"
        assert timing in printed[card].tags, f"{card}: the phone plays it as {timing}, the card says {printed[card].tags}"


def test_handful_every_strength_the_phone_adds_is_the_one_printed(handful):
    printed = _handful_cards(handful)
    reserve = {**hs.RULES.initial_state(SEATS, {})["empires"]["p1"]["reserve"]}
    total = lambda side, cards=reserve, **how: sum(p for _, p in hs.side_strength(side, cards, **how))
    fleet = hs._new_side(1, 0, True)
    checks = {  # card: (strength the phone adds with one copy, how the card prints it)
        "dreadnoughts": (total(fleet, {**reserve, "dreadnoughts": 1}) - total(fleet), r"\+(\d+) combat strength"),
        "super_dreadnoughts": (total(fleet, {**reserve, "super_dreadnoughts": 1}) - total(fleet), r"\+(\d+) combat"),
        "space_mines": (total(fleet, {**reserve, "space_mines": 1}, defending=True, settled=True)
                        - total(fleet, defending=True, settled=True), r"\+(\d+) strength"),
        "minefield_network": (total(fleet, {**reserve, "minefield_network": 1}, defending=True)
                              - total(fleet, defending=True), r"\+(\d+) strength"),
        "rapid_reaction_force": (total({**fleet, "rapid_reaction": 1}) - total(fleet), r"\+(\d+) combat strength"),
        "war_fervour": (total({**fleet, "war_fervour": 1}) - total(fleet), r"\+(\d+) combat strength"),
        "missiles": (total({**fleet, "missiles": 1}) - total(fleet), r"each Matter on them adds (\d+) strength"),
    }
    for card, (adds, pattern) in checks.items():
        (shown,) = number(pattern, printed[card].text)
        assert adds == shown, f"{card}: the phone adds {adds}, the card prints {shown}"
    assert total(fleet, {**reserve, "minefield_network": 1}) == total(fleet), "Minefield Network counts only in defence"


def test_handful_war_fervour_is_the_attackers_card(handful):
    state = hs.apply(hs.RULES.initial_state(SEATS, {}), {"type": "combat_start", "player": "p1", "defender": "p2",
                                                         "fleets": 1, "system": "colony", "defender_fleets": 2})
    with pytest.raises(hs.RuleError, match="attacker"):
        hs.apply(state, {"type": "combat_card", "player": "p2", "card": "war_fervour"})
    played = hs.apply(state, {"type": "combat_card", "player": "p1", "card": "war_fervour"})
    assert played["combat"]["attacker_side"]["war_fervour"] == 1


def faces_text(game, comp_id: str) -> dict[str, str]:
    """What each piece of a component prints (front, then back), by its title or name."""
    from pathlib import Path

    from starpnp.generator.look.render import SceneCache
    from scene_text import printed_texts

    comp = next(c for c in game.components if c.spec.id == comp_id)
    cache = SceneCache(0.0, Path(game.folder))
    return {getattr(piece.front.params, "title", None) or piece.name: " ".join(
        text for side in (("front", "back") if piece.back else ("front",))
        for text, _ in printed_texts(cache.face(comp, piece, side).elements)) for piece in comp.pieces}


def test_starship_catan_every_card_the_phone_knows_prints_what_the_phone_plays(starship):
    sectors = {**faces_text(starship, "sector_cards"), **faces_text(starship, "reserve_sector_cards")}
    for pirate in sc.PIRATES.values():
        assert number(r"Strength (\d+)", sectors[pirate["name"]]) == (pirate["strength"],), pirate["name"]
    for market in sc.MARKETS.values():
        printed = sectors[market["name"]]
        if market["kind"] == sc.LIBRARY:
            assert number(r"(\d+) Astro each, buy or sell", printed) == (market["price"], ), market["name"]
            assert market["sell"] == market["price"]
            continue
        assert number(r"Price (\d+) Astro", printed) == (market["price"],), market["name"]
        if market["buy_only"]:
            assert number(r"Buy (\d+) of this resource", printed) == (market["buy_only"],)
        else:
            (less,) = number(r"sell(?: it)? for (\d+) Astro less", printed)
            assert market["sell"] == market["price"] - less, market["name"]
    modules = {**faces_text(starship, "modules")}
    for key, module in sc.MODULES.items():
        printed = modules[module.name]
        assert number(rf"Produces (\d+) {sc.RESOURCE_LABELS[module.resource]}", printed) == (module.amount,), key
    for level, printed in ((1, modules["Logistics Module"]), (2, faces_text(starship, "advanced_modules")["Logistics Module"])):
        assert number(r"Storage limit (\d+)", printed) == (sc.LOGISTICS_STORAGE[level],)
    for part, label in (("boosters", "Speed"), ("cannons", "Combat")):
        tiles = next(c for c in starship.components if c.spec.id == part).pieces
        (top,) = number(rf"II .*{label} \+(\d+)", next(iter(faces_text(starship, part).values())))
        assert sc.MAX_STRENGTH[part] == tiles[0].count * top, part


def test_stars_inc_every_environment_the_phone_knows_prints_its_hydrogen_and_actions(stars_inc):
    cards = faces_text(stars_inc, "environments")
    assert len(si.ENVIRONMENTS) == len(cards)
    for card, numbers in si.ENVIRONMENTS.items():
        title = next(t for t in cards if re.sub(r"[^a-z]+", "_", t.lower()).strip("_") == card)
        hydrogen, actions = number(r"HARVEST (\d+) H ACTIONS (\d+)", cards[title])
        assert (numbers["hydrogen"], numbers["actions"]) == (hydrogen, actions), title
