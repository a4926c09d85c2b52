"""Derive a table's state from its event log: pure functions, no database, no Flask.

The log is append-only. An undo event names the seq it takes back; replay skips undone events.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from .rules import GameRules, RuleError

UNDO = "undo"
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LoggedEvent:
    seq: int
    type: str
    player: str
    payload: dict[str, Any] = field(default_factory=dict)
    undoes: int | None = None
    created_at: float = 0.0
    actor: str | None = None  # the seat that tapped, when it acted for `player` ("Ann for Ben")
    sealed: bool = False  # a sealed entry this viewer may not read: its payload is left out (sealed.py)

    @property
    def by(self) -> str:
        """Whose action this is: the seat that tapped (its undo is theirs to take back)."""
        return self.actor or self.player

    def as_rules_event(self) -> dict[str, Any]:
        return {**self.payload, "type": self.type, "player": self.player}

    def as_json(self) -> dict[str, Any]:
        shown = {"seq": self.seq, "type": self.type, "player": self.player, "by": self.by,
                 "payload": self.payload, "undoes": self.undoes, "at": self.created_at}
        return {**shown, "sealed": True} if self.sealed else shown


def undone_seqs(events: Iterable[LoggedEvent]) -> set[int]:
    return {e.undoes for e in events if e.type == UNDO and e.undoes is not None}


def replay_steps(rules: GameRules, players: list[dict], options: dict,
                 events: list[LoggedEvent]) -> Iterator[tuple[LoggedEvent, dict, bool]]:
    """Yield (event, state after it, whether it counted) for every event in log order."""
    undone = undone_seqs(events)
    state = rules.initial_state(players, options)
    for event in events:
        counted = event.type != UNDO and event.seq not in undone
        if counted:
            try:
                state = rules.apply(state, event.as_rules_event())
            except RuleError as error:  # only if a game's rules changed after the event was logged
                log.warning("event %s no longer applies (%s); skipped", event.seq, error)
                counted = False
        yield event, state, counted


def replay(rules: GameRules, players: list[dict], options: dict, events: list[LoggedEvent]) -> dict:
    state = rules.initial_state(players, options)
    for _, state, _ in replay_steps(rules, players, options, events):
        pass
    return state


def apply_strict(rules: GameRules, state: dict, events: Iterable[LoggedEvent]) -> dict:
    """Apply events to a state, letting RuleError escape (used to check an undo keeps the log valid)."""
    for event in events:
        state = rules.apply(state, event.as_rules_event())
    return state


def undo_target(events: list[LoggedEvent], player: str) -> LoggedEvent | None:
    """The requesting seat's own newest action (made for itself or for another seat) not undone yet."""
    undone = undone_seqs(events)
    return next((e for e in reversed(events)
                 if e.by == player and e.type != UNDO and e.seq not in undone), None)


def state_without(rules: GameRules, players: list[dict], options: dict, events: list[LoggedEvent],
                  dropped: int) -> dict:
    """The state if event `dropped` had never happened; RuleError if a later event depends on it."""
    undone = undone_seqs(events) | {dropped}
    kept = [e for e in events if e.type != UNDO and e.seq not in undone]
    try:
        return apply_strict(rules, rules.initial_state(players, options), kept)
    except RuleError as error:
        raise RuleError("player", f"cannot undo event {dropped}: a later event depends on it ({error})")
