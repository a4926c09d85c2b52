"""Who may answer a request for a seat or the host role, and when (issue #49).

The rule is the table in docs/companion-api.md ("Who answers a request"): the test reads it there and tries
every (asker, answerer, host's phone there or silent) combination through the API on a fresh table of three,
so the documentation and the server cannot drift apart. N1 and N2, the two ways the host role or a seat was
taken by asking, are tests of their own; the host's phone hearing of every request at once is in
test_push.py, the flood of requests in test_companion_surfaces.py.
"""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from companion_test_helpers import bearer

from starpnp.companion.storage import HOST_SILENT_AFTER

DOCS = Path(__file__).resolve().parents[2] / "docs" / "companion-api.md"
PLAYERS = [{"name": "Ann", "color": "red"}, {"name": "Ben", "color": "blue"}, {"name": "Cat", "color": "green"}]
TARGETS = {"a seat": "p3", "the host role": "host"}  # Cat's seat; the host role
ASKERS = ("a stranger", "Ann's phone")  # Ann's phone holds p1 and asks with its token


def documented_rule() -> dict[tuple[str, str, bool], str]:
    """(request for, answered by, host's phone there) -> "gives it", "approves" or "403", from the docs' table."""
    text = DOCS.read_text(encoding="utf-8")
    table = text.split("| A request for | answered by | host's phone there | host's phone silent |")[1]
    rule = {}
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        target, answerer, there, silent = (cell.strip() for cell in line.strip("|").split("|"))
        rule[target, answerer, True], rule[target, answerer, False] = there, silent
    return rule


def answerers(target: str, asker: str) -> dict[str, str | None]:
    """Each answerer the docs name, as the phone that answers here (None: not a case for this asker)."""
    return {"the phone holding it": "holder" if target == "a seat" else None, "the host": "host",
            "another seated player": "Ben",
            "a seat held by the asking phone": "Ann" if asker == "Ann's phone" else None,
            "the asking phone": "asker", "a phone with no seat": "nobody"}


@pytest.fixture
def app(tmp_path):
    """The companion with room for the many requests of the enumeration from one address."""
    from starpnp.companion import create_app

    return create_app({"DATA_DIR": str(tmp_path), "SEAT_REQUESTS_PER_MINUTE": 1000})


class Asking:
    """A fresh table of three, each seat held through the API, and `asker` asking for `target`; answers that
    change nothing (refusals) share it, and the next answer after one that changed something gets a new one."""

    def __init__(self, app, target: str, asker: str):
        self.app, self.player, self.asker, self.table = app, TARGETS[target], asker, None

    def answer(self, answerer: str, host_there: bool) -> str:
        """Answer as `answerer`: what happened, in the docs' words."""
        if self.table is None:
            self.table = self._ask()
        client, code, seats, asked = self.table
        store = self.app.extensions["companion_store"]
        if not host_there:
            store.clock = lambda: time.time() + HOST_SILENT_AFTER + 1
        tokens = {"holder": seats["p3"], "Ben": seats["p2"], "Ann": seats["p1"], "asker": asked["token"],
                  "nobody": "no-such-token", "host": seats["host"]}
        answered = client.post(f"/api/tables/{code}/seats/{self.player}/grant", json={"request": asked["request"]},
                               headers=bearer(tokens[answerer]))
        store.clock = time.time
        if answered.status_code != 200:
            return str(answered.status_code)
        self.table = None
        given = client.get(f"/api/tables/{code}", headers=bearer(asked["token"])).status_code == 200
        assert given == answered.get_json()["given"]
        return "gives it" if given else "approves"

    def _ask(self):
        client = self.app.test_client()
        client.anonymous = True
        made = client.post("/api/tables", json={"game": "generic", "players": PLAYERS}).get_json()
        code = made["code"]
        seats = {player: client.post(f"/api/tables/{code}/join", json={"player": player}).get_json()["token"]
                 for player in ("p1", "p2", "p3")}
        seats["host"] = made["host_token"]
        asked = client.post(f"/api/tables/{code}/join", json={"player": self.player, "take_over": True},
                            headers=bearer(seats["p1"]) if self.asker == "Ann's phone" else {}).get_json()
        return client, code, seats, asked


def test_every_asker_answerer_and_host_presence_is_answered_as_the_docs_table_says(app):
    rule = documented_rule()
    assert len(rule) == 22  # 11 rows, there and silent
    found, expected = {}, {}
    for host_there in (True, False):
        for target in TARGETS:
            for asker in ASKERS:
                asking = Asking(app, target, asker)
                for answerer_said, answerer in answerers(target, asker).items():
                    if answerer is None:
                        continue
                    case = (target, asker, answerer_said, "host there" if host_there else "host silent")
                    expected[case] = rule[target, answerer_said, host_there]
                    found[case] = asking.answer(answerer, host_there)
    assert found == expected
    assert len(found) == 40  # every asker with every answerer the docs name, each way


@pytest.fixture
def trio(app):
    """A generic table of three through the API: the host token and each seat's token."""
    client = app.test_client()
    client.anonymous = True
    made = client.post("/api/tables", json={"game": "generic", "players": PLAYERS}).get_json()
    made["seats"] = {p: client.post(f"/api/tables/{made['code']}/join", json={"player": p}).get_json()["token"]
                     for p in ("p1", "p2", "p3")}
    made["client"] = client
    return made


def test_n1_a_players_second_phone_cannot_take_the_host_role_while_the_hosts_phone_is_there(app, trio):
    """N1: Ann's second phone asks for the host role; Ann's own seat (and every other) cannot give it while the
    host's phone is there; the host is the one asked (its page lists the request, "Keep it" first)."""
    code, client, seats = trio["code"], trio["client"], trio["seats"]
    asked = client.post(f"/api/tables/{code}/join", json={"player": "host", "take_over": True}).get_json()
    for seat in ("p1", "p2", "p3"):
        tried = client.post(f"/api/tables/{code}/seats/host/grant", json={"request": asked["request"]},
                            headers=bearer(seats[seat]))
        assert tried.status_code == 403 and "only the phone holding this seat, or the table's host" in \
            tried.get_json()["error"]
    assert client.get(f"/api/tables/{code}", headers=bearer(asked["token"])).status_code == 401  # still waiting
    kept = client.post(f"/api/tables/{code}/seats/host/refuse", json={"request": asked["request"],
                                                                       "host_token": trio["host_token"]})
    assert kept.status_code == 200
    assert "turned down" in client.get(f"/api/tables/{code}", headers=bearer(asked["token"])).get_json()["error"]


def test_n2_a_pending_host_request_opens_no_seat_to_the_other_players(app, trio):
    """N2: a stranger asks for the host role and leaves it pending; another asks for Cat's seat. With the host's
    phone and Cat's both there, Ann and Ben can give neither."""
    code, client, seats = trio["code"], trio["client"], trio["seats"]
    host_asked = client.post(f"/api/tables/{code}/join", json={"player": "host", "take_over": True}).get_json()
    cat_asked = client.post(f"/api/tables/{code}/join", json={"player": "p3", "take_over": True}).get_json()
    for seat in ("p1", "p2"):
        for player, asked in (("p3", cat_asked), ("host", host_asked)):
            tried = client.post(f"/api/tables/{code}/seats/{player}/grant", json={"request": asked["request"]},
                                headers=bearer(seats[seat]))
            assert tried.status_code == 403, (seat, player)
    assert client.get(f"/api/tables/{code}", headers=bearer(seats["p3"])).status_code == 200  # Cat keeps it


def test_with_the_host_silent_two_approvals_are_needed_and_not_from_the_askers_other_seat(app, trio):
    """Silent host, three seats: Ann's phone asks for the host role; Ann's seat cannot approve it, Ben's one
    approval gives nothing, Cat's second gives it; a repeated approval from Ben counts once."""
    code, client, seats = trio["code"], trio["client"], trio["seats"]
    asked = client.post(f"/api/tables/{code}/join", json={"player": "host", "take_over": True},
                        headers=bearer(seats["p1"])).get_json()
    app.extensions["companion_store"].clock = lambda: time.time() + HOST_SILENT_AFTER + 1

    def approve(seat: str):
        return client.post(f"/api/tables/{code}/seats/host/grant", json={"request": asked["request"]},
                           headers=bearer(seats[seat]))

    own = approve("p1")
    assert own.status_code == 403 and own.get_json()["error"] == "request: this phone asked for it; another player approves"
    for _ in range(2):
        once = approve("p2")
        assert once.status_code == 200 and once.get_json()["approvals"] == ["p2"] and not once.get_json()["given"]
    listed = client.get(f"/api/tables/{code}/seats/host/requests", headers=bearer(seats["p3"])).get_json()
    assert [(r["code"], r["approvals"]) for r in listed["requests"]] == [(asked["code"], ["p2"])]
    assert re.fullmatch(r"[0-9]{4}", asked["code"])
    given = approve("p3")
    assert given.get_json() == {"player": "host", "answer": "grant", "request": asked["request"], "given": True,
                                "approvals": ["p2", "p3"], "needed": 2}
    said = [s["said"] for s in client.get(f"/api/tables/{code}").get_json()["seatings"]]
    assert f"Ben and Cat gave the host role to a new phone (it showed {asked['code']})" in said


def test_at_a_table_of_two_one_other_players_approval_gives_the_host_role(app):
    client = app.test_client()
    client.anonymous = True
    made = client.post("/api/tables", json={"game": "generic", "players": PLAYERS[:2]}).get_json()
    code = made["code"]
    ben = client.post(f"/api/tables/{code}/join", json={"player": "p2"}).get_json()["token"]
    asked = client.post(f"/api/tables/{code}/join", json={"player": "host", "take_over": True}).get_json()
    app.extensions["companion_store"].clock = lambda: time.time() + HOST_SILENT_AFTER + 1
    given = client.post(f"/api/tables/{code}/seats/host/grant", json={"request": asked["request"]}, headers=bearer(ben))
    assert given.status_code == 200 and given.get_json()["given"] and given.get_json()["needed"] == 1
