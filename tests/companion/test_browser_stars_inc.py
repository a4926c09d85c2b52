"""Real Chromium, two phones at a Stars, Inc. table: a scripted round (environment, harvests, a star, a
conversion, a move against the other player) shown on both screens. With STARPNP_SCREENSHOTS=<dir> it also
saves the 360x740 phone screens, light and dark."""
from __future__ import annotations


import pytest
from playwright.sync_api import expect

from companion_test_helpers import SYNC_MS, bearer, create_table, open_seat, request, save_screens, tap


pytestmark = pytest.mark.browser


def tank(page, name: str):
    return page.locator(f'[data-tank="{name}"]')


def test_a_round_with_harvests_a_star_and_a_move_on_two_phones(live_server, two_phones):
    code = create_table(live_server, "stars_inc", [{"name": "Ann", "color": "red"}, {"name": "Bo", "color": "blue"}],
                        {"max_h": 14})["code"]
    ann, bo = two_phones
    open_seat(ann, live_server, code, "p1")
    open_seat(bo, live_server, code, "p2")
    expect(tank(ann, "H")).to_have_text("6")
    expect(tank(bo, "He")).to_have_text("2")

    ann.locator("[data-round] select[name=environment]").select_option(label="Giant Molecular Cloud · 2 H · 3 actions")
    tap(ann, "Flip the next environment")
    expect(ann.locator("[data-round] h2")).to_have_text("Round 1 of 9 · Giant Molecular Cloud")
    expect(ann.locator("[data-effect]")).to_have_text("This round each pawn in reserve gives 1 H more at harvest")
    expect(bo.locator("[data-harvest]")).to_contain_text("+10 H", timeout=SYNC_MS)  # 2 + two per unplayed pawn

    tap(ann, "Harvest")
    expect(tank(ann, "H")).to_have_text("14")  # 6 + 10, stopped at the entered maximum
    tap(bo, "Harvest")
    expect(tank(bo, "H")).to_have_text("14")
    expect(ann.locator('[data-player="p2"]')).to_contain_text("harvested", timeout=SYNC_MS)

    tap(ann, "Sunlike · 3 H")
    expect(tank(ann, "H")).to_have_text("11")
    tap(ann, "4 H → 1 He")
    expect(tank(ann, "H")).to_have_text("7")
    expect(tank(ann, "He")).to_have_text("3")
    expect(ann.get_by_role("button", name="2 C → 1 pt")).to_be_disabled()  # short of carbon
    expect(bo.locator('[data-player="p1"]')).to_contain_text("H 7 · He 3", timeout=SYNC_MS)

    bo.locator('[data-player="p1"] summary').click()
    tap(bo, "Move their sunlike star · 1 He")
    expect(tank(bo, "He")).to_have_text("1")
    expect(ann.locator("[data-block]")).to_contain_text("Bo moves your star. Block it for 1 Fe? They get back nothing.", timeout=SYNC_MS)
    expect(ann.get_by_role("button", name="Block (1 Fe)")).to_be_disabled()  # no iron to block with
    save_screens(ann, "stars_inc")

    status, table = request("GET", f"{live_server}/api/tables/{code}")
    derived = table["derived"]
    assert derived["players"]["p1"]["tanks"] == {"H": 7, "He": 3, "C": 0, "Fe": 0}
    assert derived["block"]["actor"] == "p2" and derived["block"]["refund"] == {"He": 0}


def test_the_ending_on_two_phones_names_the_right_winner(live_server, two_phones):
    """Rulebook, End of the Game: the final harvest "also allows players to do any element conversions ...
    Whoever has the most points wins!" Ann (1 point) harvests and taps Done first; Bo (no points, 4 C)
    harvests, converts all his carbon (2 points) and taps Done: both phones and the CSV name Bo."""
    table = create_table(live_server, "stars_inc", [{"name": "Ann", "color": "red"}, {"name": "Bo", "color": "blue"}])
    code, ann_token = table["code"], bearer(table["tokens"]["p1"])
    events = [{"type": kind, **fields} for _ in range(9) for kind, fields in (
        ("new_round", {"hydrogen": 2, "actions": 3}), ("end_round", {"unharvested": "skip"}))]
    events += [{"type": "adjust", "player": "p1", "what": "points", "delta": 1},
               {"type": "adjust", "player": "p2", "what": "C", "delta": 4}]  # Ann keeps count for Bo here
    for event in events:
        status, body = request("POST", f"{live_server}/api/tables/{code}/events", {"player": "p1", **event}, ann_token)
        assert status == 201, (event, body)
    ann, bo = two_phones
    open_seat(ann, live_server, code, "p1")
    open_seat(bo, live_server, code, "p2")
    expect(ann.locator("[data-standings]")).to_have_count(0)
    tap(ann, "Harvest")
    tap(ann, "Done: score me")
    expect(bo.locator('[data-player="p1"]')).to_contain_text("harvested", timeout=SYNC_MS)
    tap(bo, "Harvest")
    tap(bo, "All C → pt ×2")
    expect(bo.locator("[data-standings]")).to_have_count(0)  # not over until Bo is done
    tap(bo, "Done: score me")
    for phone in (ann, bo):
        expect(phone.locator("[data-verdict]")).to_contain_text("Bo wins", timeout=SYNC_MS)
    expect(bo.get_by_role("button", name="4 H → 1 He")).to_have_count(0)  # decided: nothing left to convert
    bo.evaluate("window.scrollTo(0, 0)")
    save_screens(bo, "standings-stars_inc")
    status, csv_text = request("GET", f"{live_server}/t/{code}/export.csv")
    header, last = csv_text.splitlines()[0].split(","), csv_text.splitlines()[-1].split(",")
    assert dict(zip(header, last))["score Bo"] == "2" and dict(zip(header, last))["score Ann"] == "1"
