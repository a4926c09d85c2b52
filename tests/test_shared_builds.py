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


def test_a_strict_build_shares_the_plain_one_and_is_refused_when_it_warns(tmp_path, monkeypatch):
    """build_game writes the same files with and without --strict, so one build serves both; a strict one that
    warns raises BuildFailed, as build_game would."""
    from starpnp.generator.build import BuildFailed

    shared = starpnp_shared_builds.SharedBuilds(tmp_path / "shared")
    plain = shared.build(MINI, BuildOptions(formats=("pdf",)))
    monkeypatch.setattr(starpnp_shared_builds, "build_game", lambda *_: pytest.fail("built a second time"))
    assert shared.build(MINI, BuildOptions(formats=("pdf",), strict=True)) == plain

    warned = dataclasses.replace(plain, warnings=["cards.yaml: a warning"])
    monkeypatch.setattr(starpnp_shared_builds, "build_game", lambda *_: warned)
    assert shared.build(MINI, BuildOptions(formats=("pdf",), dpi=1)).warnings == ["cards.yaml: a warning"]
    with pytest.raises(BuildFailed, match="cards.yaml: a warning"):
        shared.build(MINI, BuildOptions(formats=("pdf",), dpi=1, strict=True))
