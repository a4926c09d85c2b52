"""The contract between the companion core and one game's rules.

A game's rules are pure functions over plain JSON-able data: the core stores events, replays the
log through `GameRules.apply` to derive state, and never needs to know what a game's events mean. Each
event type declares its payload once (a `Fields` model), which validates, types and documents it.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Callable, Literal, get_args, get_origin

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, ValidationError, ValidationInfo
from pydantic.fields import FieldInfo

State = dict[str, Any]
Event = dict[str, Any]
SEALED = "sealed"  # what a viewer sees in place of another seat's sealed entry


class RuleError(ValueError):
    """An event the rules refuse. `field` names the bad event field (for a 400/422 message)."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class StaleError(RuleError):
    """An event that moves the game on (end a turn, a phase, a round), sent from a screen the game has since
    moved past: two phones tapping 'End Ann's turn' must not end Ben's too. Answered 409."""


def still_at(field: str, shown: int | None, now: int, where: str) -> None:
    """Refuse an event whose button showed `shown` (a turn, phase step or round) once the game is at `now`."""
    if shown is not None and shown != now:
        raise StaleError(field, f"the game has moved on (now {where}); nothing was changed")


def own_turn(player: str, active: str | None, name: str, doing: str = "ends") -> None:
    """Only the seat whose turn it is moves its own turn on: a second tap of "End Ann's turn" that lands on
    "End Ben's turn" on Ann's phone is refused. Another phone may do it for that seat (an EventType with
    `asks`): it asks first, sends the event as that seat's, and the log keeps who tapped ("Ann for Ben")."""
    if player != active:
        raise RuleError("player", f"it is {name}'s turn: only {name} {doing} it (another phone may, for "
                                  f"{name}, after asking)")


class Fields(BaseModel):
    """An event's payload, declared once per event type: each field's type, range, default and help text
    (its description). The same declaration validates what a phone sends, feeds the rules' handler a typed
    value, and describes the field for the API docs and the panels' form inputs."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def printable(text: str) -> str:
    """A name as shown to players: without control or bidi-override characters (a counter once displayed
    as "Score" while being another name), trimmed."""
    return "".join(ch for ch in text if unicodedata.category(ch)[0] != "C").strip()


def _no_bool(value: Any) -> Any:
    if isinstance(value, bool):
        raise ValueError(f"expected a whole number, got {value!r}")
    return value


def _seated(value: str, info: ValidationInfo) -> str:
    seats = (info.context or {}).get("seats")
    if seats is not None and value not in seats:
        raise ValueError(f"unknown player {value[:40]!r} (players: {', '.join(seats)})")
    return value


Whole = Annotated[int, BeforeValidator(_no_bool)]  # forms send "3", JSON sends 3: both are 3; true is not
Seat = Annotated[str, AfterValidator(_seated)]  # a player id seated at this table


def _message(error: dict) -> str:
    """pydantic's wording, reworded for a player (and kept as the old hand-written checks said it)."""
    kind, ctx, value = error["type"], error.get("ctx") or {}, error.get("input")
    if kind == "missing":
        return "required field is missing"
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return f"expected a whole number, got {str(value)[:40]!r}"
    if kind in ("greater_than_equal", "greater_than"):
        return f"must be at least {next(iter(ctx.values()))}, got {value}"
    if kind in ("less_than_equal", "less_than"):
        return f"must be at most {next(iter(ctx.values()))}, got {value}"
    if kind == "literal_error":
        choices = ctx["expected"].replace("'", "").replace(" or ", ", ")
        return f"expected one of {choices}, got {str(value)[:40]!r}"
    if kind == "value_error":
        return str(ctx.get("error", error["msg"]))
    return error["msg"]


@dataclass(frozen=True)
class FieldDoc:
    """One event field as the docs and the form inputs show it."""

    name: str
    kind: str  # "whole number", "one of", "player", "text"
    choices: tuple[str, ...]
    minimum: int | None
    maximum: int | None
    default: Any  # None when the field is required
    required: bool
    help: str


def _field_doc(name: str, info: FieldInfo) -> FieldDoc:
    annotation = info.annotation
    choices: tuple[str, ...] = ()
    minimum = maximum = None
    for meta in info.metadata:
        minimum = getattr(meta, "ge", minimum)
        maximum = getattr(meta, "le", maximum)
    if get_origin(annotation) is Literal:
        kind, choices = "one of", tuple(map(str, get_args(annotation)))
    elif any(isinstance(m, AfterValidator) and m.func is _seated for m in info.metadata):
        kind = "player"
    elif annotation is int:
        kind = "whole number"
    else:
        kind = "text"
    required = info.is_required()
    return FieldDoc(name, kind, choices, minimum, maximum, None if required else info.default, required,
                    info.description or "")


@dataclass(frozen=True)
class EventType:
    """One kind of event a game accepts: its payload declaration and the rule that applies it.

    handler(state, player, fields) -> State: a NEW state (never mutate the argument); `player` is the
    seat the event is for, `fields` the validated payload. Limits that depend on the state raise RuleError
    there. `for_others`: a phone may send it for another seat (a correction for a player who stepped
    away); the log keeps who tapped ("Ann for Ben"). Otherwise a phone acts only as its own seat.
    `sealed`: the payload is the seat's secret entry (Stratastar's Attack cards): shown only to that seat
    until the game reveals it (GameRules.sealing), to everyone else as "sealed"; once revealed it stands:
    Undo cannot take it back (GameRules.revealed_stands says why).
    `asks`: a phone sends it for another seat (the one whose turn it is) only after asking its player, with
    `confirm` set: an End turn that a double tap lands on another seat's button is a question, not a turn.
    `sets`: the event sets a value, so sent with the value already there it changes nothing and nothing is
    logged (a "set" to the current number is no event in the history, and no undo step).
    """

    name: str
    help: str
    handler: Callable[[State, str, Any], State]
    fields: type[Fields] = Fields
    for_others: bool = False
    sealed: bool = False
    asks: bool = False
    sets: bool = False

    def __post_init__(self):
        if self.asks and not self.for_others:
            raise ValueError(f"{self.name}: an event that asks before acting for another seat is for_others")

    def parse(self, event: Event, seats: list[str]) -> Fields:
        """The payload, validated and typed; an empty form field counts as not sent (its default)."""
        data = {k: v for k, v in event.items() if k not in ("type", "player") and v not in ("", None)}
        try:
            return self.fields.model_validate(data, context={"seats": seats})
        except ValidationError as exc:
            error = exc.errors()[0]
            name = str(error["loc"][0]) if error["loc"] else "body"
            if error["type"] == "extra_forbidden":
                known = ", ".join(self.fields.model_fields) or "none"
                raise RuleError(name, f"not a field of {self.name!r} (fields: {known})") from None
            raise RuleError(name, _message(error)) from None

    @property
    def field_docs(self) -> tuple[FieldDoc, ...]:
        return tuple(_field_doc(name, info) for name, info in self.fields.model_fields.items())


def final(event_types: tuple[EventType, ...], ended: Callable[[State], str | None]) -> tuple[EventType, ...]:
    """The event types of a game whose end is final: once `ended(state)` says how the game ended ("Ann won
    with 10 VP"), every event is refused with that, plainly. Undo is no event: it still takes back the last
    move, and the game goes on from there."""
    def guard(handler: Callable[[State, str, Any], State]) -> Callable[[State, str, Any], State]:
        def guarded(state: State, player: str, fields: Any) -> State:
            how = ended(state)
            if how:
                raise RuleError("type", f"the game is over: {how}. Undo takes back the last move")
            return handler(state, player, fields)
        return guarded
    return tuple(replace(t, handler=guard(t.handler)) for t in event_types)


@dataclass(frozen=True)
class GameRules:
    """Everything the core needs from one game.

    initial_state(players, options) -> State
        players: [{"id": "p1", "name": "Ann", "color": "red"}, ...] in seat order.
    event_types: the events the game accepts; `apply` validates an event against its type and runs the
        type's handler, so the log replays through the same declarations that checked it.
    derive(state) -> dict
        Read-only numbers a player needs at a glance (support limit, turns left, ...), computed from state;
        it never shows a sealed entry (it is what every viewer reads).
    sealing(state) -> "open" | "revealed" | None
        For a game with `sealed` event types: entries are being sealed and still hidden ("open"), the entries
        sealed since it opened are now shown to all ("revealed"), or nothing is being sealed (None: entries
        sealed before and never revealed, say in a called-off battle, stay hidden for good).
    conceal(state, viewer) -> State
        The state as seat `viewer` (None: a spectator) may read it: other seats' sealed entries as "sealed".
    revealed_stands: why Undo refuses a sealed entry once its sealing was revealed, in one line for players.
    ending, length, length_unit, play_order, tie_broken_by: one finished table as the statistics across tables
        count it: how the game ended in words without a player's name ("captured an enemy homeworld"; None
        while it goes on: a table is finished exactly when this says so), its length in rounds or turns, the
        seats in the order they first played, and what broke a tie that the final scores no longer show.
    """

    id: str
    name: str
    min_players: int
    max_players: int
    event_types: tuple[EventType, ...]
    initial_state: Callable[[list[dict], dict], State]
    derive: Callable[[State], dict] = lambda state: {}
    options: dict[str, Any] = field(default_factory=dict)  # option name -> default value
    colors: tuple[str, ...] = ()  # the player colours its pieces are printed in (empty: any in the palette)
    says: dict[str, str] = field(default_factory=dict)  # event type -> how the history tells it (see `tell`)
    words: dict[str, str] = field(default_factory=dict)  # a field's value -> how a player says it
    sealing: Callable[[State], str | None] = lambda state: None
    conceal: Callable[[State, str | None], State] = lambda state, viewer: state
    revealed_stands: str = "the sealed entries are revealed, and a revealed entry stands"
    # What the statistics across finished tables read (stats.py), cheap enough to ask after every event:
    ending: Callable[[State], str | None] = lambda state: None  # how it ended, without names; None: not over
    length: Callable[[State], int] = lambda state: 0  # rounds (or turns: `length_unit`) played
    length_unit: str = "rounds"
    play_order: Callable[[State], list[str]] = lambda state: [p["id"] for p in state["players"]]  # 1st to play first
    tie_broken_by: Callable[[State], str | None] = lambda state: None  # a tie settled by play (a tie round)

    @classmethod
    def of(cls, game: Any, **rules: Any) -> "GameRules":
        """One of our games' rules, its identity (id, name, players, colours) read from its game.yaml
        (a starpnp.generator.data.model.GameInfo), where the printed set reads it too."""
        return cls(id=game.id, name=game.name, min_players=game.players.min, max_players=game.players.max,
                   colors=tuple(game.colors), **rules)

    def event_type(self, name: str) -> EventType | None:
        return next((t for t in self.event_types if t.name == name), None)

    def tell(self, type_: str, payload: dict[str, Any], names: dict[str, str]) -> str:
        """An event as the history tells it, after the player's name: "adds 3 matter to the combat", not
        "combat_add what matter amount 3". `says[type]` is a str.format template over the event's fields
        (defaults filled in); a player id reads as the name, a choice as its word in `words`."""
        event_type = self.event_type(type_)
        template = self.says.get(type_)
        if event_type is None or template is None:
            return type_.replace("_", " ")
        values = {doc.name: doc.default for doc in event_type.field_docs}
        values.update(payload)
        shown = {key: "" if value is None else names[value] if isinstance(value, str) and value in names
                 else self.words.get(value, value.replace("_", " ")) if isinstance(value, str) else value
                 for key, value in values.items()}
        try:
            return " ".join(template.format(**shown).split())
        except (KeyError, ValueError, TypeError):  # an old log's payload: say what it can
            return type_.replace("_", " ")

    def apply(self, state: State, event: Event) -> State:
        """The state after `event` (a dict with "type", "player" and the payload); RuleError if refused."""
        event_type = self.event_type(event.get("type")) if isinstance(event.get("type"), str) else None
        if event_type is None:
            known = ", ".join(t.name for t in self.event_types)
            raise RuleError("type", f"unknown event type {str(event.get('type'))[:40]!r} (known: {known})")
        seats = [p["id"] for p in state.get("players", [])]
        player = event.get("player")
        if player not in seats:
            raise RuleError("player", f"unknown player {str(player)[:40]!r} (players: {', '.join(seats)})")
        return event_type.handler(state, player, event_type.parse(event, seats))


def scoreboard(players: list[dict], scores: dict[str, int], label: str, *, ties: dict[str, int] | None = None,
               tie_label: str | None = None, tie_rule: str, turn: str | None = None, turn_label: str = "turn",
               over: bool = False, winners: list[str] = (), reasons: dict[str, str] | None = None) -> dict:
    """Every game's standings in one shape, for the scoreboard strip, the final standings and the TV page.

    players: the table's seats in order; scores: each seat's headline number (`label` names it); ties: the
    number the rulebook breaks a tie on (`tie_label` names it), or None where it has none; tie_rule: how the
    game is decided, in a sentence for players; turn: the seat to act (`turn_label` says what that means, e.g.
    "turn" or "first"); winners: once `over`, the seats that won; reasons: a seat's winning reason where the
    numbers alone do not say it (a captured homeworld).

    Rows come best first: winners, then score, then the tie number (`seat` keeps the seat order, which the
    strip shows so that no tile moves as scores change). Seats level on all of them share a rank (1, 1, 3);
    a winner is always rank 1.
    """
    ties = ties or {}
    winners = list(winners) if over else []

    def key(pid: str) -> tuple:
        return (pid in winners, scores[pid], ties.get(pid, 0))

    order = sorted((p["id"] for p in players), key=key, reverse=True)
    seat = {p["id"]: index for index, p in enumerate(players)}
    rows = [{"player": pid, "seat": seat[pid], "score": scores[pid], "tie": ties.get(pid) if tie_label else None,
             "rank": 1 if pid in winners else 1 + sum(key(other) > key(pid) for other in order),
             "turn": pid == turn, "winner": pid in winners, "reason": (reasons or {}).get(pid)}
            for pid in order]
    top = [row for row in rows if row["score"] == rows[0]["score"]] if rows else []
    decided_by = ("reason" if any(row["reason"] for row in rows if row["winner"]) else
                  "tie" if tie_label and len(top) > 1 and len({row["tie"] for row in top}) > 1 else "score")
    return {"label": label, "tie_label": tie_label, "tie_rule": tie_rule, "rows": rows, "turn": turn,
            "turn_label": turn_label, "over": over, "winners": winners, "decided_by": decided_by}
