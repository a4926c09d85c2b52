"""The companion's remaining surfaces, tried as a hostile phone would (issues #49 N3-N5 and #50 item 6):
guessing group codes is slowed like guessing table codes, while answers to requests that are gone never
lock an address out; a flood of seat requests is capped per seat and throttled per address; `/stats/<game>`
with a path or huge query parameters is a one-line 4xx; the asking phone's browser reads as a person says it.
"""
from __future__ import annotations

import pytest
from companion_test_helpers import bearer

from starpnp.companion.tables import browser

PLAYERS = [{"name": "Ann", "color": "red"}, {"name": "Ben", "color": "blue"}]


def one_line(response) -> str:
    """The refusal's one line: the JSON error, or the page's alert."""
    if response.is_json:
        message = response.get_json()["error"]
    else:
        message = response.get_data(as_text=True).split('role="alert">')[1].split("<")[0]
    assert "\n" not in message and "Traceback" not in message
    return message


@pytest.fixture
def seated(client):
    """A generic table of two through the API, Ben's seat held: its JSON with `ben`, his token."""
    made = client.post("/api/tables", json={"game": "generic", "players": PLAYERS, "group": "Orion Club"}).get_json()
    made["ben"] = client.post(f"/api/tables/{made['code']}/join", json={"player": "p2"}).get_json()["token"]
    return made


def test_n3_answers_to_a_gone_request_are_404s_that_never_lock_the_address_out(client, seated):
    """N3: 20 answers to a stale request in a minute locked the address out of every table (429), taps
    included. They are 404s and count toward nothing; only codes naming no table do."""
    code = seated["code"]
    asked = client.post(f"/api/tables/{code}/join", json={"player": "p2", "take_over": True}).get_json()
    assert client.post(f"/api/tables/{code}/seats/p2/refuse", json={"request": asked["request"]},
                       headers=bearer(seated["ben"])).status_code == 200
    limit = client.application.config["WRONG_CODES_PER_MINUTE"]
    for _ in range(limit + 5):
        stale = client.post(f"/api/tables/{code}/seats/p2/grant", json={"request": asked["request"]},
                            headers=bearer(seated["ben"]))
        assert stale.status_code == 404 and one_line(stale) == "player: no phone is asking for Ben's seat"
    unknown = client.post(f"/api/tables/{code}/join", json={"player": "p2", "take_over": True}).get_json()
    for _ in range(limit + 5):
        wrong = client.post(f"/api/tables/{code}/seats/p2/grant", json={"request": 999}, headers=bearer(seated["ben"]))
        assert wrong.status_code == 404 and "no request 999" in one_line(wrong)
    tap = client.post(f"/api/tables/{code}/events", json={"type": "add", "player": "p2", "delta": 1},
                      headers=bearer(seated["ben"]))
    assert tap.status_code == 201  # still let in
    assert client.post(f"/api/tables/{code}/seats/p2/refuse", json={"request": unknown["request"]},
                       headers=bearer(seated["ben"])).status_code == 200


def test_guessing_group_codes_locks_the_address_out_at_the_table_codes_rate(client, seated):
    """Issue #50: wrong group codes, on the page, the JSON and the CSV alike, count as wrong table codes do:
    WRONG_CODES_PER_MINUTE a minute, then a 429 even for the right group; the public numbers stay open."""
    limit = client.application.config["WRONG_CODES_PER_MINUTE"]
    paths = ("/stats/generic?group=guess{}", "/api/stats/generic?group=guess{}", "/stats/generic/plays.csv?group=guess{}")
    statuses = [client.get(paths[n % 3].format(n)).status_code for n in range(limit)]
    assert statuses == [404] * limit
    blocked = client.get("/api/stats/generic?group=Orion Club")
    assert blocked.status_code == 429 and "wait a minute" in one_line(blocked)
    assert client.get(f"/api/tables/{seated['code']}").status_code == 429  # and every table code, for the minute
    assert client.get("/api/stats/generic").status_code == 200  # the public numbers name nobody: not held back


@pytest.mark.parametrize("path", [
    "/stats/generic/../../etc/passwd", "/stats/..%2F..%2Fetc%2Fpasswd", "/stats/generic/x/y", "/stats/%00",
    "/stats/" + "g" * 5000, "/api/stats/" + "g" * 5000, "/stats/generic/plays.csv/extra",
    "/stats/generic?group=" + "x" * 100_000, "/api/stats/generic?group=" + "%F0%9F%98%80" * 2000,
    "/stats/generic/plays.csv?group=%00%00%00%00", "/stats/generic?group=" + "&group=".join(["abcd"] * 2000),
])
def test_stats_with_a_path_or_huge_query_parameters_is_a_one_line_4xx(client, path):
    """Issue #50: a path under /stats/<game>, a name 5,000 long, a NUL, a 100 kB group code or 2,000 of them:
    each a 4xx with one line, never a 500 or a traceback."""
    answer = client.get(path)
    assert 400 <= answer.status_code < 500, (path[:60], answer.status_code)
    assert len(one_line(answer)) < 300


def test_stats_with_thousands_of_unknown_query_parameters_is_answered_as_without_them(client):
    """5,000 parameters the page does not read change nothing: the same page as without them."""
    padded = client.get("/stats/generic?" + "&".join(f"k{n}=v" for n in range(5000)))
    assert padded.status_code == 200
    assert padded.get_data(as_text=True) == client.get("/stats/generic").get_data(as_text=True)


def test_n4_three_hundred_requests_for_one_seat_in_a_second_are_capped(client, seated):
    """N4: 300 requests for one seat in one second were all accepted. Three wait at once; the 4th is a 429 in one
    line, and past 30 a minute the address is throttled; the holder's phone lists three."""
    code = seated["code"]
    answers = [client.post(f"/api/tables/{code}/join", json={"player": "p2", "take_over": True}) for _ in range(300)]
    statuses = [a.status_code for a in answers]
    assert statuses[:3] == [202] * 3 and set(statuses[3:]) == {429}
    assert one_line(answers[3]) == ("player: 3 phones already ask for Ben's seat; wait for an answer (a request "
                                    "lapses after 10 minutes)")
    limit = client.application.extensions["seat_requests"].limit
    assert one_line(answers[limit]) == f"player: more than {limit} seat requests a minute from this device; wait a minute"
    listed = client.get(f"/api/tables/{code}/seats/p2/requests", headers=bearer(seated["ben"])).get_json()
    assert len(listed["requests"]) == 3 and len({r["code"] for r in listed["requests"]}) == 3
    tap = client.post(f"/api/tables/{code}/events", json={"type": "add", "player": "p2", "delta": 1},
                      headers=bearer(seated["ben"]))
    assert tap.status_code == 201  # the holder plays on


def test_a_request_nobody_answers_lapses_after_ten_minutes_and_frees_its_place(app, client, seated):
    import time

    from starpnp.companion.storage import REQUEST_LAPSES_AFTER

    code = seated["code"]
    asked = [client.post(f"/api/tables/{code}/join", json={"player": "p2", "take_over": True}).get_json()
             for _ in range(3)]
    store = app.extensions["companion_store"]
    store.clock = lambda: time.time() + REQUEST_LAPSES_AFTER + 1
    lapsed = client.get(f"/api/tables/{code}", headers=bearer(asked[0]["token"]))
    assert lapsed.status_code == 401 and one_line(lapsed) == "Authorization: the request for this seat lapsed unanswered; ask again"
    assert client.get(f"/api/tables/{code}/seats/p2/requests", headers=bearer(seated["ben"])).get_json()["requests"] == []
    assert client.post(f"/api/tables/{code}/join", json={"player": "p2", "take_over": True}).status_code == 202


@pytest.mark.parametrize("agent, said", [
    ("Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile "
     "Safari/537.36", "Chrome on Android"),
    ("Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0", "Firefox on Android"),
    ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
     "Version/17.5 Mobile/15E148 Safari/604.1", "Safari on iOS"),
    ("Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Mobile Safari/537.36",
     "a browser on Android"),  # Android's own old browser: ua-parser names it after the system
    ("curl/8.5.0", "curl"), ("", "a browser"),
])
def test_n5_the_asking_browser_reads_as_a_person_says_it(agent, said):
    """N5: Chrome and Firefox on Android both read "Android on Android"."""
    assert browser(agent) == said
