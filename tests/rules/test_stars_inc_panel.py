"""The Stars, Inc. table panel in-process: it renders in every stage of the game for players and spectators,
its forms post only declared fields, and posting any of them never fails with 500."""
from __future__ import annotations

import pytest

from companion_test_helpers import sit
from table_helpers import TRANSPORT, check_panel, derived, ev, event_forms, new_table

ROUND = ev("new_round", hydrogen=3, actions=2)  # a card typed in: prices as printed
CARDS = ["Giant Molecular Cloud", "Superluminous Supernova", "Overdensity", "Stroemgren Sphere", "Time Stasis",
         "Time Vortex", "Overcrowding", "Protoplanetary Disk", "Tidal Stream"]
BOARD = [ev("board", piece=stage, delta=1, owner=owner) for owner in ("p1", "p2")
         for stage in ("blue_giant", "hypergiant", "red_giant", "white_dwarf")]
RICH = [*BOARD, ev("board", piece="rocky", delta=1), ev("board", piece="gas", delta=1),
        ev("adjust", what="He", delta=9), ev("adjust", what="Fe", delta=3), ev("adjust", "p2", what="Fe", delta=1)]


def text(client, url: str) -> str:
    """The page with its whitespace collapsed, as a reader sees it."""
    return " ".join(client.get(url).get_data(as_text=True).split())


def rounds(count):
    """`count` rounds, one of our cards each, in the order above."""
    return [e for card in CARDS[:count] for e in (ev("new_round", environment=card), ev("end_round", unharvested="skip"))]


def card(name):
    return ev("new_round", environment=name)


SITUATIONS = {
    "before the first round": ([], {}),
    "mid round, a move to block": ([*RICH, ROUND, ev("harvest", rocky_c=2),
                                    ev("move_star", owner="p2", star="red_giant")], {"max_he": 12}),
    "two white dwarfs to block": ([*RICH, ROUND, ev("merge", merge="white_dwarfs", first="p1", second="p2")], {}),
    "final harvest": (rounds(9), {}),
    "final conversions": ([*rounds(9), ev("harvest"), ev("harvest", "p2"), ev("done")], {}),
    "game over": ([*rounds(9), ev("harvest"), ev("harvest", "p2"), ev("done"), ev("done", "p2")], {}),
    "under Time Stasis": ([*RICH, card("Time Stasis")], {}),
    "under Time Vortex, stars to push two stages": (
        [*RICH, ev("board", piece="red_giant", delta=-1), ev("board", piece="sunlike", delta=1), card("Time Vortex")], {}),
    "under Tidal Stream": ([*RICH, card("Tidal Stream")], {}),
    "another edition's cards": ([ev("new_round", hydrogen=4, actions=3, environment="Time Stasis")], {"edition": "own"}),
    "advanced tie round": ([ROUND, ev("adjust", what="points", delta=30), ev("adjust", "p2", what="points", delta=30),
                            ev("end_round", unharvested="skip"), ev("harvest"), ev("harvest", "p2"), ev("done"), ev("done", "p2")],
                           {"mode": "advanced"}),
}


@pytest.mark.parametrize("situation", SITUATIONS)
def test_panel_renders_and_every_form_posts_declared_fields(client, situation):  # noqa: F811
    events, options = SITUATIONS[situation]
    posted = check_panel(client, "stars_inc", new_table(client, "stars_inc", events, options))
    assert (posted > 0) == (situation != "game over")  # a decided game offers nothing more to do


def test_panel_says_who_won_and_what_a_block_refunds(client):  # noqa: F811
    over = new_table(client, "stars_inc", [*rounds(9), ev("adjust", what="points", delta=2), ev("harvest"),
                                           ev("harvest", "p2"), ev("done"), ev("done", "p2")])
    assert "Ann wins" in text(client, sit(client, over["code"], "p2"))  # the final standings say it
    events, _ = SITUATIONS["two white dwarfs to block"]
    merged = new_table(client, "stars_inc", events)
    assert "Ann merges your white dwarf. Block it for 1 Fe? They get back 4 He." in text(client, sit(client, merged["code"], "p2"))


def round_forms(client, table) -> list[dict]:
    html = client.get(sit(client, table["code"], "p1")).get_data(as_text=True)
    return [f["fields"] for f in event_forms(html) if f["fields"]["type"] == "new_round"]


def test_the_flip_offers_the_cards_left_with_their_values_and_a_typed_fallback(client):  # noqa: F811
    table = new_table(client, "stars_inc", rounds(2))
    page = text(client, sit(client, table["code"], "p1"))
    assert "Time Stasis · 3 H · 3 actions" in page and "Tidal Stream · 2 H · 4 actions" in page
    assert "Giant Molecular Cloud ·" not in page.split("Environment", 1)[1]  # flipped in round 1
    by_name, typed = round_forms(client, table)
    assert set(by_name) - TRANSPORT == {"round", "environment"} and by_name["environment"] == CARDS[2]
    assert set(typed) - TRANSPORT == {"round", "hydrogen", "actions"}
    assert client.post(f"/t/{table['code']}/events", data=by_name).status_code == 303
    shown = derived(client, table)["environment"]
    assert (shown["name"], shown["hydrogen"], shown["actions"]) == ("Overdensity", 3, 3)
    page = text(client, sit(client, table["code"], "p1"))
    assert '<span class="label">This round</span> every MERGE costs 2 He less' in page and "Merge mine · free" in page


def test_a_table_with_its_own_cards_types_them_with_a_name(client):  # noqa: F811
    table = new_table(client, "stars_inc", [], {"edition": "own"})
    (typed,) = round_forms(client, table)
    assert set(typed) - TRANSPORT == {"round", "hydrogen", "actions", "environment"}
    answer = client.post(f"/t/{table['code']}/events", data={**typed, "environment": "Overdensity", "hydrogen": "4"})
    assert answer.status_code == 303
    shown = derived(client, table)["environment"]
    assert (shown["name"], shown["hydrogen"], shown["card"], shown["effect"]) == ("Overdensity", 4, None, None)


def test_leaving_the_main_sequence_asks_which_planets_only_when_the_phone_cannot_know(client):  # noqa: F811
    """Rulebook p. 4, MOVE: a star leaving the main sequence loses its planets. With one star the phone knows
    they are all around it (no form); with several it asks, with no number filled in for the player."""
    def evolve_forms(table):
        html = client.get(sit(client, table["code"], "p1")).get_data(as_text=True)
        return [f["fields"] for f in event_forms(html)
                if f["fields"]["type"] == "move_star" and f["fields"].get("evolves") == "yes"]
    one = new_table(client, "stars_inc", [ev("board", piece="sunlike", delta=1), ev("board", piece="rocky", delta=2)])
    assert evolve_forms(one) and all("rocky_lost" not in f for f in evolve_forms(one))
    several = new_table(client, "stars_inc", [ev("board", piece="sunlike", delta=1), ev("board", piece="red_dwarf", delta=1),
                                              ev("board", piece="rocky", delta=2)])
    asked = evolve_forms(several)
    assert asked == [{**asked[0], "rocky_lost": ""}] and "gas_lost" not in asked[0]  # no gas planets: not asked
    answer = client.post(f"/t/{several['code']}/events", data={**asked[0], "rocky_lost": "1"})
    assert answer.status_code == 303
    assert derived(client, several)["players"]["p1"]["planets"]["rocky"] == 1
