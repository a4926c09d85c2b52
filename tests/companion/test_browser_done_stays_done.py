"""Real Chromium, two phones (issue #34): what is done stays done. Once both battle sides are revealed neither
phone can undo its side (the page says why in one line, where Undo was), and two taps on End turn end one
turn: the second lands on a question for the next player's turn, not on their turn."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion_test_helpers import STRATASTAR_TO_BATTLE, SYNC_MS, bearer, create_table, open_seat, request

pytestmark = pytest.mark.browser

PLAYERS = [{"name": "Ann", "color": "red"}, {"name": "Ben", "color": "blue"}]


def events(base_url: str, code: str) -> list[dict]:
    return request("GET", f"{base_url}/api/tables/{code}/events")[1]["events"]


def seal(page, **counts) -> None:
    form = page.locator("form:has(button:text('Seal my side'))")
    for name, value in counts.items():
        form.locator(f"input[name={name}]").fill(str(value))
    form.get_by_role("button", name="Seal my side").click()
    expect(page.locator("#tap-status")).to_have_attribute("data-state", "saved")


def test_after_the_reveal_neither_phone_can_undo_its_side(live_server, two_phones):
    """Rulebook (Stratastar), Battle phase: "Players simultaneously reveal the Attack cards they are using ...
    This is done once. More Attack cards cannot be added later." A player who lost 1 v 5 once undid, resealed
    with more Attack cards and won."""
    table = create_table(live_server, "stratastar", PLAYERS)
    code = table["code"]
    for event in [*STRATASTAR_TO_BATTLE, {"type": "battle_start", "player": "p1", "defender": "p2"}]:
        assert request("POST", f"{live_server}/api/tables/{code}/events", event, bearer(table["tokens"]["p1"]))[0] == 201
    ann, ben = two_phones
    open_seat(ann, live_server, code, "p1")
    open_seat(ben, live_server, code, "p2")
    seal(ann, fleets=1, attack=0)
    expect(ann.get_by_role("button", name="Undo my last action")).to_be_visible()  # before the reveal: hers
    seal(ben, fleets=4, attack=1)
    for phone in (ann, ben):
        expect(phone.locator("[data-undo-stands]")).to_have_text(
            "Undo: both sides are revealed, and Attack cards are revealed once (the rulebook: none added later), "
            "so your side stands: settle the battle.", timeout=SYNC_MS)
        expect(phone.get_by_role("button", name="Undo my last action")).to_have_count(0)
        expect(phone.get_by_role("button", name="Call off")).to_have_count(0)
    # a stale page's Undo (or a script) is refused by the server too, and changes nothing
    status, body = request("POST", f"{live_server}/api/tables/{code}/undo", {}, bearer(table["tokens"]["p2"]))
    assert status == 401  # the API token was given over to Ben's phone
    answer = ann.request.post(f"{live_server}/t/{code}/undo", form={
        "csrf_token": ann.locator("input[name=csrf_token]").first.get_attribute("value")})
    assert answer.status == 422 and "your side stands" in answer.text()
    assert [e["type"] for e in events(live_server, code)].count("undo") == 0
    ann.get_by_role("button", name="Resolve").click()
    expect(ben.locator("[data-last-battle]")).to_contain_text("Ben won", timeout=SYNC_MS)


@pytest.mark.parametrize("between_ms", [600, 1000])
def test_two_taps_on_end_turn_end_one_turn(live_server, browser, between_ms):
    """Rulebook (A Handful of Stars), Turn structure: the active player takes two actions and refills the hand;
    then play passes on. Taps 0.6 s or 1.0 s apart once ended Ann's turn and Ben's: the second landed on "End
    Ben's turn". Here the first tap's answer arrives 150 ms before the second tap: the double-tap guard
    counts from when the button changed under the finger, so the second tap does nothing at all; and what
    is under the finger on Ann's phone is a question about Ben's turn, which only the server would refuse."""
    table = create_table(live_server, "handful_of_stars", PLAYERS)
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        open_seat(page, live_server, table["code"], "p1")
        held = []
        page.route("**/events", lambda route: held.append(route) if not held else route.continue_())
        box = page.get_by_role("button", name="End Ann's turn").bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.click(x, y)
        page.wait_for_timeout(between_ms - 150)
        held[0].continue_()
        expect(page.locator("summary", has_text="End Ben's turn")).to_be_visible()
        page.mouse.click(x, y)
        expect(page.locator("#tap-status")).to_have_attribute("data-state", "saved")
        page.wait_for_timeout(500)
        assert [(e["type"], e["player"]) for e in events(live_server, table["code"])] == [("end_turn", "p1")]
        assert page.locator("details[data-ask-for]").get_attribute("open") is None  # not even the question
        assert page.locator("#notice").is_hidden()
        # Ann may still end Ben's turn for him, asking first: logged as Ann for Ben
        page.locator("summary", has_text="End Ben's turn").click()
        page.get_by_role("button", name="Yes, for Ben").click()
        expect(page.locator("summary", has_text="End Ann's turn")).to_have_count(0)
        expect(page.get_by_role("button", name="End Ann's turn")).to_be_visible(timeout=SYNC_MS)
        last = events(live_server, table["code"])[-1]
        assert (last["type"], last["player"], last["by"]) == ("end_turn", "p2", "p1")
    finally:
        context.close()
