"""Public icon sets, loaded whole and drawn as Chromium draws them (issue #51). Not CI: it reaches the npm registry.

    .venv/bin/python bench/icon_sets.py [--svg] [--limit N] [--icons GLOB] [--save DIR] [SET ...]

Installs each set's npm package (pinned below) into bench/results/icon-sets/, reads every icon file with the
icon reader (a file refused counts as not loaded), draws each one by our PDF backend (and, with --svg, our SVG
backend) black on white, and compares it with Chromium's drawing of the same file (tests/generator/
icon_likeness.py: the share of ink, pixels at least half dark, in common pixel for pixel, alike at 0.9 or
more). Prints per set icons / loaded / drawn alike and the least alike, for BENCHMARKS.md. --icons
measures only the files whose name matches (`--icons 'language-java*'`); --save writes each icon under 0.9
as Chromium's drawing, ours and where they differ side by side into DIR, to see why. game-icons.net's set
comes as Iconify JSON: each icon's body is wrapped in the <svg> Iconify itself would write.
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "generator"))

import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

from icon_likeness import ALIKE, browser_drawings, ink, likeness, our_drawings  # noqa: E402
from starpnp.generator.look.iconfile import IconFileError, read_icon  # noqa: E402
from starpnp.generator.look.icons import Icon  # noqa: E402

CACHE = HERE / "results" / "icon-sets"
SVG_NS = "http://www.w3.org/2000/svg"
# set -> (npm package@version, the icons' folders in it, or the Iconify JSON file)
SETS = {
    "bootstrap-icons": ("bootstrap-icons@1.13.2", ["icons"]),
    "feather-icons": ("feather-icons@4.29.2", ["dist/icons"]),
    "lucide-static": ("lucide-static@1.62.0", ["icons"]),
    "@tabler/icons": ("@tabler/icons@3.52.0", ["icons/outline", "icons/filled"]),
    "@mdi/svg": ("@mdi/svg@7.4.47", ["svg"]),
    "@iconify-json/game-icons": ("@iconify-json/game-icons@1.2.4", ["icons.json"]),
}
BATCH = 200  # icons drawn and compared at a time


def install(packages: list[str]) -> None:
    CACHE.mkdir(parents=True, exist_ok=True)
    subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(CACHE), *packages],
                   check=True)


def icon_files(name: str) -> list[tuple[str, bytes]]:
    """(file name, SVG text) of every icon in a set, sorted."""
    root = CACHE / "node_modules" / name
    out: list[tuple[str, bytes]] = []
    for place in SETS[name][1]:
        if place.endswith(".json"):
            data = json.loads((root / place).read_text())
            width, height = data.get("width", 16), data.get("height", 16)
            for key, icon in sorted(data["icons"].items()):
                w, h = icon.get("width", width), icon.get("height", height)
                out.append((f"{key}.svg", f'<svg xmlns="{SVG_NS}" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
                                          f'{icon["body"]}</svg>'.encode()))
        else:
            out += [(f"{place}/{file.name}", file.read_bytes()) for file in sorted((root / place).glob("*.svg"))]
    return out


def measure(page, name: str, with_svg: bool, limit: int | None, pattern: str, save: Path | None) -> dict:
    files = [(file, data) for file, data in icon_files(name) if fnmatch.fnmatch(Path(file).name, pattern)][:limit]
    loaded: list[tuple[str, bytes, Icon]] = []
    refused: dict[str, int] = {}
    warned = 0
    for file_name, data in files:
        try:
            drawing = read_icon(data, Path(name) / file_name)
        except IconFileError as exc:
            reason = str(exc).split(": ", 1)[1].split(" (what icons")[0]
            refused[reason] = refused.get(reason, 0) + 1
            print(f"  refused: {name} {file_name}: {reason}", file=sys.stderr, flush=True)
            continue
        warned += bool(drawing.warnings)
        loaded.append((file_name, data, Icon(Path(file_name).stem, Path(file_name), drawing.view_box,
                                             drawing.elements, drawing.warnings)))
    alike = 0
    scores: list[tuple[float, str]] = []
    for start in range(0, len(loaded), BATCH):
        part = loaded[start:start + BATCH]
        theirs = browser_drawings(page, [data for _, data, _ in part])
        pdf, svg = our_drawings(page, [icon for _, _, icon in part], with_svg=with_svg)
        for i, (file_name, _, _) in enumerate(part):
            score = min(likeness(theirs[i], pdf[i]), likeness(theirs[i], svg[i]) if svg else 1.0)
            alike += score >= ALIKE
            scores.append((score, file_name))
            if score < ALIKE:
                print(f"  unlike: {name} {file_name} {score:.3f}", file=sys.stderr, flush=True)
                if save:
                    side_by_side(theirs[i], pdf[i], svg[i] if svg else None).save(
                        save / f"{name.replace('/', '_')}-{file_name.replace('/', '_')}.png")
    return {"set": name, "icons": len(files), "loaded": len(loaded), "alike": alike, "warned": warned,
            "refused": refused, "least": sorted(scores)[:5]}


def side_by_side(theirs: Image.Image, pdf: Image.Image, svg: Image.Image | None) -> Image.Image:
    """Chromium's drawing, our PDF's and our SVG's, then where Chromium's ink and the PDF's differ (red: only
    Chromium's, blue: only ours)."""
    drawings = [theirs, pdf] + ([svg] if svg else [])
    a, b = ink(theirs), ink(pdf)
    diff = np.full(a.shape + (3,), 255, np.uint8)
    diff[a & b] = (200, 200, 200)
    diff[a & ~b] = (220, 0, 0)
    diff[b & ~a] = (0, 0, 220)
    drawings.append(Image.fromarray(diff))
    out = Image.new("RGB", (theirs.width * len(drawings), theirs.height), "white")
    for i, drawing in enumerate(drawings):
        out.paste(drawing.convert("RGB"), (i * theirs.width, 0))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", default=list(SETS))
    parser.add_argument("--svg", action="store_true", help="also compare our SVG output (twice the time)")
    parser.add_argument("--limit", type=int, help="the first N icons of each set")
    parser.add_argument("--icons", default="*", help="only the icon files whose name matches this glob")
    parser.add_argument("--save", type=Path, help="write each icon under 0.9 side by side with Chromium's here")
    args = parser.parse_args()
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
    install([SETS[name][0] for name in args.sets])
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_context(device_scale_factor=1).new_page()
        print("| set | version | icons | loaded | drawn alike (≥ 0.9) | least alike | seconds |")
        print("|---|---|---|---|---|---|---|")
        for name in args.sets:
            started = time.perf_counter()
            result = measure(page, name, args.svg, args.limit, args.icons, args.save)
            least = ", ".join(f"{file} {score:.3f}" for score, file in result["least"][:3])
            print(f"| {name} | {SETS[name][0].rsplit('@', 1)[1]} | {result['icons']} | {result['loaded']} | "
                  f"{result['alike']} | {least} | {time.perf_counter() - started:.0f} |", flush=True)
            for reason, count in sorted(result["refused"].items(), key=lambda item: -item[1])[:5]:
                print(f"  refused {count}: {reason}", file=sys.stderr)
            if result["warned"]:
                print(f"  {result['warned']} drawn up to an error in their path data", file=sys.stderr)
        browser.close()


if __name__ == "__main__":
    main()
