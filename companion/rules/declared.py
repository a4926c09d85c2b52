"""Rules for a designer's game from its `tracker:` declaration in game.yaml: no Python of its own.

Per-player counters within their limits, shared counters (a round, say), turns in seat order, the score
(one counter or a weighted sum), end triggers and a tie-break: the table gets what our games get (sync,
undo, history, scoreboard, final standings, exports) from the declaration alone.
"""
from __future__ import annotations

from pathlib import Path

from pydantic import Field

from ...generator.data.model import GameInfo
from ...generator.data.tracker import LIMIT, TrackedCounter, Tracker
from .base import EventType, Fields, GameRules, RuleError, State, Whole, own_turn, scoreboard, still_at


class Change(Fields):
    counter: str = Field(max_length=24, description="counter id")
    delta: Whole = Field(ge=-LIMIT, le=LIMIT, description="whole number to add (negative to take away)")


class SetTo(Fields):
    counter: str = Field(max_length=24, description="counter id")
    value: Whole = Field(ge=-LIMIT, le=LIMIT, description="the new value")


class EndTurn(Fields):
    turn: Whole | None = Field(None, ge=0, description="the turn the phone showed (a stale tap is refused)")


def _find(counters: list[TrackedCounter], name: str) -> TrackedCounter:
    found = next((c for c in counters if c.id == name), None)
    if found is None:
        raise RuleError("counter", f"expected one of {', '.join(c.id for c in counters)}, got {name[:24]!r}")
    return found


def declared_rules(info: GameInfo) -> GameRules:
    """The companion's rules for a game whose game.yaml declares a `tracker:`."""
    tracker: Tracker = info.tracker

    def initial_state(players: list[dict], options: dict) -> State:
        return {"players": players, "turns": 0, "over": False, "ended_by": None, "ending": None,
                "counters": {p["id"]: {c.id: c.start for c in tracker.counters} for p in players},
                "shared": {c.id: c.start for c in tracker.shared}}

    def names(state: State) -> dict[str, str]:
        return {p["id"]: p["name"] for p in state["players"]}

    def not_over(state: State) -> None:
        if state["over"]:
            raise RuleError("type", f"the game is over ({state['ended_by']}); only Undo changes it now")

    def checked(counter: TrackedCounter, value: int) -> int:
        if not counter.min <= value <= counter.max:
            raise RuleError("delta", f"{counter.label} stays within {counter.min}–{counter.max}")
        return value

    def with_ends(state: State) -> State:
        """The state, ended if a trigger is reached: the first one in the declaration's order says why."""
        for end in tracker.ends:
            label = next(c.label for c in [*tracker.counters, *tracker.shared] if c.id == end.counter)
            if end.counter in state["shared"]:
                if state["shared"][end.counter] >= end.reaches:
                    return {**state, "over": True, "ended_by": f"{label} reached {end.reaches}",
                            "ending": f"{label} reached {end.reaches}"}
                continue
            for pid, values in state["counters"].items():
                if values[end.counter] >= end.reaches:
                    return {**state, "over": True, "ending": f"{label} reached {end.reaches}",
                            "ended_by": f"{names(state)[pid]} reached {end.reaches} {label}"}
        return state

    def set_mine(state: State, player: str, name: str, value: int) -> State:
        counter = _find(tracker.counters, name)
        counters = {pid: dict(values) for pid, values in state["counters"].items()}
        counters[player][name] = checked(counter, value)
        return with_ends({**state, "counters": counters})

    def add(state: State, player: str, fields: Change) -> State:
        not_over(state)
        _find(tracker.counters, fields.counter)
        return set_mine(state, player, fields.counter, state["counters"][player][fields.counter] + fields.delta)

    def set_to(state: State, player: str, fields: SetTo) -> State:
        not_over(state)
        return set_mine(state, player, fields.counter, fields.value)

    def set_shared(state: State, name: str, value: int) -> State:
        counter = _find(tracker.shared, name)
        return with_ends({**state, "shared": {**state["shared"], name: checked(counter, value)}})

    def add_shared(state: State, player: str, fields: Change) -> State:
        not_over(state)
        _find(tracker.shared, fields.counter)
        return set_shared(state, fields.counter, state["shared"][fields.counter] + fields.delta)

    def end_turn(state: State, player: str, fields: EndTurn) -> State:
        active = state["players"][state["turns"] % len(state["players"])]
        still_at("turn", fields.turn, state["turns"], f"{active['name']}'s turn")
        own_turn(player, active["id"], active["name"])
        not_over(state)
        state = {**state, "turns": state["turns"] + 1}
        if tracker.round and state["turns"] % len(state["players"]) == 0:
            state = set_shared(state, tracker.round, state["shared"][tracker.round] + 1)
        return state

    def end_game(state: State, player: str, fields: Fields) -> State:
        not_over(state)
        return {**state, "over": True, "ended_by": f"{names(state)[player]} ended the game",
                "ending": "ended by the table"}

    def score(values: dict[str, int]) -> int:
        return sum(weight * values[name] for name, weight in tracker.weights.items())

    def derive(state: State) -> dict:
        scores = {pid: score(values) for pid, values in state["counters"].items()}
        ties = {pid: values[tracker.tie_break] for pid, values in state["counters"].items()} \
            if tracker.tie_break else None
        tie_label = _find(tracker.counters, tracker.tie_break).label if tracker.tie_break else None
        label = ("Score" if len(tracker.weights) > 1 else _find(tracker.counters, next(iter(tracker.weights))).label)
        best = max(((scores[p], (ties or {}).get(p, 0)) for p in scores), default=None)
        winners = [p for p in scores if (scores[p], (ties or {}).get(p, 0)) == best] if state["over"] else []
        active = None if state["over"] or not tracker.turns else \
            state["players"][state["turns"] % len(state["players"])]["id"]
        rule = f"Most {label} wins" + (f"; a tie goes to more {tie_label}" if tie_label else "") + \
            "; players still level share the win."
        return {"declared": True, "scores": scores, "active": active, "turns": state["turns"], "over": state["over"], "ended_by": state["ended_by"],
                "counters": {c.id: c.model_dump() for c in tracker.counters},
                "shared": {c.id: c.model_dump() for c in tracker.shared},
                "scoreboard": scoreboard(state["players"], scores, label, ties=ties, tie_label=tie_label,
                                         tie_rule=rule, turn=active, over=state["over"], winners=winners)}

    labels = {c.id: c.label for c in [*tracker.counters, *tracker.shared]}
    events = [
        EventType("add", "Add to one of your counters (negative to take away)", add, Change, for_others=True),
        EventType("set", "Set one of your counters to a value", set_to, SetTo, for_others=True, sets=True),
        EventType("end_game", "End the game now (the table agrees it is over)", end_game),
    ]
    if tracker.shared:
        events.insert(2, EventType("add_shared", "Add to a shared counter", add_shared, Change))
    if tracker.turns:
        events.append(EventType("end_turn", "The active player's turn is over (their phone taps it; another may "
                                          "for them, after asking: confirm yes)", end_turn, EndTurn,
                                for_others=True, asks=True))
    def length(state: State) -> int:
        return state["turns"] if tracker.turns else state["shared"][tracker.round] if tracker.round else 0

    return GameRules.of(info, event_types=tuple(events), initial_state=initial_state, derive=derive,
                        ending=lambda state: state["ending"], length=length,
                        length_unit="turns" if tracker.turns else "rounds",
                        says={"add": "{delta:+} {counter}", "set": "sets {counter} to {value}",
                              "add_shared": "{delta:+} {counter} (shared)", "end_turn": "ends the turn",
                              "end_game": "ends the game"},
                        words=labels)


def rules_from_folder(folder: Path) -> GameRules:
    """A designer's game folder as the companion plays it; DataErrors if it has no tracker declared."""
    from ...generator.look.loader import game_info
    from ...generator.data.yamlio import DataErrors

    info = game_info(folder)
    if info.tracker is None:
        raise DataErrors([f"{folder / 'game.yaml'}: tracker: not declared; the phones need a tracker: section "
                          f"(see README, 'Your own game')"])
    return declared_rules(info)
