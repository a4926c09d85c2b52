"""A designer's tracker, declared in game.yaml (tests/fixtures/couriers): limits, turns, rounds, end
triggers, the tie-break and a final end, from the declaration alone."""
from __future__ import annotations

from pathlib import Path

import pytest

from starpnp.companion.rules.base import RuleError, StaleError
from starpnp.companion.rules.declared import declared_rules, rules_from_folder
from starpnp.generator.look.loader import game_info
from starpnp.generator.data.yamlio import DataErrors

COURIERS = Path(__file__).resolve().parent.parent / "fixtures" / "couriers"
PLAYERS = [{"id": "p1", "name": "Ann", "color": "red"}, {"id": "p2", "name": "Bo", "color": "blue"}]


@pytest.fixture
def rules():
    return rules_from_folder(COURIERS)


def play(rules, *events):
    state = rules.initial_state(PLAYERS, {})
    for event in events:
        state = rules.apply(state, event)
    return state


def add(player, counter, delta):
    return {"type": "add", "player": player, "counter": counter, "delta": delta}


def end_turn(player, turn):
    return {"type": "end_turn", "player": player, "turn": turn}


def test_counters_start_where_declared_and_keep_their_limits(rules):
    state = play(rules)
    assert state["counters"]["p1"] == {"points": 0, "fuel": 5} and state["shared"] == {"round": 1}
    with pytest.raises(RuleError, match="Fuel stays within 0–10"):
        play(rules, add("p1", "fuel", 6))
    with pytest.raises(RuleError, match="expected one of points, fuel"):
        play(rules, add("p1", "gold", 1))


def test_the_round_moves_on_after_the_last_seat_and_ends_the_game_at_8(rules):
    events = [end_turn(("p1", "p2")[turn % 2], turn) for turn in range(13)]
    state = play(rules, *events)
    assert state["shared"]["round"] == 7 and not state["over"]
    state = rules.apply(state, end_turn("p2", 13))
    assert state["over"] and state["ended_by"] == "Round reached 8"


def test_a_stale_end_turn_is_refused(rules):
    with pytest.raises(StaleError):
        play(rules, end_turn("p1", 0), end_turn("p1", 0))


def test_only_the_seat_whose_turn_it_is_ends_it(rules):
    """A declared game, issue #34: any phone once ended another player's turn, logged as if that player had.
    Bo's own End turn in Ann's turn is refused; for Ann (after asking) it is an event of Ann's seat."""
    with pytest.raises(RuleError, match="it is Ann's turn") as error:
        play(rules, end_turn("p2", 0))
    assert error.value.field == "player"
    assert rules.event_type("end_turn").asks and play(rules, end_turn("p1", 0))["turns"] == 1


def test_reaching_12_points_ends_the_game_and_the_end_is_final(rules):
    state = play(rules, add("p2", "points", 7), add("p1", "points", 12))
    assert state["over"] and state["ended_by"] == "Ann reached 12 Points"
    board = rules.derive(state)["scoreboard"]
    assert board["over"] and board["winners"] == ["p1"] and board["rows"][0]["rank"] == 1
    for event in (add("p2", "points", 1), end_turn("p1", 0), {"type": "end_game", "player": "p2"}):
        with pytest.raises(RuleError, match="the game is over"):
            rules.apply(state, event)


def test_a_tie_on_points_goes_to_more_fuel(rules):
    state = play(rules, add("p1", "points", 5), add("p2", "points", 5), add("p1", "fuel", -2),
                 {"type": "end_game", "player": "p1"})
    board = rules.derive(state)["scoreboard"]
    assert board["winners"] == ["p2"] and [r["rank"] for r in board["rows"]] == [1, 2]
    assert "a tie goes to more Fuel" in board["tie_rule"]


def test_a_weighted_score_adds_counters(rules):
    info = game_info(COURIERS)
    weighted = declared_rules(info.model_copy(update={"tracker": info.tracker.model_copy(
        update={"score": {"points": 2, "fuel": 1}})}))
    state = play(weighted, add("p1", "points", 3))
    assert weighted.derive(state)["scores"] == {"p1": 11, "p2": 5}


@pytest.mark.parametrize("tracker, message", [
    ("counters: []", "declare at least one per-player counter"),
    ("counters: [{id: a, label: A}]\n  score: b", "score: 'b' is not a player counter"),
    ("counters: [{id: a, label: A, min: 5, max: 1}]", "min 5 is above max 1"),
    ("counters: [{id: a, label: A}]\n  ends: [{counter: z, reaches: 3}]", "ends: 'z' is not a counter"),
])
def test_a_bad_declaration_is_one_line_naming_game_yaml(tmp_path, tracker, message):
    (tmp_path / "game.yaml").write_text(f"id: g\nname: G\nplayers: {{min: 2, max: 2}}\ncolors: [red, blue]\n"
                                        f"tracker:\n  {tracker}\n")
    with pytest.raises(DataErrors) as caught:
        rules_from_folder(tmp_path)
    [line] = caught.value.errors
    assert "game.yaml" in line and "tracker" in line and message in line, line


def test_a_folder_without_a_tracker_is_told_so(tmp_path):
    (tmp_path / "game.yaml").write_text("id: g\nname: G\nplayers: {min: 2, max: 2}\ncolors: [red, blue]\n")
    with pytest.raises(DataErrors, match="tracker: not declared"):
        rules_from_folder(tmp_path)


def test_the_generic_tracker_keeps_one_round_for_the_table_not_one_per_player():
    from starpnp.companion.rules import get_rules

    generic = get_rules("generic")
    state = generic.initial_state(PLAYERS, {})
    state = generic.apply(state, {"type": "next_round", "player": "p2", "round": 1})
    assert generic.derive(state)["round"] == 2 and "Round" not in state["counters"]["p1"]
    with pytest.raises(StaleError):  # a second phone tapping it for the same round
        generic.apply(state, {"type": "next_round", "player": "p1", "round": 1})
