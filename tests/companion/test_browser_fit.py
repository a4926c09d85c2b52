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
