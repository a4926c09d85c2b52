"""Layouts found by name, one way only: layout files shipped with starpnp (package data), then a game folder's
own `layouts/*.yaml`."""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterator

from ....resources import folder as package_folder
from ...data.errors import DataError
from ...data.inside import INSIDE, within
from ...data.limits import MAX_EXTENDS, over
from ...data.origin import Where
from ...data.yamlio import line_of, load_yaml, pending_files, pending_text, read_text
from .base import FaceContext, FaceParams, Layout
from .layoutfile import LayoutError, compile_layout, merged

LAYOUTS_FOLDER = "layouts"  # in a game folder

__all__ = ["FaceContext", "FaceParams", "Layout", "Layouts", "LayoutError", "layouts_for"]


def builtin_layouts() -> Path:
    """The layout files shipped with starpnp (package data)."""
    return package_folder("starpnp.generator.look") / "builtin" / "layouts"


class Layouts:
    """The layouts one game may name: each file read and compiled once, when a face first names it."""

    def __init__(self, folders: tuple[Path, ...]):
        self.files: dict[str, list[Path]] = {}  # name -> its files, the built-in first, the game's last
        self.roots: dict[Path, Path] = {}  # each file's game folder (or ours), which it must lie inside
        for folder in (builtin_layouts(), *folders):
            for path in sorted({*folder.glob("*.yaml"), *pending_files(folder)}):
                self.roots[path] = folder.parent
                if not within(path, (folder.parent,)):
                    raise LayoutError(f"{path}: a layout file {INSIDE}")
                self.files.setdefault(path.stem, []).append(path)
        self.compiled: dict[tuple, Layout] = {}

    def __contains__(self, name: object) -> bool:
        return name in self.files

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self.files))

    def __getitem__(self, name: str) -> Layout:
        return self._file(name, len(self.files[name]) - 1, ())

    def items(self) -> Iterator[tuple[str, Layout]]:
        return ((name, self[name]) for name in self)

    def written(self, name: str) -> dict:
        """A layout as its files write it, everything it extends merged in (fields, let, boxes by name)."""
        return self._raw(name, len(self.files[name]) - 1, ())[0]

    def _raw(self, name: str, level: int, seen: tuple) -> tuple[dict, str]:
        """A layout file's mapping with everything it extends merged in, and a key naming their contents."""
        path = self.files[name][level]
        raw = load_yaml(path, self.roots[path])
        if not isinstance(raw, dict):
            raise LayoutError(f"{path}:{getattr(raw, 'line', 1)}: a layout file is a mapping (fields, let, boxes)")
        if path in seen:
            raise LayoutError(f"{path}:{line_of(raw, ('extends',))}: extends: goes round in a circle "
                              f"({' → '.join(p.stem for p in seen)})")
        parent_name = raw.get("extends")
        if parent_name is not None and len(seen) >= MAX_EXTENDS:
            raise LayoutError(str(over(f"{path}:{line_of(raw, ('extends',))}: extends",
                                       "the chain of layout files extending one another", len(seen) + 1,
                                       MAX_EXTENDS)))
        if parent_name is None:
            return raw, read_text(path, self.roots[path])
        # A game's `card.yaml` extending `card` extends the built-in one it replaces.
        parent_level = level - 1 if parent_name == name else len(self.files.get(parent_name, ())) - 1
        if parent_level < 0:
            known = ", ".join(sorted(self.files))
            line = getattr(raw, "key_lines", {}).get("extends", "")
            raise LayoutError(f"{path}:{line}: extends: no layout file named {parent_name!r}; layout files: {known}")
        parent, parent_text = self._raw(parent_name, parent_level, seen + (path,))
        return merged(parent, raw), parent_text + read_text(path, self.roots[path])

    def box_origins(self, name: str) -> dict[str, dict[str, Where]]:
        """Where each key of each box of layout `name` is written, as the files merge them: the first file of
        the extends chain (the layout's own first) that writes it. `how` is `layout` for the layout's own
        file, `extends` for a value it takes from a layout it extends (ours, the game's, the extended game's)."""
        found: dict[str, dict[str, Where]] = {}
        for depth, (path, raw) in enumerate(self._chain(name, len(self.files[name]) - 1)):
            boxes = raw.get("boxes") if isinstance(raw, dict) else None
            for box, keys in boxes.items() if isinstance(boxes, dict) else ():
                for key in keys if isinstance(keys, dict) else ():
                    place = ("boxes", box, key)
                    found.setdefault(box, {}).setdefault(
                        key, Where(str(path), line_of(raw, place), place, "extends" if depth else "layout"))
        return found

    def _chain(self, name: str, level: int) -> list[tuple[Path, Any]]:
        """A layout file and the files it extends, as read (with their lines), itself first."""
        chain: list[tuple[Path, Any]] = []
        while level >= 0 and len(chain) < min(len(self.files), MAX_EXTENDS + 1):
            path = self.files[name][level]
            chain.append((path, load_yaml(path, self.roots[path])))
            parent = chain[-1][1].get("extends") if isinstance(chain[-1][1], dict) else None
            if parent is None:
                break
            level = level - 1 if parent == name else len(self.files.get(parent, ())) - 1
            name = parent
        return chain

    def _file(self, name: str, level: int, seen: tuple) -> Layout:
        key = (name, level)
        if key not in self.compiled:
            raw, text = self._raw(name, level, seen)
            digest = hashlib.sha1(text.encode()).hexdigest()[:12]
            where = str(self.files[name][level])
            try:
                layout = compile_layout(name, raw, where, f"{name}@{digest}")
            except LayoutError as exc:
                raise located(exc, where, self._chain(name, level)) from None
            self.compiled[key] = told_where(layout, lambda exc: located(exc, where, self._chain(name, level)))
        return self.compiled[key]

    def with_boxes(self, name: str, boxes: Any, where: str, line: Callable[[tuple], int] | None = None) -> Layout:
        """`name` with some boxes changed, as a component writes `layout: card` and `boxes: {title: {h: 12}}`;
        `line` gives the line of a key written under `boxes` (a tuple of keys), for messages."""
        if not isinstance(boxes, dict) or name not in self.files:
            raise LayoutError(f"{where}: boxes: only a layout file's boxes can be changed, as a mapping of "
                              f"box name to keys")
        base = self[name]
        key = (name, json.dumps(boxes, sort_keys=True, default=str))
        if key not in self.compiled:
            raw, _ = self._raw(name, len(self.files[name]) - 1, ())
            unknown = sorted(set(boxes) - set(raw.get("boxes", {})))
            if unknown and any(not isinstance(boxes[b], dict) or "kind" not in boxes[b] for b in unknown):
                known = ", ".join(raw.get("boxes", {}))
                raise inline_located(LayoutError(f"{where}: boxes.{unknown[0]}: {name} has no such box (boxes: "
                                                 f"{known}); a new box needs a kind"), where, boxes, line)
            digest = hashlib.sha1(key[1].encode()).hexdigest()[:12]
            try:
                layout = compile_layout(name, merged(raw, {"boxes": boxes}), where, f"{base.key}+{digest}")
            except LayoutError as exc:
                raise inline_located(exc, where, boxes, line) from None
            self.compiled[key] = told_where(layout, lambda exc: inline_located(exc, where, boxes, line))
        return self.compiled[key]


# A compiled layout's problem reads `WHERE: LOC: message`, LOC the keys that lead to it (boxes.title.h, let.x,
# checks[0].when, fields.tanks.items.rows.type); these turn it into `file:line: LOC: message`.
LOC = re.compile(r"[A-Za-z_][\w-]*(?:\.[\w-]+|\[\d+\])*")


def _loc(text: str) -> tuple:
    return tuple(int(part) if part.isdigit() else part for part in re.findall(r"[\w-]+", text))


def _depth(raw: Any, loc: tuple) -> int:
    """How many of `loc`'s keys the file wrote."""
    depth, node = 0, raw
    for key in loc:
        if isinstance(node, dict) and key in node or isinstance(node, list) and isinstance(key, int) \
                and 0 <= key < len(node):
            depth, node = depth + 1, node[key]
        else:
            break
    return depth


def told_where(layout: Layout, locate: Callable[[DataError], DataError]) -> Layout:
    """`layout` whose drawing reports a value past a limit (generator.data.limits) at the file and line of
    the key that gave it, as a problem found on reading it is."""
    draw = layout.draw

    def drawn(ctx: FaceContext, face: FaceParams) -> list:
        try:
            return draw(ctx, face)
        except DataError as exc:
            raise locate(exc) from None

    return replace(layout, draw=drawn)


def located(exc: DataError, where: str, chain: list[tuple[Path, Any]]) -> DataError:
    """The problem at the line of the file (itself or one it extends) that wrote the deepest of its keys."""
    message = str(exc)
    if not message.startswith(where + ": "):
        return exc
    loc_text, _, rest = message[len(where) + 2:].partition(": ")
    if not LOC.fullmatch(loc_text) or not rest:
        return exc
    loc = _loc(loc_text)
    path, raw = max(chain, key=lambda entry: _depth(entry[1], loc))  # the first of the deepest: the overriding one
    return LayoutError(f"{path}:{line_of(raw, loc)}: {loc_text}: {rest}")


def inline_located(exc: DataError, where: str, boxes: Any, line: Callable[[tuple], int] | None) -> DataError:
    """A problem in boxes changed inline (`where` is `file:line: components[0].front.boxes`), at its own line."""
    message = str(exc)
    head = re.fullmatch(r"(.*):(\d+): (.*)", where)
    if not message.startswith(where + ": ") or head is None or line is None:
        return exc
    loc_text, _, rest = message[len(where) + 2:].partition(": ")
    loc = _loc(loc_text)
    if not LOC.fullmatch(loc_text) or not rest or loc[:1] != ("boxes",) or not _depth(boxes, loc[1:]):
        return exc
    tail = "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in loc[1:])
    return LayoutError(f"{head[1]}:{line(loc[1:])}: {head[3]}{tail}: {rest}")


_FOUND: dict[tuple, Layouts] = {}


def _stamp(path: Path) -> int | str:
    """What tells a layout file changed: its modification time, or the text the studio is about to write."""
    text = pending_text(path)
    return path.stat().st_mtime_ns if text is None else hashlib.sha1(text.encode()).hexdigest()


def layouts_for(folders: tuple[Path, ...] = ()) -> Layouts:
    """The layouts a game made of these folders may name (its own `layouts/` folders, the base game's first);
    the same object while no layout file changes, so each file is compiled once however many builds run."""
    own = tuple(folder / LAYOUTS_FOLDER for folder in folders)
    stamp = tuple((path, _stamp(path)) for folder in (builtin_layouts(), *own)
                  for path in sorted({*folder.glob("*.yaml"), *pending_files(folder)}))
    key = (own, stamp)
    if key not in _FOUND:
        _FOUND.clear()
        _FOUND[key] = Layouts(own)
    return _FOUND[key]
