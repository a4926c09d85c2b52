"""Real Chromium: every game's end screen (360x740) and TV page (1280x720) show the score over time, one line per
player with the name at its end, with no console error under the CSP. With STARPNP_SCREENSHOTS=<dir> it saves
them there (docs/screenshots/chart-end-*.png, chart-tv-*.png)."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion_test_helpers import ServerProcess, bearer, create_table, open_seat, request, save_screens
from test_browser_table_feel import ENDINGS, PLAYERS, post

pytestmark = pytest.mark.browser

COURIERS = Path(__file__).resolve().parent.parent / "fixtures" / "couriers"
COURIERS_ENDING = [("p1", {"type": "add", "counter": "points", "delta": 2}),
                   ("p2", {"type": "add", "counter": "points", "delta": 3}), ("p1", {"type": "end_turn", "turn": 0}),
                   ("p2", {"type": "end_turn", "turn": 1}),
                   ("p1", {"type": "add", "counter": "points", "delta": 5}), ("p1", {"type": "end_turn", "turn": 2}),
                   ("p2", {"type": "add", "counter": "points", "delta": 1}), ("p2", {"type": "end_turn", "turn": 3}),
                   ("p1", {"type": "add", "counter": "points", "delta": 5})]


@pytest.fixture(scope="module")
def couriers_server(tmp_path_factory):
    server = ServerProcess(tmp_path_factory.mktemp("couriers"), extra_args=("--game-folder", str(COURIERS))).start()
    yield server.base_url
    server.stop()


def console_errors(page) -> list[str]:
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return problems


def check_chart(page) -> None:
    chart = page.locator("[data-score-chart] svg.chart").first
    expect(chart).to_be_visible()
    assert chart.locator("[data-series]").count() == 2
    names = chart.locator("text.name").all_text_contents()
    assert [n.split()[0] for n in names] == ["Ann", "Ben"], names
    box = chart.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]  # nothing cut off


def play_and_look(browser, base_url: str, game: str, ending: list) -> None:
    table = create_table(base_url, game, PLAYERS)
    for seat, event in ending:
        post(base_url, table, seat, event)
    phone = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    tv = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = phone.new_page()
        errors = console_errors(page)
        open_seat(page, base_url, table["code"], "p1")
        expect(page.locator("[data-verdict]")).to_be_visible()
        check_chart(page)
        page.locator("[data-score-chart]").scroll_into_view_if_needed()
        save_screens(page, f"chart-end-{game}")
        screen = tv.new_page()
        errors += console_errors(screen)
        screen.goto(f"{base_url}/w/{table['watch_url'].rsplit('/w/', 1)[1]}/tv")
        check_chart(screen)
        save_screens(screen, f"chart-tv-{game}")
        assert errors == []
    finally:
        phone.close()
        tv.close()


@pytest.mark.parametrize("game", ENDINGS)
def test_the_end_screen_and_tv_page_chart_the_scores(live_server, browser, game):
    play_and_look(browser, live_server, game, ENDINGS[game])


def test_a_declared_game_charts_its_scores_by_round(couriers_server, browser):
    play_and_look(browser, couriers_server, "couriers", COURIERS_ENDING)


def test_the_tv_chart_follows_the_game_as_it_goes(live_server, browser):
    table = create_table(live_server, "generic", PLAYERS)
    tv = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        screen = tv.new_page()
        screen.goto(f"{live_server}/w/{table['watch_url'].rsplit('/w/', 1)[1]}/tv")
        request("POST", f"{live_server}/api/tables/{table['code']}/events", {"type": "add", "player": "p2", "delta": 4},
                bearer(table["tokens"]["p2"]))
        expect(screen.locator("svg.chart text.name").last).to_have_text("Ben 4")
    finally:
        tv.close()
