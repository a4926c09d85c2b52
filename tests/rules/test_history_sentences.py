"""The history tells each event in players' words ("Ann adds 3 matter to the combat"), never as field names
("combat add what matter amount 3"), for every event type of every game, and keeps secrets secret."""
import pytest

from starpnp.companion.rules import all_rules
from companion_test_helpers import STRATASTAR_TO_BATTLE
from table_helpers import PLAYERS, ev, new_table

NAMES = {"p1": "Ann", "p2": "Bo"}


@pytest.mark.parametrize("game", sorted(all_rules()))
def test_every_event_type_has_a_sentence(game):
    rules = all_rules()[game]
    for event_type in rules.event_types:
        assert event_type.name in rules.says, f"{game}: no sentence for {event_type.name}"
        told = rules.tell(event_type.name, {}, NAMES)
        assert "_" not in told and "None" not in told, (event_type.name, told)


def test_the_history_page_reads_as_sentences(client):
    table = new_table(client, "handful_of_stars", [
        ev("combat_start", defender="p2", fleets=3, system="colony", defender_fleets=2, tile=2),
        ev("combat_add", "p2", what="matter", amount=3), ev("vp", "p2", delta=2)])
    page = client.get(f"/t/{table['code']}/history").get_data(as_text=True)
    assert "adds 3 matter to the combat" in page and "invades Bo (colony) with 3 fleets" in page
    assert "<strong>Bo</strong> adds 3 matter" in " ".join(page.split()) and "+2 VP by hand" in page and "combat add" not in page and "amount" not in page
    assert [p["name"] for p in PLAYERS] == ["Ann", "Bo"]


def test_a_sealed_battle_side_is_not_told(client):
    """Stratastar: each side's Attack cards stay secret until both have committed, in the history too."""
    table = new_table(client, "stratastar", [*STRATASTAR_TO_BATTLE, ev("battle_start", defender="p2"),
                                             ev("battle_side", "p1", fleets=2, attack=3)])
    page = client.get(f"/t/{table['code']}/history").get_data(as_text=True)
    assert "commits their side of the battle" in page and "attack 3" not in page and "fleets 2" not in page
