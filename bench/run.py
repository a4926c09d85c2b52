"""Benchmarks: `make bench` or `.venv/bin/python bench/run.py [deck|deck850|watch]`.

deck: builds the 85-card poker deck with `starpnp build` and with a bare ReportLab script, each as a
whole process, and reports wall time and peak resident memory (best of several runs); deck850 does the
same with ten times as many cards, to show how the ratio moves with the size of a set.
watch: seconds from saving one card's change to the rebuilt PDF in `--watch` mode.
Results go in BENCHMARKS.md by hand, with the machine they were measured on.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from deck_game import write_deck_game  # noqa: E402

RUNS = 5
# As on a user's machine: bytecode is cached after the first run (some shells set PYTHONDONTWRITEBYTECODE,
# which would make starpnp recompile its own modules every run while ReportLab's came compiled from pip).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def measure(cmd: list[str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one whole process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.read().decode()}")
    return wall, usage.ru_maxrss / 1024


def best(cmd: list[str], cwd: Path) -> tuple[float, float]:
    runs = [measure(cmd, cwd) for _ in range(RUNS)]
    return min(r[0] for r in runs), max(r[1] for r in runs)


def deck(copies: int = 1) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        game = write_deck_game(tmp / "benchdeck", copies)
        starpnp = [sys.executable, "-m", "starpnp", "build", str(game), "--out", str(tmp / "out"),
                   "--format", "pdf", "--bleed", "0", "--quiet"]
        bare = [sys.executable, str(HERE / "bare_reportlab_deck.py"), str(tmp / "bare.pdf"), str(copies)]
        s_wall, s_rss = best(starpnp, HERE.parent)
        b_wall, b_rss = best(bare, HERE)
        pages = subprocess.run(["pdfinfo", str(tmp / "out/benchdeck/benchdeck-a4.pdf")], capture_output=True,
                               text=True).stdout
        print(f"{'':<22}{'wall s':>8}{'peak MiB':>10}")
        print(f"{'starpnp build':<22}{s_wall:>8.2f}{s_rss:>10.1f}")
        print(f"{'bare ReportLab':<22}{b_wall:>8.2f}{b_rss:>10.1f}")
        print(f"ratio: time {s_wall / b_wall:.2f}x, memory {s_rss / b_rss:.2f}x (goal: time <= 1.5x)")
        print(next((line for line in pages.splitlines() if line.startswith("Pages")), ""))


def watch() -> None:
    """Seconds from saving a change to one card of the 85-card deck until the rebuilt PDF is written."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        game = write_deck_game(tmp / "benchdeck")
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


BENCHES = {"deck": deck, "deck850": lambda: deck(copies=10), "watch": watch}

if __name__ == "__main__":
    names = sys.argv[1:] or list(BENCHES)
    for name in names:
        if name not in BENCHES:
            raise SystemExit(f"unknown benchmark {name!r}; known: {', '.join(BENCHES)}")
        print(f"== {name}")
        BENCHES[name]()
