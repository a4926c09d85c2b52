"""Files a game reads lie inside its folder: every name is resolved after following links, and one leading
out (or absolute, or through ..) is refused, so building someone's folder never reads a file it merely
points at. Messages name the file as the game wrote it, never where a link leads nor what it holds."""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

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

