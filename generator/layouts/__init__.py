"""Layouts found by name, one way only: layout files shipped with starpnp (package data), then a game folder's
own `layouts/*.yaml`."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Iterator

from ...resources import folder as package_folder
from ..yamlio import load_yaml
from .base import FaceContext, FaceParams, Layout
from .layoutfile import LayoutError, compile_layout, merged

LAYOUTS_FOLDER = "layouts"  # in a game folder

__all__ = ["FaceContext", "FaceParams", "Layout", "Layouts", "LayoutError", "layouts_for"]


def builtin_layouts() -> Path:
    """The layout files shipped with starpnp (package data)."""
    return package_folder("starpnp.generator") / "builtin" / "layouts"


class Layouts:
    """The layouts one game may name: each file read and compiled once, when a face first names it."""

    def __init__(self, folders: tuple[Path, ...]):
        self.files: dict[str, list[Path]] = {}  # name -> its files, the built-in first, the game's last
        for folder in (builtin_layouts(), *folders):
            for path in sorted(folder.glob("*.yaml")):
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

    def _raw(self, name: str, level: int, seen: tuple) -> tuple[dict, str]:
        """A layout file's mapping with everything it extends merged in, and a key naming their contents."""
        path = self.files[name][level]
        if path in seen:
            raise LayoutError(f"{path}: extends: goes round in a circle ({' → '.join(p.stem for p in seen)})")
        raw = load_yaml(path)
        if not isinstance(raw, dict):
            raise LayoutError(f"{path}: a layout file is a mapping (fields, let, boxes)")
        parent_name = raw.get("extends")
        if parent_name is None:
            return raw, path.read_text(encoding="utf-8")
        # A game's `card.yaml` extending `card` extends the built-in one it replaces.
        parent_level = level - 1 if parent_name == name else len(self.files.get(parent_name, ())) - 1
        if parent_level < 0:
            known = ", ".join(sorted(self.files))
            line = getattr(raw, "key_lines", {}).get("extends", "")
            raise LayoutError(f"{path}:{line}: extends: no layout file named {parent_name!r}; layout files: {known}")
        parent, parent_text = self._raw(parent_name, parent_level, seen + (path,))
        return merged(parent, raw), parent_text + path.read_text(encoding="utf-8")

    def _file(self, name: str, level: int, seen: tuple) -> Layout:
        key = (name, level)
        if key not in self.compiled:
            raw, text = self._raw(name, level, seen)
            digest = hashlib.sha1(text.encode()).hexdigest()[:12]
            self.compiled[key] = compile_layout(name, raw, str(self.files[name][level]), f"{name}@{digest}")
        return self.compiled[key]

    def with_boxes(self, name: str, boxes: Any, where: str) -> Layout:
        """`name` with some boxes changed, as a component writes `layout: card` and `boxes: {title: {h: 12}}`."""
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
                raise LayoutError(f"{where}: boxes.{unknown[0]}: {name} has no such box (boxes: {known}); "
                                  f"a new box needs a kind")
            digest = hashlib.sha1(key[1].encode()).hexdigest()[:12]
            self.compiled[key] = compile_layout(name, merged(raw, {"boxes": boxes}), where,
                                                f"{base.key}+{digest}")
        return self.compiled[key]


_FOUND: dict[tuple, Layouts] = {}


def layouts_for(folders: tuple[Path, ...] = ()) -> Layouts:
    """The layouts a game made of these folders may name (its own `layouts/` folders, the base game's first);
    the same object while no layout file changes, so each file is compiled once however many builds run."""
    own = tuple(folder / LAYOUTS_FOLDER for folder in folders)
    stamp = tuple((path, path.stat().st_mtime_ns) for folder in (builtin_layouts(), *own)
                  for path in sorted(folder.glob("*.yaml")))
    key = (own, stamp)
    if key not in _FOUND:
        _FOUND.clear()
        _FOUND[key] = Layouts(own)
    return _FOUND[key]
