"""Where a value a studio face shows is written, and the file's text with a new value written there.

The load that drew the face recorded where each of its values came from (data/origin.py): a row of a
spreadsheet, an item of a component's YAML list, an option's variant, or (in an overrides folder) nowhere of
the person's own, so its changes go to `overrides.yaml` under the item's name. A value is written where it was
given: the item's own cell or key, a new key on the item when the component or the layout gave it (the item
then differs from the others, as the person asked), or the layout file for a box's place. Nothing else of the
file changes (yamltext, csvcell); the file's text is read only to write into it.
"""
from __future__ import annotations

import functools
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import yaml
from pydantic.fields import FieldInfo

from ..data.errors import DataError
from ..data.origin import Origin, Where
from ..data.palette import checked_color
from ..data.overrides import OVERRIDES_FILE
from ..data.spreadsheet import DECIMAL, WHOLE
from ..look.layouts import LAYOUTS_FOLDER, builtin_layouts
from ..look.layouts.base import known_icon
from ..look.layouts.layoutfile import FOCUS_SUFFIX
from ...resources import components_dir
from . import yamltext
from .csvcell import cells, set_cell

BUILTIN = "one of starpnp's own games: press Customise to make a copy of your own to change"
SCALAR_KINDS = ("text", "integer", "number", "color", "bool", "choice", "icon", "file")
ART_FIELDS = ("art", "background_art")  # a face's picture: the field a file dropped on it sets


class ReadOnly(DataError):
    """A value the studio does not write: the line says where a person changes it instead."""


@dataclass(frozen=True)
class Target:
    """Where one value is written: a key path in a YAML file, or a cell (`index` from 0) of a CSV row."""

    file: Path
    line: int
    path: tuple = ()
    column: str = ""
    index: int = -1
    delimiter: str = ","
    new: bool = False

    @property
    def key(self) -> tuple:
        """The value this target writes, as two tabs' changes are compared: the file and its key path or cell."""
        return (str(self.file.resolve()), self.path if self.index < 0 else (self.line, self.index))

    def where(self, folder: Path) -> str:
        name = shown(self.file, folder)
        if self.index >= 0:
            return f"{name}:{self.line}, {'a new ' if self.new else ''}column {self.column}"
        if self.new and not self.line:  # a key the file does not hold yet: where it goes
            return f"{name}, a new key {'.'.join(map(str, self.path))}"
        return f"{name}:{self.line}" + (" (a new key)" if self.new else "")


@functools.lru_cache(maxsize=4096)  # a face's every field names its file: 20 faces resolved 680 paths (0.14 s)
def shown(path: Path, folder: Path) -> str:
    """A file as the page names it: relative to the game folder when inside it."""
    try:
        return str(path.resolve().relative_to(folder.resolve()))
    except ValueError:
        return path.name


def layout_source(where: Where, folder: Path) -> str:
    """Where a layout's value came from, as the page says it: `layouts/deck_card.yaml:9` in the game's own
    file, `the builtin layout `card` via extends` for one that file extends, `the extended game's layout
    `galaxy_card`` for a Customise copy's value its game gives."""
    path = Path(where.file).resolve()
    via = " via extends" if where.how == "extends" else ""
    if path.is_relative_to(builtin_layouts().resolve()):
        return f"the builtin layout `{path.stem}`{via}"
    if not path.is_relative_to(folder.resolve()):
        return f"the extended game's layout `{path.stem}`{via}"
    return f"this game's layout `{path.stem}` via extends" if via else f"{shown(path, folder)}:{where.line}"


def kind_of(info: FieldInfo) -> tuple[str | None, list | None]:
    """(the editor a field's type takes, the words allowed for a choice); None for a list or a table."""
    annotation, metadata = info.annotation, list(info.metadata)  # pydantic keeps Annotated's extras apart
    while True:
        checks = {getattr(meta, "func", None) for meta in metadata}
        if checked_color in checks:
            return "color", None
        if known_icon in checks:
            return "icon", None
        origin = get_origin(annotation)
        if origin is Annotated:
            annotation, *metadata = get_args(annotation)
        elif origin in (Union, types.UnionType):
            members = [a for a in get_args(annotation) if a is not type(None)]
            if str in members:
                return "text", None
            annotation = members[0]
        else:
            break
    if get_origin(annotation) is Literal:
        return "choice", list(get_args(annotation))
    return {bool: "bool", int: "integer", float: "number", str: "text"}.get(annotation), None


def typed(value: Any, kind: str | None) -> Any:
    """A value as the page sent it, as the file should hold it: `"4"` for a number field is 4."""
    if isinstance(value, str) and kind in ("integer", "number"):
        text = value.strip()
        if WHOLE.fullmatch(text):
            return int(text)
        if kind == "number" and DECIMAL.fullmatch(text):
            return float(text)
    if isinstance(value, str) and kind == "bool" and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return value


def cell(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


class Sources:
    """The files of one game folder as text (and composed YAML), read again only when they change: what a change
    is written into, and what a stale change is refused by. Where each value lies is not looked for here: the
    load that drew the face recorded it (data/origin.py), and a change is written through that record."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.read: dict[Path, tuple[tuple, str, Any]] = {}  # path -> (stat, text, composed YAML)

    @functools.cached_property  # a folder is ours or not for its Sources' life (Customise makes new Sources)
    def builtin(self) -> bool:
        return self.folder.resolve().parent == components_dir().resolve()

    @property
    def overrides(self) -> bool:
        return (self.folder / OVERRIDES_FILE).is_file() and not (self.folder / "game.yaml").is_file()

    def text(self, path: Path) -> str:
        return self._read(path)[0]

    def tree(self, path: Path) -> Any:
        text, parsed = self._read(path)
        if parsed is None:
            parsed = yamltext.compose(text, shown(path, self.folder))
            stamp = self.read[path][0]
            self.read[path] = (stamp, text, parsed)
        return parsed

    def _read(self, path: Path) -> tuple[str, Any]:
        try:
            info = path.stat()
        except FileNotFoundError:
            return "", None
        stamp = (info.st_mtime_ns, info.st_size)
        kept = self.read.get(path)
        if kept is None or kept[0] != stamp:
            try:
                kept = (stamp, path.read_bytes().decode("utf-8"), None)
            except UnicodeDecodeError:
                raise DataError(f"{shown(path, self.folder)}: not UTF-8 text; save it as UTF-8") from None
            self.read[path] = kept
        return kept[1], kept[2]

    # -- where a value is written ---------------------------------------------------------------------------

    def target(self, origin: Origin, field: str) -> Target:
        """Where a face's `field` (or its count) is written: where its value came from when the item gives it
        (its key, its cell, its option variant's key), else a new key or cell on the item, as the person
        asked for this item alone; in an overrides folder, under the item's name in overrides.yaml."""
        if self.builtin:
            raise ReadOnly(BUILTIN)
        if self.overrides:
            return self._overridden(origin, field)
        where = origin.mine(field)
        table = origin.table
        if where.column:
            if where.how.startswith("option"):
                raise ReadOnly(f"{where.shown(self.folder)}: a value of an option's variant: change it there")
            if table.kind != "csv":
                place = where.shown(self.folder)
                if table.kind == "published":
                    place = f"the sheet published at {table.label[:60]}, " + place.split(", ", 1)[-1]
                raise ReadOnly(f"{place}: change it there and save; the studio shows it as soon as it is saved")
            if where.index >= 0:
                return Target(Path(where.file), where.line, column=where.column, index=where.index,
                              delimiter=table.delimiter)
            if field not in ART_FIELDS and not field.endswith(FOCUS_SUFFIX):
                raise ReadOnly(f"{shown(Path(where.file), self.folder)} has no {where.column} column: add one to "
                               f"give each row its own")
            # a picture (or its focus) given to a card of a list with no such column yet: the header gains it and
            # this row its cell (two lines change; the other rows, shorter than the header, read it as empty)
            return Target(Path(where.file), where.line, column=where.column, index=len(table.header),
                          delimiter=table.delimiter, new=True)
        return Target(Path(where.file), where.line, where.path, new=not where.given)

    def shared(self, origin: Origin, field: str) -> Target:
        """Where a value that the component gives every item of a face (a back all cards share) is written: the
        component's own key (in an overrides folder, the component's line in overrides.yaml)."""
        if self.builtin:
            raise ReadOnly(BUILTIN)
        where = origin.where(field)
        if not self.overrides:
            return Target(Path(where.file), where.line, where.path)
        if where.how == "override":
            return Target(self.folder / OVERRIDES_FILE, where.line, where.path)
        component = origin.item.component
        path = ("components", component.id, origin.side, field)
        return Target(self.folder / OVERRIDES_FILE, component.overrides.line(path), path, new=True)

    def _overridden(self, origin: Origin, field: str) -> Target:
        """An item of the game an overrides folder extends: its changes go under its name in overrides.yaml (a
        value overrides.yaml set already: where it set it; a card its `add:` brings: in that card's entry)."""
        mine, item = self.folder / OVERRIDES_FILE, origin.item
        where = origin.where(field)
        if where.how == "override":
            return Target(mine, where.line, where.path)
        inner = where.path[4:] if where.how.startswith("option") and where.path else origin.own(field)
        home = (item.set_by or {}).get(())  # a card overrides.yaml's `add:` brings: its own entry there
        if home is not None:
            path = home[1] + inner
        elif item.key is not None:
            path = ("components", item.component.id, "items", item.key) + inner
        elif item.lone and field != "count":
            path = ("components", item.component.id, origin.side, field)
        else:
            raise ReadOnly(f"{Path(item.component.file).name}:{item.line}: this item has no name, which "
                           f"{OVERRIDES_FILE} names items by")
        return Target(mine, item.component.overrides.line(path), path, new=True)

    def layout_targets(self, origin: Origin, layout: str, box: str) -> list[Target]:
        """Where a box's x, y, w and h are written: where the face's data changes that box inline (`front:
        {layout: card, boxes: {title: …}}`, as the load recorded), else the game's own layout file of that name,
        made (extending ours, or the extended game's) when the game has none: a game's `card.yaml` that extends
        `card` replaces ours by name, so no component need name another layout."""
        if self.builtin:
            raise ReadOnly(BUILTIN)
        boxes = origin.where("boxes")
        if not self.overrides and boxes.given and boxes.path:
            inline = boxes.path + (box,)
            if yamltext.find(self.tree(Path(boxes.file)), inline) is not None:
                return [self._key_target(Path(boxes.file), inline + (key,)) for key in ("x", "y", "w", "h")]
        own = self.folder / LAYOUTS_FOLDER / f"{layout}.yaml"
        return [self._key_target(own, ("boxes", box, key)) for key in ("x", "y", "w", "h")]

    def _key_target(self, file: Path, path: tuple) -> Target:
        """A key of a YAML file as it is now (its line, for the page), or a new one."""
        node = yamltext.find(self.tree(file), path) if file.exists() else None
        return Target(file, node.start_mark.line + 1 if node is not None else 0, path, new=node is None)

    def expression(self, target: Target) -> str | None:
        """The expression a YAML key holds (`title_h + 2`), None when it holds a number or is not written."""
        if target.new or target.index >= 0 or not target.file.exists():
            return None
        node = yamltext.find(self.tree(target.file), target.path)
        if isinstance(node, yaml.ScalarNode) and node.tag.endswith(":str"):
            return node.value
        return None

    def written(self, changes: list[tuple[Target, Any]]) -> dict[Path, str]:
        """Each file a change goes to, as its text would be with every change made (none written yet)."""
        texts: dict[Path, str] = {}
        for target, value in changes:
            if target.file in texts:
                text = texts[target.file]
            elif target.file.exists():
                text = self.text(target.file)
            else:  # a layout file of the game's own, made to extend ours
                text = f"extends: {target.file.stem}\n"
            if target.index >= 0:
                label = shown(target.file, self.folder)
                if target.new:  # the header's new column, unless an earlier change of this edit made it
                    header, _ = cells(text, len(text) - len(text.removeprefix("\ufeff")), target.delimiter)
                    if len(header) <= target.index:
                        text = set_cell(text, 1, target.index, target.column, target.delimiter, label)
                text = set_cell(text, target.line, target.index, cell(value), target.delimiter, label)
            else:
                text = yamltext.set_value(text, target.path, value, shown(target.file, self.folder))
            texts[target.file] = text
        return texts
