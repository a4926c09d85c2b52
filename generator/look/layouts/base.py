"""What every layout gets: the face's size, colours, and helpers that report problems as warnings."""
from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field
from difflib import get_close_matches
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Callable, Literal, Mapping

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, WithJsonSchema

from ..fonts import GAME_FACES, bolder, missing_glyphs
from ..gamefonts import resolve_font
from ..geometry import hexagon
from ..icons import ICON_FOLDER, draw_icon, icon_file, icon_names
from ..images import image_problem, outside
from ...data.limits import (MAX_BOXES, MAX_BUILD_SECONDS, MAX_DRAWING_SECONDS, MAX_FACE_DRAWING, MAX_FACE_SECONDS,
                            LimitError, clipped, over)
from ...data.origin import Origin
from ...data.palette import PlayerColor, resolve
from ..scene import Circle, Element, Group, Image, Line, Polygon, Rect, Style
from ..text import fit_rich, fit_text



class FaceParams(BaseModel):
    """Fields every layout accepts; a layout subclasses this with its own."""

    # A spreadsheet cell or a YAML value such as `title: 1984` is a number; a text field takes it as text.
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, coerce_numbers_to_str=True)
    layout: str
    background_art: str | None = Field(None, description="image (PNG, JPEG, SVG) covering the whole face, "
                                                         "bleed included; the layout draws on top")
    background_fit: Literal["cover", "contain"] = "cover"


@dataclass(frozen=True)
class Layout:
    """A layout found by name: the fields its faces take and how it draws them. `key` changes whenever what
    it draws may change (its file was edited), so drawn faces are remembered by it."""

    name: str
    params: type[FaceParams]
    draw: Callable[["FaceContext", FaceParams], list[Element]]
    key: str = ""
    description: str = ""
    # the places of its top-level boxes on one face ({name: {x, y, w, h, movable, kind[, fit]}} in mm), for the
    # studio's layout mode and the pictures it scales
    places: Callable[["FaceContext", FaceParams], dict[str, dict]] | None = None


def mix(color: str, other: str, t: float) -> str:
    """Blend two hex colours: t=0 gives `color`, t=1 gives `other`; a `t` past either end (a layout file's
    expression may give any) stops at the nearest colour a channel can hold."""
    a, b = resolve(color).lstrip("#"), resolve(other).lstrip("#")
    channels = (min(255, max(0, round(int(a[i:i + 2], 16) * (1 - t) + int(b[i:i + 2], 16) * t))) for i in (0, 2, 4))
    return "#" + "".join(f"{c:02X}" for c in channels)


@lru_cache(maxsize=4096)
def luminance(color: str) -> float:
    """Relative luminance (WCAG 2): how light a colour looks, 0 for black, 1 for white."""
    h = resolve(color).lstrip("#")

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(h[i:i + 2], 16) / 255) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours, 1 (none) to 21 (black on white); text needs 4.5."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def readable_ink(background: str) -> str:
    """Near-black or white, whichever contrasts more with `background`."""
    dark, light = "#1A1A1A", "#FFFFFF"
    return dark if contrast_ratio(dark, background) >= contrast_ratio(light, background) else light


TEXT_CONTRAST = 4.5  # WCAG AA: the least contrast any printed text has with what is behind it


@lru_cache(maxsize=4096)
def legible(color: str, background: str) -> str:
    """`color`, moved toward black or white (whichever reads on `background`) just far enough to read."""
    color, ink = resolve(color), readable_ink(background)
    for step in range(11):
        shade = mix(color, ink, step / 10)
        if contrast_ratio(shade, background) >= TEXT_CONTRAST:
            return shade
    return ink


@lru_cache(maxsize=4096)
def text_ground(color: str) -> str:
    """`color` darkened (or lightened) just enough that black or white text reads on it: for the frames and
    grounds a data file names, whatever it names."""
    color = resolve(color)
    toward = "#000000" if contrast_ratio("#FFFFFF", color) >= contrast_ratio("#1A1A1A", color) else "#FFFFFF"
    for step in range(21):
        shade = mix(color, toward, step / 20)
        if contrast_ratio(readable_ink(shade), shade) >= TEXT_CONTRAST:
            return shade
    return toward


MARKUP = re.compile(r"\*+|\{[^{}]*\}")  # **bold**, *italic* and {icon}: not characters a font draws


@dataclass
class FaceContext:
    width: float
    height: float
    bleed: float
    shape: str
    corner_radius: float
    color: PlayerColor | None  # the piece's player colour, for per-player components
    base_dir: Path  # folder art paths are relative to
    where: str  # "file: component-id: piece: front" for messages
    art_folders: tuple[Path, ...] = ()  # art must lie inside one of these (the game's folders)
    background_art: str | None = None
    background_fit: str = "cover"
    warnings: list[str] = field(default_factory=list)
    icon_folders: tuple[Path, ...] = ()  # game folders whose icons/ come before ours (see generator.look.icons)
    origin: Origin | None = None  # where the face's values came from (data/origin.py): what a warning names
    # warning -> the part of the face it is about (x, y, w, h in mm), where the studio marks it
    places: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    fonts: Mapping[str, str] = field(default_factory=dict)  # the game's own fonts (gamefonts.game_fonts)
    boxes: int = 0  # boxes drawn so far, repeats counted: at most MAX_BOXES
    drawing: int = 0  # corners, path commands and characters drawn so far: at most MAX_FACE_DRAWING
    deadline: float = math.inf  # time.monotonic() past which drawing stops (a build on demand has a clock)
    # time.thread_time() past which drawing stops: this face's MAX_FACE_SECONDS, or what is left of the
    # build's MAX_DRAWING_SECONDS when that is less (`deadline_is_builds`)
    cpu_deadline: float = math.inf
    deadline_is_builds: bool = False

    def counted(self, where: str) -> None:
        """One more box drawn at `where`: refused past MAX_BOXES, or when the face's time is up."""
        self.boxes += 1
        if self.boxes > MAX_BOXES:  # a repeat within a repeat multiplies: 10^4 × 10^4 boxes take gigabytes
            raise over(where, "the count of boxes one face draws", self.boxes, MAX_BOXES)
        if self.boxes % 16 == 0:  # the clock costs a microsecond or two; a box's own work is bounded
            self.on_time()

    def spent(self, where: str, units: int) -> None:
        """A box at `where` draws `units` corners, path commands or characters: refused once the face's boxes
        draw more than MAX_FACE_DRAWING in all (10,000 boxes of 10,000 corners each are 10^8)."""
        self.drawing += units
        if self.drawing > MAX_FACE_DRAWING:
            raise over(where, "what one face draws (corners, path commands and characters in all)", self.drawing,
                       MAX_FACE_DRAWING)

    def on_time(self, now: float | None = None) -> None:
        """Refused when the face's CPU time is up (`now`, when its caller has just read the clock), or the
        build's (a build on demand has a clock too): the backstop for work no budget above counts."""
        if (time.thread_time() if now is None else now) > self.cpu_deadline:
            if self.deadline_is_builds:
                raise LimitError(f"{self.where}: drawing the faces took more than {MAX_DRAWING_SECONDS} s of CPU "
                                 f"time in all, the limit of one check or build")
            raise LimitError(f"{self.where}: drawing this face took more than {MAX_FACE_SECONDS} s of CPU time, "
                             f"the limit of one face; its layout does too much work")
        if time.monotonic() > self.deadline:
            raise LimitError(f"{self.where}: drawing took longer than a build on demand may "
                             f"({MAX_BUILD_SECONDS} s); build it with `starpnp build`")

    def warn(self, message: str, place: tuple[float, float, float, float] | None = None) -> None:
        """`message` starts with the field it is about; the warning names the file and that field's line (a
        spreadsheet's row, for a field an item's row gives)."""
        file, _, rest = self.where.partition(": ")
        line = None
        if self.origin is not None:
            came = self.origin.where(message.split(":", 1)[0])
            file, line = Path(came.file).name + (f":{came.sheet}" if came.sheet else ""), came.line
        warning = clipped(f"{file}:{line}: {rest}: {message}" if line else f"{self.where}: {message}")
        self.warnings.append(warning)
        if place is not None:
            self.places[warning] = place

    # -- drawing helpers ---------------------------------------------------------------------

    def background(self, color: str) -> Element:
        """A fill covering trim and bleed, with the face's background art over it when it names one."""
        b = self.bleed
        box = (-b, -b, self.width + 2 * b, self.height + 2 * b)
        fill = Rect(*box, Style(fill=resolve(color)))
        if not self.background_art:
            return fill
        return Group((fill, *self.art(self.background_art, *box, self.background_fit, field_name="background_art")))

    def outline(self) -> Element:
        """The trim shape as a thin line, cut guide for round and hex pieces."""
        style = Style(stroke="#555555", stroke_width=0.2)
        w, h = self.width, self.height
        if self.shape == "round":
            return Circle(w / 2, h / 2, min(w, h) / 2, style)
        if self.shape == "hex":
            return Polygon(hexagon(w / 2, h / 2, h / 2), style)
        return Rect(0, 0, w, h, style, radius=self.corner_radius)

    def text(self, field_name: str, value: str, x, y, w, h, **style) -> Element:
        """A field's text fitted into the box, with its **bold**, *italic* and `{icon}` markup."""
        style["font"] = self.font(field_name, str(value), style.get("font", "Lato-Regular"))
        fitted = fit_rich(str(value), x, y, w, h, icon=self.inline_icon, **style)
        if not fitted.fits:
            self.warn(f"{field_name}: text does not fit its box even at {fitted.size:g} pt", (x, y, w, h))
        for name in fitted.unknown:
            close = get_close_matches(name, icon_names(self.icon_folders), n=3, cutoff=0.6)
            hint = f"; did you mean {', '.join('{' + c + '}' for c in close)}?" if close else ""
            self.warn(f"{field_name}: {{{name[:40]}}} is neither an icon nor a rule number, printed as "
                      f"written{hint}", (x, y, w, h))
        return fitted.text

    def font(self, field_name: str, text: str, name: str) -> str:
        """The registered font `name` stands for; warns about a name no font has and about characters a
        game's font lacks (printed in Lato, in sight, rather than as blank boxes)."""
        font = resolve_font(name, self.fonts)
        if font is None:
            known = sorted({GAME_FACES[f].label for f in self.fonts.values()})
            self.warn(f"{field_name}: font {name[:60]!r} is neither Lato nor a font in fonts/ "
                      f"({', '.join(known) or 'the folder has none'}); printed in Lato")
            return "Lato-Regular"
        if font not in GAME_FACES:  # Lato falls back to DejaVu Sans for symbols by design
            return font
        plain = MARKUP.sub("", text)
        for variant in dict.fromkeys((font, bolder(font)) if "**" in text else (font,)):
            missing = missing_glyphs(plain, variant)
            if missing:
                shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in missing[:5])
                self.warn(f"{field_name}: {GAME_FACES[variant].label} has no {shown} for {plain[:60]!r}; "
                          f"printed in Lato")
        return font

    def icon(self, name: str, x, y, size, ink, paper="#FFFFFF") -> Element:
        return draw_icon(name, x, y, size, resolve(ink), resolve(paper), self.icon_folders)

    def inline_icon(self, name: str, x, y, size, ink) -> Element | None:
        """An icon inside a text, in the text's colour with cut-outs in black or white (whichever stands out
        from it); None for a name no icon has. The one way text reaches icons."""
        try:
            return self.icon(name, x, y, size, ink, readable_ink(ink))
        except KeyError:
            return None

    def write_in(self, label: str, x, y, w, h, ink="#555555") -> list[Element]:
        """A tidy dashed box with a small label: where a user writes what the rulebook does not say."""
        elements: list[Element] = [Rect(x, y, w, h, Style(fill="#FFFFFF", stroke=ink, stroke_width=0.25,
                                                            dash=(1.2, 0.8)), radius=1)]
        elements.append(fit_text(f"write in: {label}", x + 1.2, y + 0.8, w - 2.4, 3.2, font="Lato-Italic",
                                 size=6, min_size=6, color=legible(ink, "#FFFFFF")).text)
        rule_gap = 4.2
        ry = y + 4.8 + rule_gap
        while ry < y + h - 1:
            elements.append(Line(x + 2, ry, x + w - 2, ry, Style(stroke="#BBBBBB", stroke_width=0.15)))
            ry += rule_gap
        return elements

    def art(self, path: str, x, y, w, h, fit="cover", field_name: str = "art",
            focus: tuple[float, float] = (0.5, 0.5)) -> list[Element]:
        """The named image fitted into the box, or a visible placeholder and a warning."""
        file = (self.base_dir / path).resolve()
        if outside(path, list(self.art_folders or (self.base_dir,))):
            problem = "art must be inside the game's folder (no absolute path, .. or link leading out)"
        else:
            problem = image_problem(file)
        if problem is None:
            return [Image(x, y, w, h, str(file), fit, focus)]
        self.warn(f"{field_name}: {path}: {problem}", (x, y, w, h))
        cross = Style(stroke="#C62828", stroke_width=0.4)
        return [Rect(x, y, w, h, Style(fill="#FDECEA", stroke="#C62828", stroke_width=0.4)),
                Line(x, y, x + w, y + h, cross), Line(x + w, y, x, y + h, cross),
                Rect(x + 1, y + h / 2 - 3, w - 2, 6, Style(fill="#FFFFFF")),  # its words on a band, off the cross
                fit_text(f"missing art: {path}", x + 1, y + h / 2 - 3, w - 2, 6, size=6, min_size=5,
                         color="#C62828", align="center", valign="middle").text]

    def player_mark(self, x, y, size) -> list[Element]:
        """The player colour's shape and letter, so colours read in greyscale."""
        if self.color is None:
            return []
        c = self.color
        return [Circle(x + size / 2, y + size / 2, size / 2, Style(fill="#FFFFFF", stroke="#1A1A1A",
                                                                    stroke_width=0.2)),
                self.icon(c.shape, x + size * 0.18, y + size * 0.18, size * 0.64, c.hex),
                ]


ICON_FOLDERS = "icon_folders"  # the validation context's key for the game folders whose icons count


def known_icon(name: str, info: ValidationInfo) -> str:
    """An icon of ours or of the game being loaded (the loader passes its folders in the context)."""
    folders = (info.context or {}).get(ICON_FOLDERS, ())
    if icon_file(name, folders) is None:
        raise ValueError(unknown_icon(name, folders))
    return name


def unknown_icon(name: str, folders) -> str:
    """The one line for an icon name no file has: the nearest names, else where icons come from."""
    close = get_close_matches(name, icon_names(folders), n=4, cutoff=0.5)
    hint = (f"did you mean {', '.join(close)}?" if close else
            f"icons are the game folder's {ICON_FOLDER}/*.svg and ours (`starpnp schema layouts` lists ours)")
    return f"unknown icon {name[:40]!r}; {hint}"


# A field naming an icon, checked on load against ours and the game's; the schema offers ours to editors and
# accepts any name, since a game folder may bring its own.
IconName = Annotated[str, AfterValidator(known_icon), WithJsonSchema({
    "type": "string", "anyOf": [{"enum": icon_names()}, {"pattern": "^[A-Za-z0-9_-]+$"}],
    "description": f"one of our icons, or <name> for the game folder's {ICON_FOLDER}/<name>.svg"})]
