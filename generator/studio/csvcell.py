"""Setting one cell of a person's CSV (or TSV) text, every other character kept: its delimiter, the other
cells' quoting, its byte-order mark and line ends. (csv.writer would write the whole file again in its own
dialect.) Only the cell's own characters change; a row shorter than the header gains the delimiters up to it.
"""
from __future__ import annotations

from ..data.errors import DataError


def line_start(text: str, line: int) -> int:
    """The index where physical line `line` (from 1) begins."""
    index = 0
    for _ in range(line - 1):
        index = text.find("\n", index) + 1
        if index == 0:
            raise DataError(f"line {line}: past the end of the file")
    return index


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


def set_cell(text: str, line: int, column: int, value: str, delimiter: str) -> str:
    """`text` with the cell in column `column` (from 0) of the record starting on line `line` set to `value`."""
    spans, end = cells(text, line_start(text, line), delimiter)
    if column < len(spans):
        start, stop, quoted = spans[column]
        return text[:start] + cell_text(value, delimiter, quoted) + text[stop:]
    missing = delimiter * (column - len(spans) + 1)
    return text[:end] + missing + cell_text(value, delimiter, False) + text[end:]

