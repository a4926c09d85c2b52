"""Prove a speed change changed no page: render every page of the four games and compare pixel by pixel.

    bench/same_pages.py render DIR      # build all four games (A4, PDF) into DIR and render each page at 30 dpi
    bench/same_pages.py compare A B     # every page PNG in A equals its twin in B; lists the pages that differ

Run `render` on the commit before the change and on the commit after it, then `compare` the two folders.
Needs poppler's pdftoppm.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageChops

DPI = 30


def render(folder: Path) -> None:
    subprocess.run([sys.executable, "-m", "starpnp", "build", "--all", "--format", "pdf", "--out", str(folder),
                    "--quiet"], check=True)
    for pdf in sorted(folder.glob("*/*-a4.pdf")):
        subprocess.run(["pdftoppm", "-r", str(DPI), "-png", str(pdf), str(pdf.parent / "p")], check=True)


def compare(before: Path, after: Path) -> int:
    pages = sorted(p.relative_to(before) for p in before.glob("*/p-*.png"))
    twins = sorted(p.relative_to(after) for p in after.glob("*/p-*.png"))
    if pages != twins:
        print(f"different page lists: {len(pages)} pages before, {len(twins)} after")
        return 1
    differ = []
    for page in pages:
        with Image.open(before / page) as a, Image.open(after / page) as b:
            if a.size != b.size or ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox():
                differ.append(str(page))
    print(f"{len(pages)} pages compared, {len(differ)} differ" + "".join(f"\n  {p}" for p in differ))
    return 1 if differ else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "render":
        render(Path(sys.argv[2]))
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
    else:
        sys.exit(__doc__)
