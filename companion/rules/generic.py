"""Generic counters: a named counter per player with +/− and set, and one round for the whole table, for any
game without its own tracker (a game folder can declare a fuller one: see declared.py)."""
from __future__ import annotations

from pydantic import Field

from .base import EventType, Fields, GameRules, RuleError, State, Whole, printable, scoreboard, still_at

LIMIT = 1_000_000
MAX_COUNTERS = 6


def _counter_names(options: dict) -> list[str]:
    names = options.get("counters") or ["Score"]
    if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
        raise RuleError("options.counters", "expected a list of counter names")
    names = [printable(n)[:24] for n in names]
    if len(set(names)) != len(names) or len(names) > MAX_COUNTERS:
        raise RuleError("options.counters", f"expected up to {MAX_COUNTERS} different names")
    return names


def initial_state(players: list[dict], options: dict) -> State:
    names = _counter_names(options)
    return {"players": players, "counter_names": names, "round": 1,
            "counters": {p["id"]: {name: 0 for name in names} for p in players}}


def _with_value(state: State, target: str, counter: str, value: int) -> State:
    if not -LIMIT <= value <= LIMIT:
        raise RuleError("delta", f"the counter would leave the range ±{LIMIT}")
    counters = {pid: dict(values) for pid, values in state["counters"].items()}
    counters[target][counter] = value
    return {**state, "counters": counters}


class _CounterChange(Fields):
    counter: str = Field(None, max_length=24, description="counter name (default: the first)")


class Add(_CounterChange):
    delta: Whole = Field(ge=-LIMIT, le=LIMIT, description="whole number to add")


class Set(_CounterChange):
    value: Whole = Field(ge=-LIMIT, le=LIMIT, description="the new value")


class AddCounter(Fields):
    name: str = Field(min_length=1, max_length=24, description="1 to 24 characters")


def _counter(state: State, fields: _CounterChange) -> str:
    names = state["counter_names"]
    if fields.counter is None:
        return names[0]
    if fields.counter not in names:
        raise RuleError("counter", f"expected one of {', '.join(names)}, got {fields.counter!r}")
    return fields.counter


def _add(state: State, player: str, fields: Add) -> State:
    counter = _counter(state, fields)
    return _with_value(state, player, counter, state["counters"][player][counter] + fields.delta)


def _set(state: State, player: str, fields: Set) -> State:
    return _with_value(state, player, _counter(state, fields), fields.value)


def _add_counter(state: State, player: str, fields: AddCounter) -> State:
    name = printable(fields.name)
    if not name:
        raise RuleError("name", "a counter name needs 1 to 24 characters")
    if name in state["counter_names"] or len(state["counter_names"]) >= MAX_COUNTERS:
        raise RuleError("name", f"already a counter, or {MAX_COUNTERS} counters exist")
    return {**state, "counter_names": [*state["counter_names"], name],
            "counters": {pid: {**values, name: 0} for pid, values in state["counters"].items()}}


class NextRound(Fields):
    round: Whole | None = Field(None, ge=1, description="the round the phone showed (a stale tap is refused)")


def _next_round(state: State, player: str, fields: NextRound) -> State:
    """The table's round, one for everybody: two phones tapping it for the same round move it once."""
    now = state.get("round", 1)
    still_at("round", fields.round, now, f"round {now}")
    return {**state, "round": now + 1}


def derive(state: State) -> dict:
    first = state["counter_names"][0]
    scores = {pid: values[first] for pid, values in state["counters"].items()}
    return {"scores": scores, "round": state.get("round", 1),
            "scoreboard": scoreboard(state["players"], scores, first,
                                     tie_rule=f"Ranked by {first}; players level on it share a place.")}


# How the history tells each event, after the player's name (GameRules.tell).
SAYS = {
    'add': '{delta:+} {counter}',
    'set': 'sets {counter} to {value}',
    'add_counter': 'adds the counter {name}',
    'next_round': 'starts the next round',
}


RULES = GameRules(
    id="generic",
    name="Any game (counters)",
    min_players=2,
    max_players=4,
    event_types=(
        # any phone may keep count for any player (one scorekeeper is common); the log says who tapped
        EventType("add", "Add to a player's counter (negative to take away)", _add, Add, for_others=True),
        EventType("set", "Set a player's counter to a value", _set, Set, for_others=True, sets=True),
        EventType("add_counter", "Add a named counter for every player", _add_counter, AddCounter),
        EventType("next_round", "The whole table moves on to the next round", _next_round, NextRound),
    ),
    initial_state=initial_state,
    derive=derive,
    says=SAYS,
    options={"counters": ["Score"]},
)

apply = RULES.apply
