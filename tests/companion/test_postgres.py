"""Hosted: several `starpnp serve` processes on one PostgreSQL database, the only state they share."""
from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import threading

import pytest

from companion_test_helpers import REPO, ServerProcess, bearer, create_table, free_port, join, request

pytestmark = pytest.mark.server

CLIENTS, TAPS = 8, 100
PUBLIC_URL = "https://tables.example.org"  # the load balancer's address, which join links must carry


@pytest.fixture
def two_servers(postgres_url, tmp_path):
    """Two server processes on one fresh database, started at the same moment (both run the migrations and
    look for the signing key at once), each with its own data folder (the /print cache)."""
    servers = [ServerProcess(tmp_path / f"server{i}", extra_args=("--database-url", postgres_url,
                                                                  "--public-url", PUBLIC_URL)) for i in (1, 2)]
    errors: list[Exception] = []

    def start(server: ServerProcess) -> None:
        try:
            server.start(timeout=60)
        except RuntimeError as error:
            errors.append(error)

    starting = [threading.Thread(target=start, args=(server,)) for server in servers]
    for thread in starting:
        thread.start()
    for thread in starting:
        thread.join()
    try:
        assert errors == []
        yield servers
    finally:
        for server in servers:
            server.stop()


def post(conn: http.client.HTTPConnection, path: str, body: dict, token: str) -> tuple[int, dict]:
    conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json", **bearer(token)})
    response = conn.getresponse()
    return response.status, json.loads(response.read())


def test_8_clients_tapping_through_2_servers_make_one_gapless_log(two_servers):
    """Half the clients tap through each server, with a seat token got from the other one. Every event
    lands once, with seq 1..800 and no gap; after each acknowledged tap the *other* server already reports
    at least that version; a tap retried through the other server is recognised there; and both servers end
    on the same version and state."""
    players = [{"name": f"P{i}"} for i in range(1, 5)]
    table = create_table(two_servers[0].base_url, players=players, options={"counters": ["A", "B"]})
    code = table["code"]
    assert table["url"] == f"{PUBLIC_URL}/t/{code}"
    path = f"/api/tables/{code}"
    answered: list[list[int]] = [[] for _ in range(CLIENTS)]
    failures: list[str] = []
    # one token per seat (a seat is one phone's), each from the server its clients do not tap through
    tokens = {f"p{i}": join(two_servers[i % 2].base_url, code, f"p{i}", take_over=True) for i in range(1, 5)}

    def client(index: int) -> None:
        mine, other = (http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
                       for server in (two_servers[index % 2], two_servers[1 - index % 2]))
        seat = f"p{index % 4 + 1}"
        token = tokens[seat]
        event = {"type": "add", "player": seat, "counter": "AB"[index // 4], "delta": 1}
        for tap in range(TAPS):
            status, body = post(mine, f"{path}/events", {**event, "client_id": f"client{index}-tap{tap:03}"}, token)
            if status != 201:
                failures.append(f"client {index} tap {tap}: {status} {body}")
                return
            answered[index].append(body["seq"])
            if tap % 5 == 0:  # a poll through the other process sees this write already
                other.request("GET", path)
                seen = json.loads(other.getresponse().read())["version"]
                if seen < body["seq"]:
                    failures.append(f"client {index}: seq {body['seq']} acknowledged, other server at {seen}")
        status, body = post(other, f"{path}/events", {**event, "client_id": f"client{index}-tap000"}, token)
        if (status, body["seq"]) != (200, answered[index][0]):
            failures.append(f"client {index}: retry through the other server gave {status} {body}")

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert failures == []
    assert all(seqs == sorted(seqs) and len(seqs) == TAPS for seqs in answered)
    assert sorted(seq for seqs in answered for seq in seqs) == list(range(1, CLIENTS * TAPS + 1))
    tables = [request("GET", f"{server.base_url}{path}")[1] for server in two_servers]
    assert tables[0]["version"] == tables[1]["version"] == CLIENTS * TAPS
    assert tables[0]["state"] == tables[1]["state"]
    assert tables[0]["state"]["counters"] == {f"p{i}": {"A": TAPS, "B": TAPS} for i in range(1, 5)}
    for server in two_servers:
        status, body = request("GET", f"{server.base_url}{path}/events")
        assert [e["seq"] for e in body["events"]] == list(range(1, CLIENTS * TAPS + 1))
        # a phone's poll, which asks only for the version: unchanged at 800 (204), not at 799
        assert request("GET", f"{server.base_url}/t/{code}/play/live?v={CLIENTS * TAPS}")[0] == 204
        assert request("GET", f"{server.base_url}/t/{code}/play/live?v={CLIENTS * TAPS - 1}")[0] != 204


def test_an_unreachable_database_is_a_one_line_error_and_exit_status_1(tmp_path, postgres_server):
    with socket.socket() as closed:  # a port where nothing listens
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    result = subprocess.run(
        [sys.executable, "-m", "starpnp", "serve", "--host", "127.0.0.1", "--port", str(free_port()),
         "--data", str(tmp_path), "--database-url", f"postgresql://nobody@127.0.0.1:{port}/tables"],
        cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and result.stderr.strip().count("\n") == 0
    assert "cannot open the companion database" in result.stderr and str(port) in result.stderr
