"""Real Chromium, two phones, one seat: taking a seat another phone holds asks first, the old phone is told at
once and its token is refused; a phone gives up its own seat and the next one sits without a question."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion_test_helpers import SYNC_MS, bearer, create_table, csrf_from, open_seat, request

pytestmark = pytest.mark.browser

PLAYERS = [{"name": "Ann", "color": "red"}, {"name": "Ben", "color": "blue"}]


def test_taking_a_held_seat_asks_tells_the_old_phone_and_refuses_its_token(live_server, two_phones):
    table = create_table(live_server, "generic", PLAYERS)
    code, api_token = table["code"], table["tokens"]["p2"]
    old, new = two_phones
    open_seat(old, live_server, code, "p2")  # held through the API: the old phone took it over, having confirmed
    status, body = request("POST", f"{live_server}/api/tables/{code}/events", {"type": "add", "delta": 1},
                           bearer(api_token))
    assert status == 401 and "taken by another phone" in body["error"]

    new.goto(f"{live_server}/t/{code}")
    new.locator('form.seats button[value="p2"]').click()
    ask = new.locator("[data-take-over]")
    expect(ask).to_contain_text("Another phone plays as Ben")
    expect(old).to_have_url(re.compile(r"/play$"))  # asking changes nothing yet
    ask.get_by_role("button", name="Take over Ben's seat").click()
    new.wait_for_url(f"{live_server}/t/{code}/play")

    expect(old.locator("[data-seat-lost]")).to_have_text(
        "Ben's seat was taken on another phone. This phone no longer plays as Ben.", timeout=SYNC_MS)
    assert old.url.endswith(f"/t/{code}")  # the lobby: pick a seat again, or watch
    # the old phone's cookie token is refused too: a form posted from it is answered 401 with the reason
    answer = old.request.post(f"{live_server}/t/{code}/events", form={
        "csrf_token": csrf_from(old.content()), "type": "add", "player": "p2", "delta": "1"})
    assert answer.status == 401
    new.locator('article[data-player="p2"] button.plus').first.click()
    expect(new.locator('article[data-player="p2"] .big-number').first).to_have_text("1")


def test_a_phone_gives_up_its_seat_and_the_next_sits_without_a_question(live_server, two_phones):
    table = create_table(live_server, "generic", PLAYERS)
    code = table["code"]
    first, second = two_phones
    open_seat(first, live_server, code, "p1")
    first.goto(f"{live_server}/t/{code}")
    first.get_by_role("button", name="Give up Ann's seat").click()
    expect(first.locator("text=This phone plays as")).to_have_count(0)
    second.goto(f"{live_server}/t/{code}")
    second.locator('form.seats button[value="p1"]').click()
    second.wait_for_url(f"{live_server}/t/{code}/play")  # straight in: nobody held it
    first.goto(f"{live_server}/t/{code}/play")
    assert first.url.endswith(f"/t/{code}")  # no seat: back to the lobby
