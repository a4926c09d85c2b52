"""Real Chromium: every page's tappable things are at least 44 x 44 px on a 360 px phone, no page logs a
console error under the strict Content-Security-Policy (also after taps and swaps), and TV mode is readable
from 3 m portrait and landscape: no text under 3vmin (32 px on a 1080p screen), on one screen.
With STARPNP_SCREENSHOTS=<dir> it saves the TV screens there (docs/screenshots/tv-portrait-*.png)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from companion_test_helpers import bearer, create_table, open_seat, request, save_screens

pytestmark = pytest.mark.browser

GAMES = ["generic", "handful_of_stars", "stars_inc", "starship_catan", "stratastar"]
TOUCH_PX = 44
# Everything a finger can tap; a checkbox or radio counts through the label around it.
TOO_SMALL = """() => [...document.querySelectorAll('a, button, summary, select, input:not([type=hidden]), label')]
  .filter(el => !(el.matches('input[type=checkbox], input[type=radio]') && el.closest('label')))
  .filter(el => el.tagName !== 'LABEL' || el.querySelector('input[type=checkbox], input[type=radio]'))
  .filter(el => { const r = el.getBoundingClientRect(); const shown = r.width > 0 && getComputedStyle(el).visibility !== 'hidden';
                  return shown && (r.width < 44 || r.height < 44); })
  .map(el => `${el.tagName} "${(el.textContent || el.name || '').trim().slice(0, 30)}" ${Math.round(el.getBoundingClientRect().width)}x${Math.round(el.getBoundingClientRect().height)}`)"""
# The size text is drawn at: an SVG's text (the score chart) is scaled with its viewBox.
SMALLEST_TEXT = """() => Math.min(...[...document.querySelectorAll('main *')]
  .filter(el => [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()) && el.getBoundingClientRect().height > 0)
  .map(el => parseFloat(getComputedStyle(el).fontSize) * (el.ownerSVGElement ? el.ownerSVGElement.getScreenCTM().a : 1)))"""


def console_errors(page) -> list[str]:
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return problems


@pytest.fixture(scope="module")
def tables(live_server):
    return {game: create_table(live_server, game, [{"name": "Ann"}, {"name": "Ben"}]) for game in GAMES}


def test_every_tap_target_is_44px_and_no_page_logs_an_error(live_server, browser, tables):
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors = console_errors(page)
    try:
        pages = ["/", "/print", "/print/stratastar"]
        for game, table in tables.items():
            code, watch = table["code"], table["watch_url"].rsplit("/", 1)[1]
            pages += [f"/t/{code}", f"/t/{code}/play", f"/t/{code}/history", f"/w/{watch}"]
        found = {}
        for path in pages:
            if path.endswith("/play"):
                open_seat(page, live_server, path.split("/")[2], "p1")
                for details in page.locator("#live details").all():  # folded sections open too
                    details.locator("summary").click()
            else:
                page.goto(live_server + path)
            if small := page.evaluate(TOO_SMALL):
                found[path] = small
        assert found == {}
        # taps and swaps: the create form's game switch, a tap, the print page's paper switch
        page.goto(f"{live_server}/")
        page.wait_for_selector("html[data-live=ready]", state="attached")
        page.select_option("select[name=game]", "stars_inc")
        expect(page.locator("[data-player-count]")).to_contain_text("Stars, Inc.")
        open_seat(page, live_server, tables["generic"]["code"], "p1")
        page.locator('article[data-player="p1"] button.plus').first.click()
        expect(page.locator('article[data-player="p1"] .big-number').first).to_have_text("1")
        page.goto(f"{live_server}/print/stratastar")
        page.wait_for_selector("html[data-live=ready]", state="attached")
        page.select_option("select[name=paper]", "letter")
        page.wait_for_url("**paper=letter**")
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("width, height", [(1080, 1920), (1920, 1080)], ids=["portrait", "landscape"])
def test_tv_mode_is_readable_from_3_m_either_way_up(live_server, browser, width, height):
    names = ["Ann", "Maximiliana Featherstonehaugh", "Cleo", "Dmitri"]
    table = create_table(live_server, "handful_of_stars", [{"name": name} for name in names])
    for seat, event in [("p2", {"type": "vp", "delta": 3}), ("p1", {"type": "shuffle"}), ("p1", {"type": "end_turn"})]:
        status, _ = request("POST", f"{live_server}/api/tables/{table['code']}/events", {**event, "player": seat},
                            bearer(table["tokens"][seat]))
        assert status == 201
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors = console_errors(page)
    try:
        page.goto(table["watch_url"] + "/tv")
        expect(page.locator("[data-score-player]")).to_have_count(4)
        assert page.evaluate(SMALLEST_TEXT) >= 0.03 * min(width, height)
        assert page.evaluate("document.documentElement.scrollHeight") <= height  # one screen, no scrolling
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        scores = page.locator("[data-score-player] [data-score]")
        assert min(scores.nth(i).bounding_box()["height"] for i in range(4)) >= 0.08 * height
        assert errors == []
        save_screens(page, f"tv-{'portrait' if height > width else 'landscape'}")
    finally:
        context.close()
