"""The JSON API (documented in docs/companion-api.md): HTTP in, events to the store, JSON out."""
from __future__ import annotations

import re

from flask import Blueprint, request

from ..web.body import json_object
from .inputs import BadInput, NoSeat, parse_event, parse_new_table, parse_player, take_client_id, undo_seat
from . import codes
from .storage import REFUSED, TAKEN, WAITING, NotFound, Snapshot
from .sealed import visible_state
from .tables import codes_or_404, events_seen_by, join_url, rules_for, store, table_json

bp = Blueprint("api", __name__, url_prefix="/api")
SEQUENCE = re.compile(r"[0-9]{1,15}")


def _json_body() -> dict:
    if not request.is_json:
        raise BadInput("body", "expected Content-Type: application/json")
    try:
        return json_object(request)
    except ValueError as exc:
        raise BadInput("body", str(exc)) from None


def _changed(seq: int, snap: Snapshot, repeated: bool, actor: str, **extra) -> tuple[dict, int]:
    """201 for a new event; 200 with the original seq for a repeated client_id (nothing appended). The
    state is the acting seat's view of it."""
    state = visible_state(rules_for(snap.table), snap.state, actor)
    return {"seq": seq, "version": snap.table.version, "state": state, **extra}, 200 if repeated else 201


@bp.post("/tables")
def create_table():
    game, players, options = parse_new_table(_json_body(), store().rules)
    snap, host = store().create_hosted_table(game, players, options)
    body = {"code": snap.table.display_code, "url": join_url(snap.table), "version": snap.table.version,
            "state": visible_state(rules_for(snap.table), snap.state, None), "watch_url": join_url(snap.table, watch=True),
            "host_token": host}
    return body, 201, {"Location": f"/api/tables/{snap.table.code}"}


@bp.get("/tables/<code>")
def get_table(code: str):
    code = codes_or_404(code)
    return table_json(store().snapshot(code), _viewer(code))


@bp.post("/tables/<code>/join")
def join(code: str):
    """Seat this client: the token it sends with every event and undo (`Authorization: Bearer <token>`).
    A seat another client holds is a 409 unless the body says `"take_over": true`, which asks for it: 202,
    and the token holds nothing (reads nothing of the seat) until that client lets go or the table's host
    approves (POST .../seats/<player>/grant); then the other client's token stops working."""
    code = codes_or_404(code)
    table = store().table(code)
    data = _json_body()
    player = parse_player(data, table)
    take_over = data.get("take_over", False)
    if not isinstance(take_over, bool):
        raise BadInput("take_over", f"expected true or false, got {str(take_over)[:20]!r}")
    token, waits = store().join(code, player, take_over)
    if waits:
        return {"token": token, "player": player, "waiting": True}, 202
    return {"token": token, "player": player}, 201


@bp.post("/tables/<code>/seats/<player>/<answer>")
def answer_seat_request(code: str, player: str, answer: str):
    """Answer the phones asking for `player`'s seat: `grant` gives it to the first, `refuse` turns them
    down. Only the table's host (`{"host_token": ...}` from POST /api/tables) or the phone holding the seat
    (its bearer token) may; 404 when nobody is asking."""
    code = codes_or_404(code)
    if answer not in ("grant", "refuse"):
        raise BadInput("answer", f"expected grant or refuse, got {answer[:20]!r}")
    table = store().table(code)
    player = parse_player({"player": player}, table)
    data = _json_body() if request.content_length else {}
    host = data.get("host_token")
    if host is not None and not isinstance(host, str):
        raise BadInput("host_token", "expected the host_token text from POST /api/tables")
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    holder = token.strip()[:100] if scheme.lower() == "bearer" else None
    answered = (store().grant if answer == "grant" else store().refuse)(code, player, host=host, holder=holder)
    if not answered:
        raise NotFound(f"player: no phone is asking for {table.player(player)['name']}'s seat")
    return {"player": player, "answer": answer}, 200


def _acting_seat(code: str) -> str:
    """The seat the request's bearer token holds at this table; 401 without one."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    bearer = scheme.lower() == "bearer" and token.strip()
    player, ended = store().seat_and_end(code, token.strip()[:100]) if bearer else (None, None)
    if player is None or ended:
        store().table(code)  # a table that does not exist is a 404 first
        raise NoSeat("Authorization", "this token waits for its seat: the phone holding it lets go, or the "
                                      "table's host approves" if ended == WAITING else
                     "the request for this seat was turned down" if ended == REFUSED else
                     f"this token's seat was {'taken by another phone' if ended == TAKEN else 'given up'}"
                                      f"; join it again" if ended else
                     "this token holds no seat at this table; join it again" if bearer else
                     f"send 'Bearer <token>' with the token from POST /api/tables/{codes.display(code)}/join")
    return player


def _viewer(code: str) -> str | None:
    """Who reads: the seat of the bearer token sent (401 if it holds none), or None with only the join code,
    which reads public state (no seat's sealed entry)."""
    return _acting_seat(code) if request.headers.get("Authorization") else None


@bp.post("/tables/<code>/events")
def post_event(code: str):
    code = codes_or_404(code)
    data = _json_body()  # first: an oversized body is a 413 before anything else
    actor = _acting_seat(code)
    client_id = take_client_id(data)
    seq, snap, repeated = store().append(
        code, lambda table: parse_event(data, table, rules_for(table), actor), client_id, actor)
    return _changed(seq, snap, repeated, actor)


@bp.post("/tables/<code>/undo")
def undo(code: str):
    code = codes_or_404(code)
    data = _json_body()
    actor = _acting_seat(code)
    client_id = take_client_id(data)
    seq, undone, snap, repeated = store().undo(code, undo_seat(data, store().table(code), actor), client_id)
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

