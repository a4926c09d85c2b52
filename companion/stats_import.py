"""Plays from our own plays.csv (`/stats/<game>/plays.csv?group=CODE`, or `starpnp stats --format csv --group`)
into another server's statistics: a group moving servers keeps its history. The file is read whole and checked
before anything is written; a malformed row, a play already on the server or one given twice refuses the whole
file, with one line naming the line of the file and the field."""
from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from datetime import datetime, timezone

from .export import FORMULA_STARTS
from .inputs import NAME_LENGTH, BadInput, parse_group
from .rules import GameRules
from .rules.base import printable
from .stats import CSV_HEADER, SHARED, Play, play_date
from .storage import Store, StoreError

TEXT_LENGTH = 80  # an ending or a tie-break, as the plays table keeps them


class BadRow(StoreError):
    def __init__(self, source: str, line: int, problem: str):
        super().__init__(f"{source}: line {line}, {problem}")


@dataclass(frozen=True)
class ImportedPlay:
    line: int  # the file's line of its first seat
    group: str
    play: Play


def _text(cell: str) -> str:
    """A cell as written before the export made it formula-safe (export.spreadsheet_safe's leading quote)."""
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS) else cell


def _whole(cell: str, field: str, least: int, most: int | None = None) -> int:
    try:
        value = int(cell)
    except ValueError:
        raise ValueError(f"{field}: {cell[:20]!r} is not a whole number") from None
    if value < least or (most is not None and value > most):
        raise ValueError(f"{field}: {value} is not between {least} and {most}" if most is not None
                         else f"{field}: {value} is less than {least}")
    return value


def _named(cell: str, field: str, most: int, empty_ok: bool = False) -> str:
    text = printable(_text(cell))
    if not text and not empty_ok:
        raise ValueError(f"{field}: empty" + (" (export the plays with the group's code, so the rows name "
                                                "the players)" if field in ("name", "group") else ""))
    if len(text) > most:
        raise ValueError(f"{field}: longer than {most} characters")
    return text


def _row(rules: GameRules, cells: dict) -> tuple[tuple, dict]:
    """A row's play (the cells every seat of one play repeats) and its seat."""
    try:
        finished = datetime.strptime(cells["date"], "%Y-%m-%d %H:%M").replace(tzinfo=timezone.utc).timestamp()
    except ValueError:
        raise ValueError(f"date: {cells['date'][:20]!r} is not a date like 2026-11-29 14:05") from None
    try:
        group = parse_group(_named(cells["group"], "group", 200))
    except BadInput as error:
        raise ValueError(error.message) from None
    count = _whole(cells["players"], "players", rules.min_players, rules.max_players)
    if cells["unit"] != rules.length_unit:
        raise ValueError(f"unit: {cells['unit'][:20]!r}, but {rules.name} is counted in {rules.length_unit}")
    try:
        minutes = float(cells["minutes"])
    except ValueError:
        minutes = math.nan
    if not (math.isfinite(minutes) and minutes >= 0):
        raise ValueError(f"minutes: {cells['minutes'][:20]!r} is not a number of minutes")
    if cells["won"] not in ("yes", "no"):
        raise ValueError(f"won: {cells['won'][:20]!r} is neither yes nor no")
    play = (finished, group, count, _whole(cells["length"], "length", 0), round(minutes, 1),
            _named(cells["ending"], "ending", TEXT_LENGTH), _named(cells["tie"], "tie", TEXT_LENGTH, empty_ok=True))
    seat = {"position": _whole(cells["seat"], "seat", 1, count), "name": _named(cells["name"], "name", NAME_LENGTH),
            "score": _whole(cells["score"], "score", -10**9, 10**9), "place": _whole(cells["place"], "place", 1, count),
            "won": cells["won"] == "yes"}
    return play, seat


def _play(line: int, head: tuple, seats: list[dict]) -> ImportedPlay:
    finished, group, count, length, minutes, ending, tie = head
    winners = [seat for seat in seats if seat["won"]]
    if len(winners) > 1 or (winners and (winners[0]["place"] != 1 or tie == SHARED)):
        raise ValueError("won: a play has at most one winner, in first place, and none when the victory is shared")
    return ImportedPlay(line, group, Play(player_count=count, finished_at=finished, minutes=minutes,
                                          length=length, ending=ending, tie=tie or None,
                                          seats=[{k: v for k, v in seat.items() if k != "position"}
                                                 for seat in seats]))


def read_plays(text: str, rules: GameRules, source: str) -> list[ImportedPlay]:
    """The plays of a plays.csv of `rules`' game, oldest first as written; BadRow names the first bad line."""
    reader = csv.reader(io.StringIO(text))
    try:
        return _plays(reader, rules, source)
    except csv.Error as problem:
        raise BadRow(source, reader.line_num, f"not CSV: {problem}") from None


def _plays(reader, rules: GameRules, source: str) -> list[ImportedPlay]:
    header = next(reader, None)
    if header is None or tuple(header) != CSV_HEADER:
        raise BadRow(source, 1, f"the header is not a plays.csv's ({','.join(CSV_HEADER)})")
    plays: list[ImportedPlay] = []
    head, seats, first = None, [], 0
    for cells in reader:
        line = reader.line_num
        try:
            if len(cells) != len(CSV_HEADER):
                raise ValueError(f"{len(cells)} cells where a plays.csv row has {len(CSV_HEADER)}")
            play, seat = _row(rules, dict(zip(CSV_HEADER, cells)))
            if seats and seat["position"] == 1:
                raise ValueError(f"seat: a new play, but the play that starts on line {first} has "
                                 f"{len(seats)} of its {head[2]} seats")
            if seats and play != head:
                raise ValueError(f"a cell of the play differs from line {first} (date, group, players, length, "
                                 f"unit, minutes, ending and tie are the play's, the same on each of its lines)")
            if seat["position"] != len(seats) + 1:
                raise ValueError(f"seat: {seat['position']}, where seat {len(seats) + 1} comes next")
            if not seats:
                head, first = play, line
            seats.append(seat)
            if len(seats) == play[2]:
                plays.append(_play(first, head, seats))
                seats = []
        except ValueError as problem:
            raise BadRow(source, line, str(problem)) from None
    if seats:
        raise BadRow(source, first, f"the play has {len(seats)} of its {head[2]} seats (the file ends)")
    if not plays:
        raise BadRow(source, 2, "no play in the file")
    return plays


def _identity(play: Play) -> tuple:
    """What tells two plays apart in a plays.csv: the minute it ended and each seat's name and score."""
    return play_date(play.finished_at), tuple((seat["name"], seat["score"]) for seat in play.seats)


def import_plays(store: Store, rules: GameRules, text: str, source: str) -> list[ImportedPlay]:
    """Add the plays of a plays.csv to the statistics of `rules`' game, under the group code of its rows: all of
    them, or none (a play the server already has, or one the file gives twice, is a BadRow)."""
    plays = read_plays(text, rules, source)
    seen: dict[tuple, int] = {}
    for group in {imported.group for imported in plays}:
        key = store.find_group(group)
        for play in store.plays(rules.id, key) if key else []:
            seen[(store.group_key(group), *_identity(play))] = 0
    for imported in plays:
        identity = (store.group_key(imported.group), *_identity(imported.play))
        if identity in seen:
            where = f"line {seen[identity]} gives it too" if seen[identity] else "it is on this server already"
            raise BadRow(source, imported.line, f"a play of {identity[1]} by "
                                                f"{', '.join(n for n, _ in identity[2])} given twice: {where}")
        seen[identity] = imported.line
    store.add_plays(rules, [(store.group_key(imported.group), imported.play) for imported in plays])
    return plays
