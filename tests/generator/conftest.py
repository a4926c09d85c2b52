"""Shared fixtures for generator tests: one build of the small test game, reused by every module."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from generator.build import BuildOptions, build_game
from generator.imposition import Settings

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
MINI = FIXTURES / "mini"


def need_tool(name: str) -> str:
    """The tool's path; when it is missing, skip locally but fail in CI (CI must run every test)."""
    path = shutil.which(name)
    if path is None:
        message = f"{name} is not installed (Debian: poppler-utils / chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def build_mini(out: Path, **settings) -> dict:
    """Build the test game; returns its manifest with the output folder added under "_out"."""
    options = BuildOptions(settings=Settings(**settings), out=out)
    build_game(MINI, options)
    folder = out / "mini"
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["_out"] = folder
    return manifest


@pytest.fixture(scope="session")
def mini(tmp_path_factory) -> dict:
    return build_mini(tmp_path_factory.mktemp("mini-long"))


@pytest.fixture(scope="session")
def mini_short(tmp_path_factory) -> dict:
    return build_mini(tmp_path_factory.mktemp("mini-short"), duplex="short", paper="letter")
