"""YAML loading that remembers where every key and item came from, for `file:line:` errors."""
from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

import yaml


class DataError(Exception):
    """One problem in the data, already formatted as `file:line: field.path: what is wrong`."""


class DataErrors(Exception):
    def __init__(self, errors: list[str]):
        super().__init__("\n".join(errors))
        self.errors = errors


class LineDict(dict):
    line: int = 0
    key_lines: dict


class LineList(list):
    line: int = 0
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


MAX_FILE_BYTES = 4 * 1024 * 1024  # a game's YAML is kilobytes; anything this big is not data
MAX_NODES = 200_000  # values after expanding aliases: refuses "billion laughs" alias bombs
MAX_DEPTH = 60  # nesting of mappings and lists


def read_text(path: Path) -> str:
    """The file's text; only a regular file of sane size (a FIFO or /dev/zero named *.yaml never hangs)."""
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


def load_yaml(path: Path) -> Any:
    text = read_text(path)
    try:
        data = yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        raise DataError(f"{path}:{line}: YAML syntax error: {str(exc.problem or exc.context)[:80]}") from None
    except yaml.YAMLError as exc:
        raise DataError(f"{path}: YAML error: {str(exc)[:80]}") from None
    except RecursionError:
        raise DataError(f"{path}: nested too deep (at most {MAX_DEPTH} levels)") from None
    except ValueError as exc:  # a scalar YAML cannot turn into a value, e.g. a 5,000-digit number
        raise DataError(f"{path}: a value that cannot be read: {str(exc)[:80]}") from None
    size, depth = _expanded_size(data)
    if size > MAX_NODES:
        raise DataError(f"{path}: aliases expand to more than {MAX_NODES} values; write the data out instead")
    if depth > MAX_DEPTH:
        raise DataError(f"{path}: nested {depth} levels deep (at most {MAX_DEPTH})")
    return data


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
