"""The statistics page's charts: horizontal bars as SVG drawn here, as the score chart is (chart.py) — no chart
library in the page, colours from the stylesheet (light and dark), one row per bar so that a 360-pixel phone
reads every label and number at the size of its text.
"""
from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

WIDTH, FONT = 360, 14  # the viewBox is a phone's width in CSS pixels: 14-unit text reads at about 13 px
BAR, GAP, TOP, NUMBER = 18, 10, 4, 96  # a bar's height and the room between rows; room for the numbers
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


def hbars(title: str, bars: list[Bar], most: float | None = None, mark: float | None = None,
          mark_label: str = "") -> Markup:
    """Bars from 0 to `most` (default: the largest value), each labelled left of it (above it, for long labels)
    with its number right of it; `mark` draws a dashed line across them all at that value (a seat's fair share
    of the wins), named by `mark_label` under the bars."""
    most = most or max((max(b.value, b.high or 0) for b in bars), default=0) or 1
    label_width = max((len(b.label) for b in bars), default=0) * FONT * CHAR + 8
    beside = label_width <= LABELS_BESIDE
    left = label_width if beside else 0
    above = 0 if beside else FONT * 1.2  # room for a label over its bar
    row = above + BAR + GAP
    span = WIDTH - left - NUMBER
    bottom = TOP + row * len(bars)
    height = bottom + (FONT * 1.4 if mark is not None else 0)

    def x(value: float) -> float:
        return left + span * min(1.0, max(0.0, value / most))

    parts = [f'<svg class="chart stats-chart" viewBox="0 0 {WIDTH} {height:.0f}" font-size="{FONT}" role="img">'
             f'<title>{escape(title)}</title>']
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
        end = x(bar.high) if bar.high is not None else x(bar.value)
        parts.append(f'<text class="value" x="{end + 6:.1f}" y="{middle + FONT / 3:.1f}">{escape(bar.text)}</text></g>')
    if mark is not None:
        parts.append(f'<line class="mark" x1="{x(mark):.1f}" x2="{x(mark):.1f}" y1="{TOP}" y2="{bottom - GAP / 2}"/>'
                     f'<text class="axis" x="{x(mark):.1f}" y="{bottom + FONT * 0.6:.1f}" text-anchor="middle">'
                     f'{escape(mark_label)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


def histogram(title: str, counts: dict[float, int]) -> Markup | None:
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
    return hbars(title, [Bar(label, n, f"{n}") for label, n in bars])
