"""The loop every rules property test runs: events in, invariants checked after each one."""
from __future__ import annotations

import copy
from typing import Callable

from starpnp.companion.rules import RuleError


def replay_checking(apply: Callable, state: dict, sequence: list[dict], check: Callable[[dict, dict], None]) -> dict:
    """Apply each event in turn and return the final state.

    A refused event must say which field and why, and leave the state as it was; an accepted one must not
    mutate the state it was given. `check(state, before)` runs after every event, refused ones included.
    """
    for event in sequence:
        before = copy.deepcopy(state)
        try:
            new = apply(state, event)
        except RuleError as error:
            assert error.field and error.message
            new = state
        assert state == before
        check(new, before)
        state = new
    return state
