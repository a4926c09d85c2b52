"""Icons are SVG files found by name: a game folder's own `icons/<name>.svg`, then ours (builtin/icons/).

Each file is read once per process (again only when it changes, for --watch) and drawn as scene
elements, so the PDF and the SVG backends both draw it as vectors. How an icon file takes the ink and
paper it is printed with is in generator/iconfile.py (COLOURS).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from stat import S_ISLNK
from typing import Iterable

from .iconfile import IconFileError, read_icon_file, recolour
from .scene import Element, Group
from ..data.inside import INSIDE, within
from ...resources import folder

ICON_FOLDER = "icons"  # inside a game folder


def builtin_icons() -> Path:
    return folder("starpnp.generator.look") / "builtin" / ICON_FOLDER


GameFolders = Path | Iterable[Path] | None


def _folders(game_folder: GameFolders) -> tuple[Path, ...]:
    """Where icons are looked for, first match wins: the game's folders in order, then ours."""
    if game_folder is None:
        return _icon_folders(())
    return _icon_folders((game_folder,) if isinstance(game_folder, Path) else tuple(game_folder))


@lru_cache(maxsize=64)
def _icon_folders(games: tuple[Path, ...]) -> tuple[Path, ...]:
    return tuple(g / ICON_FOLDER for g in games) + (builtin_icons(),)


@dataclass(frozen=True)
class _Folder:
    """One icons/ folder as listed: name -> file, and whether the folder, links followed, lies in its game
    folder (or ours), found once per listing: resolving it again for each of 2,000 icon files took a tenth of
    a build."""

    files: dict[str, Path]
    inside: bool


def _listed(place: Path) -> _Folder:
    """The folder's icons, listed again only when the folder changes (--watch)."""
    try:
        changed = os.stat(place).st_mtime_ns
    except OSError:
        return _Folder({}, True)
    return _listing(place, changed)


@lru_cache(maxsize=256)
def _listing(place: Path, changed: int) -> _Folder:
    """Listed by os.scandir, which knows a plain file from its directory entry: no stat per file."""
    with os.scandir(place) as entries:
        names = sorted(entry.name for entry in entries if entry.name.endswith(".svg") and _is_file(entry))
    return _Folder({name[:-len(".svg")] or name: place / name for name in names}, within(place, (place.parent,)))


def _is_file(entry: os.DirEntry) -> bool:
    """Whether the entry is a file, links followed; a link in a loop, or one that cannot be followed, is none
    (as Path.is_file says), not an error that stops the listing."""
    try:
        return entry.is_file()
    except OSError:
        return False


def _files_in(place: Path) -> dict[str, Path]:
    """name -> file of the icons in one folder."""
    return _listed(place).files


def _found(name: str, game_folder: GameFolders) -> tuple[Path, bool] | None:
    """(the file an icon name stands for, whether its folder lies inside), or None."""
    for place in _folders(game_folder):
        folder = _listed(place)
        file = folder.files.get(name)
        if file is not None:
            return file, folder.inside
    return None


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: one Icon per file read
class Icon:
    """One icon file, read: its viewBox, its elements with colour roles (see iconfile.COLOURS) and the warnings
    reading it gave (a path drawn up to an error in its data)."""

    name: str
    file: Path
    view_box: tuple[float, float, float, float]
    elements: tuple[Element, ...]
    warnings: tuple[str, ...] = ()

    def draw(self, x: float, y: float, size: float, ink: str, paper: str = "#FFFFFF") -> Element:
        """The icon fitted, centred, into the square (x, y, size), in `ink` on `paper`."""
        return _drawn(self, x, y, size, ink, paper)


@lru_cache(maxsize=8192)
def _drawn(icon: Icon, x: float, y: float, size: float, ink: str, paper: str) -> Element:
    left, top, w, h = icon.view_box
    scale = size / max(w, h)
    children = _coloured(icon, ink, paper)
    if (left, top) != (0, 0) or w != h:
        children = (Group(children, dx=-left + (max(w, h) - w) / 2, dy=-top + (max(w, h) - h) / 2),)
    return Group(children, dx=x, dy=y, scale=scale)


@lru_cache(maxsize=4096)
def _coloured(icon: Icon, ink: str, paper: str) -> tuple[Element, ...]:
    return tuple(recolour(element, ink, paper) for element in icon.elements)


def icon_file(name: str, game_folder: GameFolders = None) -> Path | None:
    """The file an icon name stands for, or None."""
    found = _found(name, game_folder)
    return found and found[0]


def find_icon(name: str, game_folder: GameFolders = None) -> Icon:
    """The icon called `name`: KeyError when there is none, IconFileError (one line, naming the file) when
    its file is not an icon we can draw. `game_folder` is a game folder, or several searched in order."""
    found = _found(name, game_folder)
    if found is None:
        raise KeyError(name)
    return _load(*found)


# file -> (its mtime and size when read, the Icon or the error reading it gave): each file read once per process
# however many icons a game has and however often each is used (an LRU of fixed size read a deck of 2,000
# distinct icons twice: once to check them, once to draw them), again only when it changes (--watch)
_READ: dict[Path, tuple[tuple[int, int], Icon | str]] = {}


def _load(file: Path, folder_inside: bool) -> Icon:
    """The icon in `file`, read once: one lstat tells a link (whose target must lie in the game folder too)
    from a file, which lies where its folder does."""
    stat = os.lstat(file)
    link = S_ISLNK(stat.st_mode)
    if link:
        stat = os.stat(file)
    stamp = (stat.st_mtime_ns, stat.st_size)
    known = _READ.get(file)
    if known is None or known[0] != stamp:
        try:
            if not (within(file, (file.parent.parent,)) if link else folder_inside):
                raise IconFileError(f"{file}: an icon file {INSIDE}")
            drawing = read_icon_file(file)
            known = stamp, Icon(file.stem, file, drawing.view_box, drawing.elements, drawing.warnings)
        except IconFileError as exc:
            known = stamp, str(exc)
        _READ[file] = known
    if isinstance(known[1], str):
        raise IconFileError(known[1])
    return known[1]


def icon_names(game_folder: GameFolders = None) -> list[str]:
    """Every icon name known to a game (its own and ours), sorted."""
    return sorted({name for place in _folders(game_folder) for name in _files_in(place)})


def icon_problems(game_folder: GameFolders = None) -> tuple[list[str], list[str]]:
    """(errors, warnings) for `starpnp check` and the build: one line per icon file that cannot be drawn, and
    the warnings of those drawn in part."""
    problems, warnings = [], []
    for place in _folders(game_folder):
        folder = _listed(place)
        for file in folder.files.values():
            try:
                warnings += _load(file, folder.inside).warnings
            except IconFileError as exc:
                problems.append(str(exc))
    return problems, warnings


def draw_icon(name: str, x: float, y: float, size: float, ink: str, paper: str = "#ffffff",
              game_folder: GameFolders = None) -> Element:
    """The icon scaled into the square (x, y, size); unknown names raise KeyError."""
    return find_icon(name, game_folder).draw(x, y, size, ink, paper)
