"""The JSON API: the documented shapes, and a clear 4xx (never a 500) for every kind of bad input."""
import pytest
from companion_test_helpers import bearer, sit

from starpnp.companion import codes

PLAYERS = [{"name": "Ann", "color": "red"}, {"name": "Ben", "color": "blue"}]


def post_event(client, code, **event):
    return client.post(f"/api/tables/{code}/events", json=event)


def test_create_table_returns_code_url_version_state(client):
    response = client.post("/api/tables", json={"game": "generic", "players": PLAYERS, "options": {}})
    assert response.status_code == 201
    body = response.get_json()
    assert codes.normalize(body["code"]) and body["code"][4] == "-"
    assert body["url"] == f"http://table.test/t/{body['code']}"
    assert body["version"] == 0
    assert [p["id"] for p in body["state"]["players"]] == ["p1", "p2"]


def test_get_table_accepts_any_spelling_of_the_code(client, table):
    lower = table["code"].lower().replace("-", "")
    body = client.get(f"/api/tables/{lower}").get_json()
    assert body["code"] == table["code"] and body["game"] == "generic" and body["version"] == 0
    assert [p["name"] for p in body["players"]] == ["Ann", "Ben"]


def test_event_undo_and_event_list(client, table):
    code = table["code"]
    first = post_event(client, code, type="add", player="p1", delta=2)
    assert first.status_code == 201 and first.get_json()["seq"] == 1
    for_ann = client.post(f"/api/tables/{code}/events", json={"type": "add", "player": "p1", "delta": "3"},
                          headers=bearer(client.token(code, "p2")))  # Ben keeps count for Ann; form-style string
    assert for_ann.status_code == 201
    assert client.get(f"/api/tables/{code}").get_json()["state"]["counters"]["p1"]["Score"] == 5
    undo = client.post(f"/api/tables/{code}/undo", json={"player": "p1"})
    assert undo.status_code == 201
    assert undo.get_json()["undid"] == 1 and undo.get_json()["state"]["counters"]["p1"]["Score"] == 3
    listed = client.get(f"/api/tables/{code}/events").get_json()
    assert [(e["seq"], e["type"], e["player"], e["by"], e["undoes"]) for e in listed["events"]] == [
        (1, "add", "p1", "p1", None), (2, "add", "p1", "p2", None), (3, "undo", "p1", "p1", 1)]
    assert [e["seq"] for e in client.get(f"/api/tables/{code}/events?since=2").get_json()["events"]] == [3]


BAD_TABLES = [
    ({"game": "chess", "players": PLAYERS}, "game"),
    ({"game": "generic"}, "players"),
    ({"game": "generic", "players": PLAYERS[:1]}, "players"),
    ({"game": "generic", "players": PLAYERS * 3}, "players"),
    ({"game": "generic", "players": [{"name": "", "color": "red"}, PLAYERS[1]]}, "players[0].name"),
    ({"game": "generic", "players": [{"name": "x" * 33}, PLAYERS[1]]}, "players[0].name"),
    ({"game": "generic", "players": [{"name": "A", "color": "pink"}, PLAYERS[1]]}, "players[0].color"),
    ({"game": "generic", "players": [PLAYERS[0], {"name": "B", "color": "red"}]}, "players[1].color"),
    ({"game": "generic", "players": ["Ann", "Ben"]}, "players[0]"),
    ({"game": "generic", "players": PLAYERS, "options": {"speed": 3}}, "options.speed"),
    ({"game": "generic", "players": PLAYERS, "options": {"counters": "VP"}}, "options.counters"),
    ({"game": "generic", "players": PLAYERS, "options": {"counters": ["VP", "VP"]}}, "options.counters"),
    ([1, 2], "body"),
]


@pytest.mark.parametrize("body, field", BAD_TABLES)
def test_bad_tables_get_400_naming_the_field(client, body, field):
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    assert response.get_json()["error"].startswith(f"{field}:")


def test_non_json_bodies_are_refused(client, table):
    response = client.post("/api/tables", data="game=generic")
    assert response.status_code == 400 and "Content-Type" in response.get_json()["error"]
    response = client.post(f"/api/tables/{table['code']}/events", data="{not json", content_type="application/json")
    assert response.status_code == 400 and response.get_json()["error"].startswith("body:")


# A payload its event type's declaration refuses is a bad request (400); an event the rules refuse in the
# table's current state is 422.
BAD_EVENTS = [
    ({"type": "add", "player": "p9", "delta": 1}, 400, "player"),
    ({"type": "add", "player": ["p1"], "delta": 1}, 400, "player"),
    ({"type": "fly", "player": "p1"}, 400, "type"),
    ({"type": "undo", "player": "p1"}, 400, "type"),
    ({"player": "p1", "delta": 1}, 400, "type"),
    ({"type": "add", "player": "p1", "delta": 1, "color": "red"}, 400, "color"),
    ({"type": "add", "player": "p1", "delta": {"n": 1}}, 400, "delta"),
    ({"type": "add", "player": "p1", "delta": "x" * 500}, 400, "delta"),
    ({"type": "add", "player": "p1", "delta": "one"}, 400, "delta"),
    ({"type": "add", "player": "p1", "delta": 1.5}, 400, "delta"),
    ({"type": "add", "player": "p1", "delta": True}, 400, "delta"),
    ({"type": "add", "player": "p1"}, 400, "delta"),
    ({"type": "add", "player": "p1", "delta": 10**12}, 400, "delta"),
    ({"type": "add", "player": "p1", "delta": 1, "counter": "Gold"}, 422, "counter"),
    ({"type": "add", "player": "p1", "delta": 1, "target": "p2"}, 400, "target"),  # `player` says whose
    ({"type": "set", "player": "p1", "value": "NaN"}, 400, "value"),
]


@pytest.mark.parametrize("event, status, field", BAD_EVENTS)
def test_bad_events_are_refused_and_the_log_is_unchanged(client, table, event, status, field):
    code = table["code"]
    post_event(client, code, type="add", player="p1", delta=1)
    response = client.post(f"/api/tables/{code}/events", json=event)
    assert response.status_code == status
    assert response.get_json()["error"].startswith(f"{field}:"), response.get_json()
    assert client.get(f"/api/tables/{code}").get_json()["version"] == 1


@pytest.mark.parametrize("path", ["/api/tables/0000-0000", "/api/tables/not-a-code", "/api/tables/0000-0000/events"])
def test_unknown_codes_get_404_with_a_message(client, path):
    response = client.get(path)
    assert response.status_code == 404 and response.get_json()["error"]


def test_unknown_code_on_post_and_bad_since(client, table):
    assert post_event(client, "0000-0000", type="add", player="p1", delta=1).status_code == 404
    response = client.get(f"/api/tables/{table['code']}/events?since=-1")
    assert response.status_code == 400 and response.get_json()["error"].startswith("since:")


def test_undo_with_nothing_to_undo_or_unknown_player(client, table):
    code = table["code"]
    response = client.post(f"/api/tables/{code}/undo", json={"player": "p1"})
    assert response.status_code == 409 and "nothing to undo" in response.get_json()["error"]
    response = client.post(f"/api/tables/{code}/undo", json={"player": "zz"}, headers=bearer(client.token(code, "p1")))
    assert response.status_code == 403 and response.get_json()["error"].startswith("player:")


def test_huge_bodies_get_413(client, table):
    response = client.post(f"/api/tables/{table['code']}/events", data=b"{" + b" " * 200_000 + b"}",
                           content_type="application/json")
    assert response.status_code == 413 and response.get_json()["error"].startswith("body:")


def test_wrong_method_is_a_405_not_a_500(client, table):
    assert client.delete(f"/api/tables/{table['code']}").status_code == 405


def test_script_tags_in_names_are_stored_as_text_and_escaped_in_html(client):
    evil = "<script>alert(1)</script>"
    body = client.post("/api/tables", json={"game": "generic", "players": [
        {"name": evil, "color": "red"}, {"name": "Ben", "color": "blue"}]}).get_json()
    assert body["state"]["players"][0]["name"] == evil
    html = client.get(sit(client, body["code"])).get_data(as_text=True)
    assert evil not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    lobby = client.get(f"/t/{body['code']}").get_data(as_text=True)
    assert evil not in lobby


def test_control_characters_are_stripped_from_names(client):
    body = client.post("/api/tables", json={"game": "generic", "players": [
        {"name": "A\u0000nn\n", "color": "red"}, {"name": "Ben"}]}).get_json()
    assert [p["name"] for p in body["state"]["players"]] == ["Ann", "Ben"]
    assert body["state"]["players"][1]["color"] == "blue"  # the first free colour


def test_exports(client, table):
    code = table["code"]
    post_event(client, code, type="add", player="p1", delta=4)
    post_event(client, code, type="add", player="p2", delta=1)
    client.post(f"/api/tables/{code}/undo", json={"player": "p2"})
    exported = client.get(f"/t/{code}/export.json").get_json()
    assert [e["seq"] for e in exported["events"]] == [1, 2, 3] and exported["players"][0]["name"] == "Ann"
    csv_text = client.get(f"/t/{code}/export.csv").get_data(as_text=True).splitlines()
    assert csv_text[0] == "seq,at,player,type,details,counted,score Ann,score Ben,rank Ann,rank Ben"
    assert csv_text[1].endswith("Ann,add,delta=4,yes,4,0,1,2")
    assert csv_text[2].endswith("Ben,add,delta=1,no,4,0,1,2")
    assert csv_text[3].endswith("Ben,undo,undoes 2,no,4,0,1,2")
    assert [(r["name"], r["score"], r["rank"]) for r in exported["standings"]] == [("Ann", 4, 1), ("Ben", 0, 2)]


def test_players_take_the_colours_the_game_is_printed_in(client):
    from starpnp.generator.look.loader import our_game

    printed = our_game("stratastar").colors
    made = client.post("/api/tables", json={"game": "stratastar", "players": [{"name": "Ann"}, {"name": "Ben"}]})
    assert [p["color"] for p in made.get_json()["state"]["players"]] == printed[:2]
    refused = client.post("/api/tables", json={"game": "stratastar", "players": [
        {"name": "Ann", "color": "purple"}, {"name": "Ben"}]})
    assert refused.status_code == 400
    assert refused.get_json()["error"] == (f"players[0].color: Stratastar is printed in {', '.join(printed)}; "
                                           f"got 'purple'")


def test_a_tap_named_by_client_id_is_stored_once_however_often_it_is_sent(client, table):
    code = table["code"]
    tap = {"type": "add", "player": "p1", "delta": 3, "client_id": "phone1-tap-000042"}
    first = client.post(f"/api/tables/{code}/events", json=tap)
    again = client.post(f"/api/tables/{code}/events", json=tap)
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.get_json()["seq"] == again.get_json()["seq"]
    assert len(client.get(f"/api/tables/{code}/events").get_json()["events"]) == 1
    undo = {"player": "p1", "client_id": "phone1-tap-000043"}
    assert [client.post(f"/api/tables/{code}/undo", json=undo).status_code for _ in range(2)] == [201, 200]
    bad = client.post(f"/api/tables/{code}/events", json={**tap, "client_id": "x"})
    assert bad.status_code == 400 and bad.get_json()["error"].startswith("client_id: ")


@pytest.mark.parametrize("game, event, shown, moved", [
    ("handful_of_stars", "end_turn", "turn", lambda d: d["active"] == "p2"),
    ("stratastar", "next_phase", "step", lambda d: d["phase"] == "trade"),
    ("stars_inc", "end_round", "round", lambda d: not d["in_round"]),
])
def test_two_phones_ending_the_same_turn_end_it_once(client, game, event, shown, moved):
    """Both phones show the same button and tap it within a second: one 201, one 409, and the game moved on
    one step only (it used to skip the next player's turn)."""
    players = [{"name": "Ann"}, {"name": "Ben"}]
    code = client.post("/api/tables", json={"game": game, "players": players}).get_json()["code"]
    if game == "stars_inc":  # a round in play, everyone harvested
        for body in ({"type": "new_round", "player": "p1", "hydrogen": 3, "actions": 3},
                     {"type": "harvest", "player": "p1"}, {"type": "harvest", "player": "p2"}):
            assert client.post(f"/api/tables/{code}/events", json=body).status_code == 201
    derived = client.get(f"/api/tables/{code}").get_json()["derived"]
    value = derived["turns" if shown == "turn" else shown]
    answers = [client.post(f"/api/tables/{code}/events", json={"type": event, "player": seat, shown: value})
               for seat in ("p1", "p2")]
    assert [a.status_code for a in answers] == [201, 409]
    assert "moved on" in answers[1].get_json()["error"]
    assert moved(client.get(f"/api/tables/{code}").get_json()["derived"])


def test_acting_needs_the_token_of_a_seat(client, table):
    """A seat belongs to the phone that joined it: no token, a forged one or another table's cannot act or
    undo; p1's token cannot undo p2's action nor act as p2 where the game does not allow it."""
    code = table["code"]
    client.anonymous = True
    tap = {"type": "add", "player": "p1", "delta": 1}
    for headers in ({}, {"Authorization": "Basic abc"}, bearer("forged-token-value")):
        for path, body in ((f"/api/tables/{code}/events", tap), (f"/api/tables/{code}/undo", {})):
            response = client.post(path, json=body, headers=headers)
            assert response.status_code == 401 and response.get_json()["error"].startswith("Authorization:")
            assert response.headers["WWW-Authenticate"].startswith("Bearer")
    other = client.post("/api/tables", json={"game": "generic", "players": PLAYERS}).get_json()
    assert client.post(f"/api/tables/{code}/events", json=tap, headers=bearer(client.token(other["code"], "p1"))
                       ).status_code == 401
    ann, ben = bearer(client.token(code, "p1")), bearer(client.token(code, "p2"))
    assert client.post(f"/api/tables/{code}/events", json={**tap, "player": "p2", "delta": 6}, headers=ben).status_code == 201
    assert client.post(f"/api/tables/{code}/undo", json={}, headers=ann).status_code == 409  # Ben's, not Ann's
    assert client.post(f"/api/tables/{code}/undo", json={"player": "p2"}, headers=ann).status_code == 403
    assert client.get(f"/api/tables/{code}").get_json()["state"]["counters"]["p2"]["Score"] == 6
    assert client.post("/api/tables/0000-0000/events", json=tap, headers=ann).status_code == 404


def test_only_events_the_rules_allow_may_be_sent_for_another_seat(client):
    """Handful: a victory-point correction may be entered for a player who stepped away (logged as "Ann
    for Ben"); building a colony for them may not."""
    table = client.post("/api/tables", json={"game": "handful_of_stars", "players": PLAYERS}).get_json()
    code, ann = table["code"], bearer(client.token(table["code"], "p1"))
    refused = client.post(f"/api/tables/{code}/events", json={"type": "colony", "player": "p2"}, headers=ann)
    assert refused.status_code == 403 and "Ann's seat" in refused.get_json()["error"]
    allowed = client.post(f"/api/tables/{code}/events", json={"type": "vp", "player": "p2", "delta": 2}, headers=ann)
    assert allowed.status_code == 201, allowed.get_json()
    event = client.get(f"/api/tables/{code}/events").get_json()["events"][-1]
    assert (event["player"], event["by"]) == ("p2", "p1")
    assert "Ann for Ben" in client.get(f"/t/{code}/history").get_data(as_text=True)


def test_a_set_to_the_current_value_writes_nothing(client, table):
    """Issue #49, N10: an API `set` to the current value was logged as an event that changed nothing. It is a
    200 with the same version and "unchanged": no event, no history line, no undo step; a new value is one."""
    code = table["code"]
    token = client.token(code, "p1")
    event = {"type": "set", "player": "p1", "counter": "Score", "value": 5}
    first = client.post(f"/api/tables/{code}/events", json=event, headers=bearer(token))
    assert first.status_code == 201 and first.get_json()["version"] == 1
    again = client.post(f"/api/tables/{code}/events", json=event, headers=bearer(token))
    assert again.status_code == 200
    assert again.get_json() == {"version": 1, "state": first.get_json()["state"], "unchanged": True}
    assert [e["seq"] for e in client.get(f"/api/tables/{code}/events").get_json()["events"]] == [1]
    changed = client.post(f"/api/tables/{code}/events", json={**event, "value": 6}, headers=bearer(token))
    assert changed.status_code == 201 and changed.get_json()["version"] == 2
