"""Helpers the API and the HTML views share: the store, code look-ups, links, JSON views of a table."""
from __future__ import annotations

from flask import current_app, request, url_for

from . import codes
from .rules import GameRules
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


def table_json(snap: Snapshot) -> dict:
    table = snap.table
    return {"code": table.display_code, "game": table.game, "version": table.version,
            "players": table.players, "options": table.options, "state": snap.state,
            "derived": rules_for(table).derive(snap.state)}
