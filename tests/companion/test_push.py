"""starpnp/web/push.py and the push views without a browser: a stream says the version at once and after each
change, a seat change, an idle comment; a full server answers 503; the store wakes a table's streams."""
from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager

from starpnp.web.push import HEARTBEAT_SECONDS, Changes, Slots, stream


def test_a_stream_says_the_version_then_each_change():
    changes = Changes()
    with changes.watching("T") as watch:
        events = stream(watch, 3, heartbeat=0.05)
        assert next(events) == "retry: 1000\nevent: changed\ndata: 3\n\n"
        assert next(events) == ": idle\n\n"  # nothing happened within the heartbeat
        changes.publish("T", 4)
        changes.publish("other table", 9)  # not this stream's
        assert next(events) == "event: changed\ndata: 4\n\n"
        changes.publish("T")  # a seat was taken or given up: the version stays
        assert next(events) == "event: seats\ndata: 4\n\n"
    assert changes._tables == {}  # the last watcher gone, the table is forgotten


def test_a_waiting_stream_wakes_when_another_thread_publishes():
    changes = Changes()
    with changes.watching("T") as watch:
        events = stream(watch, 0, heartbeat=10)
        next(events)
        threading.Timer(0.05, changes.publish, ("T", 1)).start()
        assert next(events) == "event: changed\ndata: 1\n\n"  # long before the 10 s heartbeat


def test_slots_admit_only_so_many_streams():
    slots = Slots(2)
    assert slots.take() and slots.take() and not slots.take()
    slots.give_back()
    assert slots.take()
    assert not Slots(0).take()


def test_the_store_wakes_the_streams_of_the_table_it_wrote(app, client, table):
    store = app.extensions["companion_store"]
    code = table["code"].replace("-", "")
    with store.changes.watching(code) as watch:
        client.post(f"/api/tables/{table['code']}/events", json={"type": "add", "player": "p1", "delta": 1})
        assert watch.wait(1) == (True, 1)
        client.post(f"/api/tables/{table['code']}/join", json={"player": "p2", "take_over": True})
        assert watch.wait(1)[0]  # a seat change wakes it too


def test_a_server_with_no_room_for_a_stream_answers_503(tmp_path):
    from starpnp.companion import create_app

    full = create_app({"DATA_DIR": str(tmp_path), "PUSH_STREAMS": 0}).test_client()
    code = full.post("/api/tables", json={"game": "generic", "players": [{"name": "A"}, {"name": "B"}]}).get_json()["code"]
    answer = full.get(f"/t/{code}/push")
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "30"
    assert full.get("/t/0000-0000/push").status_code == 404


def test_the_opener_policy_is_sent_only_where_browsers_honour_it(client):
    """Over plain HTTP on the LAN (phones at a table) Chrome ignores Cross-Origin-Opener-Policy and logs an
    error on every page; over HTTPS or on this machine it is sent."""
    lan = client.get("/", base_url="http://192.168.1.20:8000")
    assert "Cross-Origin-Opener-Policy" not in lan.headers and "Content-Security-Policy" in lan.headers
    for base in ("http://127.0.0.1:8000", "http://localhost:8000", "https://192.168.1.20:8000"):
        assert client.get("/", base_url=base).headers["Cross-Origin-Opener-Policy"] == "same-origin", base


def test_ctrl_c_ends_the_open_streams_before_the_server_stops(tmp_path):
    """Each open stream holds one of waitress' threads, which it waits for at shutdown: Ctrl+C ends them first
    (the stream's last chunk is sent), and the server stops cleanly."""
    import signal
    import socket

    from companion_test_helpers import ServerProcess, create_table

    server = ServerProcess(tmp_path / "data").start()
    try:
        code = create_table(server.base_url)["code"]
        stream = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        stream.sendall(f"GET /t/{code}/push HTTP/1.1\r\nHost: t\r\n\r\n".encode())
        received = b""
        while b"event: changed" not in received:  # the headers, then the version
            received += stream.recv(4096)
        server.proc.send_signal(signal.SIGINT)
        while not received.endswith(b"0\r\n\r\n"):  # the chunked body's end: the server closed the stream
            chunk = stream.recv(4096)
            assert chunk, f"the connection dropped before the stream was ended: {received[-80:]!r}"
            received += chunk
        assert server.proc.wait(10) == 0
    finally:
        server.stop()


@contextmanager
def waitress_serving(tmp_path, **config):
    """The app on the production server (waitress, as `starpnp serve` makes it) in a thread: (app, port)."""
    from starpnp.companion import create_app
    from starpnp.companion.serve import waitress_server

    app = create_app({"DATA_DIR": str(tmp_path), **config})
    server = waitress_server(app, "127.0.0.1", 0)

    def serve() -> None:
        try:
            server.run()
        except OSError:  # the finally below closed its socket under its select(): the server has stopped
            pass

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield app, server.effective_port
    finally:
        app.extensions["companion_store"].changes.close()
        server.close()


def open_stream(port: int, code: str, until: bytes = b"\r\n\r\n") -> tuple[socket.socket, bytes]:
    """A phone's push stream of table `code`: the socket, and what it received up to `until`."""
    conn = socket.create_connection(("127.0.0.1", port), timeout=10)
    conn.sendall(f"GET /t/{code}/push HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    return conn, read_until(conn, until)


def read_until(conn: socket.socket, wanted: bytes, received: bytes = b"") -> bytes:
    while wanted not in received:
        chunk = conn.recv(4096)
        assert chunk, f"the stream ended before {wanted!r}: {received[-200:]!r}"
        received += chunk
    return received


def test_a_closed_stream_frees_its_slot_within_one_heartbeat(tmp_path):
    """Issue #42, D5 and issue #49: a phone that dropped its stream kept its slot for 40-50 s, then 15 s (one
    heartbeat). An idle stream now asks every second whether its phone is gone: on the production server with
    one slot and the 15 s heartbeat, the slot is free again long before a heartbeat could have passed."""
    with waitress_serving(tmp_path, PUSH_STREAMS=1) as (app, port):
        code = app.test_client().post("/api/tables", json={"game": "generic", "players": [
            {"name": "A"}, {"name": "B"}]}).get_json()["code"]
        first, head = open_stream(port, code)
        assert head.startswith(b"HTTP/1.1 200")
        second, head = open_stream(port, code)
        assert head.startswith(b"HTTP/1.1 503")  # the one slot is taken
        second.close()
        first.close()  # the phone went away
        closed = time.monotonic()
        while True:
            third, head = open_stream(port, code)
            third.close()
            if head.startswith(b"HTTP/1.1 200"):
                break
            assert time.monotonic() - closed < HEARTBEAT_SECONDS / 2, "the closed stream kept its slot"
            time.sleep(0.2)


def test_the_hosts_phone_hears_of_every_request_and_hand_over_at_once(tmp_path):
    """Issue #49: the host's open stream says "seats" as soon as a phone asks for a seat; the host's page then
    lists the request with "Keep it" first (the button Enter presses); when the seat's own phone lets go, the
    stream says so again and the host's page tells of the hand-over."""
    from companion_test_helpers import csrf_from

    with waitress_serving(tmp_path) as (app, port):
        host, ann, stranger = (app.test_client() for _ in range(3))
        made = host.post("/api/tables", json={"game": "generic", "players": [{"name": "Ann"}, {"name": "Ben"}]})
        code = made.get_json()["code"]
        host.get(f"/t/{code}")
        with host.session_transaction() as session:
            session["hosting"] = {code.replace("-", ""): made.get_json()["host_token"]}
        for phone, seat in ((host, "p2"), (ann, "p1")):
            form = {"csrf_token": csrf_from(phone.get(f"/t/{code}").get_data(as_text=True)), "player": seat}
            assert phone.post(f"/t/{code}/seat", data=form).status_code == 303
        stream, received = open_stream(port, code, b"event: changed\ndata: 0\n\n")
        try:
            assert host.get(f"/t/{code}/play/live?v=0", headers={"HX-Request": "true"}).status_code == 204
            asked = stranger.post(f"/api/tables/{code}/join", json={"player": "p1", "take_over": True}).get_json()
            received = read_until(stream, b"event: seats", received)
            live = host.get(f"/t/{code}/play/live?v=0", headers={"HX-Request": "true"}).get_data(as_text=True)
            card = live.split(f'data-seat-request="p1" data-request="{asked["request"]}"')[1]
            assert asked["code"] in card
            buttons = [b.split(">")[1].split("<")[0] for b in card.split("<button")[1:3]]
            assert buttons == ["Keep it", "Give the seat"]
            assert 'value="refuse" class="btn"' in card  # the first, primary one keeps the seat
            form = {"csrf_token": csrf_from(ann.get(f"/t/{code}").get_data(as_text=True)), "player": "p1",
                    "request": str(asked["request"]), "answer": "grant"}
            assert ann.post(f"/t/{code}/seat/answer", data=form).status_code == 303  # Ann's phone lets go
            read_until(stream, b"event: seats", received.split(b"event: seats", 1)[1])
            told = host.get(f"/t/{code}/play/live?v=0", headers={"HX-Request": "true"})
            assert told.status_code == 200 and "let go of it to a new phone" in told.get_data(as_text=True)
        finally:
            stream.close()


def test_an_open_push_stream_keeps_the_hosts_phone_there(tmp_path):
    """Issue #49: the host's phone counts as there while it was seen within HOST_SILENT_AFTER — a request, a poll
    or its push stream. A phone that only holds its stream open (the screen on, nothing tapped) is seen at
    each idle line: with its last request long ago, the host was silent; once its stream has said a line, it
    is there again."""
    from starpnp.companion.storage import HOST_SILENT_AFTER

    with waitress_serving(tmp_path, PUSH_HEARTBEAT_SECONDS=1) as (app, port):
        store, host = app.extensions["companion_store"], app.test_client()
        made = host.post("/api/tables", json={"game": "generic", "players": [{"name": "Ann"}, {"name": "Ben"}]})
        code = made.get_json()["code"].replace("-", "")
        host.get(f"/t/{code}")
        with host.session_transaction() as session:
            session["hosting"] = {code: made.get_json()["host_token"]}
        cookie = host.get_cookie("session").value
        conn = socket.create_connection(("127.0.0.1", port), timeout=10)
        try:
            conn.sendall(f"GET /t/{code}/push HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: session={cookie}\r\n\r\n".encode())
            received = read_until(conn, b"event: changed")  # opening it was a request: seen then
            store.clock = lambda: time.time() + HOST_SILENT_AFTER + 1
            assert not store.host_alive(code)
            read_until(conn, b": idle", read_until(conn, b": idle", received).split(b": idle", 1)[1])  # the 2nd: after
            assert store.host_alive(code)
        finally:
            conn.close()
