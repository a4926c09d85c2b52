"""Where each value a studio face shows was written, and the file's text with a new value written there.

A face's item was written in one place: a row of a spreadsheet, an item of a component's YAML list, or (in
an overrides folder) nowhere of the person's own, so its changes go to `overrides.yaml` under the item's
name. A value is written where it was given: the item's own cell or key, a new key on the item when the
component or the layout gave it (the item then differs from the others, as the person asked), or the
layout file for a box's place. Nothing else of the file changes (yamltext, csvcell).
"""
from __future__ import annotations

import functools
import types
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import yaml
from pydantic.fields import FieldInfo

from ..data.errors import DataError
from ..data.model import PieceSpec, ResolvedComponent
from ..data.palette import checked_color
from ..data.overrides import OVERRIDES_FILE
from ..data.spreadsheet import DECIMAL, WHOLE, WORKBOOK_SUFFIXES, csv_delimiter, csv_records
from ..look.layouts import LAYOUTS_FOLDER
from ..look.layouts.base import known_icon
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
        return f"{name}:{self.line}" + (" (a new key)" if self.new else "")


@functools.lru_cache(maxsize=4096)  # a face's every field names its file: 20 faces resolved 680 paths (0.14 s)
def shown(path: Path, folder: Path) -> str:
    """A file as the page names it: relative to the game folder when inside it."""
    try:
        return str(path.resolve().relative_to(folder.resolve()))
    except ValueError:
        return path.name


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


def column_letters(index: int) -> str:
    """A spreadsheet's name for the column at `index` (from 0): A … Z, AA …"""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def cell(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


@dataclass(frozen=True)
class Place:
    """Where a face's item lies: its YAML path in `file`, or its row in a spreadsheet (`columns` its header)."""

    file: Path
    line: int
    path: tuple = ()  # YAML: the item's keys (an overrides file: components.ID.items.NAME)
    columns: tuple = ()  # a CSV's header
    delimiter: str = ","
    single: tuple = ()  # overrides of a one-item component with no name: its component's path
    elsewhere: str = ""  # a workbook's sheet or a published sheet, which the studio does not write
    mapped: tuple = ()  # (field, column) pairs of the component's `columns:`, as the loader read them


class Sources:
    """The files of one game folder as text and as composed YAML, read again only when they change."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.read: dict[Path, tuple[tuple, str, Any]] = {}  # path -> (stat, text, composed YAML)
        self.headers: dict[tuple, tuple] = {}  # (workbook, sheet) -> (stat, its column names)

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

    # -- where an item lies -------------------------------------------------------------------------------

    def place(self, comp: ResolvedComponent, piece: PieceSpec, side: str) -> Place:
        if self.builtin:
            raise ReadOnly(BUILTIN)
        lines = (piece.front if side == "front" else piece.back).lines
        source, line = Path(comp.source), lines.get("")
        index, component = self._component(source, comp.spec.id)
        items = yamltext.child(component, "items")
        if self.overrides:
            return self._overridden(source, comp, component, items, line)
        table = lines.table if hasattr(lines, "table") else None
        if table is not None:
            place = self._row(source, items, table, line)
            return replace(place, mapped=tuple(getattr(lines, "columns", {}).items()))
        item = self._item(source, items, line)
        return Place(source, line, ("components", index, "items", item))

    def _component(self, source: Path, component_id: str) -> tuple[int, Any]:
        components = yamltext.child(self.tree(source), "components")
        for index, node in enumerate(getattr(components, "value", [])):
            found = yamltext.child(node, "id")
            if found is not None and found.value == component_id:
                return index, node
        raise DataError(f"{source.name}: no component {component_id!r} (saved meanwhile?); reload the page")

    def _item(self, source: Path, items: Any, line: int) -> int:
        for index, node in enumerate(getattr(items, "value", [])):
            if node.start_mark.line + 1 == line:
                return index
        raise DataError(f"{source.name}:{line}: no item here any more (saved meanwhile?); reload the page")

    def _row(self, source: Path, items: Any, table: str, line: int) -> Place:
        named = items.value if isinstance(items, yaml.ScalarNode) else yamltext.child(items, "file").value
        if named.lower().startswith(("https://", "http://")):
            return Place(source, line, elsewhere=f"the sheet published at {named[:60]}")
        file = source.parent / named
        if file.suffix.lower() in WORKBOOK_SUFFIXES:
            sheet = table.rsplit(":", 1)[-1]
            return Place(file, line, columns=self._sheet_header(file, sheet),
                         elsewhere=f"{shown(file, self.folder)}, sheet {sheet}")
        text = self.text(file).removeprefix("\ufeff")
        delimiter = csv_delimiter(file, text)
        header = next(csv_records(text, delimiter, shown(file, self.folder)), (1, 0, []))[2]
        columns = tuple(name.strip() for name in header)
        return Place(file, line, columns=columns, delimiter=delimiter)

    def _sheet_header(self, file: Path, sheet: str) -> tuple:
        """A workbook sheet's column names, read again only when the file changes."""
        from ..data.workbook import read_workbook

        info = file.stat()
        key, stamp = (file, sheet), (info.st_mtime_ns, info.st_size)
        if self.headers.get(key, (None,))[0] != stamp:
            rows = read_workbook(file, sheet)[1]
            self.headers[key] = (stamp, tuple(name.strip() for name in (rows[0] if rows else ())))
        return self.headers[key][1]

    def _overridden(self, source: Path, comp: ResolvedComponent, component: Any, items: Any, line: int) -> Place:
        """An item of the game an overrides folder extends: its changes go under its name in overrides.yaml."""
        mine = self.folder / OVERRIDES_FILE
        cid = comp.spec.id
        key = None
        if isinstance(items, yaml.SequenceNode):
            node = items.value[self._item(source, items, line)]
            key = next((found.value for name in ("name", "title", "label")
                        if isinstance(found := yamltext.child(node, name), yaml.ScalarNode)
                        and found.tag.endswith(":str")), None)
        if key is not None:
            return Place(mine, line, ("components", cid, "items", key))
        if isinstance(items, yaml.SequenceNode) and len(items.value) == 1:
            return Place(mine, line, single=("components", cid))
        raise ReadOnly(f"{source.name}:{line}: this item has no name, title or label, which {OVERRIDES_FILE} "
                       f"names items by")

    # -- where a value is written ---------------------------------------------------------------------------

    def target(self, comp: ResolvedComponent, piece: PieceSpec, side: str, field: str,
               place: Place | None = None) -> Target:
        """Where `field` of the face is written (`place`: the item's, when already found)."""
        place = place or self.place(comp, piece, side)
        column = field if field == "count" or side == "front" else f"back.{field}"
        column = dict(place.mapped).get(column, column)  # `columns: {name: title}`: title is the name column
        if place.elsewhere:
            if column in place.columns:
                cell = f"cell {column_letters(place.columns.index(column))}{place.line} ({column})"
            else:
                cell = f"row {place.line}, {'a new ' if place.columns else ''}column {column}"
            raise ReadOnly(f"{place.elsewhere}, {cell}: change it there and save; the studio shows it as soon as "
                           f"it is saved")
        if place.columns:
            if column in place.columns:
                return Target(place.file, place.line, column=column, index=place.columns.index(column),
                              delimiter=place.delimiter)
            if field not in ART_FIELDS:
                raise ReadOnly(f"{shown(place.file, self.folder)} has no {column} column: add one to give each "
                               f"row its own")
            # a picture dropped on a card of a list with no picture column yet: the header gains the column and
            # this row its cell (two lines change; the other rows, shorter than the header, read it as empty)
            return Target(place.file, place.line, column=column, index=len(place.columns),
                          delimiter=place.delimiter, new=True)
        if place.single:
            if field == "count":
                raise ReadOnly(f"{Path(comp.source).name}:{place.line}: count: this item has no name, which "
                               f"{OVERRIDES_FILE} names items by")
            path = place.single + (side, field)
        else:
            path = place.path + ((field,) if field == "count" or side == "front" else ("back", field))
        node = yamltext.find(self.tree(place.file), path)
        if node is not None:
            return Target(place.file, node.start_mark.line + 1, path)
        return Target(place.file, self._nearest(place.file, path) if self.overrides else place.line, path, new=True)

    def _nearest(self, file: Path, path: tuple) -> int:
        """The line of the deepest part of `path` the file already holds (where a new key goes)."""
        for depth in range(len(path), 0, -1):
            node = yamltext.find(self.tree(file), path[:depth])
            if node is not None:
                return node.start_mark.line + 1
        return 1

    def layout_targets(self, comp: ResolvedComponent, side: str, layout: str, box: str) -> list[Target]:
        """Where a box's x, y, w and h are written: where the component changes that box inline (`front:
        {layout: card, boxes: {title: …}}`), else the game's own layout file of that name, made (extending
        ours, or the extended game's) when the game has none: a game's `card.yaml` that extends `card`
        replaces ours by name, so no component need name another layout."""
        if self.builtin:
            raise ReadOnly(BUILTIN)
        source = Path(comp.source)
        if not self.overrides and source.is_file():
            index, _ = self._component(source, comp.spec.id)
            inline = ("components", index, side, "boxes", box)
            if yamltext.find(self.tree(source), inline) is not None:
                return [self._key_target(source, inline + (key,)) for key in ("x", "y", "w", "h")]
        own = self.folder / LAYOUTS_FOLDER / f"{layout}.yaml"
        return [self._key_target(own, ("boxes", box, key)) for key in ("x", "y", "w", "h")]

    def _key_target(self, file: Path, path: tuple) -> Target:
        if not file.exists():
            return Target(file, 1, path, new=True)
        node = yamltext.find(self.tree(file), path)
        if node is not None:
            return Target(file, node.start_mark.line + 1, path)
        return Target(file, self._nearest(file, path), path, new=True)

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
