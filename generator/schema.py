"""JSON Schemas for editors: game.yaml, component files, and the fields of every layout."""
from __future__ import annotations

from typing import Any

from .layouts import load_all
from .model import ComponentFile, GameInfo


def layouts_schema() -> dict[str, Any]:
    """One schema per layout; a face's `layout:` field picks which applies."""
    layouts = load_all()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "starpnp face fields",
        "oneOf": [layout.params.model_json_schema() for _, layout in sorted(layouts.items())],
    }


def schema_for(what: str) -> dict[str, Any]:
    if what == "game":
        return GameInfo.model_json_schema()
    if what == "layouts":
        return layouts_schema()
    return ComponentFile.model_json_schema()
