"""One budget for every input a game folder gives: a folder is untrusted (downloaded, sent by a co-designer,
served to every phone by `serve --game-folder`), so nothing in it may take unbounded time or memory.

Each limit is far beyond what a real game needs (our four games use a small share of each) and well within
what one build can afford. Going past one is bad data: `over()` makes the one line naming where (file and
line), what and the limit, and the build and `check` exit with status 2.
"""
from __future__ import annotations

from .errors import DataError

# YAML, wherever it is read (game files, layout files, a spreadsheet's cells)
MAX_FILE_BYTES = 4 * 1024 * 1024  # a game's YAML or CSV is kilobytes; anything this big is not data
MAX_YAML_NODES = 200_000  # values after expanding aliases: refuses "billion laughs" alias bombs
MAX_YAML_DEPTH = 60  # nesting of mappings and lists
MAX_CELL_CHARS = 10_000  # one spreadsheet cell

# layout files and their expressions
MAX_EXTENDS = 20  # links in a chain of layout files extending one another
MAX_EXPRESSION_CHARS = 2_000  # one expression as written
MAX_BOXES = 100_000  # boxes one face draws, after `repeat` (our largest board: 11,585)
MAX_POINTS = 10_000  # corners of one polygon, commands of one path
MAX_LIST = 10_000  # entries in a list an expression makes (a repeat's list, steps(), entries())
MAX_TEXT_CHARS = 10_000  # characters of a text an expression makes
# the whole of one value an expression makes, counted as it is made: every entry of its lists (a list held
# twice counted twice: `[[0] * 10000] * 10000` is 10^8, not 10,001) and every character of its texts, so
# that str, ==, in and every function it reaches do bounded work
MAX_VALUE_SIZE = 100_000
MAX_DIGITS = 30  # digits of a whole number an expression makes (a chain of `a * a` would double them each time)
MAX_FACE_DRAWING = 200_000  # what one face's boxes draw in all: polygon corners, path commands, characters
MAX_FACE_SECONDS = 2  # CPU seconds drawing one face may take (our largest, a board: 0.05)
MAX_DRAWING_SECONDS = 120  # CPU seconds drawing every face of one check, build or studio load may take
MAX_NUMBER = 1_000_000_000.0  # a number an expression gives: finite and within ±this (mm: ample for any page)
MAX_MESSAGE_CHARS = 500  # an error or warning line as printed
MAX_FORMAT_WIDTH = 99  # the width or precision in a `{value:10.2f}` placeholder

# a build on demand (the companion's /print): its clock; a user's own `starpnp build` has none
MAX_BUILD_SECONDS = 120
# pages of one set, --yes or not: ten reams (past 500 a build already asks for --yes); a count of thousands of
# boards would otherwise keep a build writing for many minutes
MAX_PAGES = 5_000

# SVG icons and art
# pixels of a PNG or JPEG art file (5,000 × 5,000: a 211 mm square at 600 dpi, a card's art many times over);
# drawing the largest into a PDF takes ~400 MB (bench/art_pixels.py); a larger box's art prints below 600 dpi
MAX_ART_PIXELS = 25_000_000
MAX_SVG_DEPTH = 40  # nesting of elements in an icon file, a <use> counting as one more
MAX_SVG_ELEMENTS = 20_000  # elements an icon file draws, each <use> counting what it draws (stops "use bombs")
MAX_SVG_NUMBER = 1_000_000  # no coordinate, size or scale in an icon or SVG art is larger (ReportLab writes up to 1e20)

# workbooks, published sheets and font files
MAX_UNPACKED_MIB = 16  # an .xlsx or .ods once unzipped (an .ods's content is parsed whole)
MAX_SHEET_CELLS = 1_000_000  # cells of one workbook sheet, up to its last used row and column
MAX_COLUMNS = 1_000  # columns of a card list (CSV, TSV or workbook sheet): a card has tens of fields
MAX_ROWS = 100_000  # rows of a card list, as many items as a YAML list can hold (MAX_YAML_NODES)
MAX_FETCH_SECONDS = 20  # one whole fetch of a published sheet, redirects and all (its size: MAX_FILE_BYTES)
MAX_FONT_MIB = 16  # one font file in a game's fonts/
# a workbook's formulas saved without a value, computed as it is read (data/computed.py): per sheet
MAX_FORMULAS = 5_000  # formulas computed (a 500-card list with a formula in each of 10 columns)
MAX_FORMULA_SHAPES = 500  # of them, formulas that differ other than in the rows they read (each compiled: ~10 ms)
MAX_FORMULA_READS = 1_000_000  # cells their references and ranges read, together
MAX_FORMULA_CHAIN = 100  # formulas each waiting on the next one's value
# each such formula, read by us before the formula library compiles it (data/formula_bounds.py)
MAX_FORMULA_TERMS = 200  # terms of one formula: compiling costs ~0.5-0.7 ms of CPU a term
# terms of the formulas compiled by one check, build or studio load, every sheet it reads together (~2 s of CPU)
MAX_FORMULA_COMPILED_TERMS = 3_000
MAX_FORMULA_DEPTH = 30  # brackets within brackets
MAX_FORMULA_NUMBER_CHARS = 30  # characters of a number written in a formula
# values one formula, and all of one load's (as above), work on: the table its ranges span (rows × columns), times its
# terms (~3 µs of CPU a value where a column and a row range combine into a table)
MAX_FORMULA_VALUES = 500_000
MAX_FORMULA_TEXT = 10_000_000  # characters the texts a formula joins may make, as bounded before it runs

ALL = {name: value for name, value in globals().items() if name.startswith("MAX_")}  # for the docs' test


class LimitError(DataError):
    """An input past one of the limits above, worded as one line: `where: what: found, at most LIMIT`."""


def over(where: str, what: str, found: int | float | str, limit: int | float) -> LimitError:
    """The error for `what` at `where` (`file:line: key`) being `found`, past `limit`; the caller raises it."""
    shown = f"{found:,}" if isinstance(found, int) else f"{found:g}" if isinstance(found, float) else str(found)
    return LimitError(f"{where}: {what} is {shown[:40]}, over the limit of {int(limit):,}")


def clipped(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """A message (or a value quoted in one) cut to `limit` characters: an error or warning line stays a line."""
    text = str(text)
    return text if len(text) <= limit else text[:limit - 1] + "…"
