"""Property tests: no sequence of events, valid or not, breaks A Handful of Stars' invariants."""
import json

from hypothesis import given, settings, strategies as st
from starpnp_test_support import examples

from starpnp.companion.rules import handful_of_stars as hs
from replaying import replay_checking

COLOURS = ["red", "blue", "green", "yellow"]
small = st.integers(min_value=-3, max_value=4)
player = st.sampled_from(["p1", "p2", "p3", "p4", "p9"])


def event(event_type, **fields):
    return st.fixed_dictionaries({"type": st.just(event_type), "player": player, **fields})


events = st.one_of(
    event("outpost"), event("colony"), event("upgrade_outpost"),
    event("lose_system", kind=st.sampled_from(["home_world", "colony", "outpost", "moon"])),
    event("occupy", delta=small),
    event("reserve", card=st.sampled_from([*hs.RESERVE_CARDS, "joker"]), change=st.sampled_from(["add", "remove"]),
          vp=st.integers(0, 4)),
    event("vp_counter", vp=st.integers(0, 4), change=st.sampled_from(["add", "remove"])),
    event("vp", delta=small),
    event("shuffle"), event("shuffle"), event("end_turn"),
    event("first_player", target=player),
    event("combat_start", defender=st.sampled_from(["p1", "p2", "p3", "neutral"]), fleets=st.integers(0, 4),
          star_bases=st.integers(0, 2), system=st.sampled_from([*hs.DEFENDED_SYSTEMS, "moon"]),
          defender_fleets=st.integers(0, 3), defender_star_bases=st.integers(0, 2), tile=st.integers(0, 6),
          alien=st.integers(0, 4), defender_star_base_movement=st.integers(0, 1)),
    event("combat_add", what=st.sampled_from(["fleets", "star_bases", "matter", "energy", "population",
                                              "rapid_reaction_force", "lasers"]), amount=small),
    event("combat_card", card=st.sampled_from(["high_energy_weapons", "missiles", "star_bomb", "force_shields",
                                               "diplomacy", "retreat"]),
          matter=st.integers(0, 4), unit=st.sampled_from(["fleet", "star_base"])),
    event("combat_retreat"), event("combat_end"),
    st.fixed_dictionaries({"type": st.sampled_from(["warp", ""]), "player": player}),
)


def check_invariants(state, before):
    derived, previous = hs.derive(state), hs.derive(before)
    json.dumps(state)
    json.dumps(derived)
    for p in derived["players"].values():
        assert p["vp"] == sum(p["vp_sources"].values())
        assert min(p["home_world"], p["colonies"], p["outposts"], p["occupied"]) >= 0 and p["home_world"] <= 1
        assert p["systems"] == p["home_world"] + p["colonies"] + p["outposts"] + p["occupied"]
        assert p["hand_size"] in (6, 7)
    assert derived["shuffles"] >= previous["shuffles"]
    assert derived["turns"] >= previous["turns"]
    if previous["turns_left"] is not None:
        assert derived["turns_left"] is not None and derived["turns_left"] <= previous["turns_left"]
    combat = derived["combat"]
    if combat:
        assert combat["marker"] == combat["strength"]["attacker"] - combat["strength"]["defender"]
        assert combat["ahead"] == ("attacker" if combat["marker"] > 0 else "defender")
        for loss in combat["casualties"].values():
            assert 0 <= loss["lost"] <= loss["units"]
            assert loss["lost"] + loss["retreat"] + loss["stay"] == loss["units"]


@settings(max_examples=examples(300))
@given(st.integers(2, 4), st.lists(events, max_size=50))
def test_no_event_sequence_breaks_an_invariant(players, sequence):
    seats = [{"id": f"p{i + 1}", "name": COLOURS[i], "color": COLOURS[i]} for i in range(players)]
    replay_checking(hs.apply, hs.initial_state(seats, {}), sequence, check_invariants)


@given(st.integers(0, 30), st.integers(0, 30), st.booleans(), st.booleans(), st.booleans())
def test_casualties_round_the_right_way(fleets, star_bases, can_retreat, liable, shields):
    units = fleets + star_bases
    won = hs.casualties(fleets, star_bases, outcome="won", liable=liable, force_shields=shields)
    lost = hs.casualties(fleets, star_bases, outcome="lost", star_bases_can_retreat=can_retreat,
                         liable=liable, force_shields=shields)
    assert won["lost"] == (units // 2 if liable and not shields else 0)
    stranded = 0 if can_retreat else star_bases
    assert lost["lost"] == max((units + 1) // 2 if liable and not shields else 0, stranded)


combatant = st.sampled_from(["p1", "p2"])
combat_steps = st.one_of(
    st.fixed_dictionaries({"type": st.just("combat_add"), "player": combatant,
                           "what": st.sampled_from(["fleets", "matter", "rapid_reaction_force", "energy"]),
                           "amount": st.integers(-2, 5)}),
    st.fixed_dictionaries({"type": st.just("combat_card"), "player": combatant,
                           "card": st.sampled_from(["high_energy_weapons", "missiles", "star_bomb",
                                                    "force_shields", "diplomacy", "retreat"]),
                           "matter": st.integers(0, 4), "unit": st.sampled_from(["fleet", "star_base"])}),
    st.fixed_dictionaries({"type": st.sampled_from(["combat_retreat", "combat_end"]), "player": combatant}),
)


@settings(max_examples=examples(300))
@given(st.sampled_from(["p2", "neutral"]), st.integers(1, 4), st.integers(0, 2), st.integers(0, 3),
       st.lists(combat_steps, max_size=25))
def test_a_combat_always_ends_consistently(defender, fleets, defender_bases, defender_fleets, steps):
    seats = [{"id": "p1", "name": "Red", "color": "red"}, {"id": "p2", "name": "Blue", "color": "blue"}]
    state = hs.apply(hs.initial_state(seats, {}), {
        "type": "combat_start", "player": "p1", "defender": defender, "fleets": fleets, "system": "colony",
        "defender_star_bases": defender_bases, "defender_fleets": defender_fleets, "tile": 3, "alien": 2})
    state = replay_checking(hs.apply, state, [*steps, {"type": "combat_end", "player": "p1"}], check_invariants)
    report = hs.derive(state)["combat"]
    assert report["phase"] == "over" and report["result"] is not None
    if report["how"] in ("fight", "first_round"):
        assert report["winner"] == report["ahead"]
    defender_vp_change = hs.derive(state)["players"]["p2"]["vp"] - 36
    assert defender_vp_change == (-5 if defender == "p2" and report["winner"] == "attacker" else 0)
