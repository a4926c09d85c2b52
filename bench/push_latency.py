"""Server push: how soon a tap on one phone shows on another, and what 300 open push streams cost a tap.

    .venv/bin/python bench/push_latency.py phones [--taps 50]               # one `starpnp serve` on SQLite
    .venv/bin/python bench/push_latency.py phones --postgres [--taps 50]    # two servers on one PostgreSQL
    .venv/bin/python bench/push_latency.py hold [--streams 300] [--taps 200]

`phones`: two real Chromium pages at 360x740, seated at one table (with --postgres, Ann's page on one server
and Ben's on the other, as behind a load balancer, on a throwaway cluster). Each of `--taps` taps presses
Ann's +1 inside her page and stamps the time; Ben's page stamps the time its number changes (a
MutationObserver); both clocks are the browser's. Tap to other phone = the difference: storing the event,
the push, Ben's fetch and the swap. Prints the median and the 95th percentile.

`hold`: one `starpnp serve` on SQLite; `--streams` push streams are opened and held (four phones at each of
streams/4 tables), then `--taps` taps (POST /api/.../events, one at a time, to those tables in turn) are
timed, and each tap's arrival on the four streams of its table. Prints tap p50/p95 and delivery p50/p95,
and the server's threads and resident memory while holding them.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "companion"))
sys.path.insert(0, str(REPO / "tests"))

import importlib.util  # noqa: E402

_spec = importlib.util.spec_from_file_location("companion_test_helpers", REPO / "tests/companion/helpers.py")
helpers = importlib.util.module_from_spec(_spec)
sys.modules["companion_test_helpers"] = helpers
_spec.loader.exec_module(helpers)

from scratch_postgres import ScratchPostgres, create_database, find_initdb  # noqa: E402

PLAYERS = [{"name": "Ann", "color": "red"}, {"name": "Ben", "color": "blue"}]
CHROMIUM = "/usr/bin/chromium"
STAMP_CHANGES = """() => { window.changes = [];
  new MutationObserver(() => { const n = document.querySelector('article[data-player="p1"] .big-number');
    if (n) window.changes.push([n.textContent.trim(), performance.timeOrigin + performance.now()]); })
  .observe(document.getElementById('live'), {childList: true, subtree: true, characterData: true}); }"""
TAP = """() => { const plus = document.querySelector('article[data-player="p1"] .grid2 button.plus');
  const at = performance.timeOrigin + performance.now(); plus.form.requestSubmit(plus); return at; }"""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def summary(name: str, values: list[float]) -> str:
    return (f"{name}: n={len(values)} median {statistics.median(values):.1f} ms, p95 {percentile(values, .95):.1f} ms, "
            f"max {max(values):.1f} ms")


def phones(args) -> None:
    from playwright.sync_api import sync_playwright

    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        extra: tuple[str, ...] = ()
        count = 1
        if args.postgres:
            cluster = ScratchPostgres(find_initdb()).start()
            stack.callback(cluster.stop)
            extra, count = ("--database-url", create_database(cluster.url())), 2
        servers = [helpers.ServerProcess(tmp / f"server{i}", extra_args=extra).start(timeout=60) for i in range(count)]
        for server in servers:
            stack.callback(server.stop)
        ann_base, ben_base = servers[0].base_url, servers[-1].base_url
        code = helpers.create_table(ann_base, "generic", PLAYERS)["code"]
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        stack.callback(browser.close)
        ann, ben = (browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True).new_page()
                    for _ in range(2))
        helpers.open_seat(ann, ann_base, code, "p1")
        helpers.open_seat(ben, ben_base, code, "p2")
        for page in (ann, ben):
            page.wait_for_selector("html[data-push=open]", state="attached")
        ben.evaluate(STAMP_CHANGES)
        latencies = []
        for n in range(1, args.taps + 1):
            tapped = ann.evaluate(TAP)
            ben.wait_for_function(f"() => window.changes.some(c => c[0] === '{n}')", timeout=10_000)
            shown = ben.evaluate(f"() => window.changes.find(c => c[0] === '{n}')[1]")
            latencies.append(shown - tapped)
            ann.wait_for_timeout(args.pause_ms)
        where = "two servers on one PostgreSQL" if args.postgres else "one server on SQLite"
        print(summary(f"tap to other phone, {where}", latencies))


def _sse_reader(host: str, port: int, path: str, arrivals: dict, key: str, ready: threading.Barrier) -> None:
    """Hold one push stream; note when each version arrives (arrivals[key, version] = [time, ...])."""
    sock = socket.create_connection((host, port))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
    buffer = b""
    ready.wait()
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return
        now = time.perf_counter()
        buffer += chunk
        while b"\n\n" in buffer:
            message, buffer = buffer.split(b"\n\n", 1)
            for line in message.split(b"\n"):
                if line.startswith(b"data: ") and line[6:].strip().isdigit():
                    arrivals.setdefault((key, int(line[6:])), []).append(now)
                    arrivals.setdefault("opened", set()).add(threading.get_ident())


def _rss_and_threads(pid: int) -> tuple[float, int]:
    status = Path(f"/proc/{pid}/status").read_text()
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["Threads"])


def hold(args) -> None:
    tables = args.streams // 4
    with tempfile.TemporaryDirectory() as tmp:
        server = helpers.ServerProcess(Path(tmp) / "data").start()
        try:
            base, port = server.base_url, server.port
            made = [helpers.create_table(base, "generic", PLAYERS) for _ in range(tables)]
            idle = _rss_and_threads(server.proc.pid)
            baseline, _ = _taps(port, made, args)
            arrivals: dict = {}
            ready = threading.Barrier(tables * 4 + 1)
            for table in made:
                for _ in range(4):
                    threading.Thread(name="stream", target=_sse_reader, args=("127.0.0.1", port, f"/t/{table['code']}/push", arrivals,
                                                               table["code"], ready), daemon=True).start()
            ready.wait()
            time.sleep(1.0)  # every stream has its first message
            opened = len(arrivals.get("opened", ()))
            holding = _rss_and_threads(server.proc.pid)
            taps, sent = _taps(port, made, args)
            time.sleep(1.0)
            delivered = [(at - start) * 1000 for code, seq, start in sent for at in arrivals.get((code, seq), [])]
            open_after = len([t for t in threading.enumerate() if t.name.startswith("stream")])
            missing = sum(4 - len(arrivals.get((code, seq), [])) for code, seq, _ in sent)
            print(f"{opened} of {tables * 4} push streams open on one process ({tables} tables x 4 phones), "
                  f"{open_after} still open after the taps")
            print(f"server: idle {idle[0]:.0f} MiB, {idle[1]} threads; holding them {holding[0]:.0f} MiB, {holding[1]} threads")
            print(summary("tap answered (POST, 201), no stream open", baseline))
            print(summary("tap answered (POST, 201), streams held", taps))
            print(summary("tap to the 4 streams of its table", delivered) + f", {missing} not delivered")
        finally:
            server.stop()


def _taps(port: int, made: list[dict], args) -> tuple[list[float], list[tuple[str, int, float]]]:
    """Tap once at each table in turn, one at a time: each tap's answer time (ms), and (table, seq, start)."""
    conn = http.client.HTTPConnection("127.0.0.1", port)
    taps, sent = [], []
    tables = len(made)
    for i in range(args.taps):
        table = made[i % tables]
        body = json.dumps({"type": "add", "player": "p1", "delta": 1})
        start = time.perf_counter()
        conn.request("POST", f"/api/tables/{table['code']}/events", body,
                     {"Content-Type": "application/json", **helpers.bearer(table["tokens"]["p1"])})
        answer = conn.getresponse()
        seq = json.loads(answer.read())["seq"]
        taps.append((time.perf_counter() - start) * 1000)
        assert answer.status == 201, answer.status
        sent.append((table["code"], seq, start))
        time.sleep(args.pause_ms / 1000)
    conn.close()
    return taps, sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("phones", help="tap-to-other-phone latency with two real browsers")
    p.add_argument("--taps", type=int, default=50)
    p.add_argument("--postgres", action="store_true", help="two servers on one throwaway PostgreSQL cluster")
    p.add_argument("--pause-ms", type=int, default=300, help="between taps (a player's pace)")
    h = sub.add_parser("hold", help="tap latency while one process holds many push streams")
    h.add_argument("--streams", type=int, default=300)
    h.add_argument("--taps", type=int, default=200)
    h.add_argument("--pause-ms", type=int, default=20)
    args = parser.parse_args()
    {"phones": phones, "hold": hold}[args.what](args)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
