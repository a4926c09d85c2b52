"""One build per game and options for the whole test session, shared by every test file and both xdist workers.

Many test files build the same game with the same options (the four games' A4 and Letter PDFs are read by a
dozen files): each such build is made once, by whichever worker asks first, while the other waits on a file
lock, and read by every file after. The builds live in the session's own temporary folder (the parent of the
workers' folders), so a session never sees another's, nor a build of older code.

Tests only read a shared build. Root can write a read-only file, so instead each build's files are listed
with their size and modification time when made, and checked again when the session ends: a test that changed
a shared output makes the session fail, naming the file (see `SharedBuilds.changed_files`).

Loaded by tests/conftest.py as the module `starpnp_shared_builds`; tests take the `shared_builds` fixture.
"""
from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import os
import pickle
import shutil
from contextlib import contextmanager
from pathlib import Path

from starpnp.generator.build import BuildFailed, BuildOptions, BuildResult, build_game


def files_stamp(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under `folder`: its path within it -> (size, modification time in ns)."""
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


@contextmanager
def locked(path: Path):
    """An exclusive lock on `path` (a file made for it), held across processes: one worker builds, the
    other waits for the build rather than making it twice."""
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


class SharedBuilds:
    """Builds kept in `root` under a hash of the game's folder and every build option but `out`."""

    def __init__(self, root: Path):
        self.root = root
        self.handed_out: dict[Path, dict] = {}  # build folder -> its files' stamp when built

    def build(self, folder: Path, options: BuildOptions) -> BuildResult:
        """build_game(folder, options) made once per session for these options (`options.out` is ignored):
        its BuildResult, whose `folder` and `files` are the shared build's. Read them; never write there.

        A strict build shares the plain build of its options: build_game writes the same files either way, and
        refuses a strict one that warns (BuildFailed, its warnings the message), as this does."""
        plain = dataclasses.replace(options, out=Path(), strict=False)
        key = hashlib.sha256(repr((str(folder), plain)).encode()).hexdigest()[:24]
        out, record = self.root / key, self.root / f"{key}.pickle"
        self.root.mkdir(parents=True, exist_ok=True)
        with locked(self.root / f"{key}.lock"):
            if not record.is_file():
                shutil.rmtree(out, ignore_errors=True)  # what a build that failed left behind
                result = build_game(folder, dataclasses.replace(plain, out=out))
                made = {"result": result, "stamp": files_stamp(result.folder)}
                record.with_suffix(".partial").write_bytes(pickle.dumps(made))
                record.with_suffix(".partial").rename(record)  # only a finished build has its record
            made = pickle.loads(record.read_bytes())
        self.handed_out[made["result"].folder] = made["stamp"]
        if options.strict and made["result"].warnings:
            raise BuildFailed("\n".join(made["result"].warnings))
        return made["result"]

    def changed_files(self) -> list[str]:
        """The files of builds handed out in this process that a test added, removed or changed."""
        changed = []
        for folder, stamp in self.handed_out.items():
            now = files_stamp(folder)
            changed += [str(folder / name) for name in sorted(set(stamp) | set(now))
                        if stamp.get(name) != now.get(name)]
        return changed


def session_root(basetemp: Path) -> Path:
    """The folder every worker of this session shares: the parent of a worker's own, or the session's."""
    return (basetemp.parent if os.environ.get("PYTEST_XDIST_WORKER") else basetemp) / "shared-builds"
