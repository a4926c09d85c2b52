"""Prove a change changed no page: render every page of the four games and compare pixel by pixel.

    bench/same_pages.py render DIR      # build the four games (A4, PDF) into DIR and render each page at 30 dpi
    bench/same_pages.py compare A B     # every page PNG in A equals its twin in B; lists the pages that differ
    bench/same_pages.py against REF     # render git REF (e.g. HEAD~1 or main) and the working tree, and compare
                                        # both the pages and every face's drawn elements, in order
    bench/same_pages.py scenes FILE     # write one line per face (and per warning): a hash of its elements

Each game is built as shipped, with --write-ins, with every game option on and with --ink low, so a look only an
option, a write-in area or the low-ink build shows is compared too. Needs poppler's pdftoppm.
"""
from __future__ import annotations

import difflib
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

from PIL import Image, ImageChops

DPI = 30
ROOT = Path(__file__).resolve().parent.parent
# The installed package's parts and the repository folders they come from (pyproject's package-dir).
PARTS = ("generator", "companion", "components", "templates")
# The test fixtures (designers' folders: CSV items, own layouts and icons) are read from this working tree for
# both sides, so only the code differs.
FIXTURES = tuple(str(ROOT / "tests" / "fixtures" / name) for name in ("mini", "couriers"))
BUILDS = (["--all"], ["--all", "--write-ins"], ["stratastar", "--option", "power_cards"], ["--all", "--ink", "low"],
          [*FIXTURES], [*FIXTURES, "--ink", "low"])


def render(folder: Path, python_path: Path | None = None) -> None:
    env = dict(os.environ) | ({"PYTHONPATH": str(python_path)} if python_path else {})
    for extra in BUILDS:
        subprocess.run([sys.executable, "-m", "starpnp", "build", *extra, "--format", "pdf", "--out", str(folder),
                        "--quiet"], check=True, env=env, cwd=python_path or ROOT, stdout=subprocess.DEVNULL)
    for pdf in sorted(folder.glob("*/*.pdf")):
        subprocess.run(["pdftoppm", "-r", str(DPI), "-png", str(pdf), str(pdf.parent / pdf.stem)], check=True)


def compare(before: Path, after: Path) -> int:
    pages = sorted(p.relative_to(before) for p in before.glob("*/*.png"))
    twins = sorted(p.relative_to(after) for p in after.glob("*/*.png"))
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


def checkout(ref: str, into: Path) -> Path:
    """REF's files laid out as the installed `starpnp` package, for PYTHONPATH (ahead of the editable install)."""
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, check=True, capture_output=True).stdout
    source = into / "source"
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(source, filter="data")
    package = into / "site" / "starpnp"
    shutil.copytree(source / "starpnp", package)
    for part in PARTS:
        (package / part).symlink_to(source / part)
    return into / "site"


def scenes(out: Path) -> None:
    """Every face of every game (shipped, with every option on, with write-ins, with --ink low) as a hash of its
    elements: finer than pixels at 30 dpi, and blind to nothing but the order of identical runs of numbers' types."""
    try:
        from starpnp.generator.look.loader import builtin_games, find_game, load_game
        from starpnp.generator.look.render import SceneCache
    except ImportError:  # a REF from before the generator was grouped by stage (issue #32)
        from starpnp.generator.loader import builtin_games, find_game, load_game
        from starpnp.generator.render import SceneCache

    lines = []
    for write_ins, ink in ((False, "full"), (True, "full"), (False, "low")):
        for game_id in [*builtin_games(), *FIXTURES]:
            folder = find_game(game_id)
            options = {"power_cards"} if game_id == "stratastar" else set()
            game, cache = load_game(folder, options, write_ins), SceneCache(3.0, folder, ink=ink)
            for comp in game.components:
                for piece in comp.pieces:
                    for side in ("front", "back") if piece.back is not None else ("front",):
                        drawn = repr(cache.face(comp, piece, side).elements).encode()
                        lines.append(f"{game_id} {write_ins} {ink} {comp.spec.id} {piece.name} {piece.color} {side} "
                                     f"{hashlib.sha1(drawn).hexdigest()}")
            lines.extend(f"warning: {warning}" for warning in cache.warnings)
    out.write_text("\n".join(lines) + "\n")


def same_scenes(before: Path, after: Path) -> int:
    old, new = before.read_text().splitlines(), after.read_text().splitlines()
    differ = [line for line in difflib.unified_diff(old, new, lineterm="", n=0) if line[:1] in "+-"][2:]
    print(f"{len(old)} faces and warnings compared, {len(differ)} lines differ" + "".join(f"\n  {d}" for d in differ))
    return 1 if differ else 0


def against(ref: str) -> int:
    with tempfile.TemporaryDirectory(prefix="same-pages-") as tmp:
        before, after, site = Path(tmp) / "before", Path(tmp) / "after", checkout(ref, Path(tmp) / "ref")
        for folder, python_path in ((before, site), (after, None)):
            render(folder, python_path)
            env = dict(os.environ) | ({"PYTHONPATH": str(python_path)} if python_path else {})
            subprocess.run([sys.executable, __file__, "scenes", str(folder / "scenes.txt")], check=True, env=env,
                           cwd=python_path or ROOT)
        return compare(before, after) | same_scenes(before / "scenes.txt", after / "scenes.txt")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "render":
        render(Path(sys.argv[2]))
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
    elif len(sys.argv) == 3 and sys.argv[1] == "scenes":
        scenes(Path(sys.argv[2]))
    elif len(sys.argv) == 3 and sys.argv[1] == "against":
        sys.exit(against(sys.argv[2]))
    else:
        sys.exit(__doc__)
