"""Starship Catan rules: every number from the rulebook summary (shared/seeds/003)."""
import pytest

from starpnp.companion.rules import RuleError, get_rules
from starpnp.companion.rules import starship_catan as sc
from table_helpers import check_pages_render, derived, new_table, post_events

PLAYERS = [{"id": "p1", "name": "Ann", "color": "red"}, {"id": "p2", "name": "Bo", "color": "blue"}]


def play(*events, state=None):
    state = state or sc.initial_state(PLAYERS, {})
    for event in events:
        state = sc.apply(state, event)
    return state


def refused(state, event, field):
    with pytest.raises(RuleError) as error:
        sc.apply(state, event)
    assert error.value.field == field
    return error.value


def test_registered_for_exactly_two_players():
    rules = get_rules("starship_catan")
    assert rules is sc.RULES and (rules.min_players, rules.max_players) == (2, 2)
    with pytest.raises(RuleError) as error:
        sc.initial_state(PLAYERS + [{"id": "p3", "name": "Cy", "color": "green"}], {})
    assert error.value.field == "players"


def test_setup_gives_25_astro_two_trade_goods_one_science_point():
    derived = sc.derive(play())["players"]["p1"]
    assert derived["astro"] == 25
    assert {r: v["amount"] for r, v in derived["resources"].items()} == {
        "goods": 2, "science": 1, "ore": 0, "fuel": 0, "food": 0, "crystal": 0}
    assert derived["vp"] == 0 and derived["to_win"] == 10


def test_storage_limit_is_two_and_refuses_a_third():
    state = play({"type": "resource", "player": "p1", "resource": "crystal", "delta": 2})
    assert sc.derive(state)["players"]["p1"]["resources"]["crystal"] == {"amount": 2, "limit": 2, "label": "Crystal"}
    error = refused(state, {"type": "resource", "player": "p1", "resource": "crystal", "delta": 1}, "delta")
    assert "above the limit of 2" in error.message


def test_resources_never_go_negative():
    refused(play(), {"type": "resource", "player": "p1", "resource": "food", "delta": -1}, "delta")


def test_logistics_raises_storage_but_not_the_science_lab():
    state = play({"type": "build_module", "player": "p1", "module": "logistics"})
    assert sc.derive(state)["players"]["p1"]["storage_limit"] == 3
    state = play({"type": "build_module", "player": "p1", "module": "logistics"}, state=state)
    derived = sc.derive(state)["players"]["p1"]
    assert derived["storage_limit"] == 4
    assert derived["resources"]["science"]["limit"] == 4
    assert sc.derive(state)["players"]["p2"]["storage_limit"] == 2


def test_science_lab_holds_four_from_the_start():
    state = play({"type": "resource", "player": "p1", "resource": "science", "delta": 3})
    assert sc.derive(state)["players"]["p1"]["resources"]["science"]["amount"] == 4
    refused(state, {"type": "resource", "player": "p1", "resource": "science", "delta": 1}, "delta")


def test_astro_is_never_negative():
    state = play({"type": "astro", "player": "p1", "delta": -25})
    assert sc.derive(state)["players"]["p1"]["astro"] == 0
    refused(state, {"type": "astro", "player": "p1", "delta": -1}, "delta")


def test_level_ii_module_needs_level_i_and_is_worth_one_vp():
    state = play({"type": "build_module", "player": "p1", "module": "trade"})
    assert sc.derive(state)["players"]["p1"]["vp"] == 0
    assert sc.derive(state)["players"]["p1"]["trade_cannot_be_refused"]
    state = play({"type": "build_module", "player": "p1", "module": "trade"}, state=state)
    assert sc.derive(state)["players"]["p1"]["vp_sources"]["level_ii_modules"] == 1
    refused(state, {"type": "build_module", "player": "p1", "module": "trade"}, "module")
    refused(state, {"type": "build_module", "player": "p1", "module": "warp"}, "module")


def points(player, kind, delta):
    return {"type": "points", "player": player, "kind": kind, "delta": delta}


def test_friend_of_the_people_goes_to_the_first_with_three_friendship():
    state = play(points("p1", "friendship", 2), points("p2", "friendship", 1))
    assert sc.derive(state)["friend_of_the_people"] is None  # nobody has reached 3 yet
    state = play(points("p1", "friendship", 1), state=state)
    derived = sc.derive(state)
    assert derived["friend_of_the_people"] == "p1"
    assert derived["players"]["p1"]["vp"] == 1


def test_friend_of_the_people_goes_back_to_the_side_on_a_tie_and_to_the_new_leader():
    state = play(points("p1", "friendship", 3), points("p2", "friendship", 3))
    derived = sc.derive(state)
    assert derived["friend_of_the_people"] is None
    assert derived["players"]["p1"]["vp"] == derived["players"]["p2"]["vp"] == 0
    state = play(points("p2", "friendship", 1), state=state)
    derived = sc.derive(state)
    assert derived["friend_of_the_people"] == "p2"
    assert (derived["players"]["p1"]["vp"], derived["players"]["p2"]["vp"]) == (0, 1)


def test_hero_of_the_people_follows_fame_not_friendship():
    state = play(points("p2", "fame", 3), points("p1", "friendship", 5))
    derived = sc.derive(state)
    assert derived["hero_of_the_people"] == "p2" and derived["friend_of_the_people"] == "p1"
    state = play(points("p1", "fame", 4), state=state)
    assert sc.derive(state)["hero_of_the_people"] == "p1"
    assert sc.derive(state)["players"]["p1"]["vp"] == 2


def test_fame_and_friendship_never_negative():
    refused(play(), points("p1", "fame", -1), "delta")
    refused(play(), points("p1", "honour", 1), "kind")


def test_ten_victory_points_win_and_vp_sum_their_sources():
    state = play({"type": "vp", "player": "p1", "delta": 8}, points("p1", "fame", 3),
                 {"type": "build_module", "player": "p1", "module": "command"})
    assert sc.derive(state)["winner"] is None
    state = play({"type": "build_module", "player": "p1", "module": "command"}, state=state)
    derived = sc.derive(state)
    assert derived["players"]["p1"]["vp_sources"] == {
        "level_ii_modules": 1, "friend_of_the_people": 0, "hero_of_the_people": 1, "by_hand": 8}
    assert derived["players"]["p1"]["vp"] == 10 and derived["winner"] == "p1"
    assert derived["players"]["p1"]["to_win"] == 0


def test_the_game_ends_at_ten_victory_points_and_a_later_friendship_tie_changes_nothing():
    """Rulebook summary, Game End: the game is over when either player has 10 VP (and Special Victory Point
    Cards: Friend of the People follows the most friendship, back to the side on a tie). So once Ann has
    10 VP, counting her Friend card, Bo's catching up on friendship is refused and Ann stays the winner."""
    state = play(points("p1", "friendship", 3), {"type": "vp", "player": "p1", "delta": 8})
    assert sc.derive(state)["winner"] is None and not sc.derive(state)["over"]
    state = play(points("p2", "friendship", 2), {"type": "vp", "player": "p1", "delta": 1}, state=state)
    derived = sc.derive(state)
    assert derived["players"]["p1"]["vp"] == 10 and derived["winner"] == "p1" and derived["over"]
    assert derived["scoreboard"]["over"] and derived["scoreboard"]["winners"] == ["p1"]
    for later in (points("p2", "friendship", 1), {"type": "vp", "player": "p2", "delta": 10},
                  {"type": "yellow_die", "player": "p2", "value": 3}):
        error = refused(state, later, "type")
        assert error.message == "the game is over: Ann reached 10 VP. Undo takes back the last move"
    assert sc.derive(state)["winner"] == "p1"


def test_boosters_and_cannons_have_two_and_three_tiles_of_two_dots():
    state = play(*[{"type": "strength", "player": "p1", "part": "boosters", "delta": 1}] * 4)
    assert sc.derive(state)["players"]["p1"]["boosters"] == 4
    refused(state, {"type": "strength", "player": "p1", "part": "boosters", "delta": 1}, "delta")
    state = play({"type": "strength", "player": "p1", "part": "cannons", "delta": 6}, state=state)
    refused(state, {"type": "strength", "player": "p1", "part": "cannons", "delta": 1}, "delta")
    refused(play(), {"type": "strength", "player": "p1", "part": "cannons", "delta": -1}, "delta")


def test_flight_speed_is_yellow_die_plus_boosters():
    assert sc.flight_speed(4, 2) == 6
    state = play({"type": "strength", "player": "p2", "part": "boosters", "delta": 2},
                 {"type": "yellow_die", "player": "p2", "value": "5"})
    assert sc.derive(state)["flight"] == {"player": "p2", "yellow": 5, "boosters": 2, "speed": 7}
    refused(state, {"type": "yellow_die", "player": "p2", "value": 7}, "value")


@pytest.mark.parametrize("blue, cannons, pirate, won", [(3, 2, 5, True), (3, 2, 6, False), (1, 0, 1, True)])
def test_pirate_fight_wins_when_die_plus_cannons_reach_the_pirate(blue, cannons, pirate, won):
    assert sc.pirate_fight(blue, cannons, pirate)["won"] is won


def test_pirate_fight_event_uses_the_fighters_cannons():
    state = play({"type": "strength", "player": "p1", "part": "cannons", "delta": 3},
                 {"type": "pirate_fight", "player": "p1", "strength": 7, "blue": 4})
    assert sc.derive(state)["last_fight"] == {"player": "p1", "blue": 4, "cannons": 3, "total": 7,
                                              "pirate": 7, "won": True, "name": None, "if_won": None,
                                              "if_lost": None}
    refused(state, {"type": "pirate_fight", "player": "p1", "strength": 7, "blue": 0}, "blue")


def test_an_event_changes_its_players_ship_and_unknown_players_are_refused():
    state = play({"type": "astro", "player": "p2", "delta": -5})
    assert sc.derive(state)["players"]["p2"]["astro"] == 20
    refused(state, {"type": "astro", "player": "p1", "target": "p2", "delta": 1}, "target")
    refused(state, {"type": "astro", "player": "p9", "delta": 1}, "player")
    refused(state, {"type": "teleport", "player": "p1"}, "type")
    refused(state, {"type": "astro", "player": "p1", "delta": "lots"}, "delta")


def test_apply_never_mutates_its_argument():
    state = play()
    before = repr(state)
    sc.apply(state, {"type": "resource", "player": "p1", "resource": "crystal", "delta": 1})
    assert repr(state) == before


def test_worked_example_from_the_docs_through_the_json_api(client):
    table = new_table(client, "starship_catan", [])
    answers = post_events(client, table, [
        {"type": "yellow_die", "player": "p1", "value": 4},
        {"type": "resource", "player": "p1", "resource": "crystal", "delta": 2},
        {"type": "resource", "player": "p1", "resource": "crystal", "delta": 1},
        {"type": "points", "player": "p1", "kind": "friendship", "delta": 3},
        {"type": "pirate_fight", "player": "p1", "strength": 5, "blue": 3}])
    assert [a.status_code for a in answers] == [201, 201, 422, 201, 201]
    assert answers[2].get_json() == {"error": "delta: Crystal would rise to 3, above the limit of 2"}
    now = derived(client, table)
    assert now["flight"] == {"player": "p1", "yellow": 4, "boosters": 0, "speed": 4}
    assert now["friend_of_the_people"] == "p1" and now["players"]["p1"]["vp"] == 1
    assert now["last_fight"]["won"] is False
    check_pages_render(client, table)


def test_one_production_roll_per_turn_and_production_collected_once():
    """Rulebook, Phases, Production: "Roll the Yellow Die. Both players receive production from the die roll"
    — once, at the start of the roller's turn. Two taps on the yellow die 0.7 s apart once logged two rolls,
    and the Ore was collected twice (1 became 2). The second tap is refused, stamped or not; the other
    captain's roll opens the next turn."""
    state = play({"type": "build_module", "player": "p1", "module": "research", "level": 1})
    assert sc.derive(state)["rolls"] == 0
    state = play({"type": "yellow_die", "player": "p1", "value": 4, "turn": 0}, state=state)
    error = refused(state, {"type": "yellow_die", "player": "p1", "value": 4, "turn": 0}, "turn")
    assert isinstance(error, sc.StaleError)  # the same button, tapped again
    assert "rolled the yellow die for this turn" in refused(state, {"type": "yellow_die", "player": "p1", "value": 4,
                                                                    "turn": 1}, "turn").message
    state = play({"type": "collect", "player": "p1", "die": 4}, state=state)
    collected = state["ships"]["p1"]["resources"]
    refused(state, {"type": "collect", "player": "p1", "die": 4}, "die")
    state = play({"type": "yellow_die", "player": "p2", "value": 4, "turn": 1}, state=state)
    assert state["ships"]["p1"]["resources"] == collected and sc.derive(state)["rolls"] == 2
