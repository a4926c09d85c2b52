"""Real Chromium, two phones on A Handful of Stars: a turn, then the rulebook's Berylith combat tapped out.

Set STARPNP_SCREENSHOTS=<dir> to keep 360x740 light and dark screenshots of the table page there
(docs/screenshots/handful_of_stars-*.png were made this way).
"""
from __future__ import annotations


import pytest
from playwright.sync_api import expect

from companion_test_helpers import biggest_texts, create_table, open_seat, request, save_screens, tap

pytestmark = pytest.mark.browser

PLAYERS = [{"name": "Red", "color": "red"}, {"name": "Blue", "color": "blue"}]


def test_a_turn_and_the_berylith_combat_on_two_phones(live_server, two_phones):
    code = create_table(live_server, "handful_of_stars", PLAYERS)["code"]
    red, blue = two_phones
    open_seat(red, live_server, code, "p1")
    open_seat(blue, live_server, code, "p2")
    expect(blue.locator('[data-player="p1"] [data-vp]')).to_have_text("36")
    expect(red.locator("[data-shuffles]")).to_have_text("0")

    # Red's turn: a shuffle, an outpost, then the turn passes to Blue
    tap(red, "Shuffled +1")
    tap(red, "Outpost +3")
    expect(red.locator('[data-player="p1"] [data-vp]')).to_have_text("39")
    tap(red, "End Red's turn")
    expect(blue.locator("[data-shuffles]")).to_have_text("1", timeout=3000)
    expect(blue.locator("[data-turn]")).to_contain_text("Blue's turn")
    expect(blue.locator('[data-player="p1"] [data-vp]')).to_have_text("39")
    expect(blue.locator('[data-player="p1"] [data-systems]')).to_contain_text("11 systems")

    # Blue moves two fleets into Red's colony, held by one star base: 6 against 5
    blue.get_by_text("Start a combat").click()
    form = blue.locator("[data-start-combat] form")
    form.locator('input[name="fleets"]').fill("2")
    form.locator('select[name="system"]').select_option("colony")
    form.locator('input[name="defender_star_bases"]').fill("1")
    form.get_by_role("button", name="Start the combat").click()
    expect(red.locator("[data-needed]")).to_contain_text("Red needs 1 more", timeout=3000)
    expect(red.locator("[data-marker]")).to_have_text("1")
    assert biggest_texts(red) == ["1"]  # the tug-of-war marker is the biggest number on screen

    tap(red, "+1 fleet (3)")
    tap(red, "+1 fleet (3)")
    expect(red.locator("[data-ahead]")).to_have_text("Red")
    expect(blue.locator("[data-marker]")).to_have_text("5", timeout=3000)
    tap(blue, "+1 fleet (3)")
    expect(blue.locator("[data-marker]")).to_have_text("2")  # 9 against Red's 11: still behind
    blue.get_by_role("spinbutton", name="Matter").fill("3")
    blue.get_by_role("button", name="Matter", exact=True).click()
    expect(red.locator("[data-marker]")).to_have_text("1", timeout=3000)
    expect(red.locator("[data-ahead]")).to_have_text("Blue")

    save_screens(red, "handful_of_stars")

    tap(red, "Give up: Blue wins")
    for page in (red, blue):
        casualties = page.locator("[data-casualties]")
        expect(casualties).to_contain_text("Red loses 2 of 3 (1 star base cannot retreat), 1 retreats", timeout=3000)
        expect(casualties).to_contain_text("Blue loses 1 of 3")
        expect(page.locator('[data-player="p1"] [data-vp]')).to_have_text("34")  # 39 − 5 for the colony
    status, table = request("GET", f"{live_server}/api/tables/{code}")
    assert table["derived"]["combat"]["result"] == {"winner": "attacker", "how": "fight", "retreated": None}
