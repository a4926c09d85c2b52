"""Item lists kept in a spreadsheet: `items: cards.csv` (or `.tsv`), one row per item.

Designers keep card lists in LibreOffice, Excel or Google Sheets. A row becomes the same item a YAML list
would hold: columns are item fields (`count`, `title`, `text`, …), a dotted column (`back.title`) fills a
nested field, an empty cell leaves the field out. A cell holding a whole number or a decimal is that number;
one written `[a, b]` is a list and `{key: value}` a mapping (YAML's flow style); anything else is text.
Every row remembers its spreadsheet row number (the header is row 1), so a problem reads
`cards.csv:ROW: column: message`.

A workbook (`items: cards.xlsx`, `.ods`, or `items: {file: game.xlsx, sheet: Cards}` for a sheet other than
the first) reads the same way, cell by cell as the designer sees it (workbook.py), and a problem names the
sheet too: `game.xlsx:Cards:7: count: message`.

The columns are the designer's: beside `items:`, `columns: {picture: art, "Card name": title}` reads a column
as the field it names, and `ignore: [base]` leaves helper columns out (a formula may still read them).
"""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any, Iterable, Iterator

import yaml

from .computed import Uncomputed
from .inside import INSIDE, named_inside
from .limits import MAX_CELL_CHARS, MAX_COLUMNS, MAX_ROWS, over
from .origin import WORKBOOK_SUFFIXES, Table  # workbook.py reads those; imported only when one is named
from .yamlio import (
    LINE_SEPARATORS, SEPARATOR, DataError, LineDict, LineList, NotYaml, dotted, line_of, parse_yaml, read_text,
)

TABLE_DELIMITERS = {".csv": ",", ".tsv": "\t"}
WHOLE = re.compile(r"-?(0|[1-9][0-9]*)")
DECIMAL = re.compile(r"-?(0|[1-9][0-9]*)\.[0-9]+")


class TableRows(LineList):
    """Items read from a spreadsheet; `label` names the file (and sheet) their lines (row numbers) belong to,
    `header` its columns as written, `written` the column each field mapped by `columns:` was read from, and
    `origin` says all of it as the record of where each value came from keeps it (data/origin.py)."""

    label: str
    header: list[str]
    written: dict[str, str]
    origin: Table


FIELD_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?")
COLUMN_KEYS = ("columns", "ignore")  # a component's keys that say how its spreadsheet's columns read


def table_name(value: Any) -> tuple[str, str | None] | None:
    """(file, sheet or None) when `items:` names a spreadsheet: `cards.csv`, `game.xlsx` or
    `{file: game.xlsx, sheet: Cards}`; None for a list of items."""
    if isinstance(value, dict) and set(value) <= {"file", "sheet"} and isinstance(value.get("file"), str):
        sheet = value.get("sheet")
        return value["file"], None if sheet is None else str(sheet)
    if isinstance(value, str) and Path(value).suffix.lower() in (*TABLE_DELIMITERS, *WORKBOOK_SUFFIXES):
        return value, None
    return None


def is_published(value: Any) -> bool:
    """`items: https://…`: a sheet published on the web as CSV (published.py, imported only then)."""
    return isinstance(value, str) and value.lower().startswith(("https://", "http://"))


def is_table(value: Any) -> bool:
    return table_name(value) is not None or is_published(value)


def table_file(folder: Path, name: str) -> Path | None:
    """The spreadsheet `name` inside `folder`, or None when it names a place outside it (absolute, `..`,
    a link leading out): building someone's folder never reads a file it merely points at."""
    if ".." in Path(name).parts or len(name) > 255:
        return None
    return named_inside(name, [folder])


def cell_value(text: str, where: str = "cell") -> Any:
    """A cell as the value YAML would give it, for numbers, lists and mappings; anything else stays text.
    A cell is YAML within the same limits as a file (nesting, aliases); `where` names it for the error."""
    if len(text) > MAX_CELL_CHARS:
        raise over(where, "the cell's length", len(text), MAX_CELL_CHARS)
    if WHOLE.fullmatch(text):
        return int(text)
    if DECIMAL.fullmatch(text):
        return float(text)
    if text[:1] in "[{" and not SEPARATOR.search(text):  # YAML would read a U+0085 as a line break: kept as text
        try:
            value = _plain(parse_yaml(text, where))
        except NotYaml:
            return text
        # "{energy}" or "{rules.cost}" alone is text with a placeholder, not a mapping of one empty key
        if isinstance(value, list) or (isinstance(value, dict) and None not in value.values()):
            return value
    return text


def table_delimiter(path: Path, header: str) -> str:
    """Tab for .tsv; for .csv a comma, or the semicolon that spreadsheets in many locales export."""
    if path.suffix.lower() == ".tsv":
        return "\t"
    return ";" if header.count(";") > header.count(",") else ","


def _header(label: str, names: list[str], columns: dict[str, str], ignore: set[str]) -> list[str | None]:
    """The field each column fills: its name, or the one `columns` maps it to; None for an ignored one."""
    fields: list[str | None] = []
    seen: set[str] = set()
    for number, written in enumerate(names, start=1):
        if isinstance(written, Uncomputed):
            raise DataError(f"{label}:1: column {number}: {written.reason}")
        written = written.strip()
        if written in ignore:
            fields.append(None)
            continue
        name = columns.get(written, written)
        if name in seen:
            also = f" (columns: maps {written!r} to it)" if name != written else ""
            raise DataError(f"{label}:1: {name}: the column appears twice{also}")
        if name:
            seen.add(name)
        if name and not FIELD_NAME.fullmatch(name):
            raise DataError(f"{label}:1: column {number}: {written[:40]!r} is not a field name (letters, digits "
                            f"and _; one dot for a nested field such as back.title); read it as a field with "
                            f"`columns: {{{_flow(written)}: FIELD}}` beside items:, or leave it out with "
                            f"`ignore: [{_flow(written)}]`")
        fields.append(name)
    return fields


def _flow(name: str) -> str:
    """A column name as YAML's flow style writes it: quoted when it holds more than letters, digits and _."""
    return name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) else json.dumps(name[:40], ensure_ascii=False)


def read_table(path: Path, sheet: str | None = None, label: str | None = None,
               columns: dict[str, str] | None = None, ignore: set[str] = frozenset()) -> TableRows:
    """Every non-blank row of a CSV/TSV file (UTF-8 with or without a byte-order mark) or of a workbook's
    sheet (the first unless `sheet` names one) as an item; a CSV row keeps the line it starts on (a quoted
    cell may hold line breaks). `columns` maps a column to the field it fills, `ignore` leaves columns out."""
    if path.suffix.lower() in WORKBOOK_SUFFIXES:
        from .workbook import read_workbook

        name, records = read_workbook(path, sheet)
        rows = table_rows(f"{path}:{name}", records, None, columns, ignore)
        rows.origin = Table(rows.label, str(path), name, tuple(rows.header), rows.written)
        return rows
    if path.suffix.lower() not in TABLE_DELIMITERS and label is None:
        raise DataError(f"{path}: a card list is a .csv, .tsv, .xlsx or .ods file")
    if sheet is not None:
        raise DataError(f"{path}: sheet: a {path.suffix} file has no sheets; name an .xlsx or .ods workbook")
    text = read_text(path).removeprefix("\ufeff")
    delimiter = csv_delimiter(path, text)
    records: list[tuple[int, list[str]]] = []
    for start, _, record in csv_records(text, delimiter, str(path)):
        if len(record) > MAX_COLUMNS:  # 50,000 columns are 0.3 MB of commas, and minutes of checking
            raise over(f"{path}:{start}", "the count of columns", len(record), MAX_COLUMNS)
        if len(records) > MAX_ROWS:  # this row and those before it, under the header
            raise over(f"{path}:{start}", "the count of rows under the header", len(records), MAX_ROWS)
        records.append((start, record))
    for number, record in records[1:]:
        _swallowed(path, number, record, delimiter, len(records[0][1]))
    rows = table_rows(label or str(path), [record for _, record in records], [number for number, _ in records],
                      columns, ignore)
    rows.origin = Table(rows.label, None if label else str(path), None, tuple(rows.header), rows.written, delimiter)
    return rows


def csv_delimiter(path: Path, text: str) -> str:
    """The delimiter of a CSV/TSV text (without its byte-order mark), judged by its first line however its
    lines end (LF, CRLF or CR alone)."""
    return table_delimiter(path, re.split(r"\r\n|\r|\n", text, maxsplit=1)[0])


def csv_records(text: str, delimiter: str, label: str) -> Iterator[tuple[int, int, list[str]]]:
    """Each record of a CSV/TSV text (without its byte-order mark) as Python's csv module reads it, with the
    line it starts on (a quoted cell may hold line breaks: LF, CRLF or a bare CR each count one) and the
    index of its first character: the one reading of a spreadsheet's rows, the loader's and the studio's
    (which writes a cell where this says its row begins). `label` names the file in a refusal."""
    taken = [0]  # characters the reader has taken: where the next record begins

    def lines() -> Iterator[str]:
        for line in io.StringIO(text, newline=""):
            taken[0] += len(line)
            yield line

    reader = csv.reader(lines(), delimiter=delimiter, strict=True)
    start, begins = 1, 0
    try:
        for record in reader:
            yield start, begins, record
            start, begins = reader.line_num + 1, taken[0]
    except csv.Error as exc:
        if "end of data" in str(exc) or "expected" in str(exc):
            raise DataError(f"{label}:{start}: a quoted cell is not closed (a \" is missing), so the rows after "
                            f"it would be read as its text") from None
        raise DataError(f"{label}:{start}: not a readable spreadsheet row: {exc}") from None


def table_rows(label: str, records: list[list[str]], lines: list[int] | None = None,
               mapped: dict[str, str] | None = None, ignore: set[str] = frozenset()) -> TableRows:
    """Rows of cell texts (the first names the columns) as items; `label` is the file (and sheet) errors name,
    `lines` the line each row starts on (else row n is line n); `mapped` and `ignore` as in read_table."""
    if not records:
        raise DataError(f"{label}:1: the file is empty; the first row names the columns (count, title, …)")
    mapped = mapped or {}
    columns = _header(label, records[0], mapped, ignore)
    rows = TableRows()
    rows.label, rows.line, rows.item_lines = label, 2, []
    rows.header = [str(name).strip() for name in records[0]]
    rows.written = {mapped[name]: name for name in rows.header if name in mapped and name not in ignore}
    for number, record in zip(lines[1:] if lines else range(2, len(records) + 1), records[1:]):
        if not any(trimmed(cell) for cell in record):
            continue
        if len(record) > len(columns) and any(trimmed(cell) for cell in record[len(columns):]):
            raise DataError(f"{label}:{number}: column {len(columns) + 1}: a value under no column name")
        rows.append(_item(label, number, columns, record))
        rows.item_lines.append(number)
    if not rows:
        raise DataError(f"{label}:2: no items: add one row per item under the column names")
    return rows


def _swallowed(path: Path, number: int, record: list[str], delimiter: str, columns: int) -> None:
    """A cell whose line breaks hold whole rows (as many delimiters as a row has) is a quote left open: the
    next quote in the file closed it, and the rows between became its text."""
    for cell in record:
        inner = cell.split("\n")[1:]
        if columns > 1 and any(line.count(delimiter) >= columns - 1 for line in inner):
            raise DataError(f"{path}:{number}: a quoted cell runs over {len(inner) + 1} lines holding whole rows: "
                            f"is a closing \" missing?")


# the spaces around a cell's text, which it is read without: every Unicode space but the line separators, which
# are characters of the text as written (U+0085 at a cell's end is kept, as a workbook and a CSV hold it)
AROUND = "".join(chr(code) for code in range(0x3000 + 1) if chr(code).isspace() and chr(code) not in LINE_SEPARATORS)


def trimmed(cell: str) -> str:
    return cell.strip(AROUND)


def _item(label: str, number: int, columns: list[str | None], record: list[str]) -> LineDict:
    item = _line_dict(number)
    for column, cell in zip(columns, record):
        if column is None:  # ignored
            continue
        if isinstance(cell, Uncomputed) and column:
            raise DataError(f"{label}:{number}: {column}: {cell.reason}")
        cell = trimmed(cell)
        if not cell:
            continue
        if not column:
            raise DataError(f"{label}:{number}: a value under a column with no name; name it in row 1")
        field, _, nested = column.partition(".")
        if not nested:
            item[field] = cell_value(cell, f"{label}:{number}: {column}")
            continue
        parent = item.setdefault(field, _line_dict(number))
        if not isinstance(parent, LineDict):
            raise DataError(f"{label}:{number}: {column}: the column {field} is a value, not a group of fields")
        parent[nested] = cell_value(cell, f"{label}:{number}: {column}")
        parent.key_lines[nested] = number
        item.key_lines[field] = number
    for key in item:
        item.key_lines.setdefault(key, number)
    return item


def _line_dict(number: int) -> LineDict:
    d = LineDict()
    d.line, d.key_lines = number, {}
    return d


def expand_tables(raw: Any, source: Path, refresh: bool = False, warnings: list[str] | None = None
                  ) -> dict[int, TableRows]:
    """Replace each component's `items: NAME.csv` (or workbook, or published sheet's address) with the rows
    of that file (beside `source`), in place. `refresh`: a published sheet must be fetched anew; `warnings`
    gathers what a build should say (a published sheet read from the copy kept earlier).

    Returns component index -> rows, so errors about those items can be told in the spreadsheet's terms."""
    tables: dict[int, TableRows] = {}
    components = raw.get("components") if isinstance(raw, dict) else None
    if not isinstance(components, list):
        return tables
    for index, component in enumerate(components):
        if not isinstance(component, dict):
            continue
        rows = component_table(component, source, lambda *key: (
            f"{source}:{line_of(raw, ('components', index, *key))}: {dotted(('components', index, *key))}"),
            refresh, [] if warnings is None else warnings)
        if rows is not None:
            component["items"] = tables[index] = rows
    return tables


def component_table(component: dict, source: Path, where, refresh: bool = False,
                    warnings: list[str] | None = None) -> TableRows | None:
    """The rows a component's `items:` names (a spreadsheet beside `source`, a workbook's sheet or a published
    sheet) read as its `columns:` and `ignore:` say; None when its items are a list. `where(*key)` names a key
    of the component in an error (`cards.yaml:12: components[0].columns`)."""
    items = component.get("items")
    columns, ignore = _column_keys(component, where)
    if is_published(items):
        from .published import published_table

        copy = published_table(source.parent, items, refresh, [] if warnings is None else warnings)
        rows = read_table(copy, label=items[:80], columns=columns, ignore=ignore)
    elif (named := table_name(items)) is not None:
        file = table_file(source.parent, named[0])
        if file is None:
            raise DataError(f"{where('items')}: {named[0][:60]!r}: a spreadsheet {INSIDE}")
        rows = read_table(file, named[1], columns=columns, ignore=ignore)
    else:
        if columns or ignore:
            key = "columns" if columns else "ignore"
            raise DataError(f"{where(key)}: {key} is for items read from a spreadsheet (items: cards.csv); "
                            f"a YAML list names its fields itself")
        return None
    for key, names in (("columns", list(columns)), ("ignore", sorted(ignore))):
        unknown = [name for name in names if name not in rows.header]
        if unknown:
            raise DataError(f"{where(key, unknown[0])}: {rows.label} has no column {unknown[0][:40]!r}; its "
                            f"columns: {', '.join(name for name in rows.header if name)[:200]}")
    return rows


def _column_keys(component: dict, where) -> tuple[dict[str, str], set[str]]:
    """A component's `columns:` (column -> field) and `ignore:` (columns), checked before the rows are read."""
    columns, ignore = component.get("columns") or {}, component.get("ignore") or []
    if not isinstance(columns, dict) or not all(isinstance(k, str) and isinstance(v, str) and FIELD_NAME.fullmatch(v)
                                                for k, v in columns.items()):
        raise DataError(f"{where('columns')}: expected column: field pairs, such as "
                        f"{{picture: art, \"Card name\": title}} (a field is letters, digits and _)")
    if not isinstance(ignore, list) or not all(isinstance(name, str) for name in ignore):
        raise DataError(f"{where('ignore')}: expected a list of column names, such as [base, notes]")
    return dict(columns), set(ignore)


def told_in_rows(errors: Iterable[str], source: Path, tables: dict[int, TableRows]) -> list[str]:
    """`source:LINE: components[i].items[j].field: message` as `cards.csv:ROW: field: message` where the
    items came from a spreadsheet; other errors unchanged."""
    if not tables:
        return list(errors)
    pattern = re.compile(rf"{re.escape(str(source))}:\d+: components\[(\d+)\]\.items\[(\d+)\]\.?([^:]*): (.*)",
                         re.DOTALL)
    out = []
    for error in errors:
        match = pattern.fullmatch(error)
        rows = tables.get(int(match.group(1))) if match else None
        if rows is None or int(match.group(2)) >= len(rows):
            out.append(error)
            continue
        row, column, message = rows.item_lines[int(match.group(2))], match.group(3), match.group(4)
        out.append(f"{rows.label}:{row}: {rows.written.get(column, column) or '(row)'}: {message}")
    return header_typos({rows.label for rows in tables.values()}, out)


ROW_ERROR = re.compile(r"(.*):(\d+): ([^:]+): (.*)", re.DOTALL)
MEANT = re.compile(r"did you mean '([^']+)'")


def header_typos(tables: set[str], errors: list[str]) -> list[str]:
    """A column name no item takes is one line about the header (row 1), not two errors on every row (the
    unknown field, and the field it was meant to be missing)."""
    unknown: dict[tuple[str, str], str] = {}  # (file, column) -> the message's hint
    for error in errors:
        match = ROW_ERROR.fullmatch(error)
        if match and match[1] in tables and match[4].startswith("unknown field"):
            unknown.setdefault((match[1], match[3]), match[4].removeprefix("unknown field"))
    if not unknown:
        return errors
    meant = {(file, found[1]) for (file, _), hint in unknown.items() if (found := MEANT.search(hint))}
    out, told = [], set()
    for error in errors:
        match = ROW_ERROR.fullmatch(error)
        where = (match[1], match[3]) if match else None
        if where in unknown:
            if where not in told:
                told.add(where)
                out.append(f"{where[0]}:1: {where[1]}: unknown column{unknown[where]}"
                           f"{_mapping_hint(where[1], MEANT.search(unknown[where]))}")
        elif not (where in meant and match[4] == "required field is missing"):
            out.append(error)
    return out


def _mapping_hint(column: str, close: re.Match | None) -> str:
    """How to keep a column's name: map it to a field (the close one, if any), or ignore it."""
    written = column if FIELD_NAME.fullmatch(column) else _flow(column)
    if close:
        return (f" (or keep the column's name with `columns: {{{written}: {close[1]}}}` beside items:, or leave it "
                f"out with `ignore: [{written}]`)")
    return (f" (read it as a field with `columns: {{{written}: FIELD}}` beside items:, or leave it out with "
            f"`ignore: [{written}]`)")


def _plain(value: Any) -> Any:
    """Loaded YAML (which remembers its lines) as plain dicts and lists, for the YAML writer."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _cell(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return yaml.safe_dump(_plain(value), default_flow_style=True, allow_unicode=True, width=10_000).strip()
    return "" if value is None else str(value)


def items_as_table(items: list[dict]) -> str:
    """Items as CSV text that `items: FILE.csv` reads back to the same items: a column per field, in the
    order fields first appear, nested `back` fields as `back.NAME` columns."""
    columns: list[str] = []
    rows = []
    for item in items:
        row: dict[str, str] = {}
        for key, value in item.items():
            if key == "back" and isinstance(value, dict):
                row.update({f"back.{k}": _cell(v) for k, v in value.items()})
            else:
                row[key] = _cell(value)
        columns += [c for c in row if c not in columns]
        rows.append(row)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def component_items(folder: Path, component_id: str) -> list[dict]:
    """The items of one component of a game folder as written (placeholders such as `{rules.X}` kept)."""
    from .yamlio import load_yaml

    known = []
    for source in sorted(folder.glob("*.yaml")):
        raw = load_yaml(source)
        components = raw.get("components") if isinstance(raw, dict) else None
        for component in components if isinstance(components, list) else ():
            if not isinstance(component, dict):
                continue
            known.append(str(component.get("id")))
            if component.get("id") == component_id:
                rows = component_table(component, source, lambda *key: f"{source}: {dotted(key)}")
                return list(rows if rows is not None else component.get("items") or [])
    raise DataError(f"{folder}: no component {component_id!r}; its components: {', '.join(known) or 'none'}")
