"""The expression language of layout files: a closed grammar, checked when a file is read.

An expression is made of numbers, texts, true/false/null; the face's names (its fields, the `let:` names, w,
h, bleed, shape, corner, player…, and `item` and `index` inside a repeated box); a field of an entry
(`item.cost`, `c.items`: a declared field of a list's entry or an object, or a mapping's key); lists and
`[a:b]` slices; + - * / // %; == != < <= > >= in, not in, is, is not; and, or, not; `A if C else B`; and
calls of FUNCTIONS with plain arguments. Nothing else: no attribute of a Python object, no name beginning
with `_`, no call of anything not in FUNCTIONS, no keywords, no `**`. Every node is checked against the
grammar; a field of an entry, a `+`, a `*` and a `%` become calls of the checked helpers below, and a list
written with values in it is measured; then the expression is compiled once, so a face evaluates it at the
speed of Python code.

The budget is one of work, not only of what an expression gives (generator.data.limits): every list and text
an expression makes is measured whole as it is made (_Sizes: lists within lists counted each time they
appear), so whatever then reads it — str, ==, in, a function — does bounded work; a whole number keeps
within MAX_DIGITS; each `let:` is bounded as it is assigned; and every value given is bounded (a number
finite and within ±MAX_NUMBER, a text or list of bounded length).
"""
from __future__ import annotations

import ast
import math
import re
import unicodedata
from difflib import get_close_matches
from functools import lru_cache
from itertools import accumulate
from typing import Any, Callable

from pydantic import BaseModel

from ..fonts import text_width_mm
from ..geometry import hexagon, regular_polygon, star_points
from ...data.limits import (
    MAX_DIGITS, MAX_EXPRESSION_CHARS, MAX_FORMAT_WIDTH, MAX_LIST, MAX_NUMBER, MAX_POINTS, MAX_TEXT_CHARS,
    MAX_VALUE_SIZE, MAX_YAML_DEPTH, MAX_YAML_NODES, LimitError, clipped, over,
)
from ...data.model import is_unspecified
from ...data.yamlio import DataError
from .base import legible, mix, readable_ink, text_ground


class LayoutError(DataError):
    """A problem in a layout file, already worded as `where: message`."""


class Overflow(Exception):
    """A value past a limit while an expression is evaluated; the Value evaluating it says where."""

    def __init__(self, what: str, found: Any, limit: int | float):
        super().__init__(what)
        self.what, self.found, self.limit = what, found, limit

    def at(self, where: str) -> LimitError:
        return over(where, self.what, self.found, self.limit)


# -- the size of what an expression makes ------------------------------------------------------------------

class _Sizes:
    """The whole size of values (generator.data.limits.MAX_VALUE_SIZE): an entry of a list counts one, a
    character of a text one, and a list held in several places counts each time, so `[[0] * 10000] * 10000`
    is 10^8 however few objects it takes. Every list and text an expression makes is measured when it is
    made, and refused past the limit before anything walks it (str, ==, in, a function).

    A list made earlier is not walked again: its size is remembered by identity (the list held too, so its
    id stays its own), so `a + a + a …` and `[a, a, a]` cost one step each. What is held is itself bounded:
    past a few values' worth, it is let go and sizes are measured afresh. A small list (a point, a path
    command) is cheaper to walk again than to remember."""

    HELD = 8 * MAX_VALUE_SIZE
    SMALL = 64

    def __init__(self) -> None:
        self.known: dict[int, tuple[Any, int]] = {}
        self.held = 0

    def remember(self, value: Any, size: int) -> None:
        if size <= self.SMALL:
            return
        if self.held + size > self.HELD:
            self.known, self.held = {}, 0
        self.known[id(value)] = (value, size)
        self.held += size

    def of(self, value: Any) -> int:
        """`value`'s whole size, walked without recursion and never much past the limit: the walk stops as
        soon as it is over."""
        kind = type(value)
        if kind is str:
            return len(value)
        if kind is not list and kind is not tuple and not isinstance(value, (dict, BaseModel)):
            return 1
        total, stack = 0, [value]
        while stack:
            container = stack.pop()
            known = self.known.get(id(container))
            if known is not None and known[0] is container:
                total += known[1]
            else:
                entries = container.values() if isinstance(container, dict) else (
                    container.__dict__.values() if isinstance(container, BaseModel) else container)
                total += len(entries)
                for entry in entries:
                    kind = type(entry)
                    if kind is str:
                        total += len(entry)
                    elif kind is list or kind is tuple or isinstance(entry, (dict, BaseModel)):
                        stack.append(entry)
            if total > MAX_VALUE_SIZE:
                return total
        self.remember(value, total)
        return total


SIZES = _Sizes()


def sized(value: Any, size: int | None = None) -> Any:
    """A list or text an expression made, refused past its length or its whole size; else itself."""
    kind = type(value)
    if kind is str:
        if len(value) > MAX_TEXT_CHARS:
            raise Overflow("the length of a text", len(value), MAX_TEXT_CHARS)
    elif kind is list or kind is tuple:
        if len(value) > MAX_LIST:
            raise Overflow("the length of a list", len(value), MAX_LIST)
        if size is None:
            size = SIZES.of(value)  # remembered as it is measured
        elif size <= MAX_VALUE_SIZE:
            SIZES.remember(value, size)
        if size > MAX_VALUE_SIZE:
            raise Overflow("the size of a value made (entries and characters, lists within lists counted each "
                           "time)", size, MAX_VALUE_SIZE)
    return value


MAX_WHOLE = 10 ** MAX_DIGITS - 1


def _whole(number: int) -> int:
    """A whole number an expression made, refused past MAX_DIGITS digits."""
    if -MAX_WHOLE <= number <= MAX_WHOLE:
        return number
    digits = len(str(abs(number))) if number.bit_length() < 10_000 else number.bit_length() * 3 // 10
    raise Overflow("the digits of a whole number", digits, MAX_DIGITS)


# -- the checked helpers an expression's operations become -----------------------------------------------------

def _field(entry: Any, name: str) -> Any:
    """`entry.name`: a declared field of a list's entry, an object or a region, or a mapping's key; never an
    attribute of the Python object (a method, its class, its module)."""
    if isinstance(entry, BaseModel):
        if name in _declared(type(entry)):
            return getattr(entry, name)
        raise LookupError(f"no field {name!r}")
    if isinstance(entry, dict):
        return entry[name]
    raise TypeError(f"{type(entry).__name__} has no fields (.{name})")


@lru_cache(maxsize=None)
def _declared(model: type[BaseModel]) -> frozenset[str]:
    """A model's declared fields, looked up once per model."""
    return frozenset(model.model_fields)


def _times(a: Any, b: Any) -> Any:
    """`a * b`: a text or list repeated only within the limits (not 10^10 times, nor a list of 10^4 lists of
    10^4 entries 10^4 times), measured before it is made; a whole number within MAX_DIGITS."""
    kind_a, kind_b = type(a), type(b)
    if kind_a is float or kind_b is float:
        return a * b  # a number (a text or list times a float is a TypeError)
    if kind_a is int and kind_b is int:
        return _whole(a * b)
    for sequence, count in ((a, b), (b, a)):
        if isinstance(sequence, (str, list, tuple)) and isinstance(count, int):
            limit = MAX_TEXT_CHARS if isinstance(sequence, str) else MAX_LIST
            if len(sequence) * count > limit:
                raise Overflow("a text or list repeated", len(sequence) * count, limit)
            return sized(sequence * count, None if type(sequence) is str else SIZES.of(sequence) * max(count, 0))
    return a * b


def _plus(a: Any, b: Any) -> Any:
    """`a + b`: two texts or lists joined only within the limits, measured before they are joined; a whole
    number within MAX_DIGITS."""
    kind = type(a)
    if kind is float:
        return a + b
    if kind is int and type(b) is int:
        return _whole(a + b)
    if isinstance(a, str) and isinstance(b, str):
        if len(a) + len(b) > MAX_TEXT_CHARS:
            raise Overflow("the length of a text", len(a) + len(b), MAX_TEXT_CHARS)
    elif isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):  # list + tuple: Python's TypeError
        if len(a) + len(b) > MAX_LIST:
            raise Overflow("the length of a list", len(a) + len(b), MAX_LIST)
        return sized(a + b, SIZES.of(a) + SIZES.of(b))
    return a + b


def _modulo(a: Any, b: Any) -> Any:
    """`a % b`, of numbers only: `text % value` would be Python's string formatting, with widths unbounded."""
    if isinstance(a, (str, bytes)):
        raise TypeError("% is the remainder of numbers; format a value in a text as {value:.1f}")
    return a % b


def _kept(value: Any) -> Any:
    """A `let:` value, bounded as it is assigned: a chain of lets each doubling the last stops at the first
    past a limit, not after all of them."""
    kind = type(value)
    if (kind is float or kind is int) and -MAX_NUMBER <= value <= MAX_NUMBER:
        return value
    return bounded(value)


HELPERS: dict[str, Callable] = {"_field": _field, "_times": _times, "_plus": _plus, "_modulo": _modulo,
                                "_sized": sized, "_kept": _kept}


# -- the functions, each with checked arguments ---------------------------------------------------------------

def _count(value: Any, what: str = "entries") -> int:
    """A number of entries, refused beyond MAX_LIST (a typo would otherwise take all memory)."""
    count = int(value)
    if count < 0:
        raise ValueError(f"{value} {what}: a count is 0 or more")
    if count > MAX_LIST:
        raise Overflow(f"a count of {what}", count, MAX_LIST)
    return count


def entries(value: Any) -> list:
    """A list as is, a mapping as its [key, value] pairs, a count as that many nulls."""
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        return sized([[key, entry] for key, entry in value.items()])
    return [None] * _count(value or 0)


def steps(start: float, step: float, count: int) -> list:
    """`count` numbers from `start`, `step` apart."""
    return list(accumulate([start] + [step] * (_count(count) - 1))) if count else []


def column(rows: Any, key: Any) -> list:
    """The field `key` of every entry (its entry `key` for a list of lists)."""
    return sized([row[key] if isinstance(row, (list, tuple)) else _field(row, key) for row in rows])


def _round(number: float, digits: int | None = None) -> float:
    if digits is None:
        return round(number)
    if not isinstance(digits, int) or not -10 <= digits <= 10:
        raise ValueError("round: digits are a whole number from -10 to 10")
    return round(number, digits)


def _corners(count: Any, least: int, per: int = 1) -> int:
    """A shape's count of points or sides: from `least` (a star of -5 points has no corners, which no page
    draws) to MAX_POINTS corners."""
    if int(count) < least:
        raise ValueError(f"a shape has {least} {'points' if per == 2 else 'sides'} or more, not {count}")
    if int(count) * per > MAX_POINTS:
        raise Overflow("the corners of a shape", int(count) * per, MAX_POINTS)
    return int(count)


def _made(function: Callable) -> Callable:
    """`function`, whose text or list is measured as it is made (see sized)."""
    return lambda *args: sized(function(*args))


FUNCTIONS: dict[str, Callable] = {
    "min": min, "max": max, "abs": abs, "round": _round, "len": len, "str": _made(str), "bool": bool,
    "upper": _made(lambda text: str(text).upper()), "lower": _made(lambda text: str(text).lower()),
    "unspecified": is_unspecified,
    "mix": mix, "text_ground": text_ground, "readable_ink": readable_ink, "legible": legible,
    "star_points": lambda cx, cy, outer, inner, points=5: star_points(cx, cy, outer, inner, _corners(points, 2, 2)),
    "hexagon_points": lambda cx, cy, r, pointy=True: hexagon(cx, cy, r, bool(pointy)),
    "polygon_points": lambda cx, cy, r, sides, rotate=-90: regular_polygon(cx, cy, r, _corners(sides, 3), rotate),
    "quoted": _made(repr), "entries": entries, "steps": steps, "column": column,
    "text_width": lambda text, font, size: text_width_mm(str(text), font, size),
    "widest": lambda texts, font, size: max((text_width_mm(str(t), font, size) for t in texts), default=0),
    "position": lambda items, entry: list(items).index(entry),
    "hypot": math.hypot,
    "cos": lambda degrees: math.cos(math.radians(degrees)), "sin": lambda degrees: math.sin(math.radians(degrees)),
    "atan2": lambda y, x: math.degrees(math.atan2(y, x)),
}
GLOBALS = {"__builtins__": {}, **FUNCTIONS, **HELPERS}


# -- every value bounded ------------------------------------------------------------------------------------

def bounded(value: Any) -> Any:
    """`value` itself when every number in it is finite and within ±MAX_NUMBER and every text and list within
    its length; else Overflow."""
    kind = type(value)
    if kind is float or kind is int:
        if not -MAX_NUMBER <= value <= MAX_NUMBER:  # NaN too: no comparison holds for it
            raise Overflow("a number", value if kind is float else float(value), MAX_NUMBER)
    elif kind is str:
        if len(value) > MAX_TEXT_CHARS:
            raise Overflow("the length of a text", len(value), MAX_TEXT_CHARS)
    elif kind is list or kind is tuple:
        _bounded_lists(value)
    return value


def _bounded_lists(top: list | tuple) -> None:
    """Lists within lists, walked without recursion and within a budget (one list held 10,000 times is not
    walked 10,000 times over)."""
    stack, walked = [(top, 1)], 0
    while stack:
        items, depth = stack.pop()
        if len(items) > MAX_LIST:
            raise Overflow("the length of a list", len(items), MAX_LIST)
        walked += len(items)
        if walked > MAX_YAML_NODES:
            raise Overflow("the entries of lists within lists", walked, MAX_YAML_NODES)
        if depth > MAX_YAML_DEPTH:
            raise Overflow("the nesting of lists", depth, MAX_YAML_DEPTH)
        for entry in items:
            kind = type(entry)
            if kind is list or kind is tuple:
                stack.append((entry, depth + 1))
            elif kind is float or kind is int or kind is str:
                bounded(entry)


# -- compiling -------------------------------------------------------------------------------------------------

OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.USub, ast.UAdd, ast.Not, ast.And,
             ast.Or, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Is, ast.IsNot)
NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Call, ast.Name,
         ast.Constant, ast.List, ast.Tuple, ast.Subscript, ast.Slice, ast.Attribute, ast.Load, *OPERATORS)
CONSTANTS = (int, float, str, bool, type(None))


class Value:
    """A compiled value: a constant, an expression evaluated against a face's names, or a function of them
    (a template's pieces joined, a list's entries); what it gives is bounded, a value past a limit refused
    as `where: what is N, over the limit of L`."""

    __slots__ = ("constant", "code", "compute", "tree", "where")

    def __init__(self, constant: Any = None, code: Any = None, compute: Callable[[dict], Any] | None = None,
                 tree: ast.expr | None = None, where: str = ""):
        self.constant, self.code, self.compute, self.tree, self.where = constant, code, compute, tree, where

    def __call__(self, names: dict) -> Any:
        try:
            if self.code is None:
                return self.constant if self.compute is None else bounded(self.compute(names))
            found = eval(self.code, GLOBALS, names)  # noqa: S307 (checked by expression())
            kind = type(found)  # most are true, false, null or numbers in range, checked here without a call
            if kind is bool or found is None or ((kind is float or kind is int) and -MAX_NUMBER <= found <= MAX_NUMBER):
                return found
            return bounded(found)
        except Overflow as exc:
            raise exc.at(self.where) from None


def _written(node: ast.expr, *kinds: type) -> bool:
    """A number written as such (`2`, `0.5`) of one of `kinds`."""
    return isinstance(node, ast.Constant) and type(node.value) in kinds


class _Checked(ast.NodeTransformer):
    """A checked expression's tree with each field access, `+`, `*` and `%` made a call of its helper, and each
    list written with values in it measured (sized)."""

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        return _call("_field", self.visit(node.value), ast.Constant(node.attr))

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        sides = (node.left, node.right)
        if isinstance(node.op, ast.Add) and not any(_written(side, int, float) for side in sides):
            return _call("_plus", *sides)  # `x + 2` is a number (or a TypeError), never a long text or list
        if isinstance(node.op, ast.Mult) and not any(_written(side, float) for side in sides):
            return _call("_times", *sides)  # `w * 0.5` likewise
        if isinstance(node.op, ast.Mod):
            return _call("_modulo", *sides)
        return node

    def visit_List(self, node: ast.List) -> ast.expr:
        self.generic_visit(node)
        return node if all(isinstance(entry, ast.Constant) for entry in node.elts) else _call("_sized", node)

    visit_Tuple = visit_List


def _call(helper: str, *args: ast.expr) -> ast.Call:
    return ast.Call(ast.Name(helper, ast.Load()), list(args), [])


def expression(text: str, names: set[str], where: str) -> Value:
    """`text` as a checked, compiled expression of the language above, over the names in `names`."""
    if len(text.strip()) > MAX_EXPRESSION_CHARS:
        raise LayoutError(str(over(where, "the length of an expression", len(text.strip()), MAX_EXPRESSION_CHARS)))
    try:  # kept by the names among its words: fewer to keep, and the same for a layout's every box
        tree, code = _checked(text, frozenset(names.intersection(_words(text))))
    except _Refused:
        try:  # the verdict from every name: the close ones it suggests, and any name its words missed
            tree, code = _checked.__wrapped__(text, frozenset(names))
        except _Refused as refused:
            raise LayoutError(f"{where}: {refused}") from None
    return Value(code=code, tree=tree, where=where)


WORD = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    """The words of the text, as written and as Python reads its names (NFKC): every name it uses among them."""
    return {*WORD.findall(text), *WORD.findall(unicodedata.normalize("NFKC", text))}


class _Refused(Exception):
    """Why an expression is refused, without where it is written (expression() adds that)."""


@lru_cache(maxsize=1 << 12)
def _checked(text: str, names: frozenset[str]) -> tuple[ast.expr, Any]:
    """The expression's checked tree and its code, made once per process for each text and the names it uses:
    a folder's layouts are compiled again whenever one of its files changes, and every game's use the
    built-in ones, but most expressions are the same as last time. What is refused is not kept (_Refused)."""
    shown = clipped(text, 80)
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError):  # ValueError: a NUL byte
        raise _Refused(f"not an expression: {shown!r}") from None
    except (RecursionError, MemoryError):
        raise _Refused(f"an expression nested too deep: {shown!r}") from None
    called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Pow, ast.LShift)):  # numbers a face never needs, and slow to make
            raise _Refused(f"** and << are not allowed in {shown!r}")
        if not isinstance(node, NODES):
            raise _Refused(f"{type(node).__name__.lower()} is not allowed in {shown!r}")
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            raise _Refused(f"{node.attr[:40]!r} is not allowed in {shown!r}")
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS
                                               and node.func.id not in names):
            raise _Refused(f"unknown function in {shown!r} (a field or let name is no function); "
                           f"known: {', '.join(sorted(FUNCTIONS))}")
        if isinstance(node, ast.Call) and node.keywords:
            raise _Refused(f"a function takes its arguments in order, without name=: {shown!r}")
        if isinstance(node, ast.Constant) and (type(node.value) not in CONSTANTS or (
                isinstance(node.value, str) and len(node.value) > MAX_TEXT_CHARS)):
            raise _Refused(f"{type(node.value).__name__} {str(node.value)[:20]!r} is not allowed")
        if isinstance(node, ast.Name) and id(node) not in called:
            if node.id.startswith("_"):
                raise _Refused(f"{node.id[:40]!r} is not allowed in {shown!r}")
            if node.id in FUNCTIONS and node.id not in names:
                raise _Refused(f"{node.id} is a function; call it, as {node.id}(…), in {shown!r}")
            if node.id not in names:
                close = get_close_matches(node.id, sorted(names), n=3, cutoff=0.6)
                hint = f"; did you mean {', '.join(close)}?" if close else ""
                raise _Refused(f"unknown name {node.id[:40]!r} in {shown!r}{hint}")
    try:
        checked = ast.fix_missing_locations(_Checked().visit(tree))
        code = compile(checked, "<layout expression>", "eval")
    except (RecursionError, MemoryError):
        raise _Refused(f"an expression nested too deep: {shown!r}") from None
    return checked.body, code


PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
# a format after a colon, `{tab:g}`, `{share:.0%}`: its width and precision at most MAX_FORMAT_WIDTH
_DIGITS = len(str(MAX_FORMAT_WIDTH))
FORMAT_SPEC = re.compile(rf"[<>^=]?[+\- ]?#?0?\d{{0,{_DIGITS}}}[,_]?(?:\.\d{{1,{_DIGITS}}})?[bcdeEfFgGnosxX%]?")


def template(text: str, names: set[str], where: str) -> Value:
    """Text with `{expression}` placeholders; a text that is one placeholder keeps its value's type."""
    if len(text) > MAX_TEXT_CHARS:
        raise LayoutError(str(over(where, "the length of a text", len(text), MAX_TEXT_CHARS)))
    parts = PLACEHOLDER.split(text)
    if len(parts) == 1:
        return Value(text)
    if len(parts) == 3 and parts[0] == parts[2] == "":
        return _formatted(parts[1], names, where)
    pieces = [Value(part) if i % 2 == 0 else _formatted(part, names, where) for i, part in enumerate(parts) if part]

    def joined(values: dict) -> str:
        """The pieces' texts, refused as soon as they pass MAX_TEXT_CHARS (a thousand placeholders of a long
        list would otherwise make megabytes before the whole is measured)."""
        texts, length = [], 0
        for piece in pieces:
            texts.append(str(piece(values)))
            length += len(texts[-1])
            if length > MAX_TEXT_CHARS:
                raise Overflow("the length of a text", length, MAX_TEXT_CHARS)
        return "".join(texts)

    return Value(compute=joined, where=where)


def _formatted(part: str, names: set[str], where: str) -> Value:
    """A placeholder's expression, with an optional format after a colon: `{tab:g}`, `{share:.0%}`."""
    head, colon, spec = part.rpartition(":")
    if not colon or not spec or not FORMAT_SPEC.fullmatch(spec):
        return expression(part, names, where)
    inner = expression(head, names, where)
    return Value(compute=lambda values: format(inner(values), spec), where=where)


def bundled(values: dict[str, Value], where: str) -> Callable[[dict], dict]:
    """All of a box's values at once: its expressions compiled into one (one eval per box, not per key)."""
    constants = {key: v.constant for key, v in values.items() if v.code is None and v.compute is None}
    trees = {key: v.tree for key, v in values.items() if v.tree is not None}
    others = {key: v for key, v in values.items() if v.compute is not None}
    table = ast.Expression(ast.Dict([ast.Constant(key) for key in trees], list(trees.values())))
    code = compile(ast.fix_missing_locations(table), where, "eval")

    def compute(names: dict) -> dict:
        out = dict(constants)
        if trees:
            try:
                found = eval(code, GLOBALS, names)  # noqa: S307 (every part checked by expression())
                for computed in found.values():
                    kind = type(computed)  # most are numbers in range, checked here without a call
                    if not (kind is float or kind is int) or not -MAX_NUMBER <= computed <= MAX_NUMBER:
                        bounded(computed)
            except Overflow as exc:  # which key: each evaluated on its own says so
                for key in trees:
                    values[key](names)
                raise exc.at(where) from None
            out.update(found)
        for key, other in others.items():
            out[key] = other(names)
        return out

    return compute


GUARDED = (TypeError, ValueError, ArithmeticError, LookupError, AttributeError)  # a value an expression cannot
# work with (a sum with a missing field, a division by zero): what skips a box, or a face's boxes, with a warning


class LetFailed(ValueError):
    """A `let:` that could not be computed for this face, worded `let NAME: why`."""


def let_names_assigned(lets: list[tuple[str, Value]], where: str) -> Callable[[dict], None]:
    """`let:` names in order, each usable by the next and each bounded as it is assigned, as one step that adds
    them to a face's names. A let past a limit is refused at its own line; one that cannot be computed (1 / 0)
    is a LetFailed naming it."""

    def each(values: dict) -> None:  # one let at a time: which one failed
        for let_name, compiled in lets:
            try:
                values[let_name] = compiled(values)
            except GUARDED as exc:
                raise LetFailed(f"let {let_name}: {clipped(exc, 120)}") from None

    if any(compiled.compute is not None or type(compiled.constant) not in CONSTANTS for _, compiled in lets):
        return each  # a template or a list among them
    statements = [ast.Assign([ast.Name(let_name, ast.Store())],
                             _call("_kept", compiled.tree) if compiled.tree is not None
                             else ast.Constant(compiled.constant))
                  for let_name, compiled in lets]
    code = compile(ast.fix_missing_locations(ast.Module(statements, [])), where, "exec")

    def assign(values: dict) -> None:
        try:
            exec(code, GLOBALS, values)  # noqa: S102 (assignments of checked expressions only)
        except (Overflow, *GUARDED) as exc:
            each(values)  # says which let, at its line
            raise (exc.at(where) if isinstance(exc, Overflow) else exc) from None

    return assign
