"""Setting one value in a person's YAML text, every other character kept: the value's own characters are
replaced, or a missing key is added at the end of its mapping, in that mapping's style.

A round-trip library re-dumps the whole file: ruamel.yaml (the well-kept one) folds our long flow mappings
onto one line, re-indents lists and drops comments after anchors, so 57 of the 58 YAML files we ship came
back different from one load and dump. Here the span to change is found with the composer's marks (PyYAML's,
which the loader already uses: character offsets of every node), and only that span is rewritten.
"""
from __future__ import annotations

import json
import re
from typing import Any

import yaml

from ..data.errors import DataError

LINE_BREAKS = "\n\r\x85\u2028\u2029"  # what YAML reads as a line break (and folds) inside a scalar
ESCAPED_BREAKS = {ord(c): f"\\u{ord(c):04x}" for c in "\x85\u2028\u2029"}
Path_ = tuple  # keys (str) and list indexes (int) from the document's top


def compose(text: str, where: str) -> yaml.Node | None:
    try:
        return yaml.compose(text, Loader=yaml.CSafeLoader)
    except yaml.YAMLError as exc:
        raise DataError(f"{where}: not YAML the studio can change ({str(exc).splitlines()[0][:80]}); "
                        f"fix it in an editor") from None


def child(node: yaml.Node, key: Any) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode) and isinstance(key, str):
        return next((value for k, value in node.value if isinstance(k, yaml.ScalarNode) and k.value == key), None)
    if isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
        return node.value[key]
    return None


def find(node: yaml.Node | None, path: Path_) -> yaml.Node | None:
    for key in path:
        if node is None:
            return None
        node = child(node, key)
    return node


def set_value(text: str, path: Path_, value: Any, where: str) -> str:
    """`text` with the value at `path` (a chain of mapping keys; list indexes for items that exist) set to
    `value`: a scalar's characters replaced in its own quoting style, a missing key added to its mapping.
    `where` names the file in a refusal."""
    candidates = _changed(text, path, value, where)
    for changed in candidates:
        if _reads_as(text, changed, path, value):
            return changed
    raise DataError(f"{where}: {'.'.join(map(str, path))}: the studio cannot write this value here without "
                    f"changing more of the file; change it in an editor")


def _changed(text: str, path: Path_, value: Any, where: str) -> list[str]:
    """The text with the value set, in the ways it may be written, best first."""
    node = compose(text, where)
    if node is None or _empty(node):
        return [_put(text, len(text), _block(path, value, 0, newline(text)))]
    for depth, key in enumerate(path):
        found = child(node, key)
        if found is None:
            return [_insert(text, node, path[depth:], value, where)]
        if _aliased(node, key, found):
            raise DataError(f"{where}: {'.'.join(map(str, path[:depth + 1]))}: an alias of what line "
                            f"{found.start_mark.line + 1} writes; change it there, or write it out here")
        node = found
    if not isinstance(node, yaml.ScalarNode):
        raise DataError(f"{where}:{node.start_mark.line + 1}: {'.'.join(map(str, path))}: a list or mapping, "
                        f"not one value: change it in an editor")
    start, end = node.start_mark.index, node.end_mark.index
    if node.style in ("|", ">"):
        return [text[:start] + written + text[end:] for written in block_scalars(text, start, end, value)]
    style = node.style or None  # the C composer marks a plain scalar '' where the Python one says None
    return [text[:start] + scalar(value, style) + text[end:]]


def _aliased(node: yaml.Node, key: Any, found: yaml.Node) -> bool:
    """Whether `found`, the value of `key` in `node`, is an alias (*name) of a value written elsewhere: it
    begins before its own key, or it is an item the list already had."""
    if isinstance(node, yaml.MappingNode):
        written = next(k for k, _ in node.value if isinstance(k, yaml.ScalarNode) and k.value == key)
        return found.start_mark.index < written.end_mark.index
    before = node.value[:key]
    return any(item is found for item in before) or \
        found.start_mark.index < (before[-1].end_mark.index if before else node.start_mark.index)


def _reads_as(text: str, changed: str, path: Path_, value: Any) -> bool:
    """Whether the changed text reads as the text did with that one value set: the last guard that a write
    changes only what the person changed."""
    try:
        before, after = yaml.load(text, Loader=yaml.CSafeLoader), yaml.load(changed, Loader=yaml.CSafeLoader)
    except yaml.YAMLError:
        return False
    if before is None:
        before = {}
    return _set_in(before, path, value) and before == after


def _set_in(data: Any, path: Path_, value: Any) -> bool:
    """`data` (loaded YAML) with `value` at `path`, the mappings it lacks made; False when it cannot be."""
    if not path:
        return False
    for key in path[:-1]:
        if isinstance(data, dict):
            if data.get(key) is None:  # `key:` with nothing after it, or no such key: a mapping is added
                data[key] = {}
            data = data[key]
        elif isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data):
            data = data[key]
        else:
            return False
    if isinstance(data, dict) or (isinstance(data, list) and isinstance(path[-1], int) and path[-1] < len(data)):
        data[path[-1]] = value
        return True
    return False


BLOCK_HEADER = re.compile(r"([|>])[1-9]?([-+]?)[1-9]?")


def block_scalars(text: str, start: int, end: int, value: Any) -> list[str]:
    """What may replace the block scalar `text[start:end]` (`|` or `>`: its header, its lines and the blank
    lines after them) to hold `value`, best first: the same style at the same indentation, its chomping
    (`-`, clip, `+`) as the value's final line breaks need and the header's comment kept; else the value
    double-quoted, followed by the line breaks the block ended with (set_value takes the first that reads
    back right)."""
    span = text[start:end]
    header, line_break, body = span.partition("\n")
    line_break = "\r\n" if header.endswith("\r") else line_break
    header = header.removesuffix("\r")
    match = BLOCK_HEADER.match(header)
    style, kept = match.group(1), match.group(2) == "+"
    lines = body.split(line_break) if body else []
    content = len(lines)
    while content and not lines[content - 1].strip():
        content -= 1
    stop = len(header) + len(line_break) + len(line_break.join(lines[:content]))  # after the text's last line
    after = span[stop:] if content else span[len(header):]
    quoted = scalar(value, '"') + after
    if isinstance(value, (bool, int, float)) or not str(value).strip("\n"):
        return [quoted]
    text_value = str(value)
    core = text_value.rstrip("\n")
    ends = len(text_value) - len(core)
    if style == ">":  # a line break between two lines is written as a blank line
        core = re.sub(r"\n+", lambda run: run.group() + "\n", core)
    indent = min((len(line) - len(line.lstrip(" ")) for line in lines[:content] if line.strip()),
                 default=_indent(text[text.rfind("\n", 0, start) + 1:start]) + 2)
    written = line_break.join(" " * indent + line if line else "" for line in core.split("\n"))
    chomp = "-" if ends == 0 else "+" if ends > 1 else ""
    if kept or chomp == "+":
        rest = line_break * max(ends, 1) if after else ""
    else:
        rest = after
    return [style + chomp + header[match.end():] + line_break + written + rest, quoted]


def _insert(text: str, node: yaml.Node, rest: Path_, value: Any, where: str) -> str:
    """Add the keys `rest` (the last holding `value`) to the mapping (or empty value) `node`."""
    if any(isinstance(key, int) for key in rest):
        raise DataError(f"{where}: {'.'.join(map(str, rest))}: no such item")
    if _empty(node):  # `key:` with nothing after it
        line_start = text.rfind("\n", 0, node.start_mark.index) + 1
        key_column = len(text[line_start:node.start_mark.index]) - len(text[line_start:node.start_mark.index].lstrip())
        return _put(text, _line_end(text, node.start_mark.index), _block(rest, value, key_column + 2, newline(text)))
    if not isinstance(node, yaml.MappingNode):
        raise DataError(f"{where}:{node.start_mark.line + 1}: expected a mapping to add {rest[0]} to")
    if node.flow_style:
        entry = f"{key_text(rest[0])}: {_flow(rest[1:], value)}"
        if not node.value:
            close = node.end_mark.index - 1
            return text[:close] + entry + text[close:]
        last = node.value[-1][1]  # the last value's end (a flow mapping's own end lies after its "}")
        return text[:last.end_mark.index] + ", " + entry + text[last.end_mark.index:]
    first_key = node.value[0][0]
    return _put(text, _line_end(text, _last_scalar(node).end_mark.index),
                _block(rest, value, first_key.start_mark.column, newline(text)))


def _indent(line: str) -> int:
    """The indentation of the line a value starts on (a list item's `- ` counts as indentation)."""
    return len(line) - len(line.lstrip(" -"))


def _empty(node: yaml.Node) -> bool:
    """`key:` with no value written (an overrides file's `components:` with only comments under it)."""
    return isinstance(node, yaml.ScalarNode) and node.value == "" and not node.style


def _last_scalar(node: yaml.Node) -> yaml.Node:
    """The last scalar written inside `node` (where its text ends: a block collection's own end mark lies
    at the next key, after comments and blank lines)."""
    while isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.value and not node.flow_style:
        last = node.value[-1]
        node = last[1] if isinstance(node, yaml.MappingNode) else last
    return node


def _line_end(text: str, index: int) -> int:
    """Where a line added after the value ending at `index` goes: after the rest of its line (its comment
    and line break), or at `index` itself when that begins a line (a block scalar ends with its line break)."""
    if index == 0 or text[index - 1] == "\n":
        return index
    end = text.find("\n", index)
    return len(text) if end < 0 else end + 1


def _put(text: str, index: int, lines: str) -> str:
    """`lines` added at `index`, the start of a line (a last line without a break gets one first)."""
    if index == len(text) and text and not text.endswith("\n"):
        return text + newline(text) + lines
    return text[:index] + lines + text[index:]


def newline(text: str) -> str:
    """The file's own line break: a file written on Windows gets CRLF lines added."""
    return "\r\n" if "\r\n" in text else "\n"


def _block(path: Path_, value: Any, indent: int, line_break: str) -> str:
    """Keys as block lines from `indent`, the last two as `key: {field: value}` (one line per item, as
    an overrides file or a layout's boxes are written by hand)."""
    lines, column = [], indent
    for key in path[:-2]:
        lines.append(" " * column + key_text(key) + ":")
        column += 2
    tail = path[-2:]
    lines.append(" " * column + key_text(tail[0]) + ": " + _flow(tail[1:], value))
    return line_break.join(lines) + line_break


def _flow(path: Path_, value: Any) -> str:
    if not path:
        return scalar(value, None, flow=True)
    return "{" + key_text(path[0]) + ": " + _flow(path[1:], value) + "}"


def key_text(key: str) -> str:
    return scalar(str(key), None, flow=True)


def scalar(value: Any, style: str | None, flow: bool = True) -> str:
    """`value` as a YAML scalar, in `style` (None plain, `'` or `"`) when it reads back as the same value
    that way; a text that would read as something else (a number, `yes`, `a: b`) is double-quoted."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if isinstance(value, float) else str(value)
    if isinstance(value, list):  # a box's focus: [0.5, 0.3], a flow sequence of plain scalars
        return "[" + ", ".join(scalar(item, None) for item in value) + "]"
    text = str(value)
    breaks = any(c in text for c in LINE_BREAKS)
    if style == "'" and not breaks:
        return "'" + text.replace("'", "''") + "'"
    if style is None and not breaks and _plain_ok(text, flow):
        return text
    quoted = json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar
    return quoted.translate(ESCAPED_BREAKS)  # YAML folds NEL, LS and PS written raw into a space: escape them


def _plain_ok(text: str, flow: bool) -> bool:
    if not text or text != text.strip() or "\n" in text or (flow and any(c in text for c in ",[]{}")):
        return False
    if text[0] in "!&*?|>'\"%@`#-:" or ": " in text or " #" in text or text.endswith(":"):
        return False
    try:
        return yaml.load(f"k: {text}", Loader=yaml.CSafeLoader) == {"k": text}
    except yaml.YAMLError:
        return False
