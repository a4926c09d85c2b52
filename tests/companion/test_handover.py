"""A seat changes hands safely (issue #42), through the API and the pages.

D3: a sealed battle side is readable only by the phone that sealed it until the reveal: the host, another
player or a stranger who is given Ann's seat mid-battle reads nothing of it in any output and cannot undo
it; after the reveal everyone reads it. D2: every dead phone is recoverable in the open: with the host's
phone gone, another seated player gives a seat back (and the host role), and the history says who. D1:
several phones ask for one seat; the approver sees each one's code and browser and grants one by its id,
and the others are told. Issue #49: while the host's phone is there, nobody but it and the seat's phone
gives a seat; once it is silent, two other players approve (test_host_role.py enumerates who may answer).
"""
from __future__ import annotations

import csv
import html
import io
import time

import pytest
from companion_test_helpers import STRATASTAR_TO_BATTLE, bearer, csrf_from

SECRET = 47  # Ann's Attack cards: no other number of the table
PLAYERS = [{"name": "Ann", "color": "red"}, {"name": "Ben", "color": "blue"}, {"name": "Cat", "color": "green"}]
PHONE = {"User-Agent": "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) "
                       "Chrome/126.0.0.0 Mobile Safari/537.36"}
IPHONE = {"User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, "
                        "like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"}


def api(client, method: str, path: str, token: str | None = None, **body):
    return client.open(path, method=method, json=body if body or method == "POST" else None,
                       headers=bearer(token) if token else {})


def join(client, code: str, player: str, headers: dict | None = None):
    return client.post(f"/api/tables/{code}/join", json={"player": player, "take_over": True}, headers=headers or {})


@pytest.fixture
def battle(app):
    """Stratastar, Ann (p1) has attacked Ben (p2) and sealed 3 fleets and 47 Attack from her own phone; Cat
    (p3) has not sat down yet. The client is anonymous: it sends exactly what it is given."""
    client = app.test_client()
    client.anonymous = True
    table = client.post("/api/tables", json={"game": "stratastar", "players": PLAYERS}).get_json()
    code = table["code"]
    table["tokens"] = {p: join(client, code, p).get_json()["token"] for p in ("p1", "p2")}
    for event in [*STRATASTAR_TO_BATTLE, {"type": "battle_start", "player": "p1", "defender": "p2"},
                  {"type": "battle_side", "player": "p1", "fleets": 3, "attack": SECRET}]:
        sent = api(client, "POST", f"/api/tables/{code}/events", table["tokens"]["p1"], **event)
        assert sent.status_code == 201, sent.get_json()
    table["client"] = client
    return table


def reads_secret(value) -> bool:
    if isinstance(value, dict):
        return value.get("attack") == SECRET or any(reads_secret(v) for v in value.values())
    if isinstance(value, list):
        return any(reads_secret(v) for v in value)
    return isinstance(value, str) and (f"attack={SECRET}" in value or f'value="{SECRET}"' in value
                                       or f"{SECRET} Attack" in value)


def phone_outputs(phone, code: str, token: str) -> dict:
    """What a phone holding a seat reads: the API with its token, its page, fragment, history and exports."""
    return {"state": api(phone, "GET", f"/api/tables/{code}", token).get_json(),
            "events": api(phone, "GET", f"/api/tables/{code}/events", token).get_json(),
            "events since 7": api(phone, "GET", f"/api/tables/{code}/events?since=7", token).get_json(),
            "page": phone.get(f"/t/{code}/play").get_data(as_text=True),
            "live": phone.get(f"/t/{code}/play/live", headers={"HX-Request": "true"}).get_data(as_text=True),
            "history": phone.get(f"/t/{code}/history").get_data(as_text=True),
            "json export": phone.get(f"/t/{code}/export.json").get_json(),
            "csv export": phone.get(f"/t/{code}/export.csv").get_data(as_text=True)}


def lobby_form(phone, code: str, **fields) -> dict:
    return {"csrf_token": csrf_from(phone.get(f"/t/{code}").get_data(as_text=True)), **fields}


def new_phone(app, code: str, sits_as: str | None = None, hosts: str | None = None):
    """A browser at the table: seated as `sits_as` when given, holding the host token `hosts` when given."""
    phone = app.test_client()
    phone.anonymous = True
    if hosts:
        phone.get(f"/t/{code}")
        with phone.session_transaction() as session:
            session["hosting"] = {code.replace("-", ""): hosts}
    if sits_as:
        assert phone.post(f"/t/{code}/seat", data=lobby_form(phone, code, player=sits_as)).status_code == 303
    return phone


def ask_for_seat(phone, code: str, player: str, headers: dict | None = None) -> tuple[str, str]:
    """The phone asks for a held seat from the lobby: (its token, the code its waiting page shows)."""
    form = lobby_form(phone, code, player=player, take_over="yes")
    assert phone.post(f"/t/{code}/seat", data=form, headers=headers or IPHONE).headers["Location"].endswith("/seat/wait")
    shown = html.unescape(phone.get(f"/t/{code}/seat/wait").get_data(as_text=True))
    with phone.session_transaction() as session:
        token = session["seats"][code.replace("-", "")]
    return token, shown.split("data-request-code>")[1].split("<")[0]


@pytest.mark.parametrize("taker", ["host", "another player", "a stranger"])
def test_a_seat_given_mid_battle_carries_nothing_sealed_before_and_cannot_undo_it(app, battle, taker):
    """D3: Ann's seat is given mid-battle to a second browser: the host's own (which grants it to itself with
    the host token, from its page), Cat's, or a stranger's (the host grants those by id). It reads that Ann
    has sealed, never what, in every output, and Undo refuses; once Ben's side is in, both are revealed and
    it reads Ann's side."""
    code, client, tokens = battle["code"], battle["client"], battle["tokens"]
    phone = new_phone(app, code, sits_as="p3" if taker == "another player" else None,
                      hosts=battle["host_token"] if taker == "host" else None)
    token, shown = ask_for_seat(phone, code, "p1")
    asked = api(client, "GET", f"/api/tables/{code}/seats/p1/requests", battle["host_token"]).get_json()["requests"]
    assert [(r["code"], r["agent"]) for r in asked] == [(shown, "Safari on iOS")]
    if taker == "host":
        card = html.unescape(phone.get(f"/t/{code}").get_data(as_text=True))
        assert f"it shows {shown}" in " ".join(card.replace("<strong class=\"request-code\" data-request-code>", "").split())
        answer = {"csrf_token": csrf_from(card), "player": "p1", "request": asked[0]["id"], "answer": "grant"}
        assert phone.post(f"/t/{code}/seat/answer", data=answer).status_code == 303
    else:
        granted = api(client, "POST", f"/api/tables/{code}/seats/p1/grant", None, request=asked[0]["id"],
                      host_token=battle["host_token"])
        assert granted.status_code == 200, granted.get_json()
    outputs = phone_outputs(phone, code, token)
    assert [name for name, value in outputs.items() if reads_secret(value)] == []
    assert outputs["state"]["state"]["battle"]["sides"]["p1"] == "sealed"
    assert outputs["state"]["derived"]["battle"]["committed"] == ["p1"]  # that Ann sealed is public
    assert "sealed" in next(r for r in csv.DictReader(io.StringIO(outputs["csv export"])) if r["type"] == "battle_side")["details"]
    undo = api(phone, "POST", f"/api/tables/{code}/undo", token)
    assert undo.status_code == 409 and "sealed on the phone that held the seat before" in undo.get_json()["error"]
    assert "sealed on the phone that held the seat before" in html.unescape(outputs["live"])  # where Undo was
    page_undo = phone.post(f"/t/{code}/undo", data={"csrf_token": csrf_from(outputs["page"])},
                           headers={"HX-Request": "true"})
    assert page_undo.status_code == 422
    assert api(client, "POST", f"/api/tables/{code}/undo", tokens["p1"]).status_code == 401  # Ann's old phone: gone
    # the reveal: Ben seals his side, and the new phone reads Ann's like everyone
    assert api(client, "POST", f"/api/tables/{code}/events", tokens["p2"], type="battle_side", fleets=2,
               attack=5).status_code == 201
    revealed = phone_outputs(phone, code, token)
    assert revealed["state"]["state"]["battle"]["sides"]["p1"]["attack"] == SECRET
    assert {name for name, value in revealed.items() if reads_secret(value)} >= {
        "state", "events", "events since 7", "json export", "csv export"}
    assert api(phone, "POST", f"/api/tables/{code}/undo", token).status_code == 409  # revealed: it stands


@pytest.fixture
def trio(app):
    """A generic table of Ann (p1), Ben (p2) and Cat (p3), each on a phone (a browser); Ben's phone is the
    host's (it holds the host token and plays Ben)."""
    client = app.test_client()
    client.anonymous = True
    table = client.post("/api/tables", json={"game": "generic", "players": PLAYERS}).get_json()
    code = table["code"]
    table["client"] = client
    table["ben"] = new_phone(app, code, sits_as="p2", hosts=table["host_token"])
    table["ann"], table["cat"] = new_phone(app, code, sits_as="p1"), new_phone(app, code, sits_as="p3")
    return table


def requests_shown(phone, code: str) -> list[tuple[str, str]]:
    """The requests a phone's table page offers to answer: (seat, code shown)."""
    page = phone.get(f"/t/{code}/play").get_data(as_text=True)
    cards = page.split('data-seat-request="')[1:]
    return [(card.split('"')[0], card.split("data-request-code>")[1].split("<")[0]) for card in cards]


def answer(phone, code: str, player: str, number: int, reply: str = "grant"):
    form = {"csrf_token": csrf_from(phone.get(f"/t/{code}").get_data(as_text=True)), "player": player,
            "request": str(number), "answer": reply}
    return phone.post(f"/t/{code}/seat/answer", data=form)


def request_ids(client, code: str, player: str, token: str) -> dict[str, int]:
    found = client.get(f"/api/tables/{code}/seats/{player}/requests", headers=bearer(token))
    assert found.status_code == 200, found.get_json()
    return {r["code"]: r["id"] for r in found.get_json()["requests"]}


def silence_the_host(app) -> None:
    """The host's phone has made no request for longer than HOST_SILENT_AFTER: the store's clock moves on."""
    from starpnp.companion.storage import HOST_SILENT_AFTER

    store = app.extensions["companion_store"]
    store.clock = lambda: time.time() + HOST_SILENT_AFTER + 1


def seat_token(phone, code: str) -> str:
    with phone.session_transaction() as session:
        return session["seats"][code.replace("-", "")]


def test_with_the_hosts_phone_silent_two_other_players_give_its_seat_and_the_host_role_back(app, trio):
    """D2 (issue #49): Ben's phone is the host's. While it is there, only Ann's phone or the host answers for
    Ann's seat (Cat may not). Then Ben's phone goes silent: his new phone asks for Ben's seat, Cat's and Ann's
    phones list the request with its code, and it takes both their approvals (three seats); the host role
    passes the same way, and the new phone's own seat does not count; the history names both approvers."""
    code, client = trio["code"], trio["client"]
    stranger = new_phone(app, code)
    _, stranger_code = ask_for_seat(stranger, code, "p1")
    assert requests_shown(trio["cat"], code) == []  # the host's phone is there: not Cat's to answer
    assert requests_shown(trio["ann"], code) == [("p1", stranger_code)]
    assert requests_shown(trio["ben"], code) == [("p1", stranger_code)]
    number = request_ids(client, code, "p1", trio["host_token"])[stranger_code]
    assert answer(trio["cat"], code, "p1", number).status_code == 403
    assert answer(trio["ann"], code, "p1", number, "refuse").status_code == 303

    silence_the_host(app)
    new_ben = new_phone(app, code)  # Ben's phone (the host's) is silent; he asks on a new one
    token, shown = ask_for_seat(new_ben, code, "p2")
    assert requests_shown(trio["cat"], code) == [("p2", shown)] == requests_shown(trio["ann"], code)
    number = request_ids(client, code, "p2", seat_token(trio["cat"], code))[shown]
    assert answer(trio["cat"], code, "p2", number).status_code == 303
    assert "1 of 2 players approved" in html.unescape(trio["cat"].get(f"/t/{code}/play").get_data(as_text=True))
    assert new_ben.get(f"/t/{code}/seat/wait").status_code == 200  # one approval gives nothing yet
    assert answer(trio["ann"], code, "p2", number).status_code == 303
    assert new_ben.get(f"/t/{code}/seat/wait").headers["Location"].endswith("/play")
    assert client.post(f"/api/tables/{code}/events", json={"type": "add", "player": "p2", "delta": 2},
                       headers=bearer(token)).status_code == 201
    lobby = html.unescape(new_ben.get(f"/t/{code}").get_data(as_text=True))
    assert "Ask for the host role" in lobby
    assert new_ben.post(f"/t/{code}/host", data={"csrf_token": csrf_from(lobby)}).status_code == 303
    host_code = html.unescape(new_ben.get(f"/t/{code}").get_data(as_text=True)).split("data-request-code>")[1][:4]
    assert requests_shown(new_ben, code) == []  # its own seat does not approve its own request
    host_number = request_ids(client, code, "host", seat_token(trio["cat"], code))[host_code]
    assert answer(new_ben, code, "host", host_number).status_code == 403
    for phone in (trio["cat"], trio["ann"]):
        assert ("host", host_code) in requests_shown(phone, code)
        assert answer(phone, code, "host", host_number).status_code == 303
    assert "Ask for the host role" not in new_ben.get(f"/t/{code}").get_data(as_text=True)  # it is the host now
    history = html.unescape(client.get(f"/t/{code}/history").get_data(as_text=True))
    assert f"Cat and Ann gave Ben's seat to a new phone (it showed {shown})" in history
    assert f"Cat and Ann gave the host role to a new phone (it showed {host_code})" in history
    said = client.get(f"/api/tables/{code}").get_json()["seatings"]
    assert {"player": "p2", "given_by": "p3,p1"}.items() <= said[-2].items()


def test_with_the_holder_and_the_host_both_silent_seated_players_give_both_back_through_the_api(app, trio):
    """D2: Ann's and Ben's (the host's) phones both go silent. Through the API their new phones ask for Ann's
    seat and the host role; Cat lists both requests and approves them by id, and Ann's new phone, once given
    her seat, is the second approval of the host role. Nobody answers for themselves: a waiting token
    answers nothing."""
    code, client = trio["code"], trio["client"]
    silence_the_host(app)
    ann = join(client, code, "p1", IPHONE).get_json()
    host = join(client, code, "host", PHONE).get_json()
    assert ann["waiting"] and host["waiting"] and ann["code"] != host["code"]
    assert client.post(f"/api/tables/{code}/seats/p1/grant", json={"request": ann["request"]},
                       headers=bearer(ann["token"])).status_code == 403
    cat = seat_token(trio["cat"], code)
    listed = client.get(f"/api/tables/{code}/seats/p1/requests", headers=bearer(cat)).get_json()["requests"]
    assert [(r["id"], r["code"], r["agent"]) for r in listed] == [(ann["request"], ann["code"], "Safari on iOS")]
    ben = seat_token(trio["ben"], code)
    for seat, asked in (("p1", ann), ("host", host)):
        approved = client.post(f"/api/tables/{code}/seats/{seat}/grant", json={"request": asked["request"]},
                               headers=bearer(cat))
        assert approved.status_code == 200 and approved.get_json()["approvals"] == ["p3"], approved.get_json()
        assert not approved.get_json()["given"] and approved.get_json()["needed"] == 2
    given = client.post(f"/api/tables/{code}/seats/p1/grant", json={"request": ann["request"]}, headers=bearer(ben))
    assert given.get_json()["given"] and given.get_json()["approvals"] == ["p3", "p2"]
    assert client.get(f"/api/tables/{code}", headers=bearer(ann["token"])).status_code == 200
    given = client.post(f"/api/tables/{code}/seats/host/grant", json={"request": host["request"]},
                        headers=bearer(ann["token"]))
    assert given.status_code == 200 and given.get_json()["given"], given.get_json()
    stranger = join(client, code, "p3").get_json()  # the new host answers for Cat's seat
    assert client.post(f"/api/tables/{code}/seats/p3/refuse", json={"request": stranger["request"]},
                       headers=bearer(host["token"])).status_code == 200
    said = [s["said"] for s in client.get(f"/api/tables/{code}").get_json()["seatings"]]
    assert f"Cat and Ben gave Ann's seat to a new phone (it showed {ann['code']})" in said
    assert f"Cat and Ann gave the host role to a new phone (it showed {host['code']})" in said


def test_two_phones_ask_for_one_seat_and_the_approver_gives_it_to_the_second_by_its_id(app, trio):
    """D1: a stranger asks for Ann's seat first, Ann's new phone second. The host sees both, each with the code
    its phone shows and its browser; a grant without an id is refused while two ask; the second is granted by
    id, and the first is told the seat went to another phone."""
    code, client = trio["code"], trio["client"]
    stranger, ann = new_phone(app, code), new_phone(app, code)
    stranger_token, stranger_code = ask_for_seat(stranger, code, "p1", PHONE)
    ann_token, ann_code = ask_for_seat(ann, code, "p1", IPHONE)
    assert stranger_code != ann_code
    listed = client.get(f"/api/tables/{code}/seats/p1/requests", headers=bearer(trio["host_token"])).get_json()
    assert [(r["code"], r["agent"]) for r in listed["requests"]] == [
        (stranger_code, "Chrome on Android"), (ann_code, "Safari on iOS")]
    page = html.unescape(trio["ben"].get(f"/t/{code}/play").get_data(as_text=True))
    assert "2 phones ask for this seat" in page and "Chrome on Android" in page and "Safari on iOS" in page
    assert requests_shown(trio["ben"], code) == [("p1", stranger_code), ("p1", ann_code)]
    unnamed = client.post(f"/api/tables/{code}/seats/p1/grant", json={"host_token": trio["host_token"]})
    assert unnamed.status_code == 400 and "2 phones ask for this seat" in unnamed.get_json()["error"]
    ids = {r["code"]: r["id"] for r in listed["requests"]}
    assert answer(trio["ben"], code, "p1", ids[ann_code]).status_code == 303
    assert ann.get(f"/t/{code}/seat/wait").headers["Location"].endswith("/play")
    told = client.get(f"/api/tables/{code}", headers=bearer(stranger_token))
    assert told.status_code == 401 and "another phone asking for this seat was given it" in told.get_json()["error"]
    assert stranger.get(f"/t/{code}/seat/wait").headers["Location"].endswith(f"/t/{code}")
    assert "Ann's seat was given to another phone that asked for it, not this one." in html.unescape(
        stranger.get(f"/t/{code}").get_data(as_text=True))
    assert client.get(f"/api/tables/{code}", headers=bearer(ann_token)).status_code == 200
    assert requests_shown(trio["ben"], code) == []
