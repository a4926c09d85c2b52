"""`starpnp layouts`: what a layout file's boxes, each layout's fields and a board's regions take, one line a
key, read from the models the loader validates with (BoxSpec and TAKES, each layout's fields, the regions)."""
from __future__ import annotations

import ast
import types
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from .layouts import layouts_for
from .layouts.expressions import PLACEHOLDER
from .layouts.layoutfile import ANY_BOX, BOX_KINDS, NEEDS, TAKES, TEMPLATES, BoxSpec
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
    lines = ["Layouts (`layout:` on a face), the fields a face of each takes, and its boxes by name (what a layout "
             "extending it or a face's `boxes:` changes) with their kind and the fields they read:"]
    layouts = layouts_for(folders)
    for name, layout in sorted(layouts.items()):
        lines.append(f"  {name}: {layout.description}" if layout.description else f"  {name}:")
        fields = [field for field in layout.params.model_fields if field != "layout"]
        lines += [field_line(field, layout.params.model_fields[field]) for field in fields]
        written = layouts.written(name)
        lets = {let: _names(raw, "let") for let, raw in (written.get("let") or {}).items()}
        lines.append("    boxes:")
        lines += [f"      {box}: {kind}" + (f", reads {', '.join(read)}" if read else "")
                  for box, kind, read in box_reads(written.get("boxes") or {}, fields, lets)]
    return lines


def box_reads(boxes: dict, fields: list[str], lets: dict[str, set[str]], within: str = "") -> list[tuple]:
    """(box name, kind, the fields it reads in the order declared) for each box, a group's boxes after it
    (`group.box`); a field read through a `let:` name counts."""
    out = []
    for name, box in boxes.items():
        if not isinstance(box, dict):
            continue
        own = dict(lets)
        own.update({let: _names(raw, "let") for let, raw in (box.get("let") or {}).items()})
        names: set[str] = set()
        for key, raw in box.items():
            if key not in ("boxes", "let", "kind", "after"):
                names |= _names(raw, key)
        read = _through(names, own)
        out.append((within + str(name), box.get("kind", "?"), [field for field in fields if field in read]))
        if isinstance(box.get("boxes"), dict):
            out += box_reads(box["boxes"], fields, own, f"{within}{name}.")
    return out


def _through(names: set[str], lets: dict[str, set[str]]) -> set[str]:
    """`names` and every name the lets among them read, and theirs in turn."""
    seen, todo = set(), list(names)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += lets.get(name, ())
    return seen


def _names(raw: Any, key: str) -> set[str]:
    """The names a layout value written as `raw` under `key` reads: an expression's, or a template's
    placeholders' (a word that is no expression, such as a font, reads none)."""
    if isinstance(raw, list):
        return set().union(*(_names(item, key) for item in raw)) if raw else set()
    if isinstance(raw, dict):
        return set().union(*(_names(item, key) for item in raw.values())) if raw else set()
    if not isinstance(raw, str):
        return set()
    sources = PLACEHOLDER.findall(raw) if key in TEMPLATES else [raw]
    found: set[str] = set()
    for source in sources:
        try:
            tree = ast.parse(source.split(":")[0] if key in TEMPLATES else source, mode="eval")
        except (SyntaxError, ValueError, RecursionError):
            continue
        found |= {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    return found


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
