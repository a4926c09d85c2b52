"""What one viewer may read of a table: a seat's sealed entries (Stratastar's Attack cards) are its own
until the game reveals them. Pure functions over the rules, the state and the log (no Flask): the JSON API,
the pages, the history, the exports and TV mode all read a table through `visible_state` and
`visible_events`, so no output can show what another can see only once both sides are in.
"""
from __future__ import annotations

from dataclasses import replace

from .replay import LoggedEvent, replay_steps
from .rules import GameRules


def visible_state(rules: GameRules, state: dict, viewer: str | None) -> dict:
    """`state` as seat `viewer` (None: a spectator, or a request with only the join code) may read it."""
    return rules.conceal(state, viewer)


def sealed_types(rules: GameRules) -> frozenset[str]:
    return frozenset(t.name for t in rules.event_types if t.sealed)


def hidden_seqs(rules: GameRules, players: list[dict], options: dict, log: list[LoggedEvent]) -> set[int]:
    """The seqs of sealed entries not revealed by the end of `log` (the whole log, replayed): the entries of
    a sealing still open, of one called off before its reveal, and undone entries."""
    kinds = sealed_types(rules)
    hidden: set[int] = {e.seq for e in log if e.type in kinds}
    group: list[int] = []  # the counted entries of the sealing open now
    for event, state, counted in replay_steps(rules, players, options, log):
        if counted and event.type in kinds:
            group.append(event.seq)
        stage = rules.sealing(state)
        if stage == "revealed":
            hidden.difference_update(group)
        if stage != "open":
            group = []
    return hidden


def may_hide(rules: GameRules, shown: list[LoggedEvent], viewer: str | None) -> bool:
    """Whether any of `shown` is another seat's sealed entry (only then is the whole log needed)."""
    kinds = sealed_types(rules)
    return any(e.type in kinds and e.player != viewer for e in shown)


def visible_events(rules: GameRules, players: list[dict], options: dict, log: list[LoggedEvent],
                   shown: list[LoggedEvent], viewer: str | None) -> list[LoggedEvent]:
    """The events `shown` (a part of `log`, the whole log) as `viewer` may read them: another seat's
    unrevealed sealed entry keeps its type and seat, its payload is empty and it is marked sealed."""
    if not may_hide(rules, shown, viewer):
        return shown
    hidden = hidden_seqs(rules, players, options, log)
    return [replace(e, payload={}, sealed=True) if e.seq in hidden and e.player != viewer else e for e in shown]


def stands(rules: GameRules, players: list[dict], options: dict, log: list[LoggedEvent],
           target: LoggedEvent) -> str | None:
    """Why `target` (an action about to be taken back) cannot be undone: a sealed entry once revealed stands
    (Stratastar: "This is done once. More Attack cards cannot be added later"), else None."""
    if target.type not in sealed_types(rules) or target.seq in hidden_seqs(rules, players, options, log):
        return None
    return rules.revealed_stands
