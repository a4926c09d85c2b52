"""Formula cells a workbook holds without a saved value, computed as the spreadsheet program would.

Excel and LibreOffice save each formula's value beside it, and that value is what a card shows. A workbook
written by a script (openpyxl, pandas) or by some online tools keeps only the formula; read as stored, its
cell would be empty, and a `cost` column would silently vanish from every card. Such a cell is computed here
by the `formulas` library (imported only then), within bounds, since a game folder is untrusted:

- only references within the sheet, and only the functions in COMPUTED_FUNCTIONS (arithmetic, comparisons,
  text joins, IF and friends, rounding, sums): nothing that reads another sheet or workbook, a name defined
  in the workbook, a file, the network or the clock, or makes text grow without bound (REPT, SUBSTITUTE);
- each formula is read by us first (formula_bounds.py: functions, references, literals, nesting, terms), so
  the library compiles only what is within bounds, and the terms compiled per sheet are capped;
- a range is clipped to the sheet's used cells (`SUM(B:B)` reads the rows there are), and the cells all
  ranges read together, the values formulas work on and the texts they join (bounded before each runs), the
  formulas computed and the length of a chain of formulas waiting on one another are each capped
  (limits.py), as is the length of a computed text.

A formula outside those bounds, or whose result is an error value (#VALUE!, #DIV/0!), is never an empty
cell: it reads as an Uncomputed text, which becomes one line naming the sheet, cell and formula and the fix
(open and save it in Excel or LibreOffice) where a row uses it.
"""
from __future__ import annotations

import functools
import math
import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from . import formula_bounds
from .limits import (
    MAX_CELL_CHARS, MAX_FORMULA_CHAIN, MAX_FORMULA_READS, MAX_FORMULA_SHAPES, MAX_FORMULA_COMPILED_TERMS,
    MAX_FORMULA_TEXT, MAX_FORMULA_VALUES, MAX_FORMULAS, clipped, over,
)

Cell = tuple[int, int]  # (row, column), both from 1

# Functions computed: what card lists use, each pure and bounded in what it makes from what it reads.
COMPUTED_FUNCTIONS = frozenset({
    "IF", "IFS", "IFERROR", "IFNA", "AND", "OR", "NOT", "XOR", "TRUE", "FALSE", "ISBLANK", "ISNUMBER", "ISTEXT",
    "CONCATENATE", "CONCAT", "TEXTJOIN", "LEFT", "RIGHT", "MID", "LEN", "UPPER", "LOWER", "PROPER", "TRIM",
    "FIND", "SEARCH", "EXACT", "VALUE", "TEXT",
    "SUM", "PRODUCT", "AVERAGE", "MIN", "MAX", "COUNT", "COUNTA", "COUNTBLANK", "ROUND", "ROUNDUP",
    "ROUNDDOWN", "INT", "TRUNC", "ABS", "MOD", "SIGN", "CEILING", "FLOOR", "SQRT",
})
FIX = "open and save the workbook in Excel or LibreOffice, which keeps each formula's value"


class Uncomputed(str):
    """A formula cell that has no saved value and is not computed here. As text it is the formula (so the row
    it stands in is not empty); `reason` is the one line, without file and row, that a row using it raises.
    `root` is the cell at the bottom of it: itself, or the uncomputed cell its formula reads."""

    at: str
    why: str
    reason: str
    root: "Uncomputed"

    @classmethod
    def because(cls, formula: str, at: str, why: str, root: "Uncomputed | None" = None) -> "Uncomputed":
        cell = cls(formula)
        cell.at, cell.why, cell.root = at, why, root or cell
        if root is not None:
            why = f"reads {root.at} ({clipped(root, 40)}), which {root.why}"
        cell.reason = f"the formula in {at} ({clipped(formula, 60)}) has no saved value and {why}; {FIX}"
        return cell


def address(cell: Cell) -> str:
    return f"{_letters(cell[1])}{cell[0]}"


def _letters(column: int) -> str:
    from openpyxl.utils import get_column_letter

    return get_column_letter(column)


# A cell reference in a formula (`C2`, `$C$2`), not a function's name (`LOG10(`) or another sheet's (`S!C2`)
REFERENCE = re.compile(r"(?<![A-Za-z0-9_.!$])(\$?)([A-Za-z]{1,3})(\$?)([0-9]{1,7})(?![A-Za-z0-9_(!])")
QUOTED = re.compile(r'("(?:[^"]|"")*")')


def _shape(formula: str, cell: Cell) -> tuple[str, list[Cell]]:
    """The formula with each cell reference written relative to `cell` (or as is where `$` fixes it), and the
    cells it references in order: `=C2+1` in D2 and `=C3+1` in D3 have one shape."""
    from openpyxl.utils import column_index_from_string

    places: list[Cell] = []

    def relative(match: re.Match) -> str:
        fixed_column, letters, fixed_row, digits = match.groups()
        row, column = int(digits), column_index_from_string(letters.upper())
        places.append((row, column))
        return (f"<{'$' + str(column) if fixed_column else column - cell[1]},"
                f"{'$' + str(row) if fixed_row else row - cell[0]}>")

    parts = QUOTED.split(formula)
    shape = "".join(part if index % 2 else REFERENCE.sub(relative, part) for index, part in enumerate(parts))
    return shape, places


def computed(where: str, formulas: dict[Cell, str], values: dict[Cell, Any], extent: Cell) -> dict[Cell, Any]:
    """Each formula's value (a number, text, bool or None), or an Uncomputed cell. `values` holds the sheet's
    other cells (and formulas with a saved value), `extent` its last used row and column, `where` names the
    sheet for a limit's error (`game.xlsx:Cards`)."""
    sheet = _Sheet(where, formulas, values, extent)
    return {cell: sheet.value(cell, ()) for cell in formulas}


@dataclass
class Budget:
    """What the formulas of one load (a check, a build, a studio load) have cost so far, every sheet it reads
    together: a game naming one costly workbook from a hundred decks pays for it once, not a hundred times."""

    terms: int = 0  # terms compiled
    worked: int = 0  # values worked on
    of: str = ""  # how an error says whose the budget is


_BUDGET: ContextVar[Budget | None] = ContextVar("formula_budget", default=None)


@contextmanager
def one_budget():
    """Every sheet read within shares one Budget (a sheet read outside any has its own)."""
    token = _BUDGET.set(Budget(of=" in all the sheets read"))
    try:
        yield
    finally:
        _BUDGET.reset(token)


def _parser() -> Any:
    """The formula library's parser, the library silenced (it logs a traceback for a function that fails, where
    the person reads our one line) and its rounding bounded."""
    import logging

    import formulas as library  # lazy: only a workbook with a formula saved without a value pays for it
    from formulas.functions import get_functions, wrap_ufunc

    for name in ("formulas", "schedula"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    functions = get_functions()  # the library's one table of functions, which its compiled formulas call
    for name, rounding in ROUNDINGS.items():
        functions[name] = wrap_ufunc(functools.partial(_rounded, rounding=rounding))
    return library.Parser()


# The library rounds to `digits` places by multiplying by the whole number 10 ** digits: ROUND(1,100000000)
# would make a number of a hundred million digits (while compiling, as a constant). Past 400 places either way
# every number rounds as it does at 400 (to itself, to 0, or past a float: #VALUE!), so the places are bounded.
MAX_ROUNDING_PLACES = 400
ROUNDINGS = {"ROUND": None, "ROUNDUP": math.ceil, "ROUNDDOWN": math.floor, "TRUNC": math.trunc}


def _rounded(number: float, places: float | None = None, *, rounding: Any) -> float:
    """The library's rounding to `places` bounded; only TRUNC may leave the places out (0), as in Excel."""
    from formulas.functions.math import xround

    if places is None and rounding is not math.trunc:
        raise TypeError("ROUND, ROUNDUP and ROUNDDOWN take the places")  # #VALUE!, as the library gives
    places = max(-MAX_ROUNDING_PLACES, min(MAX_ROUNDING_PLACES, places or 0))
    return xround(number, places) if rounding is None else xround(number, places, func=rounding)


class _Sheet:
    def __init__(self, where: str, formulas: dict[Cell, str], values: dict[Cell, Any], extent: Cell):
        self.parser: Any = None  # the library's, made when a formula passes our reading (importing it: ~1 s)
        self.where, self.formulas, self.values, self.extent = where, formulas, values, extent
        self.done: dict[Cell, Any] = {}
        self.shapes: dict[str, Any] = {}  # a formula's shape (see _shape) -> compiled function, or why not
        self.reads = 0
        self.budget = _BUDGET.get() or Budget()  # the load's, else this sheet's own

    def value(self, cell: Cell, chain: tuple[Cell, ...]) -> Any:
        """The value a formula or a plain cell holds (None for an empty one)."""
        if cell in self.done:
            return self.done[cell]
        if cell not in self.formulas:
            return self.values.get(cell)
        formula = self.formulas[cell]
        if cell in chain:
            loop = " → ".join(address(c) for c in (*chain[chain.index(cell):], cell))
            return Uncomputed.because(formula, address(cell), f"refers to itself ({loop})")
        if len(chain) >= MAX_FORMULA_CHAIN:
            return Uncomputed.because(formula, address(cell), f"waits on a chain of more than {MAX_FORMULA_CHAIN} "
                                                              f"formulas")
        if len(self.done) >= MAX_FORMULAS:
            raise over(self.where, "the count of formulas without a saved value", len(self.done) + 1, MAX_FORMULAS)
        result = self.done[cell] = self._computed(cell, formula, chain + (cell,))
        return result

    def _computed(self, cell: Cell, formula: str, chain: tuple[Cell, ...]) -> Any:
        import numpy

        at = address(cell)
        compiled = self._compiled(cell, formula)
        if isinstance(compiled, str):
            return Uncomputed.because(formula, at, compiled)
        function, references, measures = compiled
        arguments = []
        for reference in references:
            read = self._read(reference, chain)
            if isinstance(read, Uncomputed):  # named by the cell to fix: the one at the bottom
                return read.root if read.root.at == at else Uncomputed.because(formula, at, "", read.root)
            arguments.append(read)
        values, text = formula_bounds.work(measures, arguments)
        if values > MAX_FORMULA_VALUES:
            return Uncomputed.because(formula, at, f"may work on {values:,} values, over the limit of "
                                                   f"{MAX_FORMULA_VALUES:,}")
        if text > MAX_FORMULA_TEXT:
            return Uncomputed.because(formula, at, f"may join texts of {text:,} characters, over the limit of "
                                                   f"{MAX_FORMULA_TEXT:,}")
        self.budget.worked += values
        if self.budget.worked > MAX_FORMULA_VALUES:
            raise over(self.where, f"the count of values the formulas without a saved value{self.budget.of} work "
                                   f"on", self.budget.worked, MAX_FORMULA_VALUES)
        try:
            with numpy.errstate(all="ignore"):  # an overflow is a value (checked below), never a warning printed
                result = function(*arguments)
        except Exception:  # noqa: BLE001 - a function given what it cannot take: Excel would show an error
            return Uncomputed.because(formula, at, "is not computed here")
        if isinstance(result, numpy.ndarray):
            if result.size != 1:
                return Uncomputed.because(formula, at, "gives several values (an array)")
            result = result.ravel()[0]
        return self._plain(result, formula, at)

    def _compiled(self, cell: Cell, formula: str) -> tuple[Any, list[dict], formula_bounds.Checked] | str:
        """The formula as a function, the references it reads, in the order it takes them, and its measures; or
        why it is not computed. A column of formulas alike but for their rows (`=C2+1`, `=C3+1`, …) is compiled
        once: the library takes milliseconds to compile one, a card list has hundreds."""
        if len(formula) > MAX_CELL_CHARS or "[" in formula:
            return "is too long to compute" if len(formula) > MAX_CELL_CHARS else "reads another workbook"
        shape, places = _shape(formula, cell)
        known = self.shapes.get(shape)
        if known is None:
            if len(self.shapes) >= MAX_FORMULA_SHAPES:
                raise over(self.where, "the count of formulas without a saved value that differ other than in "
                                       "their rows", len(self.shapes) + 1, MAX_FORMULA_SHAPES)
            known = self.shapes[shape] = self._compile(formula, places)
        if isinstance(known, str):
            return known
        function, plan, measures = known
        return function, [step if isinstance(step, dict) else {
            "r1": places[step[0]][0], "n1": places[step[0]][1], "r2": places[step[1]][0], "n2": places[step[1]][1]}
            for step in plan], measures

    def _compile(self, formula: str, places: list[Cell]) -> tuple[Any, list, formula_bounds.Checked] | str:
        """Check, parse and compile one formula of a shape; its inputs as the indexes (first and last) of the
        cell references written in it, so that another formula of the shape reads its own. The library sees
        only a formula our own reading found within bounds (formula_bounds.py), and compiles at most
        MAX_FORMULA_COMPILED_TERMS terms in all the sheets one load reads."""
        measures = formula_bounds.checked(formula, COMPUTED_FUNCTIONS)
        if isinstance(measures, str):
            return measures
        self.budget.terms += measures.terms
        if self.budget.terms > MAX_FORMULA_COMPILED_TERMS:
            raise over(self.where, f"the count of terms of the formulas without a saved value compiled"
                                   f"{self.budget.of}", self.budget.terms, MAX_FORMULA_COMPILED_TERMS)
        if self.parser is None:
            self.parser = _parser()
        import numpy

        try:
            with numpy.errstate(all="ignore"):  # constant parts are computed as it compiles
                tokens, tree = self.parser.ast(formula)
                function = tree.compile()
        except Exception:  # noqa: BLE001 - the library's parser speaks in many exception types
            return "is not a formula computed here"
        for token in tokens:
            kind = type(token).__name__
            if kind == "Function" and token.name.upper() not in COMPUTED_FUNCTIONS:
                return f"uses {token.name.upper()[:20]}, which is not computed here"
            if kind == "Range" and (token.attr.get("sheet") or "!" in token.name):
                return "reads another sheet"
            if kind == "Range" and "r1" not in token.attr:
                return f"uses the name {token.attr.get('ref', token.name)[:30]!r} defined in the workbook"
        written = {f"{_letters(column)}{row}": index for index, (row, column) in enumerate(places)}
        ranges = {token.name: token.attr for token in tokens if type(token).__name__ == "Range"}
        plan: list[tuple[int, int] | dict] = []
        for name in function.inputs:
            ends = [written.get(end) for end in name.split(":")]
            if None not in ends and len(ends) <= 2:
                plan.append((ends[0], ends[-1]))
            elif name in ranges:  # a whole column (C:C) or row (2:2): the same in every formula of the shape
                attr = ranges[name]
                plan.append({key: int(attr[key]) for key in ("r1", "n1", "r2", "n2")})
            else:
                return "is not a formula computed here"
        return function, plan, measures

    def _read(self, attr: dict, chain: tuple[Cell, ...]) -> Any:
        """A reference's value: one cell's, or a range's as the library takes it (rows of values), clipped to
        the used cells; an Uncomputed address where one cell in it is."""
        import numpy
        import schedula

        if attr["r1"] == attr["r2"] and attr["n1"] == attr["n2"]:
            return self._one((attr["r1"], attr["n1"]), chain, schedula.EMPTY)
        top, bottom = max(attr["r1"], 1), min(attr["r2"], self.extent[0])
        left, right = max(attr["n1"], 1), min(attr["n2"], self.extent[1])
        rows = [[self._one((row, column), chain, schedula.EMPTY) for column in range(left, right + 1)]
                for row in range(top, bottom + 1)]
        bad = next((cell for row in rows for cell in row if isinstance(cell, Uncomputed)), None)
        if bad is not None:
            return bad
        return numpy.array(rows or [[schedula.EMPTY]], dtype=object).reshape(max(len(rows), 1), -1)

    def _one(self, cell: Cell, chain: tuple[Cell, ...], empty: Any) -> Any:
        self.reads += 1
        if self.reads > MAX_FORMULA_READS:
            raise over(self.where, "the count of cells formulas without a saved value read", self.reads,
                       MAX_FORMULA_READS)
        value = self.value(cell, chain)
        if isinstance(value, Uncomputed):
            return value
        return empty if value is None or value == "" else value

    @staticmethod
    def _plain(result: Any, formula: str, at: str) -> Any:
        """The library's result as the plain value a cell holds, or Uncomputed for an error value."""
        import schedula

        if result is schedula.EMPTY or result is None:
            return None
        if hasattr(result, "item") and not isinstance(result, str):
            result = result.item()
        if isinstance(result, bool):
            return result
        if isinstance(result, (int, float)):
            if not math.isfinite(result):
                return Uncomputed.because(formula, at, "gives a number beyond what a cell holds")
            return int(result) if isinstance(result, float) and result.is_integer() and abs(result) < 1e15 \
                else result
        if isinstance(result, str) and type(result) is str:
            if len(result) > MAX_CELL_CHARS:
                return Uncomputed.because(formula, at, f"gives a text longer than {MAX_CELL_CHARS:,} characters")
            return result
        return Uncomputed.because(formula, at, f"gives {str(result)[:20]} here")
