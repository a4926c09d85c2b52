"""What the plays say: statistics across the finished tables of one game — pure functions, no database, no Flask.

No log is replayed for the statistics: the move that ends a game records its play (the store writes its
`plays` and `play_seats` rows in that move's own transaction, see Store._record_play, from the state the
replay keeps), and the page reads what the database counts of those rows on their indexes (Tallies), not a
row per table through Python. Numbers by seat, length, score and ending are public; numbers by name are only
for the tables of one group (a group code given at creation, or one phone's own tables), so one family's
names never show to another on a shared server.

A tie counts as a win for no seat, unless the game's own tie-break decided it (more systems, a tie round): the
seat it went to won.
"""
from __future__ import annotations

import bisect
import hashlib
import hmac
import itertools
import math
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timezone

from .rules import GameRules

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95 % interval
SHARED = "shared"  # Play.tie of a tie nothing broke: the victory is shared, and no seat won
LAST_PLAYS = 10


@dataclass(frozen=True)
class Play:
    """One finished table as the CSV and the group's last plays show it. `seats` come in the order they first
    played, each {"name", "score", "place", "won"}; `won` is true only for a sole winner."""

    player_count: int
    finished_at: float
    minutes: float
    length: int
    ending: str
    tie: str | None
    seats: list[dict]


@dataclass(frozen=True)
class Tallies:
    """What the database counts of a game's finished tables (Store.tallies): the public statistics need no more."""

    unfinished: int
    by_players: dict[int, int]  # player count -> plays
    seats: dict[tuple[int, int], tuple[int, int]]  # (player count, position in play) -> (plays, wins)
    # value -> how many plays (or seats) had it
    lengths: dict[int, int]
    minutes: dict[float, int]
    margins: dict[float, int]
    scores: dict[int, int]
    winner_scores: dict[int, int]
    endings: dict[str, int]
    ties: dict[str, int]


def play_record(rules: GameRules, players: list[dict], state: dict) -> tuple[dict, list[dict]]:
    """The `plays` row (but its times and identity) and the `play_seats` rows of a table ended in `state`."""
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
    seats = [{"position": position, "name": names[pid], "score": rows[pid]["score"] if pid in rows else 0,
              "place": rows[pid]["rank"] if pid in rows else len(players), "won": int(pid == sole)}
             for position, pid in enumerate(rules.play_order(state), start=1)]
    return ({"player_count": len(players), "length": rules.length(state), "ending": rules.ending(state),
             "tie": tie, "margin": margin(seats, tie)}, seats)


def margin(seats: list[dict], tie: str | None) -> float | None:
    """The winner's score less the best other's: 0 for a shared victory, None when no seat won alone."""
    won = [seat["score"] for seat in seats if seat["won"]]
    others = [seat["score"] for seat in seats if not seat["won"]]
    return 0 if tie == SHARED else won[0] - max(others) if won and others else None


def group_text(code: str) -> str:
    """What of a group code counts: its letters and digits, in any case — "Orion-Club", "orion club" and
    "ORIONCLUB" are one group, as a family types it from memory on another phone."""
    return "".join(ch for ch in code.casefold() if ch.isalnum())


def group_key(secret: str, code: str) -> str:
    """The stored form of a group code: keyed with the server's secret, so a copy of the database tells no one
    the codes, and the same code typed in another case, spacing or punctuation is the same group."""
    return hmac.new(secret.encode(), group_text(code).encode(), hashlib.sha256).hexdigest()


def legacy_group_key(secret: str, code: str) -> str:
    """The stored form before punctuation was ignored (case and runs of spaces only): a group made then is
    found once by its code as typed, and its rows then take the key above (Store.find_group)."""
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


def spread(counts: dict[float, int]) -> dict:
    """Median, quartiles (the middle half of the values lies between q1 and q3), least and most of the values
    counted in `counts` (value -> how often it came up: what the database counts, a few rows, not 30,000) — as
    statistics.median and statistics.quantiles(method="inclusive") give them for the values one by one."""
    values = sorted(value for value, n in counts.items() if n > 0)
    total = sum(counts[value] for value in values)
    if not total:
        return {"n": 0, "median": None, "q1": None, "q3": None, "min": None, "max": None}
    ends = list(itertools.accumulate(counts[value] for value in values))  # the index after each value's last

    def nth(index: int) -> float:  # the index-th value (from 0) of the values one by one, sorted
        return values[bisect.bisect_right(ends, index)]

    def quartile(i: int) -> float:  # the inclusive method: interpolated between neighbours
        j, delta = divmod(i * (total - 1), 4)
        return nth(j) if delta == 0 else (nth(j) * (4 - delta) + nth(j + 1) * delta) / 4

    places = min(6, max(_decimals(value) for value in values) + 2)  # a quartile splits a gap into quarters

    def tidy(value: float) -> float:  # 7.0 reads 7, 4.25 stays 4.25, 2.1 + 0.2 reads 2.3
        return _whole_if_whole(round(value, places))
    middle = nth(total // 2) if total % 2 else (nth(total // 2 - 1) + nth(total // 2)) / 2
    return {"n": total, "median": tidy(middle), "q1": tidy(quartile(1)), "q3": tidy(quartile(3)),
            "min": tidy(values[0]), "max": tidy(values[-1])}


def _whole_if_whole(value: float) -> float:
    return int(value) if value == int(value) else value


def _decimals(value: float) -> int:
    """The decimals `value` is written with (2.5: 1, 7: 0): the precision the data has."""
    text = repr(float(value))
    return 0 if text.endswith(".0") or "e" in text else len(text.split(".")[1])


def _seat_rates(seats: dict[int, tuple[int, int]]) -> list[dict]:
    """Wins by the position a seat played in (1st to play, 2nd, …), with the rate's 95 % interval."""
    rows = []
    for position, (plays, wins) in sorted(seats.items()):
        low, high = wilson(wins, plays)
        rows.append({"seat": position, "plays": plays, "wins": wins, "rate": round(wins / plays, 4),
                     "low": round(low, 4), "high": round(high, 4)})
    return rows


def summarize(game: str, tallies: Tallies, unit: str) -> dict:
    """The public statistics of a game's finished tables: nothing in them names a player or a table."""
    overall: dict[int, tuple[int, int]] = {}
    by_count: dict[int, dict[int, tuple[int, int]]] = defaultdict(dict)
    for (count, position), (plays, wins) in tallies.seats.items():
        before = overall.get(position, (0, 0))
        overall[position] = (before[0] + plays, before[1] + wins)
        by_count[count][position] = (plays, wins)
    ties = sorted(tallies.ties.items(), key=lambda item: -item[1])
    return {
        "game": game, "plays": sum(tallies.by_players.values()), "unfinished": tallies.unfinished,
        "by_players": {str(count): n for count, n in sorted(tallies.by_players.items())},
        "by_seat": _seat_rates(overall),
        "by_seat_by_players": {str(count): _seat_rates(seats) for count, seats in sorted(by_count.items())},
        "length": {"unit": unit, "turns": spread(tallies.lengths), "minutes": spread(tallies.minutes)},
        "scores": {**spread(tallies.scores), "winner": spread(tallies.winner_scores),
                   "margin": spread(tallies.margins)},
        "endings": dict(sorted(tallies.endings.items(), key=lambda item: -item[1])),
        "ties": {"plays": sum(tallies.ties.values()), "shared": tallies.ties.get(SHARED, 0),
                 "broken": {tie: n for tie, n in ties if tie != SHARED}},
    }


def play_date(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, timezone.utc).strftime("%Y-%m-%d %H:%M")


def _players(plays: list[Play]) -> list[dict]:
    """Per name: plays, wins (alone), win rate, average and best final score — the same name at several tables
    being the same player."""
    scores: dict[str, list[int]] = defaultdict(list)
    wins: dict[str, int] = defaultdict(int)
    for play in plays:
        for seat in play.seats:
            scores[seat["name"]].append(seat["score"])
            wins[seat["name"]] += seat["won"]
    players = [{"name": name, "plays": len(got), "wins": wins[name], "rate": round(wins[name] / len(got), 4),
                "average": _whole_if_whole(round(sum(got) / len(got), 2)), "best": max(got)}
               for name, got in scores.items()]
    return sorted(players, key=lambda p: (-p["wins"], -p["rate"], p["name"]))


def head_to_head(plays: list[Play]) -> list[dict]:
    """For each pair of names that played at one table: how often, how often each finished ahead of the other
    (a better place on the scoreboard), and how often they finished level. Pairs by plays together, most first."""
    pairs: dict[tuple[str, str], list[int]] = {}
    for play in plays:
        for one, other in itertools.combinations(play.seats, 2):
            if one["name"] == other["name"]:
                continue
            first, second = sorted((one, other), key=lambda seat: seat["name"])
            counts = pairs.setdefault((first["name"], second["name"]), [0, 0, 0, 0])
            counts[0] += 1
            counts[1 if first["place"] < second["place"] else 2 if second["place"] < first["place"] else 3] += 1
    rows = [{"names": list(names), "plays": n, "ahead": [a, b], "level": level}
            for names, (n, a, b, level) in pairs.items()]
    return sorted(rows, key=lambda row: (-row["plays"], row["names"]))


def by_name(plays: list[Play]) -> dict:
    """Within one group's finished `plays` (oldest first): numbers per name, head to head, and the newest plays."""
    return {"players": _players(plays), "head_to_head": head_to_head(plays),
            "last": [{"date": play_date(play.finished_at), "ending": play.ending, "tie": play.tie,
                      "length": play.length, "minutes": round(play.minutes),
                      "seats": sorted(play.seats, key=lambda s: s["place"])}
                     for play in reversed(plays[-LAST_PLAYS:])]}


CSV_HEADER = ("date", "group", "players", "seat", "name", "score", "place", "won", "length", "unit", "minutes",
              "ending", "tie")


def csv_rows(plays: list[Play], unit: str, group: str | None) -> list[list]:
    """A row per player per finished play; names (and the group) only when `group` names the group these
    plays are of (None: the public rows, by seat alone)."""
    return [[play_date(play.finished_at), group or "", play.player_count, position, seat["name"] if group else "",
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
    lines = [f"{name}, {found['scope']}: {found['plays']} finished play{'s' * (found['plays'] != 1)}, "
             f"{found['unfinished']} unfinished tables left out",
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
        lines += [f"  {p['name']}: {p['wins']}/{p['plays']} wins ({p['rate']:.0%}), average score {p['average']}, "
                  f"best {p['best']}" for p in found["group"]["players"]]
        lines.append("head to head (plays together: ahead, ahead, level):")
        lines += [f"  {a} v {b}: {row['plays']}: {a} {row['ahead'][0]}, {b} {row['ahead'][1]}, level {row['level']}"
                  for row in found["group"]["head_to_head"] for a, b in [row["names"]]]
    return "\n".join(lines)
