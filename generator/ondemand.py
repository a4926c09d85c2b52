"""Builds on demand, cached by a hash of everything that shapes the PDF (for the companion's print page).

The same game, data files, settings and options always give the same bytes, so a finished build is kept
under its hash and served again without rebuilding; a change to any data or art file makes a new hash.
"""
from __future__ import annotations

import hashlib
import json
import shutil
import threading
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from importlib.metadata import version
from pathlib import Path

from .build import BuildOptions, build_game
from .exports.face_files import PDFIUM
from .sheets.imposition import Settings
from .look.loader import find_game
from .data.inside import within
from .data.limits import MAX_BUILD_SECONDS
from .data.overrides import source_folders

PREVIEW_PAGES = 3
PREVIEW_DPI = 30
CACHED_BUILDS = 24  # finished builds kept on disk; the oldest go first

_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()
_one_build = threading.Lock()  # one build at a time per server: a build takes a core and its memory


@dataclass(frozen=True)
class Printed:
    pdf: Path
    manifest: dict
    preview: Path


def inputs_hash(folder: Path, settings: Settings, options: frozenset[str]) -> str:
    digest = hashlib.sha256()
    digest.update(json.dumps([version("starpnp"), asdict(settings), sorted(options)]).encode())
    for root in source_folders(folder, find_game):
        for path in sorted(p for p in root.rglob("*") if p.is_file() and within(p, (root,))):  # links out: never read
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:32]


def _lock(key: str) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(key, threading.Lock())


class Busy(Exception):
    """The server is building other sets for longer than one request waits (answered with 503)."""


@contextmanager
def _held(lock: threading.Lock):
    """The lock, waited for no longer than a build may take: a request never hangs behind a queue of them."""
    if not lock.acquire(timeout=MAX_BUILD_SECONDS):
        raise Busy("the server is busy building other sets; try again in a minute")
    try:
        yield
    finally:
        lock.release()


def printed(folder: Path, settings: Settings, options: frozenset[str], cache: Path) -> Printed:
    """The PDF for these inputs, built now or found in the cache; concurrent requests build it once.

    Raises the loader's DataErrors for bad data, like `starpnp build`.
    """
    key = inputs_hash(folder, settings, options)
    done = cache / key
    with _held(_lock(key)):
        if not (done / "manifest.json").is_file():
            with _held(_one_build):
                work = cache / f"{key}.partial"
                build_game(folder, BuildOptions(settings=settings, formats=("pdf",), out=work, options=options,
                                                seconds=MAX_BUILD_SECONDS))
                (game_dir,) = [p for p in work.iterdir() if p.is_dir()]
                write_preview(next(game_dir.glob("*.pdf")), game_dir / "preview.png")
                game_dir.rename(done)  # only a finished build ever has this name
                work.rmdir()
                _evict(cache, keep=done)
    manifest = json.loads((done / "manifest.json").read_text(encoding="utf-8"))
    return Printed(done / manifest["file"], manifest, done / "preview.png")


def _evict(cache: Path, keep: Path) -> None:
    """Keep the newest CACHED_BUILDS finished builds: any float of bleed used to be a new build kept forever."""
    builds = sorted((p for p in cache.iterdir() if p.is_dir() and not p.name.endswith(".partial") and p != keep),
                    key=lambda p: p.stat().st_mtime, reverse=True)
    for old in builds[CACHED_BUILDS - 1:]:
        shutil.rmtree(old, ignore_errors=True)


def write_preview(pdf: Path, target: Path) -> None:
    """The first sheets side by side, small: enough to see what will come out of the printer."""
    import pypdfium2
    from PIL import Image

    with PDFIUM:
        document = pypdfium2.PdfDocument(str(pdf))
        pages = [document[i].render(scale=PREVIEW_DPI / 72).to_pil()
                 for i in range(min(PREVIEW_PAGES, len(document)))]
    gap = 8
    strip = Image.new("RGB", (sum(p.width for p in pages) + gap * (len(pages) - 1), max(p.height for p in pages)),
                      "#9E9E9E")
    x = 0
    for page in pages:
        strip.paste(page, (x, 0))
        x += page.width + gap
    # zlib's default effort: `optimize` (its most) took four times as long, a third to half a second of every
    # first preview, to save 2-3% of about 55 KB
    strip.save(target)
