"""Files a game reads lie inside its folder: every name is resolved after following links, and one leading
out (or absolute, or through ..) is refused, so building someone's folder never reads a file it merely
points at. Messages name the file as the game wrote it, never where a link leads nor what it holds."""
from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import Iterable

from .errors import DataError

INSIDE = "must be a file inside the game's folder (no absolute path, .. or link leading out)"


def within(path: Path, roots: Iterable[Path]) -> bool:
    """Whether `path`, every link followed, lies inside one of `roots` (a link loop lies nowhere)."""
    try:
        where = path.resolve()
    except (OSError, RuntimeError, ValueError):  # RuntimeError: a link loop; ValueError: a NUL byte
        return False
    for root in roots:
        try:
            where.relative_to(root.resolve())
            return True
        except (ValueError, OSError, RuntimeError):
            continue
    return False


def named_inside(name: str, roots: list[Path]) -> Path | None:
    """The file `name` (relative, as a game writes it) stands for in the first of `roots`, or None when it is
    absolute or lies outside every one of them."""
    if not name or Path(name).is_absolute() or "\0" in name:
        return None
    for root in roots:
        if within(root / name, (root,)):
            return root / name
    return None



# ---- what starpnp keeps in a folder's .cache/ (published sheets, converted fonts) ----------------------------

KEPT = "must be a real folder or file inside the game's folder, not a link (delete it; the build makes it again)"


def kept_file(folder: Path, relative: Path) -> Path:
    """`folder/relative`, a file starpnp keeps under `folder/.cache/`, once every part of it that exists is
    checked without following links: each folder a real folder, the file a real file. A `.cache` linking
    elsewhere would be read through (an outside file printed as a kept copy) and written through (a fetched
    sheet landing outside), so it is refused in one line (DataError) before anything is read or fetched."""
    path = folder
    for part in relative.parts:
        path = path / part
        try:
            info = path.lstat()
        except FileNotFoundError:
            break
        except OSError as exc:
            raise DataError(f"{path}: cannot read: {exc.strerror or exc}") from None
        wanted = stat.S_ISREG if path == folder / relative else stat.S_ISDIR
        if not wanted(info.st_mode):
            raise DataError(f"{path}: {KEPT}")
    return folder / relative


def kept_since(path: Path) -> float | None:
    """When the kept file `path` (checked by kept_file) was written, or None when there is none."""
    try:
        info = path.lstat()
    except OSError:
        return None
    return info.st_mtime if stat.S_ISREG(info.st_mode) else None


def write_kept(folder: Path, relative: Path, data: bytes) -> None:
    """Keep `data` as `folder/relative` (checked by kept_file), made whole or not at all: each folder it lacks
    is made and each is checked to be a real folder (never one through a link), the bytes go to a new file
    beside it, which then replaces it (a link at its place is replaced, not followed). DataError when a part
    is a link, OSError when it cannot be written."""
    where = folder
    for part in relative.parts[:-1]:
        where = where / part
        try:
            os.mkdir(where)  # makes nothing through a link: an existing link is "already there"
        except FileExistsError:
            pass
        if not stat.S_ISDIR(where.lstat().st_mode):
            raise DataError(f"{where}: {KEPT}")
    replace_whole(folder / relative, data)


def replace_whole(path: Path, data: bytes, mode: int | None = None) -> None:
    """`path` holding `data`, made whole or not at all, so a reader never sees half a file: the bytes go to a
    new file beside it (mkstemp opens with O_EXCL, never through a link), reach the disk, and then replace it
    (a link at its place is replaced, not followed). `mode`: the new file's permissions. The one way a file
    is written in place: the kept sheets here, the studio's writes to a person's files."""
    handle, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if mode is not None:
            os.chmod(partial, mode)
        os.replace(partial, path)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise
