"""What loading a game costs, the record of where each value came from included (issue #48):
`.venv/bin/python bench/load.py [ROUNDS]`.

Loads, in this process, the 8,500-card deck whose cards all differ (YAML), the same deck kept in a CSV, and
Stratastar, each ROUNDS times (7 unless told), and prints each one's CPU seconds (best and median) and the
memory the loaded game holds (tracemalloc, MiB, once): a face's record is kept for every face of a set.
"""
from __future__ import annotations

import csv
import gc
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from deck_game import distinct_cards, write_deck_game  # noqa: E402


def csv_deck(folder: Path, count: int) -> Path:
    """The deck with its items in `deck.csv`, as the studio's benches keep it."""
    write_deck_game(folder, distinct_cards(1))
    (folder / "deck.yaml").write_text("components:\n  - id: deck\n    name: Deck\n    kind: card\n    size: poker\n"
                                      "    front: {layout: card}\n    items: deck.csv\n")
    with open(folder / "deck.csv", "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["count", "title", "color", "text"])
        writer.writerows([1, title, f"#{color}", text] for title, color, text in distinct_cards(count))
    return folder


def measure(name: str, folder: Path, rounds: int) -> None:
    from starpnp.generator.look.loader import load_game

    load_game(folder, items=False)  # imports and layouts compiled once, as a running studio has them
    times = []
    for _ in range(rounds):
        gc.collect()
        started = time.process_time()
        load_game(folder, items=False)
        times.append(time.process_time() - started)
    gc.collect()
    tracemalloc.start()
    game = load_game(folder, items=False)
    held = tracemalloc.get_traced_memory()[0] / 2**20
    tracemalloc.stop()
    del game
    print(f"{name:<22} best {min(times):.3f} s  median {statistics.median(times):.3f} s  held {held:.1f} MiB")


def main(rounds: int) -> None:
    from starpnp.resources import components_dir

    with tempfile.TemporaryDirectory() as tmp:
        measure("distinct8500 (YAML)", write_deck_game(Path(tmp) / "yaml", distinct_cards(8500)), rounds)
        measure("distinct8500 (CSV)", csv_deck(Path(tmp) / "csv", 8500), rounds)
        measure("stratastar", components_dir() / "stratastar", rounds)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
