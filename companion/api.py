"""The JSON API (documented in docs/companion-api.md): HTTP in, events to the store, JSON out."""
from __future__ import annotations

import re

from flask import Blueprint, request

from ..web.body import json_object
from .inputs import (BadInput, NoSeat, parse_event, parse_group, parse_new_table, parse_player, take_client_id,
                     undo_seat)
from . import codes
from .storage import HOST, LAPSED, PASSED, REFUSED, TAKEN, WAITING, NotFound, Snapshot, seat_name
from .throttle import count_seat_request
from .sealed import SPECTATOR, Reader, visible_state
from .tables import (browser, codes_or_404, events_seen_by, handover_line, join_url, rules_for, state_seen_by, store,
                     table_json)

bp = Blueprint("api", __name__, url_prefix="/api")
SEQUENCE = re.compile(r"[0-9]{1,15}")


def _json_body() -> dict:
    if not request.is_json:
        raise BadInput("body", "expected Content-Type: application/json")
    try:
        return json_object(request)
    except ValueError as exc:
        raise BadInput("body", str(exc)) from None


def _changed(seq: int, snap: Snapshot, repeated: bool, actor: Reader, **extra) -> tuple[dict, int]:
    """201 for a new event; 200 with the original seq for a repeated client_id (nothing appended). The
    state is the acting phone's view of it."""
    state = state_seen_by(snap, actor)
    return {"seq": seq, "version": snap.table.version, "state": state, **extra}, 200 if repeated else 201


@bp.post("/tables")
def create_table():
    data = _json_body()
    game, players, options = parse_new_table(data, store().rules)
    group = parse_group(data.get("group"))
    snap, host = store().create_hosted_table(game, players, options, group and store().group_key(group))
    body = {"code": snap.table.display_code, "url": join_url(snap.table), "version": snap.table.version,
            "state": visible_state(rules_for(snap.table), snap.state, None), "watch_url": join_url(snap.table, watch=True),
            "host_token": host}
    return body, 201, {"Location": f"/api/tables/{snap.table.code}"}


@bp.get("/tables/<code>")
def get_table(code: str):
    code = codes_or_404(code)
    snap = store().snapshot(code)
    return {**table_json(snap, _viewer(code)), "seatings": [
        {"player": s.player, "at": s.at, "given_by": s.given_by, "said": handover_line(snap.table, s)}
        for s in store().seatings(snap.table)]}


@bp.post("/tables/<code>/join")
def join(code: str):
    """Seat this client: the token it sends with every event and undo (`Authorization: Bearer <token>`).
    A seat another client holds is a 409 unless the body says `"take_over": true`, which asks for it: 202
    with the request's id and the code the phone shows its approver, and the token holds nothing (reads
    nothing of the seat) until that client lets go or it is given the seat (POST .../seats/<player>/grant);
    then the other client's token stops working. `"player": "host"` asks for the host role the same way. A
    bearer token this client holds at the table names its phone: none of its seats may approve the request."""
    code = codes_or_404(code)
    table = store().table(code)
    data = _json_body()
    player = _seat_or_host(data.get("player"), table)
    take_over = data.get("take_over", False)
    if not isinstance(take_over, bool):
        raise BadInput("take_over", f"expected true or false, got {str(take_over)[:20]!r}")
    if take_over:
        count_seat_request()
    token, asked = store().join(code, player, take_over, browser(request.headers.get("User-Agent", "")),
                                device=_bearer())
    if asked:
        return {"token": token, "player": player, "waiting": True, "request": asked.number,
                "code": asked.shown_code}, 202
    return {"token": token, "player": player}, 201


def _seat_or_host(value, table) -> str:
    return HOST if value == HOST else parse_player({"player": value}, table)


@bp.get("/tables/<code>/seats/<player>/requests")
def seat_requests(code: str, player: str):
    """The phones asking for `player`'s seat (or the host role), oldest first, for any phone holding a seat
    here or the host role (its bearer token): each with the id to grant and the code its phone shows."""
    code = codes_or_404(code)
    player = _seat_or_host(player, store().table(code))
    _acting(code)
    return {"player": player, "requests": [r.as_json() for r in store().requests(code, player)]}


@bp.post("/tables/<code>/seats/<player>/<answer>")
def answer_seat_request(code: str, player: str, answer: str):
    """Answer a phone asking for `player`'s seat: `grant` gives it to the request `{"request": ID}` (the only
    one when none is named), `refuse` turns that one (or every one) down. The phone holding the seat (its
    bearer token) or the table's host (`host_token`, or the host role's bearer token) decides alone; once the
    host's phone is silent, another seated player's `grant` is one approval of the `needed` (never one from
    the asking phone's own seats). 404 when nobody is asking, or the request is gone."""
    code = codes_or_404(code)
    if answer not in ("grant", "refuse"):
        raise BadInput("answer", f"expected grant or refuse, got {answer[:20]!r}")
    table = store().table(code)
    player = _seat_or_host(player, table)
    data = _json_body() if request.content_length else {}
    host = data.get("host_token")
    if host is not None and not isinstance(host, str):
        raise BadInput("host_token", "expected the host_token text from POST /api/tables")
    number = data.get("request")
    if number is not None and (not isinstance(number, int) or isinstance(number, bool)):
        raise BadInput("request", f"expected a request id from GET .../seats/{player}/requests, got {str(number)[:20]!r}")
    token = _bearer()
    for known in (host, token):
        if known:
            store().seen(code, known)
    answered = (store().grant if answer == "grant" else store().refuse)(code, player, number, host=host, seat=token)
    if not answered:
        raise NotFound(f"player: no phone is asking for {seat_name(table, player)}")
    return {"player": player, "answer": answer, "request": answered.request.number, "given": answered.given,
            "approvals": list(answered.approvals), "needed": answered.needed}, 200


def _bearer() -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip()[:100] if scheme.lower() == "bearer" and token.strip() else None


def _acting(code: str) -> Reader:
    """The seat (or host role) the request's bearer token holds at this table; 401 without one."""
    token = _bearer()
    player, ended, since = store().holding(code, token) if token else (None, None, 0)
    if token and not ended:
        store().seen(code, token)
    if player is None or ended:
        store().table(code)  # a table that does not exist is a 404 first
        raise NoSeat("Authorization", "this token waits for its seat: the phone holding it lets go, or the "
                                      "table's host approves" if ended == WAITING else
                     "the request for this seat was turned down" if ended == REFUSED else
                     "another phone asking for this seat was given it" if ended == PASSED else
                     "the request for this seat lapsed unanswered; ask again" if ended == LAPSED else
                     f"this token's seat was {'taken by another phone' if ended == TAKEN else 'given up'}"
                                      f"; join it again" if ended else
                     "this token holds no seat at this table; join it again" if token else
                     f"send 'Bearer <token>' with the token from POST /api/tables/{codes.display(code)}/join")
    return Reader(player, since)


def _acting_seat(code: str) -> Reader:
    """The seat that acts (an event, an undo): the host role's token answers requests but plays no seat."""
    reader = _acting(code)
    if reader.seat == HOST:
        raise NoSeat("Authorization", "this is the host role's token: it answers seat requests; join a seat to play")
    return reader


def _viewer(code: str) -> Reader:
    """Who reads: the seat of the bearer token sent (401 if it holds none), or a spectator with only the join
    code, who reads public state (no seat's sealed entry)."""
    return _acting(code) if request.headers.get("Authorization") else SPECTATOR


@bp.post("/tables/<code>/events")
def post_event(code: str):
    code = codes_or_404(code)
    data = _json_body()  # first: an oversized body is a 413 before anything else
    actor = _acting_seat(code)
    client_id = take_client_id(data)
    seq, snap, repeated = store().append(
        code, lambda table: parse_event(data, table, rules_for(table), actor.seat), client_id, actor.seat)
    if seq is None:  # a value set to what it already was: nothing written, the version stays
        return {"version": snap.table.version, "state": state_seen_by(snap, actor), "unchanged": True}, 200
    return _changed(seq, snap, repeated, actor)


@bp.post("/tables/<code>/undo")
def undo(code: str):
    code = codes_or_404(code)
    data = _json_body()
    actor = _acting_seat(code)
    client_id = take_client_id(data)
    seq, undone, snap, repeated = store().undo(code, undo_seat(data, store().table(code), actor.seat), client_id,
                                               actor.since)
    return _changed(seq, snap, repeated, actor, undid=undone)


@bp.get("/tables/<code>/events")
def list_events(code: str):
    code = codes_or_404(code)
    table = store().table(code)
    since = request.args.get("since", "0")
    if not SEQUENCE.fullmatch(since):  # ASCII digits only: str.isdigit() also takes '²' and '①'
        raise BadInput("since", f"expected a whole number from 0 to {10 ** 15 - 1}, got {since[:20]!r}")
    events = events_seen_by(table, _viewer(code), int(since))
    return {"code": table.display_code, "version": table.version, "events": [e.as_json() for e in events]}

