"""Bad data always ends as one line naming the file (and line), exit status 2, never a traceback or a hang:
the causes the mutation fuzzer found, one test each."""
from __future__ import annotations

import os

import pytest

from cli_runner import replace, run


def check_fails(game, *expected: str) -> str:
    result = run("check", game)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and len(lines[0]) < 400, result.stderr
    assert all(text in lines[0] for text in expected), lines[0]
    return lines[0]


@pytest.mark.parametrize("colour", ["blurple", "#GGG", "#12345"])
def test_a_colour_that_is_not_one_is_refused_by_check(game, colour):
    replace(game / "cards.yaml", "front: {layout: card, color: blue}", f"front: {{layout: card, color: '{colour}'}}")
    check_fails(game, "cards.yaml:6:", "front.color", "expected a colour")


@pytest.mark.parametrize("size", [".nan", ".inf", "-3", "100000"])
def test_sizes_must_be_finite_positive_and_sane(game, size):
    replace(game / "chits.yaml", "size: 20", f"size: {size}")
    check_fails(game, "chits.yaml:", "size")


def test_counts_have_an_upper_bound(game):
    replace(game / "cards.yaml", "{count: 3, title: Attack", "{count: 99999999, title: Attack")
    check_fails(game, "cards.yaml:9:", "count", "must be ≤ 10000")


@pytest.mark.parametrize("option", ["--bleed=nan", "--margin=nan", "--bleed=inf"])
def test_bleed_and_margin_must_be_numbers(game, tmp_path, option):
    result = run("build", game, option, "--out", tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"Invalid value for '{option.split('=')[0]}'" in result.stderr


def test_an_alias_bomb_is_refused_without_expanding_it(game):
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(8))
    (game / "bomb.yaml").write_text(bomb + "components: []\n")
    check_fails(game, "bomb.yaml", "aliases expand")


def test_deep_nesting_is_refused(game):
    (game / "deep.yaml").write_text("components: " + "[" * 500 + "]" * 500 + "\n")
    check_fails(game, "deep.yaml", "nest")


def test_a_list_as_a_key_is_refused_on_its_line(game):
    (game / "keys.yaml").write_text("components:\n  - ? [a, b]\n    : 1\n")
    check_fails(game, "keys.yaml:2:", "a key must be plain text")


def test_invalid_utf8_names_its_line(game):
    (game / "latin.yaml").write_bytes(b"components:\n  # caf\xe9\n")
    check_fails(game, "latin.yaml:2:", "not UTF-8")


def test_a_fifo_named_yaml_does_not_hang(game):
    os.mkfifo(game / "pipe.yaml")
    check_fails(game, "pipe.yaml", "not a regular file")


def test_a_long_value_is_not_echoed_whole(game):
    replace(game / "cards.yaml", "{count: 3, title: Attack", "{count: " + "9" * 5000 + ", title: Attack")
    assert "9" * 100 not in check_fails(game, "cards.yaml")
