"""The Stratastar table panel in-process (Flask test client): it renders in every situation for players and
spectators, its forms post only fields the event types declare, and posting any of them never fails with 500."""
from __future__ import annotations

import pytest

from companion_test_helpers import STRATASTAR_TO_BATTLE, sit
from table_helpers import check_panel, ev, new_table

SITUATIONS = {
    "fresh": [],
    "battle phase, battle open": [*STRATASTAR_TO_BATTLE, ev("colonise"),
                                   ev("battle_start", defender="p2"), ev("battle_side", fleets=2, attack=1),
                                   ev("battle_side", "p2", fleets=1, homeworld=1)],
    "after a battle": [*STRATASTAR_TO_BATTLE, ev("battle_start", defender="p2"), ev("battle_side", fleets=4),
                       ev("battle_side", "p2", fleets=4), ev("battle_resolve")],
    "twelve worlds": [ev("colonise")] * 12,
    "homeworld captured": [*STRATASTAR_TO_BATTLE, ev("battle_start", defender="p2"), ev("battle_side", fleets=4),
                           ev("battle_side", "p2", homeworld=1), ev("battle_resolve")],
}


@pytest.mark.parametrize("situation", [name for name in SITUATIONS if name != "twelve worlds"])  # over: see below
def test_panel_renders_and_every_form_posts_declared_fields(client, situation):
    table = new_table(client, "stratastar", SITUATIONS[situation], {"power_cards": True})
    assert check_panel(client, "stratastar", table) > 0


def test_panel_shows_the_winner(client):
    table = new_table(client, "stratastar", SITUATIONS["twelve worlds"])
    html = client.get(sit(client, table["code"], "p2")).get_data(as_text=True)
    assert "Ann wins: colonies on 12 worlds." in html
    assert "data-game-over" in html and 'name="type"' not in html  # the end screen: no game action left
