"""A count slip (thousands of copies) is caught before it prints a ream of paper: `check` warns, `build` asks
for --yes; and a build shows how far it is when someone watches it in a terminal."""
from __future__ import annotations

import json
import os
import pty
import subprocess
from pathlib import Path

from cli_runner import STARPNP, one_line, replace, run
from starpnp.generator.build import LARGE_PAGES
from starpnp.generator.data.limits import MAX_PAGES

MANY = "{count: 2400, title: Attack"  # 2,403 poker cards, 9 a sheet, backs behind: about 540 pages


def test_check_warns_of_a_set_past_500_pages_and_still_passes(game):
    replace(game / "cards.yaml", "{count: 3, title: Attack", MANY)
    result = run("check", game)
    assert result.returncode == 0, result.stderr
    warning = [line for line in result.stdout.splitlines() if "warning" in line]
    assert len(warning) == 1 and f"more than {LARGE_PAGES}" in warning[0] and "deck alone has 2,403 pieces" in warning[0]


def test_check_is_quiet_about_a_set_of_ordinary_size(game):
    result = run("check", game)
    assert result.returncode == 0 and "warning" not in result.stdout


def test_build_refuses_a_set_past_500_pages_without_yes_and_builds_it_with(game, tmp_path):
    replace(game / "cards.yaml", "{count: 3, title: Attack", MANY)
    out = tmp_path / "out"
    refused = run("build", game, "--format", "pdf", "--out", out)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and "pass --yes" in lines[0] and f"more than {LARGE_PAGES}" in lines[0], refused.stderr
    assert not out.exists()
    estimated = int(lines[0].split("about ")[1].split(" pages")[0].replace(",", ""))

    built = run("build", game, "--format", "pdf", "--out", out, "--yes", "--quiet")
    assert built.returncode == 0, built.stderr
    pages = json.loads((out / "mini" / "manifest.json").read_text())["pages"]
    assert pages > LARGE_PAGES and abs(pages - estimated) <= pages * 0.05  # the estimate is close


def build_on_a_terminal(game: Path, out: Path) -> tuple[int, str]:
    """Build with stderr on a pseudo-terminal, as someone watching it would; (exit status, what it showed)."""
    leader, follower = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100"}
    env.pop("NO_COLOR", None)
    process = subprocess.Popen([*STARPNP, "build", str(game), "--format", "pdf", "--out", str(out), "--yes"],
                               stdout=subprocess.DEVNULL, stderr=follower, env=env)
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the build ended and closed its end
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    return process.wait(timeout=120), shown.decode("utf-8", "replace")


def test_a_build_shows_its_progress_on_a_terminal_and_nothing_otherwise(game, tmp_path):
    replace(game / "cards.yaml", "{count: 3, title: Attack", MANY)
    status, shown = build_on_a_terminal(game, tmp_path / "tty")
    assert status == 0
    assert "mini: writing PDF, page" in shown and "of 548" in shown
    piped = run("build", game, "--format", "pdf", "--out", tmp_path / "pipe", "--yes")
    assert piped.returncode == 0 and piped.stderr == ""


def test_a_set_past_the_page_ceiling_is_refused_by_check_and_by_build_even_with_yes(game, tmp_path):
    replace(game / "chits.yaml", "      title: Mini board\n    items:\n      - {count: 1}",
            "      title: Mini board\n    items:\n      - {count: 2000}")  # 2,000 boards of 4 pages each
    checked = run("check", game)
    line = one_line(checked, f"over the limit of {MAX_PAGES:,}", "the set's pages on a4")
    built = run("build", game, "--format", "pdf", "--out", tmp_path / "out", "--yes")
    assert one_line(built, f"over the limit of {MAX_PAGES:,}") == line and not (tmp_path / "out").exists()
