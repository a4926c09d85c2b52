"""Real Chromium, two phones, one seat: a seat another phone holds is asked for, and given only when that phone
lets go or the table's host approves; the old phone is then told at once and its token is refused; a phone
gives up its own seat and the next one sits without a question."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError, expect

from companion_test_helpers import (HOSTS, STRATASTAR_TO_BATTLE, SYNC_MS, bearer, create_table, csrf_from, grant, open_seat,
                                    request)

pytestmark = pytest.mark.browser

PLAYERS = [{"name": "Ann", "color": "red"}, {"name": "Ben", "color": "blue"}]
SECRET = 47  # Ben's Attack cards: no other number on the page
REFRESH = '<meta http-equiv="refresh" content="2">'  # the waiting page's own reload, for a phone without JavaScript


def test_a_held_seat_is_asked_for_and_its_secret_stays_until_the_old_phone_lets_go(live_server, two_phones):
    """Issue #34: with only the join code a phone took a held seat in one tap and read its sealed battle side
    before the old phone was told. Now the new phone waits, seeing nothing of the seat, until the phone holding
    it lets go (turned down first, then let go); the old phone is then told and its token refused."""
    table = create_table(live_server, "stratastar", PLAYERS)
    code, api_token = table["code"], table["tokens"]["p2"]
    for event in [*STRATASTAR_TO_BATTLE, {"type": "battle_start", "player": "p1", "defender": "p2"}]:
        assert request("POST", f"{live_server}/api/tables/{code}/events", event, bearer(table["tokens"]["p1"]))[0] == 201
    old, new = two_phones
    asked = []  # what the old phone requests: nothing of the game follows its "Let go" to the lobby
    old.on("request", lambda sent: asked.append(f"{sent.method} {sent.url}"))
    open_seat(old, live_server, code, "p2")  # held through the API: the test, the table's host, gave it over
    status, body = request("POST", f"{live_server}/api/tables/{code}/events", {"type": "battle_side", "fleets": 1},
                           bearer(api_token))
    assert status == 401 and "taken by another phone" in body["error"]
    form = old.locator("form:has(button:text('Seal my side'))")
    form.locator("input[name=attack]").fill(str(SECRET))
    form.get_by_role("button", name="Seal my side").click()
    expect(old.locator("#tap-status")).to_have_attribute("data-state", "saved")

    for answer, then in (("Keep it", "turned down"), ("Let go", None)):
        new.goto(f"{live_server}/t/{code}")
        new.locator('form.seats button[value="p2"]').click()
        ask = new.locator("[data-take-over]")
        expect(ask).to_contain_text("Another phone plays as Ben")
        ask.get_by_role("button", name="Ask for Ben's seat").click()
        new.wait_for_url(f"{live_server}/t/{code}/seat/wait")
        assert str(SECRET) not in new.content()
        status, body = request("GET", f"{live_server}/api/tables/{code}", None, bearer(api_token))
        assert status == 401 and str(SECRET) not in str(body)
        new.goto(f"{live_server}/t/{code}/play")  # nothing of Ben's to play or read yet
        assert new.url.endswith("/seat/wait") and str(SECRET) not in new.content()
        request_card = old.locator('[data-seat-request="p2"]')
        expect(request_card).to_contain_text("A new phone asks to play as Ben", timeout=SYNC_MS)
        expect(old).to_have_url(re.compile(r"/play$"))  # asking took nothing
        request_card.get_by_role("button", name=answer).click()
        if then:
            new.wait_for_url(f"{live_server}/t/{code}", timeout=SYNC_MS)  # back to the lobby, which says why
            expect(new.locator("[data-seat-lost]")).to_contain_text("turned down")
            expect(old.locator('[data-seat-request="p2"]')).to_have_count(0)

    new.wait_for_url(f"{live_server}/t/{code}/play", timeout=SYNC_MS)
    expect(new.locator("form:has(button:text('Seal my side'))")).to_have_count(0)  # Ben's own side, sealed
    expect(old.locator("[data-seat-lost]")).to_have_text(
        "Ben's seat was taken on another phone. This phone no longer plays as Ben.", timeout=SYNC_MS)
    assert old.url.endswith(f"/t/{code}")  # the lobby: pick a seat again, or watch
    # the push woke the old page while "Let go" was on its way: a fetch then would load the lobby a second
    # time, and the lobby says a lost seat only once
    after_let_go = asked[max(i for i, r in enumerate(asked) if r.startswith("POST") and "/seat/answer" in r):]
    assert not [r for r in after_let_go if "/play/live" in r], after_let_go
    assert sum(r == f"GET {live_server}/t/{code}" for r in after_let_go) == 1
    # the old phone's cookie token is refused too: a form posted from it is answered 401 with the reason
    answer = old.request.post(f"{live_server}/t/{code}/events", form={
        "csrf_token": csrf_from(old.content()), "type": "battle_cancel", "player": "p2"})
    assert answer.status == 401


def test_a_phone_with_a_flat_battery_gets_its_seat_back_through_the_host(live_server, browser, two_phones):
    """The table's host is the phone that created it (here on the home page's form): it gives the seat to
    the new phone when the old one cannot answer."""
    host, new = two_phones
    host.goto(f"{live_server}/?game=generic")
    form = host.locator("#new-table form")
    form.locator("input[name=name1]").fill("Ann")
    form.locator("input[name=name2]").fill("Ben")
    form.get_by_role("button", name="Create table").click()
    host.wait_for_url(re.compile(r"/t/[0-9A-Z]{4}-[0-9A-Z]{4}$"))
    code = host.url.rsplit("/", 1)[1]
    flat = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True).new_page()
    open_seat(flat, live_server, code, "p2")
    flat.context.close()  # the battery is flat
    new.goto(f"{live_server}/t/{code}")
    new.locator('form.seats button[value="p2"]').click()
    new.locator("[data-take-over]").get_by_role("button", name="Ask for Ben's seat").click()
    new.wait_for_url(f"{live_server}/t/{code}/seat/wait")
    try:
        host.goto(f"{live_server}/t/{code}")
    except PlaywrightError as exc:  # the host's page, told of the request, loaded itself again meanwhile
        if "interrupted by another navigation" not in str(exc):
            raise
    host.locator('[data-seat-request="p2"]').get_by_role("button", name="Give the seat").click()
    new.wait_for_url(f"{live_server}/t/{code}/play", timeout=SYNC_MS)
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


def test_a_waiting_phone_moves_on_when_its_request_is_answered_without_reloading_itself(live_server, two_phones):
    """The waiting page follows the table's push stream: turned down, it goes back to the lobby, which says so;
    given the seat, on to the game. Its own 2 s refresh is taken out of the page here, so a page that only
    refreshed would wait for ever."""
    table = create_table(live_server, "generic", PLAYERS)
    code, phone = table["code"], two_phones[0]
    stripped = []

    def without_refresh(route):
        answer = route.fetch(max_redirects=0) if route.request.is_navigation_request() else None
        if answer is None or answer.status != 200:  # the page's own checks, and a redirect: as they are
            return route.continue_()
        stripped.append(REFRESH in answer.text())
        route.fulfill(response=answer, body=answer.text().replace(REFRESH, ""))

    phone.route("**/seat/wait", without_refresh)
    for answer in ("refuse", "grant"):
        phone.goto(f"{live_server}/t/{code}")
        phone.locator('form.seats button[value="p1"]').click()
        phone.locator("[data-take-over] button").click()
        phone.wait_for_url(f"{live_server}/t/{code}/seat/wait")  # reached by a redirect, which no route sees:
        with phone.expect_response(lambda r: r.url.endswith("/push")):  # loaded again, without the refresh
            phone.goto(f"{live_server}/t/{code}/seat/wait")
        if answer == "refuse":
            status, body = request("POST", f"{live_server}/api/tables/{code}/seats/p1/refuse",
                                   {"host_token": HOSTS[code]})
            assert status == 200, body
            phone.wait_for_url(f"{live_server}/t/{code}", timeout=SYNC_MS)
            expect(phone.locator("[data-seat-lost]")).to_contain_text("turned down")
        else:
            grant(live_server, code, "p1")
            phone.wait_for_url(f"{live_server}/t/{code}/play", timeout=SYNC_MS)
    assert stripped == [True, True]  # both waits were on a page that could not reload itself
