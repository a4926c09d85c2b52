"""The contract between the companion core and one game's rules.

A game's rules are pure functions over plain JSON-able data: the core stores events, replays the
log through `apply` to derive state, and never needs to know what a game's events mean.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

State = dict[str, Any]
Event = dict[str, Any]


class RuleError(ValueError):
    """An event the rules refuse. `field` names the bad event field (for a 400/422 message)."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class EventType:
    """One kind of event a game accepts, described for docs, forms and validation messages."""

    name: str
    help: str
    fields: dict[str, str] = field(default_factory=dict)  # field name -> short description


@dataclass(frozen=True)
class GameRules:
    """Everything the core needs from one game.

    initial_state(players, options) -> State
        players: [{"id": "p1", "name": "Ann", "color": "red"}, ...] in seat order.
    apply(state, event) -> State
        Returns a NEW state (never mutate the argument). Raises RuleError for an invalid event.
        event always has "type" and "player" (a player id such as "p1"); the rest is the payload.
    derive(state) -> dict
        Read-only numbers a player needs at a glance (support limit, turns left, ...), computed from state.
    """

    id: str
    name: str
    min_players: int
    max_players: int
    event_types: tuple[EventType, ...]
    initial_state: Callable[[list[dict], dict], State]
    apply: Callable[[State, Event], State]
    derive: Callable[[State], dict] = lambda state: {}
    options: dict[str, Any] = field(default_factory=dict)  # option name -> default value

    def event_type(self, name: str) -> EventType | None:
        return next((t for t in self.event_types if t.name == name), None)


def int_field(event: Event, name: str, *, minimum: int | None = None, maximum: int | None = None,
              default: int | None = None) -> int:
    """Read a whole number from an event; forms send strings, JSON sends numbers — accept both."""
    raw = event.get(name, default)
    if raw is None or raw == "":
        raise RuleError(name, "required field is missing")
    if isinstance(raw, bool):
        raise RuleError(name, f"expected a whole number, got {raw!r}")
    try:
        value = int(raw) if not isinstance(raw, float) or raw.is_integer() else None
    except (TypeError, ValueError):
        value = None
    if value is None:
        raise RuleError(name, f"expected a whole number, got {str(raw)[:40]!r}")
    if minimum is not None and value < minimum:
        raise RuleError(name, f"must be at least {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise RuleError(name, f"must be at most {maximum}, got {value}")
    return value


def choice_field(event: Event, name: str, choices, *, default: str | None = None) -> str:
    """Read one of a fixed set of words from an event."""
    raw = event.get(name, default)
    if raw is None or raw == "":
        raise RuleError(name, "required field is missing")
    if raw not in choices:
        raise RuleError(name, f"expected one of {', '.join(map(str, choices))}, got {str(raw)[:40]!r}")
    return raw


def player_field(state: State, event: Event, name: str = "player") -> str:
    """Read a player id that must sit at this table (state["players"] is the seat list)."""
    ids = [p["id"] for p in state.get("players", [])]
    return choice_field(event, name, ids)
