"""The CSV export opened in a spreadsheet: names that look like formulas stay text, and every row has ranks."""
from __future__ import annotations

import csv
import io

from starpnp.companion.export import spreadsheet_safe

FORMULA_NAMES = ['=HYPERLINK("http://x.test","x")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\tTab", "\rCR"]


def test_formula_like_names_are_written_as_text(client):
    players = [{"name": name} for name in FORMULA_NAMES[:4]]
    table = client.post("/api/tables", json={"game": "generic", "players": players}).get_json()
    code = table["code"]
    assert client.post(f"/api/tables/{code}/events", json={"type": "add", "player": "p2", "delta": -3}).status_code == 201
    rows = list(csv.reader(io.StringIO(client.get(f"/t/{code}/export.csv").get_data(as_text=True))))
    header, event = rows[0], rows[1]
    assert header[6:10] == [f"score {name}" for name in FORMULA_NAMES[:4]]  # "score =..." is text already
    assert event[2] == "'+cmd|' /C calc'!A0"  # the player who tapped: quoted, as a spreadsheet shows it
    assert [cell for cell in event if cell[:1] in ("=", "+", "@", "\t", "\r")] == []
    assert event[7] == "-3"  # a negative number stays a number
    assert event[10:14] == ["1", "4", "1", "1"]  # ranks: three level on 0 share 1st, -3 is 4th


def test_every_formula_start_is_quoted_and_numbers_are_not():
    """Names lose their tabs and carriage returns on the way in; any other text reaching the CSV is quoted."""
    assert [spreadsheet_safe(text) for text in FORMULA_NAMES] == ["'" + text for text in FORMULA_NAMES]
    assert [spreadsheet_safe(value) for value in ("Ann", "a=b", -3, 2.5, "")] == ["Ann", "a=b", -3, 2.5, ""]
