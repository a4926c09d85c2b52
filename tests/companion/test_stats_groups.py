"""A group's statistics (issue #49): tables of all four games are played through the API, most under the group
code "Orion-Club", and every number the group is shown — seats, spreads to their full precision, names, head
to head — is computed here from the tables as played and compared in the JSON, the page, the CSV and the CLI.
The group is asked for as "orion club": case, spaces and punctuation do not count."""
from __future__ import annotations

import csv
import io
import itertools
import json
import statistics
from collections import Counter

import pytest
from click.testing import CliRunner
from companion_test_helpers import PhoneClient
from test_stats import Clock, Tables, handful_of_stars, starship_catan, stars_inc, stratastar

from starpnp.companion import create_app, storage
from starpnp.companion.stats import CSV_HEADER
from starpnp.generator.cli import main

GROUP, ASKED_AS = "Orion-Club", "orion club"
GAMES = ("stratastar", "starship_catan", "stars_inc", "handful_of_stars")


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    data = tmp_path_factory.mktemp("groups")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(storage, "time", Clock())
        app = create_app({"DATA_DIR": str(data), "PUBLIC_URL": "http://table.test"})
        app.test_client_class = PhoneClient
        t = Tables(app.test_client())
        stratastar(t, ["Ann", "Ben"], group=GROUP)
        stratastar(t, ["Ben", "Ann"], group=GROUP)
        stratastar(t, ["Ben", "Cy", "Ann"], group=GROUP)
        stratastar(t, ["Zed", "Yul"])  # no group: in the public numbers only
        starship_catan(t, ["Ann", "Ben"], "p1", group=GROUP)
        starship_catan(t, ["Ben", "Ann"], "p2", loser_vp=7, rolls=5, group=GROUP)
        starship_catan(t, ["Ann", "Cy"], "p1", loser_vp=3, rolls=2, group=GROUP)
        starship_catan(t, ["Zed", "Yul"], "p2", loser_vp=4, group="Other group")
        t.new("starship_catan", ["Ann", "Ben"], group=GROUP)  # not finished
        stars_inc(t, ["Ann", "Ben"], group=GROUP)
        stars_inc(t, ["Ann", "Ben", "Cy"], {"p1": 1, "p2": 4}, group=GROUP)
        handful_of_stars(t, ["Ann", "Ben"], group=GROUP)
        handful_of_stars(t, ["Ben", "Ann"], systems_to="p1", group=GROUP)
        stars_inc(t, ["Zed", "Yul"], {"p2": 2})
        handful_of_stars(t, ["Zed", "Yul"], systems_to="p2", group="Other group")
        yield t, data


def spread(values: list) -> dict:
    if not values:
        return {"n": 0, "median": None, "q1": None, "q3": None, "min": None, "max": None}
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else values * 3
    return {"n": len(values), "median": statistics.median(values), "q1": q1, "q3": q3, "min": min(values),
            "max": max(values)}


def seat_rows(plays: list[dict]) -> list[tuple]:
    most = max(len(p["seats"]) for p in plays)
    rows = []
    for position in range(most):
        at = [p["seats"][position] for p in plays if len(p["seats"]) > position]
        rows.append((position + 1, len(at), sum(seat["won"] for seat in at)))
    return rows


def expected(plays: list[dict]) -> dict:
    """The group's numbers, counted here from the tables as played."""
    seats = [seat for p in plays for seat in p["seats"]]
    margins = []
    for p in plays:
        won = [s["score"] for s in p["seats"] if s["won"]]
        if p["tie"] == "shared":
            margins.append(0)
        elif won:
            margins.append(won[0] - max(s["score"] for s in p["seats"] if not s["won"]))
    players = {}
    for name in {seat["name"] for seat in seats}:
        scores = [seat["score"] for seat in seats if seat["name"] == name]
        players[name] = (len(scores), sum(seat["won"] for seat in seats if seat["name"] == name),
                         sum(scores) / len(scores), max(scores))
    pairs = Counter()
    for p in plays:
        for one, other in itertools.combinations(sorted(p["seats"], key=lambda s: s["name"]), 2):
            outcome = "a" if one["place"] < other["place"] else "b" if other["place"] < one["place"] else "level"
            pairs[(one["name"], other["name"], "plays")] += 1
            pairs[(one["name"], other["name"], outcome)] += 1
    return {
        "plays": len(plays), "by_players": dict(Counter(str(len(p["seats"])) for p in plays)),
        "by_seat": seat_rows(plays),
        "by_seat_by_players": {str(n): seat_rows([p for p in plays if len(p["seats"]) == n])
                               for n in {len(p["seats"]) for p in plays}},
        "turns": spread([p["length"] for p in plays]), "minutes": spread([p["minutes"] for p in plays]),
        "scores": spread([s["score"] for s in seats]), "winner": spread([s["score"] for s in seats if s["won"]]),
        "margin": spread(margins), "players": players,
        "head_to_head": {(a, b): (pairs[(a, b, "plays")], pairs[(a, b, "a")], pairs[(a, b, "b")],
                                  pairs[(a, b, "level")]) for a, b, what in pairs if what == "plays"}}


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval, from its textbook formula."""
    z = 1.959963984540054
    p = wins / n
    centre, half = p + z * z / (2 * n), z * ((p * (1 - p) + z * z / (4 * n)) / n) ** 0.5
    return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


def same(found: dict, wanted: dict) -> bool:
    return found.keys() == wanted.keys() and all(
        found[k] == wanted[k] if wanted[k] is None else found[k] == pytest.approx(wanted[k], abs=1e-9) for k in wanted)


def of_group(t: Tables, game: str) -> list[dict]:
    return [p for p in t.played[game] if p["group"] == GROUP]


@pytest.mark.parametrize("game", GAMES)
def test_the_json_counts_the_groups_plays_alone_to_full_precision(played, game):
    t, _ = played
    want = expected(of_group(t, game))
    found = t.client.get(f"/api/stats/{game}?group={ASKED_AS}").get_json()
    assert found["scope"] == f"the plays of group {ASKED_AS}" and found["group"]["code"] == ASKED_AS
    assert found["plays"] == want["plays"] < len(t.played[game])
    assert found["unfinished"] == (1 if game == "starship_catan" else 0)
    assert found["by_players"] == want["by_players"]
    assert [(r["seat"], r["plays"], r["wins"]) for r in found["by_seat"]] == want["by_seat"]
    assert {n: [(r["seat"], r["plays"], r["wins"]) for r in rows]
            for n, rows in found["by_seat_by_players"].items()} == want["by_seat_by_players"]
    for got, wanted in ((found["length"]["turns"], want["turns"]), (found["length"]["minutes"], want["minutes"]),
                        ({k: v for k, v in found["scores"].items() if k not in ("winner", "margin")}, want["scores"]),
                        (found["scores"]["winner"], want["winner"]), (found["scores"]["margin"], want["margin"])):
        assert same(got, wanted), (got, wanted)
    group = found["group"]
    assert {p["name"]: (p["plays"], p["wins"], p["average"], p["best"]) for p in group["players"]} == {
        name: (n, wins, pytest.approx(average, abs=0.005), best)
        for name, (n, wins, average, best) in want["players"].items()}
    assert {tuple(r["names"]): (r["plays"], *r["ahead"], r["level"]) for r in group["head_to_head"]} == \
        want["head_to_head"]
    assert "Zed" not in json.dumps(found)


def test_a_quartile_keeps_the_precision_of_its_data():
    from starpnp.companion.stats import spread as spread_of_counts
    assert spread_of_counts(Counter([4, 5])) == {"n": 2, "median": 4.5, "q1": 4.25, "q3": 4.75, "min": 4, "max": 5}
    assert spread_of_counts(Counter([2.1, 2.3]))["q1"] == 2.15
    assert spread_of_counts(Counter([0.1, 0.2]))["q1"] == 0.125  # not 0.12500000000000003


def test_any_case_spacing_or_punctuation_finds_the_group(played):
    t, _ = played
    numbers = [t.client.get(f"/api/stats/starship_catan?group={code}").get_json()["plays"]
               for code in ("Orion-Club", "orion club", "ORION.CLUB", " orion_club ", "OrionClub")]
    assert numbers == [3] * 5
    assert t.client.get("/api/stats/starship_catan?group=orion clubs").status_code == 404
    too_short = t.client.get("/api/stats/starship_catan?group=a-b-c-")
    assert too_short.status_code == 400 and too_short.get_json()["error"].startswith("group: ")


def test_a_group_made_before_punctuation_was_ignored_is_found_by_its_code_then_by_any_spelling(tmp_path):
    from sqlalchemy import update

    from starpnp.companion import schema
    from starpnp.companion.stats import legacy_group_key
    app = create_app({"DATA_DIR": str(tmp_path), "SOLE_WRITER": True})  # as `starpnp serve`: tables in memory
    app.test_client_class = PhoneClient
    client = app.test_client()
    t = Tables(client)
    starship_catan(t, ["Ann", "Ben"], "p1", group=GROUP)
    store = app.extensions["companion_store"]
    old = legacy_group_key(store.secret_key(), GROUP)  # the key the group was stored under until now
    with store._writing() as conn:
        for table in (schema.tables, schema.plays):
            conn.execute(update(table).values(group_key=old))
    seats = [{"id": "p1", "name": "Ann", "color": "red"}, {"id": "p2", "name": "Ben", "color": "blue"}]
    waiting = store.create_table("starship_catan", seats, {}, old).table.code  # in play, its old key in memory
    assert client.get(f"/api/stats/starship_catan?group={ASKED_AS}").status_code == 404
    assert client.get(f"/api/stats/starship_catan?group={GROUP}").get_json()["plays"] == 1
    assert client.get(f"/api/stats/starship_catan?group={ASKED_AS}").get_json()["plays"] == 1
    t.send(waiting, {"type": "vp", "player": "p1", "delta": 10})  # it ends after the group took its new key
    assert client.get(f"/api/stats/starship_catan?group={ASKED_AS}").get_json()["plays"] == 2


@pytest.mark.parametrize("game", ["starship_catan", "stars_inc"])
def test_the_page_and_the_csv_show_the_same_scope_and_numbers(played, game):
    t, _ = played
    plays = of_group(t, game)
    found = t.client.get(f"/api/stats/{game}?group={ASKED_AS}").get_json()
    page = t.client.get(f"/stats/{game}?group={ASKED_AS}").get_data(as_text=True)
    assert f'data-plays="{len(plays)}"' in page and f'data-scope="the plays of group {ASKED_AS}"' in page
    assert f"Only the plays of tables created with the group code {ASKED_AS}" in page
    scores = found["scores"]
    assert f"middle half {scores['q1']}–{scores['q3']}" in page
    for p in found["group"]["players"]:
        assert (f'<tr data-name="{p["name"]}"><th scope="row">{p["name"]}</th><td>{p["plays"]}</td>'
                f'<td>{p["wins"]} ({p["rate"] * 100:.0f} %)</td><td>{p["average"]}</td><td>{p["best"]}</td>'
                in page)
    for r in found["group"]["head_to_head"]:
        (a, b), (x, y) = r["names"], r["ahead"]
        assert f'<th scope="row">{a} v {b}</th><td>{r["plays"]}</td><td>{x}–{y}</td><td>{r["level"]}</td>' in page
    for count, seats in expected(plays)["by_seat_by_players"].items():  # each number of the seat charts, as text
        assert f"Win rate of each seat in play order, {count} players, with its 95 % interval</caption>" in page
        for position, n, wins in seats:
            low, high = wilson(wins, n)
            ordinal = {1: "1st", 2: "2nd", 3: "3rd"}.get(position, f"{position}th")
            assert (f'<tr><th scope="row">{ordinal} to play</th><td>{wins}/{n} · {wins / n:.0%}</td>'
                    f'<td>95 %: {low:.0%}–{high:.0%}</td></tr>') in page
            assert f'text-anchor="end">{wins}/{n} · {wins / n:.0%}</text>' in page  # beside the bar
            assert f'text-anchor="end">95 %: {low:.0%}–{high:.0%}</text>' in page
    rows = list(csv.DictReader(io.StringIO(
        t.client.get(f"/stats/{game}/plays.csv?group={ASKED_AS}").get_data(as_text=True))))
    assert [(r["group"], int(r["players"]), int(r["seat"]), r["name"], int(r["score"]), int(r["place"]), r["won"])
            for r in rows] == [(ASKED_AS, len(p["seats"]), position, s["name"], s["score"], s["place"],
                                "yes" if s["won"] else "no")
                               for p in plays for position, s in enumerate(p["seats"], start=1)]


def test_the_command_line_shows_the_groups_numbers(played):
    t, data = played
    runner = CliRunner()
    as_json = runner.invoke(main, ["stats", "stars_inc", "--data", str(data), "--group", ASKED_AS, "--format", "json"])
    found = t.client.get(f"/api/stats/stars_inc?group={ASKED_AS}").get_json()
    assert as_json.exit_code == 0 and json.loads(as_json.output) == found
    table = runner.invoke(main, ["stats", "stars_inc", "--data", str(data), "--group", ASKED_AS]).output
    assert f"the plays of group {ASKED_AS}: 2 finished plays" in table.splitlines()[0]
    scores = found["scores"]
    assert f"final scores: {scores['median']} (middle half {scores['q1']}–{scores['q3']}" in table
    for r in found["group"]["head_to_head"]:
        (a, b), (x, y) = r["names"], r["ahead"]
        assert f"  {a} v {b}: {r['plays']}: {a} {x}, {b} {y}, level {r['level']}" in table


def test_a_group_moving_servers_keeps_its_history(played, tmp_path):
    """Export → import on a fresh server → the same statistics; the same file again, or a bad row, adds none."""
    t, _ = played
    fresh = tmp_path / "fresh"
    new_server = create_app({"DATA_DIR": str(fresh)}).test_client()  # a new server's empty database
    runner = CliRunner()
    for game in GAMES:
        exported = tmp_path / f"{game}.csv"
        exported.write_text(t.client.get(f"/stats/{game}/plays.csv?group={GROUP}").get_data(as_text=True))
        moved = runner.invoke(main, ["stats", game, "--data", str(fresh), "--import", str(exported),
                                     "--group", ASKED_AS, "--format", "json"])
        assert moved.exit_code == 0, moved.output
        before = t.client.get(f"/api/stats/{game}?group={ASKED_AS}").get_json()
        assert json.loads(moved.stdout) == {**before, "unfinished": 0}
        assert new_server.get(f"/stats/{game}/plays.csv?group={GROUP}").get_data(as_text=True) == \
            exported.read_bytes().decode()
        page = new_server.get(f"/stats/{game}?group={ASKED_AS}").get_data(as_text=True)
        assert f'data-plays="{before["plays"]}"' in page and "Head to head" in page
        again = runner.invoke(main, ["stats", game, "--data", str(fresh), "--import", str(exported)])
        assert again.exit_code != 0 and again.output.count("\n") == 1
        assert f"{exported}: line 2, a play of" in again.output and "on this server already" in again.output
    lines = exported.read_text().splitlines()
    for line, column, value, problem in [(3, "won", "maybe", "won: 'maybe' is neither yes nor no"),
                                         (2, "group", "", "group: empty"),
                                         (4, "seat", "7", "seat: 7 is not between 1 and 2"),
                                         (5, "seat", "1", "seat: a new play, but the play that starts on line 4")]:
        cells = lines[line - 1].split(",")
        cells[CSV_HEADER.index(column)] = value
        bad = tmp_path / "bad.csv"
        bad.write_text("\n".join([*lines[:line - 1], ",".join(cells), *lines[line:]]) + "\n")
        refused = runner.invoke(main, ["stats", "handful_of_stars", "--data", str(fresh),
                                       "--import", str(bad)])
        assert refused.exit_code != 0 and refused.output.startswith(f"{bad}: line {line}, {problem}"), refused.output
    twice = tmp_path / "twice.csv"
    twice.write_text("\n".join([*lines, *lines[1:3]]) + "\n")  # handful_of_stars: two seats a play
    other = tmp_path / "other"
    create_app({"DATA_DIR": str(other)})
    refused = runner.invoke(main, ["stats", "handful_of_stars", "--data", str(other), "--import", str(twice)])
    assert refused.exit_code != 0 and f"{twice}: line {len(lines) + 1}, a play of" in refused.output
    assert refused.output.rstrip().endswith("given twice: line 2 gives it too")
    nothing = runner.invoke(main, ["stats", "handful_of_stars", "--data", str(other), "--format", "json"])
    assert json.loads(nothing.output)["plays"] == 0  # nothing was added
    header = tmp_path / "header.csv"
    header.write_text("when,who\n")
    refused = runner.invoke(main, ["stats", "stars_inc", "--data", str(other), "--import", str(header)])
    assert refused.exit_code != 0 and refused.output.startswith(f"{header}: line 1, the header is not a plays.csv")
