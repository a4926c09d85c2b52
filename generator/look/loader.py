"""From a game folder to a validated Game, with every problem reported as `file:line: field: message`."""
from __future__ import annotations

import re
import types
from dataclasses import replace
from difflib import get_close_matches
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from .gamefonts import game_fonts
from .icons import icon_problems
from .images import art_refused
from .layouts import LAYOUTS_FOLDER, Layouts, layouts_for
from .layouts.base import ICON_FOLDERS
from ..data.computed import one_budget
from ..data.model import (
    Component, ComponentFile, FaceSpec, Game, GameInfo, PieceSpec, ResolvedComponent, is_unspecified, our_edition,
)
from ..data.origin import COMPONENT, COPIES, ITEM, ComponentOrigin, ItemOrigin, Origin, Overriding, Shape
from ..data.overrides import OVERRIDES_FILE, Overridden, apply_overrides, item_key, source_folders
from ..data.spreadsheet import TableRows, expand_tables, told_in_rows
from ..data.yamlio import DataError, DataErrors, dotted, line_of, load_yaml
from ...resources import components_dir

GAME_FILE = "game.yaml"


def builtin_games() -> list[str]:
    return sorted(p.name for p in components_dir().iterdir() if (p / GAME_FILE).is_file())


def is_game_folder(path: Path) -> bool:
    return (path / GAME_FILE).is_file() or (path / OVERRIDES_FILE).is_file()


@cache
def our_game(game_id: str) -> GameInfo:
    """One of our games' game.yaml, validated: its name, players, colours, options and rule numbers, for the
    companion, which declares none of them itself."""
    return game_info(components_dir() / game_id)


def game_info(folder: Path) -> GameInfo:
    """Any game folder's game.yaml, validated (a designer's game, for the companion)."""
    try:
        return _validate(GameInfo, load_yaml(folder / GAME_FILE), folder / GAME_FILE)
    except DataError as exc:
        raise DataErrors([str(exc)]) from None


def find_game(name_or_path: str) -> Path:
    """A folder path (a game, or overrides of one), or the name of one of our games."""
    path, shown = Path(name_or_path), _clipped(name_or_path)
    try:
        if is_game_folder(path):
            return path
        if path.is_dir():
            raise DataError(f"{shown}: not a game folder (no {GAME_FILE} or {OVERRIDES_FILE})")
        if (components_dir() / name_or_path / GAME_FILE).is_file():
            return components_dir() / name_or_path
    except OSError as exc:  # a name too long for the file system, say
        raise DataError(f"{shown}: not a game or folder ({exc.strerror})") from None
    raise DataError(f"{shown}: no such game or folder; our games: {', '.join(builtin_games())}")


def _clipped(text: str) -> str:
    """A name as a message quotes it: never more than about 80 characters of it."""
    text = str(text)
    return text if len(text) <= 80 else text[:77] + "…"


def _shown(value: Any) -> str:
    """A value as a message quotes it: never more than about 60 characters of it."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _step(annotation: Any, part: Any) -> list:
    """What a value at `part` inside a value of `annotation` may be: through models, lists, mappings and unions
    (a part naming none of a union's fields is the tag pydantic puts in the path: all its members)."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _step(get_args(annotation)[0], part)
    if origin in (Union, types.UnionType):
        members = [a for a in get_args(annotation) if a is not type(None)]
        found = [inner for member in members for inner in _step(member, part)]
        return found or (members if isinstance(part, str) else [])
    if origin in (list, tuple) and isinstance(part, int):
        return [get_args(annotation)[0]]
    if origin is dict:
        return [get_args(annotation)[1]]
    if isinstance(annotation, type) and issubclass(annotation, BaseModel) and part in annotation.model_fields:
        return [annotation.model_fields[part].annotation]
    return []


def _keys_at(model: type[BaseModel], loc: tuple) -> list[str]:
    """The field names valid where an unknown key at `loc` was written."""
    found: list = [model]
    for part in loc[:-1]:
        found = [inner for annotation in found for inner in _step(annotation, part)]
    keys: list[str] = []
    for annotation in found:
        while get_origin(annotation) in (Annotated, Union, types.UnionType):
            annotation = next(a for a in get_args(annotation) if a is not type(None))
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            keys += [k for k in annotation.model_fields if k not in keys]
    return keys


def _unknown_key(error: dict, model: type[BaseModel] | None) -> str:
    """"unknown field", with the nearest valid key (or the valid keys) where the model tells them."""
    keys = _keys_at(model, tuple(error["loc"])) if model is not None else []
    if not keys:
        return "unknown field"
    close = get_close_matches(str(error["loc"][-1]), keys, n=1, cutoff=0.5)
    if close:
        return f"unknown field; did you mean {close[0]!r}?"
    return f"unknown field; valid here: {', '.join(keys)}"


def _message(error: dict, model: type[BaseModel] | None = None) -> str:
    """Pydantic's messages, reworded for someone editing YAML."""
    kind, ctx, value = error["type"], error.get("ctx", {}), error.get("input")
    if kind == "extra_forbidden":
        return _unknown_key(error, model)
    if kind == "missing":
        return "required field is missing"
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return f"expected a whole number, got {_shown(value)}"
    if kind in ("float_parsing", "float_type"):
        return f"expected a number, got {_shown(value)}"
    if kind in ("bool_parsing", "bool_type"):
        return f"expected true or false, got {_shown(value)}"
    if kind in ("string_type",):
        return f"expected text, got {_shown(value)}"
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        sign = {"greater_than_equal": "≥", "greater_than": ">", "less_than_equal": "≤", "less_than": "<"}[kind]
        limit = next(iter(ctx.values()))
        return f"must be {sign} {limit}, got {_shown(value)}"
    if kind == "literal_error":
        return f"must be one of {ctx.get('expected')}, got {_shown(value)}"
    if kind == "string_pattern_mismatch":
        return f"must match {ctx.get('pattern')}, got {_shown(value)}"
    if kind == "value_error":
        return str(ctx.get("error", error["msg"]))
    return error["msg"]


def _one_member(errors: list[dict]) -> list[dict]:
    """A field of type `A or unspecified` that fails as A is reported as A only, not also as "must be
    'unspecified'": one line for one mistake."""
    def literal(error: dict) -> bool:
        return any(str(part).startswith("literal[") for part in error["loc"][1:])

    failed_otherwise = {error["loc"][0] for error in errors if not literal(error)}
    return [error for error in errors if not (literal(error) and error["loc"][0] in failed_otherwise)]


def _errors(exc: ValidationError, source: Path, raw: Any, model: type[BaseModel] | None = None, prefix: tuple = (),
            raw_prefix: tuple = ()) -> list[str]:
    out = []
    for error in exc.errors():
        loc = tuple(part for part in error["loc"] if not (isinstance(part, str) and part.startswith("function-")))
        line = line_of(raw, raw_prefix + loc)
        out.append(f"{source}:{line}: {dotted(prefix + loc)}: {_message(error, model)}")
    return out


RULE_REF = re.compile(r"\{rules\.([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)\}")


def _numbered(text: str, info: GameInfo) -> Any:
    """`text` with its `{rules.NAME}` references filled in; nothing but a reference gives the number itself."""
    whole = RULE_REF.fullmatch(text.strip())
    if whole:
        return info.number(whole.group(1))
    return RULE_REF.sub(lambda m: str(info.number(m.group(1))), text)


def with_rule_numbers(raw: Any, info: GameInfo, source: Path, loc: tuple = ()) -> list[str]:
    """Put the game's rule numbers into the data in place: `{rules.NAME}` inside a text (or a mapping key)
    becomes the number, and a value that is nothing but `{rules.NAME}` becomes the number itself (a count,
    say). Returns one error line per unknown name."""
    errors: list[str] = []
    items = raw.items() if isinstance(raw, dict) else enumerate(raw) if isinstance(raw, list) else ()
    for key, value in list(items):
        try:
            if isinstance(key, str) and "{rules." in key:  # a mapping keyed by a number, such as track marks
                lines = getattr(raw, "key_lines", {})
                del raw[key]
                new_key = _numbered(key, info)
                raw[new_key] = value
                if key in lines:
                    lines[new_key] = lines[key]
                key = new_key
            if isinstance(value, (dict, list)):
                errors += with_rule_numbers(value, info, source, loc + (key,))
            elif isinstance(value, str) and "{rules." in value:
                raw[key] = _numbered(value, info)
        except (KeyError, TypeError, IndexError) as exc:
            known = ", ".join(sorted(info.rules)) or "none (add a rules: section to game.yaml)"
            errors.append(f"{source}:{line_of(raw, (key,)) or line_of(raw, ())}: {dotted(loc + (key,))}: "
                          f"unknown rule number {str(exc)[:40]} (game.yaml rules: {known})")
    return errors


MAX_NUMBER = 10_000.0  # no measure (mm), count or grid in a face is larger: a bigger one is a typo, and slow


def _out_of_bounds(value: Any, path: tuple = ()) -> tuple[tuple, float] | None:
    """The first number in a face's fields beyond ±MAX_NUMBER (where, and the number), or None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return (path, float(value)) if abs(value) > MAX_NUMBER else None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in items:
        found = _out_of_bounds(child, path + (key,))
        if found:
            return found
    return None


def _unspecified_paths(value: Any, path: str = "") -> list[str]:
    if is_unspecified(value):
        return [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _unspecified_paths(v, f"{path}.{k}" if path else str(k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _unspecified_paths(v, f"{path}[{i}]")]
    return []


def _written(value: Any, loc: tuple) -> tuple:
    """`loc` as the data spells it: without the tags pydantic adds for a union's member (`regions[0].grid.x`
    is `regions[0].x` in the file); the last part stays, as a missing field is named there."""
    out = []
    for index, part in enumerate(loc):
        found = (isinstance(value, dict) and part in value) or (
            isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value))
        if found:
            value = value[part]
        elif isinstance(value, (dict, list)) and index < len(loc) - 1:
            continue
        out.append(part)
    return tuple(out)


def _at(raw: Any, path: tuple) -> Any:
    """The value at `path` inside loaded data, or None."""
    for part in path:
        try:
            raw = raw[part]
        except (KeyError, IndexError, TypeError):
            return None
    return raw


class _Resolver:
    def __init__(self, info: GameInfo, options: frozenset[str], write_ins: bool, folders: tuple[Path, ...],
                 layouts: Layouts, overridden: Overridden | None = None):
        self.info = info
        self.context = {ICON_FOLDERS: folders}  # a face may name the game's own icons
        self.art_folders = list(folders)  # art is relative to the first; it may lie in any of them
        self.art_refused: dict[str, str | None] = {}  # by art path: each file is looked at once
        self.options = options
        self.write_ins = write_ins
        self.edition: list[str] = []
        self.layouts = layouts
        self.overridden = overridden
        self.overriding = overridden and Overriding(str(overridden.folder / OVERRIDES_FILE), overridden.data)
        self.errors: list[str] = []
        self.unspecified: list[str] = []
        self.ours: list[str] = []
        self.shapes: dict[tuple, Shape] = {}  # one Shape for every face given the same fields from the same places
        self.fields_set: dict[frozenset, set] = {}  # faces given the same fields share one set of them (see face)

    def origin(self, item: ItemOrigin, raw_item: Any, raw_component: Any, paths: dict, side: str) -> Origin:
        """Where each of a face's values was written (see data/origin.py), looked up now, while the YAML is at
        hand: the lines are read from the item's and the component's own data, not from the file's top."""
        key = (tuple(paths), tuple(paths.values()))
        shape = self.shapes.get(key)
        if shape is None:
            shape = self.shapes[key] = Shape(("", *key[0]), ((ITEM,), *key[1]))
        numbers = (item.line, *(line_of(raw_item if path[0] == ITEM else raw_component, path[1:])
                                for path in key[1]))
        return Origin(item, shape, numbers, side)

    def error(self, message: str) -> None:
        if message not in self.errors:  # pieces sharing a bad front would repeat it once each
            self.errors.append(message)

    def face(self, fields: dict, paths: dict, source: Path, raw: Any, at, side: str) -> tuple | None:
        """Validate merged fields, returning (layout name, params, drawing) for a FaceSpec; `paths` maps each
        field to where it came from (data/origin.py's paths, `at` makes one a key path from the file's top). A
        field missing altogether is reported where it would go on the item (`back.` for back fields)."""
        name = fields.get("layout")
        boxes = fields.pop("boxes", None)
        own = (ITEM,) if side == "front" else (ITEM, "back")

        def where(field: str) -> tuple:
            return at(paths.get(field, own + (field,)))

        if not isinstance(name, str) or name not in self.layouts:
            if name is None:
                component = at((COMPONENT,))
                self.error(f"{source}:{line_of(raw, component + (side,))}: {dotted(component + (side, 'layout'))}: "
                           f"required field is missing")
                return None
            line = line_of(raw, where("layout"))
            known = ", ".join(sorted(self.layouts))
            self.error(f"{source}:{line}: {dotted(where('layout') if 'layout' in paths else ('layout',))}: "
                       f"unknown layout {_shown(name)}; known: {known}")
            return None
        too_big = _out_of_bounds(fields)
        if too_big:
            path, value = too_big
            spot = where(path[0]) + path[1:]
            self.error(f"{source}:{line_of(raw, spot)}: {dotted(spot)}: {value:g} is beyond ±{MAX_NUMBER:g}; "
                       f"sizes are in mm and counts are of pieces")
            return None
        try:
            if boxes is None:
                drawing = self.layouts[name]
            else:
                spot = where("boxes")
                drawing = self.layouts.with_boxes(name, boxes, f"{source}:{line_of(raw, spot)}: {dotted(spot)}",
                                                  lambda keys: line_of(raw, spot + keys))
            params = drawing.params.model_validate(fields, context=self.context)
        except DataError as exc:  # a layout file that does not compile
            self.error(str(exc))
            return None
        except ValidationError as exc:
            for error in _one_member(exc.errors()):
                top = error["loc"][0]
                rest = _written(fields.get(top), error["loc"][1:])
                spot = where(top)
                line = line_of(raw, spot + rest if top in paths else at((ITEM,)))
                self.error(f"{source}:{line}: {dotted(spot + rest)}: {_message(error, self.layouts[name].params)}")
            return None
        if not self.art_ok(params, where, source, raw):
            return None
        # pydantic gives every model its own set of the fields the data gave; faces giving the same fields share
        # one (pydantic copies it before changing it, in model_copy), a few hundred bytes a face
        given = params.__pydantic_fields_set__
        object.__setattr__(params, "__pydantic_fields_set__", self.fields_set.setdefault(frozenset(given), given))
        return name, params, drawing

    def art_ok(self, params: Any, where, source: Path, raw: Any) -> bool:
        """Whether the face's art paths may be used; an error for each that is refused (see art_refused)."""
        ok = True
        for name in ART_FIELDS:
            path = getattr(params, name, None)
            if not path:
                continue
            if path not in self.art_refused:
                self.art_refused[path] = art_refused(path, self.art_folders)
            if self.art_refused[path]:
                self.error(f"{source}:{line_of(raw, where(name))}: {dotted(where(name))}: {_shown(path)}: "
                           f"{self.art_refused[path]}")
                ok = False
        return ok

    def component(self, comp: Component, index: int, source: Path, raw: Any,
                  items: bool = True) -> ResolvedComponent | None:
        base = ("components", index)
        if comp.option and comp.option not in self.info.options:
            self.errors.append(f"{source}:{line_of(raw, base + ('option',))}: {dotted(base + ('option',))}: "
                               f"unknown game option {comp.option!r}")
        colors = comp.colors or self.info.colors
        pieces = []
        self.ours.extend(f"{comp.id}: {field}" for field in comp.ours)
        raw_component = _at(raw, base)
        raw_items = raw_component["items"]
        table = raw_items.origin if isinstance(raw_items, TableRows) else None  # shared by its rows
        here = ComponentOrigin(str(source), comp.id, index, table, self.overriding)
        set_at = self.overridden.set_in(str(source), base) if self.overridden else {}
        from_front = {k: (COMPONENT, "front", k) for k in comp.front}
        from_back = {k: (COMPONENT, "back", k) for k in (comp.back or {})}
        for item_index, item in enumerate(comp.items):
            ipath = base + ("items", item_index)

            def at(path: tuple, ipath=ipath) -> tuple:  # a field's path from the file's top
                return (ipath if path[0] == ITEM else base) + path[1:]

            raw_item = raw_items[item_index]
            extras = dict(item.model_extra or {})
            count = item.count
            front_paths = from_front | {k: (ITEM, k) for k in extras}
            front = {**comp.front, **extras}
            back = None
            back_paths: dict = {}
            if comp.back is not None or item.back is not None:
                back = {**(comp.back or {}), **(item.back or {})}
                back_paths = from_back | {k: (ITEM, "back", k) for k in (item.back or {})}
            count_path = (ITEM, "count")
            variant = None  # (option, copies, front, paths): the option's changes that some copies take
            for option, changes in item.with_option.items():
                if option not in self.info.options:
                    line = line_of(raw, ipath + ("with_option", option))
                    self.error(f"{source}:{line}: {dotted(ipath + ('with_option', option))}: "
                               f"unknown game option {option!r}")
                    continue
                if option in self.options:
                    changes = dict(changes)
                    if "count" in changes:
                        count, count_path = changes.pop("count"), (ITEM, "with_option", option, "count")
                    paths = {k: (ITEM, "with_option", option, k) for k in changes if k != COPIES}
                    if COPIES in changes:
                        copies = self.copies(changes.pop(COPIES), count, source, raw, ipath + ("with_option", option))
                        if copies is None:
                            continue
                        variant = (option, copies, {**front, **changes}, front_paths | paths)
                        continue
                    front.update(changes)
                    front_paths.update(paths)
            label = item.name or self.label(front, item_index)
            key = self._key(source, ipath, raw_item) if self.overridden else None  # only overrides name items
            mine = ItemOrigin(here, item_index, line_of(raw, ipath), key, len(comp.items) == 1,
                              _set_by(set_at, ipath, base), variant[1] if variant else 0)
            front_paths["count"] = count_path
            if back is not None:
                back_paths["count"] = count_path
            made = [(str(label), count - (variant[1] if variant else 0), front, front_paths)]
            if variant is not None:
                option, copies, changed, paths = variant
                made.append((f"{label} (with {option})", copies, changed,
                             paths | {"count": (ITEM, "with_option", option, COPIES)}))
            for name, number, fields, paths in made:
                pieces += self.pieces(comp, colors, item, name, number, fields, paths, back, back_paths, mine,
                                      raw_item, raw_component, source, raw, at)
        return ResolvedComponent(str(source), comp if items else comp.model_copy(update={"items": []}), tuple(pieces))

    def copies(self, copies: Any, count: int, source: Path, raw: Any, where: tuple) -> int | None:
        """`copies: N` of an option's changes: how many of the item's copies take them; all of them when the
        item has fewer (a player's overrides may count 2 Attack cards where the game stars 4)."""
        if isinstance(copies, bool) or not isinstance(copies, int) or copies < 0:
            self.error(f"{source}:{line_of(raw, where + (COPIES,))}: {dotted(where + (COPIES,))}: expected a whole "
                       f"number of the item's copies (0 or more), got {_shown(copies)}")
            return None
        return min(copies, count)

    def label(self, front: dict, index: int) -> str:
        """An item without a name is named by its title or label (our edition's, when that is ours), else by
        its place."""
        for key in ("title", "label"):
            value = front.get(key)
            if isinstance(value, dict):
                value = our_edition(value, self.write_ins)[0]
            if value and not is_unspecified(value):
                return value
        return f"#{index + 1}"

    def pieces(self, comp: Component, colors: list, item: Any, label: str, count: int, front: dict, front_paths: dict,
               back: dict | None, back_paths: dict, mine: ItemOrigin, raw_item: Any, raw_component: Any,
               source: Path, raw: Any, at) -> list[PieceSpec]:
        """An item's pieces (one per player colour when per_player), its faces validated; none when a face
        fails (its error is kept)."""
        front, front_edition = our_edition(front, self.write_ins)
        back, back_edition = our_edition(back, self.write_ins)
        front_face = self.face(front, front_paths, source, raw, at, "front")
        back_face = self.face(back, back_paths, source, raw, at, "back") if back is not None else None
        if front_face is None or (back is not None and back_face is None):
            return []
        for path in _unspecified_paths(front):
            self.unspecified.append(f"{comp.id}: {label}: front.{path}")
        for path in _unspecified_paths(back or {}):
            self.unspecified.append(f"{comp.id}: {label}: back.{path}")
        self.ours.extend(f"{comp.id}: {label}: {field}" for field in item.ours)
        self.edition.extend(f"{comp.id}: {label}: {side}.{path}" for side, paths in
                            (("front", front_edition), ("back", back_edition)) for path in paths)
        front_spec = FaceSpec(*front_face, self.origin(mine, raw_item, raw_component, front_paths, "front"))
        back_spec = None
        if back_face is not None:
            back_spec = FaceSpec(*back_face, self.origin(mine, raw_item, raw_component, back_paths, "back"))
        return [PieceSpec(label, count, color, front_spec, back_spec)
                for color in (colors if comp.per_player else [None])]

    def _key(self, source: Path, ipath: tuple, raw_item: Any) -> str | None:
        """The name overrides.yaml changes the item by: the one it is changed by already, else its own."""
        if self.overridden is not None and (named := self.overridden.names.get((str(source), ipath))) is not None:
            return named
        return item_key(raw_item)


def _set_by(set_at: dict, ipath: tuple, base: tuple) -> dict | None:
    """What an overrides.yaml set on this item (or on its component), by the path from the item (from the
    component: `component` first) -> (its line, its path) in overrides.yaml."""
    if not set_at:
        return None
    found = {}
    for loc, place in set_at.items():
        if loc[:len(ipath)] == ipath:
            found[loc[len(ipath):]] = place
        elif loc[:2] == base and loc[2:3] != ("items",):
            found[(COMPONENT, *loc[2:])] = place
    return found or None


def _validate(model: type[BaseModel], raw: Any, source: Path) -> Any:
    if not isinstance(raw, dict):
        raise DataErrors([f"{source}:{getattr(raw, 'line', 1)}: (top level): expected a mapping of fields"])
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise DataErrors(_errors(exc, source, raw, model)) from None


ART_FIELDS = ("art", "background_art")  # the face fields that name an image file


def load_game(folder: Path, options: set[str] | frozenset[str] = frozenset(), write_ins: bool = False,
              items: bool = True, refresh: bool = False) -> Game:
    """Load and validate a game folder; raises DataErrors listing every problem found.

    write_ins: print write-in areas where our edition fills in what the rulebook leaves out.
    items: keep each component's validated items in its spec (`customise` reads them); a build needs only
    the pieces made from them, and a set of thousands of pieces is lighter by megabytes without them.
    refresh: fetch published sheets (`items: https://…`) anew, failing rather than using the kept copy."""
    if not (folder / GAME_FILE).is_file() and (folder / OVERRIDES_FILE).is_file():
        try:
            overridden = apply_overrides(folder, find_game)
        except DataError as exc:
            raise DataErrors([str(exc)]) from None
        try:
            game = _load(overridden.base, overridden.files.__getitem__, options, write_ins, overridden.changes,
                         icon_folders(folder), (overridden.base, folder), items, refresh, overridden)
        except DataErrors as exc:  # a value the user's overrides.yaml put there is blamed on their line
            raise DataErrors([overridden.blamed(error) for error in exc.errors]) from None
        return replace(game, warnings=(*overridden.warnings, *game.warnings),
                       overrides=(*game.overrides, *layout_changes(folder)))
    return _load(folder, load_yaml, options, write_ins, [], icon_folders(folder), (folder,), items, refresh)


def layout_changes(folder: Path) -> list[str]:
    """What an overrides folder's own layouts/ change, one line per box or setting: a box moved in the studio
    changes the print as much as a count does, so the build's report lists it beside overrides.yaml's lines.
    Read after the load, which has checked every layout file."""
    changes = []
    for path in sorted((folder / LAYOUTS_FOLDER).glob("*.yaml")):
        raw, name = load_yaml(path), f"{LAYOUTS_FOLDER}/{path.name}"
        if not isinstance(raw, dict):
            continue
        if "extends" not in raw:
            changes.append(f"{name}: a layout of this folder's own")
        for key, value in raw.items():
            if key == "boxes" and isinstance(value, dict):
                changes.extend(f"{name}: boxes.{box}: {settings(keys)}" for box, keys in value.items())
            elif key != "extends":
                changes.append(f"{name}: {key}: {settings(value)}")
    return changes


def settings(value: Any) -> str:
    """A box's keys as a report line shows them (`x 19.5, y 5, size 14`), any other value as written."""
    if isinstance(value, dict):
        return ", ".join(f"{key} {item}" for key, item in value.items())
    return str(value)


def icon_folders(folder: Path) -> tuple[Path, ...]:
    """The game folders whose icons/ a game may use, first match first: the user's, then the game it extends."""
    return tuple(source_folders(folder, find_game))


def layout_folders(folder: Path) -> tuple[Path, ...]:
    """The game folders whose layouts/ a game may name, as its load reads them: the game it extends first,
    the user's last (a file of the same name replaces the extended game's)."""
    return icon_folders(folder)[::-1]


@one_budget()  # the formulas of every workbook sheet the game reads share one budget
def _load(folder: Path, read, options: set[str] | frozenset[str], write_ins: bool, changes: list[str],
          icons: tuple[Path, ...], layout_folders: tuple[Path, ...], items: bool = True,
          refresh: bool = False, overridden: Overridden | None = None) -> Game:
    errors, warnings = icon_problems(icons)
    try:
        game_fonts(icons)
    except DataError as exc:
        errors.append(str(exc))
    try:
        info = _validate(GameInfo, read(folder / GAME_FILE), folder / GAME_FILE)
    except DataError as exc:
        raise DataErrors([str(exc)]) from None
    unknown = sorted(set(options) - set(info.options))
    if unknown:
        known = ", ".join(sorted(info.options)) or "none"
        raise DataErrors([f"{folder / GAME_FILE}: options: unknown option {unknown[0]!r}; this game's options: {known}"])
    enabled = frozenset(options) | {name for name, opt in info.options.items() if opt.default}
    try:
        layouts = layouts_for(layout_folders)
    except OSError as exc:
        raise DataErrors([f"{folder}: layouts: cannot read ({exc.strerror})"]) from None
    except DataError as exc:
        raise DataErrors([str(exc)]) from None
    resolver = _Resolver(info, enabled, write_ins, icons, layouts, overridden)
    components: list[ResolvedComponent] = []
    seen: dict[str, str] = {}
    for source in sorted(folder.glob("*.yaml")):
        if source.name == GAME_FILE:
            continue
        tables: dict = {}
        try:
            raw = read(source)
            tables = expand_tables(raw, source, refresh, warnings)
            missing = with_rule_numbers(raw, info, source)
            if missing:
                errors.extend(told_in_rows(missing, source, tables))
                continue
            parsed = _validate(ComponentFile, raw, source)
        except DataError as exc:
            errors.append(str(exc))
            continue
        except DataErrors as exc:
            errors.extend(told_in_rows(exc.errors, source, tables))
            continue
        for index, comp in enumerate(parsed.components):
            if comp.id in seen:
                line = line_of(raw, ("components", index, "id"))
                errors.append(f"{source}:{line}: components[{index}].id: duplicate id {comp.id!r} "
                              f"(first in {seen[comp.id]})")
                continue
            seen[comp.id] = source.name
            if comp.option and comp.option not in enabled:
                continue
            found = len(resolver.errors)
            resolved = resolver.component(comp, index, source, raw, items)
            resolver.errors[found:] = told_in_rows(resolver.errors[found:], source, tables)
            if resolved is not None:
                components.append(resolved)
    errors.extend(resolver.errors)
    if errors:
        raise DataErrors(errors)
    return Game(str(folder), info, tuple(components), enabled, tuple(resolver.unspecified), tuple(resolver.ours),
                tuple(changes), tuple(resolver.edition), write_ins, tuple(warnings))
