"""What is done stays done (issue #34), through the app: a revealed sealed entry is not undone (the page says
why in one line, where the Undo button was), a hidden vote reaches nobody else before both are in, and a
phone ends another seat's turn only after asking, logged as acting for it."""
from __future__ import annotations

import pytest
from companion_test_helpers import STRATASTAR_TO_BATTLE, bearer, sit

PLAYERS = [{"name": "Ann", "color": "red"}, {"name": "Ben", "color": "blue"}]


def new_table(client, game, events=(), players=PLAYERS):
    table = client.post("/api/tables", json={"game": game, "players": players}).get_json()
    for event in events:
        answer = client.post(f"/api/tables/{table['code']}/events", json=event)
        assert answer.status_code == 201, (event, answer.get_json())
    return table


def test_after_the_reveal_the_page_says_why_undo_is_gone(app, client):
    """Rulebook (Stratastar), Battle phase: "This is done once. More Attack cards cannot be added later." """
    table = new_table(client, "stratastar", [
        *STRATASTAR_TO_BATTLE, {"type": "battle_start", "player": "p1", "defender": "p2"},
        {"type": "battle_side", "player": "p1", "fleets": 1}, {"type": "battle_side", "player": "p2", "fleets": 4}])
    phone = app.test_client()
    page = phone.get(sit(phone, table["code"], "p1")).get_data(as_text=True)
    assert "data-undo-stands" in page and "Undo my last action" not in page
    assert "your side stands: settle the battle" in page
    form = {"csrf_token": page.split('name="csrf_token" value="')[1].split('"')[0]}
    refused = phone.post(f"/t/{table['code']}/undo", data=form, headers={"HX-Request": "true"})
    assert refused.status_code == 422 and "your side stands" in refused.get_data(as_text=True)
    assert client.get(f"/api/tables/{table['code']}").get_json()["derived"]["battle"]["revealed"]


@pytest.fixture
def white_dwarf_merger(client):
    """Stars, Inc.: Cas merges a white dwarf of Ann's with one of Ben's; Ann has voted (yes) in secret."""
    players = [*PLAYERS, {"name": "Cas", "color": "green"}]
    table = new_table(client, "stars_inc", [
        {"type": "board", "player": "p1", "piece": "white_dwarf", "delta": 1},
        {"type": "adjust", "player": "p1", "what": "Fe", "delta": 1},
        {"type": "board", "player": "p2", "piece": "white_dwarf", "delta": 1},
        {"type": "adjust", "player": "p3", "what": "He", "delta": 6},
        {"type": "merge", "player": "p3", "merge": "white_dwarfs", "first": "p1", "second": "p2"},
        {"type": "block_vote", "player": "p1", "spend": "yes"}], players)
    table["tokens"] = {pid: client.token(table["code"], pid) for pid in ("p1", "p2")}
    return table


@pytest.mark.parametrize("viewer", [None, "p2"], ids=["join code alone", "the other owner"])
def test_a_block_vote_reaches_nobody_else_before_both_are_in(app, white_dwarf_merger, viewer):
    """Rulebook (Stars, Inc.) p. 5, Blocking: the two owners "must simultaneously vote thumbs up ... or thumbs
    down". Ann's vote was once readable by everyone, the join code alone included, before Ben voted."""
    code, phone = white_dwarf_merger["code"], app.test_client()
    headers = bearer(white_dwarf_merger["tokens"][viewer]) if viewer else {}
    state = phone.get(f"/api/tables/{code}", headers=headers).get_json()
    events = phone.get(f"/api/tables/{code}/events", headers=headers).get_json()["events"]
    assert state["state"]["pending"]["votes"] == {"p1": "sealed"}
    assert state["derived"]["block"]["voted"] == ["p1"] and state["derived"]["vote"] is None
    vote = next(e for e in events if e["type"] == "block_vote")
    assert vote["payload"] == {} and vote["sealed"] is True
    history = phone.get(f"/t/{code}/history").get_data(as_text=True)
    assert "votes on blocking the merger" in history and "merger: yes" not in history
    assert "spend=yes" not in phone.get(f"/t/{code}/export.csv").get_data(as_text=True)


def test_both_votes_show_once_in_and_then_stand(app, client, white_dwarf_merger):
    code = white_dwarf_merger["code"]
    assert client.post(f"/api/tables/{code}/events", json={"type": "block_vote", "player": "p2", "spend": "no"},
                       headers=bearer(white_dwarf_merger["tokens"]["p2"])).status_code == 201
    shown = app.test_client().get(f"/api/tables/{code}").get_json()
    assert shown["derived"]["vote"] == {"actor": "p3", "votes": {"p1": "yes", "p2": "no"}, "blocked_by": ["p1"]}
    refused = client.post(f"/api/tables/{code}/undo", json={}, headers=bearer(white_dwarf_merger["tokens"]["p2"]))
    assert refused.status_code == 409 and "your vote stands" in refused.get_json()["error"]


def test_another_phone_ends_a_turn_only_after_asking_and_is_logged_for_it(client):
    """Rulebook (A Handful of Stars), Turn structure: "When you are the active player you are allowed to
    perform two actions. Once you have completed your two actions you refill your hand". Two taps on End
    turn once ended Ann's turn and Ben's; Ben's phone ended Ann's turn as if she had."""
    table = new_table(client, "handful_of_stars")
    code = table["code"]
    ben = bearer(client.token(code, "p2"))
    as_ben = client.post(f"/api/tables/{code}/events", json={"type": "end_turn", "player": "p2", "turn": 0},
                         headers=ben)
    assert as_ben.status_code == 422 and "it is Ann's turn" in as_ben.get_json()["error"]
    unasked = client.post(f"/api/tables/{code}/events", json={"type": "end_turn", "player": "p1", "turn": 0},
                          headers=ben)
    assert unasked.status_code == 409 and "ask first" in unasked.get_json()["error"]
    asked = client.post(f"/api/tables/{code}/events", json={"type": "end_turn", "player": "p1", "turn": 0,
                                                             "confirm": True}, headers=ben)
    assert asked.status_code == 201, asked.get_json()
    event = client.get(f"/api/tables/{code}/events").get_json()["events"][-1]
    assert (event["type"], event["player"], event["by"]) == ("end_turn", "p1", "p2")
    again = client.post(f"/api/tables/{code}/events", json={"type": "end_turn", "player": "p1", "turn": 0})
    assert again.status_code == 409  # the same tap, once more: the turn has moved on
    assert client.get(f"/api/tables/{code}").get_json()["derived"]["active"] == "p2"
