"""Player colours shared by every game and the companion: each has a shape and a letter, so pieces
stay tellable apart when printed in greyscale or by colour-blind players."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PlayerColor:
    id: str
    name: str
    hex: str  # the colour itself
    ink: str  # text/icon colour that reads on it
    shape: str  # icon name
    letter: str


PLAYER_COLORS: dict[str, PlayerColor] = {
    c.id: c
    for c in (
        PlayerColor("red", "Red", "#C62828", "#FFFFFF", "shape_triangle", "R"),
        PlayerColor("blue", "Blue", "#1565C0", "#FFFFFF", "shape_circle", "B"),
        PlayerColor("green", "Green", "#2E7D32", "#FFFFFF", "shape_square", "G"),
        PlayerColor("yellow", "Yellow", "#F9A825", "#1A1A1A", "shape_diamond", "Y"),
        PlayerColor("purple", "Purple", "#6A1B9A", "#FFFFFF", "shape_star", "P"),
        PlayerColor("white", "White", "#ECEFF1", "#1A1A1A", "shape_pentagon", "W"),
    )
}

# Named colours data files may use instead of hex codes.
NAMED = {
    "ink": "#1A1A1A",
    "paper": "#FFFFFF",
    "space": "#101A33",
    "grey": "#9E9E9E",
    "light": "#ECEFF1",
    **{c.id: c.hex for c in PLAYER_COLORS.values()},
}


def resolve(color: str) -> str:
    """A hex code from a hex code or a palette name."""
    return NAMED.get(color, color)
