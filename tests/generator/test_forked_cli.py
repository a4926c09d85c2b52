"""The CLI tests' forked runs (forked_cli.py) answer as a fresh `python -m starpnp` does: the same output,
errors and exit status, in the folder given, killed at their time limit."""
from __future__ import annotations

import subprocess

import pytest

from forked_cli import STARPNP, forked_run

MINI = "tests/fixtures/mini"


@pytest.mark.parametrize("args", [["check", MINI], ["build", MINI, "--bleed=nan"], ["check", "no-such-game"]],
                         ids=["ok", "usage", "data"])
def test_a_forked_run_prints_and_exits_as_a_fresh_interpreter_does(args):
    fresh = subprocess.run([*STARPNP, *args], capture_output=True, text=True, timeout=120)
    forked = forked_run(args)
    assert (forked.returncode, forked.stdout, forked.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)


def test_a_forked_run_works_in_the_folder_it_is_given(tmp_path):
    (tmp_path / "cards").mkdir()
    result = forked_run(["check", "cards"], cwd=tmp_path, env={"PATH": "/usr/bin:/bin"})
    assert result.returncode == 2 and "cards: not a game folder" in result.stderr, result.stderr


def test_a_run_past_its_time_limit_is_killed_as_subprocess_run_kills_it(tmp_path):
    with pytest.raises(subprocess.TimeoutExpired):
        forked_run(["check", MINI], timeout=0.001)
    assert forked_run(["check", MINI]).returncode == 0  # the server goes on to the next run
