"""What every test folder shares: the rule that a missing tool skips locally but fails in CI, and the
example budget of the property tests (hypothesis).

Loaded by tests/conftest.py as the module `starpnp_test_support`, so any test can import it.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest


def require_tool(name: str, install_hint: str = "") -> str:
    """The tool's path (a command on PATH or a file). When it is missing: skip locally, but fail when CI is
    set, because CI installs every tool and must run every test."""
    path = name if Path(name).exists() else shutil.which(name)
    if path:
        return path
    missing(f"{name} is not installed" + (f" (Debian: {install_hint})" if install_hint else ""))


def missing(message: str) -> None:
    """Skip the test for want of `message`'s tool, or fail it when CI is set."""
    if os.environ.get("CI"):
        pytest.fail(f"{message}; CI is set, so this fails instead of skipping")
    pytest.skip(message)


# Property tests (hypothesis) run under one of two profiles, chosen by HYPOTHESIS_PROFILE (tests/conftest.py
# loads it): "ci", the default and what `make test` runs, draws a fixed, derandomized set of examples (the same
# every run, so CI never fails by chance); "long" draws new random examples, `examples()` times as many, and
# keeps failures in .hypothesis/ to replay them first next time. README.md, "Property tests", says how.
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
LONG_FACTOR = int(os.environ.get("LONG_FACTOR", 50))


def register_profiles() -> None:
    from hypothesis import settings

    settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
    settings.register_profile("long", deadline=None, print_blob=True, max_examples=examples(100))
    settings.load_profile(PROFILE)


def examples(ci: int, long: int | None = None) -> int:
    """A property test's example budget: `ci` under the ci profile, `long` (default LONG_FACTOR times `ci`)
    under the long one."""
    return ci if PROFILE == "ci" else long or ci * LONG_FACTOR
