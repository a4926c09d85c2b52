"""A seeded fuzzer against the app in-process: thousands of malformed requests — unknown routes and codes,
hostile query strings, JSON of every wrong shape for every game's events, forms without tokens — and not one
5xx. (The real server's own limits are in test_server_limits.py.)"""
from __future__ import annotations

import json
import random

from companion_test_helpers import sit

from starpnp.companion.rules import all_rules

SEED = 1123
REQUESTS = 3000
WEIRD = [None, True, False, 0, -1, 1.5, 2 ** 63, -(2 ** 63), 10 ** 400 // 10 ** 399, 1e308, float("-0"), "", "0",
         "3", "-3", "²", "①", "p1", "p9", "\u202e", "\x00", "a" * 300, [], [1], {}, {"a": 1}, [[[]]], "NaN"]
PATHS = ["/", "/join", "/print", "/t/{code}", "/t/{code}/play", "/t/{code}/play/live", "/t/{code}/seat",
         "/t/{code}/history", "/t/{code}/export.json", "/t/{code}/export.csv", "/w/{watch}", "/w/{watch}/live",
         "/api/tables/{code}", "/api/tables/{code}/events", "/api/tables/{code}/join", "/static/palette.css",
         "/print/stratastar", "/print/nothere", "/t/{code}/events", "/t/{code}/undo"]


def random_value(rng: random.Random, depth: int = 0):
    if depth < 3 and rng.random() < 0.1:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(3))]
    return rng.choice(WEIRD)


def test_no_request_gets_a_5xx(client):
    rng = random.Random(SEED)
    games = all_rules()
    tables = {}
    for game, rules in games.items():
        players = [{"name": f"P{i}"} for i in range(rules.min_players)]
        made = client.post("/api/tables", json={"game": game, "players": players}).get_json()
        tables[game] = (made["code"], made["watch_url"].rsplit("/", 1)[1])
        sit(client, made["code"])  # this phone holds a seat at every table: its pages are fuzzed seated
    failures = []
    for n in range(REQUESTS):
        game = rng.choice(list(games))
        code, watch = tables[game] if rng.random() < 0.8 else (rng.choice(["XXXX-XXXX", "", "7K2M", "%00"]), "zz")
        path = rng.choice(PATHS).format(code=code, watch=watch)
        kind = rng.randrange(4)
        if kind == 0:  # an event for this game, with fields of every wrong kind
            event_type = rng.choice(games[game].event_types)
            body = {"type": event_type.name, "player": rng.choice(["p1", "p2", "p9", 1])}
            for field in event_type.fields.model_fields:
                if rng.random() < 0.7:
                    body[field] = random_value(rng)
            if rng.random() < 0.2:
                body[rng.choice(["zz", "type", "player", "undo"])] = random_value(rng)
            response = client.post(f"/api/tables/{code}/events", json=body)
        elif kind == 1:  # anything at all as a JSON body
            raw = json.dumps(random_value(rng)) if rng.random() < 0.8 else "{" * rng.randrange(1, 50000)
            response = client.post(rng.choice(["/api/tables", f"/api/tables/{code}/events",
                                               f"/api/tables/{code}/undo"]), data=raw,
                                   content_type=rng.choice(["application/json", "text/plain"]))
        elif kind == 2:  # hostile query strings
            query = {rng.choice(["since", "v", "code", "paper", "bleed", "duplex", "option"]): str(random_value(rng))}
            response = client.get(path, query_string=query)
        else:  # forms, mostly without a CSRF token
            response = client.post(path, data={"type": "add", "player": str(random_value(rng)),
                                               "delta": str(random_value(rng))})
        if response.status_code >= 500:
            failures.append(f"{n}: {response.request.method} {response.request.path} -> {response.status_code}: "
                            f"{response.get_data(as_text=True)[:200]}")
    assert failures == [], "\n".join(failures[:10])
