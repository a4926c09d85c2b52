"""The statistics of a game's finished tables: the page (/stats/<game>), its JSON (/api/stats/<game>) and a CSV
of every finished play. Public numbers go by seat, length and score; names only within a group: `?group=CODE`
(the code the tables were created with) or, on the page, this phone's own tables. With a group code, all three
count the group's plays alone (one scope, said at the top), so a family's numbers are not mixed with others'."""
from __future__ import annotations

import csv
import io
import json

from flask import Blueprint, Response, render_template, request, session

from .export import spreadsheet_safe
from .inputs import parse_group
from .rules import GameRules
from .stats import CSV_HEADER, Play, Tallies, as_text, by_name, csv_rows, summarize
from .stats_chart import Bar, hbars, histogram
from .storage import NotFound, Store, WrongCode
from .tables import store
from .views import JOINED

bp = Blueprint("stats", __name__)
THIS_PHONE = "this phone"  # the group of a phone's own tables, as the page names it


def game_rules(game: str) -> GameRules:
    rules = store().rules.get(game)
    if rules is None:
        raise NotFound(f"game: {game[:40]!r} is not played on this server (games: {', '.join(store().rules)})")
    return rules


def group_key_of(store_: Store, code: str) -> str:
    """The stored key of the group `code` names; a code no table was created with is a 404, counted as a wrong
    guess (throttle.py)."""
    key = store_.find_group(code)
    if key is None:
        raise WrongCode("group: no table on this server was created with this group code")
    return key


def scoped(store_: Store, rules: GameRules, group: str | None) -> tuple[dict, Tallies]:
    """The statistics of `rules`' game, and the tallies they come from: of every finished play, public; or, with
    a group code, of the group's plays alone, with its numbers by name — the one scope of the page, the JSON,
    the CSV and the CLI."""
    key = group and group_key_of(store_, group)
    tallies = store_.tallies(rules.id, key)
    found = {"scope": f"the plays of group {group}" if group else "every finished play on this server",
             **summarize(rules.id, tallies, rules.length_unit)}
    if group:
        found["group"] = {"code": group, **by_name(store_.plays(rules.id, key))}
    return found, tallies


def statistics(store_: Store, rules: GameRules, group: str | None = None) -> dict:
    """The JSON's and the CLI's numbers (scoped)."""
    return scoped(store_, rules, group)[0]


def plays_csv(plays: list[Play], unit: str, group: str | None) -> str:
    """Every finished play, a row per player: formula-safe as a table's own export (export.spreadsheet_safe)."""
    out = io.StringIO()
    writer = csv.writer(out)
    for row in [CSV_HEADER, *csv_rows(plays, unit, group)]:
        writer.writerow([spreadsheet_safe(cell) for cell in row])
    return out.getvalue()


ORDINALS = {1: "st", 2: "nd", 3: "rd"}


SEAT_NOTE = ("A bar is how often the seat that played first, second, … won; the whisker spans where its true rate "
             "lies, 95 times in 100. A whisker across the fair-share line proves no advantage: play more.")


def _charts(rules: GameRules, found: dict, tallies: Tallies) -> list[tuple[str, object, str]]:
    """The page's charts, each with its heading and a note under it: the numbers of `found` (summarize) and
    `tallies`. Every number a chart draws is written beside its bar too: a seat's wins of its plays, its rate
    and the rate's 95 % interval."""
    charts = [("Plays by number of players", hbars("Finished plays by number of players", [
        Bar(f"{count} players", n, str(n)) for count, n in found["by_players"].items()],
        columns=("Players", "Plays")), "")]
    for index, (count, seats) in enumerate(found["by_seat_by_players"].items()):
        last = index == len(found["by_seat_by_players"]) - 1
        charts.append((f"Wins by seat, {count} players", hbars(
            f"Win rate of each seat in play order, {count} players, with its 95 % interval",
            [Bar(f"{row['seat']}{ORDINALS.get(row['seat'], 'th')} to play", row["rate"],
                 f"{row['wins']}/{row['plays']} · {row['rate']:.0%}", row["low"], row["high"],
                 f"95 %: {row['low']:.0%}–{row['high']:.0%}") for row in seats],
            most=1, mark=1 / int(count), mark_label=f"fair share {1 / int(count):.0%}",
            columns=("Seat", "Wins/plays · rate", "95 % interval")), SEAT_NOTE if last else ""))
    unit = rules.length_unit
    charts.append((f"Length in {unit}", histogram(f"Finished plays by length in {unit}", tallies.lengths,
                                                  (unit.capitalize(), "Plays")), ""))
    charts.append(("Length in minutes", histogram("Finished plays by minutes played", tallies.minutes,
                                                  ("Minutes", "Plays")), ""))
    charts.append(("How games ended", hbars("How the finished plays ended", [
        Bar(text, n, str(n)) for text, n in found["endings"].items()], columns=("Ending", "Plays")), ""))
    return [chart for chart in charts if chart[1]]


@bp.get("/api/stats/<game>")
def stats_json(game: str):
    rules = game_rules(game)
    return statistics(store(), rules, parse_group(request.args.get("group")))


@bp.get("/stats/<game>/plays.csv")
def stats_csv(game: str):
    rules = game_rules(game)
    group = parse_group(request.args.get("group"))
    text = plays_csv(store().plays(game, group and group_key_of(store(), group)), rules.length_unit, group)
    return Response(text, mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{game}-plays{"-group" if group else ""}.csv"'})


@bp.get("/stats/<game>")
def stats_page(game: str):
    """With a group code, the group's plays and names; without, every play, and the names of this phone's own
    tables in a section of their own."""
    rules = game_rules(game)
    group = parse_group(request.args.get("group"))
    found, tallies = scoped(store(), rules, group)
    mine = None
    if group is None and session.get(JOINED):
        mine = by_name(store().plays(game, table_codes=session[JOINED]))
    return render_template("companion/stats.html", rules=rules, found=found, charts=_charts(rules, found, tallies),
                           group=group, named=found.get("group") or (mine if mine and mine["players"] else None),
                           named_as=f"group {group}" if group else THIS_PHONE)


def report(store_: Store, rules: GameRules, form: str, group: str | None) -> str:
    """`starpnp stats`: the statistics as a table for reading, CSV (every play) or JSON (the API's)."""
    if form == "csv":
        return plays_csv(store_.plays(rules.id, group and group_key_of(store_, group)), rules.length_unit, group)
    found = statistics(store_, rules, group)
    return json.dumps(found, indent=1) if form == "json" else as_text(found, rules.name)
