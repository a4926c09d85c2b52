"""One phone holds a seat at a time, through the API and the pages alike."""
from __future__ import annotations

import html

from companion_test_helpers import csrf_from


def join(client, code: str, **body):
    return client.post(f"/api/tables/{code}/join", json={"player": "p2", **body})


def test_the_api_asks_before_a_take_over_and_ends_the_old_token(client, table):
    code = table["code"]
    client.anonymous = True
    first = join(client, code).get_json()["token"]
    held = join(client, code)
    assert held.status_code == 409
    assert held.get_json()["error"] == ("player: Ben's seat is held by another phone; taking it over tells that "
                                        "phone and ends its token")
    assert join(client, code, take_over="yes").status_code == 400  # true or false only
    second = join(client, code, take_over=True).get_json()["token"]
    event = {"type": "add", "player": "p2", "delta": 1}
    refused = client.post(f"/api/tables/{code}/events", json=event, headers={"Authorization": f"Bearer {first}"})
    assert refused.status_code == 401 and "taken by another phone" in refused.get_json()["error"]
    assert client.post(f"/api/tables/{code}/events", json=event,
                       headers={"Authorization": f"Bearer {second}"}).status_code == 201


def test_the_old_phones_poll_takes_it_to_the_lobby_which_says_why(app, table):
    code = table["code"]
    old, new = app.test_client(), app.test_client()
    lobby = old.get(f"/t/{code}").get_data(as_text=True)
    assert old.post(f"/t/{code}/seat", data={"csrf_token": csrf_from(lobby), "player": "p2"}).status_code == 303
    form = {"csrf_token": csrf_from(new.get(f"/t/{code}").get_data(as_text=True)), "player": "p2"}
    asked = new.post(f"/t/{code}/seat", data=form)
    assert asked.status_code == 200 and "Take over Ben's seat" in html.unescape(asked.get_data(as_text=True))
    assert old.get(f"/t/{code}/play").status_code == 200  # asking took nothing
    assert new.post(f"/t/{code}/seat", data={**form, "take_over": "yes"}).status_code == 303
    poll = old.get(f"/t/{code}/play/live?v=0", headers={"HX-Request": "true"})
    assert poll.status_code == 200 and poll.headers["HX-Redirect"] == f"/t/{code}"
    said = html.unescape(old.get(f"/t/{code}").get_data(as_text=True))
    assert "Ben's seat was taken on another phone. This phone no longer plays as Ben." in said
    assert "seat was taken" not in html.unescape(old.get(f"/t/{code}").get_data(as_text=True))  # said once
    assert new.get(f"/t/{code}/play/live?v=0", headers={"HX-Request": "true"}).status_code == 204  # nothing new


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
    old = writer.join(code, "p2")
    mine = writer.join(code, "p1")
    assert not writer.seat_ended(code, old) and not reader.seat_ended(code, old)
    new = writer.join(code, "p2", take_over=True)
    writer.release(code, mine)
    for store in (writer, reader):
        assert [store.seat_ended(code, token) for token in (old, mine, new)] == [True, True, False]
        assert store.seat_and_end(code, old) == ("p2", "taken") and store.seat_and_end(code, mine) == ("p1", "released")
    del writer
    gc.collect()  # the file lock goes with the store
    restarted = sqlite_store(True)
    assert [restarted.seat_ended(code, token) for token in (old, mine, new)] == [True, True, False]
