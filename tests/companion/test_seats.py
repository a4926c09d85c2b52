"""One phone holds a seat at a time, through the API and the pages alike."""
from __future__ import annotations

import html

from companion_test_helpers import bearer, csrf_from, sit


def join(client, code: str, **body):
    return client.post(f"/api/tables/{code}/join", json={"player": "p2", **body})


def test_the_api_asks_before_a_take_over_and_ends_the_old_token_only_once_let_go(client, table):
    """Issue #34: with only the join code, joining a held seat with take-over once returned a token for it at
    once, and that token read the seat's sealed side. Now it waits, reading nothing, until the holding phone
    lets go."""
    code = table["code"]
    client.anonymous = True
    first = join(client, code).get_json()["token"]
    held = join(client, code)
    assert held.status_code == 409
    assert held.get_json()["error"] == ("player: Ben's seat is held by another phone; ask for it: that phone lets "
                                        "go, or the table's host approves")
    assert join(client, code, take_over="yes").status_code == 400  # true or false only
    asked = join(client, code, take_over=True)
    assert asked.status_code == 202 and asked.get_json()["waiting"] is True
    second = asked.get_json()["token"]
    event = {"type": "add", "player": "p2", "delta": 1}
    for read in (client.get(f"/api/tables/{code}", headers=bearer(second)),
                 client.get(f"/api/tables/{code}/events", headers=bearer(second)),
                 client.post(f"/api/tables/{code}/events", json=event, headers=bearer(second))):
        assert read.status_code == 401 and "waits for its seat" in read.get_json()["error"]
    assert client.post(f"/api/tables/{code}/events", json=event, headers=bearer(first)).status_code == 201
    stranger = client.post(f"/api/tables/{code}/seats/p2/grant", json={"host_token": "guess"}, headers=bearer(second))
    assert stranger.status_code == 403  # nor the asking phone itself
    assert client.post(f"/api/tables/{code}/seats/p2/grant", headers=bearer(first)).status_code == 200
    refused = client.post(f"/api/tables/{code}/events", json=event, headers=bearer(first))
    assert refused.status_code == 401 and "taken by another phone" in refused.get_json()["error"]
    assert client.post(f"/api/tables/{code}/events", json=event, headers=bearer(second)).status_code == 201


def test_a_phone_with_a_flat_battery_gets_its_seat_back_through_the_host(client, table):
    code = table["code"]
    client.anonymous = True
    join(client, code)  # Ben's first phone, now off
    refused_first = join(client, code, take_over=True).get_json()["token"]
    assert client.post(f"/api/tables/{code}/seats/p2/refuse", json={"host_token": table["host_token"]}).status_code == 200
    assert "turned down" in client.get(f"/api/tables/{code}", headers=bearer(refused_first)).get_json()["error"]
    again = join(client, code, take_over=True).get_json()["token"]
    answer = client.post(f"/api/tables/{code}/seats/p2/grant", json={"host_token": table["host_token"]})
    assert answer.status_code == 200 and answer.get_json() == {"player": "p2", "answer": "grant", "request": 4,
                                                                 "given": True, "approvals": [], "needed": 1}  # p1, host, p2, refused: 4th
    assert client.get(f"/api/tables/{code}", headers=bearer(again)).status_code == 200
    assert client.post(f"/api/tables/{code}/seats/p2/grant", json={"host_token": table["host_token"]}).status_code == 404


def test_the_holding_phone_is_asked_and_its_poll_takes_it_to_the_lobby_once_it_lets_go(app, table):
    code = table["code"]
    old, new = app.test_client(), app.test_client()
    lobby = old.get(f"/t/{code}").get_data(as_text=True)
    assert old.post(f"/t/{code}/seat", data={"csrf_token": csrf_from(lobby), "player": "p2"}).status_code == 303
    version = old.get(f"/api/tables/{code}").get_json()["version"]
    assert old.get(f"/t/{code}/play/live?v={version}", headers={"HX-Request": "true"}).status_code == 204
    form = {"csrf_token": csrf_from(new.get(f"/t/{code}").get_data(as_text=True)), "player": "p2"}
    asked = new.post(f"/t/{code}/seat", data=form)
    assert asked.status_code == 200 and "Ask for Ben's seat" in html.unescape(asked.get_data(as_text=True))
    waiting = new.post(f"/t/{code}/seat", data={**form, "take_over": "yes"})
    assert waiting.status_code == 303 and waiting.headers["Location"] == f"/t/{code}/seat/wait"
    assert "Waiting for Ben's seat" in html.unescape(new.get(f"/t/{code}/seat/wait").get_data(as_text=True))
    assert new.get(f"/t/{code}/play").headers["Location"] == f"/t/{code}/seat/wait"  # it plays nothing yet
    assert "data-asking" in new.get(f"/t/{code}").get_data(as_text=True)  # the lobby says it waits
    poll = old.get(f"/t/{code}/play/live?v={version}", headers={"HX-Request": "true"})
    shown = html.unescape(poll.get_data(as_text=True))
    assert poll.status_code == 200 and "A new phone asks to play as <strong>Ben</strong>" in shown and "Let go" in shown
    page = old.get(f"/t/{code}/play").get_data(as_text=True)
    answer = {"csrf_token": csrf_from(page), "player": "p2", "answer": "grant"}
    assert old.post(f"/t/{code}/seat/answer", data=answer).status_code == 303
    poll = old.get(f"/t/{code}/play/live?v=0", headers={"HX-Request": "true"})
    assert poll.status_code == 200 and poll.headers["HX-Redirect"] == f"/t/{code}"
    said = html.unescape(old.get(f"/t/{code}").get_data(as_text=True))
    assert "Ben's seat was taken on another phone. This phone no longer plays as Ben." in said
    assert "seat was taken" not in html.unescape(old.get(f"/t/{code}").get_data(as_text=True))  # said once
    assert new.get(f"/t/{code}/seat/wait").headers["Location"] == f"/t/{code}/play"
    assert new.get(f"/t/{code}/play/live?v={version}", headers={"HX-Request": "true"}).status_code == 204


def test_a_sole_writer_knows_ended_seats_from_memory_and_after_a_restart(tmp_path):
    """`starpnp serve` answers "does this phone still hold its seat?" on every poll without a query: what it
    remembers agrees with the database, also for tokens that ended before it started."""
    import gc

    from starpnp.companion.rules import all_rules
    from starpnp.companion.storage import Store, make_engine

    def sqlite_store(sole_writer: bool) -> Store:
        return Store(make_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}"), all_rules(), sole_writer=sole_writer)

    writer, reader = sqlite_store(True), sqlite_store(False)
    players = [{"id": "p1", "name": "Ann", "color": "red"}, {"id": "p2", "name": "Ben", "color": "blue"}]
    code = writer.create_table("generic", players, {}).table.code
    old, _ = writer.join(code, "p2")
    mine, _ = writer.join(code, "p1")
    assert not writer.seat_ended(code, old) and not reader.seat_ended(code, old)
    assert not writer.asked(code) and not reader.asked(code)
    new, waits = writer.join(code, "p2", take_over=True)
    assert waits and writer.asked(code) and reader.asked(code)  # memory and database agree
    assert writer.grant(code, "p2", seat=old)
    assert not writer.asked(code) and not reader.asked(code)
    writer.release(code, mine)
    for store in (writer, reader):
        assert [store.seat_ended(code, token) for token in (old, mine, new)] == [True, True, False]
        assert store.seat_and_end(code, old) == ("p2", "taken") and store.seat_and_end(code, mine) == ("p1", "released")
    del writer
    gc.collect()  # the file lock goes with the store
    restarted = sqlite_store(True)
    assert [restarted.seat_ended(code, token) for token in (old, mine, new)] == [True, True, False]


def test_a_read_in_the_background_sent_before_a_seat_was_taken_does_not_put_the_old_cookie_back(app, table):
    """CI (2026-11-29): the host's lobby checks for seat requests as it opens. The host tapped a seat then, and
    that check's answer, which carried the session as it was before the tap, arrived after the tap's: the seat
    was gone from the cookie and the phone sent back to the lobby. Only a page loaded renews the cookie now;
    a fetch, an htmx poll or a push stream that changes nothing sends none."""
    code = table["code"]
    phone = app.test_client()
    phone.get(f"/t/{code}")  # the lobby, open
    before = phone.get_cookie("session").value
    play = sit(phone, code, "p1")
    assert phone.get_cookie("session").value != before  # the seat is in the cookie
    def sent_before(path: str, **headers):
        """`path` read by another client holding the cookie as it was before the seat was taken."""
        other = app.test_client()
        other.set_cookie("session", before)
        return other.get(path, headers=headers, buffered=False)

    for path, headers in ((f"/t/{code}", {"Sec-Fetch-Mode": "cors"}),  # the lobby's check
                          (f"/t/{code}/play/live", {"HX-Request": "true"}),  # an htmx poll
                          (f"/t/{code}/push", {"Sec-Fetch-Mode": "cors", "Accept": "text/event-stream"})):
        answer = sent_before(path, **headers)
        assert answer.status_code in (200, 401) and "Set-Cookie" not in answer.headers, path  # 401: no seat then
        answer.close()
    assert "Set-Cookie" in sent_before(f"/t/{code}", **{"Sec-Fetch-Mode": "navigate"}).headers  # a page: renewed
    assert phone.get(play).status_code == 200  # still seated
