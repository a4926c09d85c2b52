"""The benchmark deck drawn with ReportLab alone: the floor starpnp is measured against.

Poker cards (63 x 88 mm), 3 x 3 on A4, each a coloured frame, a white panel, a title and two lines of
text in embedded Lato, with crop marks at every trim line. `bare_reportlab_deck.py OUT.pdf DECK` draws a
deck named as in deck_game.deck (deck, deck850, distinct85, ...), every card afresh.
"""
import sys

from importlib.resources import files

from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from deck_game import deck


def lato(style: str) -> str:
    path = str(files("font_lato") / "files" / f"Lato-{style}.ttf")
    pdfmetrics.registerFont(TTFont(f"Lato-{style}", path))
    return f"Lato-{style}"


def main(out: str, spec: str) -> None:
    regular, black = lato("Regular"), lato("Black")
    cards = deck(spec)
    page_w, page_h = 210 * mm, 297 * mm
    cw, ch = 63 * mm, 88 * mm
    x0, y0 = (page_w - 3 * cw) / 2, (page_h - 3 * ch) / 2
    c = Canvas(out, pagesize=(page_w, page_h), invariant=1)
    for start in range(0, len(cards), 9):
        for i, (name, color, text) in enumerate(cards[start:start + 9]):
            x, y = x0 + (i % 3) * cw, y0 + (2 - i // 3) * ch
            c.setFillColor(f"#{color}")
            c.rect(x, y, cw, ch, stroke=0, fill=1)
            c.setFillColor("#FFFFFF")
            c.roundRect(x + 3 * mm, y + 3 * mm, cw - 6 * mm, ch - 15 * mm, 2 * mm, stroke=0, fill=1)
            c.setFont(black, 12)
            c.drawCentredString(x + cw / 2, y + ch - 9 * mm, name)
            c.setFillColor("#1A1A1A")
            c.setFont(regular, 8.5)
            first, second = text.split(". ", 1)
            c.drawCentredString(x + cw / 2, y + ch / 2, first + ".")
            c.drawCentredString(x + cw / 2, y + ch / 2 - 4 * mm, second)
        c.setStrokeColor("#000000")
        c.setLineWidth(0.2 * mm)
        for k in range(4):
            x, y = x0 + k * cw, y0 + k * ch
            c.line(x, y0 - 6 * mm, x, y0 - 1 * mm)
            c.line(x, y0 + 3 * ch + 1 * mm, x, y0 + 3 * ch + 6 * mm)
            c.line(x0 - 6 * mm, y, x0 - 1 * mm, y)
            c.line(x0 + 3 * cw + 1 * mm, y, x0 + 3 * cw + 6 * mm, y)
        c.showPage()
    c.save()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "deck")
