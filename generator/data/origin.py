"""Where each value of a loaded piece came from, recorded while the loader has the data at hand.

One account for everyone who names a value's place: a warning while drawing (`cards.csv:7: title: …`), the
studio's list of faces (`chits.yaml:12`) and the studio's writes (the key path of a YAML value, the cell of a
spreadsheet's row, the item's name in an overrides folder's `overrides.yaml`). Nobody reads a game's files a
second time to find where an item was written.

A set has thousands of pieces, so the record is small: a component's part (its file, its place, its
spreadsheet) is shared by all its items, an item's part (its place and line) by its faces and player colours,
and the names and key paths of a face's fields by every face given the same fields from the same places. Each
face keeps only the lines of its fields.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .yamlio import line_of

WORKBOOK_SUFFIXES = (".xlsx", ".ods")
ITEM, COMPONENT = "item", "component"  # the first part of a field's path: where it is written (see Shape)
COPIES = "copies"  # an option's changes that only some of an item's copies take: how many (see model.Item)


def column_letters(index: int) -> str:
    """A spreadsheet's name for the column at `index` (from 0): A … Z, AA …"""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


@dataclass(frozen=True, slots=True, eq=False)  # one object for each: compared as itself
class Table:
    """The spreadsheet a component's items were read from (shared by its rows): a CSV/TSV file, a workbook's
    sheet, or a sheet published on the web (`file` None). `header` holds its columns as written, `columns` the
    column each field that `columns:` maps was read from."""

    label: str  # as errors name it: the file, `FILE:SHEET` for a workbook, the address of a published sheet
    file: str | None
    sheet: str | None
    header: tuple[str, ...]
    columns: Mapping[str, str]
    delimiter: str = ","

    @property
    def kind(self) -> str:
        if self.file is None:
            return "published"
        return "workbook" if Path(self.file).suffix.lower() in WORKBOOK_SUFFIXES else "csv"

    def column(self, field: str) -> str:
        """The column a field (`title`, `back.title`) is read from: its own name unless `columns:` maps one."""
        return self.columns.get(field, field)


@dataclass(frozen=True, slots=True, eq=False)  # one object for each: compared as itself
class Overriding:
    """The overrides.yaml of an overrides folder, as loaded: where a change not written yet goes."""

    file: str
    data: Any

    def line(self, path: tuple) -> int:
        """The line of the deepest part of `path` the file holds: where a new key under it is written."""
        return line_of(self.data, path) or 1


@dataclass(frozen=True, slots=True, eq=False)  # one object for each: compared as itself
class ComponentOrigin:
    """Where a component was written: its file, its id and place in the file's list, and its spreadsheet."""

    file: str
    id: str
    index: int
    table: Table | None = None
    overrides: Overriding | None = None  # the overrides.yaml that changes it, when the game is an overrides folder


@dataclass(frozen=True, slots=True, eq=False)  # one object for each: compared as itself
class ItemOrigin:
    """Where one item was written (its key path in the component's YAML, or its row in the spreadsheet), shared
    by its faces and player colours. `key`: the name an overrides.yaml changes it by (name, title or label),
    None when it has none; `lone`: the component's only item (its overrides then go on the component)."""

    component: ComponentOrigin
    index: int
    line: int
    key: str | None = None
    lone: bool = False
    set_by: Mapping | None = None  # overrides: a field's path in the item -> (line, path) of overrides.yaml
    split: int = 0  # the copies an option's variant takes (the option on): the item's own piece counts the rest


@dataclass(frozen=True, slots=True)
class Where:
    """One value's place. `path` is its key path in `file` (YAML); a spreadsheet's value has `column` (as
    written), its `index` (from 0) and `row`. `how` says how it came: the item's own, the component's for
    every item, an option's variant (`option NAME`), the overrides folder's, or the layout's default. `given`:
    the value is written there now (else that is where the item's own value would go)."""

    file: str
    line: int
    path: tuple = ()
    how: str = ITEM
    given: bool = True
    column: str = ""
    index: int = -1
    sheet: str | None = None
    mapped: bool = False  # the column's name differs from the field's: `columns:` maps it

    @property
    def cell(self) -> str:
        """`C7`: the cell a spreadsheet's value is in (empty for YAML, or a column the sheet lacks)."""
        return f"{column_letters(self.index)}{self.line}" if self.index >= 0 else ""

    def shown(self, folder: Path | None = None) -> str:
        """`cards.csv:7, cell C7 (title)` or `cards.yaml:12`: as a designer reads it."""
        name = Path(self.file).name
        if folder is not None:
            try:
                name = str(Path(self.file).resolve().relative_to(folder.resolve()))
            except ValueError:
                pass
        if self.sheet is not None:
            name = f"{name}, sheet {self.sheet}"
        if self.column:
            place = f"cell {self.cell} ({self.column})" if self.index >= 0 else f"row {self.line}, a new column " \
                                                                                f"{self.column}"  # not in the sheet
            return f"{name}:{self.line}, {place}" if self.sheet is None else f"{name}, {place}"
        return f"{name}:{self.line}"


@dataclass(frozen=True, slots=True)
class Shape:
    """The fields a face was given and where each is written, shared by every face alike in that: `names` are
    the fields ("" first: the item itself), `paths` each one's key path, from the item (`item`, …) or from the
    component (`component`, `front`, …)."""

    names: tuple[str, ...]
    paths: tuple[tuple, ...]


class Origin(Mapping):
    """Where a face's values came from: a mapping of its fields to their lines (what a warning names; "" is
    the item's own line), and `where(field)`, each value's whole place."""

    __slots__ = ("item", "shape", "numbers", "side")

    def __init__(self, item: ItemOrigin, shape: Shape, numbers: tuple[int, ...], side: str):
        self.item, self.shape, self.numbers, self.side = item, shape, numbers, side

    def __getitem__(self, key: str) -> int:
        try:
            return self.numbers[self.shape.names.index(key)]
        except ValueError:
            raise KeyError(key) from None

    def __iter__(self):
        return iter(self.shape.names)

    def __len__(self) -> int:
        return len(self.shape.names)

    @property
    def table(self) -> Table | None:
        return self.item.component.table

    @property
    def file(self) -> str:
        """The file the item was written in: its spreadsheet, or its component's YAML (a card an overrides
        folder's `add:` brings: its overrides.yaml)."""
        table, item = self.table, self.item
        if table is not None:
            return table.file or table.label
        return item.component.overrides.file if () in (item.set_by or {}) else item.component.file

    def where(self, field: str) -> Where:
        """Where the face's `field` (or `count`) came from; for a field the data does not give (the layout's
        default), where the item's own value would go."""
        names = self.shape.names
        if field in names and field:
            index = names.index(field)
            return self._placed(self.shape.paths[index], self.numbers[index])
        return self._placed((ITEM, *self.own(field)), self.numbers[0], "layout")

    def mine(self, field: str) -> Where:
        """Where the item's own value of `field` is, or would go: the value itself when the item (or its
        option's variant) gives it, else its place on the item, a key or a cell not written yet."""
        where = self.where(field)
        if where.how == COMPONENT or where.how == "layout":
            return self._placed((ITEM, *self.own(field)), self.numbers[0], ITEM)
        return where

    def written_count(self, count: int) -> int:
        """The item's count for this face's count of `count`: an item whose option's variant takes some of its
        copies counts them too (the face without the star is 16 of Attack's 20), its variant's face its own."""
        shape = self.shape
        return count + self.item.split if shape.paths[shape.names.index("count")] == (ITEM, "count") else count

    def own(self, field: str) -> tuple:
        """The key path, from the item, of the item's own value of `field` on this side."""
        return (field,) if field == "count" or self.side == "front" else ("back", field)

    def _placed(self, path: tuple, line: int, unwritten: str = "") -> Where:
        """A value's place from its path (`unwritten`: how a value not written there comes instead)."""
        item, component = self.item, self.item.component
        base, rest = path[0], path[1:]
        how = COMPONENT if base == COMPONENT else f"option {rest[1]}" if rest[:1] == ("with_option",) else ITEM
        how, given = unwritten or how, not unwritten
        set_by = (item.set_by or {}).get(rest if base == ITEM else (COMPONENT, *rest))
        if set_by is not None:
            return Where(component.overrides.file, set_by[0], set_by[1], "override")
        table = component.table
        if base == ITEM and table is not None:  # a cell of the item's row (an option's variant: its one cell)
            column = table.column("with_option" if rest[:1] == ("with_option",) else ".".join(rest))
            index = table.header.index(column) if column in table.header else -1
            return Where(table.file or table.label, item.line, (), how, given and index >= 0, column, index,
                         table.sheet, column != ".".join(rest))
        start = ("components", component.index) + (("items", item.index) if base == ITEM else ())
        return Where(component.file, line, start + rest, how, given)
