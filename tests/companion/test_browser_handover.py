"""Real Chromium, phones at one table (issue #42): a seat changes hands safely.

D3: the host's second browser is given Ann's seat mid-battle by the host's own phone and reads nothing of her
sealed side, and cannot undo it, until the reveal. D2: the host's phone dies; once it has been silent, two other
seated players' phones approve giving its seat back to the new phone, whose code they show, and the history
says who (issue #49). D1: two phones ask for
one seat; the second is given it by its id, and the first is told.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion_test_helpers import HOSTS, STRATASTAR_TO_BATTLE, SYNC_MS, bearer, create_table, join, request

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
SECRET = 47  # Ann's Attack cards: no other number on the page


def reads_secret(text: str) -> bool:
    """Ann's Attack cards in a page or an export: a form's value, the JSON payload, the CSV's details."""
    return bool(re.search(rf'value="{SECRET}"|"attack": ?{SECRET}\b|attack={SECRET}\b', text))


def host_a_table(page, base_url: str, game: str, names: list[str]) -> str:
    """Create a table on the home page (this phone is its host); returns its code."""
    page.goto(f"{base_url}/?game={game}")
    form = page.locator("#new-table form")
    for number, name in enumerate(names, start=1):
        form.locator(f"input[name=name{number}]").fill(name)
    form.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r"/t/[0-9A-Z]{4}-[0-9A-Z]{4}$"))
    return page.url.rsplit("/", 1)[1]


def sit(page, base_url: str, code: str, player: str) -> None:
    page.goto(f"{base_url}/t/{code}")
    page.locator(f'form.seats button[value="{player}"]').click()
    page.wait_for_url(f"{base_url}/t/{code}/play")
    page.wait_for_selector("html[data-live=ready]", state="attached")


def ask_for(page, base_url: str, code: str, player: str, name: str) -> str:
    """Ask for a held seat from the lobby; returns the code the waiting page shows."""
    page.goto(f"{base_url}/t/{code}")
    page.locator(f'form.seats button[value="{player}"]').click()
    page.locator("[data-take-over]").get_by_role("button", name=f"Ask for {name}'s seat").click()
    page.wait_for_url(f"{base_url}/t/{code}/seat/wait")
    shown = page.locator("[data-request-code]").text_content()
    assert re.fullmatch(r"[0-9]{4}", shown)
    return shown


def test_the_hosts_second_browser_given_anns_seat_mid_battle_reads_nothing_sealed(live_server, browser, two_phones):
    """D3: Ben is the host and Ann's opponent. Ann seals 3 fleets and 47 Attack; Ben asks for Ann's seat from a
    second browser and gives it from his own phone. That browser plays as Ann but reads only that her side is
    sealed, and Undo says it stands; once Ben seals his side both are shown, there too."""
    ben, second = two_phones
    code = host_a_table(ben, live_server, "stratastar", ["Ann", "Ben"])
    sit(ben, live_server, code, "p2")
    ann = join(live_server, code, "p1")  # Ann's phone, through the API
    for event in [*STRATASTAR_TO_BATTLE, {"type": "battle_start", "defender": "p2"},
                  {"type": "battle_side", "fleets": 3, "attack": SECRET}]:
        status, body = request("POST", f"{live_server}/api/tables/{code}/events", {**event, "player": "p1"}, bearer(ann))
        assert status == 201, body
    shown = ask_for(second, live_server, code, "p1", "Ann")
    card = ben.locator('[data-seat-request="p1"]')
    expect(card.locator("[data-request-code]")).to_have_text(shown, timeout=SYNC_MS)  # the same code on both
    expect(card).to_contain_text("Chrome")  # and the asking phone's browser
    card.get_by_role("button", name="Give the seat").click()
    second.wait_for_url(f"{live_server}/t/{code}/play", timeout=SYNC_MS)
    second.wait_for_selector("html[data-live=ready]", state="attached")
    expect(second.locator("[data-undo-stands]")).to_contain_text("sealed on the phone that held the seat before")
    expect(second.locator('[data-sealed="attacker"]')).to_have_text("sealed ✓")
    expect(second.locator("form:has(button:text('Seal my side'))")).to_have_count(0)  # Ann's side is in
    for path in ("/play", "/history", "/export.json", "/export.csv"):
        assert not reads_secret(second.request.get(f"{live_server}/t/{code}{path}").text()), path
    assert not reads_secret(second.content())
    ben.goto(f"{live_server}/t/{code}/play")
    form = ben.locator("form:has(button:text('Seal my side'))")
    form.locator("input[name=attack]").fill("5")
    form.get_by_role("button", name="Seal my side").click()
    expect(second.locator('[data-force="attacker"]')).to_be_visible(timeout=SYNC_MS)  # revealed: shown to all
    assert reads_secret(second.request.get(f"{live_server}/t/{code}/export.csv").text())


def silence_the_host(data_dir, code: str) -> None:
    """The host's phone was last seen longer ago than HOST_SILENT_AFTER: its row in the server's own database
    says so (the server reads it there on every answer)."""
    import sqlite3

    from starpnp.companion.storage import HOST_SILENT_AFTER

    with sqlite3.connect(data_dir / "companion.sqlite3", timeout=30) as db:
        db.execute("UPDATE seats SET seen_at = seen_at - ?, created_at = created_at - ? WHERE player = 'host' AND "
                   "table_id = (SELECT id FROM tables WHERE code = ?)",
                   (HOST_SILENT_AFTER + 1, HOST_SILENT_AFTER + 1, code.replace("-", "")))


def test_with_the_hosts_phone_silent_two_other_players_give_its_seat_back(tmp_path, browser, two_phones):
    """D2 (issue #49): Ben's phone (the host's) dies and stays silent. His new phone asks for Ben's seat; Cat's
    and Ann's phones list the request with the code the new phone shows, and it takes both their approvals;
    the history names both."""
    from companion_test_helpers import ServerProcess

    cat, new_ben = two_phones
    server = ServerProcess(tmp_path / "data").start()
    base = server.base_url
    try:
        hosting, seated = browser.new_context(**PHONE), browser.new_context(**PHONE)
        ben, ann = hosting.new_page(), seated.new_page()
        code = host_a_table(ben, base, "generic", ["Ann", "Ben", "Cat"])
        sit(ben, base, code, "p2")
        sit(cat, base, code, "p3")
        sit(ann, base, code, "p1")
        hosting.close()  # the host's battery is flat
        silence_the_host(server.data_dir, code)
        shown = ask_for(new_ben, base, code, "p2", "Ben")
        for phone, approved in ((cat, "1 of 2 players approved, you among them."), (ann, None)):
            card = phone.locator('[data-seat-request="p2"]')
            expect(card.locator("[data-request-code]")).to_have_text(shown, timeout=SYNC_MS)
            expect(card.get_by_role("button").first).to_have_text("Refuse")  # turning down comes first
            card.get_by_role("button", name="Approve").click()
            if approved:
                expect(phone.locator("[data-approvals]")).to_have_text(approved, timeout=SYNC_MS)
        new_ben.wait_for_url(f"{base}/t/{code}/play", timeout=SYNC_MS)
        new_ben.locator('article[data-player="p2"] button.plus').first.click()
        expect(new_ben.locator('article[data-player="p2"] .big-number').first).to_have_text("1")
        cat.goto(f"{base}/t/{code}/history")
        expect(cat.locator("[data-handover]").last).to_contain_text(
            f"Cat and Ann gave Ben's seat to a new phone (it showed {shown})")
        seated.close()
    finally:
        server.stop()


def test_the_hosts_lobby_shows_a_request_at_once_with_keep_it_first(live_server, two_phones):
    """Issue #49: the host's phone, still on the lobby (showing the QR code), is told of a request for Ann's
    seat at once (its push stream reloads it); "Keep it" is the first button, and it keeps the seat."""
    host, _ = two_phones
    code = host_a_table(host, live_server, "generic", ["Ann", "Ben"])
    host.wait_for_selector("html[data-live=ready]", state="attached")
    ann = join(live_server, code, "p1")
    status, asked = request("POST", f"{live_server}/api/tables/{code}/join", {"player": "p1", "take_over": True})
    assert status == 202
    card = host.locator('[data-seat-request="p1"]')
    expect(card.locator("[data-request-code]")).to_have_text(asked["code"], timeout=SYNC_MS)
    expect(card.get_by_role("button").first).to_have_text("Keep it")
    card.get_by_role("button", name="Keep it").click()
    expect(host.locator('[data-seat-request="p1"]')).to_have_count(0, timeout=SYNC_MS)
    assert request("GET", f"{live_server}/api/tables/{code}", None, bearer(ann))[0] == 200  # Ann keeps it
    assert request("GET", f"{live_server}/api/tables/{code}", None, bearer(asked["token"]))[0] == 401


def test_two_phones_ask_for_one_seat_and_the_second_is_given_it_by_its_id(live_server, two_phones):
    """D1: a stranger asks for Ann's seat first, Ann's new phone second. The host lists both (each with the code
    its phone shows) and gives the seat to the one showing Ann's code; the stranger's phone is told."""
    table = create_table(live_server, "generic", [{"name": "Ann"}, {"name": "Ben"}])
    code = table["code"]
    stranger, ann = two_phones
    stranger_code = ask_for(stranger, live_server, code, "p1", "Ann")
    ann_code = ask_for(ann, live_server, code, "p1", "Ann")
    status, listed = request("GET", f"{live_server}/api/tables/{code}/seats/p1/requests", None, bearer(HOSTS[code]))
    assert status == 200 and [r["code"] for r in listed["requests"]] == [stranger_code, ann_code]
    chosen = next(r["id"] for r in listed["requests"] if r["code"] == ann_code)
    status, body = request("POST", f"{live_server}/api/tables/{code}/seats/p1/grant",
                           {"request": chosen, "host_token": HOSTS[code]})
    assert status == 200 and body["request"] == chosen
    ann.wait_for_url(f"{live_server}/t/{code}/play", timeout=SYNC_MS)
    stranger.wait_for_url(f"{live_server}/t/{code}", timeout=SYNC_MS)
    expect(stranger.locator("[data-seat-lost]")).to_have_text(
        "Ann's seat was given to another phone that asked for it, not this one.")
