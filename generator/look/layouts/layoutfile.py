"""Layout files: a face described in YAML as named boxes, compiled once into a drawing function.

A file declares its fields (which become a closed pydantic model, so the schema, `check` and editors know
them), named values computed per face (`let:`), and boxes drawn in order. Numbers are millimetres; `"12%"`
is a share of the face (of its width for x, w and cx, of its height for y, h and cy, else of its shorter
side); any other text is an expression over the fields, the `let:` names and the face (w, h, bleed, shape,
corner, player). Expressions are checked and compiled when the file is read, never per card.
"""
from __future__ import annotations

import json
import re
from difflib import get_close_matches
from typing import Annotated, Any, Callable, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, create_model
from pydantic_core import SchemaError

from ..fonts import text_width_mm
from ..geometry import hexagon
from ...data.model import is_unspecified
from ...data.palette import NAMED, Color, resolve
from ...data.limits import MAX_NUMBER, over
from ..scene import Circle, Element, Group, Line, Path, Polygon, Rect, Style
from ..text import fit_text
from .covered import warn_hidden_text
from .base import FaceContext, FaceParams, IconName, Layout, unknown_icon
from .expressions import GUARDED, LayoutError, Value, bundled, expression, let_names_assigned, sized, template


# What every face offers its expressions: trim size, bleed, cut shape and corner radius, and the piece's player
# colour (hex), name and letter (all null on a piece without one).
FACE_NAMES = ("w", "h", "bleed", "shape", "corner", "player", "player_name", "player_letter")
REPEAT_NAMES = ("item", "index")  # the list entry and its position, inside a repeated box

FIELD_TYPES: dict[str, Any] = {
    "text": str, "number": float, "integer": int, "bool": bool, "color": Color, "icon": IconName, "file": str,
    "text or number": str | int, "table": dict[str, str],
}

# Keys whose value is a choice among words: written as one of these, the word itself; else an expression.
WORDS = {
    "font": ("Lato-Regular", "Lato-Bold", "Lato-Italic", "Lato-Black"),
    "align": ("left", "center", "right"), "valign": ("top", "middle", "bottom"), "fit": ("cover", "contain"),
}
TEMPLATES = ("text", "label")  # text with {expression} placeholders
# `icon:` takes an icon's name as written (`icon: lamp`), as `text:` takes text: a word that names no field or
# let is the icon's name; a field's or let's name, or anything else (`item.icon`, `"'lamp'"`), an expression
ICON_NAME = re.compile(r"[A-Za-z0-9_-]+")
COLOR_KEYS = ("fill", "stroke", "color", "border", "paper")
# `font:` may also name a game's own font by family and style (look/gamefonts.py): `font: Tomson Talks Bold`
FONT_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*( [A-Za-z0-9_-]+)*")
NOT_A_FONT = {"if", "else", "and", "or", "not", "in"}  # words that make it an expression
WIDE, TALL = ("x", "w", "cx", "x1", "x2"), ("y", "h", "cy", "y1", "y2")

BOX_KINDS = ("group", "background", "rect", "circle", "polygon", "line", "path", "text", "badge", "icon", "image",
             "amounts", "write_in", "outline", "player_mark", "warn", "regions")


class FieldSpec(BaseModel):
    """One field a face using this layout may set."""

    model_config = ConfigDict(extra="forbid")
    type: str | list[str] = Field(description="text, number, integer, bool, color, icon, file, 'text or number', "
                                              "table, unspecified, 'list of TYPE', 'A or B', list (of `items`), "
                                              "object (of `items`), or a list of the words allowed")
    items: dict[str, "FieldSpec"] | None = Field(None, description="for type list: the fields of each entry; for "
                                                                   "type object: its fields")
    min: float | None = Field(None, description="the least number allowed, or for a list the fewest entries")
    max: float | None = Field(None, description="the largest number allowed, or for a list the most entries")
    above: float | None = Field(None, description="a number must be more than this")
    pattern: str | None = Field(None, description="a text (or each text of a list of text) must match this regular "
                                                  "expression, e.g. '^(pips:[1-6]|[^:]*)$'")
    default: Any = Field(None, description="left out, the field is required")
    description: str = ""
    required: bool = False
    nullable: bool = Field(False, description="may be set to null even though it has a default")


FieldSpec.model_rebuild()


class WriteIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    label: str | None = None
    x: Any = None
    y: Any = None
    w: Any = None
    h: Any = None


class BoxSpec(BaseModel):
    """A named box: what it draws (`kind`), where, in which style, bound to which fields."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal[BOX_KINDS] | None = None  # may come from the layout extended
    when: Any = Field(None, description="drawn only when this is true (an expression, e.g. a field name)")
    repeat: Any = Field(None, description="drawn once per entry of this list; `item` and `index` name the entry")
    write_in: str | WriteIn | bool | None = Field(
        None, description="an `unspecified` value draws a write-in area here: a label, or label and x, y, w, h")
    x: Any = Field(None, description="left edge in mm from the trim's left, or '12%' of the face's width")
    y: Any = Field(None, description="top edge in mm from the trim's top, or '12%' of the face's height")
    w: Any = Field(None, description="width in mm, or a share of the face's width")
    h: Any = Field(None, description="height in mm, or a share of the face's height")
    cx: Any = Field(None, description="centre, across, in mm")
    cy: Any = Field(None, description="centre, down, in mm")
    r: Any = Field(None, description="radius in mm")
    x1: Any = Field(None, description="a line's start, across")
    y1: Any = Field(None, description="a line's start, down")
    x2: Any = Field(None, description="a line's end, across")
    y2: Any = Field(None, description="a line's end, down")
    points: Any = Field(None, description="polygon corners, e.g. star(cx, cy, outer, inner)")
    commands: Any = Field(None, description="path commands: [['M', x, y], ['L', x, y], ['Z']]")
    inset: Any = Field(None, description="an outline's distance inside the cut line in mm (default 0)")
    text: Any = Field(None, description="the words, with {field} placeholders, **bold**, *italic* and {icon}s")
    label: Any = Field(None, description="a write-in area's label (default: the box's name)")
    font: Any = Field(None, description="Lato-Regular (default), Lato-Bold, Lato-Italic or Lato-Black")
    size: Any = Field(None, description="text: size in points (default 9, shrunk to min_size to fit); icon: "
                                        "its side in mm")
    min_size: Any = Field(None, description="the least size in points text shrinks to (default 6)")
    max_lines: Any = Field(None, description="the most lines the text wraps to (default: as many as fit)")
    color: Any = Field(None, description="text or icon colour (default #1A1A1A; a write-in's #555555)")
    align: Any = Field(None, description="left (default; a badge: center), center or right")
    valign: Any = Field(None, description="top (default; a badge: middle), middle or bottom")
    fill: Any = Field(None, description="fill colour (default none; a badge's and a background's #FFFFFF)")
    stroke: Any = Field(None, description="line colour (default none; an outline's #555555)")
    stroke_width: Any = Field(None, description="line width in mm (default 0.3; an outline's 0.2)")
    dash: Any = Field(None, description="dash pattern in mm, e.g. [1.2, 0.8] (default solid)")
    opacity: Any = Field(None, description="0 to 1 (default 1)")
    radius: Any = Field(None, description="a rect's corner radius in mm (default 0)")
    border: Any = Field(None, description="a badge's ring colour (default none)")
    border_width: Any = Field(None, description="a badge's ring width in mm (default 0.6)")
    icon: Any = Field(None, description="an icon's name as written (icon: lamp): ours or the game's icons/NAME.svg; "
                                        "a field's or let's name (icon: icon) or another expression reads that")
    paper: Any = Field(None, description="the colour an icon's white parts print in (default #FFFFFF)")
    src: Any = Field(None, description="an image file, relative to the game folder")
    fit: Any = Field(None, description="cover (default: fill and crop) or contain (show it all)")
    focus: Any = Field(None, description="the point of the picture kept in view where cover crops it, as fractions "
                                         "across and down: [0.5, 0.3] keeps more of the top (default [0.5, 0.5])")
    symbols: Any = Field(None, description="an amounts box's symbols: a list of [symbol, icon, disc, letter colour]")
    regions: Any = Field(None, description="a regions box's regions: a field of type regions")
    after: str | None = Field(None, description="a box added by `extends` is drawn after this one, not last")
    let: dict[str, Any] | None = Field(None, description="a group's own names, computed before its boxes")
    dx: Any = Field(None, description="a group's boxes moved right by this much (mm)")
    dy: Any = Field(None, description="a group's boxes moved down by this much (mm)")
    rotate: Any = Field(None, description="a group's boxes turned by this many degrees about the moved origin")
    scale: Any = Field(None, description="a group's boxes scaled by this factor (default 1)")
    link: Any = Field(None, description="a group that joins two spaces (an arrow between track spaces): a board's "
                                        "seam may cut it")
    boxes: dict[str, Optional["BoxSpec"]] | None = Field(
        None, description="a group's boxes, drawn in order (repeated together with the group)")


BoxSpec.model_rebuild()


class Check(BaseModel):
    """A warning the build reports (and --strict fails on) when `when` is true for a face."""

    model_config = ConfigDict(extra="forbid")
    when: Any
    warn: str = Field(description="the message, a template: 'tab: {tab:g} mm tabs are too tall'")


class LayoutFileSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    description: str = ""
    extends: str | None = None
    fields: dict[str, FieldSpec | None] = {}
    let: dict[str, Any] = {}
    checks: list[Check] = []
    boxes: dict[str, BoxSpec | None] = {}


# -- expressions -------------------------------------------------------------------------------------------

PERCENT = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*%\s*$")


def value(key: str, raw: Any, names: set[str], where: str) -> Value:
    """One key's value as written in a layout file, compiled."""
    if raw is None or isinstance(raw, bool):
        return Value(raw)
    if isinstance(raw, (int, float)):
        if not -MAX_NUMBER <= raw <= MAX_NUMBER:
            raise LayoutError(str(over(where, "a number", float(raw), MAX_NUMBER)))
        return Value(raw)
    if isinstance(raw, list):
        items = [value(key, item, names, where) for item in raw]
        if all(item.code is None and item.compute is None for item in items):
            return Value([item.constant for item in items])
        return Value(compute=lambda values: sized([item(values) for item in items]), where=where)
    if not isinstance(raw, str):
        raise LayoutError(f"{where}: expected a number or an expression, got {raw!r}")
    if key in TEMPLATES:
        return template(raw, names, where)
    if raw.startswith("#") or raw in WORDS.get(key, ()):
        return Value(raw)
    if key == "icon" and ICON_NAME.fullmatch(raw) and raw not in names:
        return Value(raw)
    if key == "font" and FONT_NAME.fullmatch(raw) and raw not in names and not NOT_A_FONT & set(raw.split()):
        return Value(raw)
    percent = PERCENT.match(raw)
    if percent:
        share = float(percent.group(1)) / 100
        whole = "w" if key in WIDE else "h" if key in TALL else "min(w, h)"
        return expression(f"{share!r} * {whole}", names, where)
    if raw.isidentifier() and raw not in names and raw in NAMED:
        return Value(raw)  # a palette colour by name
    if key in COLOR_KEYS and raw.isidentifier() and raw not in names:  # meant as a colour, not a field's name
        close = get_close_matches(raw, [*NAMED, *names], n=3, cutoff=0.6)
        hint = f"did you mean {', '.join(close)}? " if close else ""
        raise LayoutError(f"{where}: {raw[:40]!r} is no colour, field or let name; {hint}a colour is #RRGGBB "
                          f"or a palette name ({', '.join(NAMED)})")
    return expression(raw, names, where)


# -- fields ------------------------------------------------------------------------------------------------

def field_type(spec: FieldSpec, where: str) -> Any:
    """The Python type a declared field validates as, bounds included."""
    if isinstance(spec.type, list):
        kind = Literal[tuple(spec.type)]
    elif spec.type in ("list", "list or count"):
        if not spec.items:
            raise LayoutError(f"{where}.items: a list field names the fields of its entries")
        entry = create_model(where.rsplit(".", 1)[-1].title().replace("_", "") + "Entry",
                             __config__=ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False),
                             **field_definitions(spec.items, where + ".items"))
        kind = list[entry] if spec.type == "list" else list[entry] | int
    elif spec.type == "object":
        if not spec.items:
            raise LayoutError(f"{where}.items: an object field names its fields")
        kind = create_model(where.rsplit(".", 1)[-1].title().replace("_", ""),
                            __config__=ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False),
                            **field_definitions(spec.items, where + ".items"))
    elif spec.type in FIELD_TYPES:
        kind = FIELD_TYPES[spec.type]
    elif spec.type == "regions":  # a board's grids, tracks, boxes, spaces, texts and icons (see .regions): their
        from .regions import AnyRegion  # models are built only for a layout that has such a field, not at start-up
        kind = list[AnyRegion]
    elif " or " in spec.type:  # e.g. "list or unspecified": any of the types named (a list's entries alike)
        return Union[tuple(field_type(FieldSpec(type=part, items=spec.items,
                                                pattern=spec.pattern if _texts(part) else None,
                                                **(_bounds_of(spec) if _bounded(part) else {})), where)
                           for part in spec.type.split(" or "))]
    elif spec.type == "unspecified":
        kind = Literal["unspecified"]
    elif spec.type.startswith("list of "):
        kind = list[field_type(FieldSpec(type=spec.type[len("list of "):], pattern=spec.pattern), where)]
    else:
        close = get_close_matches(spec.type, [*FIELD_TYPES, "regions"], n=1)
        known = ", ".join([*FIELD_TYPES, "regions", "unspecified", "list", "list of TYPE", "A or B"])
        hint = f"did you mean {close[0]!r}?" if close else f"known: {known}"
        raise LayoutError(f"{where}.type: unknown field type {spec.type!r}; {hint}")
    if spec.pattern is not None and not _texts(spec.type):
        raise LayoutError(f"{where}.pattern: a pattern is for text (or a list of text), not {spec.type}")
    if spec.pattern is not None and spec.type == "text":
        kind = Annotated[str, Field(pattern=spec.pattern)]
        try:
            TypeAdapter(kind)  # the validator's own regular expressions: no look-ahead or look-behind
        except SchemaError as exc:
            raise LayoutError(f"{where}.pattern: not a regular expression we read: "
                              f"{str(exc).strip().splitlines()[-1][:100]}") from None
    if spec.min is None and spec.max is None and spec.above is None:
        return kind
    if spec.type in ("number", "integer"):
        return Annotated[kind, Field(ge=spec.min, le=spec.max, gt=spec.above)]
    if spec.type == "list" or spec.type.startswith("list of "):
        whole = [None if bound is None else int(bound) for bound in (spec.min, spec.max)]
        return Annotated[kind, Field(min_length=whole[0], max_length=whole[1])]
    raise LayoutError(f"{where}: min and max are for numbers and lists, not {spec.type}")


def _bounded(kind: str) -> bool:
    """Whether min and max apply to a field of this type (one side of an `A or B`)."""
    return kind in ("number", "integer", "list") or kind.startswith("list of ")


def _texts(kind: str | list[str]) -> bool:
    """Whether a pattern applies to a field of this type: text, or each entry of a list of text."""
    return isinstance(kind, str) and (kind == "text" or kind.startswith("list of "))


def _bounds_of(spec: FieldSpec) -> dict:
    return {"min": spec.min, "max": spec.max, "above": spec.above}


def params_model(name: str, fields: dict[str, FieldSpec], where: str) -> type[FaceParams]:
    """The closed pydantic model of a face drawn with this layout."""
    definitions: dict[str, Any] = {"layout": (Literal[name], name), **field_definitions(fields, f"{where}: fields")}
    title = "".join(part.title() for part in name.split("_")) + "Params"
    return create_model(title, __base__=FaceParams, **definitions)


def field_definitions(fields: dict[str, FieldSpec], where: str) -> dict[str, Any]:
    definitions: dict[str, Any] = {}
    for field_name, spec in fields.items():
        if not isinstance(field_name, str) or field_name.startswith(("_", "model_")):  # pydantic's own names
            raise LayoutError(f"{where}.{str(field_name)[:40]}: a field name may not begin with _ or model_")
        kind = field_type(spec, f"{where}.{field_name}")
        if spec.required:
            definitions[field_name] = (kind, Field(description=spec.description or None))
        else:
            kind = Optional[kind] if spec.default is None or spec.nullable else kind
            default = json.loads(json.dumps(spec.default))  # plain lists and dicts, not the YAML reader's
            definitions[field_name] = (kind, Field(default, description=spec.description or None))
    return definitions


# -- boxes -------------------------------------------------------------------------------------------------

def _style(v: dict, stroke_width: float = 0.3) -> Style:
    return Style(fill=resolve(v["fill"]) if v.get("fill") else None,
                 stroke=resolve(v["stroke"]) if v.get("stroke") else None,
                 stroke_width=stroke_width if v.get("stroke_width") is None else v["stroke_width"],
                 dash=tuple(v.get("dash") or ()), opacity=1.0 if v.get("opacity") is None else v["opacity"])


def _text(ctx: FaceContext, name: str, v: dict, x, y, w, h) -> Element:
    return ctx.text(name, str(v["text"]), x, y, w, h, font=v.get("font") or "Lato-Regular",
                    size=v.get("size") or 9.0, min_size=v.get("min_size") or 6.0, color=resolve(v.get("color") or "#1A1A1A"),
                    align=v.get("align") or "left", valign=v.get("valign") or "top",
                    **({"max_lines": v["max_lines"]} if v.get("max_lines") else {}))


def _bounds(kind: str, v: dict) -> tuple[float, float, float, float]:
    """Where a box sits, for the write-in area that takes its place."""
    if kind == "badge":
        return v["cx"] - v["r"], v["cy"] - v["r"], 2 * v["r"], 2 * v["r"]
    if kind == "icon" and v.get("w") is None:
        return v["x"], v["y"], v["size"], v["size"]
    return v["x"], v["y"], v["w"], v["h"]


def _inner_shape(ctx: FaceContext, inset: float, style: Style) -> Element:
    """The face's cut shape, `inset` mm inside the trim."""
    w, h = ctx.width, ctx.height
    if ctx.shape == "round":
        return Circle(w / 2, h / 2, min(w, h) / 2 - inset, style)
    if ctx.shape == "hex":
        return Polygon(hexagon(w / 2, h / 2, h / 2 - inset * 1.15), style)
    return Rect(inset, inset, w - 2 * inset, h - 2 * inset, style, radius=max(0.0, ctx.corner_radius - inset))


AMOUNT_GAP = 1.2  # mm between the terms of an amount


def _amounts(ctx: FaceContext, name: str, v: dict) -> list[Element]:
    """An amount such as "4 H + 1 pt": terms joined by `+`, each `N SYMBOL` drawn as the number and the symbol's
    icon on its disc, any other term as words; a row `h` mm tall starting at x (ending there when right-aligned,
    centred on it when centred)."""
    symbols = {symbol: (icon, disc, letter) for symbol, icon, disc, letter in v.get("symbols") or ()}
    term = re.compile(r"^(\d+)\s+(" + "|".join(re.escape(symbol) for symbol in symbols) + r")$")
    h, ink = v["h"], resolve(v.get("color") or "#1A1A1A")
    size = h * 2.0
    parts = []  # (number, symbol) or (words, None), and its width
    for written in str(v["text"]).split("+"):
        written = written.strip()
        match = term.match(written) if symbols else None
        if match:
            parts.append((match[1], match[2], text_width_mm(match[1], "Lato-Black", size) + 0.4 + h))
        else:
            if any(ch.isdigit() for ch in written):
                ctx.warn(f"{name}: {v['text']!r}: write amounts as 'N symbol' joined by '+', symbols "
                         f"{', '.join(symbols)}")
            parts.append((written, None, text_width_mm(written, "Lato-Bold", size * 0.8)))
    width = 0.0
    for part in parts:
        width += part[2] + AMOUNT_GAP
    width -= AMOUNT_GAP
    x = v["x"] - {"right": width, "center": width / 2}.get(v.get("align") or "left", 0.0)
    y = v["y"]
    out: list[Element] = []
    for words, symbol, _ in parts:
        if symbol:
            number_w = text_width_mm(words, "Lato-Black", size)
            out.append(fit_text(words, x, y, number_w + 0.2, h, font="Lato-Black", size=size, min_size=6, color=ink,
                                valign="middle").text)
            x += number_w + 0.4
            icon, disc, letter = symbols[symbol]
            out.append(ctx.icon(icon, x, y, h, disc, letter))
            x += h
        else:
            words_w = text_width_mm(words, "Lato-Bold", size * 0.8)
            out.append(ctx.text(name, words, x, y, words_w + 0.5, h, font="Lato-Bold", size=size * 0.8, min_size=6,
                                color=ink, valign="middle"))
            x += words_w
        x += AMOUNT_GAP
    return out


PATH_ARITY = {"M": 2, "L": 2, "C": 6, "Z": 0}  # the numbers each command of a scene's Path takes


def _path_commands(raw: Any) -> tuple[tuple, ...]:
    """A path box's commands as the scene takes them; a ValueError (the box is skipped with a warning) for the
    first that is not `[M, x, y]`, `[L, x, y]`, `[C, x1, y1, x2, y2, x, y]` or `[Z]`."""
    commands = []
    for command in raw if isinstance(raw, (list, tuple)) else [raw]:
        if not (isinstance(command, (list, tuple)) and command and PATH_ARITY.get(command[0]) == len(command) - 1
                and all(type(n) in (int, float) for n in command[1:])):
            raise ValueError(f"a path's commands are [M, x, y], [L, x, y], [C, x1, y1, x2, y2, x, y] or [Z]; "
                             f"got {str(command)[:40]!r}")
        commands.append(tuple(command))
    return tuple(commands)


def _polygon_points(raw: Any) -> tuple[tuple, ...]:
    """A polygon box's corners as the scene takes them; a ValueError (the box is skipped with a warning) unless
    they are one or more [x, y] pairs of numbers."""
    points = tuple(tuple(point) if isinstance(point, (list, tuple)) else (point,) for point in
                   (raw if isinstance(raw, (list, tuple)) else [raw]))
    if not points or not all(len(point) == 2 and all(type(n) in (int, float) for n in point) for point in points):
        raise ValueError(f"a polygon's points are one or more [x, y] pairs of numbers; got {str(raw)[:40]!r}")
    return points


def _focus(raw: Any) -> tuple[float, float]:
    """An image box's focus as the scene takes it; a ValueError (the box is skipped with a warning) unless it
    is two fractions from 0 to 1, across and down."""
    if raw is None:
        return 0.5, 0.5
    if not (isinstance(raw, (list, tuple)) and len(raw) == 2
            and all(type(n) in (int, float) and 0 <= n <= 1 for n in raw)):
        raise ValueError(f"focus is two fractions from 0 to 1, across and down, e.g. [0.5, 0.3]; got {str(raw)[:40]!r}")
    return float(raw[0]), float(raw[1])


def _draw_box(ctx: FaceContext, name: str, kind: str, v: dict) -> list[Element]:
    if kind == "background":
        return [ctx.background(v.get("fill") or "#FFFFFF")]
    if kind == "rect":
        return [Rect(v["x"], v["y"], v["w"], v["h"], _style(v), radius=v.get("radius") or 0.0)]
    if kind == "circle":
        return [Circle(v["cx"], v["cy"], v["r"], _style(v))]
    if kind == "polygon":
        return [Polygon(_polygon_points(v["points"]), _style(v))]
    if kind == "line":
        return [Line(v["x1"], v["y1"], v["x2"], v["y2"], _style(v))]
    if kind == "path":
        return [Path(_path_commands(v["commands"]), _style(v))]
    if kind == "text":
        return [_text(ctx, name, v, v["x"], v["y"], v["w"], v["h"])]
    if kind == "badge":
        cx, cy, r = v["cx"], v["cy"], v["r"]
        out: list[Element] = []
        if v.get("border"):
            out.append(Circle(cx, cy, r, Style(fill=resolve(v["border"]))))
            r_fill = r - (v.get("border_width") or 0.6)
        else:
            r_fill = r
        out.append(Circle(cx, cy, r_fill, Style(fill=resolve(v.get("fill") or "#FFFFFF"))))
        text = dict(v, align=v.get("align") or "center", valign=v.get("valign") or "middle")
        return out + [_text(ctx, name, text, cx - r, cy - r, 2 * r, 2 * r)]
    if kind == "icon":
        x, y, size = v["x"], v["y"], v.get("size")
        if v.get("w") is not None:
            size = min(v["w"], v["h"]) if size is None else size
            x, y = x + (v["w"] - size) / 2, y + (v["h"] - size) / 2
        try:
            return [ctx.icon(v["icon"], x, y, size, v.get("color") or "#1A1A1A", v.get("paper") or "#FFFFFF")]
        except KeyError:  # told as a warning by Box.draw, with the nearest names
            raise ValueError(unknown_icon(str(v["icon"]), ctx.icon_folders)) from None
    if kind == "amounts":
        return _amounts(ctx, name, v)
    if kind == "image":
        return ctx.art(v["src"], v["x"], v["y"], v["w"], v["h"], v.get("fit") or "cover",
                       focus=_focus(v.get("focus")))
    if kind == "write_in":
        return ctx.write_in(str(v.get("label") or name), v["x"], v["y"], v["w"], v["h"], v.get("color") or "#555555")
    if kind == "outline":
        style = _style({"stroke": "#555555", **{k: val for k, val in v.items() if val is not None}}, 0.2)
        return [_inner_shape(ctx, v.get("inset") or 0.0, style)]
    if kind == "warn":
        ctx.warn(str(v["text"]))
        return []
    if kind == "player_mark":
        return ctx.player_mark(v["x"], v["y"], v["size"])
    if kind == "regions":
        from .regions import draw_regions  # imported with the field type that carries the regions
        return draw_regions(ctx, v["regions"])
    raise AssertionError(kind)


NEEDS = {  # the keys each kind of box must have
    "rect": ("x", "y", "w", "h"), "circle": ("cx", "cy", "r"), "polygon": ("points",),
    "line": ("x1", "y1", "x2", "y2"), "path": ("commands",), "text": ("text", "x", "y", "w", "h"),
    "badge": ("text", "cx", "cy", "r"), "icon": ("icon", "x", "y"), "image": ("src", "x", "y", "w", "h"),
    "amounts": ("text", "x", "y", "h"),
    "write_in": ("x", "y", "w", "h"), "player_mark": ("x", "y", "size"), "group": ("boxes",), "warn": ("text",),
    "regions": ("regions",),
}
# What each kind of box reads, its NEEDS first (besides ANY_BOX, which any box takes): `starpnp layouts` lists
# them with BoxSpec's descriptions.
ANY_BOX = ("kind", "when", "repeat", "write_in", "after")
TAKES = {
    "group": ("boxes", "let", "dx", "dy", "rotate", "scale", "link"),
    "background": ("fill",),
    "rect": ("x", "y", "w", "h", "fill", "stroke", "stroke_width", "dash", "opacity", "radius"),
    "circle": ("cx", "cy", "r", "fill", "stroke", "stroke_width", "dash", "opacity"),
    "polygon": ("points", "fill", "stroke", "stroke_width", "dash", "opacity"),
    "line": ("x1", "y1", "x2", "y2", "stroke", "stroke_width", "dash", "opacity"),
    "path": ("commands", "fill", "stroke", "stroke_width", "dash", "opacity"),
    "text": ("text", "x", "y", "w", "h", "font", "size", "min_size", "max_lines", "color", "align", "valign"),
    "badge": ("text", "cx", "cy", "r", "fill", "border", "border_width", "font", "size", "min_size", "max_lines",
              "color", "align", "valign"),
    "icon": ("icon", "x", "y", "size", "w", "h", "color", "paper"),
    "image": ("src", "x", "y", "w", "h", "fit", "focus"),
    "amounts": ("text", "x", "y", "h", "symbols", "align", "color"),
    "write_in": ("x", "y", "w", "h", "label", "color"),
    "outline": ("inset", "fill", "stroke", "stroke_width", "dash", "opacity"),
    "player_mark": ("x", "y", "size"),
    "warn": ("text",),
    "regions": ("regions",),
}
# the value whose length is what a box draws, counted against the face's MAX_FACE_DRAWING
DRAWS = {"polygon": "points", "path": "commands", "text": "text", "badge": "text", "amounts": "text", "warn": "text"}
PRIMARY = {"text": "text", "badge": "text", "icon": "icon", "image": "src"}  # the value a write-in replaces
PLACED = ("text", "rect", "image", "write_in")  # kinds placed by x, y, w and h, checked to lie on the face
OFF_BY = 0.01  # mm past the bleed's edge that is still on it (a sum of decimals)


def outside_face(name: str, x: float, y: float, w: float, h: float, width: float, height: float,
                 bleed: float) -> str | None:
    """Why a box placed here prints cut off or not at all: part of it lies past the face's bleed edge (check
    warns; the studio refuses a box dragged there with this line)."""
    if x >= -bleed - OFF_BY and y >= -bleed - OFF_BY and x + w <= width + bleed + OFF_BY \
            and y + h <= height + bleed + OFF_BY:
        return None
    return (f"box {name}: x {x:g}, y {y:g}, w {w:g}, h {h:g} runs outside the face ({width:g} × {height:g} mm "
            f"and {bleed:g} mm of bleed round it)")


class Box:
    """One compiled box: its kind, its condition, the list it repeats over and its keys' values."""

    __slots__ = ("name", "kind", "when", "repeat", "values", "write_in", "lets", "has_lets", "children", "where")

    def __init__(self, name: str, spec: BoxSpec, names: set[str], where: str):
        if spec.kind is None:
            raise LayoutError(f"{where}.kind: required (one of {', '.join(BOX_KINDS)})")
        self.name, self.kind, self.where = name, spec.kind, where
        missing = [key for key in NEEDS.get(spec.kind, ()) if getattr(spec, key) is None]
        if spec.kind == "icon" and spec.size is None and (spec.w is None or spec.h is None):
            missing.append("size (or w and h)")
        if missing:
            raise LayoutError(f"{where}: a {spec.kind} box needs {', '.join(missing)}")
        inner = names | set(REPEAT_NAMES) if spec.repeat is not None else names
        self.when = value("when", spec.when, inner, f"{where}.when") if spec.when is not None else None
        self.repeat = value("repeat", spec.repeat, names, f"{where}.repeat") if spec.repeat is not None else None
        keys = spec.model_dump(exclude={"kind", "when", "repeat", "write_in", "boxes", "after", "let"},
                               exclude_none=True)
        self.values = bundled({key: value(key, raw, inner, f"{where}.{key}") for key, raw in keys.items()}, where)
        scope = set(inner)  # a group's boxes see its own lets too
        self.lets, self.has_lets = compiled_lets(spec.let or {}, scope, f"{where}.let"), bool(spec.let)
        self.children = [Box(child, box, scope, f"{where}.boxes.{child}") for child, box in (spec.boxes or {}).items()
                         if box is not None]
        self.write_in = None
        if spec.write_in is not False and self.kind in PRIMARY:
            written = spec.write_in if isinstance(spec.write_in, WriteIn) else WriteIn(
                label=spec.write_in if isinstance(spec.write_in, str) else None)
            self.write_in = {key: value("label" if key == "label" else key, raw, inner, f"{where}.write_in.{key}")
                             for key, raw in written.model_dump(exclude_none=True).items()}

    def draw(self, ctx: FaceContext, names: dict, within: str = "") -> list[Element]:
        """The box's elements; a value its expressions cannot work with skips the box with a warning."""
        try:
            if self.repeat is None:
                return self._once(ctx, within + self.name, names)
            out: list[Element] = []
            for index, item in enumerate(self.repeat(names) or ()):
                out += self._once(ctx, f"{within}{self.name}[{index}]", {**names, "item": item, "index": index})
            return out
        except GUARDED as exc:
            ctx.warn(f"box {within}{self.name}: not drawn: {str(exc)[:120]}")
            return []

    def place(self, names: dict) -> dict | None:
        """Where the box sits on a face (mm), when it is drawn once there; `movable` when its x, y, w and h
        place it (a badge's centre and radius, a line's ends do not)."""
        if self.repeat is not None or self.kind in ("group", "background", "outline", "warn", "regions"):
            return None
        try:
            if self.when is not None and not self.when(names):
                return None
            v = self.values(names)
            if self.kind in ("text", "rect", "image", "write_in", "icon", "badge", "player_mark"):
                if self.kind == "player_mark":
                    x, y, w, h = v["x"], v["y"], v["size"], v["size"]
                else:
                    x, y, w, h = _bounds(self.kind, v)
            else:
                return None
        except (TypeError, ValueError, ArithmeticError, LookupError, AttributeError):
            return None
        movable = all(v.get(key) is not None for key in ("x", "y", "w", "h"))
        place = {"x": round(float(x), 2), "y": round(float(y), 2), "w": round(float(w), 2), "h": round(float(h), 2),
                 "movable": movable, "kind": self.kind}
        if self.kind == "image":  # the studio scales a picture dropped on the face to what this box shows
            place["fit"] = v.get("fit") or "cover"
        return place

    def _once(self, ctx: FaceContext, name: str, names: dict) -> list[Element]:
        ctx.counted(self.where)
        if self.when is not None and not self.when(names):
            return []
        v = self.values(names)
        if self.kind == "image" and names.get(self.name + FOCUS_SUFFIX) is not None:  # this card's own focus
            v = {**v, "focus": names[self.name + FOCUS_SUFFIX]}
        if self.kind in PLACED and "." not in name:  # a group's boxes are placed inside the group
            problem = outside_face(name, v["x"], v["y"], v["w"], v["h"], ctx.width, ctx.height, ctx.bleed)
            if problem:
                ctx.warn(problem)
        if self.kind == "group":
            if self.has_lets:
                names = dict(names)
                self.lets(names)
            drawn = [element for child in self.children for element in child.draw(ctx, names, f"{name}.")]
            if not v:  # no move, turn or scale: the boxes as drawn
                return drawn
            return [Group(tuple(drawn), dx=v.get("dx", 0.0), dy=v.get("dy", 0.0), rotate=v.get("rotate", 0.0),
                          scale=v.get("scale", 1.0), link=bool(v.get("link")))]
        if self.write_in is not None and is_unspecified(v.get(PRIMARY[self.kind])):
            x, y, w, h = _bounds(self.kind, v)
            area = {"x": x, "y": y, "w": w, "h": h, "label": self.name.replace("_", " ")}
            area.update({key: compiled(names) for key, compiled in self.write_in.items()})
            return ctx.write_in(str(area["label"]), area["x"], area["y"], area["w"], area["h"])
        if self.kind in DRAWS:
            drawn = v.get(DRAWS[self.kind])
            ctx.spent(self.where, len(drawn) if isinstance(drawn, (str, list, tuple)) else 1)
        return _draw_box(ctx, name, self.kind, v)


# -- files -------------------------------------------------------------------------------------------------

def merged(parent: dict, child: dict) -> dict:
    """A layout file's raw mapping laid over the one it extends: fields and lets by name, boxes key by key."""
    return {"description": child.get("description", parent.get("description", "")),
            "fields": {**parent.get("fields", {}), **child.get("fields", {})},
            "let": {**parent.get("let", {}), **child.get("let", {})},
            "checks": [*(parent.get("checks") or []), *(child.get("checks") or [])],
            "boxes": merged_boxes(parent.get("boxes") or {}, child.get("boxes") or {})}


def merged_boxes(parent: dict, child: dict) -> dict:
    """Boxes by name: a named one changes only the keys given (a group's boxes the same way), null removes it."""
    out = dict(parent)
    for name, box in child.items():
        if box is None or not isinstance(box, dict) or not isinstance(out.get(name), dict):
            out.pop(name, None)
            if box is not None:
                after = box.get("after") if isinstance(box, dict) else None
                names = list(out)
                at = names.index(after) + 1 if after in out else len(names)
                out = {**{n: out[n] for n in names[:at]}, name: box, **{n: out[n] for n in names[at:]}}
            continue
        changed = {**out[name], **box}
        if isinstance(box.get("boxes"), dict) and isinstance(out[name].get("boxes"), dict):
            changed["boxes"] = merged_boxes(out[name]["boxes"], box["boxes"])
        out[name] = changed
    return out


def validated(raw: Any, where: str) -> LayoutFileSpec:
    if not isinstance(raw, dict):
        raise LayoutError(f"{where}: a layout file is a mapping (fields, let, boxes)")
    try:
        return LayoutFileSpec.model_validate(raw)
    except ValidationError as exc:
        error = exc.errors()[0]
        loc = ".".join(str(part) for part in error["loc"] if not str(part).startswith(("function-", "literal[")))
        message = error["msg"]
        if error["type"] == "extra_forbidden":
            model = BoxSpec if "boxes" in error["loc"][:1] else FieldSpec if "fields" in error["loc"][:1] else LayoutFileSpec
            close = get_close_matches(str(error["loc"][-1]), list(model.model_fields), n=1)
            message = "unknown key" + (f"; did you mean {close[0]!r}?" if close else "")
        elif error["type"] == "literal_error" and error["loc"][-1] == "kind":
            close = get_close_matches(str(error["input"]), BOX_KINDS, n=1)
            message = (f"unknown box kind {error['input']!r}" + (f"; did you mean {close[0]!r}?" if close else "")
                       + f" (kinds: {', '.join(BOX_KINDS)})")
        elif error["type"] in ("model_type", "dict_type", "model_attributes_type"):
            message = f"expected a mapping of keys, got {error['input']!r:.40}"
        raise LayoutError(f"{where}: {loc}: {message}") from None


def compiled_lets(raw: dict, names: set[str], where: str) -> Callable[[dict], None]:
    """`let:` names in order, each usable by the next, as one step that adds them to a face's names; `names`
    gains them."""
    lets = []
    for let_name, raw_value in raw.items():
        if not isinstance(let_name, str) or not let_name.isidentifier() or let_name.startswith("_"):
            raise LayoutError(f"{where}.{str(let_name)[:40]}: a let name is letters, digits and _, not first")
        lets.append((let_name, value("let", raw_value, names, f"{where}.{let_name}")))
        names.add(let_name)
    return let_names_assigned(lets, where)


# Each picture box NAME takes a card's own focus from the field NAME_focus (`art_focus: [0.5, 0.2]` on an item,
# or a cell `[0.5, 0.2]`), over the box's `focus`: one card's picture framed apart from the others.
FOCUS_SUFFIX = "_focus"
FOCUS_FIELD = FieldSpec(type="list of number", default=None, min=2, max=2,
                        description="this card's own focus of the picture, across and down (the box's focus if not given)")


def compile_layout(name: str, raw: dict, where: str, key: str) -> Layout:
    """A layout file's mapping (extends already merged) as a Layout: its params model and drawing function."""
    spec = validated(raw, where)
    fields = {n: f for n, f in spec.fields.items() if f is not None}
    fields.update({own: FOCUS_FIELD for box_name, box in spec.boxes.items()
                   if box is not None and box.kind == "image" and (own := box_name + FOCUS_SUFFIX) not in fields})
    params = params_model(name, fields, where)
    names = set(params.model_fields) | set(FACE_NAMES)
    lets = compiled_lets(spec.let, names, f"{where}: let")
    checks = [(value("when", check.when, names, f"{where}: checks[{i}].when"),
               template(check.warn, names, f"{where}: checks[{i}].warn")) for i, check in enumerate(spec.checks)]
    boxes = [Box(box_name, box, names, f"{where}: boxes.{box_name}") for box_name, box in spec.boxes.items()
             if box is not None]

    def named(ctx: FaceContext, face: FaceParams) -> dict:
        player = ctx.color
        values = dict(face.__dict__, w=ctx.width, h=ctx.height, bleed=ctx.bleed, shape=ctx.shape,
                      corner=ctx.corner_radius, player=player.hex if player else None,
                      player_name=player.name if player else None, player_letter=player.letter if player else None)
        lets(values)
        return values

    def draw(ctx: FaceContext, face: FaceParams) -> list[Element]:
        try:  # the face's lets, in the guard a group's lets have: one that fails skips what depends on them
            values = named(ctx, face)
        except GUARDED as exc:
            ctx.warn(f"{str(exc)[:160]}; the face's boxes are not drawn")
            return []
        for index, (when, message) in enumerate(checks):
            try:
                if when(values):
                    ctx.warn(str(message(values)))
            except GUARDED as exc:
                ctx.warn(f"checks[{index}]: not checked: {str(exc)[:120]}")
        drawn = [(box.name, box.draw(ctx, values)) for box in boxes]
        warn_hidden_text(ctx, drawn)
        return [element for _, elements in drawn for element in elements]

    def places(ctx: FaceContext, face: FaceParams) -> dict[str, dict]:
        try:
            values = named(ctx, face)
        except GUARDED:  # the face draws no box, and says why (draw's warning)
            return {}
        return {box.name: place for box in boxes if (place := box.place(values)) is not None}

    return Layout(name, params, draw, key, spec.description, places)
