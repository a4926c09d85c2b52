"""Imposition: where every face goes on which sheet. Pure geometry in millimetres, no drawing.

Pieces are packed in centred grids (turned 90° when more fit): straight-edged pieces touch, so
neighbours share one cut and the bleed stays round the outside of the block; round and hex pieces keep
their own bleed. Backs mirror their fronts for the chosen duplex flip, crop marks extend every trim line
outward, pieces larger than the printable area are split into overlapping tiles with an assembly map,
and `paginate` orders it all so the whole file prints double-sided.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from .scene import Scene

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0), "tabloid": (279.4, 431.8)}
FOOTER_H = 10.0  # the calibration square sets it
FOOTER_GAP = 2.0
MARK_ZONE = 2.5  # minimum free border kept round a grid whose pieces have no bleed of their own to mark on
MARK_OFFSET = 0.8  # gap between a mark and the trim line it extends
MARK_MAX = 5.0
TILE_OVERLAP = 12.0
SMALL_PIECE = 80.0  # counters, tokens, tiles and standees up to this size share sheets with other sizes
BLOCK_GAP = 7.0  # between two blocks on one sheet: both blocks' bleed and crop marks
SIDES = ("bottom", "top", "left", "right")


@dataclass(frozen=True)
class Settings:
    paper: str = "a4"
    margin: float = 6.0
    bleed: float = 3.0
    crop_marks: bool = True
    duplex: str = "long"  # long | short | off

    @property
    def size(self) -> tuple[float, float]:
        return PAPERS[self.paper]


Box = tuple[float, float, float, float]  # x, y, w, h on the page


@dataclass(frozen=True)
class Placed:
    scene: Scene
    x: float  # top-left of the placed bleed box on the page
    y: float
    rotation: int  # clockwise degrees: 0, 90, 180, 270
    component: str
    clip: Box | None = None  # what shows: the trim plus bleed on the block's outside (None: the whole bleed box)

    @property
    def placed_size(self) -> tuple[float, float]:
        s = self.scene
        return (s.outer_height, s.outer_width) if self.rotation % 180 else (s.outer_width, s.outer_height)

    @property
    def trim_box(self) -> Box:
        """(x, y, w, h) of the trim on the page."""
        w, h = self.placed_size
        b = self.scene.bleed
        return (self.x + b, self.y + b, w - 2 * b, h - 2 * b)

    @property
    def visible_box(self) -> Box:
        return self.clip or (self.x, self.y, *self.placed_size)


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
    role: str  # front | back | tile | map | blank
    components: list[str]
    placed: list[Placed] = field(default_factory=list)
    marks: list[tuple[float, float, float, float]] = field(default_factory=list)
    tile: Tile | None = None
    tiles: list[Tile] = field(default_factory=list)  # for the assembly map
    blocks: list[int] = field(default_factory=lambda: [0])  # pieces per block of touching pieces, top to bottom
    footer: str = "bottom"  # the page side the footer runs along: bottom | top | left | right
    number: int = 0  # k of n within its run
    of: int = 0
    page: int = 0  # page number in the file, set by paginate
    back_page: int = 0  # the page printed on its other side (0: none)

    @property
    def pieces(self) -> bool:
        """Printed pieces that will be cut out: these need their own back or a blank one."""
        return self.role in ("front", "back", "tile")


def footer_band(side: str, settings: Settings) -> Box:
    """The strip a footer of the given side takes, gap to the pieces included."""
    pw, ph = settings.size
    m, d = settings.margin, FOOTER_H + FOOTER_GAP
    return {"bottom": (m, ph - m - d, pw - 2 * m, d), "top": (m, m, pw - 2 * m, d),
            "left": (m, m, d, ph - 2 * m), "right": (pw - m - d, m, d, ph - 2 * m)}[side]


def content_area(settings: Settings, footer: str = "bottom") -> Box:
    """x, y, w, h of the page area pieces and their crop marks may use, beside a footer on `footer`."""
    pw, ph = settings.size
    m = settings.margin
    x, y, w, h = m, m, pw - 2 * m, ph - 2 * m
    d = FOOTER_H + FOOTER_GAP
    if footer in ("bottom", "top"):
        return (x, y + (d if footer == "top" else 0), w, h - d)
    return (x + (d if footer == "left" else 0), y, w - d, h)


@dataclass(frozen=True)
class Grid:
    cols: int
    rows: int
    turned: bool
    footer: str
    cell: tuple[float, float]  # pitch of the placed pieces
    edge: float  # bleed kept round the whole block (shared cuts), 0 when every piece keeps its own

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows


def shares_cuts(scene: Scene) -> bool:
    """Straight-edged pieces can touch: one cut separates neighbours."""
    return scene.shape == "rect"


def block_area(settings: Settings, footer: str, edge: float) -> Box:
    """Where a block of pieces' trims may go: the content area, less room for crop marks when the pieces
    carry no bleed round the block, and less the block's own bleed where it would reach the footer."""
    x, y, w, h = content_area(settings, footer)
    pad = max(0.0, MARK_ZONE - edge)
    x, y, w, h = x + pad, y + pad, w - 2 * pad, h - 2 * pad
    clear = max(0.0, edge + 0.5 - FOOTER_GAP)  # the bleed may run into the footer's gap, not up to its text
    if footer in ("bottom", "top"):
        return (x, y + (clear if footer == "top" else 0.0), w, h - clear)
    return (x + (clear if footer == "left" else 0.0), y, w - clear, h)


def plan_grid(scene: Scene, settings: Settings, count: int = 1) -> Grid:
    """The fewest sheets for `count` pieces, then the most pieces per sheet: upright or turned, footer below or
    beside (upright and below on a tie, so a sheet that is not full leaves room for other blocks)."""
    shared = shares_cuts(scene)
    edge = scene.bleed if shared else 0.0
    ow, oh = (scene.width, scene.height) if shared else (scene.outer_width, scene.outer_height)
    options = []
    for footer in ("bottom", "left"):
        _, _, aw, ah = block_area(settings, footer, edge)
        for turned in (False, True):
            cw, ch = (oh, ow) if turned else (ow, oh)
            options.append(Grid(max(0, int((aw + 1e-9) // cw)), max(0, int((ah + 1e-9) // ch)), turned, footer,
                                (cw, ch), edge))
    return min(options, key=lambda g: (math.ceil(count / g.per_sheet) if g.per_sheet else math.inf,
                                       g.footer != "bottom", -g.per_sheet))


def fits_on_page(scene: Scene, settings: Settings) -> bool:
    return plan_grid(scene, settings).per_sheet > 0


def mirror_box(box: Box, settings: Settings) -> Box:
    pw, ph = settings.size
    x, y, w, h = box
    return (x, ph - y - h, w, h) if settings.duplex == "short" else (pw - x - w, y, w, h)


def mirror(p: Placed, back: Scene, settings: Settings) -> Placed:
    """Where the back of `p` must print so it lands behind the front after the duplex flip."""
    x, y, _, _ = mirror_box((p.x, p.y, *p.placed_size), settings)
    rotation = (180 - p.rotation) % 360 if settings.duplex == "short" else (-p.rotation) % 360
    clip = mirror_box(p.clip, settings) if p.clip else None
    return Placed(back, x, y, rotation, p.component, clip)


def mirror_side(side: str, settings: Settings) -> str:
    flip = {"top": "bottom", "bottom": "top"} if settings.duplex == "short" else {"left": "right", "right": "left"}
    return flip.get(side, side)


def crop_marks(placed: list[Placed], footer: str, settings: Settings,
               limits: tuple[float, float] | None = None) -> list[tuple[float, float, float, float]]:
    """Short lines extending every trim line outward past the block, from just beyond the trim (over the
    outside bleed, which is cut away) to the printable edge, the footer or the `limits` (top, bottom) that
    another block on the sheet sets."""
    if not placed or not settings.crop_marks:
        return []
    trims = [p.trim_box for p in placed]
    left = min(t[0] for t in trims)
    top = min(t[1] for t in trims)
    right = max(t[0] + t[2] for t in trims)
    bottom = max(t[1] + t[3] for t in trims)
    # marks start just beyond the trim of a shared-cut block, beyond every bleed box otherwise
    outer = trims if all(p.clip for p in placed) else [p.visible_box for p in placed]
    start_left = min(b[0] for b in outer) - MARK_OFFSET
    start_top = min(b[1] for b in outer) - MARK_OFFSET
    start_right = max(b[0] + b[2] for b in outer) + MARK_OFFSET
    start_bottom = max(b[1] + b[3] for b in outer) + MARK_OFFSET
    px, py, pw, ph = content_area(settings, footer)
    limit_top, limit_bottom = limits or (py, py + ph)
    xs = sorted({round(v, 6) for t in trims for v in (t[0], t[0] + t[2])})
    ys = sorted({round(v, 6) for t in trims for v in (t[1], t[1] + t[3])})
    reach = max(p.scene.bleed for p in placed) + MARK_MAX
    marks = []
    if (end := max(limit_top, top - reach)) < start_top - 1.0:
        marks += [(x, end, x, start_top) for x in xs]
    if (end := min(limit_bottom, bottom + reach)) > start_bottom + 1.0:
        marks += [(x, start_bottom, x, end) for x in xs]
    if (end := max(px, left - reach)) < start_left - 1.0:
        marks += [(end, y, start_left, y) for y in ys]
    if (end := min(px + pw, right + reach)) > start_right + 1.0:
        marks += [(start_right, y, end, y) for y in ys]
    return marks


def impose_grid(run: list[tuple[Scene, Scene | None, str]], settings: Settings) -> list[Sheet]:
    """Front sheets (and mirrored back sheets) for pieces that share one size."""
    first = run[0][0]
    grid = plan_grid(first, settings, len(run))
    pitch_w, pitch_h = grid.cell
    ax, ay, aw, ah = block_area(settings, grid.footer, grid.edge)
    b = first.bleed
    sheets: list[Sheet] = []
    duplex = settings.duplex != "off" and any(back is not None for _, back, _ in run)
    for start in range(0, len(run), grid.per_sheet):
        chunk = run[start:start + grid.per_sheet]
        used_rows = math.ceil(len(chunk) / grid.cols)
        used_cols = min(grid.cols, len(chunk))
        x0 = ax + (aw - used_cols * pitch_w) / 2
        y0 = ay + (ah - used_rows * pitch_h) / 2
        names = list(dict.fromkeys(c for _, _, c in chunk))
        front = Sheet("front", names, footer=grid.footer)
        for i, (scene, _, component) in enumerate(chunk):
            row, col = divmod(i, grid.cols)
            x, y = x0 + col * pitch_w, y0 + row * pitch_h
            clip = None
            if grid.edge:
                # a neighbour's trim, not this piece's bleed, shows across a shared cut
                last_col = col == used_cols - 1 or i == len(chunk) - 1
                last_row = row == used_rows - 1 or i + grid.cols >= len(chunk)
                left, top = (b if col == 0 else 0.0), (b if row == 0 else 0.0)
                right, bottom = (b if last_col else 0.0), (b if last_row else 0.0)
                clip = (x - left, y - top, pitch_w + left + right, pitch_h + bottom + top)
                x, y = x - b, y - b
            front.placed.append(Placed(scene, x, y, 90 if grid.turned else 0, component, clip))
        front.marks = crop_marks(front.placed, grid.footer, settings)
        front.blocks = [len(front.placed)]
        sheets.append(front)
        if duplex:
            back = Sheet("back", names, footer=mirror_side(grid.footer, settings))
            for placed, (_, back_scene, _) in zip(front.placed, chunk):
                if back_scene is not None:
                    back.placed.append(mirror(placed, back_scene, settings))
            back.marks = crop_marks(back.placed, back.footer, settings)
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


def small(sheet: Sheet) -> bool:
    """A sheet of fronts holding one block of counter-sized pieces, footer below: it may take other blocks."""
    return (sheet.role == "front" and sheet.footer == "bottom" and len(sheet.blocks) == 1
            and all(max(p.scene.width, p.scene.height) <= SMALL_PIECE for p in sheet.placed))


def block_span(placed: list[Placed]) -> tuple[float, float]:
    boxes = [p.visible_box for p in placed]
    return min(b[1] for b in boxes), max(b[1] + b[3] for b in boxes)


def block_marks(sheet: Sheet, settings: Settings) -> list[tuple[float, float, float, float]]:
    """Crop marks for each block on the sheet, those between two blocks meeting halfway."""
    blocks, start = [], 0
    for size in sheet.blocks:
        blocks.append(sheet.placed[start:start + size])
        start += size
    blocks.sort(key=lambda block: block_span(block)[0])
    _, py, _, ph = content_area(settings, sheet.footer)
    marks = []
    for i, block in enumerate(blocks):
        top, bottom = block_span(block)
        upper = (block_span(blocks[i - 1])[1] + top) / 2 if i else py
        lower = (bottom + block_span(blocks[i + 1])[0]) / 2 if i + 1 < len(blocks) else py + ph
        marks += crop_marks(block, sheet.footer, settings, (upper, lower))
    return marks


def restack(front: Sheet, back: Sheet | None, blocks: list[list[Placed]], settings: Settings) -> None:
    """Lay the blocks out one under another, centred as a whole; the backs follow their fronts."""
    spans = [block_span(b) for b in blocks]
    total = sum(bottom - top for top, bottom in spans) + BLOCK_GAP * (len(blocks) - 1)
    _, ay, _, ah = block_area(settings, "bottom", 0.0)
    y = ay + (ah - total) / 2
    front.placed = []
    for block, (top, bottom) in zip(blocks, spans):
        dy = y - top
        front.placed += [replace(p, y=p.y + dy, clip=p.clip and (p.clip[0], p.clip[1] + dy, *p.clip[2:]))
                         for p in block]
        y += bottom - top + BLOCK_GAP
    front.blocks = [len(b) for b in blocks]
    front.marks = block_marks(front, settings)
    if back is not None:
        back.placed = [mirror(f, b.scene, settings) for f, b in zip(front.placed, back.placed)]
        back.blocks = list(front.blocks)
        back.marks = block_marks(back, settings)


def stack(sheets: list[Sheet], settings: Settings) -> list[Sheet]:
    """Part-filled sheets of small pieces go one under another onto a shared sheet when they fit, one-sided
    with one-sided and with-backs with with-backs, so a handful of counters never takes a sheet of its own."""
    units: list[tuple[Sheet, Sheet | None]] = []
    i = 0
    while i < len(sheets):
        back = sheets[i + 1] if i + 1 < len(sheets) and sheets[i + 1].role == "back" else None
        units.append((sheets[i], back))
        i += 2 if back else 1
    kept: list[tuple[Sheet, Sheet | None, list[list[Placed]]]] = []
    _, _, _, room = block_area(settings, "bottom", 0.0)
    for front, back in units:
        aligned = back is None or len(back.placed) == len(front.placed)
        host = None
        if small(front) and aligned:
            top, bottom = block_span(front.placed)
            for other in kept:
                if other[0].role == "front" and other[0].footer == "bottom" and (other[1] is None) == (back is None) \
                        and all(max(p.scene.width, p.scene.height) <= SMALL_PIECE for p in other[0].placed) \
                        and sum(block_span(b)[1] - block_span(b)[0] + BLOCK_GAP for b in other[2]) \
                        + bottom - top <= room:
                    host = other
                    break
        if host is None:
            kept.append((front, back, [list(front.placed)]))
            continue
        host[2].append(list(front.placed))
        host[0].components = list(dict.fromkeys(host[0].components + front.components))
        if host[1] is not None:
            host[1].components = list(host[0].components)
            host[1].placed = host[1].placed + back.placed
        restack(host[0], host[1], host[2], settings)
    return [s for front, back, _ in kept for s in (front, back) if s is not None]


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
    return stack(sheets, settings)


def paginate(sheets: list[Sheet], info_pages: int, duplex: str) -> list[Sheet]:
    """The file's pages after `info_pages` pages of contents, ordered to print whole and double-sided.

    Assembly maps join the contents at the front (information may back information), every sheet of
    fronts starts a physical sheet with its own backs behind it, and a one-sided sheet of pieces gets a
    blank back, so nothing is ever printed behind a piece but its own back. With duplex off nothing is
    printed on a back, so there are no blanks.
    """
    two_sided = duplex != "off"
    maps = [s for s in sheets if s.role == "map"]
    pieces = [s for s in sheets if s.role != "map"]
    ordered = list(maps)
    if two_sided and (info_pages + len(maps)) % 2:
        ordered.append(Sheet("blank", []))
    for i, sheet in enumerate(pieces):
        ordered.append(sheet)
        has_backs = i + 1 < len(pieces) and pieces[i + 1].role == "back"
        if two_sided and sheet.role in ("front", "tile") and not has_backs:
            ordered.append(Sheet("blank", []))
    last = info_pages + len(ordered)
    for page, sheet in enumerate(ordered, info_pages + 1):
        sheet.page = page
        if two_sided:
            other = page + 1 if page % 2 else page - 1
            sheet.back_page = other if other <= last else 0
    return ordered
