"""SVG path data (a `<path>`'s d) as absolute M, L, C and Z commands, which both backends draw.

A path with an error is drawn up to the error, as SVG says and as browsers do: the commands read so far are
kept and the error is told, so a file with one stray `MZ` still prints its other shapes.

Reading is in two steps: the data into each command letter's numbers, then those numbers into absolute
commands. Icon sets hold megabytes of path data (2,000 game-icons.net icons: 560,000 numbers), so the first
step has a quick way for the data nearly every file holds (numbers parted by spaces, commas, minus signs or a
second decimal point, as minifiers write them): split in a few whole-path passes and all of a path's numbers
converted at once. Anything else (an exponent, arc flags run together, a stray character, a command short of numbers)
goes the careful way, token by token, which reads up to an error and names it.
"""
from __future__ import annotations

import math
import re
from itertools import chain

from ..data.limits import MAX_SVG_NUMBER

NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
# a command letter, a number, or any other single character (an error where it stands)
TOKEN = re.compile(r"[MmZzLlHhVvCcSsQqTtAa]|" + NUMBER + r"|[^\s,]")
NUMBER_RE = re.compile(NUMBER)
LETTERS = frozenset("MmZzLlHhVvCcSsQqTtAa")
# the numbers one command takes (an arc's two flags among its seven)
ARITY = {letter: n for letters, n in (("Zz", 0), ("HhVv", 1), ("MmLlTt", 2), ("SsQq", 4), ("Cc", 6), ("Aa", 7))
         for letter in letters}
KIND = {letter: (letter.upper(), letter.islower(), n) for letter, n in ARITY.items()}  # (absolute letter, relative, step)
SECOND_POINT = re.compile(r"\.\d*+(?=\.)")  # "1.5.5" is 1.5 and .5 (possessive: no digit-by-digit retreat)
# The quick way's passes are str.translate's, one character for one (C speed, no regex): what is left once
# the numbers' characters go must be command letters, and each letter becomes a NUL to split the data at.
NUMBERS_CHARACTERS = str.maketrans("", "", "0123456789.+- \t\n\r,")
NO_LETTERS = str.maketrans("", "", "".join(LETTERS))
LETTERS_PART = str.maketrans({**dict.fromkeys(LETTERS, "\0"), ",": " "})
Segments = tuple[list[str], list[int], list[float]]  # command letters, how many numbers each, all the numbers


class PathError(Exception):
    """Where path data stops being path data, in words."""


class NumberBeyondLimit(ValueError):
    """A number past MAX_SVG_NUMBER: not an error a browser would draw around, but data past our budget."""


def path_commands(d: str) -> tuple[tuple[tuple, ...], str | None]:
    """(commands up to the first error, that error in words or None); NumberBeyondLimit for a number past
    MAX_SVG_NUMBER."""
    segments, error = _quick(d), None
    if segments is None:
        segments = [], [], []
        try:
            _careful(TOKEN.findall(d), *segments)
        except PathError as exc:
            error = str(exc)
    return _absolute(*segments), error


def _quick(d: str) -> Segments | None:
    """The data split at its command letters, spaces, commas, minus signs and second decimal points; None
    unless every piece is a number and every command has whole sets of them (the careful way reads it then)."""
    letters = d.translate(NUMBERS_CHARACTERS)
    if letters.translate(NO_LETTERS):  # a character neither a command nor part of a number
        return None
    pieces = SECOND_POINT.sub(_space_after, d.translate(LETTERS_PART).replace("-", " -")).split("\0")
    if pieces[0].strip() or (letters and letters[0] not in ("M", "m")):
        return None
    pieces = list(map(str.split, pieces[1:]))
    try:  # "1+2", a lone "-" or "." are not numbers to float()
        numbers = list(map(float, chain.from_iterable(pieces)))
    except ValueError:
        return None
    if numbers and not -MAX_SVG_NUMBER <= min(numbers) <= max(numbers) <= MAX_SVG_NUMBER:
        return None
    counts = list(map(len, pieces))
    if counts != list(map(ARITY.__getitem__, letters)):  # not one set of numbers per command: whole sets?
        if any((n % ARITY[letter] or not n) if ARITY[letter] else n for letter, n in zip(letters, counts)):
            return None
    for letter, piece in zip(letters, pieces):
        if letter in ("a", "A") and not {*piece[3::7], *piece[4::7]} <= {"0", "1"}:  # arc flags written apart
            return None
    return list(letters), counts, numbers


def _space_after(match: re.Match) -> str:
    """A function rather than a template ("\\g<0> "), which Python 3.11 expands in Python for every match."""
    return match[0] + " "


def _careful(tokens: list[str], letters: list[str], counts: list[int], numbers: list[float]) -> None:
    """Token by token into letters, counts and numbers, up to the first error (PathError, in words)."""
    index, length, command = 0, len(tokens), ""

    def take(n: int) -> list[float]:
        """The next n numbers."""
        nonlocal index
        values = tokens[index:index + n]
        try:
            taken = list(map(float, values))
        except ValueError:  # a command letter or a stray character among them
            taken = []
        if len(taken) < n:
            if len(values) < n or any(t in LETTERS for t in values):
                raise PathError(f"{command} needs {n} numbers")
            bad = next(t for t in values if not NUMBER_RE.fullmatch(t))
            raise PathError(f"{bad!r} where {command} needs a number")
        if not max(map(abs, taken)) <= MAX_SVG_NUMBER:
            bad = next(t for t, v in zip(values, taken) if not abs(v) <= MAX_SVG_NUMBER)
            raise NumberBeyondLimit(f"{command}={bad[:20]!r} is beyond ±{MAX_SVG_NUMBER:,}")
        index += n
        return taken

    def flag() -> float:
        """An arc's flag: one digit, which may stand against what follows (`a1 1 0 01.5 2`)."""
        nonlocal index
        token = tokens[index] if index < length else ""
        if token[:1] not in ("0", "1"):
            raise PathError(f"{command}: an arc's flags are 0 or 1")
        if len(token) == 1:
            index += 1
        else:
            tokens[index] = token[1:]
        return float(token[0])

    while index < length:
        token = tokens[index]
        if token in LETTERS:
            if not letters and token not in ("M", "m"):
                raise PathError("path data must start with M")
            command = token
            letters.append(command)
            counts.append(0)
            index += 1
        elif not command:
            raise PathError("path data must start with M")
        elif token[0] not in "0123456789.+-":
            raise PathError(f"{token!r} is not SVG path data")
        n = ARITY[command]
        if n == 0:
            command = ""  # numbers after Z need a command of their own
            if index < length and tokens[index] not in LETTERS:
                raise PathError("numbers after Z without a command")
            continue
        values = take(3) + [flag(), flag()] + take(2) if n == 7 else take(n)
        numbers += values
        counts[-1] += n
        if command in ("M", "m"):
            command = "l" if command == "m" else "L"  # further pairs are lines


def _absolute(letters: list[str], counts: list[int], v: list[float]) -> tuple[tuple, ...]:
    """Each command's numbers as absolute M, L, C and Z commands (quadratics and arcs as cubics). Icon sets
    run to 148,000 commands in 2,000 icons: the frequent commands are tested first, and a relative command's
    offset is two names rather than a pair built for each."""
    out: list[tuple] = []
    add = out.append
    x = y = start_x = start_y = 0.0
    cubic: tuple[float, float] | None = None  # the last C/S second control point, which S mirrors
    quad: tuple[float, float] | None = None  # the last Q/T control point, which T mirrors
    i = 0
    for letter, n in zip(letters, counts):
        upper, relative, step = KIND[letter]
        if not step:
            add(("Z",))
            x, y = start_x, start_y
            cubic = quad = None
            continue
        end = i + n
        while i < end:
            if relative:
                ox, oy = x, y
            else:
                ox = oy = 0.0
            if upper == "C":  # the most frequent, then L, M, H, V, A, S, Q
                c2x, c2y = ox + v[i + 2], oy + v[i + 3]
                x, y = ox + v[i + 4], oy + v[i + 5]
                add(("C", ox + v[i], oy + v[i + 1], c2x, c2y, x, y))
                cubic, quad = (c2x, c2y), None
            elif upper == "L":
                x, y = ox + v[i], oy + v[i + 1]
                add(("L", x, y))
                cubic = quad = None
            elif upper == "M":
                if i == end - n:  # an M's pairs after the first are lines
                    x, y = start_x, start_y = ox + v[i], oy + v[i + 1]
                    add(("M", x, y))
                else:
                    x, y = ox + v[i], oy + v[i + 1]
                    add(("L", x, y))
                cubic = quad = None
            elif upper == "H":
                x = ox + v[i]
                add(("L", x, y))
                cubic = quad = None
            elif upper == "V":
                y = oy + v[i]
                add(("L", x, y))
                cubic = quad = None
            elif upper == "A":
                px, py = ox + v[i + 5], oy + v[i + 6]
                out += arc_curves(x, y, v[i], v[i + 1], v[i + 2], v[i + 3] != 0, v[i + 4] != 0, px, py)
                x, y = px, py
                cubic = quad = None
            elif upper == "S":
                if cubic:
                    c1x, c1y = 2 * x - cubic[0], 2 * y - cubic[1]
                else:
                    c1x, c1y = x, y
                c2x, c2y = ox + v[i], oy + v[i + 1]
                x, y = ox + v[i + 2], oy + v[i + 3]
                add(("C", c1x, c1y, c2x, c2y, x, y))
                cubic, quad = (c2x, c2y), None
            else:  # quadratic: raised to the cubic of the same shape
                if upper == "Q":
                    q = (ox + v[i], oy + v[i + 1])
                    px, py = ox + v[i + 2], oy + v[i + 3]
                else:
                    q = (2 * x - quad[0], 2 * y - quad[1]) if quad else (x, y)
                    px, py = ox + v[i], oy + v[i + 1]
                add(("C", x + 2 / 3 * (q[0] - x), y + 2 / 3 * (q[1] - y),
                     px + 2 / 3 * (q[0] - px), py + 2 / 3 * (q[1] - py), px, py))
                x, y = px, py
                cubic, quad = None, q
            i += step
    return tuple(out)


def arc_curves(x1: float, y1: float, rx: float, ry: float, turn_deg: float, large: bool, sweep: bool,
               x2: float, y2: float) -> list[tuple]:
    """An SVG elliptical arc (path command A) as cubic curves of a quarter turn at most (SVG 1.1, F.6.5); each
    angle's cosine and sine are found once, for the curve that ends there and the one that starts there."""
    if x1 == x2 and y1 == y2:
        return []
    rx, ry = abs(rx), abs(ry)
    if rx < 1e-9 or ry < 1e-9:
        return [("L", x2, y2)]  # no radius (or one whose square is no number): a straight line, as SVG says
    cos, sin = math.cos(math.radians(turn_deg)), math.sin(math.radians(turn_deg))
    hx, hy = (x1 - x2) / 2, (y1 - y2) / 2
    x1p, y1p = cos * hx + sin * hy, -sin * hx + cos * hy
    grow = x1p ** 2 / rx ** 2 + y1p ** 2 / ry ** 2
    if grow > 1:  # radii too small to reach: scaled up just enough, as SVG does
        rx, ry = rx * math.sqrt(grow), ry * math.sqrt(grow)
    square = (rx * ry) ** 2 - (rx * y1p) ** 2 - (ry * x1p) ** 2
    factor = math.sqrt(max(0.0, square / ((rx * y1p) ** 2 + (ry * x1p) ** 2)))
    factor = -factor if large == sweep else factor
    cxp, cyp = factor * rx * y1p / ry, -factor * ry * x1p / rx
    cx, cy = cos * cxp - sin * cyp + (x1 + x2) / 2, sin * cxp + cos * cyp + (y1 + y2) / 2
    start = math.atan2((y1p - cyp) / ry, (x1p - cxp) / rx)
    sweep_angle = math.atan2((-y1p - cyp) / ry, (-x1p - cxp) / rx) - start
    if sweep and sweep_angle < 0:
        sweep_angle += 2 * math.pi
    elif not sweep and sweep_angle > 0:
        sweep_angle -= 2 * math.pi
    count = max(1, math.ceil(abs(sweep_angle) / (math.pi / 2) - 1e-9))
    step = sweep_angle / count
    k = 4 / 3 * math.tan(step / 4)
    # the ellipse's axes, turned: a point at angle t is (cx + ux cos t + vx sin t, cy + uy cos t + vy sin t)
    ux, uy, vx, vy = rx * cos, rx * sin, -ry * sin, ry * cos
    curves = []
    ca, sa = math.cos(start), math.sin(start)
    for j in range(1, count + 1):
        b = start + j * step
        cb, sb = math.cos(b), math.sin(b)
        u1, v1 = ca - k * sa, sa + k * ca
        u2, v2 = cb + k * sb, sb - k * cb
        ex, ey = (x2, y2) if j == count else (cx + ux * cb + vx * sb, cy + uy * cb + vy * sb)
        curves.append(("C", cx + ux * u1 + vx * v1, cy + uy * u1 + vy * v1,
                       cx + ux * u2 + vx * v2, cy + uy * u2 + vy * v2, ex, ey))
        ca, sa = cb, sb
    return curves
