"""`starpnp layouts`: what a layout file's boxes, each layout's fields and a board's regions take, one line a
key, read from the models the loader validates with (BoxSpec and TAKES, each layout's fields, the regions)."""
from __future__ import annotations

import types
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from .layouts import layouts_for
from .layouts.layoutfile import ANY_BOX, BOX_KINDS, NEEDS, TAKES, BoxSpec
from .layouts.regions import AnyRegion


def type_name(annotation: Any) -> str:
    """A field's type as a person reads it: `text`, `number or null`, `one of cover, contain`."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Literal:
        return "one of " + ", ".join(map(str, args)) if len(args) > 1 else repr(args[0])
    if origin in (Union, types.UnionType):
        if all(isinstance(a, type) and issubclass(a, BaseModel) for a in args):
            return "mapping (one of several kinds: see below)"
        return " or ".join(dict.fromkeys(type_name(a) for a in args))
    if origin is list:
        return f"list of {type_name(args[0])}" if args else "list"
    if origin is tuple:
        return "pair" if len(args) == 2 else "list"
    if origin is dict:
        return "mapping"
    if args and hasattr(annotation, "__metadata__"):  # Annotated
        return type_name(args[0])
    names = {str: "text", int: "whole number", float: "number", bool: "true/false", type(None): "null"}
    if annotation in names:
        return names[annotation]
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):  # a few keys named, else see below
        keys = list(annotation.model_fields)
        return f"mapping ({', '.join(keys)})" if len(keys) <= 5 else "mapping"
    return getattr(annotation, "__name__", str(annotation)).replace("Color", "colour").lower()


def field_line(name: str, info: Any) -> str:
    if info.is_required():
        default = "required"
    elif info.default is PydanticUndefined or info.default is None:
        default = "optional"
    else:
        default = f"default {info.default!r}"
    note = f": {info.description}" if info.description else ""
    return f"    {name} ({type_name(info.annotation)}, {default}){note}"


def box_kinds() -> list[str]:
    lines = ["Box kinds (a layout file's `boxes:`; any box also takes " + ", ".join(ANY_BOX) + "):"]
    fields = BoxSpec.model_fields
    for kind in BOX_KINDS:
        lines.append(f"  {kind}:")
        for key in TAKES[kind]:
            needed = "required" if key in NEEDS.get(kind, ()) else "optional"
            description = fields[key].description or ""
            lines.append(f"    {key} ({needed}){': ' + description if description else ''}")
    lines.append("  Numbers are mm, '12%' a share of the face, any other text an expression over the layout's "
                 "fields and lets and w, h, bleed, shape, corner, player.")
    return lines


def layout_fields(folders: tuple[Path, ...]) -> list[str]:
    lines = ["Layouts (`layout:` on a face) and the fields a face of each takes:"]
    for name, layout in sorted(layouts_for(folders).items()):
        lines.append(f"  {name}: {layout.description}" if layout.description else f"  {name}:")
        for field, info in layout.params.model_fields.items():
            if field != "layout":
                lines.append(field_line(field, info))
    return lines


def regions() -> list[str]:
    lines = ["Board regions (a board's `regions:` list; `type:` picks one):"]
    for model in get_args(get_args(AnyRegion)[0]):
        kind = get_args(model.model_fields["type"].annotation)[0]
        lines.append(f"  {kind}:")
        for field, info in model.model_fields.items():
            if field != "type":
                lines.append(field_line(field, info))
    return lines


def reference(folders: tuple[Path, ...] = ()) -> str:
    """The whole reference as text: box kinds, then layouts, then board regions."""
    return "\n".join([*box_kinds(), "", *layout_fields(folders), "", *regions()]) + "\n"
