"""The card list beside the faces: every component's items as rows, and the changes made to them as a list
(a card added, copied, deleted, moved; one column set for many cards at once), each written to the file the
list came from in that file's own style (rows.py) as one step of the studio's journal, so Undo takes it back.

The list's file is found through the component (its YAML file and its `items:`): a YAML list in that file, a
CSV or TSV beside it; a workbook or a published sheet is shown and never written: the page is told the rows
to add or delete there. An overrides folder (Customise) writes its cards to overrides.yaml (overrides.py:
`add:`, `remove:`, `order:` and `items:`).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from flask import Blueprint, jsonify, request

from ..data.errors import DataError
from ..data.overrides import OVERRIDES_FILE, item_key
from ..data.inside import INSIDE
from ..data.spreadsheet import WORKBOOK_SUFFIXES, cell_value, csv_delimiter, is_published, table_file, table_name
from ...resources import components_dir
from . import rows, yamltext

bp = Blueprint("cardlist", __name__)
BUILTIN = "one of starpnp's own games: press Customise to make a copy of your own to change its cards"
NAME_FIELDS = ("title", "name", "label")  # what names a card (overrides.yaml names items by these too)
MOST_ROWS_SHOWN = 5000
FIELD_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # a key a YAML item's column may be set under


@dataclass
class CardList:
    """One component's items as the list shows them, and where they are written: `kind` is csv, yaml or
    overrides, or `why` says why the list is read-only (and where to change it)."""

    component: str
    name: str
    kind: str
    file: Path | None
    shown: str
    columns: list[str] = field(default_factory=list)
    rows: list[dict[str, str]] = field(default_factory=list)
    path: tuple = ()
    delimiter: str = ","
    why: str | None = None
    lines: list[int] = field(default_factory=list)  # each row's line (a sheet's row number)
    mapped: dict[str, str] = field(default_factory=dict)  # field -> column (`columns:`)
    keys: list[str | None] = field(default_factory=list)  # an overrides folder: each card's name there
    origins: dict[int, Any] = field(default_factory=dict)  # an overrides folder: each card's record in the load

    def summary(self) -> dict:
        return {"component": self.component, "name": self.name, "kind": self.kind, "file": self.shown,
                "writable": self.why is None, "why": self.why, "columns": self.columns,
                "rows": [{"values": row, "line": line} for row, line in zip(self.rows, self.lines)]}

    def names(self, indexes: list[int]) -> str:
        """The cards at `indexes` as a person names them: their titles (or row numbers)."""
        named = [self.card_name(index) for index in indexes[:3] if isinstance(index, int)
                 and 0 <= index < len(self.rows)]
        more = len(indexes) - len(named)
        return ", ".join(named) + (f" and {more} more" if more > 0 else "")

    def card_name(self, index: int) -> str:
        row = self.rows[index]
        for name in NAME_FIELDS:
            column = self.mapped.get(name, name)
            if row.get(column):
                return row[column]
        return f"card {index + 1}"


def shown_name(path: Path, folder: Path) -> str:
    try:
        return str(path.resolve().relative_to(folder.resolve()))
    except ValueError:
        return path.name


def text_of(path: Path, folder: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise DataError(f"{shown_name(path, folder)}: not UTF-8 text; save it as UTF-8") from None


def component_node(text: str, component_id: str, label: str) -> tuple[int, yaml.Node]:
    components = yamltext.child(yamltext.compose(text, label), "components")
    for index, node in enumerate(getattr(components, "value", [])):
        found = yamltext.child(node, "id")
        if found is not None and found.value == component_id:
            return index, node
    raise DataError(f"{label}: no component {component_id!r} (saved meanwhile?); reload the page")


def shown_value(value: Any) -> str:
    """A YAML item's value as a cell of the list shows it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, default=str)
    return str(value)


def read_list(folder: Path, comp) -> CardList:
    """The list of `comp` (a loaded component) as its files now hold it."""
    source = Path(comp.source)
    name, cid = comp.spec.name, comp.spec.id
    if (folder / OVERRIDES_FILE).is_file() and not (folder / "game.yaml").is_file():
        return overridden_list(folder, comp)
    builtin = folder.resolve().parent == components_dir().resolve()
    label = shown_name(source, folder)
    text = text_of(source, folder)
    index, _ = component_node(text, cid, label)
    data = yaml.load(text, Loader=yaml.CSafeLoader)["components"][index]
    items = data.get("items")
    mapped = {field_: column for column, field_ in (data.get("columns") or {}).items()}
    if isinstance(items, list):
        listed = yaml_rows(CardList(cid, name, "yaml", source, label, path=("components", index, "items")), items)
        if builtin:
            listed.why = BUILTIN
        return listed
    if is_published(items):
        return CardList(cid, name, "sheet", None, str(items)[:80], why=f"the sheet published at {str(items)[:60]}: "
                        f"add, delete or move its rows there; the studio shows them once it is published again")
    named = table_name(items)
    if named is None:
        raise DataError(f"{label}: components.{cid}.items: neither a list nor a spreadsheet")
    file = table_file(source.parent, named[0])
    if file is None:  # the loader refuses it too: named here only if the folder changed since
        raise DataError(f"{label}: components.{cid}.items: {named[0][:60]!r}: a spreadsheet {INSIDE}")
    shown = shown_name(file, folder)
    if file.suffix.lower() in WORKBOOK_SUFFIXES:
        return workbook_list(CardList(cid, name, "workbook", file, shown, mapped=mapped), named[1])
    csv_text = text_of(file, folder)
    delimiter = csv_delimiter(file, csv_text.removeprefix("\ufeff"))
    starts: list[int] = []
    _, header, records = rows.csv_pieces(csv_text, delimiter, shown, starts)
    listed = CardList(cid, name, "csv", file, shown, header, delimiter=delimiter, mapped=mapped)
    listed.rows = [dict(zip(header, record)) for record in records][:MOST_ROWS_SHOWN]
    listed.lines = starts[:MOST_ROWS_SHOWN]
    if builtin:
        listed.why = BUILTIN
    return listed


def yaml_rows(listed: CardList, items: list) -> CardList:
    columns: list[str] = []
    for item in items:
        for key in item if isinstance(item, dict) else ():
            if str(key) not in columns:
                columns.append(str(key))
    listed.columns = columns
    listed.rows = [{str(k): shown_value(v) for k, v in item.items()} if isinstance(item, dict) else {}
                   for item in items][:MOST_ROWS_SHOWN]
    listed.lines = [0] * len(listed.rows)
    return listed


def workbook_list(listed: CardList, sheet: str | None) -> CardList:
    from ..data.workbook import read_workbook

    name, records = read_workbook(listed.file, sheet)
    header = [str(cell).strip() for cell in (records[0] if records else [])]
    listed.columns = header
    numbered = [(number, record) for number, record in enumerate(records[1:], start=2) if any(map(str, record))]
    listed.rows = [dict(zip(header, map(str, record))) for _, record in numbered][:MOST_ROWS_SHOWN]
    listed.lines = [number for number, _ in numbered][:MOST_ROWS_SHOWN]
    listed.why = (f"{listed.shown}, sheet {name}: the studio does not write workbooks; add, delete or move rows "
                  f"there and save")  # the first part (to the colon) names the sheet: sheet_instruction
    return listed


def overridden_list(folder: Path, comp) -> CardList:
    """The cards of a Customise copy: the extended game's items with the copy's changes (overrides.py), each
    named as overrides.yaml names it; written to the copy's overrides.yaml (`add:`, `remove:`, `order:`,
    `items:`)."""
    from ..data.overrides import apply_overrides
    from ..look.loader import find_game

    over = apply_overrides(folder, find_game)
    data = next((raw for path, raw in over.files.items() if Path(path).resolve() == Path(comp.source).resolve()), {})
    found = next((c for c in data.get("components", []) if isinstance(c, dict) and c.get("id") == comp.spec.id), {})
    listed = yaml_rows(CardList(comp.spec.id, comp.spec.name, "overrides", folder / OVERRIDES_FILE, OVERRIDES_FILE,
                                path=("components", comp.spec.id)), list(found.get("items", [])))
    listed.keys = [item_key(item) for item in found.get("items", [])]
    for piece in comp.pieces:  # where the load says each card was written (a card `add:` brings: its entry)
        listed.origins.setdefault(piece.front.origin.item.index, piece.front.origin)
    return listed


# ---- the changes ----------------------------------------------------------------------------------------

def parsed(value: Any) -> Any:
    """A value typed in the list, as a YAML item holds it: a whole number or a decimal is a number, `[a, b]`
    a list (as a spreadsheet's cell reads, spreadsheet.cell_value)."""
    if isinstance(value, bool) or isinstance(value, (int, float)):
        return value
    text = str(value).strip()
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return cell_value(text, "value")


def empty_card(listed: CardList) -> dict[str, Any]:
    """A new card: one copy, titled so it can be found; the layout's defaults give the rest."""
    values: dict[str, Any] = {"count": 1}
    for name in NAME_FIELDS:
        column = listed.mapped.get(name, name)
        if listed.kind == "yaml" and (column in listed.columns or name == "title" and not
                                      any(n in listed.columns for n in NAME_FIELDS)):
            values[column] = rows.NEW_TITLE
            break
        if listed.kind == "csv" and column in listed.columns:
            values[column] = rows.NEW_TITLE
            break
    if listed.kind == "csv":
        values["count"] = 1 if "count" in listed.columns else None
    return values


def changed_text(listed: CardList, folder: Path, action: str, body: dict, sources) -> tuple[str, str]:
    """The list's file text with `action` made, and the step's label as Undo says it; `sources`: the studio's
    (edits.Sources), where an overrides folder's card takes a value as the large view's edit writes it."""
    if listed.kind == "workbook":
        raise ReadOnlyList(sheet_instruction(listed, action, body))
    if listed.why is not None:
        raise ReadOnlyList(listed.why)
    text = text_of(listed.file, folder)
    if listed.kind == "overrides":
        return overrides_text(listed, text, action, body, sources)
    label, kind = listed.shown, listed.kind
    where = f"{listed.name} ({listed.shown})"
    if action == "add":
        at = body.get("at", len(listed.rows))
        values = empty_card(listed)
        if kind == "csv":
            return rows.csv_add(text, listed.delimiter, at, values, label), f"a new card in {where}"
        return rows.yaml_add(text, listed.path, at, values, label), f"a new card in {where}"
    chosen = body.get("rows")
    if action == "move":
        chosen = [body.get("row")]
    if not isinstance(chosen, list) or not chosen:
        raise DataError("rows: expected the list's row numbers (from 0) of the cards chosen")
    names = listed.names(chosen)
    if action == "copy":
        new = (rows.csv_copy(text, listed.delimiter, chosen, label) if kind == "csv"
               else rows.yaml_copy(text, listed.path, chosen, label))
        return new, f"a copy of {names} in {where}"
    if action == "delete":
        new = (rows.csv_delete(text, listed.delimiter, chosen, label) if kind == "csv"
               else rows.yaml_delete(text, listed.path, chosen, label))
        return new, f"{names} deleted from {where}"
    if action == "move":
        to = body.get("to")
        new = (rows.csv_move(text, listed.delimiter, chosen[0], to, label) if kind == "csv"
               else rows.yaml_move(text, listed.path, chosen[0], to, label))
        return new, f"{names} moved to place {to + 1 if isinstance(to, int) else to} in {where}"
    if action == "set":
        column, value = body.get("column"), body.get("value")
        if not isinstance(column, str) or not column:
            raise DataError("column: expected the name of one of the list's columns")
        if not isinstance(value, (str, int, float, bool)):
            raise DataError("value: expected text or a number")
        if isinstance(value, str) and not all(0xD800 > ord(c) or ord(c) > 0xDFFF for c in value):
            raise DataError("value: not text (a lone surrogate)")
        if kind == "csv":
            new = rows.csv_set(text, listed.delimiter, chosen, column, shown_value(value), label)
        else:
            if not FIELD_KEY.fullmatch(column):
                raise DataError(f"column: {column[:40]!r} is not a field name (letters, digits and _)")
            new = rows.yaml_set(text, listed.path, chosen, column, parsed(value), label)
        count = len(set(c for c in chosen if isinstance(c, int)))
        return new, f"{column} = {shown_value(value)[:40]} on {count} card{'s' if count != 1 else ''} of {where}"
    raise DataError(f"{action}: no such change of the list")


NEW_LIST = "studio-new-list"  # a key's placeholder value, replaced by the list it is given at once


def put_list(text: str, path: tuple, values: list, label: str) -> str:
    """`path` holding the list `values`: where the file has the list, its items that differ written in place
    and new ones added in the list's own style; else a new key holding `[a, b]` (the component's own entry
    made as block lines when the file has none yet)."""
    if NEW_LIST in text:
        raise DataError(f"{label}: holds the word {NEW_LIST}; change it in an editor")
    root = yamltext.compose(text, label)
    node = yamltext.find(root, path)
    if isinstance(node, yaml.SequenceNode) and node.value:
        held = _at(yaml.load(text, Loader=yaml.CSafeLoader), path)
        for index, value in enumerate(values[:len(held)]):
            if held[index] != value:
                text = yamltext.set_value(text, path + (index,), value, label)
        for index, value in enumerate(values[len(held):], start=len(held)):
            text = rows.yaml_add(text, path, index, value, label)
        return text
    parents = yamltext.find(root, path[:-2])
    if yamltext.find(root, path[:-1]) is None and not getattr(parents, "flow_style", False):
        placed = yamltext.set_value(text, path[:-1], NEW_LIST, label)  # `  abilities: NEW_LIST`
        at = placed.index(NEW_LIST)
        line = placed[placed.rfind("\n", 0, at) + 1:at]
        indent = len(line) - len(line.lstrip(" ")) + 2
        written = yamltext.newline(text) + " " * indent + f"{yamltext.key_text(path[-1])}: {rows.flow_text(values)}"
        return placed[:at].rstrip(" ") + written + placed[at + len(NEW_LIST):]
    placed = yamltext.set_value(text, path, NEW_LIST, label)
    at = placed.index(NEW_LIST)
    return placed[:at] + rows.flow_text(values) + placed[at + len(NEW_LIST):]


def _at(data: Any, path: tuple) -> Any:
    for key in path:
        data = data[key]
    return data


def overrides_text(listed: CardList, text: str, action: str, body: dict, sources) -> tuple[str, str]:
    """overrides.yaml with a card added (`add:`), copied (`add: [{like: NAME, …}]`), deleted (`remove:`),
    moved (`order:`, every card named) or one field set on many, each where an edit of it in the large view
    writes it (`items: {NAME: {field: value}}`; a card `add:` brings: its own entry there)."""
    cid, label, where = listed.component, listed.shown, f"{listed.name} (your copy)"
    path = ("components", cid)
    data = yaml.load(text, Loader=yaml.CSafeLoader) or {}
    mine = ((data.get("components") or {}).get(cid) or {}) if isinstance(data, dict) else {}
    names = list(listed.keys)
    named_by = [key for key in NAME_FIELDS if any(key in row for row in listed.rows)] or ["title"]

    def free(name: str) -> str:
        number, taken = 2, set(names)
        chosen_name = name
        while chosen_name in taken:
            chosen_name, number = f"{name} {number}", number + 1
        return chosen_name

    def listed_names(indexes: Any) -> list[str]:
        if not isinstance(indexes, list) or not indexes:
            raise DataError("rows: expected the list's row numbers (from 0) of the cards chosen")
        found = []
        for index in indexes:
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(names):
                raise DataError(f"{label}: card {rows.said(index)}: the list has cards 0 to {len(names) - 1} (reload the page?)")
            if names[index] is None:
                raise DataError(f"{label}: card {index + 1} has no name, title or label, which {OVERRIDES_FILE} "
                                f"names cards by")
            found.append(names[index])
        return list(dict.fromkeys(found))

    def added(value: dict) -> str:
        return put_list(text, path + ("add",), list(mine.get("add") or []) + [value], label)

    if action == "add":
        name = free(rows.NEW_TITLE)
        return added({**{key: name for key in named_by}, "count": 1}), f"a new card in {where}"
    if action == "copy":
        chosen = listed_names(body.get("rows"))
        new = list(mine.get("add") or [])
        for name in chosen:
            key = next(k for k in NAME_FIELDS if listed.rows[names.index(name)].get(k) == name)
            copy_name = free(name)
            names.append(copy_name)
            new.append({"like": name, key: copy_name})
        return put_list(text, path + ("add",), new, label), f"a copy of {', '.join(chosen)} in {where}"
    if action == "delete":
        chosen = listed_names(body.get("rows"))
        if len(chosen) >= len(names):
            raise DataError(f"{label}: a list keeps at least one card; add another before deleting the last")
        gone = list(mine.get("remove") or []) + [n for n in chosen if n not in (mine.get("remove") or [])]
        return put_list(text, path + ("remove",), gone, label), f"{', '.join(chosen)} deleted from {where}"
    if action == "move":
        (name,) = listed_names([body.get("row")])
        to = body.get("to")
        if isinstance(to, bool) or not isinstance(to, int) or not 0 <= to < len(names):
            raise DataError(f"{label}: place {rows.said(to)}: a card goes at 0 to {len(names) - 1} (reload the page?)")
        if any(n is None for n in names):
            raise DataError(f"{label}: a card has no name, title or label, which order: names cards by")
        order = [n for n in names if n != name]
        order.insert(to, name)
        return put_list(text, path + ("order",), order, label), f"{name} moved to place {to + 1} in {where}"
    if action == "set":
        chosen = listed_names(body.get("rows"))
        column, value = body.get("column"), body.get("value")
        if not isinstance(column, str) or not FIELD_KEY.fullmatch(column):
            raise DataError("column: expected a field name (letters, digits and _)")
        if not isinstance(value, (str, int, float, bool)):
            raise DataError("value: expected text or a number")
        cards = [listed.origins.get(index) for index in dict.fromkeys(body["rows"])]
        if None in cards:
            raise DataError(f"{label}: a card chosen was not loaded (the folder changed?); reload the page")
        for origin in cards:
            text = yamltext.set_value(text, sources.target(origin, column).path, parsed(value), label)
        count = len(chosen)
        return text, f"{column} = {shown_value(value)[:40]} on {count} card{'s' if count != 1 else ''} of {where}"
    raise DataError(f"{action}: no such change of the list")


def sheet_instruction(listed: CardList, action: str, body: dict) -> str:
    """What to do in a workbook for a change the studio does not write there: its rows and cells named."""
    def row(index: Any) -> int | None:
        return listed.lines[index] if isinstance(index, int) and 0 <= index < len(listed.lines) else None

    chosen = body.get("rows") if isinstance(body.get("rows"), list) else []
    numbers = [n for n in map(row, chosen) if n is not None]
    said = ", ".join(map(str, numbers[:8])) + (" …" if len(numbers) > 8 else "")
    sheet = listed.why.split(":")[0]
    if action == "add":
        at = body.get("at")
        after = row(at - 1) if isinstance(at, int) and at > 0 else None
        todo = f"insert a row after row {after}" if after else "insert a row under the header"
    elif action == "copy" and numbers:
        todo = f"copy row{'s' if len(numbers) > 1 else ''} {said} and insert each copy under it"
    elif action == "delete" and numbers:
        todo = f"delete row{'s' if len(numbers) > 1 else ''} {said}"
    elif action == "move" and row(body.get("row")) and row(body.get("to")):
        todo = f"move row {row(body.get('row'))} to row {row(body.get('to'))}"
    elif action == "set" and numbers and body.get("column") in listed.columns:
        from ..data.origin import column_letters

        letter = column_letters(listed.columns.index(body["column"]))
        todo = f"set cell{'s' if len(numbers) > 1 else ''} {', '.join(f'{letter}{n}' for n in numbers[:8])} " \
               f"({body['column']})"
    else:
        todo = "make the change"
    return f"{sheet}: the studio does not write workbooks: {todo} there and save; the list shows it at once"


class ReadOnlyList(DataError):
    """A list the studio does not write; the line says where to change it."""


@dataclass(frozen=True)
class ListKey:
    """What two tabs' changes to one list are compared by: its file (any change to it moves the rows)."""

    file: Path

    @property
    def key(self) -> tuple:
        return (str(self.file.resolve()), ("items",))


def change_list(writeback, component: str, action: str, body: dict, version: int, tab: str) -> dict:
    """Make `action` on the list of `component` as one step of the journal (one write, one load)."""
    from .writeback import Refused, Stale

    with writeback.lock:
        desk = writeback.desk
        comp = next((c for c in (desk.game.components if desk.game else ()) if c.spec.id == component), None)
        if comp is None:
            raise DataError(f"component: no component {component[:40]!r} in this game (reload the page)")
        listed = read_list(desk.folder, comp)
        try:
            text, label = changed_text(listed, desk.folder, action, body, writeback.sources)
        except ReadOnlyList as exc:
            raise Refused(str(exc), readonly=True) from None
        file = listed.file.resolve()
        for then, other, values in writeback.journal.changes:
            if then > version and other != tab and any(key[0] == str(file) for key in values):
                raise Stale(f"{listed.shown} was changed in another tab since this page's version {version}; "
                            f"nothing was written")
        done = writeback._commit(label, {listed.file: text}, version, tab=tab, values=[ListKey(listed.file)])
        return {"version": done, "done": label}


# ---- the endpoints -----------------------------------------------------------------------------------

@bp.get("/cards")
def cards():
    """Every component's list (`?component=ID`: that one's) as the card list shows it."""
    from .views import desk, refused

    d = desk()
    wanted = request.args.get("component")
    comps = [c for c in (d.game.components if d.game else ()) if wanted in (None, c.spec.id)]
    if wanted is not None and not comps:
        return refused("component: no such component", 404)
    lists = []
    for comp in comps:
        try:
            lists.append(read_list(d.folder, comp).summary())
        except DataError as exc:
            lists.append({"component": comp.spec.id, "name": comp.spec.name, "writable": False,
                          "why": str(exc).splitlines()[0], "columns": [], "rows": [], "file": ""})
    return jsonify(lists=lists, version=d.version)


@bp.post("/cards/<action>")
def change(action: str):
    from .views import changed, json_body, tab, version_of, writeback, refused

    if action not in ("add", "copy", "delete", "move", "set"):
        return refused("not found", 404)
    body = json_body("component", "version")
    component = body["component"]
    if not isinstance(component, str):
        return refused("component: expected a component's id")
    return changed(lambda: change_list(writeback(), component, action, body, version_of(body["version"]), tab()),
                   {"id": "", "set": {}, "version": body["version"]})


def install(app) -> None:
    app.register_blueprint(bp)
