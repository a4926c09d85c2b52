"""What the plays say (issue #43): tables of our four games and of a designer's declared game (the couriers
fixture) are played to their end through the JSON API, on a clock that moves 30 s per stored row, and every
number of /api/stats/<game> — plays, seats, rates and their Wilson intervals, lengths, minutes, scores, margins,
endings, ties — is checked against the tables as played. Names never leave their group."""
from __future__ import annotations

import csv
import io
import json
import re
import statistics
from pathlib import Path

import pytest
from click.testing import CliRunner
from companion_test_helpers import STRATASTAR_TO_BATTLE, PhoneClient

from starpnp.companion import create_app, storage
from starpnp.generator.cli import main

COURIERS = Path(__file__).resolve().parents[1] / "fixtures" / "couriers"


class Clock:
    """time.time for the store: 30 seconds later at every call, so each play lasts minutes, not microseconds."""

    def __init__(self):
        self.now = 1_800_000_000.0

    def time(self) -> float:
        self.now += 30
        return self.now


def people(*names):
    return [{"name": name} for name in names]


class Tables:
    """Plays tables through the API and notes, for each finished one, what the statistics must count: the
    seats in the order they played (name, final score, whether that seat won alone), its length, its minutes
    (from the log's own times), how it ended and its tie."""

    def __init__(self, client):
        self.client = client
        self.played: dict[str, list[dict]] = {}
        self.groups: dict[str, str] = {}  # join code -> the group code it was created with

    def new(self, game, names, group=None, options=None):
        body = {"game": game, "players": people(*names), "options": options or {}}
        if group:
            body["group"] = group
        answer = self.client.post("/api/tables", json=body)
        assert answer.status_code == 201, answer.get_json()
        code = answer.get_json()["code"]
        if group:
            self.groups[code] = group
        return code

    def send(self, code, *events):
        for event in events:
            answer = self.client.post(f"/api/tables/{code}/events", json=event)
            assert answer.status_code == 201, (event, answer.get_json())

    def finished(self, game, code, order, winner, length, ending, tie=None):
        """Note a finished table: `order` the seats (p1, …) in play order, `winner` the seat that won alone."""
        table = self.client.get(f"/api/tables/{code}").get_json()
        board = table["derived"]["scoreboard"]
        assert board["over"]
        scores = {row["player"]: row["score"] for row in board["rows"]}
        places = {row["player"]: row["rank"] for row in board["rows"]}
        names = {p["id"]: p["name"] for p in table["players"]}
        times = [e["at"] for e in self.client.get(f"/api/tables/{code}/events").get_json()["events"]]
        self.played.setdefault(game, []).append({
            "group": self.groups.get(code), "seats": [{"name": names[pid], "score": scores[pid], "place": places[pid],
                                       "won": pid == winner} for pid in order],
            "length": length, "minutes": round((max(times) - min(times)) / 60, 1), "ending": ending, "tie": tie})


def stratastar(t: Tables, names, group=None):
    code = t.new("stratastar", names, group)
    t.send(code, *STRATASTAR_TO_BATTLE, {"type": "battle_start", "player": "p1", "defender": "p2"},
           {"type": "battle_side", "player": "p1", "fleets": 4, "attack": 1},
           {"type": "battle_side", "player": "p2", "homeworld": 1}, {"type": "battle_resolve", "player": "p1"})
    t.finished("stratastar", code, [f"p{i + 1}" for i in range(len(names))], "p1", 1, "captured an enemy homeworld")


def starship_catan(t: Tables, names, winner, loser_vp=0, rolls=0, group=None):
    code = t.new("starship_catan", names, group)
    loser = "p2" if winner == "p1" else "p1"
    for turn in range(rolls):
        t.send(code, {"type": "yellow_die", "player": ("p1", "p2")[turn % 2], "value": 1 + turn % 3})
    if loser_vp:
        t.send(code, {"type": "vp", "player": loser, "delta": loser_vp})
    t.send(code, {"type": "vp", "player": winner, "delta": 10})
    t.finished("starship_catan", code, ["p1", "p2"], winner, rolls, "reached 10 VP")


def stars_inc(t: Tables, names, points=None, group=None):
    """Nine rounds of the standard game, `points` given by hand in round 1; no points: the victory is shared."""
    code = t.new("stars_inc", names, group)
    seats = [f"p{i + 1}" for i in range(len(names))]
    for round_ in range(9):
        t.send(code, {"type": "new_round", "player": "p1", "hydrogen": 2, "actions": 3})
        if round_ == 0:
            for seat, n in (points or {}).items():
                t.send(code, {"type": "adjust", "player": seat, "what": "points", "delta": n})
        t.send(code, {"type": "end_round", "player": "p1", "unharvested": "skip"})
    for event_type in ("harvest", "done"):
        for seat in seats:
            t.send(code, {"type": event_type, "player": seat})
    if points:
        winner = max(points, key=points.get)
        t.finished("stars_inc", code, seats, winner, 9, "after round 9")
    else:
        t.finished("stars_inc", code, seats, None, 9, "victory shared", "shared")


def stars_inc_tie_round(t: Tables, names):
    """The advanced game to 3 points: both reach it level, a tie round is played, and Ben pulls ahead in it."""
    code = t.new("stars_inc", names, options={"mode": "advanced", "target_score": 3})
    rounds = [{"p1": 3, "p2": 3}, {"p2": 1}]  # the round that reaches the target, then the tie round
    for gains in rounds:
        t.send(code, {"type": "new_round", "player": "p1", "hydrogen": 2, "actions": 3})
        for seat, n in gains.items():
            t.send(code, {"type": "adjust", "player": seat, "what": "points", "delta": n})
        t.send(code, {"type": "end_round", "player": "p1", "unharvested": "skip"})
        for event_type in ("harvest", "done"):
            for seat in ("p1", "p2"):
                t.send(code, {"type": event_type, "player": seat})
    t.finished("stars_inc", code, ["p1", "p2"], "p2", 2, "target score reached", "a tie round")


def handful_of_stars(t: Tables, names, systems_to=None, group=None):
    """Seat 2 plays first; both stay on their starting VP: shared, unless `systems_to` holds one more system."""
    code = t.new("handful_of_stars", names, group, {"first_player": 2})
    if systems_to:
        t.send(code, {"type": "occupy", "player": systems_to, "delta": 1})
    for _ in range(14):
        t.send(code, {"type": "shuffle", "player": "p1"})
    while not (derived := t.client.get(f"/api/tables/{code}").get_json()["derived"])["game_over"]:
        t.send(code, {"type": "end_turn", "player": derived["active"]})
    t.finished("handful_of_stars", code, ["p2", "p1"], systems_to, derived["turns"] // 2,
               "the round after the shuffle trigger", "systems" if systems_to else "shared")


def couriers_to_12(t: Tables, names, winner, group=None):
    code = t.new("couriers", names, group)
    t.send(code, {"type": "end_turn", "player": "p1", "turn": 0},
           {"type": "add", "player": winner, "counter": "points", "delta": 12})
    t.finished("couriers", code, [f"p{i + 1}" for i in range(len(names))], winner, 1, "Points reached 12")


def couriers_ended(t: Tables, names, points, fuel=None, group=None):
    """The table ends the game: level on points, `fuel` (the declared tie-break) decides, or nothing does."""
    code = t.new("couriers", names, group)
    for seat in [f"p{i + 1}" for i in range(len(names))]:
        t.send(code, {"type": "add", "player": seat, "counter": "points", "delta": points})
    if fuel:
        t.send(code, {"type": "add", "player": fuel, "counter": "fuel", "delta": 1})
    t.send(code, {"type": "end_game", "player": "p1"})
    t.finished("couriers", code, [f"p{i + 1}" for i in range(len(names))], fuel, 0, "ended by the table",
               "Fuel" if fuel else "shared")


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Every game's tables, played once for the module; a few left unfinished, one finished then undone."""
    data = tmp_path_factory.mktemp("stats")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(storage, "time", Clock())
        app = create_app({"DATA_DIR": str(data), "PUBLIC_URL": "http://table.test", "GAME_FOLDERS": [str(COURIERS)]})
        app.test_client_class = PhoneClient
        client = app.test_client()
        t = Tables(client)
        stratastar(t, ["Ann", "Ben"], group="Smith family")
        stratastar(t, ["Cy", "Dee", "Eve"])
        t.new("stratastar", ["Ann", "Ben"])  # never played
        starship_catan(t, ["Ann", "Ben"], "p1", group="Smith family")
        starship_catan(t, ["Ann", "Ben"], "p2", loser_vp=7, rolls=5, group="Smith family")
        starship_catan(t, ["Fay", "Gus"], "p1", loser_vp=3, rolls=2, group="Jones")
        undone = t.new("starship_catan", ["Ann", "Ben"])  # ended, then its last move taken back: unfinished
        t.send(undone, {"type": "vp", "player": "p1", "delta": 10})
        assert client.post(f"/api/tables/{undone}/undo", json={"player": "p1"}).status_code == 201
        stars_inc(t, ["Ann", "Ben"])
        stars_inc(t, ["Ann", "Ben", "Cy"], {"p1": 1, "p2": 4})
        stars_inc_tie_round(t, ["Ann", "Ben"])
        handful_of_stars(t, ["Ann", "Ben"])
        handful_of_stars(t, ["Ann", "Ben"], systems_to="p1")
        couriers_to_12(t, ["Ann", "Ben"], "p2", group="Jones")
        couriers_to_12(t, ["Ann", "Ben", "Cy"], "p3")
        couriers_ended(t, ["Ann", "Ben"], 3, fuel="p2")
        couriers_ended(t, ["Ann", "Ben"], 5)
        t.new("couriers", ["Ann", "Ben"])
        phone = app.test_client()  # a phone that creates its table from the home page's form
        form = phone.get("/").get_data(as_text=True)
        csrf = form.split('name="csrf_token" value="')[1].split('"')[0]
        answer = phone.post("/tables", data={"csrf_token": csrf, "game": "couriers", "name1": "Hal", "name2": "Ivy"})
        assert answer.status_code == 303
        code = answer.headers["Location"].rstrip("/").rsplit("/", 1)[1]
        t.send(code, {"type": "add", "player": "p1", "counter": "points", "delta": 12})
        t.finished("couriers", code, ["p1", "p2"], "p1", 0, "Points reached 12")
        yield app, client, t, data, phone


def spread_of(values):
    if len(values) == 1:
        return {"median": values[0], "min": values[0], "max": values[0]}
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def close(found: dict, expected: dict):
    return all(abs(found[key] - value) < 0.051 for key, value in expected.items())


@pytest.mark.parametrize("game, unfinished", [("stratastar", 1), ("starship_catan", 1), ("stars_inc", 0),
                                              ("handful_of_stars", 0), ("couriers", 1)])
def test_every_number_matches_the_tables_played(played, game, unfinished):
    _, client, t, _, _ = played
    found = client.get(f"/api/stats/{game}").get_json()
    plays = t.played[game]
    assert found["game"] == game and found["plays"] == len(plays) and found["unfinished"] == unfinished
    counts = [len(p["seats"]) for p in plays]
    assert found["by_players"] == {str(n): counts.count(n) for n in sorted(set(counts))}
    for position, row in enumerate(found["by_seat"], start=1):
        at = [p["seats"][position - 1] for p in plays if len(p["seats"]) >= position]
        wins = sum(seat["won"] for seat in at)
        assert (row["seat"], row["plays"], row["wins"]) == (position, len(at), wins)
        assert row["rate"] == pytest.approx(wins / len(at), abs=1e-4) and row["low"] <= row["rate"] <= row["high"]
    assert len(found["by_seat"]) == max(counts)
    assert close(found["length"]["turns"], spread_of([p["length"] for p in plays]))
    assert close(found["length"]["minutes"], spread_of([p["minutes"] for p in plays]))
    assert found["length"]["minutes"]["max"] > 0  # the clock moved: a play lasts minutes
    assert close(found["scores"], spread_of([s["score"] for p in plays for s in p["seats"]]))
    margins = []
    for p in plays:
        if p["tie"] == "shared":
            margins.append(0)
        elif any(s["won"] for s in p["seats"]):
            margins.append(next(s["score"] for s in p["seats"] if s["won"])
                           - max(s["score"] for s in p["seats"] if not s["won"]))
    assert close(found["scores"]["margin"], spread_of(margins))
    endings = [p["ending"] for p in plays]
    assert found["endings"] == {text: endings.count(text) for text in set(endings)}
    ties = [p["tie"] for p in plays if p["tie"]]
    assert found["ties"] == {"plays": len(ties), "shared": ties.count("shared"),
                             "broken": {by: ties.count(by) for by in set(ties) - {"shared"}}}


def test_a_tie_is_a_win_for_no_seat_unless_the_tie_break_decides_it(played):
    _, client, _, _, _ = played
    handful = client.get("/api/stats/handful_of_stars").get_json()
    # both plays level on VP; the second broken by systems for p1, who played second (seat 2 played first)
    assert [(row["seat"], row["wins"]) for row in handful["by_seat"]] == [(1, 0), (2, 1)]
    assert handful["ties"] == {"plays": 2, "shared": 1, "broken": {"systems": 1}}
    stars = client.get("/api/stats/stars_inc").get_json()  # shared; won outright; level, then a tie round
    assert [row["wins"] for row in stars["by_seat"]] == [0, 2, 0]
    assert stars["ties"] == {"plays": 2, "shared": 1, "broken": {"a tie round": 1}}
    couriers = client.get("/api/stats/couriers").get_json()
    assert couriers["ties"] == {"plays": 2, "shared": 1, "broken": {"Fuel": 1}}
    assert couriers["endings"] == {"Points reached 12": 3, "ended by the table": 2}


def test_the_wilson_interval_is_the_textbook_one():
    from starpnp.companion.stats import wilson
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)


@pytest.mark.parametrize("values", [[7], [3, 1], [2, 2, 9], [1, 5, 5, 6, 30], [0.5, 0.1, 2.3, 2.3, 4.0, 7.7],
                                    [n % 7 for n in range(101)], [n * n % 13 for n in range(40)]])
def test_a_spread_from_counts_is_the_median_and_quartiles_of_the_values(values):
    """The database counts each value once (value -> how often); the spread is what statistics would give for
    the values one by one."""
    from collections import Counter
    from starpnp.companion.stats import spread
    found = spread(Counter(values))
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else values * 3
    expected = {"n": len(values), "median": statistics.median(values), "q1": q1, "q3": q3, "min": min(values),
                "max": max(values)}
    assert found.keys() == expected.keys()
    assert all(found[key] == pytest.approx(expected[key], abs=0.05) for key in expected), (found, expected)
    assert spread({}) == {"n": 0, "median": None, "q1": None, "q3": None, "min": None, "max": None}


def test_an_undone_ending_leaves_the_table_unfinished(played):
    _, client, _, _, _ = played
    found = client.get("/api/stats/starship_catan").get_json()
    assert found["plays"] == 3 and found["unfinished"] == 1


def test_public_numbers_name_nobody_and_a_group_sees_only_its_own_names(played):
    _, client, _, _, _ = played
    everyone = {"Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"}
    for game in ("stratastar", "starship_catan", "couriers"):
        public = client.get(f"/api/stats/{game}").get_data(as_text=True)
        page = client.get(f"/stats/{game}").get_data(as_text=True)  # this client has no table of its own
        rows = list(csv.DictReader(io.StringIO(client.get(f"/stats/{game}/plays.csv").get_data(as_text=True))))
        assert not any(re.search(rf"\b{name}\b", text) for name in everyone for text in (public, page))
        assert {row["name"] for row in rows} == {""} and {row["group"] for row in rows} == {""}
    smith_numbers = client.get("/api/stats/starship_catan?group=smith%20FAMILY").get_json()
    smith = smith_numbers["group"]
    assert {p["name"] for p in smith["players"]} == {"Ann", "Ben"} and smith_numbers["plays"] == 2
    assert [(p["name"], p["wins"], p["plays"], p["best"]) for p in smith["players"]] == [("Ann", 1, 2, 10),
                                                                                       ("Ben", 1, 2, 10)]
    jones = client.get("/api/stats/starship_catan?group=Jones").get_json()["group"]
    assert {p["name"] for p in jones["players"]} == {"Fay", "Gus"}
    jones_page = client.get("/stats/starship_catan?group=Jones").get_data(as_text=True)
    assert "Fay" in jones_page and "Ann" not in jones_page and "Ben" not in jones_page
    jones_rows = list(csv.DictReader(io.StringIO(
        client.get("/stats/starship_catan/plays.csv?group=Jones").get_data(as_text=True))))
    assert {row["name"] for row in jones_rows} == {"Fay", "Gus"} and len(jones_rows) == 2
    assert client.get("/api/stats/couriers?group=Jones").get_json()["group"]["players"][0]["name"] in {"Ann", "Ben"}
    assert client.get("/api/stats/stratastar?group=Jones").get_json()["plays"] == 0
    unknown = client.get("/api/stats/starship_catan?group=Nobody%20here")
    assert unknown.status_code == 404 and unknown.get_json()["error"].startswith("group: ")


def test_a_phone_sees_the_names_of_its_own_tables_only(played):
    _, client, _, _, phone = played
    page = phone.get("/stats/couriers").get_data(as_text=True)
    assert "this phone" in page and "Hal" in page and "Ivy" in page and "Ann" not in page
    assert "Hal" not in client.get("/stats/couriers").get_data(as_text=True)
    assert "Hal" not in phone.get("/stats/stratastar").get_data(as_text=True)


def test_the_csv_has_a_row_per_player_per_play_and_is_formula_safe(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path)})
    app.test_client_class = PhoneClient
    client = app.test_client()
    code = client.post("/api/tables", json={"game": "starship_catan", "group": "=cmd group",
                                            "players": people("=HYPERLINK(1)", "@Ben")}).get_json()["code"]
    client.post(f"/api/tables/{code}/events", json={"type": "vp", "player": "p1", "delta": 10})
    text = client.get("/stats/starship_catan/plays.csv?group==cmd%20group").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:6] == ["date", "group", "players", "seat", "name", "score"] and len(rows) == 3
    assert [row[4] for row in rows[1:]] == ["'=HYPERLINK(1)", "'@Ben"] and rows[1][1] == "'=cmd group"


def test_a_bad_group_or_game_is_a_one_line_4xx(client):
    answer = client.post("/api/tables", json={"game": "generic", "players": people("Ann", "Ben"), "group": "ab"})
    assert answer.status_code == 400 and answer.get_json()["error"].startswith("group: ")
    answer = client.get("/api/stats/nope")
    assert answer.status_code == 404 and answer.get_json()["error"].startswith("game: 'nope'")
    assert client.get("/stats/stratastar?group=" + "x" * 40).status_code == 400


def test_the_page_is_linked_and_draws_its_charts(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "GAME_FOLDERS": [str(COURIERS)]})
    app.test_client_class = PhoneClient
    client = app.test_client()
    t = Tables(client)
    handful_of_stars(t, ["Ann", "Ben"], systems_to="p1")
    assert 'href="/stats/stratastar"' in client.get("/").get_data(as_text=True)
    code = t.new("couriers", ["Ann", "Ben"])
    assert 'href="/stats/couriers"' in client.get(f"/t/{code}/history").get_data(as_text=True)
    page = client.get("/stats/handful_of_stars").get_data(as_text=True)
    assert page.count("<svg") >= 4 and "Wins by seat, 2 players" in page and "fair share 50%" in page


def test_the_command_line_prints_the_same_numbers(played):
    _, client, _, data, _ = played
    runner = CliRunner()
    result = runner.invoke(main, ["stats", "starship_catan", "--data", str(data), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == client.get("/api/stats/starship_catan").get_json()
    table = runner.invoke(main, ["stats", str(COURIERS), "--data", str(data), "--group", "Jones"])
    assert table.exit_code == 0 and "group Jones: 1 finished play," in table.output and "Ann" in table.output
    rows = runner.invoke(main, ["stats", "stratastar", "--data", str(data), "--format", "csv"]).output
    assert len(list(csv.reader(io.StringIO(rows)))) == 1 + 2 + 3
    missing = runner.invoke(main, ["stats", "stratastar", "--data", str(data / "nowhere")])
    assert missing.exit_code == 2 and "companion.sqlite3" in missing.output


def test_tables_finished_before_the_plays_table_are_recorded_once(played, tmp_path):
    """A database from before `plays` (schema version 7: no plays, no group column) gets them from the logs on
    its first start with them."""
    import shutil
    from sqlalchemy import create_engine, text
    _, client, _, data, _ = played
    copy = tmp_path / "old"
    copy.mkdir()
    for kept in data.glob("companion.sqlite3*"):  # the write-ahead log too: the server has not checkpointed it
        shutil.copy(kept, copy / kept.name)
    engine = create_engine(f"sqlite:///{copy / 'companion.sqlite3'}")
    with engine.begin() as conn:
        for statement in ("DROP TABLE play_seats", "DROP TABLE plays", "DROP INDEX ix_tables_game",
                          "DROP INDEX ix_tables_group", "ALTER TABLE tables DROP COLUMN group_key",
                          "DELETE FROM schema_version WHERE version = 8",
                          "DELETE FROM settings WHERE key LIKE 'plays_recorded:%'"):
            conn.execute(text(statement))
    engine.dispose()
    again = create_app({"DATA_DIR": str(copy), "GAME_FOLDERS": [str(COURIERS)]}).test_client()
    for game in ("stratastar", "stars_inc", "couriers"):
        assert again.get(f"/api/stats/{game}").get_json()["by_seat"] == \
            client.get(f"/api/stats/{game}").get_json()["by_seat"]


def test_on_postgresql_the_same_plays_give_the_same_numbers(postgres_url, tmp_path):
    """The database counts the statistics: PostgreSQL's counts (its sums are decimals) read as SQLite's do."""
    apps = [create_app({"DATA_DIR": str(tmp_path / "sqlite")}),
            create_app({"DATA_DIR": str(tmp_path / "pg"), "DATABASE_URL": postgres_url})]
    found = []
    for app in apps:
        app.test_client_class = PhoneClient
        t = Tables(app.test_client())
        starship_catan(t, ["Ann", "Ben"], "p1", loser_vp=4, group="Smith family")
        starship_catan(t, ["Ann", "Ben"], "p2", rolls=3)
        handful_of_stars(t, ["Ann", "Ben"], systems_to="p1")
        undone = t.new("starship_catan", ["Ann", "Ben"])
        t.send(undone, {"type": "vp", "player": "p2", "delta": 10})
        assert t.client.post(f"/api/tables/{undone}/undo", json={"player": "p2"}).status_code == 201
        found.append([without_times(t.client.get(path).get_json()) for path in (
            "/api/stats/starship_catan", "/api/stats/handful_of_stars", "/api/stats/starship_catan?group=Smith family")])
    assert found[0][0]["plays"] == 2 and found[0][0]["unfinished"] == 1 and found[0][2]["plays"] == 1
    assert found[0] == found[1]


def without_times(numbers: dict) -> dict:
    """The statistics but the minutes and the dates, which follow the clock."""
    numbers["length"].pop("minutes")
    if "group" in numbers:
        numbers["group"].pop("last")
    return numbers


def test_guessing_group_codes_is_slowed_down_as_guessing_table_codes_is(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "WRONG_CODES_PER_MINUTE": 3})
    client = app.test_client()
    assert client.post("/api/tables", json={"game": "generic", "players": people("Ann", "Ben"),
                                            "group": "Smith family"}).status_code == 201
    assert [client.get(f"/api/stats/generic?group=guess {n}").status_code for n in range(3)] == [404] * 3
    assert client.get("/api/stats/generic?group=Smith family").status_code == 429
    assert client.get("/api/stats/generic").status_code == 200  # the public numbers name nobody: not held back
