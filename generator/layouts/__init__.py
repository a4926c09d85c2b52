"""Layouts turn a face's validated fields into scene elements. Register one with @layout."""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Callable

from ..scene import Element
from .base import FaceContext, FaceParams


@dataclass(frozen=True)
class Layout:
    name: str
    params: type[FaceParams]
    draw: Callable[[FaceContext, FaceParams], list[Element]]


LAYOUTS: dict[str, Layout] = {}


def layout(name: str, params: type[FaceParams]):
    def register(draw):
        LAYOUTS[name] = Layout(name, params, draw)
        return draw

    return register


def load_all() -> dict[str, Layout]:
    """Import every module in this package so their @layout registrations run; a new layout is a new file."""
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        importlib.import_module(f"{__name__}.{module.name}")
    return LAYOUTS
