"""The session's shared builds (tests/shared_builds.py): one build per game and options, whichever worker asks,
and a test that changes a shared build's files is found out."""
import dataclasses
from pathlib import Path

import pytest

import starpnp_shared_builds
from starpnp.generator.build import BuildOptions

MINI = Path(__file__).resolve().parent / "fixtures" / "mini"


def test_the_same_options_are_built_once_and_a_changed_file_is_named(tmp_path, monkeypatch):
    options = BuildOptions(formats=("pdf",))
    first = starpnp_shared_builds.SharedBuilds(tmp_path / "shared")
    built = first.build(MINI, options)
    assert (built.folder / "manifest.json").is_file() and built.files

    monkeypatch.setattr(starpnp_shared_builds, "build_game", lambda *_: pytest.fail("built a second time"))
    other_worker = starpnp_shared_builds.SharedBuilds(tmp_path / "shared")
    assert other_worker.build(MINI, dataclasses.replace(options, out=tmp_path / "ignored")) == built
    assert first.changed_files() == other_worker.changed_files() == []

    (built.folder / "manifest.json").write_text("{}")
    assert other_worker.changed_files() == [str(built.folder / "manifest.json")]
