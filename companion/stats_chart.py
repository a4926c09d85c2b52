"""The statistics page's charts: horizontal bars as SVG drawn here, as the score chart is (chart.py) — no chart
library in the page, colours from the stylesheet (light and dark), one row per bar so that a 360-pixel phone
reads every label and number at the size of its text.
"""
from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

WIDTH, FONT, ROW = 360, 12, 24  # the viewBox is a phone's width in CSS pixels: 12-unit text reads at 12 px
LABEL, NUMBER, TOP = 84, 92, 6  # room for the labels left of the bars and the numbers right of them
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
    """Bars from 0 to `most` (default: the largest value); `mark` draws a dashed line across them all at that
    value (a seat's fair share of the wins), named by `mark_label` under the bars."""
    most = most or max((max(b.value, b.high or 0) for b in bars), default=0) or 1
    span = WIDTH - LABEL - NUMBER
    height = TOP + ROW * len(bars) + (FONT * 1.6 if mark is not None else 4)

    def x(value: float) -> float:
        return LABEL + span * min(1.0, max(0.0, value / most))

    parts = [f'<svg class="chart stats-chart" viewBox="0 0 {WIDTH} {height:.0f}" font-size="{FONT}" role="img">'
             f'<title>{escape(title)}</title>']
    for index, bar in enumerate(bars):
        top = TOP + index * ROW
        middle = top + ROW / 2
        parts.append(f'<g class="bar-row"><text class="tick" x="{LABEL - 6}" y="{middle + FONT / 3:.1f}" '
                     f'text-anchor="end">{escape(bar.label)}</text>'
                     f'<rect class="bar" x="{LABEL}" y="{top + 4}" width="{x(bar.value) - LABEL:.1f}" '
                     f'height="{ROW - 8}" rx="2"/>')
        if bar.low is not None and bar.high is not None:
            parts.append(f'<path class="interval" d="M{x(bar.low):.1f} {middle:.1f}H{x(bar.high):.1f}'
                         f'M{x(bar.low):.1f} {middle - 5:.1f}v10M{x(bar.high):.1f} {middle - 5:.1f}v10"/>')
        end = x(bar.high) if bar.high is not None else x(bar.value)
        parts.append(f'<text class="value" x="{end + 6:.1f}" y="{middle + FONT / 3:.1f}">{escape(bar.text)}</text></g>')
    if mark is not None:
        bottom = TOP + ROW * len(bars)
        parts.append(f'<line class="mark" x1="{x(mark):.1f}" x2="{x(mark):.1f}" y1="{TOP}" y2="{bottom}"/>'
                     f'<text class="axis" x="{x(mark):.1f}" y="{bottom + FONT * 1.2:.1f}" text-anchor="middle">'
                     f'{escape(mark_label)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


def histogram(title: str, values: list[int], unit: str) -> Markup | None:
    """How often each whole number (or each range of them, when they are many) came up: a bar for each."""
    if not values:
        return None
    low, high = min(values), max(values)
    distinct = sorted(set(values))
    if len(distinct) <= HISTOGRAM_BARS:
        counts = [(f"{v:g} {unit}", values.count(v)) for v in distinct]
    else:
        step = max(1, -(-(high - low) // HISTOGRAM_BARS))  # whole-number ranges of equal width
        counts = []
        start = low
        while start <= high:
            end = start + step
            counts.append((f"{start:g}–{end - 1:g} {unit}", sum(start <= v < end for v in values)))
            start = end
    return hbars(title, [Bar(label, n, f"{n}") for label, n in counts])
