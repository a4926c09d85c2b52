"""The statistics page's charts: horizontal bars as SVG drawn here, as the score chart is (chart.py) — no chart
library in the page, colours from the stylesheet (light and dark), one row per bar so that a 360-pixel phone
reads every label and number at the size of its text.
"""
from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

WIDTH, FONT = 360, 14  # the viewBox is a phone's width in CSS pixels: 14-unit text reads at about 13 px
BAR, GAP, TOP = 18, 10, 4  # a bar's height and the room between rows
LINE = FONT * 1.2  # a line of text
CHAR = 0.6  # a character's width in units of the font size (system-ui, generously)
LABELS_BESIDE = 130  # the widest label column; longer labels go above their bars
HISTOGRAM_BARS = 8


@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    text: str  # the number as written right of the bar
    low: float | None = None  # an interval around the value (a win rate's 95 %), drawn as a whisker
    high: float | None = None
    detail: str = ""  # a second line under `text` (the interval in numbers)


def _width(text: str) -> float:
    return len(text) * FONT * CHAR


def hbars(title: str, bars: list[Bar], most: float | None = None, mark: float | None = None,
          mark_label: str = "", columns: tuple[str, ...] = ("", "Plays")) -> Markup:
    """Bars from 0 to `most` (default: the largest value), each labelled left of it (above it, for long labels),
    with its number (and its detail under it) in a column of their own at the right, which no bar, whisker or
    `mark` reaches: `mark` draws a dashed line across the bars at that value (a seat's fair share of the wins),
    named by `mark_label` under them. The picture is for the eye; a screen reader reads the same numbers in the
    table after it (`columns`: its headings — the label's, the number's, then the detail's)."""
    most = most or max((max(b.value, b.high or 0) for b in bars), default=0) or 1
    label_width = max((_width(b.label) for b in bars), default=0) + 8
    number_width = max((_width(t) for b in bars for t in (b.text, b.detail)), default=0) + 8
    beside = label_width <= LABELS_BESIDE
    left = label_width if beside else 0
    above = 0 if beside else LINE  # room for a label over its bar
    tall = max(BAR, 2 * LINE) if any(b.detail for b in bars) else BAR
    row = above + tall + GAP
    span = WIDTH - left - number_width
    bottom = TOP + row * len(bars)
    height = bottom + (FONT * 1.4 if mark is not None else 0)

    def x(value: float) -> float:
        return left + span * min(1.0, max(0.0, value / most))

    parts = [f'<svg class="chart stats-chart" viewBox="0 0 {WIDTH} {height:.0f}" font-size="{FONT}" '
             f'aria-hidden="true">']
    for index, bar in enumerate(bars):
        top = TOP + index * row + above
        middle = top + BAR / 2
        label = (f'<text class="tick" x="{left - 6:.1f}" y="{middle + FONT / 3:.1f}" text-anchor="end">' if beside
                 else f'<text class="tick" x="0" y="{top - 3:.1f}">')
        parts.append(f'<g class="bar-row">{label}{escape(bar.label)}</text>'
                     f'<rect class="bar" x="{left:.1f}" y="{top:.1f}" width="{x(bar.value) - left:.1f}" '
                     f'height="{BAR}" rx="2"/>')
        if bar.low is not None and bar.high is not None:
            parts.append(f'<path class="interval" d="M{x(bar.low):.1f} {middle:.1f}H{x(bar.high):.1f}'
                         f'M{x(bar.low):.1f} {middle - 6:.1f}v12M{x(bar.high):.1f} {middle - 6:.1f}v12"/>')
        parts.append(f'<text class="value" x="{WIDTH}" y="{middle + FONT / 3:.1f}" text-anchor="end">'
                     f'{escape(bar.text)}</text>')
        if bar.detail:
            parts.append(f'<text class="value detail" x="{WIDTH}" y="{middle + FONT / 3 + LINE:.1f}" '
                         f'text-anchor="end">{escape(bar.detail)}</text>')
        parts.append("</g>")
    if mark is not None:
        parts.append(f'<line class="mark" x1="{x(mark):.1f}" x2="{x(mark):.1f}" y1="{TOP}" y2="{bottom - GAP / 2}"/>'
                     f'<text class="axis" x="{x(mark):.1f}" y="{bottom + FONT * 0.6:.1f}" text-anchor="middle">'
                     f'{escape(mark_label)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts)) + _table(title, bars, columns)


def _table(title: str, bars: list[Bar], columns: tuple[str, ...]) -> Markup:
    """The chart's numbers as a table for a screen reader: a row per bar."""
    detail = any(b.detail for b in bars)
    head = "".join(f'<th scope="col">{escape(c)}</th>' for c in columns[:3 if detail else 2])
    rows = "".join(f'<tr><th scope="row">{escape(b.label)}</th><td>{escape(b.text)}</td>'
                   + (f"<td>{escape(b.detail)}</td>" if detail else "") + "</tr>" for b in bars)
    return Markup(f'<div class="visually-hidden"><table class="chart-numbers"><caption>{escape(title)}</caption>'
                  f'<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>')  # a table takes no width


def histogram(title: str, counts: dict[float, int], columns: tuple[str, str]) -> Markup | None:
    """How often each value, rounded to a whole number (or each range of them, when they are many), came up
    (`counts`: value -> how often): a bar for each; the heading above the chart says what the numbers count."""
    whole: dict[int, int] = {}
    for value, n in counts.items():
        whole[round(value)] = whole.get(round(value), 0) + n
    if not whole:
        return None
    low, high = min(whole), max(whole)
    if len(whole) <= HISTOGRAM_BARS:
        bars = [(f"{v}", whole[v]) for v in sorted(whole)]
    else:
        step = max(1, -(-(high - low) // HISTOGRAM_BARS))  # whole-number ranges of equal width
        bars = [(f"{start}–{start + step - 1}", sum(n for v, n in whole.items() if start <= v < start + step))
                for start in range(low, high + 1, step)]
    return hbars(title, [Bar(label, n, f"{n}") for label, n in bars], columns=columns)
