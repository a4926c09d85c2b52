"""A deck of 2,000 cards each with its own icon against the same deck with one icon (issue #51).

    .venv/bin/python bench/icon_deck.py [CARDS] [--profile [--one]] [--read] [--instructions]

The icons are game-icons.net's (installed by bench/icon_sets.py from the npm registry into bench/results/), the
first CARDS of them, each its own file in the game's icons/ folder; the one-icon deck's folder holds only the one
it uses, the one of the CARDS nearest their mean number of curves and of lines (so both decks draw as much path:
what is measured is the cost of many files, not of more complex ones; the first icon alone is 300 bytes, the mean
1,657). Both decks are the distinct-card deck of bench/run.py (own title and text per card) with an `icon:` per
card, built by `starpnp build --format pdf` as whole processes taking turns (PAIRS of each); prints the median CPU
of each and the median ratio (target: at most 1.5). On a shared machine one pair's ratio moves by a sixth,
so --instructions also counts what each build executes, once each under valgrind's callgrind (hash seed fixed):
the same figures on every run and machine, and the cause when the timed ratio moves (8-10 minutes; needs
valgrind). --profile runs the many-icon build (with --one, the one-icon
build) once under cProfile. --read measures reading the CARDS icon files alone against two floors: svglib (the
library our SVG art goes through) reading the same files into ReportLab drawings, and the least any Python reader
of path data does (every path's numbers found by one regex and converted to floats).
"""
from __future__ import annotations

import cProfile
import os
import pstats
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from deck_game import distinct_cards  # noqa: E402
from icon_sets import SETS, icon_files, install  # noqa: E402
from run import alternate  # noqa: E402

GAME_ICONS = "@iconify-json/game-icons"
RUNS = 3  # --read: best of
PAIRS = 9  # builds of each deck, taking turns: on the shared machine one pair's ratio moves by a tenth or more


def write_icon_deck(folder: Path, icons: list[tuple[str, bytes]], count: int) -> Path:
    """The distinct deck of `count` cards, card i showing icons[i % len(icons)]."""
    (folder / "icons").mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text("id: icondeck\nname: Icon Deck\nplayers: {min: 2, max: 4}\ncolors: [red]\n")
    names = []
    for i, (_, data) in enumerate(icons):
        names.append(f"i{i:04d}")
        (folder / "icons" / f"{names[-1]}.svg").write_bytes(data)
    items = "\n".join(f"      - {{title: '{title}', color: '#{color}', text: '{text}', icon: {names[i % len(names)]}}}"
                      for i, (title, color, text) in enumerate(distinct_cards(count)))
    (folder / "deck.yaml").write_text("components:\n  - id: deck\n    name: Deck\n    kind: card\n    size: poker\n"
                                      "    front: {layout: card}\n    items:\n" + items + "\n")
    return folder


def read_floor(icons: list[tuple[str, bytes]]) -> None:
    """CPU seconds (best of RUNS) to read the icon files: ours, svglib's, and the tokenising floor."""
    import io
    import logging
    import xml.etree.ElementTree as ET

    from svglib.svglib import svg2rlg

    from starpnp.generator.look.iconfile import read_icon
    from starpnp.generator.look.svgpath import NUMBER

    logging.getLogger("svglib").setLevel(logging.ERROR)
    number = re.compile(NUMBER)
    paths = [node.attrib["d"] for _, data in icons for node in ET.fromstring(data).iter() if "d" in node.attrib]
    readers = {
        "ours (read_icon)": lambda: [read_icon(data, Path(name)) for name, data in icons],
        "svglib (svg2rlg)": lambda: [svg2rlg(io.BytesIO(data)) for _, data in icons],
        "floor (regex + float)": lambda: [list(map(float, number.findall(d))) for d in paths],
    }
    for name, read in readers.items():
        best = min(_cpu(read) for _ in range(RUNS))
        print(f"{len(icons)} icon files, {sum(map(len, paths)):,} characters of path data: {name} {best:.2f} s CPU")


def instructions(command: list[str], cwd: Path) -> int:
    """The instructions `command` executes (valgrind --tool=callgrind), with Python's hash seed fixed: the same
    count on every run, where CPU time on a shared machine is not."""
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command], cwd=cwd,
                         env={**os.environ, "PYTHONHASHSEED": "0"}, capture_output=True, text=True, check=True)
    return int(re.search(r"refs:\s+([\d,]+)", run.stderr)[1].replace(",", ""))


def _cpu(work) -> float:
    started = time.process_time()
    work()
    return time.process_time() - started


def typical(icons: list[tuple[str, bytes]]) -> tuple[str, bytes]:
    """The icon that draws as much as the icons do on average: nearest the mean number of curves and of lines
    (a curve writes three points to the PDF, a line one: an icon of the mean file size drew fewer curves and
    more lines than the mean, a lighter page)."""
    from starpnp.generator.look.iconfile import read_icon
    from starpnp.generator.look.scene import Path as PathShape

    def counts(icon: tuple[str, bytes]) -> tuple[int, int]:
        commands = [c[0] for e in read_icon(icon[1], Path(icon[0])).elements if isinstance(e, PathShape)
                    for c in e.commands]
        return commands.count("C"), len(commands) - commands.count("C")

    drawn = [counts(icon) for icon in icons]
    curves, lines = (sum(c[i] for c in drawn) / len(drawn) for i in (0, 1))
    return icons[min(range(len(icons)), key=lambda i: abs(drawn[i][0] - curves) / curves
                     + abs(drawn[i][1] - lines) / lines)]


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    count = int(args[0]) if args else 2000
    install([SETS[GAME_ICONS][0]])
    icons = icon_files(GAME_ICONS)[:count]
    if "--read" in sys.argv:
        read_floor(icons)
        return
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        many = write_icon_deck(tmp / "many", icons, count)
        one = write_icon_deck(tmp / "one", [typical(icons)], count)

        def build(game: Path) -> list[str]:
            return [sys.executable, "-m", "starpnp", "build", str(game), "--out", str(tmp / f"out-{game.name}"),
                    "--format", "pdf", "--bleed", "0", "--duplex", "off", "--quiet", "--yes"]

        if "--profile" in sys.argv:
            from starpnp.command import main as starpnp

            sys.argv = build(one if "--one" in sys.argv else many)[2:]
            profile = cProfile.Profile(time.process_time)  # CPU: on a busy machine the wall clock charges waits
            try:
                profile.runcall(starpnp)
            except SystemExit:
                pass
            for order in ("cumulative", "tottime"):
                pstats.Stats(profile).sort_stats(order).print_stats(60)
            return
        if "--instructions" in sys.argv:
            counted = [instructions(build(game), tmp) for game in (many, one)]
            print(f"{count} cards: {count} icons {counted[0] / 1e9:.2f} G instructions, one icon "
                  f"{counted[1] / 1e9:.2f} G, ratio {counted[0] / counted[1]:.2f}x (callgrind)")
        ours, floor = alternate(build(many), build(one), tmp, tmp, PAIRS)
    cpu_many, cpu_one = median(r[0] for r in ours), median(r[0] for r in floor)
    ratio = median(a[0] / b[0] for a, b in zip(ours, floor))
    print(f"{count} cards: {count} icons {cpu_many:.2f} s CPU, one icon {cpu_one:.2f} s CPU, ratio {ratio:.2f}x "
          f"(median of {PAIRS} alternating runs)")


if __name__ == "__main__":
    main()
