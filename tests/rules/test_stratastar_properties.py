"""Stratastar invariants under any sequence of events: counts stay within the chits, refused events change nothing."""
from __future__ import annotations

from typing import get_args


from hypothesis import given, settings
from hypothesis import strategies as st
from starpnp_test_support import examples

from starpnp.companion.rules import stratastar as ss
from replaying import replay_checking

PLAYERS = [{"id": f"p{i}", "name": f"P{i}", "color": c} for i, c in enumerate(("red", "blue", "green"), 1)]
player = st.sampled_from(["p1", "p2", "p3"])
small = st.integers(min_value=-1, max_value=6) | st.sampled_from(["2", "x", ""])

events = st.one_of(
    st.builds(lambda p: {"type": "next_phase", "player": p}, player),
    st.builds(lambda p: {"type": "end_turn", "player": p}, player),
    st.builds(lambda p, u: {"type": "power_cards", "player": p, "use": u}, player, st.sampled_from(["yes", "no", ""])),
    st.builds(lambda p, k: {"type": k, "player": p}, player,
              st.sampled_from(["build_fleet", "build_warfleet", "colonise", "terraform", "build_stargate",
                               "remove_unsupported", "battle_resolve", "battle_cancel"])),
    st.builds(lambda p, n: {"type": "logistics", "player": p, "cards": n}, player, small),
    st.builds(lambda p, w, n, c: {"type": "lose", "player": p, "what": w, "count": n, "colonies": c},
              player, st.sampled_from([*get_args(ss.Lose.model_fields["what"].annotation), "moon"]), small, small),
    st.builds(lambda p, d: {"type": "battle_start", "player": p, "defender": d}, player, player),
    st.builds(lambda p, counts: {"type": "battle_side", "player": p, **counts}, player,
              st.fixed_dictionaries({name: st.integers(min_value=0, max_value=4) for name in ss.SIDE_FIELDS})),
)


def check_invariants(state):
    for pid, e in state["empires"].items():
        assert all(e[k] >= 0 for k in ("fleets", "warfleets", "stargates", "colonies", "worlds", "logistics"))
        assert e["worlds"] <= e["colonies"] <= ss.COLONY_CHITS
        assert e["fleets"] <= ss.FLEET_CHITS and e["stargates"] <= ss.STARGATE_CHITS
        view = ss.derive(state)["empires"][pid]
        assert view["unsupported"] == max(0, e["fleets"] + e["warfleets"] - view["support_limit"])
        assert view["max_draw"] == 5 + e["colonies"] // 3


@settings(max_examples=examples(150))
@given(st.integers(min_value=2, max_value=3), st.sampled_from(range(len(ss.PHASES))),
       st.lists(events, min_size=20, max_size=80))
def test_no_event_sequence_breaks_an_invariant(players, phase, sequence):
    """From any phase of the first turn (a battle only in the battle phase: starting there keeps them drawn)."""
    state = ss.initial_state(PLAYERS[:players], {"power_cards": True})
    state = {**state, "turn": {**state["turn"], "phase": phase}}
    replay_checking(ss.apply, state, sequence, lambda state, _: check_invariants(state))
