"""Helpers the API and the HTML views share: the store, code look-ups, links, JSON views of a table."""
from __future__ import annotations

from flask import current_app, request, url_for

from . import codes
from .replay import LoggedEvent, undo_target
from .rules import GameRules
from .sealed import may_hide, stands, visible_events, visible_state
from .storage import NotFound, Snapshot, Store, TableInfo


def store() -> Store:
    return current_app.extensions["companion_store"]


def codes_or_404(text: str) -> str:
    code = codes.normalize(text)
    if code is None:
        raise NotFound(f"code: {text[:20]!r} is not a table code (like 7K2M-QX4P)")
    return code


def rules_for(table: TableInfo) -> GameRules:
    rules = store().rules.get(table.game)
    if rules is None:
        raise NotFound(f"game: {table.game!r} is not installed on this server")
    return rules


def absolute(path: str) -> str:
    base = current_app.config["PUBLIC_URL"] or request.host_url
    return base.rstrip("/") + path


def join_url(table: TableInfo, watch: bool = False) -> str:
    if watch:
        return absolute(url_for("views.watch", watch_code=codes.display(table.watch_code)))
    return absolute(url_for("views.lobby", code=table.display_code))


def table_json(snap: Snapshot, viewer: str | None) -> dict:
    """The table as seat `viewer` reads it (None: public state only, no sealed entry of any seat)."""
    table, rules = snap.table, rules_for(snap.table)
    return {"code": table.display_code, "game": table.game, "version": table.version,
            "players": table.players, "options": table.options,
            "state": visible_state(rules, snap.state, viewer), "derived": rules.derive(snap.state)}


def events_seen_by(table: TableInfo, viewer: str | None, since: int = 0) -> list[LoggedEvent]:
    """The log after `since` as seat `viewer` may read it (the whole log is read only to hide a secret)."""
    rules, shown = rules_for(table), store().events(table, since)
    if not may_hide(rules, shown, viewer):
        return shown
    log = store().events(table) if since else shown
    return visible_events(rules, table.players, table.options, log, shown, viewer)


def undo_stands(table: TableInfo, state: dict, me: str | None) -> str | None:
    """Why Undo would refuse seat `me`'s last action now (a revealed sealed entry stands), for the page to say
    in one line where the button was; None when Undo may take it back. The log is read only while a sealing
    is revealed."""
    rules = rules_for(table)
    if me is None or rules.sealing(state) != "revealed":
        return None
    log = store().events(table)
    target = undo_target(log, me)
    return stands(rules, table.players, table.options, log, target) if target else None
