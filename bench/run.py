"""Benchmarks: `make bench` or `.venv/bin/python bench/run.py [NAME ...]`.

deck: builds the 85-card poker deck (five designs) with `starpnp build` and with a bare ReportLab script,
each as a whole process, and reports CPU and wall time and peak resident memory (best of several runs);
deck850 does the same with ten times as many cards.
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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from deck_game import deck as deck_cards, write_deck_game  # noqa: E402

RUNS = 5
INK_RUNS = 7  # inklow: runs of each build, alternating; the median is kept
# As on a user's machine: bytecode is cached after the first run (some shells set PYTHONDONTWRITEBYTECODE,
# which would make starpnp recompile its own modules every run while ReportLab's came compiled from pip).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def measure(cmd: list[str], cwd: Path) -> tuple[float, float, float]:
    """CPU seconds (user + system), wall seconds and peak RSS (MiB) of one whole process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.read().decode()}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


def best(cmd: list[str], cwd: Path, runs: int) -> tuple[float, float, float]:
    """Least CPU and wall time, most memory, over `runs` runs."""
    results = [measure(cmd, cwd) for _ in range(runs)]
    return min(r[0] for r in results), min(r[1] for r in results), max(r[2] for r in results)


def deck(spec: str = "deck") -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """(starpnp, bare script) as (CPU s, wall s, peak MiB) for one deck; prints a table."""
    cards = deck_cards(spec)
    runs = RUNS if len(cards) < 5000 else 2
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        game = write_deck_game(tmp / "benchdeck", cards)
        starpnp = [sys.executable, "-m", "starpnp", "build", str(game), "--out", str(tmp / "out"),
                   "--format", "pdf", "--bleed", "0", "--quiet", "--yes"]
        bare = [sys.executable, str(HERE / "bare_reportlab_deck.py"), str(tmp / "bare.pdf"), spec]
        ours, floor = best(starpnp, HERE.parent, runs), best(bare, HERE, runs)
        pages = subprocess.run(["pdfinfo", str(tmp / "out/benchdeck/benchdeck-a4.pdf")], capture_output=True,
                               text=True).stdout
    print(f"{len(cards)} cards, {len(set(cards))} different; "
          f"{next((line for line in pages.splitlines() if line.startswith('Pages')), '')}")
    print(f"{'':<22}{'CPU s':>8}{'wall s':>8}{'peak MiB':>10}")
    for name, (cpu, wall, rss) in (("starpnp build", ours), ("bare ReportLab", floor)):
        print(f"{name:<22}{cpu:>8.2f}{wall:>8.2f}{rss:>10.1f}")
    print(f"ratio: CPU {ours[0] / floor[0]:.2f}x, wall {ours[1] / floor[1]:.2f}x, memory {ours[2] / floor[2]:.2f}x")
    return ours, floor


def distinct() -> None:
    """All three distinct decks, then the CPU cost of one more card between 850 and 8500 cards."""
    results = {}
    for spec in ("distinct85", "distinct850", "distinct8500"):
        print(f"-- {spec}")
        results[spec] = deck(spec)
    per_card = [(results["distinct8500"][i][0] - results["distinct850"][i][0]) / 7650 * 1000 for i in (0, 1)]
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
    from starpnp.generator.loader import builtin_games

    print(f"{'game':<20}{'default CPU s':>15}{'low CPU s':>12}{'low / default':>15}")
    with tempfile.TemporaryDirectory() as tmp:
        for game in [*builtin_games(), "--all"]:
            build = [sys.executable, "-m", "starpnp", "build", game, "--format", "pdf", "--out", tmp, "--quiet"]
            default, low = [], []
            for _ in range(INK_RUNS):
                default.append(measure(build, HERE.parent)[0])
                low.append(measure([*build, "--ink", "low"], HERE.parent)[0])
            full, light = statistics.median(default), statistics.median(low)
            print(f"{'four games (--all)' if game == '--all' else game:<20}{full:>15.2f}{light:>12.2f}"
                  f"{light / full:>14.2f}x")


BENCHES = {"deck": deck, "deck850": lambda: deck("deck850"), "distinct85": lambda: deck("distinct85"),
           "distinct850": lambda: deck("distinct850"), "distinct8500": lambda: deck("distinct8500"),
           "distinct": distinct, "watch": watch, "inklow": inklow}

if __name__ == "__main__":
    names = sys.argv[1:] or list(BENCHES)
    for name in names:
        if name not in BENCHES:
            raise SystemExit(f"unknown benchmark {name!r}; known: {', '.join(BENCHES)}")
        print(f"== {name}")
        BENCHES[name]()
