"""YAML loading that remembers where every key and item came from, for `file:line:` errors."""
from __future__ import annotations

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


def load_yaml(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"{path}: cannot read: {exc}") from None
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        raise DataError(f"{path}:{line}: YAML syntax error: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise DataError(f"{path}: YAML error: {exc}") from None


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
