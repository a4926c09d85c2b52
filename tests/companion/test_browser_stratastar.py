"""Real Chromium, two phones at a Stratastar table: a scripted turn (support with Logistics, a battle) shown
on both screens. With STARPNP_SCREENSHOTS=<dir> it also saves the 360x740 phone screens, light and dark."""
from __future__ import annotations


import pytest
from playwright.sync_api import expect

from companion_test_helpers import SYNC_MS, create_table, open_seat, request, save_screens, tap

pytestmark = pytest.mark.browser


def test_a_support_phase_and_a_battle_on_two_phones(live_server, two_phones):
    code = create_table(live_server, "stratastar", [{"name": "Ann", "color": "red"}, {"name": "Bo", "color": "blue"}])["code"]
    ann, bo = two_phones
    open_seat(ann, live_server, code, "p1")
    open_seat(bo, live_server, code, "p2")
    for page in (ann, bo):  # draw phase: every player fills the hand to the max draw size
        expect(page.locator("[data-hero] .label")).to_have_text("Fill your hand to")
        expect(page.locator("[data-hero-number]")).to_have_text("5")

    tap(ann, "Next phase →")
    # a tap made before the phase shows as moved on would be refused as stale (two players, one button)
    expect(ann.locator("[data-phase]")).to_have_text("2/6 Trade")
    tap(ann, "Next phase →")
    expect(ann.locator("[data-must-remove]")).to_contain_text("Remove 2 unsupported fleets")
    expect(bo.locator("[data-phase]")).to_have_text("3/6 Support", timeout=SYNC_MS)
    expect(bo.locator('[data-player="p1"]')).to_contain_text("Fleets 4/2")

    tap(ann, "+1 Logistics card")
    tap(ann, "+1 Logistics card")  # two Build cards count as a colony pair: support 3
    expect(ann.locator("[data-must-remove] [data-hero-number]")).to_have_text("1")
    save_screens(ann, "stratastar")
    tap(ann, "Remove 1")
    expect(ann.locator('[data-hero] [data-hero-number]')).to_have_text("3")
    expect(bo.locator('[data-player="p1"]')).to_contain_text("Fleets 3/3", timeout=SYNC_MS)

    expect(ann.locator("[data-battle-later]")).to_contain_text("battle phase of Ann's turn")
    for _ in range(3):  # build, movement, battle: a battle is fought in the battle phase only
        tap(ann, "Next phase →")
    expect(ann.locator("[data-phase]")).to_have_text("6/6 Battle")
    tap(ann, "Fight Bo")
    expect(bo.locator("[data-battle]")).to_contain_text("Bo defends", timeout=SYNC_MS)
    ann.locator("[data-battle] input[name=fleets]").fill("3")
    ann.locator("[data-battle] input[name=attack]").fill("1")
    tap(ann, "Seal my side")
    expect(ann.locator('[data-sealed="attacker"]')).to_have_text("sealed ✓")
    expect(bo.locator('[data-sealed="attacker"]')).to_have_text("sealed ✓", timeout=SYNC_MS)
    expect(bo.locator("[data-force]")).to_have_count(0)  # no force is shown until both sides are sealed
    bo.locator("[data-battle] input[name=fleets]").fill("2")
    bo.locator("[data-battle] select[name=homeworld]").select_option("1")
    tap(bo, "Seal my side")
    expect(bo.locator('[data-force="defender"]')).to_have_text("6")
    assert bo.locator("[data-battle]").bounding_box()["y"] < bo.locator("[data-hero]").bounding_box()["y"]
    expect(bo.locator("[data-result]")).to_contain_text("Bo wins")
    expect(ann.locator('[data-force="defender"]')).to_have_text("6", timeout=SYNC_MS)
    save_screens(bo, "stratastar-battle")
    tap(ann, "Resolve")
    expect(ann.locator("[data-last-battle]")).to_contain_text("Ann 4 – 6 Bo: Bo won")
    expect(bo.locator("[data-last-battle]")).to_contain_text("Bo won", timeout=SYNC_MS)
    expect(bo.locator('[data-player="p1"]')).to_contain_text("Fleets 0/3")

    status, table = request("GET", f"{live_server}/api/tables/{code}")
    assert table["state"]["empires"]["p1"]["fleets"] == 0 and table["state"]["empires"]["p2"]["fleets"] == 4
