"""A Handful of Stars rules: every number from the rulebook (shared/seeds/004)."""
import pytest

from starpnp.companion.rules import RuleError, get_rules
from starpnp.companion.rules import handful_of_stars as hs
from table_helpers import check_pages_render, derived, new_table, post_events

COLOURS = ["red", "blue", "green", "yellow"]


def seats(n):
    return [{"id": f"p{i + 1}", "name": COLOURS[i].title(), "color": COLOURS[i]} for i in range(n)]


ACTIVE = "the active player"  # ev("end_turn", ACTIVE): whoever's turn it is when the event is played


def play(*events, state=None, players=2):
    state = state or hs.initial_state(seats(players), {})
    for event in events:
        if event["player"] == ACTIVE:
            event = {**event, "player": hs.derive(state)["active"]}
        state = hs.apply(state, event)
    return state


def refused(state, event, field):
    with pytest.raises(RuleError) as error:
        hs.apply(state, event)
    assert error.value.field == field
    return error.value


def ev(event_type, player="p1", **fields):
    return {"type": event_type, "player": player, **fields}


def vp(state, pid="p1"):
    return hs.derive(state)["players"][pid]["vp"]


# ---- victory points and systems ------------------------------------------------------------------

@pytest.mark.parametrize("players, start_vp, systems", [(2, 36, 10), (3, 30, 8), (4, 24, 6)])
def test_starting_vp_by_player_count(players, start_vp, systems):
    derived = hs.derive(play(players=players))
    assert {p["vp"] for p in derived["players"].values()} == {start_vp}
    assert {p["systems"] for p in derived["players"].values()} == {systems}
    assert get_rules("handful_of_stars") is hs.RULES


def test_one_to_five_players_are_refused():
    for n in (1, 5):
        with pytest.raises(RuleError):
            hs.initial_state(seats(4) + [{"id": "p5", "name": "E", "color": "white"}] if n == 5 else seats(1), {})


def test_outpost_colony_and_upgrade_points():
    state = play(ev("outpost"))
    assert vp(state) == 39
    state = play(ev("colony"), state=state)
    assert vp(state) == 44
    state = play(ev("upgrade_outpost"), state=state)
    assert vp(state) == 46
    derived = hs.derive(state)["players"]["p1"]
    assert (derived["home_world"], derived["colonies"], derived["outposts"]) == (1, 3, 8)


@pytest.mark.parametrize("kind, loss", [("home_world", 7), ("colony", 5), ("outpost", 3)])
def test_losing_a_system(kind, loss):
    state = play(ev("lose_system", kind=kind))
    assert vp(state) == 36 - loss
    assert hs.derive(state)["players"]["p1"]["systems"] == 9


def test_a_lost_home_world_cannot_be_lost_again_and_upgrade_needs_an_outpost():
    state = play(ev("lose_system", kind="home_world"))
    refused(state, ev("lose_system", kind="home_world"), "kind")
    state = play(*[ev("lose_system", kind="outpost")] * 8)
    refused(state, ev("upgrade_outpost"), "type")


def test_units_only_systems_count_for_control_and_are_settled_by_a_new_outpost():
    state = play(ev("occupy", delta=1))
    assert hs.derive(state)["players"]["p1"]["systems"] == 11 and vp(state) == 36
    state = play(ev("outpost"), state=state)
    derived = hs.derive(state)["players"]["p1"]
    assert (derived["systems"], derived["occupied"], derived["vp"]) == (11, 0, 39)
    refused(state, ev("occupy", delta=-1), "delta")


def test_culture_cards_in_reserve_and_festival_of_culture():
    state = play(ev("reserve", card="culture", vp=2), ev("reserve", card="culture", vp="1"))
    assert vp(state) == 39
    state = play(ev("vp_counter", vp=2), state=state)
    assert vp(state) == 41
    state = play(ev("reserve", card="festival_of_culture"), state=state)
    assert hs.derive(state)["players"]["p1"]["vp_sources"]["festival_of_culture"] == 3
    assert vp(state) == 44
    state = play(ev("reserve", card="culture", vp=2, change="remove"), state=state)
    assert vp(state) == 41  # the card's 2 VP and its Festival point go
    refused(state, ev("reserve", card="culture", vp=5, change="remove"), "vp")
    refused(state, ev("reserve", card="culture"), "vp")
    refused(state, ev("reserve", "p2", card="festival_of_culture", change="remove"), "change")


def test_vp_equals_the_sum_of_its_sources():
    state = play(ev("vp", delta=4), ev("colony"), ev("reserve", card="culture", vp=3))
    derived = hs.derive(state)["players"]["p1"]
    assert derived["vp"] == sum(derived["vp_sources"].values()) == 36 + 4 + 5 + 3


def test_hand_size_six_or_seven_with_artificial_intelligence():
    state = play()
    assert hs.derive(state)["players"]["p1"]["hand_size"] == 6
    state = play(ev("reserve", card="artificial_intelligence"), state=state)
    assert hs.derive(state)["players"]["p1"]["hand_size"] == 7
    state = play(ev("reserve", card="artificial_intelligence", change="remove"), state=state)
    assert hs.derive(state)["players"]["p1"]["hand_size"] == 6


# ---- shuffle track and the end of the game -------------------------------------------------------

@pytest.mark.parametrize("players, trigger", [(2, 14), (3, 18), (4, 20)])
def test_shuffle_trigger_by_player_count(players, trigger):
    state = play(*[ev("shuffle")] * (trigger - 1), players=players)
    derived = hs.derive(state)
    assert derived["trigger"] == trigger and derived["shuffles_to_trigger"] == 1
    assert derived["turns_left"] is None
    state = play(ev("shuffle"), state=state)
    assert hs.derive(state)["turns_left"] is not None


def test_end_trigger_finishes_the_round_then_one_more_round():
    # three players; the trigger comes during the second player's turn of round 1
    state = play(ev("end_turn", ACTIVE), players=3)
    state = play(*[ev("shuffle", "p2")] * 18, state=state)
    derived = hs.derive(state)
    assert derived["active"] == "p2"
    assert derived["turns_left"] == 2 + 3  # p2 and p3 finish the round, then a full round
    seen = []
    while not hs.derive(state)["game_over"]:
        seen.append(hs.derive(state)["active"])
        state = play(ev("end_turn", ACTIVE), state=state)
    assert seen == ["p2", "p3", "p1", "p2", "p3"]
    assert hs.derive(state)["turns_left"] == 0 and hs.derive(state)["active"] is None
    refused(state, ev("end_turn"), "type")
    refused(state, ev("shuffle"), "type")


def test_the_end_of_the_game_is_final():
    """Rulebook p. 23, Ending the game: once the final round is over the game is at an end and the most VP
    wins. So every later tap (a colony, VP by hand, a combat) is refused, saying so plainly."""
    state = play(*[ev("shuffle")] * 14)
    state = play(*[ev("end_turn", p) for p in ("p1", "p2", "p1")], ev("colony", "p2"), ev("end_turn", "p2"),
                 state=state)
    assert hs.derive(state)["game_over"] and hs.derive(state)["winners"] == ["p2"]
    for later in (ev("colony"), ev("vp", delta=9), ev("combat_start", defender="p2", fleets=1)):
        error = refused(state, later, "type")
        assert error.message == "the game is over: Blue won, after the final round. Undo takes back the last move"


def test_two_phones_tapping_shuffled_for_one_shuffle_count_it_once():
    """Rulebook p. 15, Moving the Shuffle marker: a shuffle of a discard pile moves the marker up one space.
    Both phones' buttons showed the count before that shuffle; the second tap is refused (409) and changes
    nothing. A shuffle sent without the count (an older client) still counts."""
    state = play(ev("shuffle", shuffles=0))
    error = refused(state, ev("shuffle", "p2", shuffles=0), "shuffles")
    assert isinstance(error, hs.StaleError) and "already moved to 1" in error.message
    assert hs.derive(play(ev("shuffle", "p2", shuffles=1), state=state))["shuffles"] == 2
    assert hs.derive(play(ev("shuffle"), state=state))["shuffles"] == 2


def test_trigger_in_the_last_seat_leaves_that_turn_plus_one_round():
    state = play(ev("end_turn", ACTIVE), players=2)
    state = play(*[ev("shuffle", "p2")] * 14, state=state)
    assert hs.derive(state)["turns_left"] == 1 + 2


def test_first_player_choice_rotates_turns_and_is_fixed_after_the_first_turn():
    state = play(ev("first_player", target="p3"), players=3)
    assert hs.derive(state)["active"] == "p3"
    state = play(ev("end_turn", ACTIVE), state=state)
    assert hs.derive(state)["active"] == "p1"
    refused(state, ev("first_player", target="p2"), "target")


def test_shuffles_never_go_back_and_more_shuffles_do_not_move_the_trigger():
    state = play(*[ev("shuffle")] * 14)
    first_left = hs.derive(state)["turns_left"]
    state = play(ev("shuffle"), ev("shuffle"), state=state)
    assert hs.derive(state)["shuffles"] == 16 and hs.derive(state)["turns_left"] == first_left


def test_winner_by_vp_then_systems_then_shared():
    state = play(ev("occupy", "p2", delta=1))
    assert hs.derive(state)["leaders"] == ["p2"]  # equal VP, p2 controls more systems
    state = play(ev("occupy", "p1", delta=1), state=state)
    assert sorted(hs.derive(state)["leaders"]) == ["p1", "p2"]
    state = play(*[ev("shuffle")] * 14, *[ev("end_turn", ACTIVE)] * 3, state=state)
    assert hs.derive(state)["turns_left"] == 1
    state = play(ev("end_turn", ACTIVE), state=state)
    assert hs.derive(state)["game_over"] and sorted(hs.derive(state)["winners"]) == ["p1", "p2"]


# ---- combat --------------------------------------------------------------------------------------

def start(state=None, **fields):
    return play(ev("combat_start", **fields), state=state)


def report(state):
    return hs.derive(state)["combat"]


def test_berylith_worked_example():
    """Rulebook p.19: Red attacks Blue's colony Berylith."""
    state = start(defender="p2", fleets=2, system="colony", defender_star_bases=1)
    assert (report(state)["strength"], report(state)["marker"]) == ({"attacker": 6, "defender": 5}, 1)
    refused(state, ev("combat_retreat", "p2"), "player")  # Blue has only a star base: it cannot retreat
    state = play(ev("combat_add", "p2", what="fleets", amount=2), state=state)
    assert report(state)["marker"] == -5 and report(state)["ahead"] == "defender"
    state = play(ev("combat_add", "p1", what="fleets", amount=1), ev("combat_add", "p1", what="matter", amount=3),
                 state=state)
    assert report(state)["marker"] == 1
    state = play(ev("combat_end", "p2"), state=state)
    result = report(state)
    assert result["winner"] == "attacker" and result["both_liable"]
    assert result["casualties"]["defender"]["lost"] == 2 and result["casualties"]["defender"]["retreat"] == 1
    assert result["casualties"]["attacker"]["lost"] == 1
    assert vp(state, "p2") == 36 - 5
    assert hs.derive(state)["players"]["p2"]["colonies"] == 0
    assert hs.derive(state)["players"]["p1"]["systems"] == 11  # Red holds Berylith with units


def test_a_response_may_overshoot_until_the_other_side_answers():
    state = start(defender="p2", fleets=2, system="colony", defender_star_bases=1)  # 6 v 5
    refused(state, ev("combat_add", what="matter", amount=1), "player")  # ahead at the start: waits
    state = play(ev("combat_add", "p2", what="fleets", amount=1), state=state)  # 6 v 8: Blue ahead
    assert report(state)["may_add"] == ["attacker", "defender"]
    state = play(ev("combat_add", "p2", what="fleets", amount=1), ev("combat_add", what="fleets", amount=1),
                 state=state)
    assert report(state)["marker"] == -2 and report(state)["may_add"] == ["attacker"]
    refused(state, ev("combat_add", "p2", what="matter", amount=1), "player")  # Blue ahead, Red answering


def test_strength_fleets_three_star_bases_five_matter_one():
    state = start(defender="p2", fleets=1, star_bases=1, system="outpost", defender_fleets=1)
    assert report(state)["strength"] == {"attacker": 8, "defender": 3}
    state = play(ev("combat_add", "p2", what="matter", amount=5), state=state)
    assert report(state)["strength"]["defender"] == 8 and report(state)["ahead"] == "defender"


def test_defender_wins_ties_and_attacker_needs_one_more():
    state = start(defender="p2", fleets=1, system="outpost", defender_fleets=1)
    derived = report(state)
    assert derived["marker"] == 0 and derived["ahead"] == "defender"
    assert derived["behind"] == "attacker" and derived["needed"] == 1
    refused(state, ev("combat_add", "p2", what="matter", amount=1), "player")  # the side ahead waits


def test_neutral_system_is_tile_plus_alien_and_cannot_respond():
    state = start(defender="neutral", fleets=2, tile=4, alien=3)
    assert report(state)["strength"] == {"attacker": 6, "defender": 7}
    state = play(ev("combat_add", what="matter", amount=2), ev("combat_end"), state=state)
    result = report(state)
    assert result["winner"] == "attacker" and result["alien_removed"]
    assert result["casualties"] == {"attacker": {"units": 2, "by_rule": 1, "stranded_star_bases": 0, "lost": 1,
                                                 "retreat": 0, "stay": 1}}
    assert hs.derive(state)["players"]["p1"]["occupied"] == 1


def test_neutral_system_without_alien_counter_is_the_tile_alone():
    assert report(start(defender="neutral", fleets=1, tile=5))["strength"]["defender"] == 5


def test_first_round_rule_side_ahead_at_the_start_takes_no_losses():
    state = start(defender="neutral", fleets=3, tile=2, alien=4)  # 9 v 6: the aliens cannot answer
    state = play(ev("combat_end"), state=state)
    assert report(state)["how"] == "first_round" and report(state)["casualties"]["attacker"]["lost"] == 0
    # a player who cannot get ahead at the start loses half rounded up; the winner loses nothing
    state = start(defender="p2", fleets=3, system="colony", defender_fleets=1, defender_star_bases=1)
    state = play(ev("combat_end", "p2"), state=state)
    losses = report(state)["casualties"]
    assert losses["attacker"]["lost"] == 0
    assert losses["defender"] == {"units": 2, "by_rule": 1, "stranded_star_bases": 1, "lost": 1,
                                  "retreat": 1, "stay": 0}


def test_once_the_marker_crosses_both_sides_take_losses_even_if_it_crosses_back():
    state = start(defender="p2", fleets=2, system="colony", defender_fleets=1)
    state = play(ev("combat_add", "p2", what="matter", amount=3), ev("combat_add", what="matter", amount=1),
                 ev("combat_end", "p2"), state=state)
    result = report(state)
    assert result["both_liable"] and result["winner"] == "attacker"
    assert result["casualties"]["attacker"]["lost"] == 1 and result["casualties"]["defender"]["lost"] == 1


def test_retreat_before_fighting_costs_nothing_but_stranded_star_bases():
    state = start(defender="p2", fleets=1, system="colony", defender_fleets=2)
    attacker_gone = play(ev("combat_retreat"), state=state)
    assert report(attacker_gone)["casualties"]["attacker"]["lost"] == 0
    assert report(attacker_gone)["result"] == {"winner": None, "how": "retreat", "retreated": "attacker"}
    state = start(defender="p2", fleets=3, system="colony", defender_fleets=1, defender_star_bases=1)
    defender_gone = play(ev("combat_retreat", "p2"), state=state)
    assert report(defender_gone)["casualties"]["defender"]["lost"] == 1  # the star base cannot leave
    assert vp(defender_gone, "p2") == 36  # retreating does not hand over the system
    after_add = play(ev("combat_add", "p2", what="matter", amount=5), state=state)
    refused(after_add, ev("combat_retreat", "p2"), "type")


def test_star_base_movement_lets_star_bases_retreat():
    state = start(defender="p2", fleets=3, system="colony", defender_fleets=1, defender_star_bases=1,
                  defender_star_base_movement=1)
    assert report(play(ev("combat_retreat", "p2"), state=state))["casualties"]["defender"]["lost"] == 0


def test_reserve_cards_dreadnoughts_super_dreadnoughts_space_mines():
    state = play(ev("reserve", card="dreadnoughts"), ev("reserve", card="dreadnoughts"),
                 ev("reserve", card="super_dreadnoughts"), ev("reserve", "p2", card="space_mines"),
                 ev("reserve", "p2", card="dreadnoughts"))
    fleet_attack = start(state, defender="p2", fleets=1, system="outpost")
    # attacker 3 + 2×2 + 4; defender: no fleet, so no Dreadnoughts, but mines on its outpost
    assert report(fleet_attack)["strength"] == {"attacker": 11, "defender": 3}
    base_attack = start(state, defender="p2", star_bases=1, fleets=0, system="outpost")
    assert report(base_attack)["strength"]["attacker"] == 5  # Dreadnoughts need a fleet present
    state = play(ev("occupy", "p2", delta=1), state=state)
    units_only = start(state, defender="p2", fleets=1, system="units_only", defender_fleets=1)
    assert report(units_only)["strength"]["defender"] == 3 + 2  # no mines without a disc or cube


def test_rapid_reaction_missiles_high_energy_and_mass_armies():
    state = start(defender="p2", fleets=4, system="home_world", defender_fleets=0, defender_star_bases=1)
    state = play(ev("combat_add", "p2", what="rapid_reaction_force", amount=1), state=state)
    assert report(state)["strength"]["defender"] == 9
    state = play(ev("combat_card", "p2", card="missiles", matter=2), state=state)
    assert report(state)["strength"]["defender"] == 13
    refused(state, ev("combat_add", "p1", what="energy", amount=2), "what")
    state = play(ev("combat_card", card="high_energy_weapons"), ev("combat_add", what="energy", amount=2),
                 state=state)
    assert report(state)["strength"]["attacker"] == 14
    refused(state, ev("combat_card", "p2", card="missiles", matter=3), "card")  # once per combat
    refused(state, ev("combat_add", "p2", what="population", amount=2), "what")


def test_mass_armies_in_reserve_let_population_fight():
    state = play(ev("reserve", "p2", card="mass_armies"))
    state = start(state, defender="p2", fleets=2, system="colony", defender_fleets=1)
    state = play(ev("combat_add", "p2", what="population", amount=3), state=state)
    assert report(state)["strength"]["defender"] == 6


def test_star_bomb_removes_a_unit_and_empty_side_loses_at_once():
    state = start(defender="p2", fleets=2, system="units_only", defender_fleets=1,
                  state=play(ev("occupy", "p2", delta=1)))
    refused(state, ev("combat_card", "p2", card="star_bomb", unit="star_base"), "unit")
    state = play(ev("combat_card", card="star_bomb", unit="fleet"), state=state)
    result = report(state)
    assert result["result"] == {"winner": "attacker", "how": "no_pieces", "retreated": None}
    assert result["casualties"]["attacker"]["lost"] == 0
    assert hs.derive(state)["players"]["p2"]["occupied"] == 0


def test_an_empty_side_does_not_lose_at_once_against_a_neutral_system():
    state = start(defender="neutral", fleets=1, tile=4)
    state = play(ev("combat_add", what="matter", amount=5), ev("combat_add", what="fleets", amount=-1),
                 state=state)  # 5 against 4 with no unit left in the system
    assert report(state)["result"] is None and report(state)["ahead"] == "attacker"


def test_star_bomb_cannot_hit_aliens():
    refused(start(defender="neutral", fleets=1, tile=3, alien=2),
            ev("combat_card", card="star_bomb", unit="fleet"), "card")


def test_units_may_leave_only_while_staying_ahead():
    state = start(defender="p2", fleets=4, system="outpost", defender_fleets=1)  # 12 v 3
    state = play(ev("combat_add", what="fleets", amount=-2), state=state)
    assert report(state)["marker"] == 3
    refused(state, ev("combat_add", what="fleets", amount=-1), "amount")


def test_force_shields_ignore_losses_but_not_stranded_star_bases():
    state = start(defender="p2", fleets=2, system="colony", defender_fleets=2, defender_star_bases=1)
    state = play(ev("combat_add", what="matter", amount=6), ev("combat_end", "p2"), state=state)
    state = play(ev("combat_card", card="force_shields"), ev("combat_card", "p2", card="force_shields"), state=state)
    losses = report(state)["casualties"]
    assert losses["attacker"]["lost"] == 0
    assert losses["defender"]["lost"] == 1 and losses["defender"]["retreat"] == 2


def test_diplomacy_only_for_an_attacked_player_before_adding_strength():
    state = start(defender="p2", fleets=3, system="colony", defender_fleets=1)
    refused(state, ev("combat_card", card="diplomacy"), "card")
    ended = play(ev("combat_card", "p2", card="diplomacy"), state=state)
    assert report(ended)["result"]["how"] == "diplomacy"
    assert {s: c["lost"] for s, c in report(ended)["casualties"].items()} == {"attacker": 0, "defender": 0}
    added = play(ev("combat_add", "p2", what="matter", amount=9), state=state)
    refused(added, ev("combat_card", "p2", card="diplomacy"), "card")


def test_retreat_card_ends_the_combat_any_time_without_losses():
    state = start(defender="p2", fleets=3, system="colony", defender_fleets=1)
    state = play(ev("combat_add", "p2", what="matter", amount=9), ev("combat_add", what="matter", amount=1),
                 ev("combat_card", "p2", card="retreat"), state=state)
    result = report(state)
    assert result["result"]["retreated"] == "defender" and result["winner"] is None
    assert result["casualties"]["attacker"]["lost"] == result["casualties"]["defender"]["lost"] == 0
    assert vp(state, "p2") == 36


def test_combat_checks_who_acts_and_what_is_defended():
    state = play(players=3)
    refused(state, ev("combat_start", defender="p1", fleets=1, system="colony"), "defender")
    refused(state, ev("combat_start", defender="p2", fleets=0, system="colony"), "fleets")
    refused(state, ev("combat_start", defender="p2", fleets=1, system="units_only", defender_fleets=1), "system")
    state = start(state, defender="p2", fleets=1, system="colony")
    refused(state, ev("combat_add", "p3", what="matter", amount=1), "player")
    refused(state, ev("combat_start", "p3", defender="p2", fleets=1, system="colony"), "type")
    refused(state, ev("end_turn"), "type")
    refused(play(players=3), ev("combat_end"), "type")


def test_casualties_function_halves_with_the_right_rounding():
    assert hs.casualties(5, 0, outcome="won")["lost"] == 2
    assert hs.casualties(5, 0, outcome="lost")["lost"] == 3
    assert hs.casualties(1, 3, outcome="lost") == {"units": 4, "by_rule": 2, "stranded_star_bases": 3,
                                                    "lost": 3, "retreat": 1, "stay": 0}
    assert hs.casualties(2, 0, outcome="won", liable=False)["lost"] == 0


def test_apply_never_mutates_its_argument():
    state = start(defender="p2", fleets=1, system="colony", defender_fleets=1)
    before = repr(state)
    hs.apply(state, ev("combat_add", what="matter", amount=3))
    assert repr(state) == before


def test_worked_example_from_the_docs_through_the_json_api(client):
    table = new_table(client, "handful_of_stars", [])
    answers = post_events(client, table, [
        {"type": "combat_start", "player": "p1", "defender": "p2", "system": "colony", "fleets": 2,
         "defender_star_bases": 1},
        {"type": "combat_retreat", "player": "p2"},
        {"type": "combat_add", "player": "p2", "what": "fleets", "amount": 2},
        {"type": "combat_add", "player": "p1", "what": "fleets", "amount": 1},
        {"type": "combat_add", "player": "p1", "what": "matter", "amount": 3},
        {"type": "combat_end", "player": "p2"},
        {"type": "shuffle", "player": "p1"},
        {"type": "end_turn", "player": "p1"}])
    assert [a.status_code for a in answers] == [201, 422, 201, 201, 201, 201, 201, 201]
    assert answers[1].get_json() == {"error": "player: the defender has no unit able to retreat"}
    now = derived(client, table)
    assert now["combat"]["casualties"]["defender"]["lost"] == 2
    assert now["players"]["p2"]["vp"] == 31 and now["players"]["p1"]["systems"] == 11
    assert (now["shuffles"], now["active"]) == (1, "p2")
    check_pages_render(client, table)


def test_the_first_player_is_a_table_option_and_may_still_be_chosen_before_the_first_turn_ends():
    """Rulebook: players choose who goes first. The create form asks for it; a seat that does not exist is
    refused with the option named."""
    assert hs.derive(hs.initial_state(seats(3), {"first_player": 3}))["active"] == "p3"
    with pytest.raises(RuleError) as refused_option:
        hs.initial_state(seats(3), {"first_player": 4})
    assert refused_option.value.field == "options.first_player"
