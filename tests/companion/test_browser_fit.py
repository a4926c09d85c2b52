"""Real Chromium at 360x740: every game's page keeps its main action on the first screen, nothing is cut off
(no element past the screen's sides, no choice in a select wider than the select shows), and no page logs a
console error under the CSP, with every folded section open."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion_test_helpers import create_table, open_seat
from test_browser_table_feel import MAIN_ACTION, PLAYERS, post

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
# Each element's box within the screen's width; each select wide enough for its longest choice (measured in
# the select's own font; 36 px for its arrow and padding).
CUT_OFF = """() => {
  const out = [...document.querySelectorAll('main *')].filter(el => { const r = el.getBoundingClientRect();
    return r.width > 0 && (r.left < -1 || r.right > innerWidth + 1); }).map(el => el.tagName + ' ' + el.textContent.trim().slice(0, 40));
  const pen = document.createElement('canvas').getContext('2d');
  for (const select of document.querySelectorAll('main select')) {
    if (!select.getBoundingClientRect().width) continue;
    const style = getComputedStyle(select); pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    for (const option of select.options)
      if (pen.measureText(option.text).width > select.clientWidth - 36) out.push('option ' + option.text);
  }
  return out; }"""


# Stars, Inc.: in a round each player's own action is the harvest (the round's end comes once, from one phone).
MAIN_LABEL = {"stars_inc": re.compile(r"^Harvest$")}


def console_errors(page) -> list[str]:
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return problems


@pytest.mark.parametrize("game", [*MAIN_ACTION, "generic"])
def test_the_main_action_is_on_the_first_screen_and_nothing_is_cut_off(live_server, browser, game):
    before, label, _ = MAIN_ACTION.get(game, ([], None, None))
    label = MAIN_LABEL.get(game, label)
    table = create_table(live_server, game, PLAYERS)
    for event in before:
        post(live_server, table, "p1", event)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors = console_errors(page)
    try:
        open_seat(page, live_server, table["code"], "p1")
        main = page.get_by_role("button", name=label).first if label else page.locator("#live button.plus").first
        expect(main).to_be_visible()
        box = main.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (game, box)
        assert page.evaluate(CUT_OFF) == []
        folded = page.locator("#live details:not([open]) > summary:visible")
        while folded.count():  # every folded section, opened (one inside another too)
            folded.first.click()
        assert page.evaluate(CUT_OFF) == []
        main.click()  # and a swap after a tap
        expect(page.locator("#tap-status")).to_have_attribute("data-state", "saved")
        page.wait_for_timeout(300)
        assert page.evaluate(CUT_OFF) == []
        assert errors == []
    finally:
        context.close()


def test_starship_catans_die_is_on_the_first_screen_from_the_start(live_server, browser):
    table = create_table(live_server, "starship_catan", PLAYERS)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        open_seat(page, live_server, table["code"], "p1")
        six = page.locator("[data-yellow]").get_by_role("button", name="6", exact=True)
        assert six.bounding_box()["y"] + six.bounding_box()["height"] <= PHONE["height"]
    finally:
        context.close()


SCREENS = 2.5  # issue #42: Starship Catan's page was 3.9 screens long, 6.0 with every section open


def page_screens(page) -> float:
    return page.evaluate("document.documentElement.scrollHeight") / PHONE["height"]


def test_starship_catans_page_is_at_most_two_and_a_half_screens_with_the_common_sections_open(live_server, browser):
    """At set-up (the modules open, to pick the one that starts) and in play (a module built, the die rolled,
    five actions in the history, the ship's fame, friendship, boosters and cannons open), at 360x740."""
    from companion_test_helpers import save_screens

    setup, in_play = (create_table(live_server, "starship_catan", PLAYERS) for _ in range(2))
    for event in [{"type": "build_module", "module": "research", "level": 1}, {"type": "yellow_die", "value": 4},
                  *[{"type": "resource", "resource": "ore", "delta": d} for d in (1, -1, 1)]]:
        post(live_server, in_play, "p1", event)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        open_seat(page, live_server, setup["code"], "p1")
        expect(page.locator("[data-modules]")).to_have_attribute("open", "")
        assert page_screens(page) <= SCREENS, "set-up"
        save_screens(page, "starship-catan-setup")
        open_seat(page, live_server, in_play["code"], "p1")
        expect(page.get_by_role("button", name=re.compile(r"^Collect "))).to_be_visible()
        page.locator("[data-ship] > summary").click()
        expect(page.locator('[data-row="Cannons"]')).to_be_visible()
        assert page.locator("#live .history-list li").count() == 5
        assert page_screens(page) <= SCREENS, "in play"
        assert page.evaluate(CUT_OFF) == []
        save_screens(page, "starship-catan-in-play")
    finally:
        context.close()


def test_the_tv_chart_opened_on_a_phone_has_text_of_12px_at_least(live_server, browser):
    """Issue #42: the TV page's chart, made for a TV and scaled down to a phone's width, had 10.6 px text; a
    phone gets the phone's chart there."""
    table = create_table(live_server, "generic", PLAYERS)
    post(live_server, table, "p2", {"type": "add", "delta": 4})
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(table["watch_url"] + "/tv")
        chart = page.locator("[data-score-chart] svg.chart:visible")
        expect(chart).to_have_count(1)
        sizes = chart.evaluate("""svg => [...svg.querySelectorAll('text')].map(t =>
            parseFloat(getComputedStyle(t).fontSize) * svg.getScreenCTM().a)""")
        assert sizes and min(sizes) >= 12, sizes
        assert chart.locator("text.name").last.text_content() == "Ben 4"
    finally:
        context.close()
