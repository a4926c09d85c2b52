"""The end of a game is final (issue #23): once a game is over, every later tap is refused with a plain
message, and the table's undo still takes back the last move, after which play goes on. Each game is
played to its end through the JSON API, as phones would."""
from __future__ import annotations

import pytest
from companion_test_helpers import STRATASTAR_TO_BATTLE

PLAYERS = [{"name": "Ann", "color": "red"}, {"name": "Ben", "color": "blue"}]


def send(client, code, event):
    answer = client.post(f"/api/tables/{code}/events", json=event)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def derived(client, code):
    return client.get(f"/api/tables/{code}").get_json()["derived"]


def stratastar_to_the_end(client, code):
    """Ann takes Ben's homeworld (rulebook, Winning: capture an enemy homeworld)."""
    for event in (*STRATASTAR_TO_BATTLE, {"type": "battle_start", "player": "p1", "defender": "p2"},
                  {"type": "battle_side", "player": "p1", "fleets": 4, "attack": 1},
                  {"type": "battle_side", "player": "p2", "homeworld": 1},
                  {"type": "battle_resolve", "player": "p1"}):
        send(client, code, event)
    return "p1", {"type": "next_phase", "player": "p1"}


def starship_catan_to_the_end(client, code):
    send(client, code, {"type": "vp", "player": "p1", "delta": 10})
    return "p1", {"type": "points", "player": "p2", "kind": "friendship", "delta": 1}


def stars_inc_to_the_end(client, code):
    for _ in range(9):
        send(client, code, {"type": "new_round", "player": "p1", "hydrogen": 2, "actions": 3})
        send(client, code, {"type": "end_round", "player": "p1", "unharvested": "skip"})
    for event_type in ("harvest", "done"):
        for seat in ("p1", "p2"):
            send(client, code, {"type": event_type, "player": seat})
    return "p2", {"type": "convert", "player": "p1", "conversion": "h_to_he"}


def handful_of_stars_to_the_end(client, code):
    for _ in range(14):
        send(client, code, {"type": "shuffle", "player": "p1"})
    while not derived(client, code)["game_over"]:
        last = derived(client, code)["active"]  # only the seat whose turn it is ends it
        send(client, code, {"type": "end_turn", "player": last})
    return last, {"type": "vp", "player": "p2", "delta": 1}


@pytest.mark.parametrize("game, to_the_end", [
    ("stratastar", stratastar_to_the_end), ("starship_catan", starship_catan_to_the_end),
    ("stars_inc", stars_inc_to_the_end), ("handful_of_stars", handful_of_stars_to_the_end)])
def test_after_the_end_taps_are_refused_and_undo_still_works(client, game, to_the_end):
    code = client.post("/api/tables", json={"game": game, "players": PLAYERS}).get_json()["code"]
    last_seat, later = to_the_end(client, code)
    assert derived(client, code)["scoreboard"]["over"]
    refused = client.post(f"/api/tables/{code}/events", json=later)
    assert refused.status_code == 422
    message = refused.get_json()["error"]
    assert message.startswith("type: the game is over: ") and message.endswith("Undo takes back the last move")
    assert "Traceback" not in message and "\n" not in message
    assert client.post(f"/api/tables/{code}/undo", json={"player": last_seat}).status_code == 201
    assert not derived(client, code)["scoreboard"]["over"]
    send(client, code, later)  # the game goes on from before its last move
