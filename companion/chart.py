"""The game as a picture: every player's score over time, as an SVG line chart drawn here (no chart library
in the page; the CSP allows no inline style, so colours come from the stylesheet's player classes).

One point per round where the game counts rounds (the scores as each round ended, the round in play so far),
else one per change of any score; each line ends in its player's name, so no line is told by colour alone.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from markupsafe import Markup, escape

from .replay import LoggedEvent, replay_steps
from .rules import GameRules
from .storage import TableInfo


@dataclass(frozen=True)
class Size:
    """A chart's viewBox and margins (room for the score axis, the names, the round axis), in units of its text:
    the SVG scales to its box, so the text is as large as the box makes it."""

    width: int
    height: int
    font: int
    left: int
    right: int
    top: int
    bottom: int

    @property
    def name_gap(self) -> float:  # the least room between two names at the lines' ends
        return self.font * 1.15


PHONE = Size(360, 190, 13, 28, 78, 10, 30)  # a phone's width in CSS pixels, less the page's margins: 13-unit text reads at 12 px or more
TV = Size(900, 260, 30, 64, 210, 22, 72)  # wide and short, beside the big numbers; read from across the room
NAME_CHARS = 8
DASHES = ("", "7 4", "2 4", "10 3 2 3", "4 4", "1 3")  # one per seat, so lines differ in more than colour
KEPT = 64  # charts kept per table and version (each phone's fetch of a change draws the same chart)


@dataclass(frozen=True)
class History:
    axis: str  # "round" or "change"
    xs: list[int]
    scores: dict[str, list[int]]  # player id -> score at each x


def _round(derived: dict, seats: int) -> int | None:
    if isinstance(derived.get("round"), int):
        return derived["round"]
    if derived.get("declared") and isinstance(derived.get("turns"), int):  # a declared game's turns
        return derived["turns"] // seats + 1
    return None


def _short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[:NAME_CHARS - 1] + "…"


def history(rules: GameRules, table: TableInfo, events: list[LoggedEvent]) -> History | None:
    """The scores after each round (or change), from the start; None for a game without scores."""
    start = rules.derive(rules.initial_state(table.players, table.options)).get("scores")
    if not isinstance(start, dict) or not start:
        return None
    players = [p["id"] for p in table.players]
    steps: list[tuple[int | None, dict]] = [(_round(rules.derive(rules.initial_state(table.players, table.options)),
                                                    len(players)), start)]
    for _, state, counted in replay_steps(rules, table.players, table.options, events):
        if counted:
            derived = rules.derive(state)
            steps.append((_round(derived, len(players)), derived.get("scores") or steps[-1][1]))
    rounds = [r for r, _ in steps if r is not None]
    if len(set(rounds)) > 1:  # one point per round: its last scores, after the start
        last: OrderedDict[int, dict] = OrderedDict()
        for r, scores in steps[1:]:
            if r is not None:
                last[r] = scores
        xs, points = [0, *last], [start, *last.values()]
        return History("round", xs, {p: [s.get(p, 0) for s in points] for p in players})
    changed = [start] + [s for (_, s), (_, before) in zip(steps[1:], steps) if s != before]
    return History("change", list(range(len(changed))), {p: [s.get(p, 0) for s in changed] for p in players})


def _spread(ys: list[float], low: float, high: float, gap: float) -> list[float]:
    """Label positions near `ys`, at least `gap` apart, within low..high (names never overlap): pushed down
    from the top, then back up from the bottom where that ran past it."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = [0.0] * len(ys)
    at = low - gap
    for i in order:
        at = max(ys[i], at + gap)
        placed[i] = at
    at = high + gap
    for i in reversed(order):
        at = min(placed[i], at - gap)
        placed[i] = at
    return placed


def svg(found: History, table: TableInfo, title: str, size: Size = PHONE) -> Markup:
    """The chart as an <svg> element: axes, one line per player and its name at the line's end. The score axis
    spans the scores reached (Handful of Stars starts everyone at 24: a line from 0 would hide every change)."""
    LEFT, TOP, BOTTOM, HEIGHT = size.left, size.top, size.bottom, size.height
    xs, width, height = found.xs, size.width - size.left - size.right, size.height - size.top - size.bottom
    values = [v for line in found.scores.values() for v in line]
    low, high = min(values), max(values)
    if low == high:
        low, high = low - 1, high + 1
    span_x = max(1, xs[-1] - xs[0])
    font, gap = size.font, size.font * 0.4

    def x(value: int) -> float:
        return LEFT + (value - xs[0]) / span_x * width

    def y(value: int) -> float:
        return TOP + (high - value) / (high - low) * height

    parts = [f'<svg class="chart" viewBox="0 0 {size.width} {HEIGHT}" font-size="{font}" role="img" '
             f'aria-labelledby="chart-title-{size.width}" data-chart="{found.axis}">'
             f'<title id="chart-title-{size.width}">{escape(title)}</title>']  # a TV page holds two sizes
    for value in sorted({low, high, (low + high) // 2, *([0] if low < 0 else [])}):
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{LEFT + width}" y1="{y(value):.1f}" y2="{y(value):.1f}"/>'
                     f'<text class="tick" x="{LEFT - gap:.1f}" y="{y(value) + font / 3:.1f}" text-anchor="end">{value}</text>')
    marks = xs if len(xs) <= 8 else xs[:: max(1, len(xs) // 5)] + [xs[-1]]
    for value in dict.fromkeys(marks):
        label = "start" if value == 0 else str(value)
        parts.append(f'<text class="tick" x="{x(value):.1f}" y="{HEIGHT - BOTTOM + font * 1.3:.1f}" '
                     f'text-anchor="middle">{label}</text>')
    parts.append(f'<text class="axis" x="{LEFT + width}" y="{HEIGHT - font * 0.2:.1f}" text-anchor="end">'
                 f'{"round" if found.axis == "round" else "change of score"}</text>')
    seats = {p["id"]: p for p in table.players}
    ends = _spread([y(line[-1]) for line in found.scores.values()], TOP + font / 3, TOP + height + font / 3,
                   size.name_gap)
    for index, ((player, line), label_y) in enumerate(zip(found.scores.items(), ends)):
        p = seats[player]
        points = " ".join(f"{x(a):.1f},{y(b):.1f}" for a, b in zip(xs, line))
        dash = f' stroke-dasharray="{DASHES[index % len(DASHES)]}"' if DASHES[index % len(DASHES)] else ""
        parts.append(f'<g class="series player-{escape(p.get("color", ""))}" data-series="{escape(player)}">'
                     f'<polyline class="line" points="{points}"{dash}/>'
                     f'<circle class="dot" cx="{x(xs[-1]):.1f}" cy="{y(line[-1]):.1f}" r="{font / 3:.1f}"/>'
                     f'<text class="name" x="{x(xs[-1]) + font * 0.6:.1f}" y="{label_y + font / 3:.1f}">'
                     f'{escape(_short(p["name"]))} {line[-1]}</text></g>')
    parts.append("</svg>")
    return Markup("".join(parts))


_drawn: OrderedDict[tuple[str, int, Size], Markup | None] = OrderedDict()
_drawn_lock = threading.Lock()


def score_chart(rules: GameRules, table: TableInfo, events: list[LoggedEvent], label: str,
                size: Size = PHONE) -> Markup | None:
    """The table's chart at its version (None before there is anything to draw), drawn once per version."""
    key = (table.code, table.version, size)
    with _drawn_lock:
        if key in _drawn:
            return _drawn[key]
    found = history(rules, table, events)
    drawn = svg(found, table, f"{label} over time, by {found.axis}", size) if found and len(found.xs) > 1 else None
    with _drawn_lock:
        _drawn[key] = drawn
        while len(_drawn) > KEPT:
            _drawn.popitem(last=False)
    return drawn
