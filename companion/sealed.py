"""What one viewer may read of a table: a sealed entry (Stratastar's Attack cards, Stars, Inc.'s block vote) is
the phone's that sealed it until the game reveals it. Pure functions over the rules, the state and the log (no
Flask): the JSON API, the pages, the history, the exports and TV mode all read a table through `visible_state`
and `visible_events`, so no output can show what another can see only once both sides are in.

A seat handed to another phone (by its holder, the host or another player) carries the seat's public state and
what is sealed after the hand-over, never a secret sealed before it: the host, usually a player too, could
otherwise read an opponent's sealed side by giving that seat to a second browser.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .replay import LoggedEvent, replay_steps
from .rules import GameRules


@dataclass(frozen=True)
class Reader:
    """Who reads: the seat the phone holds (None: a spectator, a request with only the join code, or a phone
    still asking for a seat) and the table's version when this phone began to hold it. Only one phone holds a
    seat at a time, so the seat's entries after `since` are this phone's, and those up to it another's."""

    seat: str | None = None
    since: int = 0

    def sealed(self, event: LoggedEvent) -> bool:
        """Whether this phone made `event` (its own sealed entry, which it may read)."""
        return event.player == self.seat and event.seq > self.since


SPECTATOR = Reader()


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


def may_hide(rules: GameRules, shown: list[LoggedEvent], reader: Reader) -> bool:
    """Whether any of `shown` is a sealed entry another phone made (only then is the whole log needed)."""
    kinds = sealed_types(rules)
    return any(e.type in kinds and not reader.sealed(e) for e in shown)


def visible_events(rules: GameRules, players: list[dict], options: dict, log: list[LoggedEvent],
                   shown: list[LoggedEvent], reader: Reader) -> list[LoggedEvent]:
    """The events `shown` (a part of `log`, the whole log) as `reader` may read them: an unrevealed sealed
    entry another phone made keeps its type and seat, its payload is empty and it is marked sealed."""
    if not may_hide(rules, shown, reader):
        return shown
    hidden = hidden_seqs(rules, players, options, log)
    return [replace(e, payload={}, sealed=True) if e.seq in hidden and not reader.sealed(e) else e for e in shown]


def own_seat(rules: GameRules, players: list[dict], options: dict, log: list[LoggedEvent], reader: Reader) -> str | None:
    """The seat whose sealed entries `reader` reads in the state: its own, unless its seat holds an unrevealed
    entry sealed before this phone held the seat; then none (it reads the state as a spectator does, and its
    own entry sealed since, if any, in the log)."""
    kinds = sealed_types(rules)
    before = [e.seq for e in log if e.type in kinds and e.player == reader.seat and e.seq <= reader.since]
    if before and set(before) & hidden_seqs(rules, players, options, log):
        return None
    return reader.seat


def stands(rules: GameRules, players: list[dict], options: dict, log: list[LoggedEvent],
           target: LoggedEvent, reader: Reader | None = None) -> str | None:
    """Why `target` (an action about to be taken back by `reader`, None: its own phone) cannot be undone: a
    sealed entry once revealed stands (Stratastar: "This is done once. More Attack cards cannot be added
    later"), and one sealed on the phone that held the seat before is not this phone's to take back; else
    None."""
    if target.type not in sealed_types(rules):
        return None
    if target.seq not in hidden_seqs(rules, players, options, log):
        return rules.revealed_stands
    if reader is not None and not reader.sealed(target):
        return SEALED_ELSEWHERE
    return None


SEALED_ELSEWHERE = ("this was sealed on the phone that held the seat before; it stays sealed, and only that "
                    "phone could have taken it back")
