"""A designer's workbook as the designer sees it: formulas a script saved without values are computed (or named
in one line, never read as empty), columns are mapped to fields by the deck (`columns:`) and helper columns
left out (`ignore:`)."""
from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import pytest

from cli_runner import one_line, replace, run, run_untrusted
from pdf_probe import render
from starpnp.generator.data.spreadsheet import read_table

COURIERS = Path(__file__).resolve().parent.parent / "fixtures" / "couriers"
ART = (200, 30, 30)  # the mapped picture column's image: a red no card of the fixture has otherwise
HEADER = ["count", "Card name", "base", "cost", "picture", "type", "notes"]
ROWS = [  # as a script writes them: formulas, and no value saved for any of them
    ["=1+2", '="Ice "&"Crate"', 2, "=C2+1", "red.png", "cold", "=LEN(B2)"],
    [1, '=IF(C3>2,"Big","Small")&" Vault"', 3, "=C3*2", "red.png", "fragile", ""],
    [2, "=B2&B3", 1, "=ROUND(SUM(C:C)/2,0)", "red.png", "=UPPER(F3)", ""],
]
DECK = "items: cards.xlsx\n    columns: {picture: art, \"Card name\": title}\n    ignore: [base, notes]"


def write_workbook(path: Path, rows: list[list]) -> None:
    import openpyxl
    from PIL import Image

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Cards"
    for row in [HEADER, *rows]:
        sheet.append(row)
    book.save(path)
    Image.new("RGB", (60, 40), ART).save(path.parent / "red.png")


def designer_game(folder: Path, rows: list[list] = ROWS, deck: str = DECK) -> Path:
    game = folder / "couriers"
    shutil.copytree(COURIERS, game)
    write_workbook(game / "cards.xlsx", rows)
    replace(game / "cards.yaml", "items: parcels.csv", deck)
    return game


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("designer")
    game = designer_game(folder)
    result = run("build", game, "--format", "pdf", "--out", folder / "out", "--strict")
    assert result.returncode == 0, result.stdout + result.stderr
    return folder


def test_formulas_saved_without_values_are_computed(built):
    with zipfile.ZipFile(built / "couriers" / "cards.xlsx") as archive:
        sheet = archive.read("xl/worksheets/sheet1.xml").decode()
    assert "<f>C2+1</f><v></v>" in sheet and "<f>1+2</f><v></v>" in sheet  # no value saved
    rows = read_table(built / "couriers" / "cards.xlsx", columns={"picture": "art", "Card name": "title"},
                      ignore={"base", "notes"})
    assert [(row["count"], row["title"], row["cost"], row["type"]) for row in rows] == [
        (3, "Ice Crate", 3, "cold"), (1, "Big Vault", 6, "fragile"), (2, "Ice CrateBig Vault", 3, "FRAGILE")]
    assert all(row["art"] == "red.png" and "base" not in row and "picture" not in row for row in rows)


def test_the_mapped_art_is_printed_and_the_computed_count_is_the_copies(built):
    import json

    [pdf] = (built / "out").glob("*/*.pdf")
    manifest = json.loads((pdf.parent / "manifest.json").read_text())
    [deck] = [c for c in manifest["components"] if c["id"] == "parcels"]
    assert deck["quantity"] == 3 + 1 + 2  # the count =1+2 prints 3 copies
    front = render(pdf, deck["pages"][0], built)
    assert any(abs(r - ART[0]) < 12 and abs(g - ART[1]) < 12 and abs(b - ART[2]) < 12
               for _, (r, g, b) in front.getcolors(1 << 16)), "the picture column's art is not on the fronts"


def test_a_formula_not_computed_is_one_line_naming_sheet_cell_and_formula(tmp_path):
    rows = [list(row) for row in ROWS]
    rows[1][3] = "=VLOOKUP(C3,Prices!A:B,2,FALSE)"
    game = designer_game(tmp_path, rows)
    line = one_line(run("check", game), "cards.xlsx:Cards:3: cost: the formula in D3 (=VLOOKUP(C3,Prices!A:B,2,FALSE))",
                    "no saved value", "open and save the workbook in Excel or LibreOffice")
    assert "VLOOKUP" in line


def test_a_formula_reading_one_not_computed_names_the_cell_to_fix(tmp_path):
    rows = [list(row) for row in ROWS]
    rows[0][2] = "=[1]Prices!A1"  # another workbook: never opened
    game = designer_game(tmp_path, rows)
    one_line(run("check", game), "cards.xlsx:Cards:2: cost: the formula in D2 (=C2+1)", "reads C2 (=[1]Prices!A1)",
             "reads another workbook")


def test_an_ignored_helper_column_may_hold_what_is_not_computed(tmp_path):
    rows = [list(row) for row in ROWS]
    rows[2][6] = "=INDIRECT(A1)"  # in `notes`, which the deck ignores
    assert run("check", designer_game(tmp_path, rows)).returncode == 0


@pytest.mark.parametrize("formula, why", [("=D2+1", "refers to itself (D2 → D2)"),
                                          ("=NOW()", "uses NOW, which is not computed here"),
                                          ("=1/0", "gives #DIV/0!")])
def test_what_a_formula_cannot_give_is_named(tmp_path, formula, why):
    rows = [list(row) for row in ROWS]
    rows[0][3] = formula
    write_workbook(tmp_path / "cards.xlsx", rows)
    with pytest.raises(Exception, match=rf"cards.xlsx:Cards:2: cost: the formula in D2 \(.*\) .*{why.split('(')[0]}"):
        read_table(tmp_path / "cards.xlsx", columns={"Card name": "title"}, ignore={"notes"})


ODS_CONTENT = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>'
    '<table:table table:name="Cards"><table:table-row><table:table-cell><text:p>count</text:p></table:table-cell>'
    '<table:table-cell><text:p>title</text:p></table:table-cell></table:table-row><table:table-row>'
    '<table:table-cell office:value-type="float" office:value="2"><text:p>2</text:p></table:table-cell>'
    '<table:table-cell table:formula="of:=[.A2]&amp;&quot;x&quot;"/></table:table-row></table:table>'
    '</office:spreadsheet></office:body></office:document-content>')


def test_an_ods_formula_without_a_value_is_one_line(tmp_path):
    """LibreOffice saves every value; a script writing .ods may not. Its formulas are not computed (another
    syntax), and the cell is named rather than read as empty."""
    with zipfile.ZipFile(tmp_path / "cards.ods", "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("content.xml", ODS_CONTENT)
    with pytest.raises(Exception, match=r'cards.ods:Cards:2: title: the formula in B2 \(of:=\[.A2\]&"x"\) has no '
                                        r"saved value and is not computed from an .ods file; open and save"):
        read_table(tmp_path / "cards.ods")


def test_columns_and_ignore_name_columns_the_sheet_has(tmp_path):
    game = designer_game(tmp_path, deck=DECK.replace("picture: art", "pictures: art"))
    one_line(run("check", game), "cards.yaml:", "components[0].columns.pictures", "has no column 'pictures'",
             "its columns: count, Card name, base")
    game = designer_game(tmp_path / "list", deck="items: [{title: A}]\n    ignore: [base]")
    one_line(run("check", game), "components[0].ignore: ignore is for items read from a spreadsheet")


def test_an_unmapped_column_that_is_no_field_name_says_how_to_map_it(tmp_path):
    game = designer_game(tmp_path, deck="items: cards.xlsx\n    ignore: [base, notes]")
    one_line(run("check", game), "cards.xlsx:Cards:1: column 2: 'Card name' is not a field name",
             '`columns: {"Card name": FIELD}` beside items:', '`ignore: ["Card name"]`')


def test_the_studio_shows_the_computed_values_in_its_data_view(built):
    from starpnp.generator.studio.desk import Desk

    desk = Desk(built / "couriers")
    desk.load()
    assert desk.error is None
    tile = next(tile_id for tile_id in desk.by_id if tile_id.startswith("parcels.front."))
    face = desk.face(tile)
    assert ("title", "Ice Crate") in face["fields"] and ("cost", "3") in face["fields"]
    assert ("art", "red.png") in face["fields"] and ("count", "3") not in face["fields"]
    assert desk.row(tile) == "3,Ice Crate,2,3,red.png,cold,9"  # as the CSV export writes the row


def test_an_array_formula_reads_as_a_formula_not_as_an_object(tmp_path):
    from openpyxl.worksheet.formula import ArrayFormula

    rows = [list(row) for row in ROWS]
    rows[1][3] = ArrayFormula("D3", "=SUM(C2:C3*2)")
    write_workbook(tmp_path / "cards.xlsx", rows)
    table = read_table(tmp_path / "cards.xlsx", columns={"Card name": "title"}, ignore={"notes", "picture"})
    assert [row["cost"] for row in table] == [3, 10, 3]


MANY_TERMS = "=" + "+".join(["C2"] * 1_000)
HOSTILE_FORMULAS = [  # (formula, why): refused by our own reading before the library compiles it, or bounded
    ("=ROUND(1,100000000)", "gives #VALUE! here"),  # the library made 10 ** 100000000 as it compiled
    ("=TRUNC(C2,100000000)", "gives #VALUE! here"),
    ("=PRODUCT(1E+300,1E+300)", "gives a number beyond what a cell holds"),  # numpy warned on stderr
    ('=REPT("x",1000000000)', "uses REPT, which is not computed here"),
    ('=LEN(TEXT(1,REPT("0",200000000)))', "uses REPT, which is not computed here"),
    ('=WEBSERVICE("http://127.0.0.1/")', "uses WEBSERVICE, which is not computed here"),
    ('=CALL("user32","MessageBoxA")', "uses CALL, which is not computed here"),
    ('=INFO("system")', "uses INFO, which is not computed here"),
    ('=HYPERLINK("http://127.0.0.1/","x")', "uses HYPERLINK, which is not computed here"),
    ('=INDIRECT("C2")', "uses INDIRECT, which is not computed here"),
    ("=price*2", "uses the name 'price' defined in the workbook"),
    ("=Prices!A1", "reads another sheet"),
    (MANY_TERMS, "has 1,000 terms, over the limit of 200"),
    ("=" + "(" * 31 + "1" + ")" * 31, "nests brackets more than 30 deep"),
    ("=1" + "0" * 40, "writes a number of more than 30 characters"),
]


@pytest.mark.parametrize("formula, why", HOSTILE_FORMULAS, ids=[why for _, why in HOSTILE_FORMULAS])
def test_a_formula_outside_the_bounds_is_one_line_and_no_library_text(tmp_path, capfd, formula, why):
    rows = [list(row) for row in ROWS]
    rows[0][3] = formula
    write_workbook(tmp_path / "cards.xlsx", rows)
    with pytest.raises(Exception, match=r"cards.xlsx:Cards:2: cost: the formula in D2 \(.*\) has no saved value "
                                        rf"and {re.escape(why)}; open and save"):
        read_table(tmp_path / "cards.xlsx", columns={"Card name": "title"}, ignore={"notes"})
    printed = capfd.readouterr()
    assert printed.out == printed.err == ""  # the library logs a traceback for WEBSERVICE and its kind


def test_the_librarys_text_never_reaches_the_person(tmp_path):
    rows = [list(row) for row in ROWS]
    rows[1][3] = '=INFO("system")'
    one_line(run_untrusted("check", designer_game(tmp_path, rows)),
             "cards.xlsx:Cards:3: cost: the formula in D3", "uses INFO, which is not computed here")


def test_a_sheet_of_many_large_formulas_is_refused_by_their_size(tmp_path):
    """499 formulas of 1,000 terms, each different: each is measured, never compiled (~0.4 s each)."""
    rows = [[1, f"Card {n}", 1, MANY_TERMS.replace("C2", f"C{n + 2}", 1), "red.png", "t", ""] for n in range(499)]
    write_workbook(tmp_path / "cards.xlsx", rows)
    with pytest.raises(Exception, match=r"cards.xlsx:Cards:2: cost: .* has 1,000 terms, over the limit of 200"):
        read_table(tmp_path / "cards.xlsx", columns={"Card name": "title"}, ignore={"notes"})


def test_the_terms_one_sheet_compiles_are_bounded(tmp_path, monkeypatch):
    from starpnp.generator.data import computed

    monkeypatch.setattr(computed, "MAX_FORMULA_COMPILED_TERMS", 12)  # the fixture's formulas have 20
    write_workbook(tmp_path / "cards.xlsx", ROWS)
    with pytest.raises(Exception, match=r"cards.xlsx:Cards: the count of terms of the formulas without a saved "
                                        r"value compiled is 1\d, over the limit of 12"):
        read_table(tmp_path / "cards.xlsx", columns={"Card name": "title"}, ignore={"notes"})


def test_a_join_of_long_texts_is_bounded_before_it_is_made(tmp_path):
    """400 cells of 10,000 characters each, joined three times over, would be 12 million characters: refused
    from the sizes of what the formula reads (its bound: 402 rows × 4 terms × 10,000), before the join runs."""
    rows = [[1, "=CONCAT(G:G,G:G,G:G)", 1, 1, "red.png", "t", "x"]] + [
        [1, f"Card {n}", 1, 1, "red.png", "t", "y" * 10_000] for n in range(400)]
    write_workbook(tmp_path / "cards.xlsx", rows)
    with pytest.raises(Exception, match=r"cards.xlsx:Cards:2: title: the formula in B2 \(=CONCAT\(G:G,G:G,G:G\)\) "
                                        r"has no saved value and may join texts of 16,080,000 characters, over the limit"):
        read_table(tmp_path / "cards.xlsx", columns={"Card name": "title"}, ignore={"notes"})


def test_a_line_separator_in_a_workbook_cell_is_kept_as_written(tmp_path):
    rows = [list(row) for row in ROWS]
    rows[0][1], rows[1][5] = "Ice\x85Crate\u2028", "[cold\u2029]"
    write_workbook(tmp_path / "cards.xlsx", rows)
    table = read_table(tmp_path / "cards.xlsx", columns={"Card name": "title"}, ignore={"notes"})
    assert (table[0]["title"], table[1]["type"], table[2]["title"]) == (
        "Ice\x85Crate\u2028", "[cold\u2029]", "Ice\x85Crate\u2028Big Vault")


def test_the_terms_one_load_compiles_are_bounded_across_its_sheets(tmp_path, monkeypatch):
    """Two decks reading the same workbook pay for its formulas twice, from one budget: a hundred would not
    take a hundred times the bound."""
    from starpnp.generator.data import computed
    from starpnp.generator.look.loader import load_game
    from starpnp.generator.data.yamlio import DataErrors

    game = designer_game(tmp_path)
    text = (game / "cards.yaml").read_text()
    (game / "more.yaml").write_text(text.replace("id: parcels", "id: parcels_again"))
    monkeypatch.setattr(computed, "MAX_FORMULA_COMPILED_TERMS", 30)  # one read compiles 20: alone, within it
    read_table(game / "cards.xlsx", columns={"picture": "art", "Card name": "title"}, ignore={"base", "notes"})
    with pytest.raises(DataErrors, match=r"cards.xlsx:Cards: the count of terms of the formulas without a saved "
                                         r"value compiled in all the sheets read is 3[1-9], over the limit of 30"):
        load_game(game)
