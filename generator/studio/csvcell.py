"""Setting one cell of a person's CSV (or TSV) text, every other character kept: its delimiter, the other
cells' quoting, its byte-order mark and line ends. (csv.writer would write the whole file again in its own
dialect.) Only the cell's own characters change; a row shorter than the header gains the delimiters up to it.
Its row is found by the loader's own reading (csv_records), so a quoted bare CR or a CR-only file finds the
row the loader read.
"""
from __future__ import annotations

from ..data.errors import DataError
from ..data.spreadsheet import csv_records


def cells(text: str, start: int, delimiter: str) -> tuple[list[tuple[int, int, bool]], int]:
    """The record beginning at `start`: each cell's (start, end, quoted) and where the record ends (before
    its line break), as Python's csv module reads it (a quoted cell may hold delimiters and line breaks)."""
    spans: list[tuple[int, int, bool]] = []
    index, size = start, len(text)
    while True:
        cell_start, quoted = index, index < size and text[index] == '"'
        if quoted:
            index += 1
            while True:
                close = text.find('"', index)
                if close < 0:
                    raise DataError("a quoted cell is not closed")
                if text[close + 1:close + 2] == '"':
                    index = close + 2
                    continue
                index = close + 1
                break
        while index < size and text[index] not in (delimiter, "\n", "\r"):
            index += 1
        spans.append((cell_start, index, quoted))
        if index < size and text[index] == delimiter:
            index += 1
            continue
        return spans, index


def cell_text(value: str, delimiter: str, quoted: bool) -> str:
    """`value` as a cell: quoted when the cell was, or when it must be (a delimiter, quote, line break, or
    spaces at either end that a reader would strip)."""
    if quoted or any(c in value for c in (delimiter, '"', "\n", "\r")) or value != value.strip():
        return '"' + value.replace('"', '""') + '"'
    return value


def set_cell(text: str, line: int, column: int, value: str, delimiter: str, label: str) -> str:
    """`text` with the cell in column `column` (from 0) of the record starting on line `line` (as the loader
    counts lines: csv_records) set to `value`. The result is read again as the loader reads it and must
    hold the same records but for that one cell, else nothing is written (DataError naming `label`)."""
    bom = len(text) - len(text.removeprefix("\ufeff"))
    records = list(csv_records(text[bom:], delimiter, label))
    row = next((number for number, (starts, _, _) in enumerate(records) if starts == line), None)
    if row is None:
        raise DataError(f"{label}:{line}: no row begins on this line any more (saved meanwhile?); reload the page")
    spans, end = cells(text, bom + records[row][1], delimiter)
    if column < len(spans):
        start, stop, quoted = spans[column]
        changed = text[:start] + cell_text(value, delimiter, quoted) + text[stop:]
    else:
        missing = delimiter * (column - len(spans) + 1)
        changed = text[:end] + missing + cell_text(value, delimiter, False) + text[end:]
    wanted = [record for _, _, record in records]
    wanted[row] = (wanted[row] + [""] * (column + 1 - len(wanted[row])))[:max(column + 1, len(wanted[row]))]
    wanted[row][column] = value
    if [record for _, _, record in csv_records(changed[bom:], delimiter, label)] != wanted:
        raise DataError(f"{label}:{line}: this cell cannot be changed here without changing the rows around it; "
                        f"change it in an editor")
    return changed
