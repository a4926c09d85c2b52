"""Property tests: no sequence of events, valid or not, breaks Starship Catan's invariants."""
import json

from hypothesis import given, settings, strategies as st
from starpnp_test_support import examples

from starpnp.companion.rules import RuleError
from starpnp.companion.rules import starship_catan as sc
from replaying import replay_checking

PLAYERS = [{"id": "p1", "name": "Ann", "color": "red"}, {"id": "p2", "name": "Bo", "color": "blue"}]
small = st.integers(min_value=-6, max_value=6)
player = st.sampled_from(["p1", "p2", "p9"])

events = st.one_of(
    st.fixed_dictionaries({"type": st.just("resource"), "player": player,
                           "resource": st.sampled_from([*sc.START_RESOURCES, *sc.OLD_RESOURCE_KEYS, "gold"]),
                           "delta": small}),
    st.fixed_dictionaries({"type": st.just("astro"), "player": player, "delta": st.integers(-30, 30)}),
    st.fixed_dictionaries({"type": st.just("points"), "player": player,
                           "kind": st.sampled_from(["fame", "friendship"]), "delta": small}),
    st.fixed_dictionaries({"type": st.just("strength"), "player": player,
                           "part": st.sampled_from(["boosters", "cannons"]), "delta": small}),
    st.fixed_dictionaries({"type": st.just("build_module"), "player": player,
                           "module": st.sampled_from([*sc.MODULES, *sc.OLD_MODULE_KEYS, "warp"]),
                           "level": st.sampled_from([None, 1, 2, 3]), "pay": st.sampled_from(["no", "yes"])}),
    st.fixed_dictionaries({"type": st.just("build"), "player": player,
                           "piece": st.sampled_from([*sc.BUILDS, "starbase"])}),
    st.fixed_dictionaries({"type": st.just("collect"), "player": player, "die": st.integers(0, 7)}),
    st.fixed_dictionaries({"type": st.just("trade"), "player": player, "market": st.sampled_from([*sc.MARKETS, "mars"]),
                           "deal": st.sampled_from(["buy", "sell", "steal"]), "count": st.integers(0, 10)}),
    st.fixed_dictionaries({"type": st.just("vp"), "player": player, "delta": small}),
    st.fixed_dictionaries({"type": st.just("yellow_die"), "player": player, "value": st.integers(0, 7)}),
    st.fixed_dictionaries({"type": st.just("pirate_fight"), "player": player, "strength": st.integers(0, 12),
                           "blue": st.integers(0, 7)}),
    st.fixed_dictionaries({"type": st.just("fight_pirate"), "player": player, "blue": st.integers(0, 7),
                           "pirate": st.sampled_from([*sc.PIRATES, "blackbeard"])}),
    st.fixed_dictionaries({"type": st.sampled_from(["dance", ""]), "player": player}),
    st.fixed_dictionaries({"type": st.just("astro"), "player": player,
                           "delta": st.sampled_from(["x", "", None, 1.5, True])}),
)


def check_invariants(state):
    derived = sc.derive(state)
    json.dumps(state)
    for pid, p in derived["players"].items():
        assert p["vp"] == sum(p["vp_sources"].values())
        assert p["astro"] >= 0 and p["fame"] >= 0 and p["friendship"] >= 0
        for resource in p["resources"].values():
            assert 0 <= resource["amount"] <= resource["limit"]
        assert 0 <= p["boosters"] <= 4 and 0 <= p["cannons"] <= 6
    for card, kind in sc.SPECIAL_CARDS.items():
        holder = derived[card]
        if holder is not None:
            other = next(pid for pid in derived["players"] if pid != holder)
            assert derived["players"][holder][kind] > derived["players"][other][kind]
            assert max(p[kind] for p in derived["players"].values()) >= 1


@settings(max_examples=examples(300))
@given(st.lists(events, max_size=40))
def test_no_event_sequence_breaks_an_invariant(sequence):
    replay_checking(sc.apply, sc.initial_state(PLAYERS, {}), sequence, lambda state, _: check_invariants(state))


@settings(max_examples=examples(200))
@given(st.lists(st.tuples(st.sampled_from(["p1", "p2"]), st.sampled_from(["fame", "friendship"]),
                          st.integers(-2, 3)), max_size=30))
def test_special_cards_stay_unclaimed_until_someone_first_reaches_three(changes):
    state = sc.initial_state(PLAYERS, {})
    reached = {"fame": False, "friendship": False}
    for pid, kind, delta in changes:
        try:
            state = sc.apply(state, {"type": "points", "player": pid, "kind": kind, "delta": delta})
        except RuleError:
            continue
        reached[kind] |= state["ships"][pid][kind] >= 3
        derived = sc.derive(state)
        for card, card_kind in sc.SPECIAL_CARDS.items():
            if not reached[card_kind]:
                assert derived[card] is None


@settings(max_examples=examples(200))
@given(st.lists(events, max_size=30))
def test_every_accepted_event_reads_in_words(sequence):
    names = {p["id"]: p["name"] for p in PLAYERS}
    state = sc.initial_state(PLAYERS, {})
    for event in sequence:
        try:
            state = sc.apply(state, event)
        except RuleError:
            continue
        logged = sc.RULES.event_type(event["type"]).parse(event, list(names)).model_dump(exclude_unset=True)
        words = sc.RULES.tell(event["type"], logged, names)
        assert words != event["type"] and "_" not in words and "None" not in words, (event, words)  # "+1 Ore"
