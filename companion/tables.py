"""Helpers the API and the HTML views share: the store, code look-ups, links, JSON views of a table."""
from __future__ import annotations

from flask import current_app, request, url_for
from ua_parser import parse as parse_agent

from . import codes
from .replay import LoggedEvent, undo_target
from .rules import GameRules
from .sealed import Reader, may_hide, own_seat, sealed_types, stands, visible_events, visible_state
from .storage import HOST, NotFound, Seating, Snapshot, Store, TableInfo, WrongCode


def store() -> Store:
    return current_app.extensions["companion_store"]


def codes_or_404(text: str) -> str:
    code = codes.normalize(text)
    if code is None:
        raise WrongCode(f"code: {text[:20]!r} is not a table code (like 7K2M-QX4P)")
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


def state_seen_by(snap: Snapshot, reader: Reader) -> dict:
    """The snapshot's state as `reader` may read it: a seat handed over mid-sealing reads the sealed entry
    its earlier phone made as everyone else does (the log is read only then)."""
    table, rules = snap.table, rules_for(snap.table)
    seat = reader.seat
    if seat is not None and reader.since and rules.sealing(snap.state) == "open":
        seat = own_seat(rules, table.players, table.options, store().events(table), reader)
    return visible_state(rules, snap.state, seat)


def table_json(snap: Snapshot, reader: Reader) -> dict:
    """The table as `reader` reads it (a spectator: public state only, no sealed entry of any seat)."""
    table, rules = snap.table, rules_for(snap.table)
    return {"code": table.display_code, "game": table.game, "version": table.version,
            "players": table.players, "options": table.options,
            "state": state_seen_by(snap, reader), "derived": rules.derive(snap.state)}


def events_seen_by(table: TableInfo, reader: Reader, since: int = 0) -> list[LoggedEvent]:
    """The log after `since` as `reader` may read it (the whole log is read only to hide a secret)."""
    rules, shown = rules_for(table), store().events(table, since)
    if not may_hide(rules, shown, reader):
        return shown
    log = store().events(table) if since else shown
    return visible_events(rules, table.players, table.options, log, shown, reader)


def undo_stands(table: TableInfo, state: dict, reader: Reader) -> str | None:
    """Why Undo would refuse the reader's seat's last action now (a revealed sealed entry stands; one sealed
    on the seat's earlier phone is not this one's), for the page to say in one line where the button was;
    None when Undo may take it back. The log is read only in a game with sealed entries, while a sealing is
    revealed or on a seat handed over."""
    rules = rules_for(table)
    if reader.seat is None or not sealed_types(rules) or (rules.sealing(state) != "revealed" and not reader.since):
        return None
    log = store().events(table)
    target = undo_target(log, reader.seat)
    return stands(rules, table.players, table.options, log, target, reader) if target else None


def browser(user_agent: str) -> str:
    """A phone's browser as its approver says it ("Chrome on Android", "Safari on iOS"), from its User-Agent
    header: ua-parser's family without "Mobile" (every phone's is), and the system. Android's own old browser
    is named by ua-parser after the system, which would read "Android on Android": it is "a browser" there."""
    found = parse_agent(user_agent[:500])
    family = found.user_agent.family if found.user_agent and found.user_agent.family != "Other" else ""
    system = found.os.family if found.os and found.os.family != "Other" else ""
    name = " ".join(word for word in family.split() if word != "Mobile")
    name = "a browser" if not name or name == system else name
    return f"{name} on {system}" if system else name


def handover_line(table: TableInfo, seating: Seating) -> str:
    """One line of the history's record of phones: who sat down, or who gave a seat to a new phone ("Ben gave
    Ann's seat to a new phone")."""
    names = {p["id"]: p["name"] for p in table.players}
    what = "the host role" if seating.player == HOST else f"{names.get(seating.player, seating.player)}'s seat"
    if seating.given_by is None:
        return "The table was set up: its phone holds the host role" if seating.player == HOST else \
            f"{names.get(seating.player, seating.player)} sat down"
    shown = f" (it showed {seating.shown_code})" if seating.shown_code else ""
    if seating.given_by == seating.player:
        return f"The phone holding {what} let go of it to a new phone{shown}"
    givers = ["The host" if giver == HOST else names.get(giver, giver) for giver in seating.given_by.split(",")]
    return f"{' and '.join(givers)} gave {what} to a new phone{shown}"  # approvals: "Ann and Cat gave …"
