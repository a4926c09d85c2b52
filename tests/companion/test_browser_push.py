"""Real Chromium, two phones: a tap reaches the other phone by server push, not by polling (one process on
SQLite, and two processes on one PostgreSQL database); when push fails the page polls; the tapped control
changes at once and is put back when the server refuses."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from companion_test_helpers import SYNC_MS, ServerProcess, bearer, create_table, open_seat, request, wait_for_polls

pytestmark = pytest.mark.browser

IDLE_MS = 3000  # longer than the 2 s between polls: a page that polls fetches in this time


def counter(page, player: str):
    return page.locator(f'article[data-player="{player}"] .big-number').first


def plus(page, player: str):
    return page.locator(f'article[data-player="{player}"] button.plus').first


def fetches_of_live(page) -> list[str]:
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url) if "/live" in r.url else None)
    return seen


def assert_pushed(ann, ben, base_ann: str, base_ben: str) -> None:
    """Ann taps on her phone; Ben's phone, which has fetched nothing while idle, shows it after one fetch."""
    code = create_table(base_ann)["code"]
    open_seat(ann, base_ann, code, "p1")
    open_seat(ben, base_ben, code, "p2")
    for phone in (ann, ben):
        expect(phone.locator("html")).to_have_attribute("data-push", "open")
    fetched = fetches_of_live(ben)
    ben.wait_for_timeout(IDLE_MS)
    assert fetched == [], "the page polled while its push stream was open"
    plus(ann, "p1").click()
    expect(counter(ben, "p1")).to_have_text("1", timeout=SYNC_MS)
    assert len(fetched) == 1, fetched  # the one fetch the push asked for


def test_a_tap_reaches_the_other_phone_by_push_without_polling(live_server, two_phones):
    assert_pushed(*two_phones, live_server, live_server)


@pytest.mark.server
def test_push_crosses_two_processes_on_one_postgresql_database(postgres_url, tmp_path, two_phones):
    """Ann's phone on one server, Ben's on another (as behind a load balancer): NOTIFY carries the change."""
    servers = [ServerProcess(tmp_path / f"server{i}", extra_args=("--database-url", postgres_url)) for i in (1, 2)]
    try:
        for server in servers:
            server.start(timeout=60)
        assert_pushed(*two_phones, servers[0].base_url, servers[1].base_url)
    finally:
        for server in servers:
            server.stop()


def test_when_push_fails_the_page_polls(live_server, two_phones):
    code = create_table(live_server)["code"]
    ann, ben = two_phones
    ben.route("**/push", lambda route: route.abort())
    open_seat(ann, live_server, code, "p1")
    open_seat(ben, live_server, code, "p2")
    expect(ben.locator("html")).to_have_attribute("data-push", "polling")
    fetched = fetches_of_live(ben)
    plus(ann, "p1").click()
    expect(counter(ben, "p1")).to_have_text("1", timeout=SYNC_MS)
    assert fetched, "the change came without a poll"
    wait_for_polls(ben, 1)
    assert len(fetched) >= 2  # it goes on polling


def test_a_full_server_is_polled(tmp_path, browser):
    """A server with no room for another stream answers 503; the page polls instead."""
    server = ServerProcess(tmp_path / "data", extra_args=("--push-streams", "0")).start()
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        table = create_table(server.base_url)
        assert request("GET", f"{server.base_url}/t/{table['code']}/push")[0] == 503
        page = context.new_page()
        open_seat(page, server.base_url, table["code"], "p1")
        expect(page.locator("html")).to_have_attribute("data-push", "polling")
        request("POST", f"{server.base_url}/api/tables/{table['code']}/events",
                {"type": "add", "player": "p2", "delta": 3}, bearer(table["tokens"]["p2"]))
        expect(counter(page, "p2")).to_have_text("3", timeout=SYNC_MS)
    finally:
        context.close()
        server.stop()


def test_the_tapped_number_changes_at_once_and_a_refusal_puts_it_back(live_server, browser):
    code = create_table(live_server)["code"]
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    try:
        open_seat(page, live_server, code, "p1")
        held = []
        page.route("**/events", lambda route: held.append(route))  # the answer waits in the network
        plus(page, "p1").click()
        expect(counter(page, "p1")).to_have_text("1")  # before any answer
        assert held and "pending" in (plus(page, "p1").get_attribute("class") or "")
        held[0].fulfill(status=400, content_type="text/html",
                        body='<p role="alert">csrf_token: missing or expired form token; reload the page</p>')
        expect(counter(page, "p1")).to_have_text("0")  # refused: put back
        expect(page.locator("#notice")).to_contain_text("expired form token")
        assert "pending" not in (plus(page, "p1").get_attribute("class") or "")
    finally:
        context.close()


def test_the_tv_page_follows_by_push(live_server, browser):
    table = create_table(live_server)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        watch = table["watch_url"].split("/w/", 1)[1]
        page.goto(f"{live_server}/w/{watch}/tv")
        expect(page.locator("html")).to_have_attribute("data-push", "open")
        request("POST", f"{live_server}/api/tables/{table['code']}/events",
                {"type": "add", "player": "p1", "delta": 4}, bearer(table["tokens"]["p1"]))
        expect(page.locator('[data-score-player="p1"] [data-score]')).to_have_text("4", timeout=SYNC_MS)
    finally:
        context.close()
