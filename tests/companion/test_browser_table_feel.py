"""Real Chromium at 360x740, every game: a double tap of the game's main action is one action and never an
undo, a tap never scrolls the page, and the end screen leaves nothing to tap but Undo, Export and New table.
With STARPNP_SCREENSHOTS=<dir> it saves each game's end screen there (docs/screenshots/end-*.png)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion_test_helpers import bearer, create_table, open_seat, request, save_screens, tap_twice

pytestmark = pytest.mark.browser

PLAYERS = [{"name": "Ann", "color": "red"}, {"name": "Ben", "color": "blue"}]
# Each game's main action, once the API has brought the table to where it is offered: (events before it,
# the button's label, the event type it sends). Starship Catan has no end of turn: its once-per-roll
# action is collecting the roll's production.
MAIN_ACTION = {
    "handful_of_stars": ([], re.compile(r"^End Ann's turn$"), "end_turn"),
    "stratastar": ([{"type": "next_phase"}, {"type": "next_phase"}, {"type": "remove_unsupported"}],
                   re.compile(r"^End turn"), "end_turn"),
    "stars_inc": ([{"type": "new_round", "hydrogen": 2, "actions": 3}], re.compile(r"^End the round"), "end_round"),
    "starship_catan": ([{"type": "build_module", "module": "research", "level": 1}, {"type": "yellow_die", "value": 4}],
                       re.compile(r"^Collect "), "collect"),
}
# From a fresh two-player table to the end of the game (seat, event), through the API.
ENDINGS = {
    "handful_of_stars": [("p2", {"type": "occupy", "delta": 1}), ("p1", {"type": "colony"}),
                         *[("p1", {"type": "shuffle"})] * 20, *[(f"p{i % 2 + 1}", {"type": "end_turn"}) for i in range(4)]],
    "stars_inc": [*[("p1", {"type": kind, **fields}) for _ in range(9) for kind, fields in (
                      ("new_round", {"hydrogen": 2, "actions": 3}), ("end_round", {"unharvested": "skip"}))],
                  ("p1", {"type": "adjust", "what": "points", "delta": 1}), ("p1", {"type": "harvest"}),
                  ("p1", {"type": "done"}), ("p2", {"type": "harvest"}), ("p2", {"type": "done"})],
    "starship_catan": [("p1", {"type": "vp", "delta": 10})],
    "stratastar": [("p1", {"type": "colonise"})] * 12,
}


def post(base_url: str, table: dict, seat: str, event: dict) -> None:
    status, body = request("POST", f"{base_url}/api/tables/{table['code']}/events", {**event, "player": seat},
                           bearer(table["tokens"][seat]))
    assert status == 201, (event, body)


def events(base_url: str, code: str) -> list[dict]:
    return request("GET", f"{base_url}/api/tables/{code}/events")[1]["events"]


@pytest.mark.parametrize("game", MAIN_ACTION)
def test_a_double_tap_of_the_main_action_is_one_action_and_the_page_stays(live_server, browser, game):
    table = create_table(live_server, game, PLAYERS)
    before, label, kind = MAIN_ACTION[game]
    for event in before:
        post(live_server, table, "p1", event)
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        open_seat(page, live_server, table["code"], "p1")
        button = page.get_by_role("button", name=label).first
        top = button.bounding_box()["y"] + page.evaluate("scrollY")
        page.evaluate(f"window.scrollTo(0, {max(0, top - 0.75 * 740)})")  # the button low on the screen
        box = button.bounding_box()
        assert box["y"] + box["height"] / 2 > 740 / 2, "the tap should be in the lower half of the screen"
        scrolled, logged = page.evaluate("scrollY"), len(events(live_server, table["code"]))

        tap_twice(page, button)
        expect(page.locator("#tap-status")).to_have_attribute("data-state", "saved")
        page.evaluate("() => new Promise(done => setTimeout(done, 500))")  # anything still on its way is sent

        new = events(live_server, table["code"])[logged:]
        assert [e["type"] for e in new] == [kind], new  # one action: not two, and no undo
        assert page.evaluate("scrollY") == scrolled
        assert page.locator("#notice").is_hidden()  # the second tap was not sent to be refused
        now = page.evaluate(f"document.elementFromPoint({box['x'] + 5}, {box['y'] + box['height'] / 2}).textContent")
        assert not re.search(r"Undo|Cancel", now), now  # no destructive button moved under the finger
    finally:
        context.close()


def test_twenty_quick_taps_on_a_plus_still_count_twenty_and_keep_the_page_still(live_server, browser):
    """A +1 is meant to be tapped again and again: the double-tap guard leaves it alone."""
    table = create_table(live_server, "generic", PLAYERS + [{"name": "Cy"}, {"name": "Di"}], {"counters": ["VP", "Coins"]})
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        open_seat(page, live_server, table["code"], "p1")
        plus = page.locator('article[data-player="p4"] button.plus').last
        page.evaluate(f"window.scrollTo(0, {plus.bounding_box()['y'] - 0.75 * 740})")
        box, scrolled = plus.bounding_box(), page.evaluate("scrollY")
        assert scrolled > 0 and box["y"] > 740 / 2
        for _ in range(20):
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        expect(page.locator('article[data-player="p4"] .big-number').last).to_have_text("20", timeout=10000)
        assert page.evaluate("scrollY") == scrolled
    finally:
        context.close()


@pytest.mark.parametrize("game", ENDINGS)
def test_the_end_screen_leaves_undo_export_and_new_table(live_server, browser, game):
    table = create_table(live_server, game, PLAYERS)
    for seat, event in ENDINGS[game]:
        post(live_server, table, seat, event)
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        open_seat(page, live_server, table["code"], "p1")
        expect(page.locator("[data-verdict]")).to_contain_text("Ann wins")
        live = page.locator("#live")
        expect(live.locator("[data-game-over]")).to_be_visible()
        assert live.locator("button:visible").all_inner_texts() == ["Undo my last action"]
        assert sorted(live.locator("a:visible").all_inner_texts())[:3] == ["Export CSV", "Export JSON", "New table"]
        assert live.locator("a:visible").last.get_attribute("href") == f"/stats/{game}"  # what the plays say
        assert live.locator("input:not([type=hidden]), select, summary").count() == 0
        assert "Still to finish" not in live.inner_text()
        # Undo is below the history, far from where the last action's button was
        undo, end = (live.locator(s).bounding_box() for s in ("form.undo", "[data-game-over]"))
        assert undo["y"] > live.locator("section.history").bounding_box()["y"] > end["y"]
        page.evaluate("window.scrollTo(0, 0)")
        save_screens(page, f"end-{game}")
        with page.expect_download() as download:
            live.get_by_role("link", name="Export CSV").click()
        assert download.value.suggested_filename.endswith(".csv")
    finally:
        context.close()


def test_a_slow_second_tap_before_the_answer_is_still_one_action(live_server, browser):
    """A busy phone may take longer than the double-tap window between two taps of End turn. While the page
    still shows the state the first tap was made for, the same button is not sent again to be refused."""
    table = create_table(live_server, "handful_of_stars", PLAYERS)
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        open_seat(page, live_server, table["code"], "p1")
        held = []
        page.route("**/events", lambda route: held.append(route) if not held else route.continue_())
        tap_twice(page, page.get_by_role("button", name=MAIN_ACTION["handful_of_stars"][1]).first, between_ms=700)
        assert len(held) == 1  # the first tap waits in the network; the second was never sent
        held[0].continue_()
        expect(page.locator("#tap-status")).to_have_attribute("data-state", "saved")
        page.evaluate("() => new Promise(done => setTimeout(done, 500))")
        assert [e["type"] for e in events(live_server, table["code"])] == ["end_turn"]
        assert page.locator("#notice").is_hidden()
    finally:
        context.close()
