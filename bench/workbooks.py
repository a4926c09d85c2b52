"""Reading a card list from CSV, .xlsx and .ods: `.venv/bin/python bench/workbooks.py [ROWS]`.

Writes one card list of ROWS rows (default 2,000; seven columns, a formula-free copy of the test game's
parcels) as CSV, as .xlsx (openpyxl) and as .ods (in LibreOffice's form, by the fixture maker), then reads each
with starpnp's reader, in this process, 7 times, and prints the median milliseconds; and the cost of
importing openpyxl, paid once by a build that names a workbook (a fresh process, median of 5).
"""
from __future__ import annotations

import csv
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "fixtures" / "workbooks"))

import make_workbooks  # noqa: E402

from starpnp.generator.data.spreadsheet import read_table  # noqa: E402


def median_ms(action, runs: int = 7) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(rows: int) -> None:
    with make_workbooks.CSV.open(newline="", encoding="utf-8") as f:
        header, *cards = list(csv.reader(f))
    table = [header] + [cards[i % len(cards)][:1] + [f"{cards[i % len(cards)][1]} {i}"] + cards[i % len(cards)][2:]
                        for i in range(rows)]
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        with (folder / "cards.csv").open("w", newline="", encoding="utf-8") as f:
            csv.writer(f).writerows(table)
        make_workbooks.CSV = folder / "cards.csv"  # the makers copy whatever list this names
        make_workbooks.make_xlsx(folder / "cards.xlsx")
        make_workbooks.make_ods(folder / "cards.ods")
        for name in ("cards.csv", "cards.xlsx", "cards.ods"):
            sheet = None if name.endswith(".csv") else "Cards"
            assert len(read_table(folder / name, sheet)) == rows
            size = (folder / name).stat().st_size // 1024
            print(f"{name:11} {size:6} KiB  {median_ms(lambda: read_table(folder / name, sheet)):8.1f} ms")
    imports = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import openpyxl"], check=True)
        imports.append(time.perf_counter() - start)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        imports[-1] -= time.perf_counter() - start
    print(f"import openpyxl: {statistics.median(imports) * 1000:.0f} ms (a fresh process, less a bare one)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
