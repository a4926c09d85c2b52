"""Where a build's CPU time and memory go: `bench/phases.py distinct8500` (any deck name of deck_game.deck).

Builds the deck as `bench/run.py` does (`--format pdf --bleed 0 --duplex off`) in this process and prints the
CPU seconds (user + system) of each phase and the resident memory after it: importing the command's
modules, loading and validating the YAML, drawing the faces and grouping the pieces, imposing the sheets,
writing the pages, saving the file (ReportLab formats every object then), and the rest (manifest.json).
A build that draws each face as its sheet is written has its drawing in the pages' phase.
"""
from __future__ import annotations

import gc
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
START = time.process_time()


def rss() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main(spec: str) -> None:
    gc.disable()  # as the starpnp command runs a build
    from reportlab.pdfgen.canvas import Canvas
    from starpnp.generator import build
    from starpnp.generator.sheets.imposition import Settings

    from deck_game import deck, write_deck_game

    marks = [("imports", time.process_time(), rss())]

    def step(what: str, *_) -> None:
        names = {"drawing faces": "load and validate", "imposing sheets": "draw faces, group pieces",
                 "writing PDF": "impose sheets"}
        if what in names:
            marks.append((names[what], time.process_time(), rss()))

    save = Canvas.save

    def timed_save(canvas: Canvas) -> None:
        marks.append(("write pages", time.process_time(), rss()))
        save(canvas)
        marks.append(("save the PDF", time.process_time(), rss()))

    Canvas.save = timed_save
    with tempfile.TemporaryDirectory() as tmp:
        game = write_deck_game(Path(tmp) / "benchdeck", deck(spec))
        marks.append(("(the bench writes YAML)", time.process_time(), rss()))
        options = build.BuildOptions(settings=Settings(bleed=0.0, duplex="off"), formats=("pdf",),
                                     out=Path(tmp) / "out", large=True)
        build.build_game(game, options, step)
        marks.append(("manifest and the rest", time.process_time(), rss()))
    previous = START
    print(f"{spec}: CPU s by phase, resident MiB after it")
    for name, cpu, memory in marks:
        print(f"  {name:<26}{cpu - previous:>7.3f}{memory:>8.1f}")
        previous = cpu
    print(f"  {'total':<26}{previous - START:>7.3f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "distinct850")
