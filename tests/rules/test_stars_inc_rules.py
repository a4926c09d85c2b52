"""Stars, Inc. rules: tanks, conversions, action costs, blocks, harvests and the end of the game."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from starpnp.companion.rules import RuleError, get_rules
from starpnp.companion.rules import stars_inc as si

PLAYERS = [{"id": "p1", "name": "Alex", "color": "red"}, {"id": "p2", "name": "Bri", "color": "blue"},
           {"id": "p3", "name": "Cas", "color": "green"}]


def new(players=2, **options):
    return si.initial_state(PLAYERS[:players], options)


def play(state, *events):
    for event in events:
        state = si.apply(state, event)
    return state


def ev(kind, player="p1", **payload):
    return {"type": kind, "player": player, **payload}


def setup(state, pid="p1", tanks=None, stars=None, planets=None, points=None):
    """A state in the middle of a game, built directly (the rules never need the history)."""
    state = copy.deepcopy(state)
    state["tanks"][pid].update(tanks or {})
    state["stars"][pid].update(stars or {})
    state["planets"][pid].update(planets or {})
    if points is not None:
        state["points"][pid] = points
        state["point_sources"][pid] = {**dict.fromkeys(si.POINT_SOURCES, 0), "by_hand": points}
    return state


def refused(state, event, field):
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as err:
        si.apply(state, event)
    assert err.value.field == field, err.value
    assert state == before
    return err.value


def test_registered_and_tanks_start_at_six_two_zero_zero():
    assert get_rules("stars_inc") is si.RULES
    state = new()
    assert state["tanks"]["p1"] == {"H": 6, "He": 2, "C": 0, "Fe": 0} and state["points"]["p1"] == 0
    assert si.derive(state)["players"]["p1"]["pawns_in_supply"] == 4


@pytest.mark.parametrize("conversion, start, after", [
    ("h_to_he", {"H": 4, "He": 0}, {"H": 0, "He": 1}),
    ("he_to_c", {"He": 3, "C": 0}, {"He": 0, "C": 1}),
])
def test_conversions_four_h_to_one_he_three_he_to_one_c(conversion, start, after):
    state = play(setup(new(), tanks=start), ev("convert", conversion=conversion))
    assert {k: state["tanks"]["p1"][k] for k in after} == after


def test_two_carbon_sell_for_one_point_and_times_repeats():
    state = play(setup(new(), tanks={"C": 5}), ev("convert", conversion="c_to_point", times="2"))
    assert state["tanks"]["p1"]["C"] == 1 and state["points"]["p1"] == 2


@pytest.mark.parametrize("conversion, tanks", [("h_to_he", {"H": 3}), ("he_to_c", {"He": 2}),
                                               ("c_to_point", {"C": 1})])
def test_conversions_refuse_when_short(conversion, tanks):
    err = refused(setup(new(), tanks=tanks), ev("convert", conversion=conversion), "conversion")
    assert "needs" in err.message


def test_conversion_refuses_when_the_product_tank_is_full():
    state = setup(new(max_he=5), tanks={"H": 8, "He": 5})
    refused(state, ev("convert", conversion="h_to_he"), "conversion")
    assert si.derive(state)["players"]["p1"]["conversions"]["h_to_he"] is False


def test_tanks_never_exceed_the_entered_maximum_and_overflow_is_lost():
    state = play(new(max_h=10), ev("new_round", hydrogen=4, actions=2), ev("harvest"))
    assert state["tanks"]["p1"]["H"] == 10  # 6 + 4 + 4 unplayed pawns = 14, capped
    uncapped = play(new(max_h=0), ev("new_round", hydrogen=4, actions=2), ev("harvest"))
    assert uncapped["tanks"]["p1"]["H"] == 14


@pytest.mark.parametrize("options, field", [({"max_h": 5}, "options.max_h"), ({"mode": "blitz"}, "options.mode"),
                                            ({"target_score": 0}, "options.target_score"),
                                            ({"max_fe": 100}, "options.max_fe")])
def test_bad_options_name_the_option(options, field):
    with pytest.raises(RuleError) as err:
        new(**options)
    assert err.value.field == field


@pytest.mark.parametrize("points, tens, ones", [(0, 0, 0), (9, 0, 9), (10, 1, 0), (18, 1, 8), (23, 2, 3)])
def test_points_shown_as_rings_of_ten_and_track_ones(points, tens, ones):
    view = si.derive(setup(new(), points=points))["players"]["p1"]
    assert (view["tens"], view["ones"]) == (tens, ones)


@pytest.mark.parametrize("star, cost", [("blue_giant", 7), ("sunlike", 3), ("red_dwarf", 1)])
def test_making_a_star_costs_hydrogen_and_uses_a_pawn(star, cost):
    state = play(setup(new(), tanks={"H": 10}), ev("make_star", star=star))
    assert state["tanks"]["p1"]["H"] == 10 - cost and state["stars"]["p1"][star] == 1
    assert si.derive(state)["players"]["p1"]["pawns_in_supply"] == 3
    assert si.ACTIONS[f"make_{star}"] == {"H": cost}


def test_star_refused_when_short_or_out_of_pawns():
    refused(new(), ev("make_star", star="blue_giant"), "star")
    refused(setup(new(), stars={"red_dwarf": 4}), ev("make_star", star="red_dwarf"), "star")
    assert si.derive(new())["players"]["p1"]["affordable"]["make_blue_giant"] is False


@pytest.mark.parametrize("planet, cost", [("rocky", {"H": 2, "C": 2, "Fe": 2}), ("gas", {"H": 4, "He": 6, "Fe": 2})])
def test_planet_costs(planet, cost):
    state = setup(new(), tanks={"H": 9, "He": 9, "C": 9, "Fe": 9}, stars={"sunlike": 1})
    state = play(state, ev("make_planet", planet=planet))
    assert all(state["tanks"]["p1"][t] == 9 - cost.get(t, 0) for t in si.TANKS)
    assert state["planets"]["p1"][planet] == 1


def test_planet_needs_a_star_and_the_elements():
    refused(setup(new(), tanks={"H": 9, "C": 9, "Fe": 9}), ev("make_planet", planet="rocky"), "planet")
    err = refused(setup(new(), stars={"red_dwarf": 1}), ev("make_planet", planet="rocky"), "planet")
    assert "short of 2 C, 2 Fe" in err.message


def test_moving_own_star_is_free_another_players_costs_one_helium():
    state = setup(setup(new(), stars={"sunlike": 1}), "p2", stars={"red_dwarf": 1})
    state = play(state, ev("move_star", star="sunlike"), ev("move_star", owner="p2", star="red_dwarf"))
    assert state["tanks"]["p1"]["He"] == 1
    refused(setup(state, tanks={"He": 0}), ev("move_star", owner="p2", star="red_dwarf"), "owner")


def test_leaving_the_main_sequence_wrecks_planets():
    state = setup(new(), stars={"sunlike": 1}, planets={"rocky": 1, "gas": 1})
    state = play(state, ev("move_star", star="sunlike", evolves="yes", rocky_lost=1, gas_lost=1))
    assert state["stars"]["p1"]["red_giant"] == 1 and state["planets"]["p1"] == {"rocky": 0, "gas": 0}


def test_a_star_leaving_the_main_sequence_loses_its_planets_without_anyone_typing_them():
    """Rulebook p. 4, MOVE: when a star leaves the main sequence every planet around it is destroyed. With
    one star on the board, every planet of its owner is around it: all go, nothing asked (a push by another
    player too). With several stars the phone cannot know which: the move asks, and a missing answer is
    refused rather than read as 0."""
    alone = setup(new(), stars={"blue_giant": 1}, planets={"rocky": 2, "gas": 1})
    assert not si.derive(alone)["players"]["p1"]["planets"]["ask_when_lost"]
    for mover in ("p1", "p2"):
        moved = play(alone, ev("move_star", mover, owner="p1", star="blue_giant", evolves="yes"))
        assert moved["stars"]["p1"]["hypergiant"] == 1 and moved["planets"]["p1"] == {"rocky": 0, "gas": 0}
    assert play(alone, ev("move_star", star="blue_giant"))["planets"]["p1"] == {"rocky": 2, "gas": 1}  # no stage left
    several = setup(alone, stars={"red_dwarf": 1})
    assert si.derive(several)["players"]["p1"]["planets"]["ask_when_lost"]
    error = refused(several, ev("move_star", star="blue_giant", evolves="yes"), "rocky_lost")
    assert "how many of the owner's 2 rocky and 1 gas planets are around it" in error.message
    refused(several, ev("move_star", star="blue_giant", evolves="yes", rocky_lost=2), "gas_lost")
    moved = play(several, ev("move_star", star="blue_giant", evolves="yes", rocky_lost=2, gas_lost=0))
    assert moved["planets"]["p1"] == {"rocky": 0, "gas": 1}
    no_gas = setup(several, planets={"gas": 0})  # a kind the owner has none of is not asked
    assert play(no_gas, ev("move_star", star="blue_giant", evolves="yes", rocky_lost=1))["planets"]["p1"]["rocky"] == 1


def test_a_blocked_move_or_merger_cannot_be_tried_again_the_same_turn():
    """Rulebook p. 5, Blocking, and the FAQ: a blocked action cannot be attempted again that turn (the same
    star's MOVE, the same two stars' MERGE); other actions can. Each player has one turn a round."""
    state = setup(setup(new(), tanks={"He": 9}), "p2", tanks={"Fe": 3}, stars={"sunlike": 1, "red_dwarf": 2})
    state = play(state, ev("new_round", hydrogen=2, actions=3), ev("move_star", owner="p2", star="sunlike"),
                 ev("block", "p2"))
    refused(state, ev("move_star", owner="p2", star="sunlike"), "star")
    state = play(state, ev("move_star", owner="p2", star="red_dwarf"), ev("merge", merge="opponent", target="p2"),
                 ev("block", "p2"))
    error = refused(state, ev("merge", merge="opponent", target="p2"), "target")
    assert "blocked this turn" in error.message
    refused(state, ev("move_star", owner="p2", star="sunlike"), "star")
    assert play(state, ev("move_star", "p2", star="sunlike"))["stars"]["p2"]["sunlike"] == 1  # Bri's own move
    next_round = play(state, ev("end_round", unharvested="skip"), ev("new_round", hydrogen=2, actions=3))
    assert play(next_round, ev("move_star", owner="p2", star="sunlike"))["tanks"]["p1"]["He"] < 9


def test_rocky_planets_never_outnumber_the_rings_in_the_box():
    """Rulebook p. 2, Components List: 50 planet rings, 25 of each colour (one colour per kind of planet)."""
    assert si.PLANET_RINGS == 25
    full = setup(setup(new(), stars={"sunlike": 1}, tanks={"H": 9, "He": 6, "C": 8, "Fe": 8}, planets={"rocky": 20}),
                 "p2", planets={"rocky": 5})
    error = refused(full, ev("make_planet", planet="rocky"), "planet")
    assert error.message == "all 25 rocky planet rings in the box are on the board (25 now)"
    refused(full, ev("board", "p2", piece="rocky", delta=1), "delta")
    assert play(full, ev("make_planet", planet="gas"))["planets"]["p1"]["gas"] == 1  # the black rings are not
    assert play(setup(full, "p2", planets={"rocky": 4}), ev("make_planet", planet="rocky"))["planets"]["p1"]["rocky"] == 21


def test_a_tie_round_ends_with_the_final_harvest_and_conversions():
    """Rulebook p. 6, End of Game (advanced): a tie plays another full round; like every final round it is
    followed by a final single harvest and the last conversions before the points are compared. Here Bri's
    white dwarf pays in that harvest, and Alex converts carbon into the winning points."""
    tied = play(new(mode="advanced", target_score=10), ev("new_round", hydrogen=2, actions=3))
    tied = play(setup(setup(tied, points=10), "p2", points=10), ev("end_round", unharvested="skip"), ev("harvest"),
                ev("harvest", "p2"), ev("done"), ev("done", "p2"))
    assert tied["status"] == "tie_round"
    state = play(setup(setup(tied, stars={"red_dwarf": 1}), "p2", stars={"white_dwarf": 1}),
                 ev("new_round", hydrogen=2, actions=3), ev("harvest"), ev("harvest", "p2"))
    state = play(setup(state, tanks={"C": 4}), ev("end_round"))
    assert state["status"] == "final_harvest" and si.derive(state)["waiting_to_finish"] == ["p1", "p2"]
    state = play(state, ev("harvest"), ev("harvest", "p2"))
    assert state["points"] == {"p1": 10, "p2": 12}  # the white dwarf paid twice: its round and the final harvest
    state = play(state, ev("convert", conversion="c_to_point", times=2), ev("done"), ev("done", "p2"))
    assert state["status"] == "tie_round"  # 12 all: yet another round
    won = play(setup(state, "p2", points=13), ev("new_round", hydrogen=2, actions=3), ev("end_round", unharvested="skip"),
               ev("harvest"), ev("harvest", "p2"), ev("done"), ev("done", "p2"))
    assert won["status"] == "over" and si.derive(won)["winners"] == ["p2"]
    error = refused(won, ev("convert", conversion="h_to_he"), "type")
    assert error.message == "the game is over: Bri won with 14 points. Undo takes back the last move"


def test_supernova_pays_two_iron_and_frees_the_pawn():
    state = play(setup(new(), stars={"hypergiant": 1}), ev("move_star", star="hypergiant", evolves="yes"))
    assert state["tanks"]["p1"]["Fe"] == 2 and si.derive(state)["players"]["p1"]["pawns_in_supply"] == 4


def test_new_white_dwarf_pays_one_point_at_once():
    state = play(setup(new(), stars={"red_giant": 1}), ev("move_star", star="red_giant", evolves="yes"))
    assert state["points"]["p1"] == 1 and state["stars"]["p1"]["white_dwarf"] == 1
    refused(state, ev("move_star", star="white_dwarf"), "evolves")


@pytest.mark.parametrize("merge, cost", [("own", 2), ("opponent", 6), ("white_dwarfs", 8)])
def test_merge_costs(merge, cost):
    state = setup(setup(new(), tanks={"He": 10}, stars={"red_dwarf": 2}), "p2",
                  stars={"red_dwarf": 1, "white_dwarf": 2})
    event = ev("merge", merge=merge, target="p2", first="p2", second="p2")
    assert play(state, event)["tanks"]["p1"]["He"] == 10 - cost


def test_white_dwarf_merger_destroys_both_and_gives_each_owner_iron():
    state = setup(setup(new(), tanks={"He": 8}, stars={"white_dwarf": 1}), "p2", stars={"white_dwarf": 1})
    state = play(state, ev("merge", merge="white_dwarfs", first="p1", second="p2"))
    assert state["stars"]["p1"]["white_dwarf"] == state["stars"]["p2"]["white_dwarf"] == 0
    assert state["tanks"]["p1"]["Fe"] == state["tanks"]["p2"]["Fe"] == 1
    refused(setup(new(), tanks={"He": 8}, stars={"white_dwarf": 1}),
            ev("merge", merge="white_dwarfs", first="p1", second="p1"), "first")


def test_block_undoes_the_action_and_refunds_half_rounded_down():
    state = setup(setup(new(), tanks={"He": 7}), "p2", tanks={"Fe": 1}, stars={"red_dwarf": 2})
    state = play(state, ev("merge", merge="opponent", target="p2"))
    assert si.derive(state)["block"] == {"actor": "p1", "action": "merge_opponent", "targets": ["p2"],
                                         "blocked_by": [], "refund": {"He": 3}, "vote": False,
                                         "voted": []}
    refused(state, ev("block", "p1"), "player")  # only the target may block
    state = play(state, ev("block", "p2"))
    assert state["tanks"]["p1"]["He"] == 4 and state["tanks"]["p2"]["Fe"] == 0
    assert si.derive(state)["block"] is None


def test_blocked_move_stays_put_and_one_helium_refunds_nothing():
    state = setup(setup(new(), stars={"red_giant": 1}, tanks={"Fe": 1}), "p2")
    state = play(state, ev("move_star", "p2", owner="p1", star="red_giant", evolves="yes"))
    assert state["points"]["p1"] == 1
    state = play(state, ev("block", "p1"))
    assert state["stars"]["p1"]["red_giant"] == 1 and state["points"]["p1"] == 0
    assert state["tanks"]["p2"]["He"] == 1 and state["tanks"]["p1"]["Fe"] == 0


def test_white_dwarf_merger_is_decided_by_the_owners_sealed_vote():
    """Rulebook p. 5, Blocking: for a merger of two white dwarfs the owners "must simultaneously vote thumbs up
    they are spending an iron or thumbs down they are not ... This can result in 2 Iron being used to block
    the action or in the action being successful (if both parties voted thumbs down)". The first vote was
    once visible to everyone before the second owner voted: now it is sealed until both are in."""
    state = setup(setup(new(3), stars={"white_dwarf": 1}, tanks={"Fe": 1}), "p2", stars={"white_dwarf": 1},
                  tanks={"Fe": 1})
    merged = play(setup(state, "p3", tanks={"He": 9}), ev("merge", "p3", merge="white_dwarfs", first="p1", second="p2"))
    refused(merged, ev("block", "p1"), "type")  # not an open block: a vote
    one = play(merged, ev("block_vote", "p1", spend="yes"))
    assert si.sealing(one) == "open" and si.derive(one)["block"]["voted"] == ["p1"]
    assert "yes" not in repr(si.derive(one)) and "yes" not in repr(si.conceal(one, "p2"))
    assert "yes" not in repr(si.conceal(one, None)) and si.conceal(one, "p1")["pending"]["votes"] == {"p1": "yes"}
    refused(one, ev("block_vote", "p1", spend="no"), "player")  # sealed: not changed
    both = play(one, ev("block_vote", "p2", spend="yes"))
    assert si.sealing(both) == "revealed" and si.derive(both)["vote"]["votes"] == {"p1": "yes", "p2": "yes"}
    assert both["tanks"]["p3"]["He"] == 5  # 9 - 8 + 4
    assert both["stars"]["p1"]["white_dwarf"] == 1 and both["tanks"]["p1"]["Fe"] == both["tanks"]["p2"]["Fe"] == 0
    stood = play(merged, ev("block_vote", "p2", spend="no"), ev("block_vote", "p1", spend="no"))
    assert stood["stars"]["p1"]["white_dwarf"] == 0 and stood["tanks"]["p1"]["Fe"] == 2  # 1 + 1 from the Type 1a
    one_yes = play(merged, ev("block_vote", "p2", spend="no"), ev("block_vote", "p1", spend="yes"))
    assert one_yes["tanks"]["p1"]["Fe"] == 0 and one_yes["tanks"]["p2"]["Fe"] == 1
    poor = setup(merged, "p2", tanks={"Fe": 1})  # the Type 1a's own iron: 1 Fe after the merger, 0 without it
    assert "without what the merger gave" in refused(poor, ev("block_vote", "p2", spend="yes"), "spend").message


def test_block_window_closes_when_the_actor_moves_on_and_needs_iron():
    state = setup(setup(new(), tanks={"He": 7}), "p2", stars={"red_dwarf": 2})
    state = play(state, ev("merge", merge="opponent", target="p2"))
    refused(state, ev("block", "p2"), "player")  # no iron
    state = play(setup(state, "p2", tanks={"Fe": 1}), ev("convert", "p2", conversion="h_to_he"))
    assert si.derive(state)["block"]["targets"] == ["p2"]  # the target's own conversion leaves it open
    state = play(state, ev("convert", conversion="h_to_he"))  # the actor's next action closes it
    refused(state, ev("block", "p2"), "player")
    own = setup(state, tanks={"He": 2}, stars={"red_dwarf": 2})
    assert play(own, ev("merge", merge="own"))["pending"] is None  # merging your own stars targets nobody
    refused(setup(own, stars={"red_dwarf": 1}), ev("merge", merge="own"), "merge")


def test_harvest_helper_adds_environment_pawns_stars_and_planets():
    state = setup(new(), stars={"blue_giant": 1, "hypergiant": 1}, planets={"gas": 2, "rocky": 1})
    state = setup(state, "p2", stars={"sunlike": 1, "red_giant": 1, "white_dwarf": 1, "red_dwarf": 1})
    state = play(state, ev("new_round", hydrogen=3, actions=3, environment="Overdensity"))
    view = si.derive(state)["players"]
    assert view["p1"]["harvest"] == {"H": 5, "He": 4, "C": 1, "Fe": 0, "points": 2, "rocky_choices": 2}
    assert view["p2"]["harvest"] == {"H": 3, "He": 3, "C": 1, "Fe": 0, "points": 1, "rocky_choices": 0}
    refused(state, ev("harvest"), "rocky_h")
    state = play(state, ev("harvest", rocky_fe=2))
    assert state["tanks"]["p1"] == {"H": 11, "He": 6, "C": 1, "Fe": 2} and state["points"]["p1"] == 2
    refused(state, ev("harvest"), "type")
    assert si.derive(state)["waiting_to_harvest"] == ["p2"]


def test_harvest_needs_a_round():
    refused(new(), ev("harvest"), "type")


def test_rounds_rotate_the_first_player_and_keep_the_environment():
    state = new(3)
    firsts = []
    for _ in range(4):
        state = play(state, ev("new_round", hydrogen="2", actions="3"))
        firsts.append(si.derive(state)["first_player"])
        state = play(state, ev("end_round", unharvested="skip"))
    assert firsts == ["p1", "p2", "p3", "p1"]
    refused(state, ev("new_round", hydrogen=5, actions=3), "hydrogen")
    refused(state, ev("end_round", unharvested="skip"), "type")


def run_rounds(state, count):
    for _ in range(count):
        state = play(state, ev("new_round", hydrogen=2, actions=3), ev("end_round", unharvested="skip"))
    return state


def test_standard_game_ends_after_nine_rounds_with_a_final_harvest():
    state = run_rounds(new(), 8)
    state = play(state, ev("new_round", hydrogen=2, actions=3))
    derived = si.derive(state)
    assert derived["final_round"] and derived["rounds_left"] == 0
    state = play(state, ev("end_round", unharvested="skip"))
    assert state["status"] == "final_harvest"
    refused(state, ev("new_round", hydrogen=2, actions=3), "type")
    state = setup(state, stars={"white_dwarf": 1})
    state = play(state, ev("harvest"), ev("harvest", "p2"))
    assert state["status"] == "final_harvest" and si.derive(state)["winners"] == []
    state = play(state, ev("done"), ev("done", "p2"))
    assert state["status"] == "over" and state["points"]["p1"] == 1
    assert si.derive(state)["winners"] == ["p1"]
    refused(state, ev("convert", conversion="h_to_he"), "type")


def test_after_the_final_harvest_everyone_may_convert_before_the_winner_is_named():
    """Rulebook, End of the Game: the final harvest "also allows players to do any element conversions of
    Hydrogen to Helium to Carbon to Points, emptying their resource tanks in a last glittering hurrah.
    Whoever has the most points wins!" Ann (1 point) harvests first; Ben (0 points, 4 C) still converts."""
    state = play(run_rounds(new(), 9), ev("harvest"))
    state = setup(setup(state, points=1, tanks={"C": 0}), "p2", points=0, tanks={"C": 4})
    state = play(state, ev("harvest", "p2"), ev("done"))
    assert state["status"] == "final_harvest" and si.derive(state)["waiting_to_finish"] == ["p2"]
    refused(state, ev("make_star", "p2", star="red_dwarf"), "type")  # no more actions, only conversions
    assert si.derive(state)["players"]["p2"]["convertible"]["c_to_point"] == 2
    state = play(state, ev("convert", "p2", conversion="c_to_point", times=2), ev("done", "p2"))
    assert state["status"] == "over" and si.derive(state)["winners"] == ["p2"]
    refused(play(run_rounds(new(), 9)), ev("done"), "type")  # harvest first


def test_standard_tie_broken_by_most_planets_then_shared():
    state = play(run_rounds(new(), 9), ev("harvest"))
    state = setup(setup(state, points=6, planets={"rocky": 1}), "p2", points=4, planets={"gas": 2})
    state = play(state, ev("harvest", "p2"), ev("done"), ev("done", "p2"))  # p2's gas planets: level at 6
    assert state["points"] == {"p1": 6, "p2": 6}
    assert si.derive(state)["winners"] == ["p2"]  # two planets beat one
    even = play(setup(setup(run_rounds(new(), 9), points=4), "p2", points=4), ev("harvest"), ev("harvest", "p2"),
                ev("done"), ev("done", "p2"))
    assert si.derive(even)["winners"] == ["p1", "p2"]


def test_advanced_game_finishes_the_round_when_the_target_is_reached():
    state = play(new(mode="advanced", target_score=10), ev("new_round", hydrogen=2, actions=3))
    assert not si.derive(state)["final_round"]
    state = setup(state, points=10)
    assert si.derive(state)["final_round"] and si.derive(state)["reached_target"] == ["p1"]
    state = play(state, ev("end_round", unharvested="skip"))
    assert state["status"] == "final_harvest"
    state = play(state, ev("harvest"), ev("harvest", "p2"), ev("done"), ev("done", "p2"))
    assert state["status"] == "over" and si.derive(state)["winners"] == ["p1"]


def test_advanced_tie_plays_more_rounds_or_shares():
    state = play(new(mode="advanced"), ev("new_round", hydrogen=2, actions=3))
    state = setup(setup(state, points=30, planets={"gas": 3}), "p2", points=30)
    state = play(state, ev("end_round", unharvested="skip"), ev("harvest", rocky_h=0), ev("harvest", "p2"), ev("done"), ev("done", "p2"))
    assert state["status"] == "over"  # p1's gas planets paid 3 more points in the final harvest
    tied = play(new(mode="advanced"), ev("new_round", hydrogen=2, actions=3))
    tied = play(setup(setup(tied, points=31), "p2", points=31), ev("end_round", unharvested="skip"), ev("harvest"), ev("harvest", "p2"),
                ev("done"), ev("done", "p2"))
    assert tied["status"] == "tie_round" and si.derive(tied)["winners"] == []
    again = play(tied, ev("new_round", hydrogen=2, actions=3))
    assert si.derive(again)["final_round"]
    still = play(again, ev("end_round", unharvested="skip"), ev("harvest"), ev("harvest", "p2"), ev("done"),
                 ev("done", "p2"))
    assert still["status"] == "tie_round"
    resolved = play(setup(again, "p2", points=32), ev("end_round", unharvested="skip"), ev("harvest"),
                    ev("harvest", "p2"), ev("done"), ev("done", "p2"))
    assert resolved["status"] == "over" and si.derive(resolved)["winners"] == ["p2"]
    shared = play(tied, ev("share_victory", "p2"))
    assert si.derive(shared)["winners"] == ["p1", "p2"]
    refused(new(), ev("share_victory"), "type")


@pytest.mark.parametrize("event, field", [
    ({"type": "warp", "player": "p1"}, "type"),
    ({"type": "convert", "player": "p7", "conversion": "h_to_he"}, "player"),
    ({"type": "convert", "player": "p1", "conversion": "h_to_fe"}, "conversion"),
    ({"type": "make_star", "player": "p1", "star": "neutron"}, "star"),
    ({"type": "adjust", "player": "p1", "what": "He", "delta": -3}, "delta"),
    ({"type": "board", "player": "p1", "piece": "red_dwarf", "delta": 5}, "delta"),
    ({"type": "new_round", "player": "p1", "hydrogen": 3}, "actions"),
])
def test_invalid_events_name_the_field_and_leave_state_alone(event, field):
    refused(new(), event, field)


def test_board_and_adjust_corrections():
    state = play(new(), ev("board", piece="red_dwarf", delta=2), ev("board", piece="gas", delta="1"),
                 ev("adjust", what="Fe", delta=3), ev("adjust", what="points", delta=4))
    assert state["stars"]["p1"]["red_dwarf"] == 2 and state["planets"]["p1"]["gas"] == 1
    assert state["tanks"]["p1"]["Fe"] == 3 and state["points"]["p1"] == 4
    refused(state, ev("board", piece="sunlike", delta=3), "delta")  # only four pawns


def test_docs_describe_every_event_type_and_derived_field():
    doc = (Path(__file__).parents[2] / "docs" / "rules" / "stars_inc.md").read_text()
    assert all(f"`{t.name}`" in doc for t in si.RULES.event_types)
    derived = si.derive(new())
    assert all(f"`{name}" in doc for name in derived)
    assert all(name in doc for name in derived["players"]["p1"])


def test_setup_at_the_table_before_the_first_round():
    state = play(new(), ev("setup", mode="advanced", target_score="25", max_h="12", max_he=8))
    assert (state["mode"], state["target_score"], state["caps"]) == ("advanced", 25, {"H": 12, "He": 8, "C": 8, "Fe": 8})
    assert play(state, ev("setup", max_h=0))["caps"]["H"] is None
    refused(state, ev("setup", max_h=5), "max_h")  # below the starting 6 H
    refused(state, ev("setup", mode="blitz"), "mode")
    refused(setup(state, tanks={"He": 9}), ev("setup", max_he=8), "max_he")
    refused(play(state, ev("new_round", hydrogen=2, actions=2)), ev("setup", max_c=3), "type")


def test_ending_a_round_asks_first_while_someone_has_not_harvested():
    state = play(new(), ev("new_round", hydrogen=3, actions=3), ev("harvest"))
    err = refused(state, ev("end_round"), "unharvested")
    assert "Bri has not harvested" in err.message
    assert play(state, ev("harvest", "p2"), ev("end_round"))["round"] == 1  # everyone harvested: no question
    skipped = play(state, ev("end_round", unharvested="skip"))
    assert not skipped["in_round"] and skipped["tanks"]["p2"]["H"] == 6  # Bri's harvest was skipped, as asked


def test_a_block_window_stays_open_for_its_target_and_undoes_only_that_action():
    state = play(new(3), ev("new_round", hydrogen=3, actions=3))
    state = setup(setup(state, stars={"sunlike": 1}), "p2", tanks={"He": 4, "Fe": 1})
    state = play(state, ev("move_star", "p2", star="sunlike", owner="p1"))  # Bri pushes Alex's star: 1 He
    state = play(state, ev("convert", "p3", conversion="h_to_he"))  # Cas converts meanwhile: the window stays
    assert si.derive(state)["block"]["targets"] == ["p1"]
    state = setup(state, tanks={"Fe": 1})
    blocked = play(state, ev("block"))
    assert blocked["tanks"]["p3"]["He"] == state["tanks"]["p3"]["He"]  # Cas's conversion stands
    assert blocked["tanks"]["p2"]["He"] == 3  # half of 1 He, rounded down, comes back: nothing


def test_a_block_is_paid_without_the_iron_of_the_action_it_undoes():
    """Rulebook p. 5, Blocking: "A player may spend 1 Iron to block an action for which they are the target
    ... the action itself is wasted". Moving Ben's hypergiant into a supernova gives Ben 2 Fe; blocking it
    undoes that, so with no iron of his own Ben cannot pay for the block (it once left his tank at -1)."""
    state = setup(new(max_h=0, max_he=0, max_c=0, max_fe=0), "p2", stars={"hypergiant": 1})
    state = play(setup(state, tanks={"He": 4}), ev("move_star", owner="p2", star="hypergiant", evolves="yes"))
    assert state["tanks"]["p2"]["Fe"] == 2
    error = refused(state, ev("block", "p2"), "player")
    assert "without what the blocked action gave you" in error.message
    blocked = play(setup(state, "p2", tanks={"Fe": 3}), ev("block", "p2"))  # 1 Fe of his own: he pays it
    assert blocked["tanks"]["p2"]["Fe"] == 0 and blocked["stars"]["p2"]["hypergiant"] == 1


def test_a_block_cannot_undo_what_its_target_has_spent_since():
    """Ben spends the supernova's iron on a planet while the block window is open: undoing the supernova
    would leave his Fe below zero, so the block is refused and nothing changes."""
    state = setup(new(), "p2", stars={"hypergiant": 1, "red_dwarf": 1}, tanks={"H": 6, "C": 2, "Fe": 1})
    state = play(setup(state, tanks={"He": 4}), ev("move_star", owner="p2", star="hypergiant", evolves="yes"),
                 ev("make_planet", "p2", planet="rocky"))
    assert state["tanks"]["p2"]["Fe"] == 1
    assert "spent since" in refused(state, ev("block", "p2"), "player").message
