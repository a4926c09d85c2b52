"""Real Chromium, two phones, flaky network: taps made while the server is down are kept in the phone's
queue and stored exactly once when it is back; a tap whose answer was lost is not stored twice."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion_test_helpers import ServerProcess, create_table, open_seat, request

pytestmark = [pytest.mark.browser, pytest.mark.server]
BACK_MS = 20_000  # the longest retry back-off (8 s) plus a poll, with room to spare


def counter(page, player: str):
    return page.locator(f'article[data-player="{player}"] .big-number').first


def failed_taps(page) -> list[str]:
    """The URL of every tap the page sends from now on that gets no answer, as it comes."""
    failed: list[str] = []
    page.on("requestfailed", lambda r: failed.append(r.url) if r.method == "POST" else None)
    return failed


def plus(page, player: str):
    return page.locator(f'article[data-player="{player}"] button.plus').first


def events(base_url: str, code: str) -> list[dict]:
    status, body = request("GET", f"{base_url}/api/tables/{code}/events")
    assert status == 200, body
    return body["events"]


def test_taps_made_while_the_server_is_down_arrive_once_when_it_is_back(tmp_path, two_phones):
    server = ServerProcess(tmp_path / "data").start()
    try:
        code = create_table(server.base_url)["code"]
        ann, ben = two_phones
        open_seat(ann, server.base_url, code, "p1")
        open_seat(ben, server.base_url, code, "p2")
        tries = {phone: failed_taps(phone) for phone in (ann, ben)}
        server.stop()
        for _ in range(5):
            plus(ann, "p1").click()
            plus(ben, "p2").click()
        for phone in (ann, ben):
            expect(phone.locator("#tap-status")).to_have_text("offline — 5 taps waiting", timeout=BACK_MS)
        # each phone shows its own taps at once, marked as not yet stored; the other's arrive with the server
        expect(counter(ann, "p1")).to_have_text("5")
        expect(counter(ann, "p1")).to_have_class(re.compile(r"\bpending\b"))
        expect(counter(ben, "p1")).to_have_text("0")
        for phone in (ann, ben):  # each phone sends, then tries again after 1 s and 2 s more, in vain
            for _ in range(BACK_MS // 100):
                if len(tries[phone]) >= 3:
                    break
                phone.wait_for_timeout(100)
            assert len(tries[phone]) >= 3, tries[phone]
        server.start()
        for phone in (ann, ben):
            expect(phone.locator("#tap-status")).to_have_text("all saved", timeout=BACK_MS)
            expect(counter(phone, "p1")).to_have_text("5", timeout=BACK_MS)
            expect(counter(phone, "p2")).to_have_text("5", timeout=BACK_MS)
            expect(counter(phone, "p1")).not_to_have_class(re.compile(r"\bpending\b"))
        logged = events(server.base_url, code)
        assert len(logged) == 10 and sorted(e["player"] for e in logged) == ["p1"] * 5 + ["p2"] * 5
    finally:
        server.stop()


def test_a_tap_kept_in_the_queue_survives_a_reload(live_server, two_phones):
    """The queue is in localStorage: a tap that could not be sent goes out after the page is reloaded (the
    network drops it here, so the session's server serves)."""
    code = create_table(live_server)["code"]
    ann = two_phones[0]
    open_seat(ann, live_server, code, "p1")
    ann.route("**/events", lambda route: route.abort())  # the network eats every tap
    plus(ann, "p1").click()
    expect(ann.locator("#tap-status")).to_have_text("offline — 1 tap waiting", timeout=BACK_MS)
    ann.unroute("**/events")
    ann.reload()
    expect(counter(ann, "p1")).to_have_text("1", timeout=BACK_MS)
    assert len(events(live_server, code)) == 1


def test_a_tap_whose_answer_is_lost_is_stored_once(live_server, two_phones):
    """The server commits the tap, then the connection drops before the answer: the phone sends it again
    with the same client_id, and the server answers with the event it already has."""
    code = create_table(live_server)["code"]
    ann = two_phones[0]
    open_seat(ann, live_server, code, "p1")
    lost = []

    def drop_the_first_answer(route):
        if not lost:
            route.fetch()  # reaches the server, which stores the tap...
            lost.append(route.request.post_data)
            route.abort()  # ...but the phone never hears back
        else:
            route.continue_()

    ann.route("**/events", drop_the_first_answer)
    plus(ann, "p1").click()
    expect(counter(ann, "p1")).to_have_text("1", timeout=BACK_MS)
    expect(ann.locator("#tap-status")).to_have_text("all saved", timeout=BACK_MS)
    logged = events(live_server, code)
    assert lost and len(logged) == 1, logged
