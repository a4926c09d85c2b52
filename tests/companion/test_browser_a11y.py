"""axe-core in real Chromium at 360x740 (issue #49): the home, join (a table's lobby), table, watch, TV, history
and statistics pages, each in light and dark, have no serious or critical finding (every link named, text at
4.5:1 against its ground, the seat buttons of all six player colours included), and exactly one level-one
heading. Each page is checked whole in light mode and for its colours again in dark. The context bypasses the
pages' CSP only so that axe's script can run in them."""
from __future__ import annotations

import pytest
from companion_test_helpers import create_table, open_seat, request
from starpnp_test_support import axe_script, axe_violations
from test_browser_table_feel import post

pytestmark = pytest.mark.browser

COLOURS = ("red", "blue", "green", "yellow", "purple", "white")
COLOUR_RULES = ("color-contrast", "link-in-text-block")  # what dark mode changes: checked again there


def unseated(base_url: str, colours: tuple[str, ...]) -> dict:
    """A table whose seats no phone holds yet: the browser sits down without asking anyone."""
    status, body = request("POST", f"{base_url}/api/tables", {"game": "generic", "players": [
        {"name": colour.title(), "color": colour} for colour in colours]})
    assert status == 201, body
    return body


def test_every_page_reads_to_axe_in_light_and_dark(browser, live_server):
    finished = create_table(live_server, "starship_catan")
    for seat, points in (("p2", 3), ("p1", 10)):
        post(live_server, finished, seat, {"type": "vp", "delta": points})
    four, two = (unseated(live_server, colours) for colours in (COLOURS[:4], COLOURS[4:]))
    watch = finished["watch_url"].rsplit("/w/", 1)[1]
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                                  bypass_csp=True)
    context.add_init_script(axe_script())  # loaded with each page: injecting it after each load costs seconds
    page = context.new_page()
    try:
        found = {}
        open_seat(page, live_server, two["code"], "p2")  # the table page, as White's phone
        pages = [None, "/", f"/t/{four['code']}", f"/t/{two['code']}", f"/w/{watch}", f"/w/{watch}/tv",
                 f"/t/{finished['code']}/history", "/stats/starship_catan"]
        for path in pages:
            if path:
                page.goto(live_server + path)
            for scheme, rules in (("light", ()), ("dark", COLOUR_RULES)):
                page.emulate_media(color_scheme=scheme)
                found[(path or "table", scheme)] = (page.locator("h1").count(), axe_violations(page, rules=rules))
        assert {key: value for key, value in found.items() if value != (1, [])} == {}
        seats = page.get_by_role("table", name="Win rate of each seat in play order, 2 players")  # read, not seen
        first = seats.get_by_role("row").nth(1).inner_text().split("\t")  # other tests' plays may count too
        assert first[0] == "1st to play" and " · " in first[1] and first[2].startswith("95 %: ")
    finally:
        context.close()
