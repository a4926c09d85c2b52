"""Run the starpnp command as a user would (a whole process), for the tests that check what it prints.

Each run is its own process, forked from a server that has imported the command once (forked_cli.py says
how and why); STARPNP starts a fresh interpreter, for a test that needs one (a terminal, a signal).
"""
from __future__ import annotations

import subprocess
from pathlib import Path

from forked_cli import STARPNP, forked_run


def run(*args, cwd=None) -> subprocess.CompletedProcess:
    return forked_run(args, cwd=cwd, timeout=120)


def one_line(result: subprocess.CompletedProcess, *expected: str) -> str:
    """The one line a refused run prints: exit status 2, no traceback, every `expected` text in it."""
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and len(lines[0]) < 600, result.stderr
    assert all(text in lines[0] for text in expected), lines[0]
    return lines[0]


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


# ---- a stranger's folder: each run its own process, capped, with a value planted to be found nowhere ----------

UNTRUSTED_MARKER = "starpnp-marker-7f3a9c"  # planted in the environment (and in files beside the folder)
MEMORY_CAP = 1536 * 1024 * 1024  # bytes of address space a run may take (a blow-up would take gigabytes)

# a one-card game whose card is drawn by its own layout file `probe`, for a test to give a box or a let
TINY_GAME = "id: tiny\nname: Tiny\nplayers: {min: 1, max: 2}\ncolors: [red, blue]\n"
TINY_CARDS = ("components:\n  - id: deck\n    name: Deck\n    kind: card\n    size: poker\n"
              "    front: {layout: probe, title: Hello}\n    items:\n      - {count: 1}\n")
TINY_PROBE = "fields:\n  title: {type: text, default: ''}\nboxes:\n  bg: {kind: background, fill: '#FFFFFF'}\n"


def tiny_game(folder: Path) -> Path:
    (folder / "layouts").mkdir(parents=True)
    (folder / "game.yaml").write_text(TINY_GAME)
    (folder / "cards.yaml").write_text(TINY_CARDS)
    (folder / "layouts" / "probe.yaml").write_text(TINY_PROBE)
    return folder


def run_untrusted(*args, time_limit: int = 60) -> subprocess.CompletedProcess:
    """`starpnp ARGS` as its own process under MEMORY_CAP of address space and `time_limit` seconds (a hang
    detector, not a speed test), its environment holding UNTRUSTED_MARKER and no more of ours."""
    env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "SECRET_TOKEN": UNTRUSTED_MARKER,
           "DATABASE_URL": UNTRUSTED_MARKER}
    return forked_run(args, env=env, timeout=time_limit, memory_cap=MEMORY_CAP)


def outputs(out: Path) -> str:
    """Every file a build wrote, as text (a PDF's text extracted, by PDFium: pdfplumber takes ten times as long)."""
    from starpnp_test_support import pdf_page_texts

    texts = []
    for path in out.rglob("*"):
        if path.suffix == ".pdf":
            texts += pdf_page_texts(path)
        elif path.is_file():
            texts.append(path.read_bytes().decode("utf-8", "replace"))
    return "\n".join(texts)


def untrusted_check_and_build(game: Path, time_limit: int = 60) -> list[subprocess.CompletedProcess]:
    """`check` and `build` (PDF and SVG, into `out` beside the folder) of a stranger's folder, each run as
    run_untrusted runs it: no traceback, and the marker on no output of either."""
    out = game.parent / "out"
    results = [run_untrusted(*command, time_limit=time_limit)
               for command in (["check", game], ["build", game, "--format", "pdf,svg", "--out", out])]
    for result in results:
        assert "Traceback" not in result.stderr and UNTRUSTED_MARKER not in result.stdout + result.stderr, \
            result.stderr[-2000:]
    assert UNTRUSTED_MARKER not in outputs(out)
    return results


def refused_untrusted(game: Path, *expected: str, time_limit: int = 60) -> str:
    """check and build: exit status 2, the same one line (every `expected` in it), no traceback, no marker."""
    lines = []
    for result in untrusted_check_and_build(game, time_limit):
        assert result.returncode == 2, result.stdout[-2000:] + result.stderr[-2000:]
        assert len(result.stderr.strip().splitlines()) == 1 and len(result.stderr) < 600, result.stderr[:2000]
        lines.append(result.stderr.strip())
    assert lines[0] == lines[1], lines
    assert all(text in lines[0] for text in expected), lines[0]
    return lines[0]
