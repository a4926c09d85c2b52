"""Card lists kept in Excel or LibreOffice workbooks: `items: {file: parcels.xlsx, sheet: Cards}` builds the
very pages the CSV builds, a bad cell names file, sheet, row and column, and a plain build never loads a
workbook reader."""
from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from cli_runner import one_line, replace, run
from starpnp.generator.data.spreadsheet import read_table
from starpnp.generator.data.yamlio import DataError

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
COURIERS = FIXTURES / "couriers"
WORKBOOKS = FIXTURES / "workbooks"


def couriers_with(folder: Path, items: str, workbook: str | None = None) -> Path:
    game = folder / "couriers"
    shutil.copytree(COURIERS, game)
    if workbook:
        shutil.copy(WORKBOOKS / workbook, game / workbook)
    replace(game / "cards.yaml", "items: parcels.csv", f"items: {items}")
    return game


def page_contents(out: Path) -> list[bytes]:
    from pypdf import PdfReader

    [pdf] = out.glob("*/*.pdf")
    return [page.get_contents().get_data() for page in PdfReader(pdf).pages]


@pytest.fixture(scope="module")
def csv_pages(tmp_path_factory) -> list[bytes]:
    folder = tmp_path_factory.mktemp("csv")
    result = run("build", couriers_with(folder, "parcels.csv"), "--format", "pdf", "--out", folder / "out")
    assert result.returncode == 0, result.stderr
    return page_contents(folder / "out")


@pytest.mark.parametrize("workbook", ["parcels.xlsx", "parcels.ods"])
def test_a_workbooks_second_sheet_builds_the_same_pages_as_the_csv(tmp_path, csv_pages, workbook):
    game = couriers_with(tmp_path, f"{{file: {workbook}, sheet: Cards}}", workbook)
    result = run("build", game, "--format", "pdf", "--out", tmp_path / "out")
    assert result.returncode == 0 and "warning" not in result.stdout, result.stdout + result.stderr
    assert page_contents(tmp_path / "out") == csv_pages


def test_formulas_count_by_their_stored_value_and_trailing_empties_are_dropped():
    """parcels.ods and parcels-libreoffice.xlsx are as LibreOffice saved them (make_workbooks.py)."""
    names = ("parcels.xlsx", "parcels.ods", "parcels-libreoffice.xlsx")
    tables = [read_table(WORKBOOKS / name, "Cards") for name in names]
    with zipfile.ZipFile(WORKBOOKS / "parcels.xlsx") as archive:
        assert "<f>D2+1</f>" in archive.read("xl/worksheets/sheet2.xml").decode()
    with zipfile.ZipFile(WORKBOOKS / "parcels.ods") as archive:
        content = archive.read("content.xml").decode()
        assert 'table:formula="of:=[.D2]+1"' in content and 'number-rows-repeated="1048573"' in content
    csv_rows = read_table(COURIERS / "parcels.csv")
    for table in tables:
        assert list(table) == list(csv_rows) and table.item_lines == [2, 3, 4, 5, 6]
        assert [item["value"] for item in table] == [2, 3, 5, 1, 0]
    assert tables[0].label.endswith("parcels.xlsx:Cards")


def edited_xlsx(path: Path, cell: str, value) -> None:
    import openpyxl

    book = openpyxl.load_workbook(path)
    book["Cards"][cell] = value
    book.save(path)


@pytest.mark.parametrize("workbook", ["parcels.xlsx", "parcels.ods"])
def test_a_bad_cell_names_file_sheet_row_and_column(tmp_path, workbook):
    game = couriers_with(tmp_path, f"{{file: {workbook}, sheet: Cards}}", workbook)
    if workbook.endswith(".xlsx"):
        edited_xlsx(game / workbook, "A4", "two")
    else:
        edited_ods(game / workbook, "Cards", 4, 1, "two")
    line = one_line(run("check", game), f"{workbook}:Cards:4: count:", "expected a whole number", "'two'")
    assert str(game / workbook) in line


def edited_ods(path: Path, sheet: str, row: int, column: int, text: str) -> None:
    """The cell at `row`, `column` (from 1) of `sheet` made a text cell showing `text`, the rest as it was."""
    from xml.etree import ElementTree

    table_ns, text_ns, office_ns = (f"urn:oasis:names:tc:opendocument:xmlns:{kind}:1.0"
                                    for kind in ("table", "text", "office"))
    with zipfile.ZipFile(path) as archive:
        files = {info.filename: archive.read(info) for info in archive.infolist()}
    root = ElementTree.fromstring(files["content.xml"])
    [table] = [t for t in root.iter(f"{{{table_ns}}}table") if t.get(f"{{{table_ns}}}name") == sheet]
    cell = list(list(table.iter(f"{{{table_ns}}}table-row"))[row - 1])[column - 1]
    assert not cell.get(f"{{{table_ns}}}number-columns-repeated")  # a cell of its own
    for key in list(cell.attrib):
        if key.startswith(f"{{{office_ns}}}"):
            del cell.attrib[key]
    cell.set(f"{{{office_ns}}}value-type", "string")
    [paragraph] = cell.findall(f"{{{text_ns}}}p")
    paragraph.text = text
    files["content.xml"] = ElementTree.tostring(root, xml_declaration=True, encoding="UTF-8")
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)


def test_the_first_sheet_is_read_unless_one_is_named_and_an_unknown_sheet_lists_them(tmp_path):
    from starpnp.generator.data.yamlio import DataErrors
    from starpnp.generator.look.loader import load_game

    game = couriers_with(tmp_path, "parcels.xlsx", "parcels.xlsx")  # its first sheet holds notes
    one_line(run("check", game), "parcels.xlsx:Notes:1: column 1:", "is not a field name")
    for items, expected in (("{file: parcels.xlsx, sheet: Deck}", "parcels.xlsx: no sheet 'Deck'; its sheets: Notes, Cards"),
                            ("{file: parcels.csv, sheet: Cards}", "parcels.csv: sheet: a .csv file has no sheets"),
                            ("{file: parcels.txt}", "parcels.txt: a card list is a .csv, .tsv, .xlsx or .ods file")):
        (game / "cards.yaml").write_text((COURIERS / "cards.yaml").read_text().replace("parcels.csv", items, 1))
        with pytest.raises(DataErrors) as caught:
            load_game(game)
        [error] = caught.value.errors
        assert f"{game}/{expected}" in error, error


@pytest.mark.parametrize("workbook", ["formats.xlsx", "formats.ods"])
def test_dates_and_numbers_read_as_the_designer_sees_them(workbook):
    """formats.xlsx by openpyxl, formats.ods its copy saved by LibreOffice: the same shown texts."""
    [item] = read_table(WORKBOOKS / workbook)
    assert item == {"title": "A", "printed": "07/03/2026", "weight": 1.5, "share": "25%", "big": "12,000",
                    "when": "2:05 PM"}


def test_a_workbook_that_unpacks_to_too_much_or_leads_out_is_refused(tmp_path):
    bomb = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * (17 * 1024 * 1024))
    assert bomb.stat().st_size < 1024 * 1024
    with pytest.raises(DataError, match="unpacks to 17 MiB"):
        read_table(bomb)
    game = couriers_with(tmp_path, "parcels.ods")
    outside = tmp_path / "elsewhere.ods"
    shutil.copy(WORKBOOKS / "parcels.ods", outside)
    (game / "parcels.ods").symlink_to(outside)
    one_line(run("check", game), "parcels.ods': a spreadsheet must be a file inside the game's folder")


def test_a_plain_build_imports_no_workbook_reader(tmp_path):
    game = couriers_with(tmp_path, "parcels.csv")
    code = ("import sys; from starpnp.generator.cli import main\n"
            f"try: main(['build', {str(game)!r}, '--out', {str(tmp_path / 'out')!r}])\n"
            "except SystemExit as e: assert not e.code, e.code\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('openpyxl', 'et_xmlfile', 'fontTools') or "
            "m.endswith(('data.workbook', 'data.published'))))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "[]", result.stdout
    assert (tmp_path / "out" / "couriers" / "couriers-a4.pdf").is_file() and any((tmp_path / "out").rglob("*.svg"))
