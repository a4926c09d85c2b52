"""Stratastar rules: every number the tracker shows, checked against the rulebook."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from starpnp.companion.rules import RuleError, get_rules
from starpnp.companion.rules import stratastar as ss

PLAYERS = [{"id": "p1", "name": "Ann", "color": "red"}, {"id": "p2", "name": "Bo", "color": "blue"},
           {"id": "p3", "name": "Cy", "color": "green"}]


def new(players=2, **options):
    return ss.initial_state(PLAYERS[:players], options)


def play(state, *events):
    for event in events:
        state = ss.apply(state, event)
    return state


def ev(kind, player="p1", **payload):
    return {"type": kind, "player": player, **payload}


def at_battle(state):
    """The active player's battle phase, the one phase a battle is fought in."""
    return {**state, "turn": {**state["turn"], "phase": ss.PHASES.index("battle")}}


def with_empire(state, pid="p1", **counts):
    state = copy.deepcopy(state)
    state["empires"][pid].update(counts)
    return state


def test_registered_and_starting_empire():
    assert get_rules("stratastar") is ss.RULES
    empire = new()["empires"]["p1"]
    assert (empire["fleets"], empire["stargates"], empire["colonies"], empire["homeworld"]) == (4, 1, 0, "held")


@pytest.mark.parametrize("colonies, logistics, limit", [(0, 0, 2), (1, 0, 2), (2, 0, 3), (5, 0, 4), (1, 1, 3),
                                                        (0, 3, 3), (20, 0, 12)])
def test_support_limit_homeworld_two_plus_one_per_two_colonies(colonies, logistics, limit):
    state = with_empire(new(), colonies=colonies, worlds=min(colonies, 20), logistics=logistics)
    assert ss.derive(state)["empires"]["p1"]["support_limit"] == limit


def test_logistics_cards_count_as_colonies_until_the_turn_ends():
    state = play(with_empire(new(), colonies=1, worlds=1), ev("logistics"))
    assert ss.derive(state)["empires"]["p1"]["support_limit"] == 3
    state = play(state, ev("logistics", cards="2"))
    assert state["empires"]["p1"]["logistics"] == 3
    for _ in ss.PHASES:
        state = play(state, ev("next_phase"))
    assert state["empires"]["p1"]["logistics"] == 0
    assert ss.derive(state)["empires"]["p1"]["support_limit"] == 2


def test_only_the_active_player_uses_logistics_or_builds():
    for kind in ("logistics", "build_fleet", "colonise", "remove_unsupported"):
        with pytest.raises(RuleError) as err:
            ss.apply(new(), ev(kind, "p2"))
        assert err.value.field == "player"


def test_unsupported_fleets_counted_and_removed_in_support_phase():
    state = new()  # four starting fleets, homeworld supports two
    state = play(state, ev("next_phase"), ev("next_phase"))
    derived = ss.derive(state)
    assert derived["phase"] == "support"
    assert derived["empires"]["p1"]["unsupported"] == 2 and derived["must_remove_now"] == 2
    state = play(state, ev("remove_unsupported"))
    assert state["empires"]["p1"]["fleets"] == 2
    assert ss.derive(state)["must_remove_now"] == 0
    with pytest.raises(RuleError, match="nothing to remove"):
        ss.apply(state, ev("remove_unsupported"))


def test_unsupported_warfleets_can_be_the_ones_removed():
    state = with_empire(new(), fleets=2, warfleets=1)
    state = play(state, ev("remove_unsupported", warfleets=1))
    assert (state["empires"]["p1"]["fleets"], state["empires"]["p1"]["warfleets"]) == (2, 0)
    with pytest.raises(RuleError) as err:
        ss.apply(with_empire(new(), fleets=3), ev("remove_unsupported", warfleets=1))
    assert err.value.field == "warfleets"


def test_a_captured_homeworld_supports_nothing():
    state = with_empire(new(), homeworld="captured", colonies=4, worlds=4)
    assert ss.derive(state)["empires"]["p1"]["support_limit"] == 2


@pytest.mark.parametrize("colonies, draw", [(0, 5), (2, 5), (3, 6), (5, 6), (6, 7), (20, 11)])
def test_max_draw_size_five_plus_one_per_three_colonies(colonies, draw):
    state = with_empire(new(), colonies=colonies, worlds=min(colonies, 20))
    assert ss.derive(state)["empires"]["p1"]["max_draw"] == draw


def test_colonising_and_terraforming_count_colonies_and_worlds():
    state = play(new(), ev("colonise"), ev("colonise"), ev("terraform"))
    empire = state["empires"]["p1"]
    assert (empire["colonies"], empire["worlds"]) == (3, 2)
    with pytest.raises(RuleError, match="colonised"):
        ss.apply(new(), ev("terraform"))


def test_chit_limits_refuse_the_eleventh_fleet_and_twenty_first_colony():
    with pytest.raises(RuleError, match="10 fleet"):
        ss.apply(with_empire(new(), fleets=10), ev("build_fleet"))
    with pytest.raises(RuleError, match="colony"):
        ss.apply(with_empire(new(), colonies=20, worlds=11), ev("colonise"))
    with pytest.raises(RuleError, match="stargate"):
        ss.apply(with_empire(new(), stargates=10, colonies=1, worlds=1), ev("build_stargate"))


def test_fleets_are_built_only_at_a_held_homeworld():
    with pytest.raises(RuleError, match="homeworld"):
        ss.apply(with_empire(new(), homeworld="captured"), ev("build_fleet"))
    state = play(new(), ev("build_warfleet"))
    assert state["empires"]["p1"]["warfleets"] == 1


def test_victory_at_colonies_on_twelve_worlds_not_twelve_colonies():
    state = with_empire(new(), colonies=12, worlds=11)
    assert ss.derive(state)["winners"] == []
    assert ss.derive(state)["empires"]["p1"]["worlds_to_win"] == 1
    state = play(state, ev("colonise"))
    assert ss.derive(state)["winners"] == [{"player": "p1", "reason": "colonies on 12 worlds"}]


def test_turn_order_and_six_phases_with_the_active_player():
    state = new(3)
    seen = []
    for _ in range(6 * 3 + 1):
        d = ss.derive(state)
        seen.append((d["round"], d["active_player"], d["phase"]))
        if d["must_remove_now"]:  # four starting fleets, two supported: the support phase takes two off
            state = play(state, ev("remove_unsupported", d["active_player"]))
        state = play(state, ev("next_phase", d["active_player"]))
    assert seen[:6] == [(1, "p1", phase) for phase in ss.PHASES]
    assert seen[6] == (1, "p2", "draw") and seen[12] == (1, "p3", "draw")
    assert seen[18] == (2, "p1", "draw")


def test_lose_pieces_outside_battle():
    state = with_empire(new(), colonies=3, worlds=2)
    state = play(state, ev("lose", what="world", colonies=2))
    assert (state["empires"]["p1"]["colonies"], state["empires"]["p1"]["worlds"]) == (1, 1)
    with pytest.raises(RuleError) as err:
        ss.apply(state, ev("lose", what="colony"))  # the last colony of a world goes with the world
    assert err.value.field == "count"
    state = play(state, ev("lose", what="fleet", count="3"))
    assert state["empires"]["p1"]["fleets"] == 1


# ---- battle ----------------------------------------------------------------------------------------------

def side(**counts):
    return {**dict.fromkeys(ss.SIDE_FIELDS, 0), **counts}


def test_force_values_unit_one_warfleet_three_homeworld_four_cards_one_or_two():
    assert ss.force(side(fleets=2, colonies=1)) == 3
    assert ss.force(side(warfleets=1)) == 3
    assert ss.force(side(homeworld=1)) == 4
    assert ss.force(side(attack=2, power_attack=1)) == 4
    assert ss.force(side(stargates=5)) == 0


def test_battle_higher_force_wins_and_loser_loses_everything_there():
    out = ss.battle_outcome(side(fleets=3, attack=1), side(fleets=2, colonies=1, stargates=1))
    assert out["force"] == {"attacker": 4, "defender": 3}
    assert out["result"] == "attacker"
    assert out["destroyed"]["attacker"] == dict.fromkeys(("fleets", "warfleets", "colonies", "stargates"), 0)
    assert out["destroyed"]["defender"] == {"fleets": 2, "warfleets": 0, "colonies": 1, "stargates": 1}


def test_battle_tie_is_mutual_destruction():
    out = ss.battle_outcome(side(fleets=4), side(fleets=0, homeworld=1))
    assert out["result"] == "mutual" and not out["homeworld_captured"]
    assert out["destroyed"]["attacker"]["fleets"] == 4


def test_homeworld_lost_in_battle_is_captured_and_wins_the_game():
    state = play(at_battle(new()), ev("battle_start", defender="p2"), ev("battle_side", fleets=4, attack=2),
                 ev("battle_side", "p2", fleets=1, homeworld="1"))
    preview = ss.derive(state)["battle"]
    assert preview["force"] == {"attacker": 6, "defender": 5} and preview["homeworld_captured"]
    state = play(state, ev("battle_resolve", "p2"))
    assert state["empires"]["p2"]["homeworld"] == "captured" and state["empires"]["p2"]["fleets"] == 3
    assert state["empires"]["p1"]["fleets"] == 4 and state["battle"] is None
    assert state["last_battle"]["result"] == "attacker"
    assert ss.derive(state)["winners"] == [{"player": "p1", "reason": "captured an enemy homeworld"}]


def test_defender_winning_destroys_attacking_fleets_and_colonised_world():
    state = at_battle(with_empire(new(), colonies=2, worlds=2))
    state = play(state, ev("battle_start", defender="p2"), ev("battle_side", fleets=1, colonies=1),
                 ev("battle_side", "p2", fleets=3), ev("battle_resolve"))
    assert (state["empires"]["p1"]["fleets"], state["empires"]["p1"]["colonies"],
            state["empires"]["p1"]["worlds"]) == (3, 1, 1)
    assert state["empires"]["p2"]["fleets"] == 4


def test_power_attack_cards_only_with_the_power_card_option():
    state = play(at_battle(new()), ev("battle_start", defender="p2"))
    with pytest.raises(RuleError) as err:
        ss.apply(state, ev("battle_side", power_attack=1))
    assert err.value.field == "power_attack"
    state = play(at_battle(new(power_cards=True)), ev("battle_start", defender="p2"), ev("battle_side", power_attack=2),
                 ev("battle_side", "p2"))
    assert ss.derive(state)["battle"]["force"]["attacker"] == 4


@pytest.mark.parametrize("event, field", [
    (ev("battle_side", fleets=5), "fleets"),
    (ev("battle_side", fleets="x"), "fleets"),
    (ev("battle_side", homeworld=2), "homeworld"),
    (ev("battle_side", "p3"), "player"),
])
def test_battle_sides_are_checked(event, field):
    state = play(at_battle(new(3)), ev("battle_start", defender="p2"))
    with pytest.raises(RuleError) as err:
        ss.apply(state, event)
    assert err.value.field == field


def test_battle_needs_an_opponent_and_one_battle_at_a_time():
    with pytest.raises(RuleError) as err:
        ss.apply(at_battle(new()), ev("battle_start", defender="p1"))
    assert err.value.field == "defender"
    state = play(at_battle(new()), ev("battle_start", defender="p2"))
    with pytest.raises(RuleError, match="already"):
        ss.apply(state, ev("battle_start", defender="p2"))
    assert play(state, ev("battle_cancel"))["battle"] is None
    with pytest.raises(RuleError, match="no battle"):
        ss.apply(new(), ev("battle_resolve"))


@pytest.mark.parametrize("event, field", [
    ({"type": "fly", "player": "p1"}, "type"),
    ({"type": "next_phase", "player": "p9"}, "player"),
    ({"type": "lose", "player": "p1", "what": "moon"}, "what"),
    ({"type": "logistics", "player": "p1", "cards": "lots"}, "cards"),
])
def test_invalid_events_name_the_field_and_leave_state_alone(event, field):
    state = new()
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as err:
        ss.apply(state, event)
    assert err.value.field == field
    assert state == before


def test_docs_describe_every_event_type_and_derived_field():
    doc = (Path(__file__).parents[2] / "docs" / "rules" / "stratastar.md").read_text()
    assert all(f"`{t.name}`" in doc for t in ss.RULES.event_types)
    derived = ss.derive(play(at_battle(new()), ev("battle_start", defender="p2")))
    assert all(f"`{name}" in doc for name in [*derived, *(f"empires[pid].{k}" for k in derived["empires"]["p1"])])


def test_power_cards_switched_on_at_the_table():
    state = play(at_battle(new()), ev("power_cards", "p2", use="yes"), ev("battle_start", defender="p2"),
                 ev("battle_side", power_attack=1), ev("battle_side", "p2"))
    assert ss.derive(state)["battle"]["force"]["attacker"] == 2
    assert play(state, ev("power_cards", use="no"))["power_cards"] is False
    with pytest.raises(RuleError) as err:
        ss.apply(state, ev("power_cards", use="maybe"))
    assert err.value.field == "use"


def test_battle_sides_are_secret_until_both_are_entered_and_then_fixed():
    """Rulebook, Battle: both players choose their Attack cards in secret and reveal them at the same time,
    once. Nothing of a side shows until both are in; a sealed side cannot change; only the two sides settle."""
    state = play(at_battle(new(3)), ev("battle_start", defender="p2"), ev("battle_side", fleets=2, attack=3))
    shown = ss.derive(state)["battle"]
    assert shown["committed"] == ["p1"] and not shown["revealed"]
    assert "force" not in shown and "result" not in shown  # the defender's phone learns nothing yet
    with pytest.raises(RuleError, match="sealed"):
        ss.apply(state, ev("battle_side", fleets=3, attack=3))
    with pytest.raises(RuleError, match="both sides"):
        ss.apply(state, ev("battle_resolve"))
    state = play(state, ev("battle_side", "p2", fleets=2))
    assert ss.derive(state)["battle"]["revealed"] and ss.derive(state)["battle"]["result"] == "attacker"
    with pytest.raises(RuleError, match="only the two sides"):
        ss.apply(state, ev("battle_resolve", "p3"))
    assert play(state, ev("battle_resolve", "p2"))["last_battle"]["result"] == "attacker"


def test_after_a_win_the_table_takes_no_more_moves():
    won = with_empire(new(), colonies=12, worlds=12)
    assert ss.derive(won)["winners"]
    for event in (ev("next_phase"), ev("colonise"), ev("battle_start", "p2", defender="p1")):
        with pytest.raises(RuleError, match="the game is over"):
            ss.apply(won, event)


def test_the_map_has_twenty_worlds_for_all_empires_together():
    state = with_empire(with_empire(new(), colonies=10, worlds=10), "p2", colonies=10, worlds=10)
    with pytest.raises(RuleError, match="20 worlds on the map, 20 colonised"):
        ss.apply(state, ev("colonise"))


def test_losing_two_worlds_takes_two():
    state = play(with_empire(new(), colonies=3, worlds=3), ev("lose", what="world", count=2))
    assert (state["empires"]["p1"]["worlds"], state["empires"]["p1"]["colonies"]) == (1, 1)


def test_next_phase_does_not_leave_the_support_phase_while_fleets_are_unsupported():
    """Rulebook, Support phase (Military Cutbacks): in the support phase the active player's unsupported
    fleets are removed from the map; so "Next phase" waits for them, and Logistics may still save some."""
    state = play(new(), ev("next_phase"), ev("next_phase"))
    assert ss.derive(state)["phase"] == "support" and ss.derive(state)["must_remove_now"] == 2
    with pytest.raises(RuleError, match="Ann must first remove 2 unsupported fleets"):
        ss.apply(state, ev("next_phase"))
    assert ss.derive(play(state, ev("logistics", cards=4), ev("next_phase")))["phase"] == "build"
    assert ss.derive(play(state, ev("remove_unsupported"), ev("next_phase")))["phase"] == "build"
    later = play(state, ev("remove_unsupported"), ev("next_phase"), ev("build_fleet"), ev("build_fleet"))
    assert ss.derive(play(later, ev("next_phase")))["phase"] == "movement"  # built after support: kept


def test_end_turn_passes_the_rest_of_the_turn_in_one_tap_but_not_the_support_check():
    state = play(with_empire(new(), fleets=2), ev("end_turn"))
    assert state["turn"] == {"round": 1, "active": 1, "phase": 0}  # Bo's draw phase, one tap instead of six
    crowded = with_empire(new(), fleets=5)  # homeworld supports 2
    with pytest.raises(RuleError, match="remove 3 unsupported fleets"):
        ss.apply(crowded, ev("end_turn"))
    fixed = play(crowded, ev("next_phase"), ev("next_phase"), ev("remove_unsupported"), ev("end_turn"))
    assert fixed["turn"]["active"] == 1


def test_a_battle_starts_only_in_the_active_players_battle_phase():
    """Rulebook, Turn sequence: "Each turn is divided into 6 phases: ... 6. Battle", and Battle phase: "A
    battle occurs if opposing units occupy the same space and at least one player wants to fight". The other
    player cannot start one during Ann's draw phase; in her battle phase either side of it may."""
    state = new(3)
    for player, defender in (("p2", "p1"), ("p1", "p2")):
        with pytest.raises(RuleError, match="battle phase of Ann's turn"):
            ss.apply(state, ev("battle_start", player, defender=defender))
    state = at_battle(state)
    with pytest.raises(RuleError, match="fought against Ann") as err:
        ss.apply(state, ev("battle_start", "p2", defender="p3"))  # Bo and Cy fight in Bo's or Cy's turn
    assert err.value.field == "defender"
    assert play(state, ev("battle_start", "p2", defender="p1"))["battle"]["attacker"] == "p2"
    assert play(state, ev("battle_start", defender="p3"))["battle"]["defender"] == "p3"


def test_only_the_side_that_wants_the_battle_calls_it_off_and_not_once_sealed():
    """Rulebook, Battle phase: the battle happens "if ... at least one player wants to fight", and Attack
    cards are revealed "once. More Attack cards cannot be added later." Ann started it: Bo cannot cancel it
    (before or after Ann sealed); Ann can, until she seals her side; once both are in, nobody can."""
    state = play(at_battle(new()), ev("battle_start", defender="p2"))
    with pytest.raises(RuleError, match="Ann wants this battle") as err:
        ss.apply(state, ev("battle_cancel", "p2"))
    assert err.value.field == "player"
    assert play(state, ev("battle_cancel"))["battle"] is None
    sealed = play(state, ev("battle_side", fleets=1, attack=1))
    with pytest.raises(RuleError, match="Ann wants this battle"):
        ss.apply(sealed, ev("battle_cancel", "p2"))
    with pytest.raises(RuleError, match="committed"):
        ss.apply(sealed, ev("battle_cancel"))
    revealed = play(sealed, ev("battle_side", "p2", fleets=4))
    for player in ("p1", "p2"):
        with pytest.raises(RuleError, match="stands"):
            ss.apply(revealed, ev("battle_cancel", player))


def test_only_the_active_player_moves_the_turn_on():
    """Rulebook, Turn sequence: "Players take turns ... Each turn is divided into 6 phases": Ann's phases
    are Ann's to move on. Bo's phone tapping Next phase or End turn as Bo is refused; sent for Ann (after
    asking, see test_api) it is Ann's."""
    state = new()
    for kind in ("next_phase", "end_turn"):
        with pytest.raises(RuleError, match="it is Ann's turn") as err:
            ss.apply(state, ev(kind, "p2", step=0))
        assert err.value.field == "player"
    assert ss.RULES.event_type("end_turn").asks and ss.RULES.event_type("next_phase").asks
    assert ss.derive(play(state, ev("next_phase", step=0)))["phase"] == "trade"
