"""Exports of a table's whole log: JSON (everything) and CSV (one row per event, with scores after it)."""
from __future__ import annotations

import csv
import io
from datetime import datetime, timezone

from .replay import LoggedEvent, replay_steps
from .rules import GameRules
from .sealed import Reader, visible_events
from .storage import Snapshot, TableInfo


def _iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, timezone.utc).isoformat(timespec="milliseconds")


def standings(table: TableInfo, state: dict, rules: GameRules) -> list[dict]:
    """The standings in `state`, best first: name, score, rank, and whether the game is won."""
    names = {p["id"]: p["name"] for p in table.players}
    rows = (rules.derive(state).get("scoreboard") or {}).get("rows", [])
    return [{"player": row["player"], "name": names[row["player"]], "score": row["score"], "rank": row["rank"],
             "winner": row["winner"]} for row in rows]


def export_json(snap: Snapshot, events: list[LoggedEvent], rules: GameRules, viewer: Reader) -> dict:
    """The whole log as `viewer` may read it, with the standings of the snapshot's state (already
    derived: no second replay)."""
    table = snap.table
    events = visible_events(rules, table.players, table.options, events, events, viewer)
    return {"code": table.display_code, "game": table.game, "players": table.players,
            "options": table.options, "version": table.version, "created_at": _iso(table.created_at),
            "standings": standings(table, snap.state, rules),
            "events": [{**e.as_json(), "at": _iso(e.created_at)} for e in events]}


def _scores_and_ranks(rules: GameRules, state: dict) -> tuple[dict, dict]:
    """Per-player scores, if the game's derive() offers them as {"scores": {player id: number}}, and each
    player's place on its scoreboard (1 = ahead; players level share a place)."""
    derived = rules.derive(state)
    scores = derived.get("scores")
    rows = (derived.get("scoreboard") or {}).get("rows", [])
    return (scores if isinstance(scores, dict) else {}), {row["player"]: row["rank"] for row in rows}


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell):
    """A text cell a spreadsheet would run as a formula (it starts with = + - @, a tab or a carriage return:
    a player named =HYPERLINK(...)) gets a leading single quote, which spreadsheets show as text; numbers
    are left as they are."""
    return "'" + cell if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell


def export_csv(table: TableInfo, events: list[LoggedEvent], rules: GameRules, viewer: Reader) -> str:
    """One row per event as `viewer` may read it (a sealed entry's details say only "sealed"), with the
    scores after it (replayed from the real log)."""
    seen = {e.seq: e for e in visible_events(rules, table.players, table.options, events, events, viewer)}
    out = io.StringIO()
    writer = csv.writer(out)

    def write(cells: list) -> None:
        writer.writerow([spreadsheet_safe(cell) for cell in cells])

    write(["seq", "at", "player", "type", "details", "counted", *(f"score {p['name']}" for p in table.players),
           *(f"rank {p['name']}" for p in table.players)])
    names = {p["id"]: p["name"] for p in table.players}
    for event, state, counted in replay_steps(rules, table.players, table.options, events):
        shown = seen[event.seq]
        details = (f"undoes {event.undoes}" if event.undoes else "sealed" if shown.sealed else
                   " ".join(f"{k}={v}" for k, v in shown.payload.items()))
        scores, ranks = _scores_and_ranks(rules, state)
        write([event.seq, _iso(event.created_at), names.get(event.player, event.player), event.type, details,
               "yes" if counted else "no", *(scores.get(p["id"], "") for p in table.players),
               *(ranks.get(p["id"], "") for p in table.players)])
    return out.getvalue()
