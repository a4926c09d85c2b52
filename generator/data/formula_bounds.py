"""A workbook formula checked by our own reading before the `formulas` library sees it.

The library evaluates constant parts of a formula while it compiles it (`REPT("x",1000000000)` is built then,
before anything the formula reads), and compiling costs time in proportion to the formula's size. So each
formula is first read here, by openpyxl's tokenizer (the reader that opened the workbook): its size, nesting,
functions, references and literals must be within the bounds in limits.py, or the formula is not computed
and `refusal` says why, in words for the one line that names the cell. What passes can take only bounded
time to compile; `work` then bounds what the compiled formula makes from the values it reads, before it runs.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

from .limits import MAX_FORMULA_DEPTH, MAX_FORMULA_NUMBER_CHARS, MAX_FORMULA_TERMS

# a cell (`C2`, `$C$2`), a block (`A1:B9`), whole columns (`C:C`) or rows (`2:3`): all a formula may name
REFERENCE = re.compile(r"\$?[A-Z]{1,3}\$?[0-9]{1,7}(:\$?[A-Z]{1,3}\$?[0-9]{1,7})?|\$?[A-Z]{1,3}:\$?[A-Z]{1,3}"
                       r"|\$?[0-9]{1,7}:\$?[0-9]{1,7}", re.I)
TEXT = re.compile(r'"(?:[^"]|"")*"')
# what starts a term: an operator, a separator, an opening bracket or a space; one more term than these
TERM_START = re.compile(r"[-+*/^&<>=,;({%]|\s+")
# functions whose result may be longer than any text they read: joins of many texts
JOINING = frozenset({"CONCATENATE", "CONCAT", "TEXTJOIN"})
NUMBER_TEXT = 25  # characters of a number written as text (`-1.2345678901234567e+308`)


@dataclass(frozen=True)
class Checked:
    """A formula within the bounds: its terms, its longest text literal and whether it joins texts."""

    terms: int
    longest_text: int
    joins: bool


def terms(formula: str) -> int:
    """The formula's size as the library's work goes: one more than its operators, separators, opening
    brackets and spaces outside text literals. One regular expression, so that a sheet of large formulas is
    refused by their size quickly, before any is tokenized."""
    return 1 + len(TERM_START.findall(TEXT.sub('""', formula.removeprefix("="))))


def checked(formula: str, allowed: frozenset[str]) -> Checked | str:
    """The formula's measures if every part is within bounds and every function in `allowed`; else why not."""
    from openpyxl.formula.tokenizer import Token, Tokenizer, TokenizerError

    size = terms(formula)
    if size > MAX_FORMULA_TERMS:
        return f"has {size:,} terms, over the limit of {MAX_FORMULA_TERMS:,}"
    try:
        tokens = [token for token in Tokenizer(formula).items if token.type != Token.WSPACE]
    except (TokenizerError, IndexError, ValueError):
        return "is not a formula computed here"
    depth, longest, joins = 0, 0, False
    for token in tokens:
        if token.subtype == Token.OPEN:
            depth += 1
            if depth > MAX_FORMULA_DEPTH:
                return f"nests brackets more than {MAX_FORMULA_DEPTH} deep"
        elif token.subtype == Token.CLOSE:
            depth -= 1
        if token.type == Token.FUNC and token.subtype == Token.OPEN:
            name = token.value[:-1].upper().removeprefix("_XLFN.").removeprefix("_XLWS.")
            if name not in allowed:
                return f"uses {name[:20]}, which is not computed here"
            joins = joins or name in JOINING
        elif token.type == Token.OP_IN and token.value == "&":
            joins = True
        elif token.type == Token.OPERAND:
            why = _operand(token)
            if why:
                return why
            if token.subtype == Token.TEXT:
                longest = max(longest, len(token.value) - 2)
    return Checked(size, longest, joins)


def _operand(token: Any) -> str | None:
    """Why a literal or reference is not computed here, or None."""
    from openpyxl.formula.tokenizer import Token

    value = token.value
    if token.subtype == Token.RANGE:
        if "[" in value:
            return "reads another workbook"
        if "!" in value:
            return "reads another sheet"
        if not REFERENCE.fullmatch(value):
            return f"uses the name {value[:30]!r} defined in the workbook"
    elif token.subtype == Token.NUMBER and len(value) > MAX_FORMULA_NUMBER_CHARS:
        return f"writes a number of more than {MAX_FORMULA_NUMBER_CHARS} characters"
    return None


def work(measures: Checked, arguments: Iterable[Any]) -> tuple[int, int]:
    """What the formula may make from these values, before it runs: the values it works on (the largest table
    its ranges span, as rows and columns combine, times its terms) and, where it joins texts, the characters
    of the texts it may make (those values times the longest text among them and its literals)."""
    rows = columns = 1
    longest = max(measures.longest_text, NUMBER_TEXT)
    for argument in arguments:
        shape = getattr(argument, "shape", None)
        if shape is not None:
            rows, columns = max(rows, shape[0]), max(columns, shape[-1])
        if measures.joins:
            texts = argument.flat if shape is not None else (argument,)
            longest = max(longest, max((len(text) for text in texts if isinstance(text, str)), default=0))
    values = rows * columns * measures.terms
    return values, values * longest if measures.joins else 0
