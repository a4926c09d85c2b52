"""Shared fixtures for generator tests: one build of the small test game, reused by every module."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from starpnp.generator.build import BuildOptions, build_game
from starpnp.generator.sheets.imposition import Settings

from starpnp_test_support import MINI


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


@pytest.fixture(scope="session")
def mini_one_sided(tmp_path_factory) -> dict:
    return build_mini(tmp_path_factory.mktemp("mini-off"), duplex="off")


@pytest.fixture
def game(tmp_path) -> Path:
    """A private copy of the test game to break."""
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    return folder
