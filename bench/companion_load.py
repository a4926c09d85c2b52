"""Companion load test: wrk at 32 connections against `starpnp serve` on loopback.

Three routes on the same server: a hello-world Flask route (registered only with STARPNP_BENCH_HELLO=1),
an unchanged poll (the table page's every-2s request, answered 204) and an event write (POST, a new row
in the log). Prints requests/s and p50/p99 latency and the ratios to hello-world.

    .venv/bin/python bench/companion_load.py [--seconds 5] [--rounds 3] [--connections 32]
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
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from starpnp.companion import DEFAULTS  # noqa: E402
from starpnp.companion.serve import THREADS  # noqa: E402

WRITE_LUA = """wrk.method = "POST"
wrk.body = '{"type": "add", "player": "p1", "delta": 1}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer %s"
"""


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


def _ms(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def wrk(url: str, seconds: int, connections: int, script: Path | None = None) -> dict:
    cmd = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", url]
    if script:
        cmd[1:1] = ["-s", str(script)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "p50": _ms(re.search(r"\s50%\s+(\S+)", out).group(1)),
            "p99": _ms(re.search(r"\s99%\s+(\S+)", out).group(1)),
            "bad": int(bad.group(1)) if bad else 0, "socket_errors": errors.group(1) if errors else ""}


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    mem = int(next(line.split()[1] for line in Path("/proc/meminfo").read_text().splitlines()
                   if line.startswith("MemTotal"))) / 1024 / 1024
    return f"{os.cpu_count()} cores ({cpu}), {mem:.0f} GiB, Python {platform.python_version()}, {platform.system()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=5, help="per route and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=32)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed (Debian: apt-get install wrk)")
    starpnp = shutil.which("starpnp", path=str(Path(sys.executable).parent)) or "starpnp"
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        env = {**os.environ, "STARPNP_BENCH_HELLO": "1"}
        server = subprocess.Popen([starpnp, "serve", "--host", "127.0.0.1", "--port", str(port), "--data", tmp],
                                  cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for(port, server)
            base = f"http://127.0.0.1:{port}"
            table = post_json(f"{base}/api/tables", {"game": "generic", "players": [{"name": "A"}, {"name": "B"}]})
            code = table["code"]
            script = Path(tmp) / "write.lua"
            script.write_text(WRITE_LUA % post_json(f"{base}/api/tables/{code}/join", {"player": "p1"})["token"])
            wrk(f"{base}/bench/hello", 2, args.connections)  # warm up
            def version() -> int:  # writes move it on; an unchanged poll asks with the current one
                with urllib.request.urlopen(f"{base}/api/tables/{code}") as resp:
                    return json.load(resp)["version"]

            routes = {"hello-world route": (lambda: f"{base}/bench/hello", None),
                      "unchanged poll (204)": (lambda: f"{base}/t/{code}/play/live?v={version()}", None),
                      "event write (POST, 201)": (lambda: f"{base}/api/tables/{code}/events", script)}
            # The routes take turns, several rounds, best round kept: a shared machine's background load
            # then hurts every route alike instead of whichever happened to run during a busy moment.
            runs: dict[str, list[dict]] = {name: [] for name in routes}
            for _ in range(args.rounds):
                for name, (url, lua) in routes.items():
                    runs[name].append(wrk(url(), args.seconds, args.connections, lua))
            results = {name: max(found, key=lambda r: r["rps"]) for name, found in runs.items()}
            for name, found in runs.items():
                found_rps = ", ".join(f"{r['rps']:.0f}" for r in found)
                print(f"{name}: req/s per round {found_rps}")
            with urllib.request.urlopen(f"{base}/api/tables/{code}") as resp:
                final = json.load(resp)
        finally:
            server.terminate()
            server.wait(10)
    hello = results["hello-world route"]["rps"]
    print(f"{machine()}; wrk -t2 -c{args.connections} -d{args.seconds}s, best of {args.rounds} rounds, on loopback, `starpnp serve` (waitress, "
          f"{THREADS} threads), SQLite WAL synchronous={DEFAULTS['SQLITE_SYNCHRONOUS']}")
    print(f"| {'route':<26} | {'req/s':>8} | {'p50 ms':>7} | {'p99 ms':>7} | {'× hello':>7} |")
    print(f"| {'---':<26} | {'---:':>8} | {'---:':>7} | {'---:':>7} | {'---:':>7} |")
    for name, r in results.items():
        print(f"| {name:<26} | {r['rps']:>8.0f} | {r['p50']:>7.2f} | {r['p99']:>7.2f} | {r['rps'] / hello:>7.2f} |")
    writes = final["state"]["counters"]["p1"]["Score"]
    problems = {n: (r["bad"], r["socket_errors"]) for n, r in results.items() if r["bad"] or r["socket_errors"]}
    print(f"events written: {writes} (log version {final['version']}); non-2xx or socket errors: {problems or 'none'}")
    poll_ok = results["unchanged poll (204)"]["rps"] >= 0.8 * hello
    write_ok = results["event write (POST, 201)"]["rps"] >= 0.4 * hello
    print(f"goals: poll >= 0.8x hello: {'met' if poll_ok else 'NOT met'}; write >= 0.4x hello: "
          f"{'met' if write_ok else 'NOT met'}")


if __name__ == "__main__":
    main()
