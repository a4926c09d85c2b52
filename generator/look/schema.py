"""JSON Schemas for editors and validators: game.yaml, component files, the fields of every layout, and layout
files.

The component schema says what the loader accepts, no more and no less where JSON Schema can say it:
faces are closed objects whose keys are their layout's fields (the component's `front`/`back`, each item's
own front fields, its `back` and its `with_option` changes), any value may be a `{rules.NAME}` number from
game.yaml, and any face value may be our edition's `{ours: VALUE}`. What only merging can tell (a field
required by the layout given by the component or by every item) is checked per layout too.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .layouts import layouts_for
from .layouts.layoutfile import LayoutFileSpec
from ..data.model import ComponentFile, GameInfo, Item
from ..data.origin import COPIES

RULE_REF = {"type": "string", "pattern": r"^\s*\{rules\.[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*\}\s*$",
            "description": "a rule number from game.yaml's rules:"}
# Keys an item reads itself; every other key of an item is a front-face field.
ITEM_KEYS = tuple(Item.model_fields)
SCHEMA_KEYS = ("properties", "additionalProperties", "items", "prefixItems", "anyOf", "oneOf", "allOf", "$defs")


def _loosened(node: Any, ours: bool) -> Any:
    """`node` with every value position (a property, an array's items, a mapping's values) also accepting a
    `{rules.NAME}` reference and, in faces (`ours`), our edition's `{ours: VALUE}`."""
    if not isinstance(node, dict):
        return node
    out = dict(node)
    for key in ("anyOf", "oneOf", "allOf"):
        if key in node:
            out[key] = [_loosened(member, ours) for member in node[key]]
    if "$defs" in node:
        out["$defs"] = {name: _loosened(sub, ours) for name, sub in node["$defs"].items()}
    if "properties" in node:
        out["properties"] = {name: _value(sub, ours) for name, sub in node["properties"].items()}
    if isinstance(node.get("additionalProperties"), dict):
        out["additionalProperties"] = _value(node["additionalProperties"], ours)
    if isinstance(node.get("items"), dict):
        out["items"] = _value(node["items"], ours)
    if "prefixItems" in node:
        out["prefixItems"] = [_value(sub, ours) for sub in node["prefixItems"]]
    return out


def _holds_objects(node: dict) -> bool:
    """Whether a value here is a mapping or a list of them: no rule number is one (and wrapping it would
    hide the errors inside it behind "not valid under any of the given schemas")."""
    if "$ref" in node or node.get("type") == "object":
        return True
    if node.get("type") == "array":
        return isinstance(node.get("items"), dict) and _holds_objects(node["items"])
    return any(_holds_objects(member) for member in node.get("anyOf", ()) if member.get("type") != "null")


def _value(node: dict, ours: bool) -> dict:
    inner = _loosened(node, ours)
    choices = [inner] if _holds_objects(node) else [inner, RULE_REF]
    if ours:
        choices.insert(1, {"type": "object", "properties": {"ours": inner}, "required": ["ours"],
                           "additionalProperties": False, "description": "our edition's value (docs/editions)"})
    if len(choices) == 1:
        return inner
    wrapped: dict[str, Any] = {"anyOf": choices}
    for key in ("title", "description", "default"):
        if key in node:
            wrapped[key] = node[key]
    return wrapped


def _layout_schemas(folders: tuple[Path, ...]) -> tuple[dict[str, dict], dict[str, dict]]:
    """(layout name -> its fields' schema, every nested definition), nested names prefixed by the layout; a game
    folder's own layouts included."""
    faces, defs = {}, {}
    for name, layout in sorted(layouts_for(folders).items()):
        schema = layout.params.model_json_schema(ref_template=f"#/$defs/{name}.{{model}}")
        for sub, body in schema.pop("$defs", {}).items():
            defs[f"{name}.{sub}"] = _loosened(body, ours=True)
        faces[name] = _loosened(schema, ours=True)
        faces[name]["properties"]["layout"] = schema["properties"]["layout"]  # the one field read as written
    return faces, defs


def layouts_schema(folders: tuple[Path, ...] = ()) -> dict[str, Any]:
    """One schema per layout; a face's `layout:` field picks which applies."""
    faces, defs = _layout_schemas(folders)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "starpnp face fields",
        "oneOf": list(faces.values()),
        "$defs": defs,
    }


def _has_layout(name: str) -> dict:
    return {"type": "object", "properties": {"layout": {"const": name}}, "required": ["layout"]}


def components_schema(folders: tuple[Path, ...] = ()) -> dict[str, Any]:
    schema = _loosened(ComponentFile.model_json_schema(), ours=False)
    faces, defs = _layout_schemas(folders)
    defs = schema["$defs"] | defs
    component, item = defs["Component"], defs["Item"]
    names = sorted(faces)
    conditions: list[dict] = []
    item_conditions: list[dict] = []
    for name, face in faces.items():
        fields = {key: sub for key, sub in face["properties"].items() if key not in ITEM_KEYS}
        # A face as written on a component or an item's back: the layout's fields, none required (the
        # component and its items are merged first), nothing else.
        defs[f"face.{name}"] = {"type": "object", "properties": face["properties"], "additionalProperties": False,
                                "title": face.get("title", name)}
        changes = {"type": "object", "properties": fields | {"count": item["properties"]["count"], COPIES: {
            "type": "integer", "minimum": 0, "description": "only this many of the item's copies take these "
                                                           "changes; the others stay as they are"}},
                   "additionalProperties": False}
        defs[f"item.{name}"] = {
            "type": "object", "additionalProperties": False,
            "properties": item["properties"] | fields | {"with_option": {"type": "object",
                                                                         "additionalProperties": changes}}}
        ref, item_ref = {"$ref": f"#/$defs/face.{name}"}, {"$ref": f"#/$defs/item.{name}"}
        own_layout = {"required": ["layout"]}
        conditions.append({  # the component's front names the layout: its front and its items use its fields
            "if": {"properties": {"front": _has_layout(name)}, "required": ["front"]},
            "then": {"properties": {"front": ref, "items": {"items": {"if": own_layout, "else": item_ref}}}}})
        conditions.append({
            "if": {"properties": {"back": _has_layout(name)}, "required": ["back"]},
            "then": {"properties": {"back": ref, "items": {"items": {"properties": {
                "back": {"if": own_layout, "else": ref}}}}}}})
        item_conditions += [{"if": _has_layout(name), "then": item_ref},
                            {"if": {"properties": {"back": _has_layout(name)}, "required": ["back"]},
                             "then": {"properties": {"back": ref}}}]
        for field in face.get("required", ()):
            if field == "layout":
                continue
            for side, inherit in (("front", {}), ("back", {"required": ["back"]})):
                lacking = _has_layout(name) | {"not": {"required": [field]}}
                given = {"anyOf": [{"required": [field]}, own_layout]}
                per_item = given if side == "front" else inherit | {"properties": {"back": given}}
                conditions.append({"if": {"properties": {side: lacking}, "required": [side]},
                                   "then": {"properties": {"items": {"items": per_item}}}})
    layout_name = {"type": "object", "properties": {"layout": {"enum": names}}}
    component["properties"]["front"] = layout_name | {"description": component["properties"]["front"].get(
        "description", "")}
    component["properties"]["back"] = {"anyOf": [layout_name, {"type": "null"}],
                                        "description": "common back; omit for one-sided pieces"}
    component["allOf"] = conditions
    item["allOf"] = item_conditions
    item["properties"]["layout"] = {"enum": names}
    schema["$defs"] = defs
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema


def schema_for(what: str, folders: tuple[Path, ...] = ()) -> dict[str, Any]:
    if what == "game":
        return GameInfo.model_json_schema()
    if what == "layouts":
        return layouts_schema(folders)
    if what == "layout-file":
        return LayoutFileSpec.model_json_schema()
    return components_schema(folders)
