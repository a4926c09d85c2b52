"""The statistics page on a real log: 10,000 finished tables of one game (issue #43).

    .venv/bin/python bench/stats.py [--tables 10000] [--runs 15]              # SQLite in a temporary folder
    .venv/bin/python bench/stats.py --postgres [--tables 10000] [--runs 15]   # a throwaway PostgreSQL cluster
    .venv/bin/python bench/stats.py --data DIR                                # SQLite kept in DIR: filled once,
                                                                              # timed again on later runs

Fills a fresh database, through the store as the API would (every event checked by the rules and stored), with
`--tables` finished tables of a designer's declared game (tests/fixtures/couriers: 2 to 4 players, a few turns
each, ended by a trigger or by the table, some level on points and some of those settled by the tie-break,
seated in 20 groups) and a twentieth as many unfinished ones. Then times, in-process through Flask's test client
(the whole request: queries, numbers, charts, template), `--runs` requests each of the page /stats/couriers,
/api/stats/couriers, the page with a group's names, and the CSV of every play. Prints the fill rate and the
median and slowest request of each.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "companion"))

from scratch_postgres import ScratchPostgres, create_database, find_initdb  # noqa: E402

from starpnp.companion import create_app  # noqa: E402

COURIERS = REPO / "tests" / "fixtures" / "couriers"
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
GROUPS = [f"group {n:02d}" for n in range(20)]


@contextmanager
def database(postgres: bool) -> Iterator[str | None]:
    if not postgres:
        yield None
        return
    initdb = find_initdb()
    if not initdb:
        raise SystemExit("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    cluster = ScratchPostgres(initdb).start()
    try:
        yield create_database(cluster.url())
    finally:
        cluster.stop()


def play_one(store, rng: random.Random, finish: bool) -> None:
    count = rng.randint(2, 4)
    seats = [f"p{i + 1}" for i in range(count)]
    players = [{"id": seat, "name": name, "color": color} for seat, name, color in
               zip(seats, rng.sample(NAMES, count), ["red", "blue", "green", "yellow"])]
    group = rng.choice(GROUPS)
    snap = store.create_table("couriers", players, {}, store.group_key(group))
    code = snap.table.code
    turns = rng.randint(0, 3 * count)
    for turn in range(turns):
        store.append(code, {"type": "end_turn", "player": seats[turn % count], "turn": turn})
    if not finish:
        return
    if rng.random() < 0.6:  # a seat (more often the first to play) reaches the trigger
        winner = seats[0] if rng.random() < 0.35 else rng.choice(seats)
        for seat in seats:
            if seat != winner:
                store.append(code, {"type": "add", "player": seat, "counter": "points", "delta": rng.randint(0, 11)})
        store.append(code, {"type": "add", "player": winner, "counter": "points", "delta": 12})
        return
    level = rng.random() < 0.3  # the table ends it: sometimes level on points, settled by fuel or shared
    for seat in seats:
        store.append(code, {"type": "add", "player": seat, "counter": "points",
                            "delta": 6 if level else rng.randint(0, 11)})
    if level and rng.random() < 0.5:
        store.append(code, {"type": "add", "player": rng.choice(seats), "counter": "fuel", "delta": 1})
    store.append(code, {"type": "end_game", "player": seats[0]})


def timed(client, path: str, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        answer = client.get(path)
        times.append(time.perf_counter() - start)
        assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    return statistics.median(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--data", type=Path, help="keep the SQLite database in this folder (filled if empty)")
    args = parser.parse_args()
    rng = random.Random(43)
    with tempfile.TemporaryDirectory() as tmp, database(args.postgres) as url:
        app = create_app({"DATA_DIR": str(args.data or tmp), "DATABASE_URL": url, "GAME_FOLDERS": [str(COURIERS)],
                          "MAX_TABLES": args.tables * 2})
        store = app.extensions["companion_store"]
        client = app.test_client()
        start = time.perf_counter()
        if client.get("/api/stats/couriers").get_json()["plays"] == 0:
            for index in range(args.tables + args.tables // 20):
                play_one(store, rng, finish=index < args.tables)
        filled = time.perf_counter() - start
        found = client.get("/api/stats/couriers").get_json()
        assert found["plays"] == args.tables, found["plays"]
        fill = f"filled in {filled:.0f} s ({args.tables / filled:.0f} tables/s)" if filled > 1 else "kept from before"
        print(f"{'PostgreSQL' if url else 'SQLite'}: {found['plays']} finished tables, {found['unfinished']} "
              f"unfinished, {fill}")
        for label, path in (("page", "/stats/couriers"), ("JSON", "/api/stats/couriers"),
                            ("page with a group", f"/stats/couriers?group={GROUPS[0]}"),
                            ("CSV of every play", "/stats/couriers/plays.csv")):
            middle, slowest = timed(client, path, args.runs)
            print(f"  {label:<20} median {middle * 1000:6.0f} ms   slowest {slowest * 1000:6.0f} ms")


if __name__ == "__main__":
    main()
