"""Drawing the largest art a game folder may hold: `.venv/bin/python bench/art_pixels.py`.

Writes a one-card game whose art is a PNG of MAX_ART_PIXELS (5,000 × 5,000) in each of the modes art comes
in (one-bit, grey, RGB, RGB with alpha), builds its PDF with `starpnp build` as its own process for each, and
prints each build's peak memory (the child's maximum resident set) and wall time. The limit is set so that
the dearest mode stays under 500 MB (issue #50).
"""
from __future__ import annotations

import math
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

from starpnp.generator.data.limits import MAX_ART_PIXELS

GAME = "id: artbench\nname: Art Bench\nplayers: {min: 1, max: 2}\ncolors: [red]\n"
DECK = ("components:\n  - id: deck\n    name: Deck\n    kind: card\n    size: poker\n"
        "    front: {layout: card, art: art/largest.png}\n    items:\n      - {title: A}\n")
MODES = {"1": 1, "L": 128, "RGB": (200, 30, 30), "RGBA": (200, 30, 30, 128)}


def build(folder: Path) -> tuple[float, float]:
    """(peak MB, seconds) of one build of `folder`, a process of its own (waited for alone: the children's
    peak is the largest of any child so far, so each mode is measured in a fresh bench process)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "starpnp", "build", folder, "--format", "pdf", "--out",
                    folder.parent / "out"], check=True, capture_output=True)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, time.perf_counter() - start


def main(mode: str | None) -> None:
    if mode is None:  # each mode in a process of its own, so each peak is its own
        for name in MODES:
            subprocess.run([sys.executable, __file__, name], check=True)
        return
    side = math.isqrt(MAX_ART_PIXELS)
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work) / "game"
        (folder / "art").mkdir(parents=True)
        (folder / "game.yaml").write_text(GAME)
        (folder / "deck.yaml").write_text(DECK)
        Image.new(mode, (side, side), MODES[mode]).save(folder / "art" / "largest.png")
        peak, seconds = build(folder)
        print(f"{side:,} × {side:,} {mode:4}  peak {peak:5.0f} MB  {seconds:5.1f} s")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
