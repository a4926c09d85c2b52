"""Run the starpnp command as a user would (a whole process), for the tests that check what it prints."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

STARPNP = [sys.executable, "-m", "starpnp"]


def run(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([*STARPNP, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=120)


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
