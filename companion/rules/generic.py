"""Generic counters: a named counter per player with +/− and set, for any game without its own tracker."""
from __future__ import annotations

from .base import EventType, GameRules, RuleError, State, choice_field, int_field, player_field

LIMIT = 1_000_000
MAX_COUNTERS = 6


def _counter_names(options: dict) -> list[str]:
    names = options.get("counters") or ["Score"]
    if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
        raise RuleError("options.counters", "expected a list of counter names")
    names = [n.strip()[:24] for n in names]
    if len(set(names)) != len(names) or len(names) > MAX_COUNTERS:
        raise RuleError("options.counters", f"expected up to {MAX_COUNTERS} different names")
    return names


def initial_state(players: list[dict], options: dict) -> State:
    names = _counter_names(options)
    return {"players": players, "counter_names": names,
            "counters": {p["id"]: {name: 0 for name in names} for p in players}}


def _with_value(state: State, target: str, counter: str, value: int) -> State:
    if not -LIMIT <= value <= LIMIT:
        raise RuleError("delta", f"the counter would leave the range ±{LIMIT}")
    counters = {pid: dict(values) for pid, values in state["counters"].items()}
    counters[target][counter] = value
    return {**state, "counters": counters}


def apply(state: State, event: dict) -> State:
    player_field(state, event)
    target = player_field(state, event, "target") if event.get("target") not in (None, "") else event["player"]
    if event["type"] == "add_counter":
        name = str(event.get("name", "")).strip()
        if not name or len(name) > 24:
            raise RuleError("name", "a counter name needs 1 to 24 characters")
        if name in state["counter_names"] or len(state["counter_names"]) >= MAX_COUNTERS:
            raise RuleError("name", f"already a counter, or {MAX_COUNTERS} counters exist")
        return {**state, "counter_names": [*state["counter_names"], name],
                "counters": {pid: {**values, name: 0} for pid, values in state["counters"].items()}}
    counter = choice_field(event, "counter", state["counter_names"], default=state["counter_names"][0])
    current = state["counters"][target][counter]
    if event["type"] == "add":
        return _with_value(state, target, counter, current + int_field(event, "delta", minimum=-LIMIT, maximum=LIMIT))
    if event["type"] == "set":
        return _with_value(state, target, counter, int_field(event, "value", minimum=-LIMIT, maximum=LIMIT))
    raise RuleError("type", f"unknown event type {event['type']!r}")


def derive(state: State) -> dict:
    first = state["counter_names"][0]
    return {"scores": {pid: values[first] for pid, values in state["counters"].items()}}


RULES = GameRules(
    id="generic",
    name="Any game (counters)",
    min_players=2,
    max_players=4,
    event_types=(
        EventType("add", "Add to a counter (negative to take away)",
                  {"delta": "whole number to add", "counter": "counter name (default: the first)",
                   "target": "player id whose counter changes (default: the acting player)"}),
        EventType("set", "Set a counter to a value",
                  {"value": "the new value", "counter": "counter name (default: the first)",
                   "target": "player id whose counter changes (default: the acting player)"}),
        EventType("add_counter", "Add a named counter for every player", {"name": "1 to 24 characters"}),
    ),
    initial_state=initial_state,
    apply=apply,
    derive=derive,
    options={"counters": ["Score"]},
)
