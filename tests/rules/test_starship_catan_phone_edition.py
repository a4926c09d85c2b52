"""The phone knows our printed edition of Starship Catan: resources and modules by the names the set prints,
the yellow die's production offered by name and collected in one tap, builds that pay their printed cost,
a history in words, and logs from before the edition replaying as they were played."""
from __future__ import annotations

import html
import re

import pytest

from companion_test_helpers import sit
from starpnp.companion.replay import LoggedEvent, replay
from starpnp.companion.rules import starship_catan as sc
from table_helpers import PLAYERS, check_panel, derived, ev, new_table, post_events

SEATS = [{"id": f"p{i}", **p} for i, p in enumerate(PLAYERS, 1)]


def text_of(page: str) -> str:
    """What a player reads: the page without its tags, its spaces collapsed."""
    text = html.unescape(re.sub(r"<[^>]+>", " ", page))
    return re.sub(r"\s+", " ", text).replace(" :", ":").replace(" .", ".")


def page_text(client, table: dict, seat: str = "p1") -> str:
    return text_of(client.get(sit(client, table["code"], seat)).get_data(as_text=True))


def choices(page: str, name: str) -> list[str]:
    """The choices of the select called `name` as a player reads them, each after its group's label."""
    select = re.search(rf'<select name="{name}">(.*?)</select>', page, re.S).group(1)
    read, group = [], ""
    for match in re.finditer(r'<optgroup label="([^"]*)"|<option[^>]*>([^<]*)</option>', select):
        if match.group(1) is not None:
            group = html.unescape(match.group(1)) + ": "
        else:
            read.append(group + html.unescape(match.group(2)))
    return read


def history_text(client, table: dict) -> str:
    return text_of(client.get(f"/t/{table['code']}/history").get_data(as_text=True))


def test_resources_and_modules_are_the_editions():
    assert sc.RESOURCE_LABELS == {"goods": "Trade Goods", "science": "Science", "ore": "Ore", "fuel": "Fuel",
                                  "food": "Food", "crystal": "Crystal"}
    assert {key: (m.name, m.die, m.resource, m.amount) for key, m in sc.MODULES.items()} == {
        "command": ("Command Module", 1, "fuel", 1), "logistics": ("Logistics Module", 2, "ore", 1),
        "trade": ("Trade Module", 3, "goods", 1), "research": ("Research Module", 4, "science", 1),
        "cloak": ("Cloak Module", 5, "crystal", 1), "dock": ("Dock Module", 6, "food", 1)}
    assert (sc.START_COLONY.die, sc.START_COLONY.resource) == (6, "ore")
    assert sc.MODULE_EFFECTS["dock"] == {
        1: "Your hangar holds 4 ships instead of 3, and each colony or trading post you found brings 2 Astro.",
        2: "Your hangar holds 5 ships; each colony or trading post brings 3 Astro."}


def test_build_costs_are_the_printed_ones():
    assert {key: (b.label, b.cost) for key, b in sc.BUILDS.items()} == {
        "colony_ship": ("Colony ship", {"food": 1, "ore": 1, "fuel": 1}),
        "trade_ship": ("Trade ship", {"goods": 1, "ore": 1, "fuel": 1}),
        "booster_i": ("Booster I", {"fuel": 2}), "booster_ii": ("Booster II", {"fuel": 2, "crystal": 1}),
        "cannon_i": ("Cannon I", {"ore": 2}), "cannon_ii": ("Cannon II", {"ore": 2, "crystal": 1})}
    assert sc.MODULE_COSTS == {1: {"ore": 1, "crystal": 1, "food": 1}, 2: {"crystal": 1, "food": 1, "science": 2}}


OLD_LOG = [  # a table played before the edition: the four unnamed resources and modules 4-6
    ("resource", {"resource": "resource_a", "delta": 2}), ("resource", {"resource": "resource_d", "delta": 1}),
    ("build_module", {"module": "module_4"}), ("build_module", {"module": "module_6"}),
    ("build_module", {"module": "module_6"}), ("resource", {"resource": "resource_c", "delta": 1}),
]


def test_an_old_log_replays_under_the_new_names():
    events = [LoggedEvent(seq, kind, "p1", payload) for seq, (kind, payload) in enumerate(OLD_LOG, 1)]
    ship = sc.derive(replay(sc.RULES, SEATS, {}, events))["players"]["p1"]
    assert {r: v["amount"] for r, v in ship["resources"].items()} == {
        "goods": 2, "science": 1, "ore": 2, "fuel": 0, "food": 1, "crystal": 1}
    assert ship["modules"]["research"] == 1 and ship["modules"]["dock"] == 2 and ship["vp"] == 1
    names = {p["id"]: p["name"] for p in SEATS}  # the history tells the logged payloads in today's words
    assert [sc.RULES.tell(kind, payload, names) for kind, payload in OLD_LOG[:3]] == [
        "+2 Ore", "+1 Crystal", "builds the next level of the Research Module"]


def test_old_names_are_still_accepted_by_the_api_and_read_in_words(client):
    table = new_table(client, "starship_catan", [ev(kind, **payload) for kind, payload in OLD_LOG])
    ship = derived(client, table)["players"]["p1"]
    assert ship["resources"]["ore"]["amount"] == 2 and ship["modules"]["dock"] == 2
    history = history_text(client, table)
    assert "Ann +2 Ore" in history and "Ann +1 Crystal" in history and "Ann +1 Food" in history
    assert "Ann builds the next level of the Dock Module" in history and "resource" not in history


def test_the_yellow_die_names_what_my_modules_make_and_collect_takes_it(client):
    table = new_table(client, "starship_catan", [ev("build_module", module="research", level=1),
                                                 ev("yellow_die", "p2", value=4)])
    text = page_text(client, table)
    assert "Die 4: your Research Module makes 1 Science." in text
    answers = post_events(client, table, [ev("collect", die=4), ev("collect", die=4), ev("collect", die=3),
                                          ev("collect", "p2", die=4)])
    assert [a.status_code for a in answers] == [201, 422, 409, 422]
    assert answers[1].get_json() == {"error": "die: the production of this 4 is already collected"}
    assert answers[3].get_json() == {"error": "die: nothing to collect on a 4"}
    now = derived(client, table)["players"]
    assert now["p1"]["resources"]["science"]["amount"] == 2 and now["p1"]["collected"]
    assert "Die 4: collected into your storage." in page_text(client, table)
    page = page_text(client, table)
    assert "Level I costs 1 Ore, 1 Crystal, 1 Food; level II 1 Crystal, 1 Food, 2 Science." in page
    assert "Research I · die 4: 1 Science Once a turn in" in page
    assert "Research Module makes 1 Science · collected" in page_text(client, table, "p2")


def test_collect_respects_storage_and_says_what_does_not_fit(client):
    table = new_table(client, "starship_catan", [
        ev("build_module", module="dock", level=1), ev("resource", resource="ore", delta=2),
        ev("resource", resource="food", delta=1), ev("yellow_die", value=6)])
    text = page_text(client, table)
    assert ("Die 6: your Dock Module makes 1 Food; your Homestead colony makes 1 Ore, lost: no room in Ore storage."
            in text)
    assert "Collect 1 Food" in text
    assert post_events(client, table, [ev("collect", die=6)])[0].status_code == 201
    resources = derived(client, table)["players"]["p1"]["resources"]
    assert (resources["food"]["amount"], resources["ore"]["amount"]) == (2, 2)
    full = new_table(client, "starship_catan", [ev("resource", resource="ore", delta=2), ev("yellow_die", value=6)])
    assert post_events(client, full, [ev("collect", die=6)])[0].get_json() == {
        "error": "die: nothing to collect on a 6: storage is full"}


def test_builds_pay_their_printed_cost_all_or_nothing(client):
    table = new_table(client, "starship_catan", [ev("resource", resource="ore", delta=2),
                                                 ev("resource", resource="crystal", delta=1),
                                                 ev("strength", part="cannons", delta=1)])  # a cannon at level I
    text = page_text(client, table)
    assert "Colony ship 1 Food, 1 Ore, 1 Fuel" in text and "Cannon II 2 Ore, 1 Crystal · +1 cannon dot" in text
    answers = post_events(client, table, [ev("build", piece="colony_ship"), ev("build", piece="cannon_ii")])
    assert [a.status_code for a in answers] == [422, 201]
    assert answers[0].get_json() == {
        "error": "piece: a Colony ship costs 1 Food, 1 Ore, 1 Fuel: short of 1 Food, 1 Fuel"}
    ship = derived(client, table)["players"]["p1"]
    assert ship["cannons"] == 2 and ship["resources"]["ore"]["amount"] == ship["resources"]["crystal"]["amount"] == 0
    assert "Ann builds a Cannon II, paying 2 Ore, 1 Crystal" in history_text(client, table)


def test_a_level_ii_tile_needs_a_level_i_one_and_a_new_tile_a_free_slot(client):
    table = new_table(client, "starship_catan", [ev("resource", resource="fuel", delta=2),
                                                 ev("resource", resource="crystal", delta=1)])
    assert post_events(client, table, [ev("build", piece="booster_ii")])[0].get_json() == {
        "error": "piece: a Booster II turns a level I booster over; you have none yet"}
    full = new_table(client, "starship_catan", [ev("strength", part="boosters", delta=3),
                                                ev("resource", resource="fuel", delta=2)])  # one tile at II, one at I
    assert post_events(client, full, [ev("build", piece="booster_i")])[0].get_json() == {
        "error": "piece: every booster tile is built; a Booster I has no tile left"}


def test_a_paid_module_spends_its_level_cost_and_a_second_tap_builds_nothing(client):
    table = new_table(client, "starship_catan", [
        ev("build_module", module="command", level=1),  # the free one of the set-up
        *[ev("resource", resource=r, delta=1) for r in ("ore", "crystal", "food")]])
    assert "costs 1 Ore, 1 Crystal, 1 Food" in page_text(client, table)
    answers = post_events(client, table, [ev("build_module", module="cloak", level=1, pay="yes"),
                                          ev("build_module", module="cloak", level=1, pay="yes"),
                                          ev("build_module", module="cloak", level=2, pay="yes")])
    assert [a.status_code for a in answers] == [201, 409, 422]
    assert answers[2].get_json() == {
        "error": "pay: the Cloak Module II costs 1 Crystal, 1 Food, 2 Science: short of 1 Crystal, 1 Food, 1 Science"}
    ship = derived(client, table)["players"]["p1"]
    assert ship["modules"]["cloak"] == 1
    assert [ship["resources"][r]["amount"] for r in ("ore", "crystal", "food")] == [0, 0, 0]


def test_history_reads_in_the_editions_words(client):
    table = new_table(client, "starship_catan", [
        ev("resource", resource="goods", delta=-1), ev("build_module", module="research", level=1),
        ev("build_module", module="research", level=2), ev("yellow_die", value=4), ev("collect", die=4)])
    history = history_text(client, table)
    for line in ("Ann -1 Trade Goods", "Ann builds the next level of the Research Module",
                 "Ann rolls 4 on the yellow die", "Ann collects what the yellow die's 4 produces"):
        assert line in history
    assert "goods" not in history and "research" not in history


def test_a_pirate_fought_by_name_brings_its_card(client):
    assert [(p["name"], p["strength"]) for p in sc.PIRATES.values()][:2] == [("Rust Raiders", 3), ("Dustjaw Crew", 4)]
    table = new_table(client, "starship_catan", [ev("strength", part="cannons", delta=2)])
    page = client.get(sit(client, table["code"], "p1")).get_data(as_text=True)
    assert "Grey Lantern · 6" in choices(page, "pirate")  # picked by name and strength, its card's numbers beside
    assert "Grey Lantern · strength 6 · ransom 5 Astro" in text_of(page)
    answers = post_events(client, table, [ev("fight_pirate", pirate="grey_lantern", blue=3),
                                          ev("fight_pirate", pirate="blackbeard", blue=3),
                                          ev("fight_pirate", pirate="ironmaw_fleet", blue=1)])
    assert [a.status_code for a in answers] == [201, 400, 201]  # no such card: the request is malformed
    assert answers[1].get_json()["error"].startswith("pirate: expected one of rust_raiders, dustjaw_crew")
    fight = derived(client, table)["last_fight"]
    assert (fight["name"], fight["total"], fight["pirate"], fight["won"]) == ("Ironmaw Fleet", 3, 8, False)
    assert "Ann lost to Ironmaw Fleet: blue 1 + cannons 2 = 3 against 8 · lost: give 2 resources + 3 Astro" in (
        page_text(client, table, "p2"))
    assert "Ann fights Grey Lantern (blue die 3)" in history_text(client, table)


@pytest.mark.parametrize("events", [
    [], [ev("build_module", module="research", level=1), ev("yellow_die", "p2", value=4)],
    [ev("build_module", module="dock", level=1), ev("resource", resource="ore", delta=2), ev("yellow_die", value=6),
     ev("collect", die=6)],
], ids=["set-up", "production", "collected"])
def test_panel_renders_and_every_form_posts_declared_fields(client, events):
    table = new_table(client, "starship_catan", events)
    assert check_panel(client, "starship_catan", table) > 0


def test_trade_at_a_planet_by_name_moves_its_resource_and_astro(client):
    assert sc.MARKETS["lowmarket"] == {"name": "Lowmarket", "kind": "Trade planet", "resource": "crystal", "price": 3,
                                       "sell": 2, "buy_only": None}  # a sale pays the printed sell discount less
    table = new_table(client, "starship_catan", [])
    page = client.get(sit(client, table["code"], "p1")).get_data(as_text=True)
    assert "Where (Astro to buy/sell)" in text_of(page)  # the choices are grouped by what they trade
    assert {"Crystal: Lowmarket · 3/2", "Crystal: Envoy Hall · buy 1 at 2"} <= set(choices(page, "market"))
    answers = post_events(client, table, [
        ev("trade", market="lowmarket", deal="buy", count=2), ev("trade", market="lowmarket", deal="buy"),
        ev("trade", market="envoy_hall", deal="sell"), ev("trade", market="accord_rest", deal="buy", count=2),
        ev("trade", market="galactic_library", deal="buy", count=3), ev("trade", market="shardmarket", deal="sell")])
    assert [a.status_code for a in answers] == [201, 422, 422, 422, 201, 201]
    assert [a.get_json()["error"] for a in answers[1:4]] == [
        "count: Crystal would rise to 3, above the limit of 2", "deal: Envoy Hall buys nothing",
        "count: Accord Rest sells only 1"]
    ship = derived(client, table)["players"]["p1"]
    assert ship["astro"] == 25 - 6 - 9 + 1
    assert (ship["resources"]["crystal"]["amount"], ship["resources"]["science"]["amount"]) == (1, 4)
    history = history_text(client, table)
    assert "Ann buys 2 Crystal at Lowmarket (buy 3, sell 2 Astro each)" in history
    assert "Ann sells 1 Crystal at Shardmarket (buy 2, sell 1 Astro each)" in history
