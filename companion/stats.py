"""What the plays say: statistics across the finished tables of one game — pure functions, no database, no Flask.

A table's log is replayed once, when the game ends (the store writes its `plays` row in that event's own
transaction, see Store._record_play); the page then reads one row per finished table. Numbers by seat, length,
score and ending are public; numbers by name are only for the tables of one group (a group code given at
creation, or one phone's own tables), so one family's names never show to another on a shared server.

A tie counts as a win for no seat, unless the game's own tie-break decided it (more systems, a tie round): the
seat it went to won.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import math
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import datetime, timezone

from .rules import GameRules

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95 % interval
SHARED = "shared"  # Play.tie of a tie nothing broke: the victory is shared, and no seat won
LAST_PLAYS = 10


@dataclass(frozen=True)
class Play:
    """One finished table as the statistics read it. `seats` come in the order they first played, each
    {"player", "name", "score", "place", "won"}; `won` is true only for a sole winner."""

    code: str  # the table's join code: its secret, never shown by the statistics
    group_key: str | None
    player_count: int
    started_at: float
    finished_at: float
    length: int
    ending: str
    tie: str | None
    seats: list[dict]

    @property
    def minutes(self) -> float:
        return (self.finished_at - self.started_at) / 60

    @property
    def margin(self) -> float | None:
        """The winner's score less the best of the others' (0 for a shared victory); None without a winner."""
        if self.tie == SHARED:
            return 0
        won = [seat["score"] for seat in self.seats if seat["won"]]
        others = [seat["score"] for seat in self.seats if not seat["won"]]
        return won[0] - max(others) if won and others else None


def play_record(rules: GameRules, players: list[dict], state: dict) -> dict:
    """The `plays` row of a table whose game has ended in `state` (columns besides its times and identity)."""
    board = rules.derive(state).get("scoreboard") or {}
    rows = {row["player"]: row for row in board.get("rows", [])}
    winners = list(board.get("winners") or [])
    sole = winners[0] if len(winners) == 1 else None
    top = max((row["score"] for row in rows.values()), default=None)
    level_at_top = sum(row["score"] == top for row in rows.values()) > 1
    if len(winners) > 1:
        tie = SHARED
    else:
        tie = rules.tie_broken_by(state) or (board.get("tie_label") if sole and level_at_top
                                             and board.get("decided_by") == "tie" else None)
    names = {p["id"]: p["name"] for p in players}
    seats = [{"player": pid, "name": names[pid], "score": rows[pid]["score"] if pid in rows else 0,
              "place": rows[pid]["rank"] if pid in rows else len(players), "won": pid == sole}
             for pid in rules.play_order(state)]
    return {"player_count": len(players), "length": rules.length(state), "ending": rules.ending(state),
            "tie": tie, "seats": json.dumps(seats)}


def group_key(secret: str, code: str) -> str:
    """The stored form of a group code: keyed with the server's secret, so a copy of the database tells no one
    the codes, and the same code typed in another case or spacing is the same group."""
    return hmac.new(secret.encode(), " ".join(code.split()).casefold().encode(), hashlib.sha256).hexdigest()


def wilson(wins: int, plays: int) -> tuple[float, float]:
    """The Wilson score interval (95 %) of a win rate: honest for few plays and for rates near 0 or 1, where
    the plain ± interval runs past them."""
    if plays == 0:
        return 0.0, 1.0
    rate, z2 = wins / plays, Z95 * Z95
    scale = 1 + z2 / plays
    centre = (rate + z2 / (2 * plays)) / scale
    half = Z95 * math.sqrt(rate * (1 - rate) / plays + z2 / (4 * plays * plays)) / scale
    return max(0.0, centre - half), min(1.0, centre + half)


def spread(values: list[float]) -> dict:
    """Median, quartiles (the middle half of the values lies between q1 and q3), least and most."""
    if not values:
        return {"n": 0, "median": None, "q1": None, "q3": None, "min": None, "max": None}
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else values * 3

    def tidy(value: float) -> float:  # 7.0 reads 7, 7.25 reads 7.2
        value = round(value, 1)
        return int(value) if value == int(value) else value
    return {"n": len(values), "median": tidy(statistics.median(values)), "q1": tidy(q1), "q3": tidy(q3),
            "min": tidy(min(values)), "max": tidy(max(values))}


def _seat_rates(plays: list[Play]) -> list[dict]:
    """Wins by the position a seat played in (1st to play, 2nd, …), with the rate's 95 % interval."""
    played: Counter[int] = Counter()
    won: Counter[int] = Counter()
    for play in plays:
        for position, seat in enumerate(play.seats, start=1):
            played[position] += 1
            won[position] += seat["won"]
    rows = []
    for position in sorted(played):
        low, high = wilson(won[position], played[position])
        rows.append({"seat": position, "plays": played[position], "wins": won[position],
                     "rate": round(won[position] / played[position], 4), "low": round(low, 4),
                     "high": round(high, 4)})
    return rows


def summarize(game: str, plays: list[Play], unfinished: int, unit: str) -> dict:
    """The public statistics of a game's finished tables: nothing in them names a player or a table."""
    by_players: dict[int, list[Play]] = defaultdict(list)
    for play in plays:
        by_players[play.player_count].append(play)
    ties = [play.tie for play in plays if play.tie]
    margins = [m for m in (play.margin for play in plays) if m is not None]
    return {
        "game": game, "plays": len(plays), "unfinished": unfinished,
        "by_players": {str(count): len(group) for count, group in sorted(by_players.items())},
        "by_seat": _seat_rates(plays),
        "by_seat_by_players": {str(count): _seat_rates(group) for count, group in sorted(by_players.items())},
        "length": {"unit": unit, "turns": spread([play.length for play in plays]),
                   "minutes": spread([round(play.minutes, 1) for play in plays])},
        "scores": {**spread([seat["score"] for play in plays for seat in play.seats]),
                   "winner": spread([seat["score"] for play in plays for seat in play.seats if seat["won"]]),
                   "margin": spread(margins)},
        "endings": dict(Counter(play.ending for play in plays).most_common()),
        "ties": {"plays": len(ties), "shared": ties.count(SHARED),
                 "broken": dict(Counter(tie for tie in ties if tie != SHARED).most_common())},
    }


def _date(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, timezone.utc).strftime("%Y-%m-%d %H:%M")


def by_name(plays: list[Play]) -> dict:
    """Within one group: wins, win rate and best score per name (the same name at several tables is the same
    player), and the last plays, newest first."""
    people: dict[str, dict] = {}
    for play in plays:
        for seat in play.seats:
            person = people.setdefault(seat["name"].casefold(), {"name": seat["name"], "plays": 0, "wins": 0,
                                                                 "best": seat["score"]})
            person["plays"] += 1
            person["wins"] += seat["won"]
            person["best"] = max(person["best"], seat["score"])
    players = sorted(({**p, "rate": round(p["wins"] / p["plays"], 4)} for p in people.values()),
                     key=lambda p: (-p["wins"], -p["rate"], p["name"].casefold()))
    last = [{"date": _date(play.finished_at), "ending": play.ending, "tie": play.tie, "length": play.length,
             "minutes": round(play.minutes), "seats": [{k: seat[k] for k in ("name", "score", "place", "won")}
                                                       for seat in sorted(play.seats, key=lambda s: s["place"])]}
            for play in reversed(plays[-LAST_PLAYS:])]
    return {"plays": len(plays), "players": players, "last": last}


CSV_HEADER = ("date", "group", "players", "seat", "name", "score", "place", "won", "length", "unit", "minutes",
              "ending", "tie")


def csv_rows(plays: list[Play], unit: str, group: str | None) -> list[list]:
    """A row per player per finished play; names (and the group) only when `group` names the group these
    plays are of (None: the public rows, by seat alone)."""
    return [[_date(play.finished_at), group or "", play.player_count, position, seat["name"] if group else "",
             seat["score"], seat["place"], "yes" if seat["won"] else "no", play.length, unit,
             round(play.minutes, 1), play.ending, play.tie or ""]
            for play in plays for position, seat in enumerate(play.seats, start=1)]


def _range(s: dict, unit: str = "") -> str:
    if not s["n"]:
        return "none yet"
    return f"{s['median']}{unit} (middle half {s['q1']}–{s['q3']}, all {s['min']}–{s['max']})"


def as_text(found: dict, name: str) -> str:
    """The statistics as `starpnp stats` prints them: a designer's playtest log read at a terminal."""
    unit = found["length"]["unit"]
    lines = [f"{name}: {found['plays']} finished plays, {found['unfinished']} unfinished tables left out",
             "plays by players: " + (", ".join(f"{n} with {count}" for count, n in found["by_players"].items())
                                     or "none")]
    for count, seats in found["by_seat_by_players"].items():
        lines.append(f"wins by seat, {count} players (95 % interval):")
        lines += [f"  {row['seat']}. to play  {row['wins']:>5}/{row['plays']:<5} {row['rate']:6.1%}  "
                  f"({row['low']:.1%}–{row['high']:.1%})" for row in seats]
    lines += [f"length: {_range(found['length']['turns'], ' ' + unit)}",
              f"minutes: {_range(found['length']['minutes'])}",
              f"final scores: {_range(found['scores'])}",
              f"winner's score: {_range(found['scores']['winner'])}",
              f"winning margin: {_range(found['scores']['margin'])}",
              "endings: " + ("; ".join(f"{text}: {n}" for text, n in found["endings"].items()) or "none"),
              f"ties: {found['ties']['plays']} ({found['ties']['shared']} shared"
              + "".join(f", {n} broken by {by}" for by, n in found["ties"]["broken"].items()) + ")"]
    if "group" in found:
        lines.append("players of the group:")
        lines += [f"  {p['name']}: {p['wins']}/{p['plays']} wins ({p['rate']:.0%}), best {p['best']}"
                  for p in found["group"]["players"]]
    return "\n".join(lines)
