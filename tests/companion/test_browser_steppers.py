"""Real Chromium at 360x740: counting fast. Holding + adds 5 at once and 5 more every 0.6 s while held (and the
release adds no 1 more); the folded ±5/±10 and a typed amount add theirs; a declared tracker's own steps show."""
from __future__ import annotations

import re

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


def touch_hold(page, locator, ms: int) -> None:
    """A finger held on `locator` for `ms`, then lifted: real touch events from Chromium's input pipeline (CDP
    Input.dispatchTouchEvent), with the pointer, long-press and click events a phone's browser makes of them."""
    box = locator.bounding_box()
    point = [{"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}]
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point})
    page.wait_for_timeout(ms)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


@pytest.mark.parametrize("held_ms", [800, 1300])
def test_a_touch_hold_on_plus_adds_its_fives_and_nothing_on_release(live_server, ann, held_ms):
    """Issue #42, D4: a finger held on + for 1.3 s added 11 (5, 5, and 1 on release) where a mouse added 10."""
    plus = ann.locator('article[data-player="p1"] .grid2 button.plus')
    touch_hold(ann, plus, held_ms)
    expect(ann.locator("#tap-status")).to_have_attribute("data-state", "saved")
    settle(ann, 700)  # a tap the release might have made has landed too
    expected = 5 if held_ms < 1100 else 10
    assert score(live_server, ann.code) == expected
    expect(ann.locator('article[data-player="p1"] .big-number')).to_have_text(str(expected))
    plus_one = ann.locator('article[data-player="p1"] .grid2 button.plus')
    touch_hold(ann, plus_one, 80)  # a short touch after a hold is a +1 again
    expect(ann.locator('article[data-player="p1"] .big-number')).to_have_text(str(expected + 1))


def test_a_typed_amount_that_changes_nothing_or_is_no_number_gets_one_line_and_logs_nothing(live_server, ann):
    """Issue #42, D6: a typed 0 was logged as an event that changed nothing, and typed text, nothing or an emoji
    got only the browser's bubble while an old refusal stayed in the notice bar. Now 0 is refused in one line,
    and each of the others replaces the notice with what to type instead; nothing reaches the log. Then a valid
    12 is added and clears the notice (issue #49, N12)."""
    mine = ann.locator('article[data-player="p1"]')
    mine.locator("summary", has_text="±5 · ±10").click()
    amount = mine.locator(".more-steps input[type=number][name=delta]")
    add = mine.get_by_role("button", name="Add", exact=True)
    notice = ann.locator("#notice")
    events = lambda: len(request("GET", f"{live_server}/api/tables/{ann.code}/events")[1]["events"])  # noqa: E731
    before = events()
    amount.click()
    amount.fill("0")
    add.click()
    expect(notice).to_have_text("0 changes nothing: type how many to add, with a minus sign to take away.")
    for typed, said in (("e", "Not a number: type a whole number"), ("", "Type an amount first: a whole number"),
                        ("😀", "(Not a number: type|Type an amount first:) a whole number")):  # the field may drop it
        amount.click()
        amount.fill("")
        ann.keyboard.type(typed)
        add.click()
        expect(notice).to_have_text(re.compile("^" + said + r"[^\n]*\.$"))  # in place of the last notice
        expect(notice).to_be_visible()
    assert events() == before and score(live_server, ann.code) == 0
    amount.click()
    amount.fill("12")
    add.click()  # issue #49, N12: a valid number is added, and the old notice goes
    expect(mine.locator(".big-number")).to_have_text("12")
    expect(notice).to_be_hidden(timeout=2000)  # with the answer, well before the notice's own 8 s
    assert events() == before + 1
