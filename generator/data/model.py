"""The validated game model: what the YAML in a game folder means.

A game folder holds `game.yaml` (name, players, colours, options) and any number of other YAML files
with a `components:` list. A component is a set of pieces sharing a size, a shape and layouts; its
`items` say what varies from piece to piece and how many of each there are.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Mapping

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema, field_validator

from .palette import PLAYER_COLORS
from .tracker import Tracker

UNSPECIFIED = "unspecified"


EDITION = "ours"


def our_edition(value: Any, write_ins: bool, path: str = "") -> tuple[Any, list[str]]:
    """Resolve our edition's values in a face's fields: `{ours: VALUE}` marks a value the rulebook leaves out
    and we designed. It reads as VALUE, or with --write-ins as `unspecified` (a clean write-in area for
    owners who copy their own game's values). Also returns the dotted path of every such value."""
    if isinstance(value, dict):
        if len(value) == 1 and EDITION in value:
            return (UNSPECIFIED if write_ins else value[EDITION]), [path]
        pairs = {k: our_edition(v, write_ins, f"{path}.{k}" if path else str(k)) for k, v in value.items()}
        return {k: v for k, (v, _) in pairs.items()}, [p for _, paths in pairs.values() for p in paths]
    if isinstance(value, list):
        pairs = [our_edition(v, write_ins, f"{path}[{i}]") for i, v in enumerate(value)]
        return [v for v, _ in pairs], [p for _, paths in pairs for p in paths]
    return value, []


def is_unspecified(value: Any) -> bool:
    """A field the rulebook leaves open: the data says `unspecified` and the piece prints a write-in area."""
    return isinstance(value, str) and value.strip().lower() == UNSPECIFIED

SLUG = r"^[a-z0-9][a-z0-9_-]*$"

CARD_SIZES = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "mini": (44.0, 63.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
}


def parse_size(value: Any) -> tuple[float, float]:
    """`poker`, `63x88`, `63×88`, `[63, 88]` or one number for a square or round piece."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text in CARD_SIZES:
            return CARD_SIZES[text]
        match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)(?:\s*mm)?", text)
        if match:
            value = (float(match[1]), float(match[2]))
        else:
            names = ", ".join(CARD_SIZES)
            raise ValueError(f"size must be W×H in mm, one number, or a preset ({names}); got {value!r:.60}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = (value, value)
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value
    ):
        w, h = float(value[0]), float(value[1])
        if not (math.isfinite(w) and math.isfinite(h)) or w <= 0 or h <= 0:
            raise ValueError(f"size must be positive; got {w:g}×{h:g}")
        if max(w, h) > MAX_SIZE_MM or min(w, h) < MIN_SIZE_MM:
            raise ValueError(f"size must be {MIN_SIZE_MM} to {MAX_SIZE_MM} mm a side; got {w:g}×{h:g}")
        return (w, h)
    raise ValueError(f"size must be W×H in mm, one number, or a preset; got {value!r:.60}")


MIN_SIZE_MM = 5  # a piece smaller than 5 mm a side cannot be cut out or hold a word (our smallest marker: 9 mm)
MAX_SIZE_MM = 2000  # a piece larger than 2 m a side is a typo, and would take minutes to tile
MAX_COUNT = 10_000  # copies of one piece
SIZE_SCHEMA = {"description": "a card size name, W×H in mm (`63x88`), one number (square or round) or [W, H]",
               "anyOf": [{"enum": sorted(CARD_SIZES)},
                         {"type": "string", "pattern": r"^\s*\d+(\.\d+)?\s*[xX×]\s*\d+(\.\d+)?(\s*[mM][mM])?\s*$"},
                         {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_SIZE_MM},
                         {"type": "array", "items": {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_SIZE_MM},
                          "minItems": 2, "maxItems": 2}]}
Size = Annotated[tuple[float, float], BeforeValidator(parse_size), WithJsonSchema(SIZE_SCHEMA)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class Players(Strict):
    min: int = Field(ge=1, le=6)
    max: int = Field(ge=1, le=6)


class GameOption(Strict):
    help: str
    default: bool = False


def known_colors(colors: list[str] | None) -> list[str] | None:
    unknown = [c for c in colors or () if c not in PLAYER_COLORS]
    if unknown:
        raise ValueError(f"unknown colour {unknown[0]!r}; known: {', '.join(PLAYER_COLORS)}")
    return colors


RuleValue = int | str | list[int | str] | dict[str, int | str]


class RuleNumber(Strict):
    """One number (or list or table of them) the rulebook fixes: written once here, printed by the pieces
    through `{rules.NAME}` in their texts and read by the companion's rules."""

    value: RuleValue
    means: str = Field(min_length=1, description="what the number is, in a few words (for the docs)")


class GameInfo(Strict):
    """game.yaml"""

    id: str = Field(pattern=SLUG)
    name: str
    players: Players
    colors: list[str] = Field(min_length=1, description="player colours used by this game's pieces")
    about: str = ""
    print_notes: list[str] = []
    materials: list[str] = Field([], description="what players need to make the set, besides paper, scissors, a "
                                                 "ruler and the glue the board, dice and standees already call for")
    options: dict[str, GameOption] = {}
    rules: dict[str, RuleNumber] = Field({}, description="the rule numbers the pieces print and the companion uses")
    tracker: Tracker | None = Field(None, description="what the phones keep count of, for a game of your own")

    _colors = field_validator("colors")(lambda cls, v: known_colors(v))

    def number(self, name: str) -> RuleValue:
        """A rule number by dotted name (`force.fleet` for one entry of a table)."""
        head, *rest = name.split(".")
        value = self.rules[head].value
        for key in rest:
            value = value[key]
        return value


Kind = Literal["card", "chit", "token", "tile", "board", "player_board", "track", "standee", "die", "marker"]


class Item(BaseModel):
    """One distinct piece of a component; any key other than these is a front-face field."""

    model_config = ConfigDict(extra="allow", frozen=True, allow_inf_nan=False)

    count: int = Field(1, ge=0, le=MAX_COUNT, description="copies of this piece (per player colour when per_player)")
    name: str | None = None
    back: dict[str, Any] | None = Field(None, description="back-face fields for this piece only")
    with_option: dict[str, dict[str, Any]] = Field(
        {}, description="game option -> fields (and count) that change when the option is on; with `copies: N` "
                        "only N of the item's copies change (a variant 4 of an item's 20 cards take)")
    ours: list[str] = Field([], description="fields whose values are our choice, not the publisher's")


def or_a_spreadsheet(schema: dict) -> None:
    """The loader reads `items: FILE.csv` or a workbook's sheet (data/spreadsheet.py) before validation; say so
    to editors."""
    as_list = dict(schema)
    schema.clear()
    workbook = {"type": "object", "required": ["file"], "additionalProperties": False,
                "properties": {"file": {"type": "string", "pattern": r"\.(xlsx|ods|XLSX|ODS)$"},
                               "sheet": {"type": "string"}}}
    schema["anyOf"] = [as_list, {"type": "string", "pattern": r"\.(csv|tsv|xlsx|ods|CSV|TSV|XLSX|ODS)$"}, workbook,
                       {"type": "string", "pattern": "^https://", "description": "a sheet published as CSV"}]
    schema["description"] = ("the pieces, or a spreadsheet in the game's folder with one row per piece: CSV/TSV, "
                             "an .xlsx/.ods workbook ({file: game.xlsx, sheet: Cards} for another sheet), or the https "
                             "address of a sheet published as CSV")


class Component(Strict):
    id: str = Field(pattern=SLUG)
    name: str
    kind: Kind
    size: Size = Field(description=f"W×H in mm ({MIN_SIZE_MM} to {MAX_SIZE_MM} a side), one number for a square or "
                                   f"round piece, or a card preset: {', '.join(CARD_SIZES)}")
    shape: Literal["rect", "round", "hex"] = "rect"
    corner_radius: float | None = Field(None, ge=0)
    per_player: bool = Field(False, description="every item is made once per player colour")
    colors: list[str] | None = Field(None, description="colours for per_player, default the game's")
    option: str | None = Field(None, description="build this component only with this game option on")
    player_aid: bool = Field(False, description="a one-sided aid printed at actual size on the page after the "
                                                 "contents, to read there rather than cut out (pieces only where "
                                                 "it does not fit)")
    front: dict[str, Any] = Field(description="layout name and fields shared by every piece's front")
    back: dict[str, Any] | None = Field(None, description="common back; omit for one-sided pieces")
    items: list[Item] = Field(min_length=1, json_schema_extra=lambda schema: or_a_spreadsheet(schema))
    columns: dict[str, Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$")]] = Field(
        {}, description="items read from a spreadsheet: a column -> the field it fills, e.g. {picture: art, "
                        "\"Card name\": title}")
    ignore: list[str] = Field([], description="items read from a spreadsheet: columns left out (helper columns a "
                                              "formula reads, notes)")
    ours: list[str] = []
    note: str = ""

    _colors = field_validator("colors")(lambda cls, v: known_colors(v))


class ComponentFile(Strict):
    components: list[Component]


@dataclass(frozen=True, slots=True)  # slots: a set of thousands of pieces holds one per face
class FaceSpec:
    layout: str
    params: Any  # the layout's validated pydantic model
    drawing: Any = None  # the Layout that draws it (found by name for this game; boxes changed inline included)
    # where each value came from (data/origin.py): a mapping of field -> line ("" -> the piece's own line), which
    # warnings while drawing name, and each value's whole place, which the studio writes to
    origin: Mapping[str, int] = field(default_factory=dict, compare=False)


@dataclass(frozen=True, slots=True)
class PieceSpec:
    """A distinct piece design and how many copies of it to print."""

    name: str
    count: int
    color: str | None
    front: FaceSpec
    back: FaceSpec | None


@dataclass(frozen=True)
class ResolvedComponent:
    source: str  # file the component came from
    spec: Component
    pieces: tuple[PieceSpec, ...]

    @property
    def quantity(self) -> int:
        return sum(p.count for p in self.pieces)

    @property
    def double_sided(self) -> bool:
        return any(p.back is not None for p in self.pieces)


@dataclass(frozen=True)
class Game:
    folder: str
    info: GameInfo
    components: tuple[ResolvedComponent, ...]
    options: frozenset[str]
    unspecified: tuple[str, ...] = ()  # "component-id: piece: field" for the build report
    ours: tuple[str, ...] = ()
    overrides: tuple[str, ...] = ()  # what a user's overrides.yaml and layouts/ changed, for the build report
    edition: tuple[str, ...] = ()  # "component-id: piece: field" printing our edition's value (see our_edition)
    write_ins: bool = False  # built with --write-ins: our edition's values print as write-in areas
    warnings: tuple[str, ...] = ()  # found as it loaded (a published sheet read from the copy kept earlier)
