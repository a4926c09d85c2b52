"""HTML pages and htmx fragments: translate form posts into events and render the table's state.

Every form works without JavaScript (POST, then a 303 back to the page); with htmx the same POST
answers with the #live fragment. Polls send the version they show and get 204 while nothing changed.
"""
from __future__ import annotations

import re
import secrets
import time
from importlib.resources import files
from typing import Any, Callable

from flask import Blueprint, Response, current_app, redirect, render_template, request, session, url_for
from flask_htmx import HTMX
from jinja2 import pass_context
from markupsafe import Markup

from ..generator.look.loader import builtin_games, our_game
from ..generator.data.palette import stylesheet
from ..web import push
from . import codes, qr
from .chart import PHONE, TV, Size, score_chart
from .export import export_csv, export_json
from .inputs import COLORS, BadInput, NoSeat, parse_event, parse_group, parse_new_table, parse_player, take_client_id
from .rules import GameRules, RuleError
from .sealed import SPECTATOR, Reader
from .security import CSRF_FIELD, check_csrf
from .throttle import count_seat_request, note_wrong_code
from .storage import (HOST, LAPSED, PASSED, REFUSED, REQUEST_LAPSES_AFTER, TAKEN, WAITING, NotFound, NotHost,
                      SeatHeld, Snapshot, StoreError, TableInfo, WrongCode, approvals_needed)
from .tables import (browser, codes_or_404, events_seen_by, handover_line, join_url, rules_for, state_seen_by, store,
                     undo_stands)

bp = Blueprint("views", __name__)
htmx = HTMX()
HTMX_JS = files("js_lib_htmx").joinpath("static/htmx/htmx.min.js")
FORM_TRANSPORT_FIELDS = (CSRF_FIELD, "v")
RECENT_HISTORY = 5


@bp.before_request
def _phone_seen() -> None:
    """A request naming a table from a phone holding its host role or a seat there: that phone is there (the
    host's phone answers every request alone while it is, storage.host_alive)."""
    code = codes.normalize((request.view_args or {}).get("code", ""))
    for token in (_host_token(code), _my_token(code)) if code else ():
        if token:
            store().seen(code, token)


@bp.record_once
def _init(state) -> None:
    htmx.init_app(state.app)
    state.app.jinja_env.globals["number_field"] = number_field
    state.app.jinja_env.filters["clock"] = lambda at: time.strftime("%H:%M", time.localtime(at))


@pass_context
def number_field(context, event: str, field: str, most: int | None = None) -> Markup:
    """A number input's attributes (name, min, max, step, required, keypad) from the event's declaration,
    so a form can never offer what the server refuses; `most` narrows the maximum to what the state allows.
    Signed fields get no numeric keypad: the phone's numeric keypad may have no minus key."""
    doc = next(f for f in context["rules"].event_type(event).field_docs if f.name == field)
    attrs = [f'type="number" name="{field}" step="1"']
    if doc.minimum is not None:
        attrs.append(f'min="{doc.minimum}"')
    maximum = doc.maximum if most is None else min(most, doc.maximum if doc.maximum is not None else most)
    if maximum is not None:
        attrs.append(f'max="{maximum}"')
    if doc.minimum is not None and doc.minimum >= 0:
        attrs.append('inputmode="numeric"')
    if doc.required:
        attrs.append("required")
    return Markup(" ".join(attrs))


@bp.get("/static/palette.css")
def palette_css():
    """The player colours of the printed set, for the phone (generator/palette.py is the one palette)."""
    response = Response(stylesheet(), mimetype="text/css")
    response.cache_control.public = True
    response.cache_control.max_age = 3600
    return response


@bp.get("/static/vendor/htmx-2.0.3.min.js")
def htmx_js():
    response = Response(HTMX_JS.read_bytes(), mimetype="text/javascript")
    response.cache_control.public = True
    response.cache_control.max_age = 365 * 24 * 3600
    return response


# -- home, creating and joining tables --------------------------------------------------------------
JOINED = "joined"  # session: join codes of the tables this browser has opened, newest first
JOINED_KEPT = 12


def _note_joined(table: TableInfo) -> None:
    """A join code is its table's secret: the home page lists only the tables this browser has opened."""
    joined = session.get(JOINED, [])
    if joined[:1] != [table.code]:  # assigned only when it changes: an assignment sends the cookie
        session[JOINED] = [table.code, *(code for code in joined if code != table.code)][:JOINED_KEPT]


def _my_tables() -> list[TableInfo]:
    mine = []
    for code in session.get(JOINED, []):
        try:
            mine.append(store().table(code))
        except NotFound:  # removed since
            continue
    return mine


def _home(status: int = 200, form=None, **extra):
    """The home page; its create form shows one game (`form["game"]`, else the designer's own game served with
    --game-folder, else the first of ours): that game's player count, colours and options, so a table is ready
    from one screen."""
    games = store().rules
    form = form if form is not None else request.args
    ours = set(builtin_games()) | {"generic"}
    first = [g for g in games if g not in ours] or [g for g in games if g != "generic"] or list(games)
    chosen = form.get("game") if form.get("game") in games else first[0]
    rules = games[chosen]
    return render_template("companion/home.html", games=games, game=rules, colors=rules.colors or COLORS,
                           options=_option_inputs(rules), recent=_my_tables(), form=form, **extra), status


def _option_inputs(rules: GameRules) -> list[dict]:
    """How the create form asks for each of the game's options: a checkbox (yes/no), a choice, a number or
    text, with the range and choices of the event field of the same name (e.g. Stars, Inc.'s set-up event),
    and the help of its game.yaml where it has one."""
    fields = {doc.name: doc for event_type in rules.event_types for doc in event_type.field_docs}
    helps = ({name: option.help for name, option in our_game(rules.id).options.items()}
             if rules.id in builtin_games() else {})
    inputs = []
    for name, default in rules.options.items():
        doc = fields.get(name)
        kind = ("check" if isinstance(default, bool) else "choice" if doc and doc.choices else
                "number" if isinstance(default, int) else "list" if isinstance(default, list) else "text")
        words = [w.capitalize() if len(w) <= 2 else w for w in name.split("_")]  # max_fe -> Max Fe
        inputs.append({"name": name, "kind": kind, "label": " ".join(words)[:1].upper() + " ".join(words)[1:],
                       "default": ", ".join(default) if isinstance(default, list) else default,
                       "choices": doc.choices if doc else (), "min": doc.minimum if doc else None,
                       "max": doc.maximum if doc else None,
                       "help": helps.get(name) or (doc.help if doc and kind in ("number", "list") else "")})
    return inputs


def _form_options(form, rules: GameRules) -> dict:
    """The game's options as the create form sent them, typed like their defaults; one the form did not send
    keeps its default. A checkbox sends "off" (a hidden field) then "on" when ticked: the last value counts."""
    options = {}
    for name, default in rules.options.items():
        text = (form.getlist(name) or [""])[-1].strip()
        if not text:
            continue
        if isinstance(default, bool):
            options[name] = text == "on"
        elif isinstance(default, int):
            if not re.fullmatch(r"-?\d{1,6}", text):
                raise BadInput(f"options.{name}", f"expected a whole number, got {text[:20]!r}")
            options[name] = int(text)
        elif isinstance(default, list):
            options[name] = [part.strip() for part in text.split(",") if part.strip()]
        else:
            options[name] = text
    return options


@bp.get("/")
def home():
    return _home()


@bp.post("/tables")
def create_table():
    check_csrf()
    form = request.form
    players = [{"name": form.get(f"name{i}", ""), "color": form.get(f"color{i}", "")}
               for i in range(1, 7) if form.get(f"name{i}", "").strip()]
    try:
        rules = store().rules.get(form.get("game"))
        options = _form_options(form, rules) if rules else {}
        game, players, options = parse_new_table({"game": form.get("game"), "players": players,
                                                  "options": options}, store().rules)
        group = parse_group(form.get("group"))
        snap, host = store().create_hosted_table(game, players, options, group and store().group_key(group),
                                                 device=_device())
    except (StoreError, RuleError) as error:
        message = error.message if isinstance(error, StoreError) else str(error)
        return _home(400, form, error=message)
    _note_joined(snap.table)
    session[HOSTING] = {**{c: t for c, t in session.get(HOSTING, {}).items() if c in session[JOINED]},
                        snap.table.code: host}
    return redirect(url_for(".lobby", code=snap.table.display_code), 303)


@bp.get("/join")
def join():
    typed = request.args.get("code", "")[:40]
    code = codes.normalize(typed)
    try:
        if code is None:
            raise BadInput("code", "type the 8 letters and digits of the join code, like 7K2M-QX4P")
        store().table(code)
    except (BadInput, NotFound) as refusal:  # keep what was typed, and say what to check
        if isinstance(refusal, NotFound):
            note_wrong_code()
        message = ("No table has that code. Check it on the host's screen: 8 letters and digits (O and 0, "
                   "I and L and 1 count the same)." if isinstance(refusal, NotFound) else sentence(refusal.message))
        return _home(404 if isinstance(refusal, NotFound) else 400, error=message, typed_code=typed)
    return redirect(url_for(".lobby", code=codes.display(code)), 303)


@bp.get("/t/<code>")
def lobby(code: str):
    table = store().table(codes_or_404(code))
    if code != table.display_code:
        return redirect(url_for(".lobby", code=table.display_code), 301)
    url = join_url(table)
    _note_joined(table)
    lost = _lost_seat(table)
    if lost:  # said once: this phone sits down afresh from here
        session[SEATS] = {c: t for c, t in session.get(SEATS, {}).items() if c != table.code}
    return render_template("companion/lobby.html", table=table, rules=rules_for(table), join_url=url,
                           watch_url=join_url(table, watch=True), qr_svg=qr.svg(url), me=_my_seat(table.code),
                           lost=lost, asking=_asking(table.code), **_requests_for_me(table),
                           host_asked=store().my_request(table.code, _host_token(table.code)) if _host_token(table.code) else None)


# -- seats: a phone sits down once, then acts as that seat (the seat lives in its cookie, not the URL) --
# One phone holds a seat at a time: taking a seat another phone holds asks first, then that phone is told
# (its next poll, within seconds) and its token stops working; a phone can give its seat up.
SEATS = "seats"  # session: join code -> seat token, for the tables in JOINED
HOSTING = "hosting"  # session: join code -> host token, for the tables this browser created
DEVICE = "device"  # session: this browser's id, which its requests carry (none of its seats approves them)


def _device() -> str:
    if DEVICE not in session:
        session[DEVICE] = secrets.token_urlsafe(16)
    return session[DEVICE]


def _host_token(code: str) -> str | None:
    return session.get(HOSTING, {}).get(code)


def _asking(code: str) -> bool:
    """Whether this phone's token is a request for a held seat, still unanswered."""
    token = _my_token(code)
    return bool(token) and store().seat_and_end(code, token)[1] == WAITING


def _requests_for_me(table: TableInfo) -> dict:
    """The seat requests this phone answers (store.answerer decides): its own seat's, every one as the host,
    and, while the host's phone is silent, the others' as a seated player who approves (never its own
    phone's request). Each names its phone (the code it shows, its browser, when it asked) so the answerer
    gives the seat to the right one. The host's phone also hears of every hand-over of the last minutes."""
    asked = store().requests(table.code) if store().asked(table.code) else []
    host, token = _host_token(table.code), _my_token(table.code)
    answerers = {}
    for player in dict.fromkeys(r.player for r in asked):
        try:
            answerers[player] = store().answerer(table.code, player, host=host, seat=token)
        except NotHost:
            continue
    names = {p["id"]: p["name"] for p in table.players} | {HOST: "the host"}
    is_host = store().is_host(table.code, host)
    recent = [handover_line(table, s) for s in store().seatings(table)
              if s.given_by and s.at > time.time() - REQUEST_LAPSES_AFTER] if is_host else []
    return {"seat_requests": [{"request": r, "player": r.player, "name": names[r.player],
                               "holder": answerers[r.player].kind == "holder",
                               "keeps": answerers[r.player].kind in ("holder", "host"),  # "Keep it": the seat stays
                               "approver": answerers[r.player].kind == "approver",
                               "approved": answerers[r.player].seat in r.approvals,
                               "needed": approvals_needed(table),
                               "others": sum(o.player == r.player for o in asked) - 1}
                              for r in asked if r.player in answerers
                              and not (answerers[r.player].kind == "approver" and r.device == answerers[r.player].device)],
            "is_host": is_host, "handovers": recent}


HANDOVER_NEWS_SECONDS = 60  # the host's page is sent afresh this long after a hand-over, so it is told at once


def _handover_news(code: str) -> bool:
    """Whether this phone is the host's and a seat changed hands within HANDOVER_NEWS_SECONDS."""
    last = store().last_handover(code) if _host_token(code) else None
    return last is not None and last > time.time() - HANDOVER_NEWS_SECONDS and store().is_host(code, _host_token(code))


def _my_token(code: str) -> str | None:
    return session.get(SEATS, {}).get(code)


def _my_seat(code: str) -> str | None:
    token = _my_token(code)
    return store().seat(code, token) if token else None


def _reader(code: str) -> Reader:
    """This phone as a reader of the table: its seat, and since when it holds it (what was sealed before is
    another phone's)."""
    token = _my_token(code)
    player, ended, since = store().holding(code, token) if token else (None, None, 0)
    return SPECTATOR if ended or player is None else Reader(player, since)


def _lost_seat(table: TableInfo) -> str | None:
    """Why this phone no longer holds the seat it was given here, as players read it; None if it still does
    (or never sat down)."""
    token = _my_token(table.code)
    player, ended = store().seat_and_end(table.code, token) if token else (None, None)
    if not ended:
        return None
    name = table.player(player)["name"]
    if ended == WAITING:
        return None
    return (f"{name}'s seat was taken on another phone. This phone no longer plays as {name}." if ended == TAKEN else
            f"The request for {name}'s seat was turned down: its phone keeps it." if ended == REFUSED else
            f"{name}'s seat was given to another phone that asked for it, not this one." if ended == PASSED else
            f"The request for {name}'s seat lapsed: nobody answered it within "
            f"{REQUEST_LAPSES_AFTER / 60:.0f} minutes. Ask again." if ended == LAPSED else
            f"This phone gave up {name}'s seat.")


@bp.post("/t/<code>/seat")
def take_seat(code: str):
    check_csrf()
    table = store().table(codes_or_404(code))
    player = parse_player({"player": request.form.get("player")}, table)
    mine = _my_token(table.code)
    if mine and store().seat(table.code, mine) == player:  # already this phone's
        return redirect(url_for(".player_page", code=table.display_code), 303)
    take_over = request.form.get("take_over") == "yes"
    if take_over:
        count_seat_request()
    try:
        token, waits = store().join(table.code, player, take_over=take_over,
                                    agent=browser(request.headers.get("User-Agent", "")), device=_device())
    except SeatHeld:
        return render_template("companion/take_over.html", table=table, player=table.player(player))  # a question
    if mine:  # a phone holds one seat per table: the one it sat at before is free again
        store().release(table.code, mine)
    _note_joined(table)
    kept = set(session[JOINED])
    session[SEATS] = {**{c: t for c, t in session.get(SEATS, {}).items() if c in kept}, table.code: token}
    if store().is_host(table.code, _host_token(table.code)):  # the host's phone plays this seat
        store().host_sits(table.code, _host_token(table.code), player)
    if waits:  # it holds nothing until the seat's phone lets go or an approver gives it the seat
        return redirect(url_for(".seat_wait", code=table.display_code), 303)
    return redirect(url_for(".player_page", code=table.display_code), 303)


@bp.post("/t/<code>/host")
def ask_host(code: str):
    """Ask for the host role on this phone: the host's phone lets go, or, once it has been silent a while,
    other seated players approve (storage.answerer)."""
    check_csrf()
    table = store().table(codes_or_404(code))
    if not store().is_host(table.code, _host_token(table.code)):
        count_seat_request()
        token, _ = store().join(table.code, HOST, take_over=True, agent=browser(request.headers.get("User-Agent", "")),
                                device=_device())
        session[HOSTING] = {**{c: t for c, t in session.get(HOSTING, {}).items() if c in session.get(JOINED, [])},
                            table.code: token}
    return redirect(url_for(".lobby", code=table.display_code), 303)


@bp.get("/t/<code>/seat/wait")
def seat_wait(code: str):
    """A phone asking for a held seat waits here (the page reloads itself) until it is given the seat (on to
    the game) or turned down (back to the lobby, which says so). It shows the request's code, which the
    approver's phone shows too."""
    table = store().table(codes_or_404(code))
    asked = store().my_request(table.code, _my_token(table.code)) if _my_token(table.code) else None
    if asked is None:
        where = ".player_page" if _my_seat(table.code) else ".lobby"
        return redirect(url_for(where, code=table.display_code), 303)
    return render_template("companion/seat_wait.html", table=table, player=table.player(asked.player), asked=asked)


@bp.post("/t/<code>/seat/answer")
def answer_seat(code: str):
    """The phone holding the seat or the host gives a held seat to the request it names, or turns that request
    down; while the host's phone is silent, another seated player approves it (or turns it down)."""
    check_csrf()
    table = store().table(codes_or_404(code))
    player = request.form.get("player")
    player = HOST if player == HOST else parse_player({"player": player}, table)
    number = request.form.get("request", "")
    answer = store().grant if request.form.get("answer") == "grant" else store().refuse
    answer(table.code, player, int(number) if number.isascii() and number.isdigit() and len(number) < 9 else None,
           host=_host_token(table.code), seat=_my_token(table.code))
    back = ".player_page" if _my_seat(table.code) else ".lobby"
    return redirect(url_for(back, code=table.display_code), 303)


@bp.post("/t/<code>/seat/release")
def release_seat(code: str):
    """Give up this phone's seat (leaving the table, or handing the phone on): the seat is free again."""
    check_csrf()
    table = store().table(codes_or_404(code))
    mine = _my_token(table.code)
    if mine:
        store().release(table.code, mine)
    return redirect(url_for(".lobby", code=table.display_code), 303)


def _seated(code: str) -> tuple[Snapshot, Reader]:
    """The table and this phone as its seat's reader; NoSeat (401) when it has not sat down, or no longer
    holds its seat (saying why)."""
    snap = store().snapshot(codes_or_404(code))
    me = _reader(snap.table.code)
    if me.seat is None:
        raise NoSeat("seat", _lost_seat(snap.table) or "this phone has no seat at this table yet; open the "
                                                        "table's join link and pick your name")
    return snap, me


# -- the table page, its live fragment and its forms ------------------------------------------------
def _chart(snap: Snapshot, derived: dict, size: Size = PHONE) -> Markup | None:
    """The score over time (chart.py), for the end screen, the TV page and the history."""
    board = derived.get("scoreboard") or {}
    return score_chart(rules_for(snap.table), snap.table, store().events(snap.table), board.get("label", "Score"),
                       size)


def _context(snap: Snapshot, reader: Reader, error: str | None = None, chart: Size | None = None) -> dict:
    """What the table page, its live fragment and the TV page show; `chart`: draw the score chart at that size
    (the end screen draws it at a phone's anyway)."""
    table, rules = snap.table, rules_for(snap.table)
    me = reader.seat
    if me:
        base = {"code": table.display_code}
        urls = {"event_url": url_for(".post_event", **base), "undo_url": url_for(".post_undo", **base),
                "live_url": url_for(".live", **base), "page_url": url_for(".player_page", **base),
                "push_url": url_for(".table_push", **base)}
    else:
        base = {"watch_code": codes.display(table.watch_code)}
        urls = {"event_url": None, "undo_url": None, "live_url": url_for(".watch_live", **base),
                "push_url": url_for(".watch_push", **base),
                "page_url": url_for(".watch", **base)}
    events = events_seen_by(table, reader, max(0, table.version - 40))
    requests = _requests_for_me(table) if me else {"seat_requests": [], "is_host": False, "handovers": []}
    history = list(reversed(events))[:RECENT_HISTORY]
    derived = rules.derive(snap.state)
    shown_code = table.display_code if me else codes.display(table.watch_code)  # never leak the join code
    return {"table": {"code": shown_code, "game": table.game, "players": table.players,
                      "version": table.version, "options": table.options, "name": rules.name},
            "state": state_seen_by(snap, reader), "derived": derived, "rules": rules, "me": me,
            "chart": _chart(snap, derived, chart or PHONE) if chart or (derived.get("scoreboard") or {}).get("over")
            else None,
            "me_player": table.player(me) if me else None, "history": history,
            "undone": {e.undoes for e in events if e.undoes}, "names": {p["id"]: p["name"] for p in table.players},
            "undo_stands": undo_stands(table, snap.state, reader), "error": error, **requests, **urls}


def _render_live(snap: Snapshot, me: Reader, error: str | None = None, status: int = 200,
                 template: str = "companion/_live.html", context: dict | None = None):
    headers = {"Vary": "HX-Request", "X-Table-Version": str(snap.table.version)}
    return render_template(template, **(context or _context(snap, me, error))), status, headers


@bp.get("/t/<code>/play")
def player_page(code: str):
    snap = store().snapshot(codes_or_404(code))
    me = _reader(snap.table.code)
    if me.seat is None:  # not seated yet: the lobby asks who you are (or the phone waits for the seat it asked for)
        return redirect(url_for(".seat_wait" if _asking(snap.table.code) else ".lobby",
                                code=snap.table.display_code), 303)
    _note_joined(snap.table)
    return render_template("companion/table.html", **_context(snap, me))


def _push(code: str, version: int) -> Response:
    """The table's event stream (push.stream); 503 when this process holds all the streams it may, and the
    page polls instead."""
    slots, changes = current_app.extensions["companion_push_slots"], store().changes
    if not slots.take():
        return Response("every push slot is taken; poll /live instead\n", 503, {"Retry-After": "30"},
                        mimetype="text/plain")

    heartbeat, gone = current_app.config["PUSH_HEARTBEAT_SECONDS"], push.client_gone(request.environ)
    phone = [token for token in (_host_token(code), _my_token(code)) if token]

    def events():
        with changes.watching(code) as watch:  # watching first: a change from here on is not missed
            now = store_.version(code)
            for line in push.stream(watch, version if now is None else now, heartbeat, gone):
                for token in phone:  # an open stream is a phone that is there (storage.host_alive)
                    store_.seen(code, token)
                yield line

    store_ = store()
    response = Response(events(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(slots.give_back)
    return response


@bp.get("/t/<code>/push")
def table_push(code: str):
    """Server-sent events: the version each time the table changes (see starpnp/web/push.py)."""
    code = codes_or_404(code)
    version = store().version(code)
    if version is None:
        raise WrongCode("no table with this code")
    return _push(code, version)


@bp.get("/w/<watch_code>/push")
def watch_push(watch_code: str):
    table = store().table_by_watch_code(codes_or_404(watch_code))
    return _push(table.code, table.version)


@bp.get("/t/<code>/play/live")
def live(code: str):
    code = codes_or_404(code)
    version = store().version(code)
    if version is None:
        raise WrongCode("no table with this code")
    token = _my_token(code)
    if htmx and token and store().seat_ended(code, token):  # taken on another phone: the lobby says so at once
        return Response(status=200, headers={"HX-Redirect": url_for(".lobby", code=codes.display(code))})
    if request.args.get("v") == str(version) and not store().asked(code) and not _handover_news(code):
        return Response(status=204)  # nothing new (a request for a seat, or a hand-over, shows without an event)
    snap, me = _seated(code)
    return _render_live(snap, me)


def sentence(message: str) -> str:
    """A refusal as players read it: no leading field name ('delta: ...'), a capital and a full stop."""
    text = message.split(": ", 1)[1] if ": " in message and " " not in message.split(": ", 1)[0] else message
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) else text + "."


def _after_change(code: str, change: Callable[[str, Reader], Any]) -> tuple | Response:
    """Run change(code, my seat); answer htmx with the fragment, plain forms with a redirect (or the page
    and the refusal)."""
    check_csrf()
    _, me = _seated(code)
    error = None
    try:
        change(codes_or_404(code), me)
    except (BadInput, RuleError, StoreError) as refusal:
        if isinstance(refusal, NotFound):
            raise
        error = sentence(refusal.message)
    snap = store().snapshot(codes_or_404(code))
    status = 422 if error else 200  # the page (or fragment) with the refusal on it: htmx swaps a 422 in
    if htmx:
        return _render_live(snap, me, error, status)
    if error:
        return render_template("companion/table.html", **_context(snap, me, error)), status
    return redirect(url_for(".player_page", code=snap.table.display_code), 303)


@bp.post("/t/<code>/events")
def post_event(code: str):
    def change(code: str, me: Reader):
        data = {k: v for k, v in request.form.items() if k not in FORM_TRANSPORT_FIELDS}
        client_id = take_client_id(data)
        store().append(code, lambda table: parse_event(data, table, rules_for(table), me.seat), client_id, me.seat)
    return _after_change(code, change)


@bp.post("/t/<code>/undo")
def post_undo(code: str):
    def change(code: str, me: Reader):
        store().undo(code, me.seat, take_client_id(dict(request.form)), me.since)
    return _after_change(code, change)


# -- spectators -------------------------------------------------------------------------------------
def _watched(watch_code: str) -> Snapshot:
    table = store().table_by_watch_code(codes_or_404(watch_code))
    return store().snapshot(table.code)


@bp.get("/w/<watch_code>")
def watch(watch_code: str):
    if request.args.get("tv"):  # /w/<watch code>?tv=1 is the TV page too
        return redirect(url_for(".tv", watch_code=watch_code), 303)
    return render_template("companion/table.html", **_context(_watched(watch_code), SPECTATOR))


@bp.get("/w/<watch_code>/live")
def watch_live(watch_code: str):
    snap = _watched(watch_code)
    if request.args.get("v") == str(snap.table.version):
        return Response(status=204)
    return _render_live(snap, SPECTATOR)


def _tv_context(snap: Snapshot) -> dict:
    """The spectator's page as a TV shows it: the same read-only context, polled at its own URL."""
    base = {"watch_code": codes.display(snap.table.watch_code)}
    context = _context(snap, SPECTATOR, chart=TV)
    if context["chart"]:  # a phone opening the TV page gets the phone's chart: the TV's text scaled down was 10.6 px
        context["phone_chart"] = _chart(snap, context["derived"], PHONE)
    return {**context, "live_url": url_for(".tv_live", **base),
            "page_url": url_for(".tv", **base)}


@bp.get("/w/<watch_code>/tv")
def tv(watch_code: str):
    """TV mode: big numbers for a screen the whole table can see (landscape or portrait), no controls."""
    return render_template("companion/tv.html", **_tv_context(_watched(watch_code)))


@bp.get("/w/<watch_code>/tv/live")
def tv_live(watch_code: str):
    snap = _watched(watch_code)
    if request.args.get("v") == str(snap.table.version):
        return Response(status=204)
    return _render_live(snap, SPECTATOR, template="companion/_tv_live.html", context=_tv_context(snap))


# -- history and export -----------------------------------------------------------------------------
@bp.get("/t/<code>/history")
def history(code: str):
    snap = store().snapshot(codes_or_404(code))
    events = events_seen_by(snap.table, _reader(snap.table.code))
    return render_template("companion/history.html", table=snap.table, events=list(reversed(events)),
                           undone={e.undoes for e in events if e.undoes},
                           seatings=[{"said": handover_line(snap.table, s), "at": s.at}
                                     for s in store().seatings(snap.table)],
                           chart=_chart(snap, rules_for(snap.table).derive(snap.state)),
                           rules=rules_for(snap.table),
                           names={p["id"]: p["name"] for p in snap.table.players})


@bp.get("/t/<code>/export.json")
def export_as_json(code: str):
    snap = store().snapshot(codes_or_404(code))
    body = export_json(snap, store().events(snap.table), rules_for(snap.table), _reader(snap.table.code))
    return body, 200, {"Content-Disposition": f'attachment; filename="table-{snap.table.display_code}.json"'}


@bp.get("/t/<code>/export.csv")
def export_as_csv(code: str):
    snap = store().snapshot(codes_or_404(code))
    text = export_csv(snap.table, store().events(snap.table), rules_for(snap.table), _reader(snap.table.code))
    return Response(text, mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="table-{snap.table.display_code}.csv"'})

