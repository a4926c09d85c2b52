"""Workbook formulas saved without a value, at their worst: `.venv/bin/python bench/formulas.py [CASE ...]`.

Each case is a one-deck game whose card list is an .xlsx written by openpyxl (so no formula has a saved
value, and starpnp computes them, generator/data/computed.py); `starpnp check` runs on it as a process of its
own, one bench process per case so that the children's peak memory is that case's alone, and the bench prints
the exit status, the wall and CPU time, the peak resident memory, the count of lines `check` printed on
stderr and the first (issue #50).
"""
from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAME = "id: formulas\nname: Formulas\nplayers: {min: 1, max: 2}\ncolors: [red]\n"
DECK = ("components:\n  - id: deck\n    name: Deck\n    kind: card\n    size: poker\n    front: {layout: card}\n"
        "    items: cards.xlsx\n    ignore: [{}]\n")


def terms(count: int, first: int) -> str:
    """A formula of `count` terms, different for each `first`."""
    return "=" + "+".join(str(first + n) for n in range(count))


def titles(formulas: list[str]) -> list[list]:
    return [["count", "title"]] + [[1, formula] for formula in formulas]


def long_texts(rows: int, formula: str) -> list[list]:
    """`rows` cards whose `notes` hold one 10,000-character text, the first card's title joining them."""
    return [["count", "title", "notes"], [1, formula, "x"]] + [[1, f"Card {n}", "y" * 10_000] for n in range(rows)]


def table(formula: str) -> list[list]:
    """A sheet 1,000 × 1,000 (its last cell used), the first card's title a formula spanning all of it."""
    rows = [["count", "title"] + [None] * 997 + ["notes"]] + [[1, f"Card {n}"] for n in range(998)]
    rows[1][1] = formula
    rows[-1] += [None] * 997 + [1]
    return rows


CASES = {
    "rept": lambda: titles(['=REPT("x",1000000000)']),
    "text-rept": lambda: titles(['=LEN(TEXT(1,REPT("0",200000000)))']),
    "webservice": lambda: titles(['=WEBSERVICE("http://127.0.0.1/")']),
    "round": lambda: titles(["=ROUND(1,100000000)"]),  # the library made 10 ** 100000000 as it compiled
    "499x1000": lambda: titles([terms(1_000, n) for n in range(499)]),
    "499x200": lambda: titles([terms(200, n) for n in range(499)]),  # the load's budget of terms stops it
    "15x200": lambda: titles([terms(200, n) for n in range(15)]),  # the most compiled: 3,000 terms
    "join": lambda: long_texts(498, "=CONCAT(C:C)"),  # 500 rows × 2 terms × 10,000: MAX_FORMULA_TEXT
    "join-past": lambda: long_texts(1_200, "=CONCAT(C:C)"),
    "broadcast": lambda: table("=SUM(C1:C999*C1:ALL1)"),  # 999 × 1,000 values × 3 terms: refused
    "broadcast-in": lambda: table("=SUM(C1:C999*C1:FL1)"),  # 999 × 166 × 3 terms: the most one formula works on
}


def run(case: str) -> None:
    import openpyxl

    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        (folder / "game.yaml").write_text(GAME)
        rows = CASES[case]()
        (folder / "cards.yaml").write_text(DECK.replace("{}", ", ".join(name for name in rows[0][2:] if name)))
        book = openpyxl.Workbook()
        for row in rows:
            book.active.append(row)
        book.save(folder / "cards.xlsx")
        start = time.perf_counter()
        result = subprocess.run([sys.executable, "-m", "starpnp", "check", folder], capture_output=True, text=True)
        seconds = time.perf_counter() - start
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        peak, cpu = usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime
        said = (result.stderr.strip() or result.stdout.strip()).splitlines()
        lines = len(result.stderr.strip().splitlines())
        print(f"{case:10} exit {result.returncode}  {seconds:5.1f} s ({cpu:4.1f} s CPU)  {peak:4.0f} MB  {lines} line(s) on stderr: "
              f"{(said or [''])[0].replace(str(folder), '')[:150]}")


if __name__ == "__main__":
    if len(sys.argv) == 2:
        run(sys.argv[1])
    else:
        for name in sys.argv[1:] or CASES:
            subprocess.run([sys.executable, __file__, name], check=True)
