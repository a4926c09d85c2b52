"""SVG path data (a `<path>`'s d) as absolute M, L, C and Z commands, which both backends draw.

A path with an error is drawn up to the error, as SVG says and as browsers do: the commands read so far are
kept and the error is told, so a file with one stray `MZ` still prints its other shapes.
"""
from __future__ import annotations

import math
import re

from ..data.limits import MAX_SVG_NUMBER

NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
# a command letter, a number, or any other single character (an error where it stands)
TOKEN = re.compile(r"[MmZzLlHhVvCcSsQqTtAa]|" + NUMBER + r"|[^\s,]")
NUMBER_RE = re.compile(NUMBER)
LETTERS = frozenset("MmZzLlHhVvCcSsQqTtAa")


class PathError(Exception):
    """Where path data stops being path data, in words."""


class NumberBeyondLimit(ValueError):
    """A number past MAX_SVG_NUMBER: not an error a browser would draw around, but data past our budget."""


def path_commands(d: str) -> tuple[tuple[tuple, ...], str | None]:
    """(commands up to the first error, that error in words or None); NumberBeyondLimit for a number past
    MAX_SVG_NUMBER."""
    out: list[tuple] = []
    try:
        _read(TOKEN.findall(d), out)
    except PathError as exc:
        return tuple(out), str(exc)
    return tuple(out), None


def _read(tokens: list[str], out: list[tuple]) -> None:
    x = y = start_x = start_y = 0.0
    cubic: tuple[float, float] | None = None  # the last C/S second control point, which S mirrors
    quad: tuple[float, float] | None = None  # the last Q/T control point, which T mirrors
    index, count, command = 0, len(tokens), ""

    def take(n: int) -> list[float]:
        """The next n numbers, converted together (icon sets hold megabytes of path data)."""
        nonlocal index
        values = tokens[index:index + n]
        try:
            numbers = list(map(float, values))
        except ValueError:  # a command letter or a stray character among them
            numbers = []
        if len(numbers) < n:
            if len(values) < n or any(t in LETTERS for t in values):
                raise PathError(f"{command} needs {n} numbers")
            bad = next(t for t in values if not NUMBER_RE.fullmatch(t))
            raise PathError(f"{bad!r} where {command} needs a number")
        if not max(map(abs, numbers)) <= MAX_SVG_NUMBER:
            bad = next(t for t, v in zip(values, numbers) if not abs(v) <= MAX_SVG_NUMBER)
            raise NumberBeyondLimit(f"{command}={bad[:20]!r} is beyond ±{MAX_SVG_NUMBER:,}")
        index += n
        return numbers

    def flag() -> float:
        """An arc's flag: one digit, which may stand against what follows (`a1 1 0 01.5 2`)."""
        nonlocal index
        token = tokens[index] if index < count else ""
        if token[:1] not in ("0", "1"):
            raise PathError(f"{command}: an arc's flags are 0 or 1")
        if len(token) == 1:
            index += 1
        else:
            tokens[index] = token[1:]
        return float(token[0])

    def mirrored(point: tuple[float, float] | None) -> tuple[float, float]:
        return (2 * x - point[0], 2 * y - point[1]) if point else (x, y)

    while index < count:
        token = tokens[index]
        if token in LETTERS:
            command = token
            index += 1
        elif not command:
            raise PathError("path data must start with M")
        elif token[0] not in "0123456789.+-":
            raise PathError(f"{token!r} is not SVG path data")
        if not out and command not in ("M", "m"):
            raise PathError("path data must start with M")
        upper = command.upper()
        relative = command.islower()
        ox, oy = (x, y) if relative else (0.0, 0.0)
        next_cubic = next_quad = None
        if upper == "Z":
            out.append(("Z",))
            x, y = start_x, start_y
            command = ""  # numbers after Z need a command of their own
            if index < count and tokens[index] not in LETTERS:
                raise PathError("numbers after Z without a command")
        elif upper == "M":
            px, py = take(2)
            x, y = start_x, start_y = ox + px, oy + py
            out.append(("M", x, y))
            command = "l" if relative else "L"  # further pairs are lines
        elif upper == "A":
            rx, ry, turn = take(3)
            large, sweep = flag(), flag()
            px, py = take(2)
            out.extend(arc_curves(x, y, rx, ry, turn, bool(large), bool(sweep), ox + px, oy + py))
            x, y = ox + px, oy + py
        elif upper in ("L", "H", "V"):
            if upper == "L":
                px, py = take(2)
                x, y = ox + px, oy + py
            elif upper == "H":
                x = ox + take(1)[0]
            else:
                y = oy + take(1)[0]
            out.append(("L", x, y))
        else:
            if upper == "C":
                x1, y1, x2, y2, px, py = take(6)
                c1, c2 = (ox + x1, oy + y1), (ox + x2, oy + y2)
            elif upper == "S":
                x2, y2, px, py = take(4)
                c1, c2 = mirrored(cubic), (ox + x2, oy + y2)
            else:  # quadratic: raised to the cubic of the same shape
                if upper == "Q":
                    qx, qy, px, py = take(4)
                    q = (ox + qx, oy + qy)
                else:
                    px, py = take(2)
                    q = mirrored(quad)
                end = (ox + px, oy + py)
                c1 = (x + 2 / 3 * (q[0] - x), y + 2 / 3 * (q[1] - y))
                c2 = (end[0] + 2 / 3 * (q[0] - end[0]), end[1] + 2 / 3 * (q[1] - end[1]))
                next_quad = q
            if upper in ("C", "S"):
                next_cubic = c2
            x, y = ox + px, oy + py
            out.append(("C", *c1, *c2, x, y))
        cubic, quad = next_cubic, next_quad


def arc_curves(x1: float, y1: float, rx: float, ry: float, turn_deg: float, large: bool, sweep: bool,
               x2: float, y2: float) -> list[tuple]:
    """An SVG elliptical arc (path command A) as cubic curves of a quarter turn at most (SVG 1.1, F.6.5)."""
    if (x1, y1) == (x2, y2):
        return []
    rx, ry = abs(rx), abs(ry)
    if rx < 1e-9 or ry < 1e-9:  # no radius (or one whose square is no number): a straight line, as SVG says
        return [("L", x2, y2)]
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

    def point(u: float, v: float) -> tuple[float, float]:
        return cx + rx * u * cos - ry * v * sin, cy + rx * u * sin + ry * v * cos

    curves = []
    for i in range(count):
        a, b = start + i * step, start + (i + 1) * step
        c1 = point(math.cos(a) - k * math.sin(a), math.sin(a) + k * math.cos(a))
        c2 = point(math.cos(b) + k * math.sin(b), math.sin(b) - k * math.cos(b))
        end = (x2, y2) if i == count - 1 else point(math.cos(b), math.sin(b))
        curves.append(("C", *c1, *c2, *end))
    return curves
