"""Imposition: where every face goes on which sheet. Pure geometry in millimetres, no drawing.

Pieces are packed in centred grids (turned 90° when more fit), backs mirror their fronts for the
chosen duplex flip, crop marks extend every trim line into the free border, and pieces larger than
the printable area are split into overlapping tiles with an assembly map.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .scene import Scene

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0), "tabloid": (279.4, 431.8)}
FOOTER_H = 10.0  # the calibration square sets it
FOOTER_GAP = 2.0
MARK_ZONE = 2.5  # minimum free border kept around a grid for crop marks
MARK_OFFSET = 0.8  # gap between a mark and the nearest bleed edge
MARK_MAX = 5.0
TILE_OVERLAP = 12.0


@dataclass(frozen=True)
class Settings:
    paper: str = "a4"
    margin: float = 8.0
    bleed: float = 3.0
    crop_marks: bool = True
    duplex: str = "long"  # long | short | off

    @property
    def size(self) -> tuple[float, float]:
        return PAPERS[self.paper]


@dataclass(frozen=True)
class Placed:
    scene: Scene
    x: float  # top-left of the placed bleed box on the page
    y: float
    rotation: int  # clockwise degrees: 0, 90, 180, 270
    component: str

    @property
    def placed_size(self) -> tuple[float, float]:
        s = self.scene
        return (s.outer_height, s.outer_width) if self.rotation % 180 else (s.outer_width, s.outer_height)

    @property
    def trim_box(self) -> tuple[float, float, float, float]:
        """(x, y, w, h) of the trim on the page."""
        w, h = self.placed_size
        b = self.scene.bleed
        return (self.x + b, self.y + b, w - 2 * b, h - 2 * b)


@dataclass(frozen=True)
class Tile:
    """One page's window onto a large scene: board coordinates of the window's top-left corner."""

    scene: Scene
    rotation: int
    window: tuple[float, float, float, float]  # x, y, w, h on the page
    board_x: float  # offset within the placed (possibly turned) bleed box
    board_y: float
    label: str
    grid: tuple[int, int]  # columns, rows of the whole tiling
    targets: tuple[tuple[float, float], ...]  # registration marks, page coordinates


@dataclass
class Sheet:
    role: str  # front | back | tile | map
    components: list[str]
    placed: list[Placed] = field(default_factory=list)
    marks: list[tuple[float, float, float, float]] = field(default_factory=list)
    tile: Tile | None = None
    tiles: list[Tile] = field(default_factory=list)  # for the assembly map
    footer_top: bool = False
    number: int = 0  # k of n within its run
    of: int = 0


def content_area(settings: Settings) -> tuple[float, float, float, float]:
    """x, y, w, h of the page area pieces and their crop marks may use."""
    pw, ph = settings.size
    m = settings.margin
    return (m, m, pw - 2 * m, ph - 2 * m - FOOTER_H - FOOTER_GAP)


def fits_on_page(scene: Scene, settings: Settings) -> bool:
    _, _, aw, ah = content_area(settings)
    aw, ah = aw - 2 * MARK_ZONE, ah - 2 * MARK_ZONE
    ow, oh = scene.outer_width, scene.outer_height
    return (ow <= aw + 1e-9 and oh <= ah + 1e-9) or (oh <= aw + 1e-9 and ow <= ah + 1e-9)


def plan_grid(ow: float, oh: float, settings: Settings) -> tuple[int, int, bool]:
    """Columns, rows and whether to turn pieces, for the most pieces per sheet (upright on a tie)."""
    _, _, aw, ah = content_area(settings)
    aw, ah = aw - 2 * MARK_ZONE, ah - 2 * MARK_ZONE
    upright = (int((aw + 1e-9) // ow), int((ah + 1e-9) // oh))
    turned = (int((aw + 1e-9) // oh), int((ah + 1e-9) // ow))
    if turned[0] * turned[1] > upright[0] * upright[1]:
        return turned[0], turned[1], True
    return upright[0], upright[1], False


def mirror(p: Placed, back: Scene, settings: Settings) -> Placed:
    """Where the back of `p` must print so it lands behind the front after the duplex flip."""
    pw, ph = settings.size
    w, h = p.placed_size
    if settings.duplex == "short":
        return Placed(back, p.x, ph - p.y - h, (180 - p.rotation) % 360, p.component)
    return Placed(back, pw - p.x - w, p.y, (-p.rotation) % 360, p.component)


def crop_marks(placed: list[Placed], settings: Settings) -> list[tuple[float, float, float, float]]:
    """Short lines extending every trim line outward, beyond the outermost bleed edges."""
    if not placed or not settings.crop_marks:
        return []
    pw, ph = settings.size
    left = min(p.x for p in placed)
    top = min(p.y for p in placed)
    right = max(p.x + p.placed_size[0] for p in placed)
    bottom = max(p.y + p.placed_size[1] for p in placed)
    xs = sorted({round(v, 6) for p in placed for v in (p.trim_box[0], p.trim_box[0] + p.trim_box[2])})
    ys = sorted({round(v, 6) for p in placed for v in (p.trim_box[1], p.trim_box[1] + p.trim_box[3])})
    m = settings.margin
    footer_top = ph - m - FOOTER_H - FOOTER_GAP
    room_top, room_bottom = top - m, footer_top - bottom
    room_left, room_right = left - m, pw - m - right
    marks = []

    def length(room: float) -> float:
        return max(0.0, min(MARK_MAX, room - MARK_OFFSET))

    for x in xs:
        if (n := length(room_top)) > 0:
            marks.append((x, top - MARK_OFFSET - n, x, top - MARK_OFFSET))
        if (n := length(room_bottom)) > 0:
            marks.append((x, bottom + MARK_OFFSET, x, bottom + MARK_OFFSET + n))
    for y in ys:
        if (n := length(room_left)) > 0:
            marks.append((left - MARK_OFFSET - n, y, left - MARK_OFFSET, y))
        if (n := length(room_right)) > 0:
            marks.append((right + MARK_OFFSET, y, right + MARK_OFFSET + n, y))
    return marks


def impose_grid(run: list[tuple[Scene, Scene | None, str]], settings: Settings) -> list[Sheet]:
    """Front sheets (and mirrored back sheets) for pieces that share one size."""
    first = run[0][0]
    ow, oh = first.outer_width, first.outer_height
    cols, rows, turned = plan_grid(ow, oh, settings)
    pitch_w, pitch_h = (oh, ow) if turned else (ow, oh)
    ax, ay, aw, ah = content_area(settings)
    per_sheet = cols * rows
    sheets: list[Sheet] = []
    duplex = settings.duplex != "off" and any(back is not None for _, back, _ in run)
    for start in range(0, len(run), per_sheet):
        chunk = run[start:start + per_sheet]
        used_rows = math.ceil(len(chunk) / cols)
        used_cols = min(cols, len(chunk))
        x0 = ax + (aw - used_cols * pitch_w) / 2
        y0 = ay + (ah - used_rows * pitch_h) / 2
        names = list(dict.fromkeys(c for _, _, c in chunk))
        front = Sheet("front", names)
        for i, (scene, _, component) in enumerate(chunk):
            row, col = divmod(i, cols)
            front.placed.append(Placed(scene, x0 + col * pitch_w, y0 + row * pitch_h, 90 if turned else 0, component))
        front.marks = crop_marks(front.placed, settings)
        sheets.append(front)
        if duplex:
            back = Sheet("back", names, footer_top=settings.duplex == "short")
            for placed, (_, back_scene, _) in zip(front.placed, chunk):
                if back_scene is not None:
                    back.placed.append(mirror(placed, back_scene, settings))
            back.marks = crop_marks(back.placed, settings) if back.placed else []
            sheets.append(back)
    return sheets


def tile_label(col: int, row: int) -> str:
    return f"{chr(ord('A') + row)}{col + 1}"


def impose_tiled(scene: Scene, component: str, settings: Settings) -> list[Sheet]:
    """An assembly map, then one page per overlapping tile of a piece too large for the paper."""
    ax, ay, aw, ah = content_area(settings)
    ow, oh = scene.outer_width, scene.outer_height

    def count(length: float, window: float) -> int:
        return 1 if length <= window else math.ceil((length - TILE_OVERLAP) / (window - TILE_OVERLAP))

    options = []
    for rotation in (0, 90):
        bw, bh = (oh, ow) if rotation else (ow, oh)
        options.append((count(bw, aw) * count(bh, ah), rotation, bw, bh))
    _, rotation, bw, bh = min(options)
    nx, ny = count(bw, aw), count(bh, ah)
    win_w, win_h = min(aw, bw), min(ah, bh)
    step_x = (bw - win_w) / (nx - 1) if nx > 1 else 0.0
    step_y = (bh - win_h) / (ny - 1) if ny > 1 else 0.0
    # registration targets sit in the middle of each overlap strip, at fixed board positions
    board_targets = []
    for i in range(1, nx):
        mid_x = i * step_x + (win_w - step_x) / 2
        board_targets += [(mid_x, j * step_y + win_h / 2) for j in range(ny)]
    for j in range(1, ny):
        mid_y = j * step_y + (win_h - step_y) / 2
        board_targets += [(i * step_x + win_w / 2, mid_y) for i in range(nx)]
    sheets = []
    tiles = []
    wx, wy = ax + (aw - win_w) / 2, ay + (ah - win_h) / 2
    for row in range(ny):
        for col in range(nx):
            bx, by = col * step_x, row * step_y
            targets = tuple((wx + tx - bx, wy + ty - by) for tx, ty in board_targets
                            if bx + 4 <= tx <= bx + win_w - 4 and by + 4 <= ty <= by + win_h - 4)
            tile = Tile(scene, rotation, (wx, wy, win_w, win_h), bx, by, tile_label(col, row), (nx, ny), targets)
            tiles.append(tile)
    sheets.append(Sheet("map", [component], tiles=tiles))
    sheets.extend(Sheet("tile", [component], tile=t) for t in tiles)
    return sheets


def impose(runs: list[list[tuple[Scene, Scene | None, str]]], settings: Settings) -> list[Sheet]:
    """All sheets for a game, numbered k of n within each run."""
    sheets: list[Sheet] = []
    for run in runs:
        first = run[0][0]
        if fits_on_page(first, settings):
            group = impose_grid(run, settings)
        else:
            group = [s for scene, _, component in run for s in impose_tiled(scene, component, settings)]
        for k, sheet in enumerate(group, 1):
            sheet.number, sheet.of = k, len(group)
        sheets.extend(group)
    return sheets
