"""Real Chromium at 360x740: counting fast. Holding + adds 5 at once and 5 more every 0.6 s while held (and the
release adds no 1 more); the folded ±5/±10 and a typed amount add theirs; a declared tracker's own steps show."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from companion_test_helpers import DOUBLE_TAP_MS, create_table, open_seat, request, settle

pytestmark = pytest.mark.browser


def score(base_url: str, code: str, player: str = "p1") -> int:
    return request("GET", f"{base_url}/api/tables/{code}")[1]["state"]["counters"][player]["Score"]


@pytest.fixture
def ann(live_server, browser):
    code = create_table(live_server)["code"]
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    open_seat(page, live_server, code, "p1")
    page.code = code
    yield page
    context.close()


def test_holding_plus_adds_five_then_five_more_while_held(live_server, ann):
    plus = ann.locator('article[data-player="p1"] .grid2 button.plus')
    box = plus.bounding_box()
    ann.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ann.mouse.down()
    ann.wait_for_timeout(800)  # past the hold (0.5 s): +5, the next +5 comes at 1.1 s
    expect(ann.locator('article[data-player="p1"] .big-number')).to_have_text("5")  # at once, before any answer
    ann.wait_for_timeout(500)
    ann.mouse.up()
    expect(ann.locator("#tap-status")).to_have_attribute("data-state", "saved")
    ann.wait_for_timeout(300)
    assert score(live_server, ann.code) == 10  # two steps of 5, and no +1 for the release
    expect(ann.locator('article[data-player="p1"] .big-number')).to_have_text("10")


def test_the_folded_steps_and_a_typed_amount(live_server, ann):
    mine = ann.locator('article[data-player="p1"]')
    mine.locator("summary", has_text="±5 · ±10").click()
    mine.get_by_role("button", name="+10", exact=True).click()
    expect(mine.locator(".big-number")).to_have_text("10")
    mine.get_by_role("button", name="−5", exact=True).click()
    expect(mine.locator(".big-number")).to_have_text("5")
    amount = mine.locator(".more-steps input[type=number][name=delta]")
    amount.click()  # the finger goes to the field before it types (fill alone moves no pointer)
    amount.fill("12")
    settle(ann)  # the answer to −5 and the pushed change after it have arrived
    since = ann.evaluate("() => Date.now() - Number(document.documentElement.dataset.swapped || 0)")
    settle(ann, max(0, DOUBLE_TAP_MS - since) + 50)  # and typing took longer than a double tap's window
    mine.get_by_role("button", name="Add", exact=True).click()
    expect(mine.locator(".big-number")).to_have_text("17")
    expect(mine.locator(".more-steps")).to_have_attribute("open", "")  # still open after the answers
    assert score(live_server, ann.code) == 17
