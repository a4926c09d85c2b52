"""Benchmarks: `make bench` or `.venv/bin/python bench/run.py [NAME ...]`.

deck: builds the 85-card poker deck (five designs) with `starpnp build --duplex off` (fronts only) and with
a bare ReportLab script that draws the same pages, each as a whole process, taking turns (starpnp, bare,
starpnp, bare, ...), and reports the median CPU (user + system) and wall time and peak resident memory
(ru_maxrss from wait4) of each, and the median of the pairs' ratios; deck850 does the same with ten times as
many cards.
distinct85, distinct850, distinct8500: the same against decks whose cards all differ (title and text), as
real decks do; `distinct` runs all three and reports the cost of one more card (from 850 to 8500 cards).
watch: seconds from saving one card's change to the rebuilt PDF in `--watch` mode.
inklow: each of the four games built with and without `--ink low` (PDF, A4), as whole processes, runs alternating;
median CPU per game and the ratio low / default, then the same for the four games in one command (`--all`).
Results go in BENCHMARKS.md by hand, with the machine they were measured on.
"""
from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from deck_game import deck as deck_cards, write_deck_game  # noqa: E402

RUNS = 5  # counted runs of each command, after one warm-up run of each
INK_RUNS = 7  # inklow: runs of each build, alternating; the median is kept
# As on a user's machine: bytecode is cached after the first run (some shells set PYTHONDONTWRITEBYTECODE,
# which would make starpnp recompile its own modules every run while ReportLab's came compiled from pip).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def measure(cmd: list[str], cwd: Path) -> tuple[float, float, float]:
    """CPU seconds (user + system), wall seconds and peak RSS (MiB) of one whole process, from wait4."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.read().decode()}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


def alternate(a: list[str], b: list[str], cwd_a: Path, cwd_b: Path, runs: int) -> tuple[list, list]:
    """`runs` runs of each, taking turns (a, b, a, b, ...) after one warm-up of each, so a change in the
    shared machine's speed falls on both alike."""
    measure(a, cwd_a), measure(b, cwd_b)
    pairs = [(measure(a, cwd_a), measure(b, cwd_b)) for _ in range(runs)]
    return [p[0] for p in pairs], [p[1] for p in pairs]


def deck(spec: str = "deck") -> dict:
    """starpnp against the bare script for one deck, fronts only; prints medians and returns them."""
    cards, runs = deck_cards(spec), RUNS
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        game = write_deck_game(tmp / "benchdeck", cards)
        starpnp = [sys.executable, "-m", "starpnp", "build", str(game), "--out", str(tmp / "out"),
                   "--format", "pdf", "--bleed", "0", "--duplex", "off", "--quiet", "--yes"]
        bare = [sys.executable, str(HERE / "bare_reportlab_deck.py"), str(tmp / "bare.pdf"), spec]
        ours, floor = alternate(starpnp, bare, tmp, HERE, runs)  # starpnp as installed (or on PYTHONPATH)
        pages = [subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout.split("Pages:")[1]
                 .split()[0] for pdf in (*(tmp / "out/benchdeck").glob("*.pdf"), tmp / "bare.pdf")]
    if pages[0] != pages[1]:
        raise SystemExit(f"{spec}: starpnp wrote {pages[0]} pages, the bare script {pages[1]}")
    figures = {"cards": len(cards), "pages": int(pages[0]),
               "ours": [median(r[i] for r in ours) for i in range(3)],
               "floor": [median(r[i] for r in floor) for i in range(3)],
               "ratio": median(a[0] / b[0] for a, b in zip(ours, floor)),
               "memory": median(a[2] / b[2] for a, b in zip(ours, floor))}
    print(f"{len(cards)} cards, {len(set(cards))} different, {pages[0]} pages; median of {runs} alternating runs")
    print(f"{'':<22}{'CPU s':>8}{'wall s':>8}{'peak MiB':>10}")
    for name, key in (("starpnp build", "ours"), ("bare ReportLab", "floor")):
        cpu, wall, rss = figures[key]
        print(f"{name:<22}{cpu:>8.2f}{wall:>8.2f}{rss:>10.1f}")
    print(f"ratio (median of the run pairs): CPU {figures['ratio']:.2f}x, peak memory {figures['memory']:.2f}x")
    return figures


def distinct() -> None:
    """All three distinct decks, then the CPU cost of one more card between 850 and 8500 cards."""
    results = {}
    for spec in ("distinct85", "distinct850", "distinct8500"):
        print(f"-- {spec}")
        results[spec] = deck(spec)
    print("summary      starpnp CPU s  bare CPU s  ratio  starpnp MiB  bare MiB  memory")
    for spec, r in results.items():
        print(f"{spec:<13}{r['ours'][0]:>13.2f}{r['floor'][0]:>12.2f}{r['ratio']:>6.2f}x{r['ours'][2]:>13.1f}"
              f"{r['floor'][2]:>10.1f}{r['memory']:>7.2f}x")
    per_card = [(results["distinct8500"][k][0] - results["distinct850"][k][0]) / 7650 * 1000 for k in ("ours", "floor")]
    print(f"one more card: starpnp {per_card[0]:.3f} ms CPU, bare {per_card[1]:.3f} ms CPU, "
          f"ratio {per_card[0] / per_card[1]:.2f}x")


def watch() -> None:
    """Seconds from saving a change to one card of the 85-card deck until the rebuilt PDF is written."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        game = write_deck_game(tmp / "benchdeck", deck_cards("deck"))
        cmd = [sys.executable, "-m", "starpnp", "build", str(game), "--out", str(tmp / "out"), "--format",
               "pdf", "--watch"]
        proc = subprocess.Popen(cmd, cwd=HERE.parent, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            while "watching" not in proc.stdout.readline():
                pass
            deck = game / "deck.yaml"
            times, reported = [], []
            for n in range(5):
                time.sleep(0.5)
                deck.write_text(re.sub(r"title: Attack[^,]*", f"title: Attack v{n}", deck.read_text(), count=1))
                saved = time.perf_counter()
                line = proc.stdout.readline()
                while "rebuilt in" not in line:
                    line = proc.stdout.readline()
                times.append(time.perf_counter() - saved)
                reported.append(float(line.split()[2]))
        finally:
            proc.terminate()
            proc.wait()
        print(f"save -> rebuilt: best {min(times):.2f} s, worst {max(times):.2f} s "
              f"(rebuild alone {min(reported):.2f}-{max(reported):.2f} s; polling every 0.2 s). Goal: < 1 s")


def inklow() -> None:
    """Median CPU of each game's build with `--ink low` against the default build, runs alternating; then the
    four games in one command (`--all`)."""
    from starpnp.generator.look.loader import builtin_games

    print(f"{'game':<20}{'default CPU s':>15}{'low CPU s':>12}{'low / default':>15}")
    with tempfile.TemporaryDirectory() as tmp:
        for game in [*builtin_games(), "--all"]:
            build = [sys.executable, "-m", "starpnp", "build", game, "--format", "pdf", "--out", tmp, "--quiet"]
            default, low = alternate(build, [*build, "--ink", "low"], HERE.parent, HERE.parent, INK_RUNS)
            full, light = statistics.median(r[0] for r in default), statistics.median(r[0] for r in low)
            print(f"{'four games (--all)' if game == '--all' else game:<20}{full:>15.2f}{light:>12.2f}"
                  f"{light / full:>14.2f}x")


BENCHES = {"deck": deck, "deck850": lambda: deck("deck850"), "distinct85": lambda: deck("distinct85"),
           "distinct850": lambda: deck("distinct850"), "distinct8500": lambda: deck("distinct8500"),
           "distinct": distinct, "watch": watch, "inklow": inklow}

if __name__ == "__main__":
    args = sys.argv[1:]
    if "--runs" in args:  # e.g. `bench/run.py distinct --runs 9`
        at = args.index("--runs")
        RUNS = int(args[at + 1])
        del args[at:at + 2]
    try:
        import _rl_accel  # noqa: F401  ReportLab's C accelerator, which both commands then use
    except ImportError:
        raise SystemExit("rl_accel is not installed: both commands would run ReportLab's slower Python code")
    names = args or list(BENCHES)
    for name in names:
        if name not in BENCHES:
            raise SystemExit(f"unknown benchmark {name!r}; known: {', '.join(BENCHES)}")
        print(f"== {name}")
        BENCHES[name]()
