"""Check what clients send — new tables and events — before it reaches the rules or the log.

Every refusal is a BadInput naming the offending field, which the views turn into a one-line 4xx.
"""
from __future__ import annotations

import re
from typing import Any

from ..generator.data.palette import PLAYER_COLORS
from .replay import UNDO
from .rules import GameRules, RuleError
from .rules.base import printable
from .stats import group_text
from .storage import StoreError, TableInfo

COLORS = tuple(PLAYER_COLORS)  # the printed set's player colours
NAME_LENGTH = 32


class BadInput(StoreError):
    status = 400

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field


class NotYourSeat(BadInput):
    """A phone acting as a seat it does not hold, where the game's rules do not allow it (403)."""

    status = 403


class AskFirst(BadInput):
    """An event for another seat that asks its player first (EventType.asks), sent without `confirm` (409)."""

    status = 409


class NoSeat(BadInput):
    """A request to act without a seat token, or with one that holds no seat at this table (401)."""

    status = 401


def _clean_name(raw: Any, field: str) -> str:
    if not isinstance(raw, str):
        raise BadInput(field, "expected a name (text)")
    name = printable(raw)
    if not 1 <= len(name) <= NAME_LENGTH:
        raise BadInput(field, f"a name needs 1 to {NAME_LENGTH} characters")
    return name


def parse_players(raw: Any, rules: GameRules) -> list[dict]:
    if not isinstance(raw, list):
        raise BadInput("players", "expected a list of {name, color}")
    if not rules.min_players <= len(raw) <= rules.max_players:
        wanted = (f"exactly {rules.min_players}" if rules.min_players == rules.max_players
                  else f"{rules.min_players} to {rules.max_players}")
        raise BadInput("players", f"{rules.name} is for {wanted} players, got {len(raw)}")
    players, taken = [], set()
    for index, entry in enumerate(raw):
        field = f"players[{index}]"
        if not isinstance(entry, dict):
            raise BadInput(field, "expected an object with name and color")
        name = _clean_name(entry.get("name"), f"{field}.name")
        colors = rules.colors or COLORS  # the colours this game's pieces are printed in
        color = entry.get("color") or next(c for c in colors if c not in taken)
        if color not in colors:
            raise BadInput(f"{field}.color", f"{rules.name} is printed in {', '.join(colors)}; got {str(color)[:40]!r}")
        if color in taken:
            raise BadInput(f"{field}.color", f"{color} is already taken")
        taken.add(color)
        players.append({"id": f"p{index + 1}", "name": name, "color": color})
    return players


def parse_options(raw: Any, rules: GameRules) -> dict:
    """Known options only, each of its default's type; missing ones take the default."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise BadInput("options", "expected an object")
    options = dict(rules.options)
    for key, value in raw.items():
        if key not in rules.options:
            known = ", ".join(rules.options) or "none"
            raise BadInput(f"options.{key}", f"unknown option (known: {known})")
        default = rules.options[key]
        if isinstance(default, bool) or isinstance(value, bool):
            ok = isinstance(value, bool) and isinstance(default, bool)
        elif isinstance(default, (int, float)):
            ok = isinstance(value, (int, float))
        else:
            ok = isinstance(value, type(default))
        if not ok:
            raise BadInput(f"options.{key}", f"expected {type(default).__name__}, got {type(value).__name__}")
        options[key] = value
    return options


def parse_new_table(data: Any, games: dict[str, GameRules]) -> tuple[str, list[dict], dict]:
    if not isinstance(data, dict):
        raise BadInput("body", "expected a JSON object")
    game = data.get("game")
    if game not in games:
        raise BadInput("game", f"unknown game {str(game)[:40]!r} (known: {', '.join(games)})")
    rules = games[game]
    return game, parse_players(data.get("players"), rules), parse_options(data.get("options"), rules)


GROUP_LENGTH = (4, 24)


def parse_group(raw: Any) -> str | None:
    """An optional group code (4 to 24 characters, as a family or a playtest group calls itself): tables created
    with the same code share their players' names in the statistics, and only with those who know it."""
    if raw in (None, ""):
        return None
    text = " ".join(printable(raw).split()) if isinstance(raw, str) else None
    if (text is None or not GROUP_LENGTH[0] <= len(text) <= GROUP_LENGTH[1]
            or len(group_text(text)) < GROUP_LENGTH[0]):
        raise BadInput("group", f"a group code needs {GROUP_LENGTH[0]} to {GROUP_LENGTH[1]} characters, "
                                f"{GROUP_LENGTH[0]} of them letters or digits (case, spaces and punctuation "
                                f"are ignored)")
    return text


CLIENT_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


def take_client_id(data: Any) -> str | None:
    """Remove and check the tap's `client_id` (8-64 letters, digits, - or _), which names one tap so its
    retries are not counted twice; None when the client sent none."""
    if not isinstance(data, dict) or data.get("client_id") in (None, ""):
        if isinstance(data, dict):
            data.pop("client_id", None)
        return None
    client_id = data.pop("client_id")
    if not isinstance(client_id, str) or not CLIENT_ID.fullmatch(client_id):
        raise BadInput("client_id", "expected 8 to 64 letters, digits, - or _")
    return client_id


def parse_event(data: Any, table: TableInfo, rules: GameRules, actor: str) -> dict[str, Any]:
    """A well-formed event for this table, sent by the seat `actor`: known type, seated player (the actor,
    or another seat where the event type allows it), and the payload its event type declares, validated
    and typed (the same declaration the rules apply it with)."""
    if not isinstance(data, dict):
        raise BadInput("body", "expected a JSON object")
    type_ = data.get("type")
    if type_ == UNDO:
        raise BadInput("type", "use the undo endpoint to undo")
    event_type = rules.event_type(type_) if isinstance(type_, str) else None
    if event_type is None:
        known = ", ".join(t.name for t in rules.event_types)
        raise BadInput("type", f"unknown event type {str(type_)[:40]!r} (known: {known})")
    player = parse_player(data, table) if data.get("player") not in (None, "") else actor
    if player != actor and not event_type.for_others:
        raise NotYourSeat("player", f"this phone holds {_name(table, actor)}'s seat; {type_!r} is only for "
                                    f"one's own seat")
    confirmed = data.get("confirm") in (True, "yes")
    if player != actor and event_type.asks and not confirmed:
        raise AskFirst("confirm", f"this is {_name(table, player)}'s to do; to do it for "
                                  f"{_name(table, player)}, ask first and send confirm: yes (the log says "
                                  f"{_name(table, actor)} for {_name(table, player)})")
    data = {k: v for k, v in data.items() if k != "confirm"} if event_type.asks else data
    try:
        fields = event_type.parse(data, [p["id"] for p in table.players])
    except RuleError as error:
        raise BadInput(error.field, error.message) from None
    if getattr(fields, "delta", None) == 0:  # every game's "delta" is an amount added: 0 would log a no-op
        raise BadInput("delta", "0 changes nothing: type how many to add, with a minus sign to take away")
    return {"type": type_, "player": player, **fields.model_dump(exclude_unset=True)}


def _name(table: TableInfo, player: str) -> str:
    return table.player(player)["name"]


def undo_seat(data: Any, table: TableInfo, actor: str) -> str:
    """Undo always takes back the requester's own action: a `player` sent with it must be the actor."""
    if isinstance(data, dict) and data.get("player") not in (None, "") and data.get("player") != actor:
        raise NotYourSeat("player", f"this phone holds {_name(table, actor)}'s seat; it can undo only its own "
                                    f"actions")
    return actor


def parse_player(data: Any, table: TableInfo) -> str:
    player = data.get("player") if isinstance(data, dict) else None
    if not isinstance(player, str) or table.player(player) is None:
        seats = ", ".join(p["id"] for p in table.players)
        raise BadInput("player", f"unknown player {str(player)[:40]!r} (players: {seats})")
    return player
