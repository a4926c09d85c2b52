"""Files a game reads lie inside its folder: every name is resolved after following links, and one leading
out (or absolute, or through ..) is refused, so building someone's folder never reads a file it merely
points at. Messages name the file as the game wrote it, never where a link leads nor what it holds."""
from __future__ import annotations

import errno
import os
import secrets
import stat
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
    """Keep `data` as `folder/relative` (checked by kept_file), made whole or not at all, each folder it lacks
    made (replace_whole). DataError when a part is a link, OSError when it cannot be written."""
    try:
        replace_whole(folder / relative, data, inside=folder, make_folders=True)
    except NotInside:
        raise DataError(f"{folder / relative}: {KEPT}") from None


# ---- the one writer of a person's files -----------------------------------------------------------------------

LINKED = "must be a real file inside the game's folder, reached through no link; nothing was written"
NEW_FILE_MODE = 0o600  # a file made by replace_whole unless told: only its owner reads it


class NotInside(DataError):
    """A file to write (or read back before writing) is not a real file inside the folder at this moment: a
    part of its path is a link (or not a folder), it names something not a file, or it lies outside."""


def _parts(path: Path, inside: Path) -> tuple[str, ...]:
    """`path`'s names below `inside`, as written (never resolved: resolving would follow the very links
    refused); `path` may be written from `inside` as given or as resolved."""
    for root in (inside, inside.resolve()):
        try:
            parts = path.relative_to(root).parts
        except ValueError:
            continue
        if parts and ".." not in parts and "\0" not in str(path):
            return parts
    raise NotInside(f"{path.name}: {LINKED}")


def _open_folder(inside: Path, names: tuple[str, ...], make: bool, shown: str) -> int:
    """A descriptor of the folder `inside/names…`, each name opened without following a link (O_NOFOLLOW,
    relative to its parent's descriptor), so no link swapped in on the way is gone through; `make`: a
    missing folder is made. The caller closes it."""
    fd = os.open(inside, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for name in names:
            try:
                inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            except FileNotFoundError:
                if not make:
                    raise
                os.mkdir(name, 0o755, dir_fd=fd)
                inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            except OSError as exc:  # ELOOP: a link; ENOTDIR: a file where a folder should be
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise NotInside(f"{shown}: {LINKED}") from None
                raise
            os.close(fd)
            fd = inner
        return fd
    except BaseException:
        os.close(fd)
        raise


def _file_mode(fd: int, name: str, shown: str) -> int | None:
    """The permissions of the file `name` in the folder `fd`, None when there is none; NotInside when it is a
    link or not a file."""
    try:
        info = os.stat(name, dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(info.st_mode):
        raise NotInside(f"{shown}: {LINKED}")
    return info.st_mode & 0o7777


def read_inside(path: Path, inside: Path) -> bytes | None:
    """The bytes of `path`, a real file inside `inside` reached through no link, or None when there is none
    (NotInside when a part of it is a link): what a write compares against before it writes."""
    parts = _parts(path, inside)
    shown = "/".join(parts)
    try:
        fd = _open_folder(inside, parts[:-1], False, shown)
    except FileNotFoundError:
        return None
    try:
        if _file_mode(fd, parts[-1], shown) is None:
            return None
        handle = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW, dir_fd=fd)
        with os.fdopen(handle, "rb") as file:
            return file.read()
    finally:
        os.close(fd)


def replace_whole(path: Path, data: bytes | None, mode: int | None = None, *, inside: Path,
                  make_folders: bool = False) -> None:
    """`path` holding `data` (None: no file), made whole or not at all, so a reader never sees half a file,
    and only when it is a real file inside the folder `inside` at the moment it is written: each folder on
    the way is opened without following a link and the file is checked not to be one (NotInside, nothing
    written). The bytes go to a new file beside it (O_EXCL, never through a link), reach the disk, and then
    replace it. A file replaced keeps its permissions; a new one gets `mode` (else NEW_FILE_MODE).
    `make_folders`: folders it lacks are made. The one way a file is written in place: the kept sheets, the
    studio's edits, moves, pictures, undo and redo."""
    parts = _parts(path, inside)
    shown = "/".join(parts)
    try:
        fd = _open_folder(inside, parts[:-1], make_folders and data is not None, shown)
    except FileNotFoundError:
        if data is None:
            return
        raise
    name = parts[-1]
    try:
        kept_mode = _file_mode(fd, name, shown)
        if data is None:
            if kept_mode is not None:
                os.unlink(name, dir_fd=fd)
            return
        partial = f".{name[:200]}.{secrets.token_hex(6)}.part"
        handle = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                         kept_mode if kept_mode is not None else mode or NEW_FILE_MODE, dir_fd=fd)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
                os.fchmod(out.fileno(), kept_mode if kept_mode is not None else mode or NEW_FILE_MODE)
            os.replace(partial, name, src_dir_fd=fd, dst_dir_fd=fd)
        except BaseException:
            try:
                os.unlink(partial, dir_fd=fd)
            except FileNotFoundError:
                pass
            raise
    finally:
        os.close(fd)
