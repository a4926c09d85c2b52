"""Stars, Inc.: the companion knows our edition's environment cards (issue #11). Named, a card fills in its
hydrogen and actions and its effect applies to the round; each test quotes the card it checks, as our set
prints it (components/stars_inc/environments.yaml, read through the loader). Typed values still work for
cards of another edition or a --write-ins set. Rulebook v4.2, "Environment Deck": the standard deck is one
of each environment, the advanced deck all 18 cards, reshuffled when it runs out."""
from __future__ import annotations

import re

import pytest

from starpnp.companion.rules import RuleError
from starpnp.companion.rules import stars_inc as si
from starpnp.generator.look.loader import find_game, load_game
from test_stars_inc_rules import ev, new, play, refused
from test_stars_inc_rules import setup as given


@pytest.fixture(scope="module")
def cards():
    """Our printed environment cards by title: {title: card fields as printed}, and how many copies."""
    game = load_game(find_game("stars_inc"))
    pieces = next(c for c in game.components if c.spec.id == "environments").pieces
    return {p.front.params.title: {**p.front.params.model_dump(), "count": p.count} for p in pieces}


def flip(name):
    return ev("new_round", environment=name)


def quoted(cards, title: str, pattern: str) -> int:
    """The number in the card's effect that `pattern` quotes (its one group), failing if the card says otherwise."""
    found = re.search(pattern, cards[title]["effect"])
    assert found, (title, cards[title]["effect"])
    return int(found.group(1)) if found.groups() else 0


# ---- the deck ---------------------------------------------------------------------------------------------

def test_the_phone_offers_every_printed_card_with_its_hydrogen_and_actions(cards):
    left = si.derive(new())["environments_left"]
    assert [e["name"] for e in left] == list(cards)
    for offered in left:
        card = cards[offered["name"]]
        assert f"{offered['hydrogen']} H" == card["harvest"] and offered["actions"] == card["actions"]
        assert offered["copies"] == 1  # the standard deck: one of each


@pytest.mark.parametrize("typed", ["Time Stasis", "time stasis", "  Time   STASIS ", "time_stasis"])
def test_a_named_card_fills_in_its_values(cards, typed):
    state = play(new(), ev("new_round", environment=typed))
    env = si.derive(state)["environment"]
    assert (env["name"], f"{env['hydrogen']} H", env["actions"]) == ("Time Stasis", cards["Time Stasis"]["harvest"],
                                                                     cards["Time Stasis"]["actions"])
    assert state["played"] == ["time_stasis"]


def test_typed_values_must_agree_with_the_named_card(cards):
    hydrogen = int(cards["Tidal Stream"]["harvest"].split()[0])
    actions = cards["Tidal Stream"]["actions"]
    state = play(new(), ev("new_round", environment="Tidal Stream", hydrogen=hydrogen, actions=actions))
    assert si.derive(state)["environment"]["actions"] == actions
    err = refused(new(), ev("new_round", environment="Tidal Stream", actions=actions - 1), "actions")
    assert err.message == f"Tidal Stream gives {actions} actions, not {actions - 1}"


def test_a_card_is_flipped_once_in_the_standard_game(cards):
    state = play(new(), flip("Overdensity"), ev("end_round", unharvested="skip"))
    assert "Overdensity" not in [e["name"] for e in si.derive(state)["environments_left"]]
    err = refused(state, flip("Overdensity"), "environment")
    assert "has been played already" in err.message and "Overdensity" not in err.message.split(":", 1)[1]
    for title in cards:  # the other eight finish the deck: nine rounds, the standard game's length
        if title != "Overdensity":
            state = play(state, flip(title), ev("end_round", unharvested="skip"))
    assert state["round"] == si.STANDARD_ROUNDS == len(cards) and state["status"] == "final_harvest"
    assert si.derive(state)["environments_left"] == []


def test_the_advanced_deck_holds_every_copy_and_is_reshuffled_when_it_runs_out(cards):
    copies = {card["count"] for card in cards.values()}
    assert copies == {si.ENVIRONMENT_COPIES}
    state = new(mode="advanced")
    for _ in range(si.ENVIRONMENT_COPIES):
        state = play(state, flip("Time Vortex"), ev("end_round", unharvested="skip"))
    refused(state, flip("Time Vortex"), "environment")
    for title in cards:
        for _ in range(si.ENVIRONMENT_COPIES if title != "Time Vortex" else 0):
            state = play(state, flip(title), ev("end_round", unharvested="skip"))
    assert state["round"] == len(cards) * si.ENVIRONMENT_COPIES  # all 18 drawn: the deck is whole again
    left = si.derive(state)["environments_left"]
    assert [e["name"] for e in left] == list(cards) and {e["copies"] for e in left} == {si.ENVIRONMENT_COPIES}
    assert play(state, flip("Time Vortex"))["environment"]["name"] == "Time Vortex"


def test_a_name_that_is_not_our_card_is_refused_on_our_edition():
    err = refused(new(), ev("new_round", environment="Dark Nebula", hydrogen=3, actions=3), "environment")
    assert "not one of our environment cards" in err.message and "edition to own" in err.message
    err = refused(new(), ev("new_round"), "hydrogen")
    assert err.message == "required field is missing; or name one of our environment cards"


# ---- typed values: another edition's cards, a --write-ins set -----------------------------------------------

def test_typed_values_still_work_without_a_name_and_take_no_card_from_the_deck():
    state = play(new(), ev("new_round", hydrogen=4, actions=2), ev("harvest"))
    assert state["tanks"]["p1"]["H"] == 6 + 4 + 4  # start, the typed hydrogen, one per pawn in reserve
    assert state["played"] == [] and len(si.derive(state)["environments_left"]) == 9
    assert si.derive(state)["environment"]["effect"] is None


def test_on_a_table_with_its_own_cards_a_name_is_only_a_name():
    """Edition own: the publisher's Time Stasis (whose text our copy lacks) has the values typed, and the phone
    applies no effect of ours: moves are allowed."""
    state = play(new(edition="own"), ev("new_round", environment="Time Stasis", hydrogen=3, actions=4))
    assert si.derive(state)["environment"] == {"hydrogen": 3, "actions": 4, "name": "Time Stasis", "card": None,
                                               "effect": None, "moves": True, "two_space_moves": False}
    assert si.derive(state)["environments_left"] == [] and si.derive(state)["edition"] == "own"
    moved = play(given(state, stars={"sunlike": 1}), ev("move_star", star="sunlike", evolves="yes"))
    assert moved["stars"]["p1"]["red_giant"] == 1
    refused(new(edition="own"), ev("new_round", environment="Time Stasis"), "hydrogen")


def test_the_edition_is_a_table_option_and_a_setup_choice():
    with pytest.raises(RuleError) as err:
        new(edition="publisher")
    assert err.value.field == "options.edition"
    state = play(new(), ev("setup", edition="own"))
    assert state["edition"] == "own"
    assert play(state, ev("setup", mode="advanced"))["edition"] == "own"  # kept when not sent
    refused(play(state, ev("new_round", hydrogen=2, actions=3)), ev("setup", edition="ours"), "type")


# ---- each card's effect -------------------------------------------------------------------------------------

def test_giant_molecular_cloud_pawns_in_reserve_give_more_hydrogen(cards):
    more = quoted(cards, "Giant Molecular Cloud", r"each pawn in your reserve gives (\d+) H more")
    state = play(given(new(max_h=0), stars={"red_dwarf": 1}), flip("Giant Molecular Cloud"))  # no tank maximum
    hydrogen = int(cards["Giant Molecular Cloud"]["harvest"].split()[0])
    reserve = si.PAWNS_TO_PLAY - 1
    assert si.derive(state)["players"]["p1"]["harvest"]["H"] == hydrogen + (si.PAWN_HYDROGEN + more) * reserve
    harvested = play(state, ev("harvest"))
    assert harvested["tanks"]["p1"]["H"] == 6 + hydrogen + (si.PAWN_HYDROGEN + more) * reserve


@pytest.mark.parametrize("title, tank", [("Superluminous Supernova", "Fe"), ("Protoplanetary Disk", "C")])
def test_harvest_gifts_reach_every_player(cards, title, tank):
    gift = quoted(cards, title, rf"every player also gains (\d+) {tank}\b")
    state = play(new(), flip(title), ev("harvest"), ev("harvest", "p2"))
    assert state["tanks"]["p1"][tank] == state["tanks"]["p2"][tank] == si.START_TANKS[tank] + gift
    plain = play(new(), ev("new_round", hydrogen=2, actions=3), ev("harvest"))  # a typed card gives none
    assert plain["tanks"]["p1"][tank] == si.START_TANKS[tank]


def test_the_final_harvest_is_under_the_last_card(cards):
    """The final harvest repeats the last environment's hydrogen (our reading), so its gift comes too."""
    titles = [t for t in cards if t != "Superluminous Supernova"] + ["Superluminous Supernova"]
    state = new()
    for title in titles:
        state = play(state, flip(title), ev("end_round", unharvested="skip"))
    assert state["status"] == "final_harvest"
    assert play(state, ev("harvest"))["tanks"]["p1"]["Fe"] == quoted(cards, "Superluminous Supernova", r"gains (\d+) Fe")


def test_overdensity_every_merge_costs_less(cards):
    less = quoted(cards, "Overdensity", r"Every MERGE costs (\d+) He less")
    state = play(new(), flip("Overdensity"))
    prices = si.derive(state)["costs"]
    for merge, cost in si.MERGES.items():
        assert prices[f"merge_{merge}"] == ({"He": cost["He"] - less} if cost["He"] > less else {})
    own = play(given(state, tanks={"He": 0}, stars={"red_dwarf": 2}), ev("merge", merge="own"))
    assert own["tanks"]["p1"]["He"] == 0  # 2 He less than 2 He: free
    rich = given(given(state, tanks={"He": 12}), "p2", tanks={"Fe": 1}, stars={"red_dwarf": 2})
    merged = play(rich, ev("merge", merge="opponent", target="p2"))
    assert merged["tanks"]["p1"]["He"] == 12 - (si.MERGES["opponent"]["He"] - less)
    blocked = play(merged, ev("block", "p2"))  # half of what was paid comes back
    paid = si.MERGES["opponent"]["He"] - less
    assert blocked["tanks"]["p1"]["He"] == 12 - paid + paid // 2


def test_stroemgren_sphere_a_blue_giant_costs_less_this_round_only(cards):
    less = quoted(cards, "Stroemgren Sphere", r"A MAKE of a blue giant costs (\d+) H less")
    price = si.NEW_STARS["blue_giant"] - less
    state = given(play(new(), flip("Stroemgren Sphere")), tanks={"H": price})
    assert si.derive(state)["players"]["p1"]["affordable"]["make_blue_giant"]
    made = play(state, ev("make_star", star="blue_giant"))
    assert made["tanks"]["p1"]["H"] == 0 and made["stars"]["p1"]["blue_giant"] == 1
    refused(given(state, tanks={"H": price - 1}), ev("make_star", star="blue_giant"), "star")
    after = given(play(state, ev("end_round", unharvested="skip")), tanks={"H": price})
    assert si.derive(after)["costs"]["make_blue_giant"] == {"H": si.NEW_STARS["blue_giant"]}
    refused(after, ev("make_star", star="blue_giant"), "star")


def test_time_stasis_no_one_may_move(cards):
    quoted(cards, "Time Stasis", r"No one may take a MOVE action")
    state = given(given(play(new(), flip("Time Stasis")), stars={"sunlike": 2}, tanks={"He": 4}), "p2",
                  stars={"sunlike": 2})
    err = refused(state, ev("move_star", star="sunlike"), "star")
    assert err.message == "Time Stasis: no one may take a MOVE action this round"
    refused(state, ev("move_star", star="sunlike", owner="p2", evolves="yes"), "star")
    assert not si.derive(state)["environment"]["moves"]
    merged = play(state, ev("merge", merge="own"))  # a merger is no MOVE (rulebook, FAQ): still allowed
    assert merged["tanks"]["p1"]["He"] == 4 - si.MERGES["own"]["He"]
    moved = play(state, ev("end_round", unharvested="skip"), flip("Overdensity"), ev("move_star", star="sunlike"))
    assert moved["stars"]["p1"]["sunlike"] == 2  # the next card lets stars move again


def test_time_vortex_a_move_may_pass_two_stages(cards):
    quoted(cards, "Time Vortex", r"Each MOVE takes the star two spaces on")
    state = given(play(new(), flip("Time Vortex")), stars={"sunlike": 1, "blue_giant": 1}, planets={"gas": 1})
    assert si.derive(state)["environment"]["two_space_moves"]
    dwarf = play(state, ev("move_star", star="sunlike", evolves="twice", gas_lost=1))
    assert dwarf["stars"]["p1"]["white_dwarf"] == 1 and dwarf["stars"]["p1"]["sunlike"] == 0
    assert dwarf["points"]["p1"] == si.WHITE_DWARF_POINTS and dwarf["planets"]["p1"]["gas"] == 0
    nova = play(state, ev("move_star", star="blue_giant", evolves="twice", gas_lost=0))  # it is the sunlike's
    assert nova["stars"]["p1"]["blue_giant"] == nova["stars"]["p1"]["hypergiant"] == 0
    assert nova["tanks"]["p1"]["Fe"] == si.SUPERNOVA_IRON
    err = refused(given(state, stars={"red_giant": 1}), ev("move_star", star="red_giant", evolves="twice"), "evolves")
    assert err.message == "a white dwarf does not evolve further"
    err = refused(given(play(new(), flip("Overdensity")), stars={"sunlike": 1}),
                  ev("move_star", star="sunlike", evolves="twice"), "evolves")
    assert err.message == "a MOVE passes two stages only under Time Vortex"


def test_tidal_stream_moving_another_players_star_is_free_and_still_blockable(cards):
    quoted(cards, "Tidal Stream", r"A MOVE of another player's star costs no He")
    state = given(given(play(new(), flip("Tidal Stream")), tanks={"He": 0}), "p2", stars={"red_giant": 1},
                  tanks={"Fe": 1})
    assert si.derive(state)["costs"]["move_other_star"] == {}
    pushed = play(state, ev("move_star", owner="p2", star="red_giant", evolves="yes"))
    assert pushed["stars"]["p2"]["white_dwarf"] == 1 and pushed["tanks"]["p1"]["He"] == 0
    assert si.derive(pushed)["block"]["refund"] == {}
    blocked = play(pushed, ev("block", "p2"))
    assert blocked["stars"]["p2"]["red_giant"] == 1 and blocked["tanks"]["p2"]["Fe"] == 0


def test_overcrowding_is_shown_but_left_to_the_board(cards):
    """Track spaces are not tracked, so the phone only reminds the table of the N − 1 limit."""
    quoted(cards, "Overcrowding", r"A space is full with one star fewer than usual \(N − 1\)")
    env = si.derive(play(new(), flip("Overcrowding")))["environment"]
    assert "N − 1" in env["effect"] and env["moves"]
    assert si.derive(play(new(), flip("Overcrowding")))["costs"] == si.ACTIONS
