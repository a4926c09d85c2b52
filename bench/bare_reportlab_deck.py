"""The benchmark deck drawn with ReportLab alone: the floor starpnp is measured against.

It draws what `starpnp build` writes for the same deck, with plain ReportLab calls and no layout engine:
a contents page (the print guide and the one-row table) with a blank back, then per sheet nine poker cards
(63 x 88 mm) 3 x 3 on A4 — coloured frame, title, white panel, pale art panel, two lines of text, in
embedded Lato — crop marks over a white halo at every trim line, the footer (10 mm calibration square, what
the sheet holds, what is on its back), and the blank back that a one-sided sheet gets so the file prints
whole, double-sided. `bare_reportlab_deck.py OUT.pdf DECK` draws a deck named as in deck_game.deck (deck,
deck850, distinct85, ...), every card afresh.
"""
import sys

from importlib.resources import files

from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from deck_game import deck, two_lines

PAGE_W, PAGE_H = 210 * mm, 297 * mm
MARGIN = 6 * mm


def lato(style: str) -> str:
    path = str(files("font_lato") / "files" / f"Lato-{style}.ttf")
    pdfmetrics.registerFont(TTFont(f"Lato-{style}", path))
    return f"Lato-{style}"


def pale(color: str) -> str:
    """The art panel's tint: the frame colour 85 % of the way to white."""
    channels = [int(color[i:i + 2], 16) for i in (0, 2, 4)]
    return "#" + "".join(f"{round(c + (255 - c) * 0.85):02X}" for c in channels)


def blank(c: Canvas, regular: str, behind: int) -> None:
    c.setFillColor("#555555")
    c.setFont(regular, 6)
    c.drawCentredString(PAGE_W / 2, MARGIN + 1 * mm, f"This page is intentionally blank (the back of page {behind}).")
    c.showPage()


def contents(c: Canvas, regular: str, bold: str, sheets: int, count: int) -> None:
    fronts = [3 + 2 * i for i in range(sheets)]
    guide = ["1. Print at 100% / actual size with no scaling or 'fit to page'; the square on every sheet must "
             "measure 10 mm.",
             "2. Print the whole file double-sided, flipping on the long edge: each one-sided sheet of pieces has a "
             "blank back.",
             f"3. On a one-sided printer, print pages {', '.join(str(p) for p in [1, *fronts])} and skip the "
             f"blank pages ({', '.join(str(p + 1) for p in [1, *fronts])}).",
             "4. Cut along the crop marks at the edges of each block: neighbouring pieces share one cut."]
    c.setFillColor("#1A1A1A")
    c.setFont(bold, 18)
    c.drawString(MARGIN, PAGE_H - MARGIN - 8 * mm, "Bench Deck")
    c.setFont(regular, 8)
    for i, line in enumerate(guide):
        c.drawString(MARGIN, PAGE_H - MARGIN - (16 + 5 * i) * mm, line)
    y = PAGE_H - MARGIN - 42 * mm
    c.setFont(bold, 8)
    for x, head in zip((0, 70, 95, 110, 140, 155), ("Component", "Kind", "Qty", "Size (mm)", "Sides", "Pages")):
        c.drawString(MARGIN + x * mm, y, head)
    c.setStrokeColor("#1A1A1A")
    c.setLineWidth(0.3 * mm)
    c.line(MARGIN, y - 1.5 * mm, PAGE_W - MARGIN, y - 1.5 * mm)
    c.setFont(regular, 8)
    for x, cell in zip((0, 70, 95, 110, 140, 155), ("Deck", "card", str(count), "63 × 88", "1",
                                                     ", ".join(str(p) for p in fronts))):
        c.drawString(MARGIN + x * mm, y - 5 * mm, cell)
    c.showPage()
    blank(c, regular, 1)


def main(out: str, spec: str) -> None:
    regular, bold, black = lato("Regular"), lato("Bold"), lato("Black")
    cards = deck(spec)
    sheets = (len(cards) + 8) // 9
    cw, ch = 63 * mm, 88 * mm
    x0, y0 = (PAGE_W - 3 * cw) / 2, PAGE_H - 10.6 * mm - 3 * ch  # where starpnp puts the block, above the footer
    c = Canvas(out, pagesize=(PAGE_W, PAGE_H), invariant=1)
    contents(c, regular, bold, sheets, len(cards))
    for number, start in enumerate(range(0, len(cards), 9), start=1):
        for i, (name, color, text) in enumerate(cards[start:start + 9]):
            x, y = x0 + (i % 3) * cw, y0 + (2 - i // 3) * ch
            c.setFillColor(f"#{color}")
            c.rect(x, y, cw, ch, stroke=0, fill=1)
            c.setFillColor("#1A1A1A" if color == "F9A825" else "#FFFFFF")  # dark where white would not read
            c.setFont(black, 12)
            c.drawCentredString(x + cw / 2, y + ch - 9 * mm, name)
            c.setFillColor("#FFFFFF")
            c.roundRect(x + 3 * mm, y + 3 * mm, cw - 6 * mm, ch - 16.5 * mm, 2 * mm, stroke=0, fill=1)
            c.setFillColor(pale(color))
            c.roundRect(x + 5 * mm, y + 40.8 * mm, cw - 10 * mm, 31.7 * mm, 1.5 * mm, stroke=0, fill=1)
            c.setFillColor("#1A1A1A")
            c.setFont(regular, 8.5)
            first, second = two_lines(text)
            c.drawCentredString(x + cw / 2, y + ch - 65.4 * mm, first)
            c.drawCentredString(x + cw / 2, y + ch - 68.9 * mm, second)
        for color, width in (("#FFFFFF", 0.7 * mm), ("#000000", 0.2 * mm)):
            c.setStrokeColor(color)
            c.setLineWidth(width)
            for k in range(4):
                x, y = x0 + k * cw, y0 + k * ch
                c.line(x, y0 - 5 * mm, x, y0 - 0.8 * mm)
                c.line(x, y0 + 3 * ch + 0.8 * mm, x, y0 + 3 * ch + 5 * mm)
                c.line(x0 - 5 * mm, y, x0 - 0.8 * mm, y)
                c.line(x0 + 3 * cw + 0.8 * mm, y, x0 + 3 * cw + 5 * mm, y)
        page = 1 + 2 * number
        c.setStrokeColor("#1A1A1A")
        c.setLineWidth(0.2 * mm)
        c.rect(MARGIN, MARGIN, 10 * mm, 10 * mm, stroke=1, fill=0)
        c.setFillColor("#555555")
        c.setFont(regular, 6)
        c.drawCentredString(MARGIN + 5 * mm, MARGIN + 4 * mm, "10 mm")
        c.setFillColor("#1A1A1A")
        c.setFont(bold, 7.5)
        c.drawString(MARGIN + 13 * mm, MARGIN + 7 * mm, f"Bench Deck · Deck · fronts · sheet {number}/{sheets}")
        c.setFillColor("#555555")
        c.setFont(regular, 6.5)
        c.drawString(MARGIN + 13 * mm, MARGIN + 2.5 * mm, "Print at 100% (actual size, no scaling): the square must "
                     f"measure 10 mm. Back: page {page + 1}, blank (skip it when printing one-sided).")
        c.showPage()
        blank(c, regular, page)
    c.save()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "deck")
