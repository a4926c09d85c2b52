"""The server outlives its clients: what a malformed request, a full disk, a damaged database or a crowd of
idle phones used to do (a 500, or a stall for everyone), one test each."""
from __future__ import annotations

import socket
import subprocess
import sys

import pytest
from sqlalchemy.exc import OperationalError

from companion_test_helpers import REPO, ServerProcess, create_table, free_port, request


@pytest.mark.parametrize("since", ["²", "①", "١٢", str(2 ** 63), "9" * 4301, "-1", "1.5", ""])
def test_since_takes_ascii_digits_only(client, table, since):
    response = client.get(f"/api/tables/{table['code']}/events", query_string={"since": since})
    assert response.status_code == 400 and response.get_json()["error"].startswith("since: ")


def test_json_nested_thirty_thousand_deep_is_a_400(client, table):
    body = "[" * 30_000 + "]" * 30_000
    assert len(body) < 64 * 1024
    response = client.post(f"/api/tables/{table['code']}/events", data=body, content_type="application/json")
    assert response.status_code == 400 and "nested too deep" in response.get_json()["error"]


def test_a_full_disk_is_a_503_that_says_so(client, table, monkeypatch):
    store = client.application.extensions["companion_store"]

    def full(*args, **kwargs):
        raise OperationalError("INSERT", {}, Exception("database or disk is full"))

    monkeypatch.setattr(store, "append", full)
    response = client.post(f"/api/tables/{table['code']}/events", json={"type": "add", "player": "p1", "delta": 1})
    assert response.status_code == 503 and response.get_json()["error"].startswith("storage full")


def test_a_damaged_database_stops_the_server_with_one_line(tmp_path):
    (tmp_path / "companion.sqlite3").write_bytes(b"this is not a database" * 100)
    result = subprocess.run([sys.executable, "-m", "starpnp", "serve", "--host", "127.0.0.1", "--port",
                             str(free_port()), "--data", str(tmp_path)], cwd=REPO, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.strip().count("\n") == 0 and "database" in result.stderr


@pytest.mark.server
def test_two_hundred_idle_connections_do_not_stall_a_fresh_phone(tmp_path):
    server = ServerProcess(tmp_path / "data").start()
    idle = []
    try:
        code = create_table(server.base_url)["code"]
        for _ in range(200):  # phones that connected and said nothing
            idle.append(socket.create_connection(("127.0.0.1", server.port), timeout=5))
        status, page = request("GET", f"{server.base_url}/t/{code}", timeout=2)
        assert status == 200 and "Ann" in page
    finally:
        for sock in idle:
            sock.close()
        server.stop()


@pytest.mark.server
def test_a_huge_body_is_refused_before_it_is_read(tmp_path):
    """Only the headers are sent: the answer comes without the server waiting for (or reading) 2 MiB."""
    server = ServerProcess(tmp_path / "data").start()
    try:
        code = create_table(server.base_url)["code"]
        with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
            sock.sendall(f"POST /api/tables/{code}/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                         f"\r\nContent-Length: {2 * 1024 * 1024}\r\n\r\n{{".encode())
            assert sock.recv(100).split(b" ")[1] == b"413"
    finally:
        server.stop()


def test_counter_names_lose_control_and_bidi_characters_like_player_names(client, table):
    code = table["code"]
    response = client.post(f"/api/tables/{code}/events",
                           json={"type": "add_counter", "player": "p1", "name": "\u202eerocS\u0007"})
    assert response.status_code == 201
    assert response.get_json()["state"]["counter_names"] == ["Score", "erocS"]
    hidden = client.post(f"/api/tables/{code}/events", json={"type": "add_counter", "player": "p1", "name": "\u200f"})
    assert hidden.status_code == 422  # nothing left to show: refused, not an invisible counter


def test_guessing_table_codes_is_slowed_down(client, table):
    limit = client.application.config["WRONG_CODES_PER_MINUTE"]
    statuses = [client.get(f"/api/tables/AAAA-AA{n:02d}").status_code for n in range(limit + 2)]
    assert statuses[:limit] == [404] * limit and statuses[limit:] == [429, 429]
    blocked = client.get(f"/api/tables/{table['code']}")  # even a right code waits out the minute
    assert blocked.status_code == 429 and "wait a minute" in blocked.get_json()["error"]


def test_a_server_holds_a_configurable_number_of_tables(tmp_path):
    from starpnp.companion import create_app

    client = create_app({"DATA_DIR": str(tmp_path), "MAX_TABLES": 2}).test_client()
    body = {"game": "generic", "players": [{"name": "Ann"}, {"name": "Ben"}]}
    assert [client.post("/api/tables", json=body).status_code for _ in range(2)] == [201, 201]
    refused = client.post("/api/tables", json=body)
    assert refused.status_code == 503 and "limit" in refused.get_json()["error"]


def test_idle_tables_leave_memory_and_come_back_from_disk(client, monkeypatch):
    from starpnp.companion import storage

    monkeypatch.setattr(storage, "STATES_IN_MEMORY", 2)
    body = {"game": "generic", "players": [{"name": "Ann"}, {"name": "Ben"}]}
    codes = [client.post("/api/tables", json=body).get_json()["code"] for _ in range(4)]
    client.post(f"/api/tables/{codes[0]}/events", json={"type": "add", "player": "p1", "delta": 5})
    for code in codes[1:]:
        client.post(f"/api/tables/{code}/events", json={"type": "add", "player": "p1", "delta": 1})
    store = client.application.extensions["companion_store"]
    assert len(store._cache) == 2  # the first table's state was forgotten...
    state = client.get(f"/api/tables/{codes[0]}").get_json()["state"]
    assert state["counters"]["p1"]["Score"] == 5  # ...and replayed from its log when asked again
