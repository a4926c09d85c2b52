"""Player colours, the one palette of the printed pieces and the phone (the companion's stylesheet is made
from it): each has a shape and a letter, so pieces stay tellable apart when printed in greyscale or by
colour-blind players."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated

from pydantic import AfterValidator


@dataclass(frozen=True)
class PlayerColor:
    id: str
    name: str
    hex: str  # the colour itself
    ink: str  # text/icon colour that reads on it
    shape: str  # icon name
    letter: str
    dark: str  # the same colour on a dark screen (lighter, so it reads on near-black)
    light: str = ""  # on a light screen, where the printed colour would vanish on white; else the printed one

    @property
    def on_light(self) -> str:
        return self.light or self.hex


PLAYER_COLORS: dict[str, PlayerColor] = {
    c.id: c
    for c in (
        PlayerColor("red", "Red", "#C62828", "#FFFFFF", "shape_triangle", "R", dark="#FF5A6E"),
        PlayerColor("blue", "Blue", "#1565C0", "#FFFFFF", "shape_circle", "B", dark="#5AA2FF"),
        PlayerColor("green", "Green", "#2E7D32", "#FFFFFF", "shape_square", "G", dark="#3FD17A"),
        PlayerColor("yellow", "Yellow", "#F9A825", "#1A1A1A", "shape_diamond", "Y", dark="#FFD84A"),
        PlayerColor("purple", "Purple", "#6A1B9A", "#FFFFFF", "shape_star", "P", dark="#C18CFF"),
        PlayerColor("white", "White", "#ECEFF1", "#1A1A1A", "shape_pentagon", "W", dark="#E8E8E8", light="#8A8A8A"),
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


def stylesheet() -> str:
    """The player colours as CSS custom properties (--red, ...), light and dark: the phone's palette."""
    light = " ".join(f"--{c.id}: {c.on_light};" for c in PLAYER_COLORS.values())
    dark = " ".join(f"--{c.id}: {c.dark};" for c in PLAYER_COLORS.values())
    return f":root {{ {light} }}\n@media (prefers-color-scheme: dark) {{ :root {{ {dark} }} }}\n"


def resolve(color: str) -> str:
    """A six-digit hex code from a hex code (#RGB or #RRGGBB) or a palette name: what every colour sum expects."""
    color = NAMED.get(color, color)
    if len(color) == 4 and color.startswith("#"):
        return "#" + "".join(ch * 2 for ch in color[1:])
    return color


HEX = re.compile(r"#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})")


def checked_color(value: str) -> str:
    """A colour the backends can draw: a hex code (#RGB or #RRGGBB) or one of the palette's names."""
    if value in NAMED or HEX.fullmatch(value):
        return value
    raise ValueError(f"expected a colour, #RRGGBB or one of {', '.join(NAMED)}; got {value[:40]!r}")


Color = Annotated[str, AfterValidator(checked_color)]  # for every colour field of a face layout
