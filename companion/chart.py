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

WIDTH, HEIGHT = 360, 190  # the viewBox, a phone's width in CSS pixels: its 12-unit text reads at 12 px there
LEFT, RIGHT, TOP, BOTTOM = 28, 78, 10, 30  # room for the score axis, the names, the round axis
NAME_GAP = 14  # the least room between two names at the lines' ends
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


def _spread(ys: list[float], low: float, high: float) -> list[float]:
    """Label positions near `ys`, at least NAME_GAP apart, within low..high (names never overlap)."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = [0.0] * len(ys)
    at = low - NAME_GAP
    for i in order:
        at = max(ys[i], at + NAME_GAP)
        placed[i] = at
    overflow = max(0.0, max(placed, default=0) - high)
    return [y - overflow for y in placed]


def svg(found: History, table: TableInfo, title: str) -> Markup:
    """The chart as an <svg> element: axes, one line per player and its name at the line's end."""
    xs, width, height = found.xs, WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    values = [v for line in found.scores.values() for v in line]
    low, high = min(0, *values), max(1, *values)
    span_x = max(1, xs[-1] - xs[0])

    def x(value: int) -> float:
        return LEFT + (value - xs[0]) / span_x * width

    def y(value: int) -> float:
        return TOP + (high - value) / (high - low) * height

    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="chart-title" '
             f'data-chart="{found.axis}"><title id="chart-title">{escape(title)}</title>']
    for value in sorted({low, high, (low + high) // 2, *([0] if low < 0 else [])}):
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{LEFT + width}" y1="{y(value):.1f}" y2="{y(value):.1f}"/>'
                     f'<text class="tick" x="{LEFT - 5}" y="{y(value) + 4:.1f}" text-anchor="end">{value}</text>')
    marks = xs if len(xs) <= 8 else xs[:: max(1, len(xs) // 5)] + [xs[-1]]
    for value in dict.fromkeys(marks):
        label = "start" if value == 0 else str(value)
        parts.append(f'<text class="tick" x="{x(value):.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">'
                     f'{label}</text>')
    parts.append(f'<text class="axis" x="{LEFT + width}" y="{HEIGHT - 2}" text-anchor="end">'
                 f'{"round" if found.axis == "round" else "change of score"}</text>')
    seats = {p["id"]: p for p in table.players}
    ends = _spread([y(line[-1]) for line in found.scores.values()], TOP + 4, TOP + height + 4)
    for index, ((player, line), label_y) in enumerate(zip(found.scores.items(), ends)):
        p = seats[player]
        points = " ".join(f"{x(a):.1f},{y(b):.1f}" for a, b in zip(xs, line))
        dash = f' stroke-dasharray="{DASHES[index % len(DASHES)]}"' if DASHES[index % len(DASHES)] else ""
        parts.append(f'<g class="series player-{escape(p.get("color", ""))}" data-series="{escape(player)}">'
                     f'<polyline class="line" points="{points}"{dash}/>'
                     f'<circle class="dot" cx="{x(xs[-1]):.1f}" cy="{y(line[-1]):.1f}" r="4"/>'
                     f'<text class="name" x="{x(xs[-1]) + 7:.1f}" y="{label_y + 4:.1f}">'
                     f'{escape(p["name"][:8])} {line[-1]}</text></g>')
    parts.append("</svg>")
    return Markup("".join(parts))


_drawn: OrderedDict[tuple[str, int], Markup | None] = OrderedDict()
_drawn_lock = threading.Lock()


def score_chart(rules: GameRules, table: TableInfo, events: list[LoggedEvent], label: str) -> Markup | None:
    """The table's chart at its version (None before there is anything to draw), drawn once per version."""
    key = (table.code, table.version)
    with _drawn_lock:
        if key in _drawn:
            return _drawn[key]
    found = history(rules, table, events)
    drawn = svg(found, table, f"{label} over time, by {found.axis}") if found and len(found.xs) > 1 else None
    with _drawn_lock:
        _drawn[key] = drawn
        while len(_drawn) > KEPT:
            _drawn.popitem(last=False)
    return drawn
