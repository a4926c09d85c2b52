"""Real Chromium, two phones on a Starship Catan table: one scripted turn (set-up module, production by name
and its one-tap collect, a flight, storage, a pirate fight) shows on both screens, in our edition's words.

Set STARPNP_SCREENSHOTS=<dir> to keep 360x740 light and dark screenshots of the table page there
(docs/screenshots/starship_catan-*.png were made this way).
"""
from __future__ import annotations


import pytest
from playwright.sync_api import expect

from companion_test_helpers import biggest_texts, create_table, open_seat, request, save_screens

pytestmark = pytest.mark.browser

PLAYERS = [{"name": "Ann", "color": "red"}, {"name": "Bo", "color": "blue"}]
def row(page, player: str, label: str):
    return page.locator(f'[data-player="{player}"] [data-row="{label}"]')


def test_a_flight_turn_on_two_phones(live_server, two_phones):
    code = create_table(live_server, "starship_catan", PLAYERS)["code"]
    ann, bo = two_phones
    open_seat(ann, live_server, code, "p1")
    open_seat(bo, live_server, code, "p2")
    expect(bo.locator('[data-player="p1"] [data-vp]')).to_have_text("0")

    ann.locator('[data-module="research"]').get_by_role("button", name="Start", exact=True).click()
    expect(ann.locator('[data-module="research"] strong')).to_have_text("I")
    ann.locator("[data-yellow]").get_by_role("button", name="4", exact=True).click()
    expect(ann.locator("[data-speed]")).to_have_text("4")
    expect(ann.locator("[data-production]")).to_contain_text("Die 4: your Research Module makes 1 Science.")
    ann.get_by_role("button", name="Collect 1 Science").click()
    expect(row(ann, "p1", "Science").locator("[data-value]")).to_have_text("2 / 4")
    expect(ann.locator("[data-collected]")).to_have_text("Die 4: collected into your storage.")
    expect(bo.locator("[data-their-production]")).to_contain_text("Research Module makes 1 Science · collected",
                                                                  timeout=3000)
    ann.locator("[data-ship] summary").click()  # fame, friendship, boosters, cannons: folded
    row(ann, "p1", "Boosters").locator("button.plus").click()
    expect(ann.locator("[data-speed]")).to_have_text("5")
    expect(bo.locator("[data-speed]")).to_have_text("5", timeout=3000)  # die 4 + 1 booster

    crystal = row(ann, "p1", "Crystal")
    for expected in ("1 / 2", "2 / 2"):
        crystal.locator("button.plus").click()
        expect(crystal.locator("[data-value]")).to_have_text(expected)
    crystal.locator("button.plus").click()  # a third one does not fit in storage
    expect(ann.get_by_role("alert")).to_contain_text("above the limit of 2")
    expect(crystal.locator("[data-value]")).to_have_text("2 / 2")

    for _ in range(3):
        row(ann, "p1", "Friendship").locator("button.plus").click()
    expect(row(ann, "p1", "Friendship").locator("[data-value]")).to_have_text("3")
    expect(bo.locator('[data-card="friend_of_the_people"]')).to_contain_text("Ann", timeout=3000)
    expect(bo.locator('[data-player="p1"] [data-vp]')).to_have_text("1")
    expect(bo.locator('[data-player="p1"]')).to_contain_text("Crystal 2/2")
    expect(bo.locator(".history")).to_contain_text("Ann +1 Crystal")

    bo.locator("[data-pirate] summary").click()
    bo.locator('select[name="pirate"]').select_option(label="Grey Lantern · 6")
    bo.locator('form:has(select[name="pirate"]) input[name="blue"]').fill("5")
    bo.get_by_role("button", name="Fight", exact=True).click()
    expect(ann.locator("[data-fight]")).to_contain_text("Bo lost to Grey Lantern", timeout=3000)
    expect(ann.locator("[data-fight]")).to_contain_text("blue 5 + cannons 0 = 5 against 6 · lost: give 2 resources")

    status, table = request("GET", f"{live_server}/api/tables/{code}")
    assert table["derived"]["players"]["p1"]["vp"] == 1
    assert table["derived"]["flight"]["speed"] == 5
    assert "5" in biggest_texts(ann)  # the flight speed is among the biggest numbers on the screen
    save_screens(ann, "starship_catan")


def test_a_roll_whose_goods_have_no_room_says_they_are_lost(live_server, browser):
    """Trade goods start full (2 of 2): the trade module's roll makes 1 Trade Goods that does not fit, and the
    phone says it is lost rather than reading like a gain."""
    table = create_table(live_server, "starship_catan", PLAYERS)
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    try:
        open_seat(page, live_server, table["code"], "p1")
        page.locator('[data-module="trade"]').get_by_role("button", name="Start", exact=True).click()
        page.locator("[data-yellow]").get_by_role("button", name="3", exact=True).click()
        production = page.locator("[data-production]")
        expect(production).to_contain_text("makes 1 Trade Goods, lost: no room in Trade Goods storage.")
        assert production.get_by_role("button").count() == 0 and "ollected" not in production.inner_text()
    finally:
        context.close()
