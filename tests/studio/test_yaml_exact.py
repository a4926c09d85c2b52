"""A value set in a person's YAML changes only that value's characters, whatever kind of scalar holds it and
however the file is laid out (issue #48): block scalars followed by another item or last in a file without a
final newline, flow items, CRLF lines, anchors; an alias is refused, never edited through."""
from __future__ import annotations

import json

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from starpnp.generator.data.errors import DataError
from starpnp.generator.studio.yamltext import set_value
from starpnp_test_support import examples

STYLES = ["plain", "single", "double", "|", "|-", "|+", ">", ">-"]


def written(value: str, style: str, indent: int) -> str:
    """`value` as a scalar of `style` (a block one's lines at `indent`), or the double-quoted form when that
    style cannot hold it."""
    if style == "single" and "\n" not in value:
        return "'" + value.replace("'", "''") + "'"
    if style.startswith(("|", ">")) and value.strip() and not value[0].isspace() and "\n" not in value:
        return style + "\n" + " " * indent + value + "\n"
    if style == "plain" and value and value == value.strip() and not any(c in value for c in "\n:#'\"-,{}[]&*!|>%@`?"):
        return value
    return json.dumps(value)


def document(items: list[list[tuple[str, str]]], flow: list[bool], end: str, final: bool, anchor: bool) -> str:
    lines = ["# kept by hand", "items:"]
    for number, (fields, as_flow) in enumerate(zip(items, flow)):
        mark = "&first " if anchor and number == 0 else ""
        if as_flow:
            lines.append("  - " + mark + "{" + ", ".join(f"k{n}: {json.dumps(v)}" for n, (v, _) in enumerate(fields))
                         + "}")
            continue
        for n, (value, style) in enumerate(fields):
            scalar = written(value, style, 6)
            lead = ("  - " + mark) if n == 0 else "    "
            lines.append((lead + f"k{n}: " + scalar).rstrip("\n"))
    text = end.join(lines)
    return text + end if final else text


VALUE = st.text(alphabet="ab :#'\"-\n", max_size=8)
FIELDS = st.lists(st.tuples(VALUE, st.sampled_from(STYLES)), min_size=1, max_size=3)


@settings(max_examples=examples(50), deadline=None)
@given(items=st.lists(FIELDS, min_size=1, max_size=3), flow=st.lists(st.booleans(), min_size=3, max_size=3),
       end=st.sampled_from(["\n", "\r\n"]), final=st.booleans(), anchor=st.booleans(), pick=st.integers(0, 8),
       new=st.one_of(st.text(alphabet="xy :#'\"-\n", max_size=8), st.integers(-5, 500), st.booleans()))
def test_one_value_set_changes_only_its_own_characters(items, flow, end, final, anchor, pick, new):
    text = document(items, flow, end, final, anchor)
    data = yaml.safe_load(text)
    item = pick % len(items)
    key = f"k{pick % len(items[item])}"
    changed = set_value(text, ("items", item, key), new, "cards.yaml")
    data["items"][item][key] = new
    assert yaml.safe_load(changed) == data
    node = yaml.compose(text)
    value = next(v for k, v in node.value[0][1].value[item].value if k.value == key)
    assert changed.startswith(text[:value.start_mark.index])
    following = text[value.end_mark.index:].lstrip("\r\n ")  # the next key's line onwards: its bytes kept
    assert changed.endswith(following)
    assert changed.endswith(end) == text.endswith(end)  # a final line break kept, none added


BLOCKS = ("items:\n  - title: Storm\n    text: >-\n      Lose a turn\n      and draw.\n  - title: Calm\n"
          "    text: |\n      Rest.\n")


def test_a_folded_block_followed_by_another_item_and_a_literal_last_keep_their_style():
    changed = set_value(BLOCKS, ("items", 0, "text"), "Lose two turns.", "events.yaml")
    assert changed == BLOCKS.replace("      Lose a turn\n      and draw.\n", "      Lose two turns.\n")
    last = set_value(BLOCKS, ("items", 1, "text"), "Rest twice.\n", "events.yaml")
    assert last == BLOCKS.replace("Rest.", "Rest twice.") and last.endswith("\n")
    unended = set_value(BLOCKS.rstrip("\n"), ("items", 1, "text"), "Rest twice.", "events.yaml")
    assert unended == BLOCKS.rstrip("\n").replace("text: |\n      Rest.", "text: |-\n      Rest twice.")


def test_an_alias_is_refused_and_its_anchor_is_not_edited_through_it():
    text = "items:\n  - &storm {title: Storm, count: 2}\n  - *storm\n"
    with pytest.raises(DataError, match=r"cards.yaml: items.1: an alias of what line 2 writes"):
        set_value(text, ("items", 1, "count"), 3, "cards.yaml")
    assert set_value(text, ("items", 0, "count"), 3, "cards.yaml") == text.replace("count: 2", "count: 3")
