"""The Stars, Inc. table panel in-process: it renders in every stage of the game for players and spectators,
its forms post only declared fields, and posting any of them never fails with 500."""
from __future__ import annotations

import pytest

from companion_test_helpers import sit
from table_helpers import check_panel, ev, new_table

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
    assert check_panel(client, "stars_inc", new_table(client, "stars_inc", events, options)) > 0


def test_panel_says_who_won_and_what_a_block_refunds(client):  # noqa: F811
    over = new_table(client, "stars_inc", [*rounds(9), ev("adjust", what="points", delta=2), ev("harvest"),
                                           ev("harvest", "p2"), ev("done"), ev("done", "p2")])
    assert "Ann wins!" in text(client, sit(client, over["code"], "p2"))
    events, _ = SITUATIONS["two white dwarfs to block"]
    merged = new_table(client, "stars_inc", events)
    assert "Ann merges your white dwarf. Block it for 1 Fe? They get back 4 He." in text(client, sit(client, merged["code"], "p2"))
