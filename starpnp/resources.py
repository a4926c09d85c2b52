"""Where installed data lives: the games, the templates and the fonts are package data, found here only.

A wheel installs unzipped, so every data package is a real folder; asking importlib.resources (never a
path relative to the source tree) makes the same code work from a clone, an editable install or a wheel.
"""
from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path


@cache
def folder(package: str) -> Path:
    """The folder of an installed package, as a real path."""
    root = files(package)
    if not isinstance(root, Path):
        raise RuntimeError(f"{package} is not installed as a folder ({root!r}); reinstall starpnp from its wheel")
    return root


def components_dir() -> Path:
    """Our games' data, one folder per game."""
    return folder("starpnp.components")


def templates_dir() -> Path:
    return folder("starpnp.templates")


def font_file(name: str) -> Path:
    """A font file shipped with starpnp (the symbol font)."""
    return folder("starpnp.generator.look") / "fontfiles" / name
