"""The expression language of layout files (issue #33): the functions it offers are the documented ones, each
gives data (never something callable), compiled expressions load no name outside the face's names, the
functions and the checked helpers, and every limit is documented with its value."""
from __future__ import annotations

import re
import types
from pathlib import Path

import pytest

from starpnp.generator.data import limits
from starpnp.generator.data.limits import LimitError
from starpnp.generator.look.layouts import Layouts, expressions, layoutfile
from starpnp.generator.look.layouts.expressions import FUNCTIONS, HELPERS, LayoutError, expression
from starpnp.generator.look.loader import builtin_games, find_game

README = Path(__file__).resolve().parents[2] / "components" / "README.md"

# each function's call in the documented table's spirit, over NAMES
CALLS = {
    "abs": "abs(-2)", "min": "min(1, 2)", "max": "max([1, 2])", "round": "round(2.567, 1)", "len": "len(rows)",
    "str": "str(w)", "bool": "bool(0)", "upper": "upper(title)", "lower": "lower(title)", "quoted": "quoted(title)",
    "unspecified": "unspecified(title)", "mix": "mix('#000000', '#FFFFFF', 0.5)", "text_ground": "text_ground('#AA0000')",
    "readable_ink": "readable_ink('#000000')", "legible": "legible('#777777', '#FFFFFF')",
    "star_points": "star_points(5, 5, 4, 2)", "hexagon_points": "hexagon_points(5, 5, 4, False)",
    "polygon_points": "polygon_points(5, 5, 4, 3, 0)", "entries": "entries(table)", "steps": "steps(0, 2, 3)",
    "column": "column(rows, 'a')", "position": "position(['x', 'y'], 'y')",
    "text_width": "text_width(title, 'Lato-Bold', 9)", "widest": "widest(['a', 'bbb'], 'Lato-Regular', 9)",
    "hypot": "hypot(3, 4)", "cos": "cos(60)", "sin": "sin(30)", "atan2": "atan2(1, 1)",
}
NAMES = {"w": 63.0, "title": "Hello", "rows": [{"a": 1}, {"a": 2}], "table": {"a": "b"}}


def documented_functions() -> set[str]:
    text = README.read_text(encoding="utf-8")
    table = text[text.index("| function | gives |"):]
    table = table[:table.index("\n\n")]
    return {name for row in table.splitlines()[2:] for name in re.findall(r"`([a-z_0-9]+)\(", row.split(" | ")[0])}


def test_the_functions_offered_are_the_documented_ones():
    assert set(FUNCTIONS) == documented_functions()
    assert set(CALLS) == set(FUNCTIONS)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_each_function_gives_data_never_something_callable(name):
    result = expression(CALLS[name], set(NAMES), "probe")(dict(NAMES))
    assert isinstance(result, (int, float, str, bool, list, tuple, type(None))), (name, result)
    items = result if isinstance(result, (list, tuple)) else [result]
    assert not any(callable(item) or isinstance(item, types.ModuleType) for item in items)


def test_a_compiled_expression_loads_only_the_faces_names_the_functions_and_the_helpers(monkeypatch):
    """Every expression of our four games' layout files (and ours), as compiled."""
    seen: list[tuple[set, types.CodeType]] = []
    compile_one = expressions.expression

    def recorded(text, names, where):
        value = compile_one(text, names, where)
        seen.append((set(names), value.code))
        return value

    monkeypatch.setattr(expressions, "expression", recorded)
    monkeypatch.setattr(layoutfile, "expression", recorded)
    for game in builtin_games():
        layouts = Layouts((find_game(game) / "layouts",))
        for _ in layouts.items():
            pass
    assert len(seen) > 1000
    for names, code in seen:
        loaded = set(code.co_names)
        assert loaded <= names | set(FUNCTIONS) | set(HELPERS), loaded - names - set(FUNCTIONS)
        assert not any(name.startswith("__") for name in loaded)


@pytest.mark.parametrize("text", ["column([upper], '__globals__')", "w.__class__", "min", "[x for x in rows]",
                                  "str(w, encoding='x')", "__builtins__", "w ** 2", "(lambda: w)", "b'x'", "1j"])
def test_whatever_is_not_in_the_grammar_is_refused_on_reading(text):
    with pytest.raises(LayoutError):
        expression(text, set(NAMES), "probe")


@pytest.mark.parametrize("text", ["'x' * 10000000000", "1e308 * 10", "steps(0, 1, 10 * 10000)",
                                  "polygon_points(0, 0, 1, 10000000)", "[[1] * 10000] * 10000"])
def test_every_value_is_bounded(text):
    with pytest.raises(LimitError):
        expression(text, set(NAMES), "probe")(dict(NAMES))


@pytest.mark.parametrize("text, value", [
    ("len([[0] * 100] * 990)", 990),  # 990 × 101 entries: within the whole size
    ("len(title + title + title)", 15), ("len([rows, rows, rows] + [rows])", 4), ("[] * 5 + []", []),
    ("len([[]] * 3 + [[], []])", 5), ("(title, 1) + (2,)", ("Hello", 1, 2)), ("3 * 4 + 1", 13),
])
def test_values_within_the_whole_size_are_what_python_makes(text, value):
    assert expression(text, set(NAMES), "probe")(dict(NAMES)) == value


@pytest.mark.parametrize("text, what", [
    ("[[0] * 100] * 1000", "the size of a value made"),  # 1,000 entries, but 101,000 in all
    ("[[0] * 5000, [0] * 5000] * 10", "the size of a value made"), ("[title * 2000] * 11", "the size of a value"),
    ("len(str([[0.5] * 1000] * 99))", "the length of a text"), ("column([[title * 2000]] * 11, 0)", "the size"),
    ("10000000000 * 10000000000 * 10000000000 * 10", "the digits of a whole number is 31"),
    ("len(title * 2000 + title * 2000 + 'x')", "the length of a text is 20,000"),
])
def test_a_value_is_measured_whole_as_it_is_made(text, what):
    with pytest.raises(LimitError, match=re.escape(what)):
        expression(text, set(NAMES), "probe")(dict(NAMES))


def test_the_drawing_of_one_build_has_a_clock_of_its_own(tmp_path):
    """Past MAX_DRAWING_SECONDS of drawing in all, the next face is refused, naming it and that limit."""
    from starpnp.generator.data.yamlio import DataErrors
    from starpnp.generator.look.loader import load_game
    from starpnp.generator.look.render import SceneCache

    folder = find_game("stratastar")
    game = load_game(folder)
    cache = SceneCache(3.0, folder)
    comp = game.components[0]
    cache.sketch(comp, comp.pieces[0], "front")
    cache.cpu_spent = limits.MAX_DRAWING_SECONDS + 1
    with pytest.raises(DataErrors, match="drawing the faces took more than 120 s of CPU time in all, the limit of "
                                         "one check or build"):
        cache.sketch(comp, comp.pieces[0], "front")


def test_every_limit_is_documented_with_its_value():
    text = README.read_text(encoding="utf-8")
    for name, value in limits.ALL.items():
        shown = f"{value // 1024 // 1024} MiB" if name == "MAX_FILE_BYTES" else f"{int(value):,}"
        assert f"`{name}` {shown} |" in text, name


def test_mix_past_either_end_stays_a_colour():
    """The long fuzz run's finding: `mix('#000000', '#FFFFFF', 1e300)` in a layout file made a colour of 300
    hex digits, and the build ended in a KeyError."""
    from starpnp.generator.look.layouts.base import mix

    assert FUNCTIONS["mix"] is mix
    assert [mix("#000000", "#FFFFFF", t) for t in (1e300, -1e300, 0.5)] == ["#FFFFFF", "#000000", "#808080"]


def test_a_path_whose_commands_are_not_commands_is_skipped_with_a_warning():
    """The long fuzz run's finding: a path box whose `commands` gave a text ended the build in a KeyError."""
    from starpnp.generator.look.layouts.layoutfile import _path_commands

    assert _path_commands([["M", 0, 0], ["L", 1, 2.5], ["Z"]]) == (("M", 0, 0), ("L", 1, 2.5), ("Z",))
    for wrong in ("#FFFFFF", [["M", 0]], [["Q", 0, 0, 1, 1]], [["L", "a", 1]], [[]]):
        with pytest.raises(ValueError, match="a path's commands are"):
            _path_commands(wrong)
