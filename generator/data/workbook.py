"""Item lists kept in an Excel (.xlsx) or LibreOffice (.ods) workbook: each cell as the text the designer
sees, so a sheet reads exactly as its CSV export would (see spreadsheet.py for what the text becomes).

A workbook is a zip of XML. Before any reader opens one, its member sizes are checked, so a small file that
unpacks to gigabytes is refused; a sheet of more than MAX_SHEET_CELLS cells, or a row of more than MAX_COLUMNS,
is refused as it is read, each repeat counted before the cells it repeats are made. Formulas count by the
value the file stores (the spreadsheet program computed it when saving); a formula saved without one (a
workbook written by a script) is computed, within bounds, or named in one line (computed.py).

.xlsx is read by openpyxl (imported here only, so a build without a workbook never loads it). .ods needs no
library: its content.xml keeps, beside each cell's value, the very text the cell shows (`<text:p>`), which
is what "as the designer sees it" means and what LibreOffice's own CSV export writes.
"""
from __future__ import annotations

import re
import zipfile
from datetime import date, datetime, time
from pathlib import Path
from xml.etree import ElementTree

from .errors import DataError
from .limits import MAX_COLUMNS, MAX_FILE_BYTES, MAX_ROWS, MAX_SHEET_CELLS, MAX_UNPACKED_MIB, over

MAX_UNPACKED_BYTES = MAX_UNPACKED_MIB * 1024 * 1024
WORKBOOKS = (".xlsx", ".ods")
Records = list[list[str]]


def read_workbook(path: Path, sheet: str | None) -> tuple[str, Records]:
    """(the sheet's name, its rows of cell texts) from the first sheet or the one named; trailing empty
    rows and columns dropped, empty rows inside kept so that row numbers stay the sheet's."""
    _check_zip(path)
    reader = _xlsx_rows if path.suffix.lower() == ".xlsx" else _ods_rows
    try:
        name, rows = reader(path, sheet)
    except DataError:
        raise
    except Exception as exc:  # noqa: BLE001 - a damaged workbook is bad data, told in one line
        raise DataError(f"{path}: not a readable {path.suffix.lower()} workbook ({type(exc).__name__}); "
                        f"save it again from the spreadsheet program") from None
    while rows and not any(rows[-1]):
        rows.pop()
    width = max((max((i + 1 for i, cell in enumerate(row) if cell), default=0) for row in rows), default=0)
    return name, [row[:width] + [""] * (width - len(row[:width])) for row in rows]


def _check_zip(path: Path) -> None:
    try:
        if not path.is_file():
            raise DataError(f"{path}: no such file in the game's folder")
        if path.stat().st_size > MAX_FILE_BYTES:
            raise DataError(f"{path}: {path.stat().st_size // 1024} KiB is too large for a card list "
                            f"(at most {MAX_FILE_BYTES // 1024 // 1024} MiB)")
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError) as exc:
        raise DataError(f"{path}: not a workbook ({exc}); save it as .xlsx or .ods") from None
    if unpacked > MAX_UNPACKED_BYTES:
        raise DataError(f"{path}: unpacks to {unpacked // 1024 // 1024} MiB, more than a card list needs "
                        f"(at most {MAX_UNPACKED_MIB} MiB)")


def _pick(path: Path, names: list[str], sheet: str | None) -> str:
    if not names:
        raise DataError(f"{path}: the workbook has no sheets")
    if sheet is None:
        return names[0]
    if sheet not in names:
        raise DataError(f"{path}: no sheet {sheet!r}; its sheets: {', '.join(names)}")
    return sheet


def _counted(path: Path, name: str, cells: int, rows: int) -> None:
    """`rows` rows of `cells` cells in all so far, refused past MAX_ROWS or MAX_SHEET_CELLS."""
    if rows > MAX_ROWS:
        raise over(f"{path}:{name}", "the count of rows up to the last used one", rows, MAX_ROWS)
    if cells > MAX_SHEET_CELLS:
        raise over(f"{path}:{name}", "the count of cells up to the last used one", cells, MAX_SHEET_CELLS)


def _columns(path: Path, name: str, width: int) -> None:
    """A row `width` cells wide up to its last used one, refused past MAX_COLUMNS."""
    if width > MAX_COLUMNS:
        raise over(f"{path}:{name}", "the count of columns", width, MAX_COLUMNS)


# --- .xlsx -------------------------------------------------------------------------------------------------

def _xlsx_rows(path: Path, sheet: str | None) -> tuple[str, Records]:
    import openpyxl  # lazy: only a workbook pays for it

    book = openpyxl.load_workbook(path, read_only=True)  # formulas as written; their saved values below
    try:
        name = _pick(path, book.sheetnames, sheet)
        rows: Records = []
        values: dict[tuple[int, int], object] = {}  # what formulas may read
        formulas: dict[tuple[int, int], tuple[str, str | None]] = {}  # formula, number format
        cells = 0
        for number, row in enumerate(book[name].iter_rows(), start=1):  # at most 16,384 cells wide (XFD)
            cells += len(row)
            _counted(path, name, cells, number)
            texts = []
            for column, cell in enumerate(row, start=1):
                value, number_format = getattr(cell, "value", None), getattr(cell, "number_format", "General")
                if getattr(cell, "data_type", None) == "f":  # a formula, or an array formula's object
                    formulas[number, column] = (str(getattr(value, "text", value) or ""), number_format)
                elif value is not None:
                    values[number, column] = value
                texts.append(shown(value, number_format) if (number, column) not in formulas else "")
            _columns(path, name, max((column for column, text in enumerate(texts, start=1)
                                      if text or (number, column) in formulas), default=0))
            rows.append(texts)
    finally:
        book.close()
    if formulas:
        _fill_formulas(path, name, rows, formulas, values)
    return name, rows


def _fill_formulas(path: Path, name: str, rows: Records, formulas: dict, values: dict) -> None:
    """Each formula cell's text: the value the spreadsheet program saved, else the value computed here
    (computed.py), else an Uncomputed cell that names it."""
    import openpyxl

    book = openpyxl.load_workbook(path, read_only=True, data_only=True)  # data_only: the saved values
    try:
        last = max(number for number, _ in formulas)
        for number, row in enumerate(book[name].iter_rows(max_row=last), start=1):
            for column, cell in enumerate(row, start=1):
                saved = getattr(cell, "value", None)
                if (number, column) in formulas and saved is not None:
                    values[number, column] = saved
                    rows[number - 1][column - 1] = shown(saved, formulas.pop((number, column))[1])
    finally:
        book.close()
    if not formulas:
        return
    from .computed import Uncomputed, computed

    extent = (len(rows), max((len(row) for row in rows), default=0))
    results = computed(f"{path}:{name}", {cell: formula for cell, (formula, _) in formulas.items()}, values, extent)
    for (number, column), result in results.items():
        rows[number - 1][column - 1] = (result if isinstance(result, Uncomputed)
                                        else shown(result, formulas[number, column][1]))


DATE_TOKENS = re.compile(r'"[^"]*"|\\.|yyyy|yy|mmmm|mmm|mm|m|dddd|ddd|dd|d|hh|h|ss|s|am/pm|a/p|.', re.I)


def shown(value, number_format: str | None) -> str:
    """A cell value as Excel shows it, for the number formats card lists use: General, fixed decimals,
    thousands, percent, and dates and times by their pattern."""
    fmt = (number_format or "General").split(";")[0]
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (datetime, date, time)):
        return _date_text(value, fmt)
    if isinstance(value, (int, float)):
        return _number_text(value, fmt)
    return str(value)


def _number_text(value: float, fmt: str) -> str:
    plain = re.sub(r'"[^"]*"|\\.|\[[^]]*\]|[_*].', "", fmt).strip()
    decimals = len(re.sub(r"[^0#?]", "", plain.partition(".")[2]))
    if plain.endswith("%"):
        return f"{value * 100:.{decimals}f}%"
    if plain and re.fullmatch(r"[#,0?]*(\.[#0?]*)?", plain):
        return f"{value:{',' if ',' in plain else ''}.{decimals}f}"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.15g}" if isinstance(value, float) else str(value)


def _date_text(value, fmt: str) -> str:
    if fmt.lower() in ("general", "@", ""):
        return value.isoformat(sep=" ") if isinstance(value, datetime) else value.isoformat()
    tokens = DATE_TOKENS.findall(fmt)
    twelve = any(t.lower() in ("am/pm", "a/p") for t in tokens)
    out = []
    for i, token in enumerate(tokens):
        low = token.lower()
        near_time = any(t.lower().startswith(("h", "s")) for t in tokens[max(0, i - 2):i + 3] if t != token)
        if low.startswith("m") and low in ("m", "mm") and near_time:  # minutes, not the month
            out.append(f"{getattr(value, 'minute', 0):0{len(low)}d}")
        elif low in ("yyyy", "yy"):
            out.append(f"{value.year:04d}" if low == "yyyy" else f"{value.year % 100:02d}")
        elif low in ("mmmm", "mmm", "mm", "m"):
            out.append(value.strftime("%B" if low == "mmmm" else "%b") if len(low) > 2
                       else f"{value.month:0{len(low)}d}")
        elif low in ("dddd", "ddd", "dd", "d"):
            out.append(value.strftime("%A" if low == "dddd" else "%a") if len(low) > 2
                       else f"{value.day:0{len(low)}d}")
        elif low in ("hh", "h"):
            hour = getattr(value, "hour", 0)
            out.append(f"{(hour % 12 or 12) if twelve else hour:0{len(low)}d}")
        elif low in ("ss", "s"):
            out.append(f"{getattr(value, 'second', 0):0{len(low)}d}")
        elif low in ("am/pm", "a/p"):
            pm = getattr(value, "hour", 0) >= 12
            out.append(("PM" if pm else "AM") if low == "am/pm" else ("P" if pm else "A"))
        elif token.startswith('"'):
            out.append(token[1:-1])
        elif token.startswith("\\"):
            out.append(token[1:])
        else:
            out.append(token)
    return "".join(out)


# --- .ods --------------------------------------------------------------------------------------------------

TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"


def _ods_rows(path: Path, sheet: str | None) -> tuple[str, Records]:
    with zipfile.ZipFile(path) as archive:
        with archive.open("content.xml") as content:
            root = ElementTree.parse(content).getroot()
    tables = root.iter(f"{{{TABLE}}}table")
    by_name = {table.get(f"{{{TABLE}}}name", ""): table for table in tables}
    name = _pick(path, list(by_name), sheet)
    rows: Records = []
    pending_blank = 0  # empty rows are added only once a later row has something (trailing ones never are)
    cells = 0
    for row in by_name[name].iter(f"{{{TABLE}}}table-row"):
        texts = _ods_cells(row, path, name, len(rows) + pending_blank + 1)
        repeat = max(1, int(row.get(f"{{{TABLE}}}number-rows-repeated", "1")))
        if not any(texts):
            pending_blank += repeat
            continue
        cells += (pending_blank + repeat) * len(texts)  # counted before a row of them is made
        _counted(path, name, cells, len(rows) + pending_blank + repeat)
        rows += [[] for _ in range(pending_blank)] + [list(texts) for _ in range(repeat)]
        pending_blank = 0
    return name, rows


def _ods_cells(row: ElementTree.Element, path: Path, name: str, number: int) -> list[str]:
    texts: list[str] = []
    pending_blank = 0
    for cell in row:
        if cell.tag not in (f"{{{TABLE}}}table-cell", f"{{{TABLE}}}covered-table-cell"):
            continue
        repeat = max(1, int(cell.get(f"{{{TABLE}}}number-columns-repeated", "1")))
        text = "\n".join(_paragraph(p) for p in cell.findall(f"{{{TEXT}}}p"))  # not a comment's paragraphs
        if not text and cell.get(f"{{{TABLE}}}formula") and cell.get(f"{{{OFFICE}}}value-type") is None:
            text = _unsaved(cell.get(f"{{{TABLE}}}formula"), number, len(texts) + pending_blank + 1)
        if not text:
            pending_blank += repeat
            continue
        _columns(path, name, len(texts) + pending_blank + repeat)  # counted before a cell of them is made
        texts += [""] * pending_blank + [text] * repeat
        pending_blank = 0
    return texts


def _unsaved(formula: str, number: int, column: int) -> str:
    """A formula LibreOffice would have saved with its value, written without one (by a script): named in one
    line where a row uses it. (An .xlsx's is computed; an .ods's formulas are in another syntax.)"""
    from .computed import Uncomputed, address

    return Uncomputed.because(formula, address((number, column)), "is not computed from an .ods file")


def _paragraph(element: ElementTree.Element) -> str:
    """The text of a `<text:p>` as shown: spans' text, `<text:s text:c="N"/>` as N spaces, tabs, breaks."""
    out = [element.text or ""]
    for child in element:
        local = child.tag.rpartition("}")[2]
        if local == "s":
            out.append(" " * min(int(child.get(f"{{{TEXT}}}c", "1")), 1000))
        elif local == "tab":
            out.append("\t")
        elif local == "line-break":
            out.append("\n")
        elif local != "annotation":
            out.append(_paragraph(child))
        out.append(child.tail or "")
    return "".join(out)
