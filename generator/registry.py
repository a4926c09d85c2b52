"""Registries of layouts and icons that import a module only when one of its entries is first used.

Every game adds its own layout and icon modules; importing all of them costs every build, even one that
draws a single deck. Each module registers entries with a decorator whose first argument is a literal
name (`@layout("card", ...)`, `@icon("star")`), so a quick scan of the package's files tells which module
holds which name without importing anything.
"""
from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any, Iterator


class LazyRegistry(dict):
    """A dict of name -> entry that imports the module defining a missing name on first lookup."""

    def __init__(self, package: str, folder: Path, decorator: str):
        super().__init__()
        self._package, self._folder = package, folder
        self._pattern = re.compile(rf'@{decorator}\(\s*"([A-Za-z0-9_]+)"')
        self._index: dict[str, str] | None = None

    def index(self) -> dict[str, str]:
        """name -> module, from the package's source files."""
        if self._index is None:
            self._index = {}
            for path in sorted(self._folder.glob("*.py")):
                for name in self._pattern.findall(path.read_text(encoding="utf-8")):
                    self._index.setdefault(name, f"{self._package}.{path.stem}")
        return self._index

    def _load(self, name: str) -> None:
        module = self.index().get(name)
        if module is not None:
            importlib.import_module(module)

    def load_all(self) -> "LazyRegistry":
        for module in sorted(set(self.index().values())):
            importlib.import_module(module)
        return self

    def __missing__(self, name: str) -> Any:
        self._load(name)
        if dict.__contains__(self, name):
            return dict.__getitem__(self, name)
        raise KeyError(name)

    def get(self, name: str, default: Any = None) -> Any:
        try:
            return self[name]
        except KeyError:
            return default

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or name in self.index()

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(set(dict.keys(self)) | set(self.index())))

    def __len__(self) -> int:
        return len(set(dict.keys(self)) | set(self.index()))
