"""Layouts turn a face's validated fields into scene elements. Register one with @layout."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..registry import LazyRegistry
from ..scene import Element
from .base import FaceContext, FaceParams


@dataclass(frozen=True)
class Layout:
    name: str
    params: type[FaceParams]
    draw: Callable[[FaceContext, FaceParams], list[Element]]


# A new layout is a new file in this folder; its module is imported when a face first names the layout.
LAYOUTS: LazyRegistry = LazyRegistry(__name__, Path(__file__).parent, "layout")


def layout(name: str, params: type[FaceParams]):
    def register(draw):
        LAYOUTS[name] = Layout(name, params, draw)
        return draw

    return register


def load_all() -> LazyRegistry:
    """Every layout imported (for the JSON Schema and tests); builds look layouts up one by one instead."""
    return LAYOUTS.load_all()
