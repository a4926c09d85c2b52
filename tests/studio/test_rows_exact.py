"""The card list's writes (issue #48): a card added, copied, deleted or moved in a YAML list or a CSV file
changes exactly that card's lines, whatever the file's style: block or flow items, block texts (`|`, `>-`)
last in a file with no final line break, comments, anchors, CRLF, a byte-order mark, quoted cells and
semicolons. Each generated file is written by a small model of the person's hand, the operation is made on
the model too, and the studio's text must be the model's text, character for character, and read as the
model's list."""
from __future__ import annotations

import csv
import io
import json

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from starpnp.generator.data.errors import DataError
from starpnp.generator.studio import rows
from starpnp_test_support import examples

# ---- YAML: a model of a hand-written list ----------------------------------------------------------------

STYLES = ["plain", "double", "single", "|", "|-", ">-", ">"]
WORD = st.text(alphabet="abc XY", min_size=1, max_size=6).map(str.strip).filter(bool)


def scalar(value: str, style: str, indent: int, end: str) -> str:
    if style == "plain":
        return value
    if style == "single":
        return "'" + value + "'"
    if style == "double":
        return json.dumps(value)
    return style + end + " " * indent + value  # a block text: its line break is the item's own


def item_text(fields: list[tuple[str, str]], flow: bool, anchor: bool, end: str, tail_chomp: bool) -> str:
    """An item's lines (with their line break) in a block list: `- {k0: …}` or one `k: v` line a field."""
    mark = "&first " if anchor else ""
    if flow:
        return "  - " + mark + "{" + ", ".join(f"k{n}: {json.dumps(v)}" for n, (v, _) in enumerate(fields)) + "}" + end
    lines = []
    for n, (value, style) in enumerate(fields):
        if tail_chomp and n == len(fields) - 1 and style in ("|", ">"):
            style += "-"  # the file's last block text, no longer last: it keeps no final break that way
        lead = ("  - " + mark) if n == 0 else "    "
        lines.append(lead + f"k{n}: " + scalar(value, style, 6, end))
    return end.join(lines) + end


def yaml_document(items: list, end: str, final: bool, tail: int | None = None) -> str:
    """The file: a comment, `items:` with each item, a key after the list when `after`. `tail`: the item that
    ended the first file (its block text gets `-` when it is no longer last)."""
    parts = ["# cards kept by hand" + end, "items:" + end]
    for number, (fields, flow, anchor) in enumerate(items):
        parts.append(item_text(fields, flow, anchor, end, tail is not None and number < len(items) - 1
                               and (fields, flow, anchor) == tail))
    text = "".join(parts)
    fields, flow, _ = items[-1]
    block_last = not flow and fields[-1][1] in ("|", ">") and items[-1] != tail  # its text holds a final break
    return text if final or block_last and tail is not None else text[:-len(end)]


ITEM = st.tuples(st.lists(st.tuples(WORD, st.sampled_from(STYLES)), min_size=1, max_size=3), st.booleans())
OPS = st.sampled_from(["add", "copy", "delete", "move"])


@settings(max_examples=examples(60), deadline=None)
@given(items=st.lists(ITEM, min_size=2, max_size=4), end=st.sampled_from(["\n", "\r\n"]), final=st.booleans(),
       anchor=st.booleans(), op=OPS, pick=st.integers(0, 10), to=st.integers(0, 10))
def test_a_yaml_list_changes_exactly_the_card_s_lines(items, end, final, anchor, op, pick, to):
    model = [(fields, flow, anchor and number == 0) for number, (fields, flow) in enumerate(items)]
    text = yaml_document(model, end, final)
    tail = model[-1] if not final else None
    index, place = pick % len(model), to % len(model)
    new = list(model)
    if op == "add":
        changed = rows.yaml_add(text, ("items",), place, {"count": 1, "title": "New card"}, "cards.yaml")
        like_flow = model[-1][1]
        added = ("  - {count: 1, title: New card}" + end if like_flow
                 else "  - count: 1" + end + "    title: New card" + end)
        expected_items = [item_text(f, fl, a, end, tail is not None and (f, fl, a) == tail) for f, fl, a in model]
        expected_items.insert(place, added)
        expected = "# cards kept by hand" + end + "items:" + end + "".join(expected_items)
        expected = expected if final else expected[:-len(end)]
    else:
        if op == "copy":
            changed = rows.yaml_copy(text, ("items",), [index], "cards.yaml")
            fields, flow, _ = model[index]
            new.insert(index + 1, (fields, flow, False))
        elif op == "delete":
            changed = rows.yaml_delete(text, ("items",), [index], "cards.yaml")
            new.pop(index)
        else:
            changed = rows.yaml_move(text, ("items",), index, place, "cards.yaml")
            new.insert(place, new.pop(index))
        expected = yaml_document(new, end, final, tail)
    assert changed == expected
    data = yaml.safe_load(expected)
    assert yaml.safe_load(changed) == data


def test_an_anchor_s_copy_drops_the_anchor_and_an_aliased_card_is_not_deleted():
    text = "items:\n  - &base\n    title: Storm\n    text: |\n      Lose a turn.\n  - *base\n"
    copied = rows.yaml_copy(text, ("items",), [0], "events.yaml")
    assert copied == ("items:\n  - &base\n    title: Storm\n    text: |\n      Lose a turn.\n  -\n    title: Storm\n"
                      "    text: |\n      Lose a turn.\n  - *base\n")
    with pytest.raises(DataError, match="events.yaml: items: the studio cannot change this list"):
        rows.yaml_delete(text, ("items",), [0], "events.yaml")


def test_a_flow_list_keeps_its_separators():
    text = "items: [{title: A}, {title: B},\n        {title: C}]  # three\n"
    assert rows.yaml_delete(text, ("items",), [1], "f") == "items: [{title: A},\n        {title: C}]  # three\n"
    assert rows.yaml_copy(text, ("items",), [2], "f") == \
        "items: [{title: A}, {title: B},\n        {title: C}, {title: C}]  # three\n"
    assert rows.yaml_move(text, ("items",), 2, 0, "f") == "items: [{title: C}, {title: A},\n        {title: B}]  # three\n"
    assert rows.yaml_add(text, ("items",), 3, {"count": 1}, "f") == \
        "items: [{title: A}, {title: B},\n        {title: C}, {count: 1}]  # three\n"


def test_one_column_for_many_yaml_cards_is_written_in_place_or_added():
    text = "items:\n  - {count: 3, title: A}\n  - title: 'B'\n    count: 1  # kept\n  - title: C\n"
    changed = rows.yaml_set(text, ("items",), [0, 1, 2], "count", 2, "f")
    assert changed == "items:\n  - {count: 2, title: A}\n  - title: 'B'\n    count: 2  # kept\n  - title: C\n    count: 2\n"


def test_the_last_card_is_never_deleted():
    with pytest.raises(DataError, match="keeps at least one card"):
        rows.yaml_delete("items:\n  - {title: A}\n", ("items",), [0], "f")
    with pytest.raises(DataError, match="keeps at least one card"):
        rows.csv_delete("count,title\n1,A\n", ",", [0], "f")


# ---- CSV: a model of a spreadsheet's export ----------------------------------------------------------------

CELL = st.text(alphabet='ab ,;"\n', max_size=5)


def csv_cell(value: str, quoted: bool, delimiter: str) -> str:
    if quoted or any(c in value for c in (delimiter, '"', "\n", "\r")) or value != value.strip():
        return '"' + value.replace('"', '""') + '"'
    return value


def csv_document(header: list[str], records: list, delimiter: str, end: str, final: bool, bom: bool, blank: bool
                 ) -> str:
    lines = [delimiter.join(header)] + ([""] if blank else [])
    lines += [delimiter.join(csv_cell(value, quoted, delimiter) for value, quoted in record) for record in records]
    text = ("\ufeff" if bom else "") + end.join(lines)
    return text + end if final else text


def read(text: str, delimiter: str) -> list[list[str]]:
    found = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""), delimiter=delimiter))
    return [record for record in found[1:] if any(cell.strip() for cell in record)]


RECORD = st.lists(st.tuples(CELL, st.booleans()), min_size=3, max_size=3).filter(
    lambda record: record[0][0].strip() != "")  # a row the loader reads: not every cell empty


@settings(max_examples=examples(50), deadline=None)
@given(records=st.lists(RECORD, min_size=2, max_size=4), delimiter=st.sampled_from([",", ";", "\t"]),
       end=st.sampled_from(["\n", "\r\n", "\r"]), final=st.booleans(), bom=st.booleans(), blank=st.booleans(),
       op=st.sampled_from(["add", "copy", "delete", "move", "set"]), pick=st.integers(0, 10), to=st.integers(0, 10),
       value=CELL)
def test_a_csv_changes_exactly_the_card_s_rows(records, delimiter, end, final, bom, blank, op, pick, to, value):
    header = ["count", "title", "text"]
    text = csv_document(header, records, delimiter, end, final, bom, blank)
    index, place = pick % len(records), to % len(records)
    new = list(records)
    if op == "add":
        changed = rows.csv_add(text, delimiter, place, {"count": 1, "title": value}, "cards.csv")
        new.insert(place, [("1", False), (value, False), ("", False)])
    elif op == "copy":
        changed = rows.csv_copy(text, delimiter, [index], "cards.csv")
        new.insert(index + 1, records[index])
    elif op == "delete":
        changed = rows.csv_delete(text, delimiter, [index], "cards.csv")
        new.pop(index)
    elif op == "move":
        changed = rows.csv_move(text, delimiter, index, place, "cards.csv")
        new.insert(place, new.pop(index))
    else:
        if not value.strip():
            value = "2"
        chosen = sorted({index, place})
        changed = rows.csv_set(text, delimiter, chosen, "count", value, "cards.csv")
        was_quoted = [csv_cell(*record[0], delimiter).startswith('"') for record in records]  # kept so
        new = [[(value, was_quoted[number]), *record[1:]] if number in chosen else record
               for number, record in enumerate(records)]
    expected = csv_document(header, new, delimiter, end, final, bom, blank)
    assert changed == expected
    assert read(changed, delimiter) == [[v for v, _ in record] for record in new]


def test_a_short_row_gains_the_cells_up_to_the_column_set():
    assert rows.csv_set("count,title,color\n1,A\n", ",", [0], "color", "#FFF", "f") == "count,title,color\n1,A,#FFF\n"
    with pytest.raises(DataError, match="no colour column"):
        rows.csv_set("count,title\n1,A\n", ",", [0], "colour", "#FFF", "f")
