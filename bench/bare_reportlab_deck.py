"""The benchmark deck drawn with ReportLab alone: the floor starpnp is measured against.

It draws what `starpnp build --format pdf --bleed 0 --duplex off` writes for the same deck, with plain
ReportLab calls and no layout engine, at the same places: the contents page (title, what you need, how to
print, the one-row table), then per sheet up to nine poker cards (63 x 88 mm) 3 x 3 on A4, the block centred
as starpnp centres it — coloured frame, title, white panel, pale art panel, the text wrapped to the text box's
width, in embedded Lato — the crop marks (a white halo under each black mark) at every trim line, and the
footer (10 mm calibration square, what the sheet holds, what is on its back). Fronts only: no blank backs.
`bare_reportlab_deck.py OUT.pdf DECK` draws a deck named as in deck_game.deck (deck, deck850, distinct85,
...), every card afresh.
"""
import math
import sys

from importlib.resources import files

from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from deck_game import deck

PAGE_W, PAGE_H = 210.0, 297.0  # mm; y below is measured from the top of the page, as starpnp measures it
MARGIN = 6.0
CARD_W, CARD_H = 63.0, 88.0
AREA = (8.5, 8.5, 193.0, 270.5)  # where a block of cards may go: the page less margin, mark room and footer
INK, MUTED = "#1A1A1A", "#555555"


def lato(style: str) -> str:
    path = str(files("font_lato") / "files" / f"Lato-{style}.ttf")
    pdfmetrics.registerFont(TTFont(f"Lato-{style}", path))
    return f"Lato-{style}"


def pale(color: str) -> str:
    """The art panel's tint: the frame colour 85 % of the way to white."""
    channels = [int(color[i:i + 2], 16) for i in (0, 2, 4)]
    return "#" + "".join(f"{round(c + (255 - c) * 0.85):02X}" for c in channels)


def text(c: Canvas, font: str, size: float, x: float, y: float, value: str, centred: bool = False) -> None:
    """One line with its baseline at y mm from the top of the page."""
    c.setFont(font, size)
    (c.drawCentredString if centred else c.drawString)(x * mm, (PAGE_H - y) * mm, value)


def contents(c: Canvas, regular: str, bold: str, black: str, pages: int, count: int) -> None:
    c.setFillColor(INK)
    text(c, black, 24, MARGIN, 12.81567, "Bench Deck")
    text(c, black, 11, MARGIN, 24.12385, "What you need")
    text(c, regular, 8.5, MARGIN, 29.91388, f"• {pages} sheets of A4 paper (card of 160–250 g/m² makes sturdier "
         "pieces, if your printer takes it).")
    text(c, regular, 8.5, MARGIN, 34.65224, "• Scissors, a ruler and a pencil; a craft knife and a cutting mat "
         "make long straight cuts cleaner.")
    text(c, black, 11, MARGIN, 41.60057, "How to print and make it")
    for y, line in ((47.3906, "1. Print at 100% / actual size with no scaling or 'fit to page'; the square on every "
                               "sheet must measure 10 mm."),
                    (52.42897, "2. This file is for printing single-sided: pieces' backs are left out."),
                    (57.46733, "3. Cut along the crop marks at the edges of each block: neighbouring pieces share "
                               "one cut.")):
        text(c, regular, 8.5, MARGIN, y, line)
    text(c, black, 11, MARGIN, 64.71565, "Contents")
    columns = (6, 77.28, 105, 120.84, 152.52, 172.32)
    for x, head in zip(columns, ("Component", "Kind", "Qty", "Size (mm)", "Sides", "Pages")):
        text(c, bold, 8, x, 70.36369, head)
    c.setStrokeColor(INK)
    c.setLineWidth(0.3 * mm)
    c.line(MARGIN * mm, (PAGE_H - 73.29181) * mm, (PAGE_W - MARGIN) * mm, (PAGE_H - 73.29181) * mm)
    for x, cell in zip(columns, ("Deck", "card", str(count), "63 × 88", "1", f"2–{pages}")):
        text(c, regular, 8, x, 76.36369, cell)
    c.showPage()


def card(c: Canvas, x: float, y: float, title: str, color: str, body: str, fonts: tuple[str, str]) -> None:
    """One card with its top-left corner at (x, y) mm from the page's top-left."""
    regular, black = fonts
    left, bottom = x * mm, (PAGE_H - y - CARD_H) * mm
    c.setFillColor(f"#{color}")
    c.rect(left, bottom, CARD_W * mm, CARD_H * mm, stroke=0, fill=1)
    c.setFillColor(INK if color == "F9A825" else "#FFFFFF")  # dark where white would not read
    text(c, black, 12, x + CARD_W / 2, y + 9.571167, title, centred=True)
    c.setFillColor("#FFFFFF")
    c.roundRect((x + 3) * mm, (PAGE_H - y - 85) * mm, 57 * mm, 71.44 * mm, 2 * mm, stroke=0, fill=1)
    c.setFillColor(pale(color))
    c.roundRect((x + 5) * mm, (PAGE_H - y - 47.24) * mm, 53 * mm, 31.68 * mm, 1.5 * mm, stroke=0, fill=1)
    c.setFillColor(INK)
    lines = simpleSplit(body, regular, 8.5, 51 * mm)
    leading = 8.5 * 1.18 * 25.4 / 72
    first = 67.13458 - (len(lines) - 1) * leading / 2  # the lines centred on the text box, as starpnp sets them
    for i, line in enumerate(lines):
        text(c, regular, 8.5, x + CARD_W / 2, y + first + i * leading, line, centred=True)


def marks(c: Canvas, xs: list[float], ys: list[float], top: float, bottom: float) -> None:
    """Crop marks extending every trim line outward from the block, a white halo under each black line."""
    left, right = xs[0], xs[-1]
    lines = ([(x, max(MARGIN, top - 5), x, top - 0.6) for x in xs]
             + [(x, bottom + 0.6, x, min(PAGE_H - MARGIN - 12, bottom + 5)) for x in xs]
             + [(max(MARGIN, left - 5), y, left - 0.6, y) for y in ys]
             + [(right + 0.6, y, min(PAGE_W - MARGIN, right + 5), y) for y in ys])
    for color, width in (("#FFFFFF", 0.7), ("#000000", 0.2)):
        c.setStrokeColor(color)
        c.setLineWidth(width * mm)
        for x1, y1, x2, y2 in lines:
            c.line(x1 * mm, (PAGE_H - y1) * mm, x2 * mm, (PAGE_H - y2) * mm)


def footer(c: Canvas, regular: str, bold: str, number: int, pages: int) -> None:
    top = PAGE_H - MARGIN - 10
    c.setStrokeColor(INK)
    c.setLineWidth(0.2 * mm)
    c.rect(MARGIN * mm, MARGIN * mm, 10 * mm, 10 * mm, stroke=1, fill=0)
    c.setFillColor(MUTED)
    text(c, regular, 6, MARGIN + 5, top + 5.645583, "10 mm", centred=True)
    c.setFillColor(INK)
    text(c, bold, 7.5, MARGIN + 13, top + 2.629896, f"Bench Deck · Deck · fronts · sheet {number} of {pages}")
    c.setFillColor(MUTED)
    text(c, regular, 6.5, MARGIN + 13, top + 7.04591, "Print at 100% (actual size, no scaling): the square must "
         "measure 10 mm. Nothing is printed on its back.")


def main(out: str, spec: str) -> None:
    regular, bold, black = lato("Regular"), lato("Bold"), lato("Black")
    cards = deck(spec)
    sheets = (len(cards) + 8) // 9
    c = Canvas(out, pagesize=(PAGE_W * mm, PAGE_H * mm), invariant=1)
    contents(c, regular, bold, black, sheets + 1, len(cards))
    ax, ay, aw, ah = AREA
    for number, start in enumerate(range(0, len(cards), 9), start=2):
        chunk = cards[start:start + 9]
        cols, rows = min(3, len(chunk)), math.ceil(len(chunk) / 3)
        x0, y0 = ax + (aw - cols * CARD_W) / 2, ay + (ah - rows * CARD_H) / 2
        for i, (title, color, body) in enumerate(chunk):
            card(c, x0 + (i % 3) * CARD_W, y0 + (i // 3) * CARD_H, title, color, body, (regular, black))
        marks(c, [x0 + k * CARD_W for k in range(cols + 1)], [y0 + k * CARD_H for k in range(rows + 1)],
              y0, y0 + rows * CARD_H)
        footer(c, regular, bold, number, sheets + 1)
        c.showPage()
    c.save()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "deck")
