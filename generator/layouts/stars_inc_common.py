"""Stars, Inc. pieces write costs and yields as short strings ("4 H + 6 He + 2 Fe", "1 pt", "free");
this draws them as numbers beside element discs, so every board and card shows them the same way."""
from __future__ import annotations

import re

from ..fonts import text_width_mm
from ..scene import Element
from ..text import fit_text
from .base import FaceContext

# symbol -> (icon, disc colour, letter colour). The marker colours (white, purple, black, orange) are
# our pairing of the rulebook's cube colours with its four elements.
SYMBOLS = {
    "H": ("hydrogen", "#ECEFF1", "#1A1A1A"),
    "He": ("helium", "#7B1FA2", "#FFFFFF"),
    "C": ("carbon", "#263238", "#FFFFFF"),
    "Fe": ("iron", "#E65100", "#1A1A1A"),  # white on this orange reads at 3.8:1 only
    "pt": ("si_point", "#F9A825", "#1A1A1A"),
    "any": ("si_any_element", "#455A64", "#FFFFFF"),
}
TERM = re.compile(r"^(\d+)\s+(" + "|".join(SYMBOLS) + r")$")
GAP = 1.2  # mm between terms


def check_amount(value: str) -> str:
    """For pydantic validators: every term is `N symbol`, joined by `+`, or plain words."""
    for term in value.split("+"):
        term = term.strip()
        if any(ch.isdigit() for ch in term) and not TERM.match(term):
            raise ValueError(f"{value!r}: write amounts as 'N symbol' joined by '+', symbols "
                             f"{', '.join(SYMBOLS)}")
    return value


def amount_width(value: str, h: float) -> float:
    """Width in mm that `draw_amount` needs for `value` at height h."""
    size = h * 2.0
    width = 0.0
    for term in value.split("+"):
        match = TERM.match(term.strip())
        if match:
            width += text_width_mm(match[1], "Lato-Black", size) + 0.4 + h
        else:
            width += text_width_mm(term.strip(), "Lato-Bold", size * 0.8)
        width += GAP
    return width - GAP


def draw_amount(ctx: FaceContext, field: str, value: str, x: float, y: float, h: float, ink: str,
                align: str = "left") -> list[Element]:
    """`value` as a row of number + disc terms, h mm tall, starting at x (or ending at x when right)."""
    if align == "right":
        x -= amount_width(value, h)
    elif align == "center":
        x -= amount_width(value, h) / 2
    size = h * 2.0
    out: list[Element] = []
    for term in value.split("+"):
        match = TERM.match(term.strip())
        if match:
            number, symbol = match[1], match[2]
            nw = text_width_mm(number, "Lato-Black", size)
            out.append(fit_text(number, x, y, nw + 0.2, h, font="Lato-Black", size=size, min_size=6, color=ink,
                                valign="middle").text)
            x += nw + 0.4
            name, disc, letter_ink = SYMBOLS[symbol]
            out.append(ctx.icon(name, x, y, h, disc, letter_ink))
            x += h
        else:
            words = term.strip()
            tw = text_width_mm(words, "Lato-Bold", size * 0.8)
            out.append(ctx.text(field, words, x, y, tw + 0.5, h, font="Lato-Bold", size=size * 0.8, min_size=6,
                                color=ink, valign="middle"))
            x += tw
        x += GAP
    return out
