"""YAML built from the parser's events (no node tree first) gives what the composing loader gives: the same
values of the same types, the same lines of every key and item, aliases shared; anything it does not build
itself goes through the composing loader, errors and all."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from starpnp.generator.data.yamlio import DataError, LineDict, LineList, _from_events, _Loader, _Unusual, load_yaml
from starpnp.resources import components_dir

ROOT = Path(__file__).resolve().parents[2]


def same(a, b, where="(top)") -> None:
    assert type(a) is type(b), where
    if isinstance(a, LineDict):
        assert (a.line, list(a), a.key_lines) == (b.line, list(b), b.key_lines), where
        for key in a:
            same(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, LineList):
        assert (a.line, len(a), a.item_lines) == (b.line, len(b), b.item_lines), where
        for index, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{index}]")
    else:
        assert a == b or (a != a and b != b), where


def composed(text: str):
    return yaml.load(text, Loader=_Loader)


GAME_FILES = sorted(components_dir().rglob("*.yaml")) + sorted((ROOT / "tests").rglob("*.yaml"))


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_of_ours_loads_as_the_composing_loader_loads_it(path):
    text = path.read_text(encoding="utf-8")
    try:
        built = _from_events(text)
    except _Unusual:  # merge keys (`<<: *base`): the composing loader builds those
        assert "<<" in text
        return
    same(built, composed(text))


@pytest.mark.parametrize("text", [
    "", "---\n", "a: 1\nb: [1, 2.5, true, null, ~, 2020-01-01, !!str 3, '4', \"x\", .inf, 0x1F, 0o17, 1_000]\n",
    "a: !!binary aGVsbG8=\n", "x: 'a\n  b'\ny: |\n  two\n  lines\n", "1.0: yes\nNo: off\n", "!!map {a: 1}",
    "!!seq [1]", "a:\n  - x\n  -\n  - y:\n", "[1, [2, [3, {k: [v]}]]]", "2020-01-01: date key\n",
])
def test_values_types_and_lines_match(text):
    same(_from_events(text), composed(text))


def test_an_alias_is_the_anchored_value_itself_with_the_anchors_line():
    text = "- &a {x: 1}\n- *a\n- b: *a\n- &s hello\n- *s\n"
    built, old = _from_events(text), composed(text)
    same(built, old)
    assert built[1] is built[0] and built[2]["b"] is built[0]
    assert built.item_lines == [1, 1, 3, 4, 4]


@pytest.mark.parametrize("text", [
    "{a: 1, a: 2}", "<<: {a: 1}\nb: 2", "!!set {a, b}", "a: !foo 1", "? [1, 2]\n: 3\n", "*x",
    "---\na: 1\n---\nb: 2\n", "&a [*a]", "a: [1, 2\n", "a: &x 1\nb: &x 2\nc: *x\n", "[" * 70 + "]" * 70,
])
def test_what_it_does_not_build_goes_to_the_composing_loader(text, tmp_path):
    with pytest.raises((_Unusual, yaml.YAMLError)):  # a syntax error is the parser's own
        _from_events(text)
    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        expected = composed(text)
    except (yaml.YAMLError, RecursionError):
        with pytest.raises(DataError):
            load_yaml(path)
    else:
        try:
            same(load_yaml(path), expected)
        except DataError as exc:  # too deep
            assert "nested" in str(exc)


def test_a_large_random_file_matches():
    rng = random.Random(27)
    lines = ["components:", "  - id: deck", "    front: {layout: card}", "    items:"]
    for n in range(400):
        if rng.random() < 0.5:
            lines.append(f"      - {{count: {rng.randint(0, 9)}, title: 'T {n}', text: \"x{n}\", v: {rng.random()}}}")
        else:
            lines += [f"      - title: T{n}", f"        tags: [{n}, b{n}, {'null' if n % 3 else 'true'}]",
                      "        nested:", f"          deep: {n}"]
    text = "\n".join(lines) + "\n"
    same(_from_events(text), composed(text))
