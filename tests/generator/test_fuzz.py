"""A seeded mutation fuzzer over game folders: whatever the data says, `starpnp check` and `build` end with
exit status 0 or 2, one line per problem on stderr, never a traceback, and never hang.

Variants: lines deleted, doubled or cut short, values replaced by hostile ones (NaN, huge numbers, wrong
types, bad colours, paths leading out, NUL bytes, aliases, deep nesting). Each is run in-process through
click's runner (a subprocess per variant would take minutes); a variant still running after a generous
limit is reported as a hang.
"""
from __future__ import annotations

import random
import re
import shutil
import signal
from pathlib import Path

import pytest
from click.testing import CliRunner

from starpnp.generator.cli import main
from starpnp.resources import components_dir
from starpnp_test_support import MINI

SEED = 20261123
VARIANTS = 400
HANG_SECONDS = 30  # a hang detector, not a speed test: a healthy variant takes well under a second
HOSTILE = [".nan", ".inf", "-.inf", "-1", "0", "1e308", "99999999999", "''", "[]", "{}", "[[[[[]]]]]", "blurple",
           "'#GGG'", "../../etc/passwd.png", "/etc/hostname.png", "'a\\0b'", "*nothere", "&anchor x", "!!python/object {}",
           "'" + "x" * 3000 + "'", "{rules.nothing}", "{ours: 3}", "unspecified", "true", "'poker'", "[1, 2, 3]",
           "'10 x 10'", "-0.0", "1e-300", "'\u202eevil'"]
SCALAR = re.compile(r"(:\s+)([^\s\[{][^,}\]\n#]*)")


def mutate(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    kind = rng.randrange(5)
    i = rng.randrange(len(lines))
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(i, lines[i])
    elif kind == 2:
        lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
    elif kind == 3:
        lines[i] = " " * rng.randrange(8) + lines[i].lstrip()
    else:
        spots = [(n, m) for n, line in enumerate(lines) for m in SCALAR.finditer(line)]
        if spots:
            n, m = rng.choice(spots)
            lines[n] = lines[n][:m.start(2)] + rng.choice(HOSTILE) + lines[n][m.end(2):]
    return "\n".join(lines) + "\n"


def variant(source: Path, target: Path, rng: random.Random) -> None:
    shutil.copytree(source, target)
    files = sorted(target.glob("*.yaml"))
    for _ in range(rng.randrange(1, 3)):
        path = rng.choice(files)
        path.write_text(mutate(path.read_text(encoding="utf-8"), rng), encoding="utf-8")


def hang(signum, frame):
    raise TimeoutError("variant still running after the limit")


def test_no_variant_of_a_game_folder_crashes_or_hangs(tmp_path):
    rng = random.Random(SEED)
    sources = [MINI, components_dir() / "stratastar", components_dir() / "stars_inc"]
    runner = CliRunner()
    failures, built = [], 0  # built: builds that got through (a fuzzer whose every variant fails early tests little)
    previous = signal.signal(signal.SIGALRM, hang)
    try:
        for n in range(VARIANTS):
            folder = tmp_path / f"v{n}" / "game"
            source = MINI if n % 2 else rng.choice(sources)
            variant(source, folder, rng)
            commands = [["check", str(folder)]]
            if source == MINI:  # a build of the small game is quick; the big ones are checked only
                commands.append(["build", str(folder), "--format", "pdf", "--out", str(tmp_path / f"v{n}" / "out")])
            for command in commands:
                signal.alarm(HANG_SECONDS)
                try:
                    result = runner.invoke(main, command)
                finally:
                    signal.alarm(0)
                built += command[0] == "build" and result.exit_code == 0
                problem = _problem(result)
                if problem:
                    failures.append(f"variant {n} ({source.name}), {command[0]}: {problem}")
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert built >= 25  # enough variants still build for the property to mean something (30 of them today)
    assert failures == [], "\n".join(failures[:10])


def _problem(result) -> str | None:
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return f"{type(result.exception).__name__}: {str(result.exception)[:200]}"
    if result.exit_code not in (0, 2):
        return f"exit status {result.exit_code}: {result.output[-300:]}"
    if "Traceback" in result.output:
        return "a traceback on the output"
    if result.exit_code == 2 and any(len(line) > 600 for line in result.stderr.splitlines()):
        return "an error line longer than 600 characters"
    return None


@pytest.fixture(autouse=True)
def _no_colour(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
