"""A card list's text with an item added, copied, deleted, moved, or one column set for many items, every
other character kept: the pure text operations behind the studio's card list (cardlist.py writes them).

A list is read as pieces: the text before its first item, each item's own text (a CSV record with its line
break; a YAML block item's whole lines, its comment on the same line included; a YAML flow item's
characters), the text between two items (blank records, comment lines, a flow list's `, `) and the text
after the last. An operation moves whole item pieces and leaves the pieces between them where they stand,
so comments, blank lines, quoting, line ends and the header stay as written. A file without a final line
break is given one while it is worked on and has none after. Each result is read again (the loader's CSV
reading, PyYAML's) and must hold exactly the list asked for, else nothing is written (DataError).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

import yaml

from ..data.errors import DataError
from ..data.spreadsheet import csv_records, trimmed
from . import yamltext
from .csvcell import cell_text, cells

NEW_TITLE = "New card"  # an empty card's title: a row of nothing but a count would show no name


@dataclass
class Pieces:
    """A list's text cut at its items: before + item 0 + between[0] + item 1 + … + item n-1 + after.
    `joint`: what goes between a new item and its neighbour (a flow list's separator; nothing for lines);
    `merge`: when an item goes, the text on both its sides is kept (lines: comments) rather than one
    separator dropped (a flow list)."""

    before: str
    items: list[str]
    between: list[str]
    after: str
    joint: str = ""
    merge: bool = True
    added_break: str = ""  # the line break given to a file that had no final one, taken off again
    # a file that ended with no line break in a block text (`|` keeps no final break there): that last item,
    # and its written form with a break after it (`|-`), which it takes when it is no longer last
    tail: tuple[str, str] | None = None

    def text(self, keep_break: bool = False) -> str:
        if self.tail is not None:
            last, ended = self.tail
            self.items = [ended if item == last and number < len(self.items) - 1 else item
                          for number, item in enumerate(self.items)]
        parts = [self.before]
        for number, item in enumerate(self.items):
            parts.append(item)
            if number < len(self.between):
                parts.append(self.between[number])
        whole = "".join(parts) + self.after
        if self.added_break and whole.endswith(self.added_break) and not keep_break:
            whole = whole[:-len(self.added_break)]
        return whole

    def insert(self, position: int, item: str) -> None:
        """`item` as the list's item number `position` (0: first; len: last)."""
        if not self.items:
            self.items.append(item)
            return
        self.items.insert(position, item)
        self.between.insert(max(position - 1, 0), self.joint)

    def delete(self, index: int) -> None:
        self.items.pop(index)
        if not self.between:
            return
        if not self.merge:  # a flow list: the separator before the item goes with it (after it, for the first)
            self.between.pop(max(index - 1, 0))
        elif index == 0:
            self.before += self.between.pop(0)
        elif index == len(self.items):  # the last one went
            self.after = self.between.pop() + self.after
        else:
            gone = self.between.pop(index)
            self.between[index - 1] += gone

    def move(self, index: int, to: int) -> None:
        self.items.insert(to, self.items.pop(index))


def final_break(text: str, line_break: str) -> tuple[str, str]:
    """`text` ending with a line break, and the break added ('' when it had one)."""
    if not text or text.endswith(("\n", "\r")):
        return text, ""
    return text + line_break, line_break


# ---- CSV ----------------------------------------------------------------------------------------------

def csv_line_break(text: str) -> str:
    """The file's own line break, as its header row ends (LF, CRLF or CR alone)."""
    found = re.search(r"\r\n|\r|\n", text)
    return found.group() if found else "\n"


def csv_pieces(text: str, delimiter: str, label: str, lines: list[int] | None = None
               ) -> tuple[Pieces, list[str], list[list[str]]]:
    """The CSV text (a byte-order mark kept in `before`) as pieces: one per row the loader reads as an item
    (a row of empty cells is none: it stays between), with its header and each item's cells as read;
    `lines` gets the line each item's row begins on."""
    bom = len(text) - len(text.removeprefix("\ufeff"))
    body, added = final_break(text[bom:], csv_line_break(text[bom:]))
    records = list(csv_records(body, delimiter, label))
    if not records:
        raise DataError(f"{label}:1: the file is empty; the first row names the columns (count, title, …)")
    starts = [begins for _, begins, _ in records[1:]] + [len(body)]
    before_end = starts[0]
    items, between, rows = [], [], []
    gap = ""
    for number, (line, begins, record) in enumerate(records[1:]):
        piece = body[begins:starts[number + 1]]
        if not any(trimmed(cell) for cell in record):
            if items:
                gap += piece
            else:
                before_end += len(piece)
            continue
        if items:
            between.append(gap)
        items.append(piece)
        rows.append(record)
        if lines is not None:
            lines.append(line)
        gap = ""
    after = gap
    header = [name.strip() for name in records[0][2]]
    return Pieces(text[:bom] + body[:before_end], items, between, after, added_break=added), header, rows


def csv_row(header: list[str], values: dict[str, Any], delimiter: str, line_break: str) -> str:
    """A new record holding `values` under their columns (the others empty), as its own line."""
    texts = ["" if values.get(name) is None else str(values[name]) for name in header]
    return delimiter.join(cell_text(value, delimiter, False) for value in texts) + line_break


def csv_set_cell(record_text: str, column: int, value: str, delimiter: str) -> str:
    """One record's text (its line break after) with the cell in `column` set, its quoting kept."""
    spans, end = cells(record_text, 0, delimiter)
    if column < len(spans):
        start, stop, quoted = spans[column]
        return record_text[:start] + cell_text(value, delimiter, quoted) + record_text[stop:]
    missing = delimiter * (column - len(spans) + 1)
    return record_text[:end] + missing + cell_text(value, delimiter, False) + record_text[end:]


def csv_change(text: str, delimiter: str, label: str, change: Callable[[Pieces, list[str], list[list[str]]], list]) -> str:
    """The CSV text with `change(pieces, header, rows)` made; `change` returns the rows the loader must then
    read (each a list of cells), else nothing is written."""
    pieces, header, rows = csv_pieces(text, delimiter, label)
    wanted = change(pieces, header, rows)
    changed = pieces.text()
    bom = len(changed) - len(changed.removeprefix("\ufeff"))
    read = [record for _, _, record in csv_records(changed[bom:], delimiter, label)][1:]
    read = [record for record in read if any(trimmed(cell) for cell in record)]
    if read != wanted:
        raise DataError(f"{label}: the studio cannot change the rows here without changing others; change it in "
                        f"a spreadsheet")
    return changed


def csv_add(text: str, delimiter: str, position: int, values: dict[str, Any], label: str) -> str:
    """A new row holding `values` as item number `position` (0: first)."""
    def change(pieces: Pieces, header: list[str], rows: list) -> list:
        line_break = csv_line_break(text.removeprefix("\ufeff"))
        row = csv_row(header, values, delimiter, line_break)
        pieces.insert(_position(position, len(rows), label), row)
        rows.insert(position, [cell_value_text(values.get(name)) for name in header])
        return rows
    return csv_change(text, delimiter, label, change)


def cell_value_text(value: Any) -> str:
    return "" if value is None else str(value)


def csv_copy(text: str, delimiter: str, indexes: list[int], label: str) -> str:
    """Each item of `indexes` copied, its copy right after it, character for character."""
    def change(pieces: Pieces, header: list[str], rows: list) -> list:
        for index in sorted(_checked(indexes, len(rows), label), reverse=True):
            pieces.insert(index + 1, pieces.items[index])
            rows.insert(index + 1, list(rows[index]))
        return rows
    return csv_change(text, delimiter, label, change)


def csv_delete(text: str, delimiter: str, indexes: list[int], label: str) -> str:
    def change(pieces: Pieces, header: list[str], rows: list) -> list:
        for index in sorted(_kept_one(indexes, len(rows), label), reverse=True):
            pieces.delete(index)
            rows.pop(index)
        return rows
    return csv_change(text, delimiter, label, change)


def csv_move(text: str, delimiter: str, index: int, to: int, label: str) -> str:
    """Item `index` moved to be item number `to` of the list."""
    def change(pieces: Pieces, header: list[str], rows: list) -> list:
        (index_,) = _checked([index], len(rows), label)
        pieces.move(index_, _position(to, len(rows) - 1, label))
        rows.insert(to, rows.pop(index_))
        return rows
    return csv_change(text, delimiter, label, change)


def csv_set(text: str, delimiter: str, indexes: list[int], column: str, value: Any, label: str) -> str:
    """The cell under `column` set to `value` in every item of `indexes`: one pass over the file."""
    def change(pieces: Pieces, header: list[str], rows: list) -> list:
        if column not in header:
            raise DataError(f"{label}: no {column} column: add one to the header row to give each row its own")
        where = header.index(column)
        written = cell_value_text(value)
        for index in _checked(indexes, len(rows), label):
            pieces.items[index] = csv_set_cell(pieces.items[index], where, written, delimiter)
            rows[index] = (rows[index] + [""] * (where + 1 - len(rows[index])))
            rows[index][where] = written
        return rows
    return csv_change(text, delimiter, label, change)


# ---- YAML ---------------------------------------------------------------------------------------------

@dataclass
class YamlList:
    """A YAML list's items as pieces, with each item's own data and the anchors it defines (a copy drops
    them: an anchor is defined once), and the style a new item is written in."""

    pieces: Pieces
    flow: bool
    prefix: str = "- "  # a block item's first characters on its line ("  - ")
    key_column: int = 2  # where a block mapping item's keys begin
    flow_items: bool = False  # block items written as `- {count: 1, …}`
    anchors: list[list[tuple[int, int]]] = field(default_factory=list)  # per item: spans of `&name` in its text


BLOCK_END_EVENTS = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
START_EVENTS = (yaml.MappingStartEvent, yaml.SequenceStartEvent)


def yaml_list(text: str, path: tuple, label: str) -> YamlList:
    """The list at `path` of the YAML text as pieces (the text given a final line break if it had none)."""
    body, added = final_break(text, yamltext.newline(text))
    root = yamltext.compose(body, label)
    node = yamltext.find(root, path)
    if not isinstance(node, yaml.SequenceNode):
        raise DataError(f"{label}: {'.'.join(map(str, path))}: not a list of items")
    parent = yamltext.find(root, path[:-1])
    if yamltext._aliased(parent, path[-1], node):
        raise DataError(f"{label}: {'.'.join(map(str, path))}: an alias of a list written elsewhere; change it there")
    tails: list[int] = []
    spans = _item_spans(body, node.start_mark.index, label, tails)
    if not spans:
        raise DataError(f"{label}: {'.'.join(map(str, path))}: an empty list")
    flow = bool(node.flow_style)
    if flow:
        items = [body[start:end] for start, end, _ in spans]
        between = [body[spans[n][1]:spans[n + 1][0]] for n in range(len(spans) - 1)]
        joint = between[0] if between and "#" not in between[0] else ", "
        pieces = Pieces(body[:spans[0][0]], items, between, body[spans[-1][1]:], joint, merge=False,
                        added_break=added)
        anchors = [[(a - start, b - start) for a, b in marks] for (start, _, marks) in
                   ((s, e, m) for s, e, m in spans)]
        return YamlList(pieces, True, anchors=anchors)
    starts = [body.rfind("\n", 0, start) + 1 for start, _, _ in spans]
    for (start, _, _), line_start in zip(spans, starts):
        if body[line_start:start].strip(" -") or "-" not in body[line_start:start]:
            raise DataError(f"{label}: {'.'.join(map(str, path))}: items the studio cannot tell apart by line "
                            f"(more than one on a line?); change it in an editor")
    ends = [yamltext._line_end(body, end) for _, end, _ in spans]
    for number in range(len(spans) - 1):
        if ends[number] > starts[number + 1]:
            raise DataError(f"{label}: {'.'.join(map(str, path))}: two items on one line; change it in an editor")
    items = [body[starts[n]:ends[n]] for n in range(len(spans))]
    between = [body[ends[n]:starts[n + 1]] for n in range(len(spans) - 1)]
    pieces = Pieces(body[:starts[0]], items, between, body[ends[-1]:], added_break=added)
    if added and tails[-1] >= 0 and ends[-1] == len(body):
        pieces.tail = stripped_tail(items[-1], tails[-1] - starts[-1])
    anchors = [[(a - line, b - line) for a, b in marks] for (_, _, marks), line in zip(spans, starts)]
    model = _model(node)  # the last item written out (not an alias): new items are written as it is
    lead = body[starts[model]:spans[model][0]]
    dash = lead.index("-")
    item = node.value[model]
    key_column = (item.value[0][0].start_mark.column if isinstance(item, yaml.MappingNode) and item.value
                  else dash + 2)
    flow_items = isinstance(item, yaml.MappingNode) and bool(item.flow_style)
    block_keys = isinstance(item, yaml.MappingNode) and not flow_items and item.value
    prefix = " " * dash + "-" + " " * max(key_column - dash - 1, 1) if block_keys else lead
    return YamlList(pieces, False, prefix, key_column, flow_items, anchors)


def _model(node: yaml.SequenceNode) -> int:
    """The index of the list's last item that is written out, not an alias of an earlier one."""
    for index in range(len(node.value) - 1, -1, -1):
        if not any(other is node.value[index] for other in node.value[:index]):
            return index
    return 0


def _item_spans(text: str, sequence_start: int, label: str, tails: list[int]) -> list[tuple[int, int, list[tuple[int, int]]]]:
    """(start, end, anchors) of each item of the sequence beginning at `sequence_start`: where its first
    event begins (an anchor or tag included), where its last written character ends (a block collection's
    end event lies at the next token, after comments) and each `&name` it defines. `tails` gets, per item,
    where the block scalar (`|`, `>`) it ends with begins, or -1."""
    try:
        events = yaml.parse(text, Loader=yaml.CSafeLoader)
        for event in events:
            if isinstance(event, yaml.SequenceStartEvent) and event.start_mark.index == sequence_start:
                break
        else:
            return []
        spans: list[tuple[int, int, list[tuple[int, int]]]] = []
        flows: list[bool] = []  # the open collections inside the list: flow style or not
        tails.clear()
        for event in events:
            if not flows and isinstance(event, yaml.SequenceEndEvent):
                return spans
            if not flows:
                spans.append((event.start_mark.index, event.end_mark.index, []))
                tails.append(-1)
            start, end, anchors = spans[-1]
            if getattr(event, "anchor", None) and not isinstance(event, yaml.AliasEvent):
                found = text.find("&" + event.anchor, event.start_mark.index)
                anchors.append((found, found + 1 + len(event.anchor)))
            if isinstance(event, START_EVENTS):
                flows.append(bool(event.flow_style))
                if event.flow_style:
                    end = max(end, event.end_mark.index)
            elif isinstance(event, BLOCK_END_EVENTS):
                if flows.pop():  # a block collection's end lies at the next token: its last value ends it
                    end = max(end, event.end_mark.index)
                    tails[-1] = -1
            else:
                end = max(end, event.end_mark.index)
                tails[-1] = event.start_mark.index if getattr(event, "style", None) in ("|", ">") else -1
            spans[-1] = (start, end, anchors)
    except yaml.YAMLError as exc:
        raise DataError(f"{label}: not YAML the studio can change ({str(exc).splitlines()[0][:80]}); fix it "
                        f"in an editor") from None
    return spans


def stripped_tail(item: str, header: int) -> tuple[str, str]:
    """(`item`, `item` with its last block text's header chomped `-`): the text then holds no final line
    break even with one written after it."""
    match = yamltext.BLOCK_HEADER.match(item, header)
    indicator = match.group(1) + match.group()[1:].replace("+", "").replace("-", "") + "-"
    return item, item[:header] + indicator + item[match.end():]


def without_anchors(item: str, anchors: list[tuple[int, int]]) -> str:
    """An item's text with the anchors it defines taken out (with the spaces after each), for its copy."""
    for start, end in sorted(anchors, reverse=True):
        stop = end
        while stop < len(item) and item[stop] == " ":
            stop += 1
        if stop < len(item) and item[stop] in "\r\n" and start > 0 and item[start - 1] == " ":
            start -= 1  # `- &a` alone on its line: `-` stays, without a trailing space
        item = item[:start] + item[stop:]
    return item


def new_item_text(listed: YamlList, values: Any, line_break: str) -> str:
    """A new item holding `values` (a mapping, or one value: a name), written as the list's items are:
    `{k: v, …}` in a flow list or after a block item's dash when they are so written, else one `key: value`
    line each at the items' indentation."""
    flow = flow_text(values)
    if listed.flow:
        return flow
    if not isinstance(values, dict) or listed.flow_items or not values:
        return listed.prefix + flow + line_break
    pairs = [(yamltext.key_text(key), yamltext.scalar(value, None, flow=True)) for key, value in values.items()]
    lines = [listed.prefix + f"{pairs[0][0]}: {pairs[0][1]}"]
    lines += [" " * listed.key_column + f"{key}: {value}" for key, value in pairs[1:]]
    return line_break.join(lines) + line_break


def flow_text(value: Any) -> str:
    """A value in YAML's flow style: `{k: v}`, `[a, b]` or one scalar (quoted only when it must be)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{yamltext.key_text(k)}: {flow_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(map(flow_text, value)) + "]"
    return yamltext.scalar(value, None, flow=True)


def yaml_change(text: str, path: tuple, label: str, change: Callable[[YamlList, list], list]) -> str:
    """The YAML text with `change(listed, items)` made to its list at `path`; `change` returns the list the
    file must then hold (each item's data), else nothing is written."""
    listed = yaml_list(text, path, label)
    before = yaml.load(text, Loader=yaml.CSafeLoader)
    items = _at(before, path)
    wanted = change(listed, items)
    expected = yaml.load(text, Loader=yaml.CSafeLoader)
    _put(expected, path, wanted)
    # a file with no final line break keeps none, unless its new last card ends with a block text that holds
    # one (`|`): only a line break after it keeps that text as it was
    for changed in (listed.pieces.text(), listed.pieces.text(keep_break=True)):
        try:
            if yaml.load(changed, Loader=yaml.CSafeLoader) == expected:
                return changed
        except yaml.YAMLError:
            pass
    raise DataError(f"{label}: {'.'.join(map(str, path))}: the studio cannot change this list here without "
                        f"changing more of the file (an alias of an item, or a block text last in a file with no "
                        f"final line break?); change it in an editor")


def _at(data: Any, path: tuple) -> Any:
    for key in path:
        data = data[key]
    return data


def _put(data: Any, path: tuple, value: Any) -> None:
    _at(data, path[:-1])[path[-1]] = value


def yaml_add(text: str, path: tuple, position: int, values: Any, label: str) -> str:
    """A new item holding `values` (a mapping of fields, or one value) as item number `position`."""
    def change(listed: YamlList, items: list) -> list:
        line_break = yamltext.newline(text)
        listed.pieces.insert(_position(position, len(items), label), new_item_text(listed, values, line_break))
        return items[:position] + [values] + items[position:]
    return yaml_change(text, path, label, change)


def yaml_copy(text: str, path: tuple, indexes: list[int], label: str) -> str:
    import copy

    def change(listed: YamlList, items: list) -> list:
        items = list(items)
        for index in sorted(_checked(indexes, len(items), label), reverse=True):
            listed.pieces.insert(index + 1, without_anchors(listed.pieces.items[index], listed.anchors[index]))
            items.insert(index + 1, copy.deepcopy(items[index]))
        return items
    return yaml_change(text, path, label, change)


def yaml_delete(text: str, path: tuple, indexes: list[int], label: str) -> str:
    def change(listed: YamlList, items: list) -> list:
        items = list(items)
        for index in sorted(_kept_one(indexes, len(items), label), reverse=True):
            listed.pieces.delete(index)
            items.pop(index)
        return items
    return yaml_change(text, path, label, change)


def yaml_move(text: str, path: tuple, index: int, to: int, label: str) -> str:
    def change(listed: YamlList, items: list) -> list:
        items = list(items)
        (index_,) = _checked([index], len(items), label)
        listed.pieces.move(index_, _position(to, len(items) - 1, label))
        items.insert(to, items.pop(index_))
        return items
    return yaml_change(text, path, label, change)


def yaml_set(text: str, path: tuple, indexes: list[int], key: str, value: Any, label: str) -> str:
    """`key` set to `value` in every item of `indexes`: a value written in place where the item has one,
    the key added to the item where it has none (yamltext.set_value)."""
    chosen = sorted(_checked(indexes, len(yamltext.find(yamltext.compose(text, label), path).value), label))
    node = yamltext.find(yamltext.compose(text, label), path)
    seen: set[int] = set()
    spans, later = [], []
    for index in chosen:
        item = node.value[index]
        held = yamltext.child(item, key)
        if id(item) in seen or any(other is item for other in node.value[:index]):
            raise DataError(f"{label}: {'.'.join(map(str, path))}: item {index + 1} is an alias of another; "
                            f"change that one")
        seen.add(id(item))
        if isinstance(held, yaml.ScalarNode) and held.style not in ("|", ">") \
                and not yamltext._aliased(item, key, held):
            spans.append((held.start_mark.index, held.end_mark.index, held.style or None))
        else:
            later.append(index)
    changed = text
    for start, end, style in sorted(spans, reverse=True):
        changed = changed[:start] + yamltext.scalar(value, style) + changed[end:]
    for index in later:
        changed = yamltext.set_value(changed, path + (index, key), value, label)
    expected = yaml.load(text, Loader=yaml.CSafeLoader)
    for index in chosen:
        _at(expected, path)[index][key] = value
    if yaml.load(changed, Loader=yaml.CSafeLoader) != expected:
        raise DataError(f"{label}: {key}: the studio cannot write this value here without changing more of the "
                        f"file; change it in an editor")
    return changed


# ---- shared checks ----------------------------------------------------------------------------------

def _checked(indexes: list[int], count: int, label: str) -> list[int]:
    """The item numbers asked for, each one of the list's, each once."""
    if not indexes:
        raise DataError(f"{label}: no card chosen")
    for index in indexes:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count:
            raise DataError(f"{label}: card {said(index)}: the list has cards 0 to {count - 1} (reload the page?)")
    return sorted(set(indexes))


def _kept_one(indexes: list[int], count: int, label: str) -> list[int]:
    chosen = _checked(indexes, count, label)
    if len(chosen) >= count:
        raise DataError(f"{label}: a list keeps at least one card; add another before deleting the last")
    return chosen


def said(value: Any) -> str:
    """A number (or anything) a page sent, as a refusal repeats it: short, whatever was sent (10**400)."""
    text = repr(value)
    return text if len(text) <= 20 else text[:17] + "..."


def _position(position: int, count: int, label: str) -> int:
    if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position <= count:
        raise DataError(f"{label}: place {said(position)}: a card goes at 0 to {count} (reload the page?)")
    return position
