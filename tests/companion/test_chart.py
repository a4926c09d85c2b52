"""The score over time (companion/chart.py): points per round where the game has rounds, else per change of
score; one line per player ending in their name; drawn by the server on the end screen, TV page and history."""
from __future__ import annotations

import re

from companion_test_helpers import sit
from starpnp.companion.chart import _spread, history
from starpnp.companion.replay import LoggedEvent
from starpnp.companion.rules import all_rules
from starpnp.companion.storage import TableInfo

PLAYERS = [{"id": "p1", "name": "Ann", "color": "red"}, {"id": "p2", "name": "<b>Bo", "color": "blue"}]


def table(game: str, options: dict | None = None) -> TableInfo:
    return TableInfo(1, "AAAABBBB", "CCCCDDDD", game, PLAYERS, options or {}, 0, 0.0, 0.0)


def logged(*events: dict) -> list[LoggedEvent]:
    return [LoggedEvent(seq=i, type=e["type"], player=e["player"], payload={k: v for k, v in e.items()
            if k not in ("type", "player")}, undoes=e.get("undoes"), created_at=0.0, actor=None)
            for i, e in enumerate(events, 1)]


def test_a_game_with_rounds_has_a_point_per_round_with_the_scores_as_it_ended():
    rules = all_rules()["generic"]
    found = history(rules, table("generic"), logged(
        {"type": "add", "player": "p1", "delta": 2}, {"type": "add", "player": "p2", "delta": 1},
        {"type": "next_round", "player": "p1", "round": 1},
        {"type": "add", "player": "p1", "delta": 3}))
    assert found.axis == "round" and found.xs == [0, 1, 2]
    assert found.scores == {"p1": [0, 2, 5], "p2": [0, 1, 1]}


def test_a_game_without_rounds_has_a_point_per_change_of_score_and_skips_undone_events():
    rules = all_rules()["starship_catan"]
    events = logged({"type": "vp", "player": "p1", "delta": 1}, {"type": "vp", "player": "p2", "delta": 2},
                    {"type": "vp", "player": "p1", "delta": 1})
    events.append(LoggedEvent(seq=4, type="undo", player="p1", payload={}, undoes=3, created_at=0.0, actor=None))
    found = history(rules, table("starship_catan"), events)
    assert found.axis == "change"
    assert found.scores["p1"][-1] == found.scores["p1"][1] and found.scores["p2"][-1] == found.scores["p2"][0] + 2
    assert len(found.xs) == 3  # start, and the two changes that still count


def test_names_at_the_lines_ends_never_overlap():
    placed = _spread([100.0, 100.0, 101.0, 40.0], 10, 200, 14)
    ordered = sorted(placed)
    assert all(b - a >= 14 for a, b in zip(ordered, ordered[1:]))
    assert max(_spread([200.0, 200.0, 200.0], 10, 200, 14)) <= 200
    leader_and_three_level = _spread([12.0, 100.0, 100.0, 100.0], 10, 100, 20)  # a TV's four players
    assert leader_and_three_level[0] == 12.0 and 10 <= min(leader_and_three_level) <= max(leader_and_three_level) <= 100


def test_the_end_screen_tv_page_and_history_draw_the_chart(client):
    created = client.post("/api/tables", json={"game": "starship_catan", "players": PLAYERS}).get_json()
    code, watch = created["code"], created["watch_url"].rsplit("/w/", 1)[1]
    assert "data-score-chart" not in client.get(f"/w/{watch}/tv").get_data(as_text=True)  # nothing to draw yet
    client.post(f"/api/tables/{code}/events", json={"type": "vp", "player": "p2", "delta": 3})
    client.post(f"/api/tables/{code}/events", json={"type": "vp", "player": "p1", "delta": 10})  # Ann wins
    page = sit(client, code)
    for path in (page, f"/w/{watch}/tv", f"/t/{code}/history"):
        html = client.get(path).get_data(as_text=True)
        svg = re.search(r'<svg class="chart".*?</svg>', html, re.S)
        assert svg, path
        names = re.findall(r'<text class="name"[^>]*>([^<]*)</text>', svg.group(0))
        assert names == ["Ann 10", "&lt;b&gt;Bo 3"], names  # at each line's end, as text
        assert "style=" not in svg.group(0)  # the CSP allows no inline style
    assert "<script" not in svg.group(0)
    scripts = re.findall(r'<script src="([^"]+)"', client.get(f"/w/{watch}/tv").get_data(as_text=True))
    assert all(src.startswith("/static/") for src in scripts) and not any("chart" in s for s in scripts)
