"""YAML loading that remembers where every key and item came from, for `file:line:` errors."""
from __future__ import annotations

import re
import stat
import sys
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import yaml

from .errors import DataError, DataErrors  # noqa: F401 (where most modules import them from)
from .inside import INSIDE, within
from .limits import MAX_FILE_BYTES, MAX_YAML_DEPTH as MAX_DEPTH, MAX_YAML_NODES as MAX_NODES


# Characters YAML reads as line breaks where CSV and workbooks hold them as characters of a text: a YAML file
# holding one would have its value silently changed (a quoted one folded to a space), so it is refused, and a
# YAML value keeps one only written as its escape.
LINE_SEPARATORS = {"\x85": ("U+0085 (next line)", "\\N"), "\u2028": ("U+2028 (line separator)", "\\L"),
                   "\u2029": ("U+2029 (paragraph separator)", "\\P")}
SEPARATOR = re.compile("[\x85\u2028\u2029]")


class LineDict(dict):
    """A mapping with its line and each key's line (set by whoever makes one)."""
    __slots__ = ("line", "key_lines")
    line: int
    key_lines: dict


class LineList(list):
    """A list with its line and each item's line (set by whoever makes one)."""
    __slots__ = ("line", "item_lines")
    line: int
    item_lines: list


class _Loader(yaml.CSafeLoader):
    """LibYAML's C parser (about ten times the pure-Python one), our constructors: nodes keep their lines."""


def _mapping(loader: _Loader, node: yaml.MappingNode) -> LineDict:
    """A mapping that remembers its lines; its own keys may override keys merged in with `<<: *anchor`."""
    for key_node, _ in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            raise yaml.constructor.ConstructorError(None, None, "a key must be plain text, not a list or mapping",
                                                    key_node.start_mark)
    own = {id(key_node) for key_node, _ in node.value if key_node.tag != "tag:yaml.org,2002:merge"}
    loader.flatten_mapping(node)
    result = LineDict()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    own_keys = set()
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if id(key_node) in own:
            if key in own_keys:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark)
            own_keys.add(key)
        elif key in result:  # merged keys never override each other's first value
            continue
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1
    return result


def _sequence(loader: _Loader, node: yaml.SequenceNode) -> LineList:
    result = LineList(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _sequence)


_PENDING: ContextVar[dict[Path, str]] = ContextVar("pending_texts", default={})


@contextmanager
def pending(texts: dict[Path, str]):
    """Read these files as these texts, not as the disk has them: the studio loads a game with an edit
    applied before it writes the edit, so a value the loader refuses is never written."""
    token = _PENDING.set({path.resolve(): text for path, text in texts.items()})
    try:
        yield
    finally:
        _PENDING.reset(token)


def pending_files(folder: Path) -> list[Path]:
    """The files in `folder` read as pending texts (one the edit makes, not on disk yet, included)."""
    resolved = folder.resolve()
    return [folder / path.name for path in _PENDING.get() if path.parent == resolved]


def pending_text(path: Path) -> str | None:
    texts = _PENDING.get()
    return texts.get(path.resolve()) if texts else None


def read_text(path: Path, root: Path | None = None) -> str:
    """The file's text; only a regular file of sane size (a FIFO or /dev/zero named *.yaml never hangs), lying
    inside `root` (its own folder unless told) once links are followed."""
    if not within(path, (root or path.parent,)):
        raise DataError(f"{path}: {INSIDE}")
    if (text := pending_text(path)) is not None:
        return text
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise DataError(f"{path}: not a regular file")
        if info.st_size > MAX_FILE_BYTES:
            raise DataError(f"{path}: {info.st_size // 1024} KiB is too large for game data "
                            f"(at most {MAX_FILE_BYTES // 1024 // 1024} MiB)")
        data = path.read_bytes()
    except OSError as exc:
        raise DataError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise DataError(f"{path}:{line}: not UTF-8 text (byte {data[exc.start]:#04x}); save the file as UTF-8") from None


def _expanded_size(value: Any) -> tuple[int, int]:
    """(values counted as if every alias were written out, deepest nesting), in one pass over the shared
    structure, so an alias bomb is measured without being expanded."""
    sizes: dict[int, tuple[int, int]] = {}
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        node, done = stack.pop()
        if not isinstance(node, (dict, list)) or (id(node) in sizes and not done):
            continue
        children = list(node.values()) if isinstance(node, dict) else node
        if not done:
            stack.append((node, True))
            stack.extend((child, False) for child in children if isinstance(child, (dict, list)))
            continue
        total, depth = 1 + len(children), 1
        for child in children:
            if isinstance(child, (dict, list)):
                size, deep = sizes[id(child)]
                total, depth = total + size, max(depth, deep + 1)
        sizes[id(node)] = (min(total, MAX_NODES + 1), depth)
    return sizes.get(id(value), (1, 0))


class _Unusual(Exception):
    """What only the composing loader builds (or reports): merge keys, tags on lists and mappings, errors."""


_STR, _MAP = "tag:yaml.org,2002:str", yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG
_SEQ = yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG
_SCALARS = {f"tag:yaml.org,2002:{name}" for name in ("null", "bool", "int", "float", "timestamp", "binary")}


def _from_events(text: str) -> Any:
    """The document built straight from LibYAML's events, as the composing loader builds it (same values,
    lines and key order), without first composing a node for every value: the node tree of a file of
    thousands of items takes twice the memory of the data it becomes. Raises _Unusual for anything else."""
    loader = _Loader(text)
    try:
        get, resolve, constructors = loader.get_event, loader.resolve, loader.yaml_constructors
        anchors: dict[str, tuple[Any, int, bool]] = {}  # name -> (value, its line, a scalar?)
        # open collections: [value, is it a mapping, its anchor, the key waiting for its value (or _NO_KEY)]
        stack: list[list] = []
        done: list = []
        last_line = 0
        event = get()
        while not isinstance(event, yaml.StreamEndEvent):
            kind = type(event)
            if kind is yaml.ScalarEvent:
                tag = event.tag
                if tag is None or tag == "!":
                    tag = resolve(yaml.ScalarNode, event.value, event.implicit)
                if tag == _STR:
                    value = event.value
                elif tag in _SCALARS:
                    value = constructors[tag](loader, yaml.ScalarNode(tag, event.value, event.start_mark,
                                                                      event.end_mark, event.style))
                else:
                    raise _Unusual(tag)
                line, scalar = event.start_mark.line + 1, True
                if line == last_line:  # the values of a line share one int (faces keep their lines)
                    line = last_line
                last_line = line
                if event.anchor is not None:
                    if event.anchor in anchors:
                        raise _Unusual("anchor")
                    anchors[event.anchor] = (value, line, True)
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                if event.tag not in (None, "!", _MAP if kind is yaml.MappingStartEvent else _SEQ):
                    raise _Unusual(event.tag)
                if len(stack) > MAX_DEPTH:
                    raise _Unusual("deep")
                value = LineDict() if kind is yaml.MappingStartEvent else LineList()
                if kind is yaml.MappingStartEvent:
                    value.key_lines = {}
                else:
                    value.item_lines = []
                value.line = event.start_mark.line + 1
                stack.append([value, kind is yaml.MappingStartEvent, event.anchor, _NO_KEY])
                event = get()
                continue
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                value, _, anchor, _ = stack.pop()
                line, scalar = value.line, False
                if anchor is not None:
                    if anchor in anchors:
                        raise _Unusual("anchor")
                    anchors[anchor] = (value, line, False)
            elif kind is yaml.AliasEvent:
                if event.anchor not in anchors:
                    raise _Unusual("alias")
                value, line, scalar = anchors[event.anchor]
            else:  # the document's start and end
                if kind is yaml.DocumentStartEvent and done:
                    raise _Unusual("documents")
                event = get()
                continue
            if not stack:
                done.append(value)
            else:
                top = stack[-1]
                if not top[1]:
                    top[0].append(value)
                    top[0].item_lines.append(line)
                elif top[3] is _NO_KEY:
                    if not scalar or kind is yaml.AliasEvent or value in top[0]:
                        raise _Unusual("key")  # the composing loader says what is wrong with it
                    top[3] = (sys.intern(value) if type(value) is str else value, line)
                else:
                    key, key_line = top[3]
                    top[0][key] = value
                    top[0].key_lines[key] = key_line
                    top[3] = _NO_KEY
            event = get()
        return done[0] if done else None
    finally:
        loader.dispose()


_NO_KEY = object()


class NotYaml(DataError):
    """Text that is not YAML at all (a spreadsheet cell such as `[draft` is then text)."""


def load_yaml(path: Path, root: Path | None = None) -> Any:
    """A YAML file's data, the file lying inside `root` (its own folder unless told)."""
    return parse_yaml(read_text(path, root), str(path))


def parse_yaml(text: str, where: str) -> Any:
    """YAML text as data, within the limits (generator.data.limits) on nesting and on values after aliases
    are expanded; `where` (a file, or `file:line: column` for a spreadsheet cell) begins every error."""
    if found := SEPARATOR.search(text):
        name, escape = LINE_SEPARATORS[found.group()]
        line = text.count("\n", 0, found.start()) + 1
        raise DataError(f"{where}:{line}: holds {name}, which YAML reads as a line break and would change; "
                        f"write it as {escape} inside double quotes, or take it out")
    try:
        data = _from_events(text)
    except Exception:  # noqa: BLE001 - the composing loader builds it, or says what is wrong, as it always did
        data = _composed(where, text)
    size, depth = _expanded_size(data)
    if size > MAX_NODES:
        raise DataError(f"{where}: aliases expand to more than {MAX_NODES} values; write the data out instead")
    if depth > MAX_DEPTH:
        raise DataError(f"{where}: nested {depth} levels deep (at most {MAX_DEPTH})")
    return data


def _composed(where: str, text: str) -> Any:
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        if "nesting depth" in str(exc.problem):  # LibYAML's own limit, far past ours
            raise DataError(f"{where}: nested too deep (at most {MAX_DEPTH} levels)") from None
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        raise NotYaml(f"{where}:{line}: YAML syntax error: {str(exc.problem or exc.context)[:80]}") from None
    except yaml.YAMLError as exc:
        raise NotYaml(f"{where}: YAML error: {str(exc)[:80]}") from None
    except RecursionError:
        raise DataError(f"{where}: nested too deep (at most {MAX_DEPTH} levels)") from None
    except ValueError as exc:  # a scalar YAML cannot turn into a value, e.g. a 5,000-digit number
        raise DataError(f"{where}: a value that cannot be read: {str(exc)[:80]}") from None


def line_of(data: Any, loc: tuple) -> int:
    """The line of the deepest node along `loc` that the YAML recorded."""
    line = getattr(data, "line", 0)
    node = data
    for key in loc:
        if isinstance(node, LineDict) and key in node:
            line = node.key_lines.get(key, line)
            node = node[key]
        elif isinstance(node, LineList) and isinstance(key, int) and 0 <= key < len(node):
            line = node.item_lines[key]
            node = node[key]
        else:
            break
    return line


def dotted(loc: tuple) -> str:
    out = ""
    for key in loc:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out or "(top level)"
