"""The studio's writes to a person's files: each atomic (a temporary file in the same folder, then a rename,
so an editor or a build never reads half a file), each remembered with the bytes before and after, so undo
and redo restore exact bytes, and refuse when the file changed since (the person saved in their editor)."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..data.inside import replace_whole

KEPT_STEPS = 100  # undo steps remembered
NEW_FILE_MODE = 0o644  # a file the studio makes (a layout, an image): the owner writes, anyone reads


def digest(data: bytes | None) -> str | None:
    return None if data is None else hashlib.blake2b(data, digest_size=16).hexdigest()


def current(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def write_atomically(path: Path, data: bytes | None) -> None:
    """`path` holding `data` (None: no file), all at once; a file written keeps the old one's permissions."""
    if data is None:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = NEW_FILE_MODE
    replace_whole(path, data, mode)


@dataclass
class Step:
    """One edit as written: each file's bytes before and after (None: no such file)."""

    label: str
    files: dict[Path, tuple[bytes | None, bytes | None]]


class Changed(Exception):
    """A file changed since the studio wrote it: undo or redo would lose the person's own save."""


@dataclass
class Journal:
    done: list[Step] = field(default_factory=list)
    undone: list[Step] = field(default_factory=list)
    ours: dict[Path, str | None] = field(default_factory=dict)  # each file's digest as the studio last wrote it

    def write(self, label: str, texts: dict[Path, bytes | None], made: Iterable[Path] = ()) -> Step:
        """Write `texts` as one step; `made`: files the caller has just made (an image), undone with it."""
        step = Step(label, {path: (current(path), data) for path, data in texts.items()})
        self._apply(step, after=True)
        step.files.update({path: (None, current(path)) for path in made})
        self.done.append(step)
        del self.done[:-KEPT_STEPS]
        self.undone.clear()
        return step

    def undo(self) -> Step | None:
        return self._step(self.done, self.undone, after=False)

    def redo(self) -> Step | None:
        return self._step(self.undone, self.done, after=True)

    def _step(self, source: list[Step], target: list[Step], after: bool) -> Step | None:
        if not source:
            return None
        step = source[-1]
        for path, (before, written) in step.files.items():
            if current(path) != (before if after else written):
                raise Changed(f"{path.name} changed since the studio wrote it; "
                              f"{'redo' if after else 'undo'} would lose that save")
        self._apply(step, after)
        target.append(source.pop())
        return step

    def _apply(self, step: Step, after: bool) -> None:
        for path, (before, written) in step.files.items():
            data = written if after else before
            write_atomically(path, data)
            self.ours[path.resolve()] = digest(data)
