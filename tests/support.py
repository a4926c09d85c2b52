"""What every test folder shares: the rule that a missing tool skips locally but fails in CI.

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
