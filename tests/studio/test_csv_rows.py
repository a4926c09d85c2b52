"""The studio finds a spreadsheet's row with the loader's own reading (issue #50): a quoted bare CR, CRLF or
LF cell and a CR-only file are edited in the row the loader read, and an edit changes that one cell."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from starpnp.generator.data.spreadsheet import csv_records
from starpnp_test_support import examples

HEADER = ["count", "title", "type", "cost", "value", "text", "color"]


def records(text: str) -> list[list[str]]:
    return [record for _, _, record in csv_records(text.removeprefix("\ufeff"), ",", "cards.csv")]


def tile_of(app, title: str) -> str:
    desk = app.extensions["studio_desk"]
    return next(t.id for t in desk.tiles if t.side == "front" and t.pieces[0][1].name == title)


def edit(page, app, name: str, **values):
    version = page.get("/news?since=0").json["version"]
    return page.post("/edit", json={"id": tile_of(app, name), "set": values, "version": version})


def test_a_quoted_bare_cr_does_not_send_an_edit_to_the_wrong_row(game, app, page):
    cards = game / "cards.csv"
    cards.write_bytes(b'count,title,type\n1,"a\rb",X\n1,Second,X\n1,Third,X\n')
    app.extensions["studio_desk"].load()
    answer = edit(page, app, "Third", title="EDITED")
    assert answer.status_code == 200, answer.json
    assert cards.read_bytes() == b'count,title,type\n1,"a\rb",X\n1,Second,X\n1,EDITED,X\n'


def test_a_cr_only_file_shows_its_faces_and_edits_its_rows(game, app, page):
    cards = game / "cards.csv"
    cards.write_bytes(cards.read_bytes().replace(b"\n", b"\r"))
    app.extensions["studio_desk"].load()
    ids = [t["id"] for t in page.get("/news?since=0").json["tiles"] if t["component"] == "deck"]
    answer = page.get(f"/faces?ids={','.join(ids)}")
    assert answer.status_code == 200 and all(f["edit"]["fields"][1]["writable"] for f in answer.json["faces"])
    before = cards.read_bytes()
    assert edit(page, app, "Build", title="Raise").status_code == 200
    assert cards.read_bytes() == before.replace(b"\r2,Build,", b"\r2,Raise,")


def quoted(cell: str, always: bool) -> str:
    if always or any(c in cell for c in ',"\r\n') or cell != cell.strip():
        return '"' + cell.replace('"', '""') + '"'
    return cell


TEXT = st.text(alphabet='ab é,"\r\n;', max_size=6)
VALUE = st.text(alphabet='xy é,"\r\n;', min_size=1, max_size=6).map(str.strip).filter(bool)
END = st.sampled_from(["\n", "\r\n", "\r"])


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                           HealthCheck.too_slow])
@given(cells=st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=4), ends=st.lists(END, min_size=5, max_size=5),
       last=st.sampled_from(["", "\n", "\r\n", "\r"]), always=st.booleans(), bom=st.booleans(),
       pick=st.integers(0, 3), column=st.sampled_from(["title", "text"]), value=VALUE)
def test_an_edited_cell_is_the_one_change_the_loader_reads(game, app, page, cells, ends, last, always, bom, pick,
                                                           column, value):
    """Any mix of line ends and quoting: the file after an edit reads, as the loader reads it, as before with
    that one cell changed."""
    rows = [HEADER] + [["1", f"T{n} {title.strip()}".strip(), "Action", "1", "1", text, ""]
                       for n, (title, text) in enumerate(cells)]
    lines = [",".join(quoted(cell, always) for cell in row) for row in rows]
    text = ("\ufeff" if bom else "") + "".join(line + ends[n % len(ends)] for n, line in enumerate(lines[:-1]))
    text += lines[-1] + last
    cards = game / "cards.csv"
    cards.write_bytes(text.encode())
    app.extensions["studio_desk"].load()
    assume(app.extensions["studio_desk"].error is None)  # a cell the loader refuses (a quote holding rows)
    row = 1 + pick % len(cells)
    answer = edit(page, app, rows[row][1], **{column: value})
    assert answer.status_code == 200, answer.json
    written = cards.read_bytes().decode()
    wanted = records(text)
    wanted[row][HEADER.index(column)] = value
    assert records(written) == wanted
    start = next(begins for number, (_, begins, _) in enumerate(csv_records(text.removeprefix("\ufeff"), ",", "x"))
                 if number == row)
    assert written[:start + bom] == text[:start + bom]  # nothing before the row changed


def test_a_field_read_through_columns_is_written_in_its_column(game, app, page):
    cards, deck = game / "cards.csv", game / "cards.yaml"
    cards.write_bytes(cards.read_bytes().replace(b"count,title,", b"count,Card name,", 1))
    deck.write_text(deck.read_text().replace("items: cards.csv", 'items: cards.csv\n    columns: {"Card name": title}'))
    app.extensions["studio_desk"].load()
    face = page.get("/faces?ids=deck.front.1").json["faces"][0]
    title = next(f for f in face["edit"]["fields"] if f["name"] == "title")
    assert title["writable"] and title["where"] == "cards.csv:2, column Card name"
    before = cards.read_bytes()
    assert edit(page, app, "Trade", title="Barter").status_code == 200
    assert cards.read_bytes() == before.replace(b"3,Trade,", b"3,Barter,")


def test_a_workbook_names_the_cell_of_the_mapped_column(game, app, page):
    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["count", "Card name", "type"])
    book.active.append([2, "Sail", "Action"])
    book.save(game / "cards.xlsx")
    deck = game / "cards.yaml"
    deck.write_text(deck.read_text().replace("items: cards.csv", 'items: cards.xlsx\n    columns: {"Card name": title}'))
    app.extensions["studio_desk"].load()
    face = page.get("/faces?ids=deck.front.1").json["faces"][0]
    title = next(f for f in face["edit"]["fields"] if f["name"] == "title")
    assert not title["writable"] and title["why"].startswith("cards.xlsx, sheet Sheet, cell B2 (Card name): change it")
