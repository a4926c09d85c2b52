"""JSON Schemas for editors: game.yaml, component files, the fields of every layout, and layout files."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .layouts import load_all
from .layouts.layoutfile import LayoutFileSpec
from .model import ComponentFile, GameInfo


def layouts_schema(folders: tuple[Path, ...] = ()) -> dict[str, Any]:
    """One schema per layout (a game folder's own included); a face's `layout:` field picks which applies."""
    layouts = load_all(folders)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "starpnp face fields",
        "oneOf": [layout.params.model_json_schema() for _, layout in sorted(layouts.items())],
    }


def schema_for(what: str, folders: tuple[Path, ...] = ()) -> dict[str, Any]:
    if what == "game":
        return GameInfo.model_json_schema()
    if what == "layouts":
        return layouts_schema(folders)
    if what == "layout-file":
        return LayoutFileSpec.model_json_schema()
    return ComponentFile.model_json_schema()
