"""The studio's writes to a person's files: each atomic and each only to a real file inside the folder at the
moment it is written (replace_whole), each remembered with the bytes before and after, so undo and redo
restore exact bytes, and refuse when the file changed since (the person saved in their editor, or a link was
put in its place)."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..data.inside import NotInside, read_inside, replace_whole

KEPT_STEPS = 100  # undo steps remembered
KEPT_CHANGES = 400  # tabs' changes remembered (more than the versions a page may be behind: desk.py)
NEW_FILE_MODE = 0o644  # a file the studio makes (a layout, an image): the owner writes, anyone reads


def digest(data: bytes | None) -> str | None:
    return None if data is None else hashlib.blake2b(data, digest_size=16).hexdigest()


def current(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


@dataclass
class Step:
    """One edit as written: each file's bytes before and after (None: no such file); the tab that made it,
    the values it set (each file's key path or cell) and the version the studio showed once it was written."""

    label: str
    files: dict[Path, tuple[bytes | None, bytes | None]]
    tab: str = ""
    values: frozenset = frozenset()
    version: int = 0


class Changed(Exception):
    """A file changed since the studio wrote it: undo or redo would lose the person's own save."""


@dataclass
class Journal:
    folder: Path
    done: list[Step] = field(default_factory=list)
    undone: list[Step] = field(default_factory=list)
    ours: dict[Path, str | None] = field(default_factory=dict)  # each file's digest as the studio last wrote it
    changes: list[tuple[int, str, frozenset]] = field(default_factory=list)  # (version, tab, values), the latest

    def log(self, version: int, tab: str, values: frozenset) -> None:
        """The values a tab changed (written, undone or redone), the version that showed them first."""
        self.changes.append((version, tab, values))
        del self.changes[:-KEPT_CHANGES]

    def changed_since(self, version: int, tab: str, values: frozenset) -> str | None:
        """Which of `values` another tab changed after `version` (the one the page made its change on), as a
        person names it, or None: a change made on a value another tab changed since is refused, as an
        editor refuses a save over a newer file."""
        for then, other, changed in self.changes:
            if then > version and other != tab and changed & values:
                file, where = sorted(changed & values, key=str)[0]
                cell = isinstance(where[0], int)  # (line, column) of a spreadsheet, else a YAML key path
                return f"{Path(file).name}:{where[0]}" if cell else f"{Path(file).name}: {'.'.join(map(str, where))}"
        return None

    def now(self, path: Path) -> bytes | None:
        """The file's bytes, read without following a link (NotInside when a part of its path is one)."""
        return read_inside(path, self.folder)

    def write(self, label: str, texts: dict[Path, bytes | None], made: Iterable[Path] = (), tab: str = "",
              values: Iterable = ()) -> Step:
        """Write `texts` as one step; `made`: files the caller has just made (an image), undone with it."""
        step = Step(label, {path: (self.now(path), data) for path, data in texts.items()}, tab, frozenset(values))
        self._apply(step, after=True)
        step.files.update({path: (None, self.now(path)) for path in made})
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
        name = "redo" if after else "undo"
        for path, (before, written) in step.files.items():
            try:
                now = self.now(path)
            except NotInside:
                raise Changed(f"{path.name} is no longer a real file inside the folder (a link?) since the studio "
                              f"wrote it; {name} writes nothing") from None
            if now != (before if after else written):
                raise Changed(f"{path.name} changed since the studio wrote it; {name} would lose that save")
        self._apply(step, after)
        target.append(source.pop())
        return step

    def _apply(self, step: Step, after: bool) -> None:
        """Each file of the step as it was after (or before) it; when one cannot be written, those already
        written go back, so a step is made whole or not at all."""
        written: list[tuple[Path, bytes | None]] = []
        try:
            for path, (before, then) in step.files.items():
                replace_whole(path, then if after else before, NEW_FILE_MODE, inside=self.folder, make_folders=True)
                written.append((path, then if after else before))
        except BaseException:
            for path, _ in reversed(written):
                before, then = step.files[path]
                try:
                    replace_whole(path, before if after else then, NEW_FILE_MODE, inside=self.folder)
                except (OSError, NotInside):
                    pass  # the disk refused that too: the first error is the one to say
            raise
        for path, data in written:
            self.ours[path.resolve()] = digest(data)
