"""Run the starpnp command as a user would (a whole process), for the tests that check what it prints."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

STARPNP = [sys.executable, "-m", "starpnp"]


def run(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([*STARPNP, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=120)


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
