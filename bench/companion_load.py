"""Companion load test: wrk at 32 connections against `starpnp serve` on loopback.

Three routes on the same server: a hello-world Flask route (registered only with STARPNP_BENCH_HELLO=1),
an unchanged poll (the table page's every-2s request, answered 204) and an event write (POST, a new row
in the log). Prints requests/s and p50/p99 latency and the ratios to hello-world.

    .venv/bin/python bench/companion_load.py [--seconds 5] [--rounds 3] [--connections 32]

On PostgreSQL: `--postgres` starts a throwaway cluster (tests/companion/scratch_postgres.py; add server
settings with `--pg-setting synchronous_commit=off`), `--database-url URL` uses a database of your own.
`--processes N` then starts N servers on that one database, all on the same table, and gives each its
own wrk with an Nth of the connections at the same time, as a load balancer in front of them would:
req/s are summed, p50/p99 are the slowest server's.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "companion"))

from starpnp.companion import DEFAULTS  # noqa: E402
from starpnp.companion.serve import THREADS  # noqa: E402
from scratch_postgres import ScratchPostgres, create_database, find_initdb  # noqa: E402

WRITE_LUA = """wrk.method = "POST"
wrk.body = '{"type": "add", "player": "p1", "delta": 1}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer %s"
"""
# Each request to one of many tables, picked at random, with p1's seat token there: a host's load, where
# writes to different tables do not queue on one another.
MANY_TABLES_LUA = """wrk.method = "POST"
wrk.body = '{"type": "add", "player": "p1", "delta": 1}'
tables = {%s}
request = function()
  local at = tables[math.random(#tables)]
  return wrk.format(nil, at[1], {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. at[2]})
end
"""
TABLES = 32


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port: int, proc: subprocess.Popen) -> None:
    for _ in range(200):
        if proc.poll() is not None:
            raise SystemExit(f"server exited with status {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("server did not start")


def post_json(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as resp:
        return json.load(resp)


def new_table(base: str) -> tuple[str, str]:
    """A new generic table's code and a seat token for p1 there."""
    code = post_json(f"{base}/api/tables", {"game": "generic", "players": [{"name": "A"}, {"name": "B"}]})["code"]
    return code, post_json(f"{base}/api/tables/{code}/join", {"player": "p1"})["token"]


def _ms(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def _proc_stats() -> dict[int, tuple[int, float]]:
    """pid -> (parent pid, CPU seconds used, user + system) of every process."""
    stats, tick = {}, os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        stats[int(stat.parent.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    return stats


def cpu_seconds(pids: list[int]) -> float:
    """CPU time used so far by these processes and their children (PostgreSQL's backends, say): the cost of
    the requests whatever else the machine is doing, which throughput on a shared machine is not."""
    stats = _proc_stats()
    return sum(cpu for pid, (parent, cpu) in stats.items() if pid in pids or parent in pids)


def wrk(urls: list[str], seconds: int, connections: int, script: Path | None = None,
        serving: list[int] = ()) -> dict:
    """One wrk per URL (server), all at once, sharing the connections; their results combined, with the CPU
    time the `serving` processes (and their children) used per request."""
    cpu_before = cpu_seconds(serving)
    threads = 2 if len(urls) == 1 else 1
    cmds = [["wrk", f"-t{threads}", f"-c{connections // len(urls)}", f"-d{seconds}s", "--latency",
             *(["-s", str(script)] if script else []), url] for url in urls]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True) for cmd in cmds]
    outs = [proc.communicate()[0] for proc in procs]
    if any(proc.returncode for proc in procs):
        raise SystemExit(f"wrk failed: {outs}")
    cpu = cpu_seconds(serving) - cpu_before
    found = [_wrk_result(out) for out in outs]
    return {"rps": sum(r["rps"] for r in found), "cpu_ms": 1000 * cpu / sum(r["requests"] for r in found),
            "p50": max(r["p50"] for r in found),
            "p99": max(r["p99"] for r in found), "bad": sum(r["bad"] for r in found),
            "socket_errors": "; ".join(r["socket_errors"] for r in found if r["socket_errors"])}


def _wrk_result(out: str) -> dict:
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "requests": int(re.search(r"(\d+) requests in", out).group(1)),
            "p50": _ms(re.search(r"\s50%\s+(\S+)", out).group(1)),
            "p99": _ms(re.search(r"\s99%\s+(\S+)", out).group(1)),
            "bad": int(bad.group(1)) if bad else 0, "socket_errors": errors.group(1) if errors else ""}


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    mem = int(next(line.split()[1] for line in Path("/proc/meminfo").read_text().splitlines()
                   if line.startswith("MemTotal"))) / 1024 / 1024
    return f"{os.cpu_count()} cores ({cpu}), {mem:.0f} GiB, Python {platform.python_version()}, {platform.system()}"


def settled(bases: list[str], code: str) -> list[dict]:
    """The table as each server reports it, once writes wrk left in flight have landed (no change twice)."""
    previous: list[dict] = []
    for _ in range(40):
        finals = []
        for base in bases:
            with urllib.request.urlopen(f"{base}/api/tables/{code}") as resp:
                finals.append(json.load(resp))
        if previous and [f["version"] for f in finals] == [f["version"] for f in previous]:
            return finals
        previous = finals
        time.sleep(0.25)
    return previous


@contextmanager
def database(args) -> Iterator[tuple[str | None, list[int]]]:
    """The URL the servers share — a new database on a throwaway cluster, the given one, or None (SQLite) —
    and the processes of the database server that are ours to watch (the throwaway cluster's)."""
    if not args.postgres:
        yield args.database_url, []
        return
    initdb = find_initdb()
    if not initdb:
        raise SystemExit("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    cluster = ScratchPostgres(initdb, dict(setting.split("=", 1) for setting in args.pg_setting)).start()
    try:
        yield create_database(cluster.url()), [cluster.pid]
    finally:
        cluster.stop()


@contextmanager
def servers(count: int, url: str | None, tmp: Path) -> Iterator[tuple[list[str], list[int]]]:
    """`count` servers (each its own data folder) on the database at `url`; their base URLs and pids."""
    starpnp = shutil.which("starpnp", path=str(Path(sys.executable).parent)) or "starpnp"
    env = {**os.environ, "STARPNP_BENCH_HELLO": "1"}
    procs: list[subprocess.Popen] = []
    bases: list[str] = []
    try:
        for index in range(count):
            port = free_port()
            procs.append(subprocess.Popen(
                [starpnp, "serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(tmp / f"data{index}"),
                 *(["--database-url", url] if url else [])],
                cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            wait_for(port, procs[-1])
            bases.append(f"http://127.0.0.1:{port}")
        yield bases, [proc.pid for proc in procs]
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=5, help="per route and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--postgres", action="store_true", help="on a throwaway PostgreSQL cluster")
    parser.add_argument("--pg-setting", action="append", default=[], metavar="NAME=VALUE",
                        help="a server setting of the throwaway cluster (repeatable)")
    parser.add_argument("--database-url", help="on this PostgreSQL database")
    parser.add_argument("--processes", type=int, default=1, help="servers on the one database (PostgreSQL)")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed (Debian: apt-get install wrk)")
    if args.processes > 1 and not (args.postgres or args.database_url):
        raise SystemExit("--processes: several servers need PostgreSQL (--postgres or --database-url)")
    with (tempfile.TemporaryDirectory() as tmp, database(args) as (url, database_pids),
          servers(args.processes, url, Path(tmp)) as (bases, server_pids)):
        code, token = new_table(bases[0])
        script, many_script = Path(tmp) / "write.lua", Path(tmp) / "write-many.lua"
        script.write_text(WRITE_LUA % token)
        others = [new_table(bases[0]) for _ in range(TABLES)]
        many_script.write_text(MANY_TABLES_LUA % ", ".join(f'{{"/api/tables/{other}/events", "{seat}"}}'
                                                           for other, seat in others))
        wrk([f"{base}/bench/hello" for base in bases], 2, args.connections)  # warm up

        def version() -> int:  # writes move it on; an unchanged poll asks with the current one
            with urllib.request.urlopen(f"{bases[0]}/api/tables/{code}") as resp:
                return json.load(resp)["version"]

        routes = {"hello-world route": (lambda: [f"{base}/bench/hello" for base in bases], None),
                  "unchanged poll (204)": (lambda: [f"{base}/t/{code}/play/live?v={version()}" for base in bases],
                                           None),
                  "event write (POST, 201)": (lambda: [f"{base}/api/tables/{code}/events" for base in bases], script),
                  f"writes to {TABLES} tables": (lambda: bases, many_script)}
        # The routes take turns, several rounds, best round kept: a shared machine's background load
        # then hurts every route alike instead of whichever happened to run during a busy moment.
        runs: dict[str, list[dict]] = {name: [] for name in routes}
        for _ in range(args.rounds):
            for name, (urls, lua) in routes.items():
                runs[name].append(wrk(urls(), args.seconds, args.connections, lua, server_pids + database_pids))
        results = {name: max(found, key=lambda r: r["rps"]) for name, found in runs.items()}
        for name, found in runs.items():
            found_rps = ", ".join(f"{r['rps']:.0f}" for r in found)
            print(f"{name}: req/s per round {found_rps}")
        finals = settled(bases, code)
    hello = results["hello-world route"]["rps"]
    store = (f"PostgreSQL ({', '.join(args.pg_setting) or 'default settings'})" if url
             else f"SQLite WAL synchronous={DEFAULTS['SQLITE_SYNCHRONOUS']}")
    print(f"{machine()}; wrk -c{args.connections} -d{args.seconds}s, best of {args.rounds} rounds, on loopback, "
          f"{args.processes} × `starpnp serve` (waitress, {THREADS} threads), {store}")
    print("CPU ms/req: CPU time of the servers" + (" and PostgreSQL" if database_pids else "") + " per request")
    print(f"| {'route':<26} | {'req/s':>8} | {'p50 ms':>7} | {'p99 ms':>7} | {'× hello':>7} | {'CPU ms/req':>10} |")
    print(f"| {'---':<26} | {'---:':>8} | {'---:':>7} | {'---:':>7} | {'---:':>7} | {'---:':>10} |")
    for name, r in results.items():
        print(f"| {name:<26} | {r['rps']:>8.0f} | {r['p50']:>7.2f} | {r['p99']:>7.2f} | {r['rps'] / hello:>7.2f} "
              f"| {r['cpu_ms']:>10.2f} |")
    writes = finals[0]["state"]["counters"]["p1"]["Score"]
    problems = {n: (r["bad"], r["socket_errors"]) for n, r in results.items() if r["bad"] or r["socket_errors"]}
    print(f"events written: {writes} (log version {finals[0]['version']}; every server at the same version: "
          f"{len({f['version'] for f in finals}) == 1}); non-2xx or socket errors: {problems or 'none'}")
    poll_ok = results["unchanged poll (204)"]["rps"] >= 0.8 * hello
    write_ok = results["event write (POST, 201)"]["rps"] >= 0.4 * hello
    print(f"goals: poll >= 0.8x hello: {'met' if poll_ok else 'NOT met'}; write >= 0.4x hello: "
          f"{'met' if write_ok else 'NOT met'}")


if __name__ == "__main__":
    main()
