"""Secrets by seat (issue #23): a sealed battle side is its own seat's until both sides are in.

Stratastar rulebook, Battle phase: both players reveal the Attack cards they use at the same moment, once;
none can be added later. So before the reveal neither the other seat nor a spectator (a request with only
the join code) may read a sealed side through any output: the state and events APIs, the history (page and
the table page's recent history), the JSON and CSV exports, the spectator and TV pages.
"""
from __future__ import annotations

import csv
import io
import json

import pytest
from companion_test_helpers import STRATASTAR_TO_BATTLE, bearer, sit

SECRET = 47  # Ann's Attack cards: a number no other field of the table holds
PLAYERS = [{"name": "Ann", "color": "red"}, {"name": "Ben", "color": "blue"}]


def holds_secret(value) -> bool:
    """Whether a JSON value anywhere holds Ann's sealed Attack count (as a number, or as "attack=47")."""
    if isinstance(value, dict):
        return value.get("attack") == SECRET or any(holds_secret(v) for v in value.values())
    if isinstance(value, list):
        return any(holds_secret(v) for v in value)
    return isinstance(value, str) and f"attack={SECRET}" in value


@pytest.fixture
def battle(client):
    """A Stratastar table where Ann has attacked Ben and sealed her side (3 fleets, 47 Attack cards)."""
    answer = client.post("/api/tables", json={"game": "stratastar", "players": PLAYERS})
    table = answer.get_json()
    code = table["code"]
    for event in STRATASTAR_TO_BATTLE:
        assert client.post(f"/api/tables/{code}/events", json=event).status_code == 201
    for event in ({"type": "battle_start", "player": "p1", "defender": "p2"},
                  {"type": "battle_side", "player": "p1", "fleets": 3, "attack": SECRET}):
        sent = client.post(f"/api/tables/{code}/events", json=event)
        assert sent.status_code == 201, sent.get_json()
        assert not holds_secret(sent.get_json()["state"]["battle"]["sides"]["p2"])
    table["tokens"] = {pid: client.token(code, pid) for pid in ("p1", "p2")}
    return table


def every_output(app, table, seat: str | None) -> dict:
    """Everything a phone seated as `seat` (None: a spectator with the join code, or the watch link) reads."""
    code, phone = table["code"], app.test_client()
    headers = bearer(table["tokens"][seat]) if seat else {}
    outputs = {"state": phone.get(f"/api/tables/{code}", headers=headers).get_json(),
               "events": phone.get(f"/api/tables/{code}/events", headers=headers).get_json(),
               "events since 1": phone.get(f"/api/tables/{code}/events?since=1", headers=headers).get_json()}
    if seat:
        outputs["page"] = phone.get(sit(phone, code, seat)).get_data(as_text=True)
        outputs["live"] = phone.get(f"/t/{code}/play/live", headers={"HX-Request": "true"}).get_data(as_text=True)
    else:
        watch = table["watch_url"].removeprefix("http://table.test")
        outputs["watch"] = phone.get(watch).get_data(as_text=True)
        outputs["tv"] = phone.get(f"{watch}/tv").get_data(as_text=True)
    outputs["history"] = phone.get(f"/t/{code}/history").get_data(as_text=True)
    outputs["json export"] = phone.get(f"/t/{code}/export.json").get_json()
    outputs["csv export"] = list(csv.DictReader(io.StringIO(phone.get(f"/t/{code}/export.csv").get_data(as_text=True))))
    return outputs


def leaks(outputs: dict) -> list[str]:
    """The outputs that show Ann's sealed side: as JSON, as CSV details, or in a page (a form value, the
    history's sentence, or the payload spelled out)."""
    found = [name for name in ("state", "events", "events since 1", "json export") if holds_secret(outputs[name])]
    found += ["csv export"] * any(f"attack={SECRET}" in row["details"] for row in outputs["csv export"])
    for name in ("page", "live", "watch", "tv", "history"):
        html = outputs.get(name, "")
        if f'value="{SECRET}"' in html or f"attack={SECRET}" in html or f"{SECRET} Attack" in html:
            found.append(name)
    return found


@pytest.mark.parametrize("seat", [None, "p2"], ids=["spectator", "other seat"])
def test_a_sealed_side_reaches_nobody_else_before_the_reveal(app, battle, seat):
    outputs = every_output(app, battle, seat)
    assert leaks(outputs) == []
    assert outputs["state"]["state"]["battle"]["sides"]["p1"] == "sealed"
    assert outputs["state"]["derived"]["battle"]["committed"] == ["p1"]  # that Ann has sealed is public
    sealed = [e for e in outputs["events"]["events"] if e["type"] == "battle_side"]
    assert sealed == [{**sealed[0], "payload": {}, "sealed": True}] and sealed[0]["player"] == "p1"
    row = next(r for r in outputs["csv export"] if r["type"] == "battle_side")
    assert row["details"] == "sealed"


def test_the_sealing_phone_reads_its_own_side_and_a_phone_given_the_seat_after_does_not(app, battle):
    """The API reads come from the token that sealed; the pages and exports from a phone that asked for Ann's
    seat afterwards and was given it by the host (issue #42): it reads nothing of what was sealed before."""
    outputs = every_output(app, battle, "p1")
    assert outputs["state"]["state"]["battle"]["sides"]["p1"]["attack"] == SECRET
    assert set(leaks(outputs)) == {"state", "events", "events since 1"}


def test_a_bad_token_is_refused_rather_than_read_as_a_spectator(client, battle):
    answer = client.get(f"/api/tables/{battle['code']}", headers=bearer("not-a-token"))
    assert answer.status_code == 401 and "token" in answer.get_json()["error"]


def test_both_sides_are_shown_to_all_once_both_are_sealed(app, client, battle):
    code = battle["code"]
    sent = client.post(f"/api/tables/{code}/events", json={"type": "battle_side", "player": "p2", "fleets": 2})
    assert sent.status_code == 201
    outputs = every_output(app, battle, None)
    assert set(leaks(outputs)) >= {"state", "events", "events since 1", "json export", "csv export"}
    assert outputs["state"]["derived"]["battle"]["revealed"] is True


def test_after_the_reveal_neither_side_calls_off_or_undoes_its_side(app, client, battle):
    """Rulebook, Battle phase: "Players simultaneously reveal the Attack cards they are using ... This is
    done once. More Attack cards cannot be added later." A player who lost 1 v 5 once undid his side,
    resealed with more Attack cards and won: after the reveal, Undo refuses, saying why, and so does Cancel.
    Before the reveal a side may still be taken back (nothing of it was seen)."""
    code = battle["code"]
    undone = client.post(f"/api/tables/{code}/undo", json={})
    assert undone.status_code == 201, undone.get_json()  # Ann, before Ben is in: hers to take back
    client.post(f"/api/tables/{code}/events", json={"type": "battle_side", "player": "p1", "fleets": 3, "attack": SECRET})
    client.post(f"/api/tables/{code}/events", json={"type": "battle_side", "player": "p2", "fleets": 2})
    for seat in ("p1", "p2"):
        refused = client.post(f"/api/tables/{code}/events", json={"type": "battle_cancel", "player": seat})
        assert refused.status_code == 422
        assert "stands" in refused.get_json()["error"] or "wants this battle" in refused.get_json()["error"]
        refused = client.post(f"/api/tables/{code}/undo", json={"player": seat}, headers=bearer(battle["tokens"][seat]))
        assert refused.status_code == 409
        assert refused.get_json()["error"] == ("player: both sides are revealed, and Attack cards are revealed once "
                                               "(the rulebook: none added later), so your side stands: settle the battle")
    assert client.get(f"/api/tables/{code}").get_json()["derived"]["battle"]["revealed"] is True
    settled = client.post(f"/api/tables/{code}/events", json={"type": "battle_resolve", "player": "p2"})
    assert settled.status_code == 201
    assert settled.get_json()["state"]["last_battle"]["result"] == "attacker"


def test_a_side_sealed_in_a_battle_called_off_stays_sealed(app, client, battle):
    """Ben started a battle against Ann and called it off once Ann had sealed (before sealing his own)."""
    code = battle["code"]
    assert client.post(f"/api/tables/{code}/undo", json={}).status_code == 201  # Ann's side
    assert client.post(f"/api/tables/{code}/undo", json={}).status_code == 201  # Ann's battle
    for event in ({"type": "battle_start", "player": "p2", "defender": "p1"},
                  {"type": "battle_side", "player": "p1", "fleets": 3, "attack": SECRET},
                  {"type": "battle_cancel", "player": "p2"},
                  {"type": "battle_start", "player": "p1", "defender": "p2"},
                  {"type": "battle_side", "player": "p1", "fleets": 1},
                  {"type": "battle_side", "player": "p2", "fleets": 1}):
        assert client.post(f"/api/tables/{code}/events", json=event).status_code == 201
    outputs = every_output(app, battle, "p2")
    assert leaks(outputs) == []  # the later battle's reveal shows that battle's sides only
    shown = [e["sealed"] if "sealed" in e else False for e in outputs["events"]["events"] if e["type"] == "battle_side"]
    assert shown == [True, True, False, False]  # the undone one and the called-off one stay sealed
    json.dumps(outputs["json export"])  # still a plain JSON document


def test_the_projection_is_a_pure_function_of_the_log_and_the_viewer():
    """companion/sealed.py needs no app: the rules, the log and who looks. Undone and called-off entries
    stay sealed; a revealed pair is shown; the sealing seat always reads its own."""
    from starpnp.companion.replay import LoggedEvent, replay
    from starpnp.companion.rules import get_rules
    from starpnp.companion.sealed import Reader, hidden_seqs, visible_events, visible_state

    rules = get_rules("stratastar")
    seats = [{"id": "p1", "name": "Ann", "color": "red"}, {"id": "p2", "name": "Ben", "color": "blue"}]
    to_battle = [LoggedEvent(-n, e["type"], e["player"], {k: v for k, v in e.items() if k not in ("type", "player")})
                 for n, e in enumerate(STRATASTAR_TO_BATTLE, 1)]  # Ann's battle phase first
    log = [*to_battle, LoggedEvent(1, "battle_start", "p2", {"defender": "p1"}),
           LoggedEvent(2, "battle_side", "p1", {"attack": 5}),
           LoggedEvent(3, "undo", "p1", undoes=2),
           LoggedEvent(4, "battle_side", "p1", {"attack": 6}),
           LoggedEvent(5, "battle_cancel", "p2"),
           LoggedEvent(6, "battle_start", "p2", {"defender": "p1"}),
           LoggedEvent(7, "battle_side", "p2", {"attack": 7}),
           LoggedEvent(8, "battle_side", "p1", {"attack": 8})]
    assert hidden_seqs(rules, seats, {}, log) == {2, 4}
    assert hidden_seqs(rules, seats, {}, log[:-1]) == {2, 4, 7}
    shown = visible_events(rules, seats, {}, log, log, Reader("p2"))
    assert [e.payload.get("attack") for e in shown if e.type == "battle_side"] == [None, None, 7, 8]
    assert [e.payload.get("attack") for e in visible_events(rules, seats, {}, log, log, Reader("p1"))
            if e.type == "battle_side"] == [5, 6, 7, 8]
    open_battle = replay(rules, seats, {}, log[:-1])
    assert visible_state(rules, open_battle, None)["battle"]["sides"]["p2"] == "sealed"
    assert visible_state(rules, open_battle, "p2")["battle"]["sides"]["p2"]["attack"] == 7
    assert open_battle["battle"]["sides"]["p2"]["attack"] == 7  # the state itself is left as it was
