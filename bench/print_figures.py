"""Sheets of paper and ink per game, as BENCHMARKS.md reports them (issues #12 and #26).

    .venv/bin/python bench/print_figures.py OUT_FOLDER

builds the four games into OUT_FOLDER on A4 and Letter, default and --ink low, and prints a table: pages,
sheets of paper when printed whole and double-sided, blank pages, and ink as page-equivalents of solid
black (every page rendered grey at 20 dpi, each pixel's darkness summed, divided by one page's pixels).
"""
from __future__ import annotations

import math
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image
from pypdf import PdfReader

from starpnp.generator.build import BuildOptions, build_game
from starpnp.generator.sheets.imposition import Settings
from starpnp.generator.look.loader import find_game

GAMES = ["handful_of_stars", "stars_inc", "starship_catan", "stratastar"]


def ink(pdf: Path) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["pdftoppm", "-gray", "-r", "20", str(pdf), f"{tmp}/p"], check=True)
        total = 0.0
        for page in Path(tmp).glob("p-*.pgm"):
            with Image.open(page) as image:
                pixels = image.size[0] * image.size[1]
                total += sum((255 - v) * n for v, n in enumerate(image.histogram())) / 255 / pixels
        return total


def blanks(pdf: Path) -> int:
    return sum("intentionally blank" in (page.extract_text() or "") for page in PdfReader(pdf).pages)


def main(out: Path) -> None:
    print("| paper | ink | game | pages | sheets | blank pages | ink (page-equivalents) |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    for paper in ("a4", "letter"):
        for level in ("full", "low"):
            sums = [0, 0, 0, 0.0]
            for game in GAMES:
                result = build_game(find_game(game), BuildOptions(settings=Settings(paper=paper, ink=level),
                                                                  out=out, formats=("pdf",)))
                pdf = result.files[0]
                row = [result.pages, math.ceil(result.pages / 2), blanks(pdf), ink(pdf)]
                sums = [a + b for a, b in zip(sums, row)]
                print(f"| {paper} | {level} | {game} | {row[0]} | {row[1]} | {row[2]} | {row[3]:.1f} |")
            print(f"| {paper} | {level} | four games | {sums[0]} | {sums[1]} | {sums[2]} | {sums[3]:.1f} |")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "output/figures"))
