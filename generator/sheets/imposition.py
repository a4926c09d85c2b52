"""Imposition: where every face goes on which sheet. Pure geometry in millimetres, no drawing.

Pieces are packed in centred grids (turned 90° when more fit): straight-edged pieces touch, so
neighbours share one cut and the bleed stays round the outside of the block; round and hex pieces keep
their own bleed. Backs mirror their fronts for the chosen duplex flip, crop marks extend every trim line
outward, pieces larger than the printable area are split into overlapping tiles with an assembly map,
and `paginate` orders it all so the whole file prints double-sided.
"""
from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field, replace

from ..look.scene import Circle, Group, Line, Path, Polygon, Rect, Scene, Text

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0), "tabloid": (279.4, 431.8)}
FOOTER_H = 10.0  # the calibration square sets it
FOOTER_GAP = 2.0
MARK_OFFSET = 0.3  # gap between a mark and the trim line it extends
MARK_LEAST = 3.0  # the shortest mark a cutter can follow: every trim line gets one, room is kept for it
MARK_ROOM = MARK_OFFSET + MARK_LEAST  # kept free beyond a block's outer trims, on any paper and margin
MARK_MAX = 5.0
MARK_INTO_GAP = FOOTER_GAP - 0.5  # marks may run into the gap before the footer, short of its text
MARK_APART = 2.0  # the least gap between two blocks' marks, so a cutter never follows the other block's tick
TILE_FLAP = 10.0  # the strip of a tile that goes under its neighbour
TILE_GAP = 2 * MARK_ROOM + MARK_APART  # between two tiles on one page: room for both tiles' corner marks
BLOCK_GAP = 7.0  # between the bleed of two blocks on one sheet: room for both blocks' crop marks
MAP_TOP = 36.0  # the heading and instructions above an assembly map
MAP_FOOT = 4.0  # between an assembly map and the footer
AID_GAP = 6.0  # between a player aid and the map or aid beside it
MAP_LEAST = 0.5  # a map shrinks for player aids to no less than half the scale it has alone
SIDES = ("bottom", "top", "left", "right")


@dataclass(frozen=True)
class Settings:
    paper: str = "a4"
    margin: float = 6.0
    bleed: float = 3.0
    crop_marks: bool = True
    duplex: str = "long"  # long | short | off
    ink: str = "full"  # full | low: faces on a light ground (generator.look.ink)

    @property
    def size(self) -> tuple[float, float]:
        return PAPERS[self.paper]


Box = tuple[float, float, float, float]  # x, y, w, h on the page


@dataclass(frozen=True, slots=True)  # slots: one per copy of every piece
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
    """One page's window onto a large scene: board coordinates of the window's top-left corner.

    A tile after the first in its row or column carries a flap on its left or top: board it shares with
    its neighbour, glued under the neighbour's cut edge, so the flap and its marks are hidden once built."""

    scene: Scene
    rotation: int
    window: tuple[float, float, float, float]  # x, y, w, h on the page
    board_x: float  # offset within the placed (possibly turned) bleed box
    board_y: float
    label: str
    grid: tuple[int, int]  # columns, rows of the whole tiling
    flaps: tuple[tuple[str, Box, str], ...] = ()  # ("left" | "top", page box, the tile it goes under)
    targets: tuple[tuple[str, float, float], ...] = ()  # (side, x, y): arrow tips on a flap's seam line
    tight: bool = False  # laid with no room for marks on its right: its level cuts are marked at one end

    @property
    def board_size(self) -> tuple[float, float]:
        """The whole board's bleed box as laid on the page (turned or not)."""
        s = self.scene
        return (s.outer_height, s.outer_width) if self.rotation % 180 else (s.outer_width, s.outer_height)

    @property
    def own(self) -> tuple[float, float, float, float]:
        """Board x, y, w, h this tile shows once assembled (its window less its flaps)."""
        x, y = self.board_x, self.board_y
        w, h = self.window[2], self.window[3]
        for side, (_, _, fw, fh), _ in self.flaps:
            if side == "left":
                x, w = x + fw, w - fw
            else:
                y, h = y + fh, h - fh
        return (x, y, w, h)


@dataclass
class Sheet:
    role: str  # front | back | tile | map | aid | blank
    components: list[str]
    placed: list[Placed] = field(default_factory=list)
    marks: list[tuple[float, float, float, float]] = field(default_factory=list)
    tiles: list[Tile] = field(default_factory=list)  # printed to cut on a tile sheet; all, outlined, on a map
    tile_pages: list[int] = field(default_factory=list)  # a map's: the page of each of its tiles (set by paginate)
    picture: Box | None = None  # where the assembly map's board goes (None: as large as the page allows)
    aids: list[Placed] = field(default_factory=list)  # player aids to read on this page, not cut out
    blocks: list[int] = field(default_factory=list)  # pieces in each block of touching pieces
    tight: list[bool] = field(default_factory=list)  # per block: a tight grid, its trim lines marked at one end
    # trim lines marked at their far end only, as (block, axis, line): block counts tiles first, then blocks;
    # axis 0 an upright line at x = line, 1 a level one at y = line (see block_marks)
    one_ended: list[tuple[int, int, float]] = field(default_factory=list)
    footer: str = "bottom"  # the page side the footer runs along: bottom | top | left | right
    number: int = 0  # the sheet of paper it prints on, of how many in the file (set by paginate)
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
    single: bool = False  # room for crop marks at one end of each trim line only (see block_area)

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows


def shares_cuts(scene: Scene) -> bool:
    """Straight-edged pieces can touch: one cut separates neighbours."""
    return scene.shape == "rect"


def cell_bleed(scene: Scene) -> float:
    """The bleed inside a grid cell: none for pieces that share cuts (their cells are trims), all of it for
    pieces that keep their own."""
    return 0.0 if shares_cuts(scene) else scene.bleed


def mark_area(settings: Settings, footer: str) -> Box:
    """Where crop marks may run: the content area and the gap before the footer, short of its text."""
    x, y, w, h = content_area(settings, footer)
    if footer in ("bottom", "top"):
        return (x, y - (MARK_INTO_GAP if footer == "top" else 0.0), w, h + MARK_INTO_GAP)
    return (x - (MARK_INTO_GAP if footer == "left" else 0.0), y, w + MARK_INTO_GAP, h)


def block_area(settings: Settings, footer: str, edge: float, inside: float, single: bool = False) -> Box:
    """Where the cells of a block may go: the content area less room for crop marks MARK_LEAST long beyond the
    block's outer trims (`inside`: the bleed the cells hold, which gives part of that room; marks may run into
    the footer's gap), and less the block's own bleed beyond its cells (`edge`) where it would reach the
    footer's text. `single`: room on the top and left only, so each trim line has a mark at one end, where a
    mark at both would cost the sheet a row or column of pieces."""
    x, y, w, h = content_area(settings, footer)
    room = max(0.0, MARK_ROOM - inside)
    pads = {side: 0.0 if single and side in ("bottom", "right") else room for side in SIDES}
    pads[footer] = max(0.0, pads[footer] - MARK_INTO_GAP, edge + 0.5 - FOOTER_GAP)
    return (x + pads["left"], y + pads["top"], w - pads["left"] - pads["right"], h - pads["top"] - pads["bottom"])


def plan_grid(scene: Scene, settings: Settings, count: int = 1) -> Grid:
    """The fewest sheets for `count` pieces, then the shortest block left over for another sheet to take, then
    crop marks at both ends of every trim line, then the most pieces per sheet: upright or turned, footer below or beside (upright and below on a tie, so a sheet that is
    not full leaves room for other blocks)."""
    shared = shares_cuts(scene)
    edge = scene.bleed if shared else 0.0
    ow, oh = (scene.width, scene.height) if shared else (scene.outer_width, scene.outer_height)
    options = []
    for single in (False, True):
        for footer in ("bottom", "left"):
            _, _, aw, ah = block_area(settings, footer, edge, cell_bleed(scene), single)
            for turned in (False, True):
                cw, ch = (oh, ow) if turned else (ow, oh)
                options.append(Grid(max(0, int((aw + 1e-9) // cw)), max(0, int((ah + 1e-9) // ch)), turned,
                                    footer, (cw, ch), edge, single))
    def rank(g: Grid) -> tuple:
        if not g.per_sheet:
            return (math.inf,)
        sheets = math.ceil(count / g.per_sheet)
        last = count - (sheets - 1) * g.per_sheet
        # how much of the last sheet its block takes, so the rest may take other blocks (only a sheet with its
        # footer below takes or gives blocks; a full sheet takes all of it)
        partial = math.ceil(last / g.cols) * g.cell[1] if g.footer == "bottom" else math.inf
        return (sheets, g.single, partial, g.footer != "bottom", -g.per_sheet)

    return min(options, key=rank)


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


Edges = tuple[float, float, float, float]  # left, top, right, bottom


def mark_limits(settings: Settings, footer: str) -> Edges:
    x, y, w, h = mark_area(settings, footer)
    return (x, y, x + w, y + h)


def crop_marks(placed: list[Placed], settings: Settings, limits: Edges) -> list[tuple[float, float, float, float]]:
    """Short lines extending every trim line outward past the block, from just beyond the block's outer trim
    (over the outside bleed, which is cut away: a white halo keeps them visible on it) to the `limits` (the
    footer's gap, other blocks on the sheet), or MARK_MAX past the bleed. The room block_area keeps makes them
    at least MARK_LEAST long, at both ends of a trim line or, where a grid is tight, at one."""
    if not placed or not settings.crop_marks:
        return []
    trims = [p.trim_box for p in placed]
    left = min(t[0] for t in trims)
    top = min(t[1] for t in trims)
    right = max(t[0] + t[2] for t in trims)
    bottom = max(t[1] + t[3] for t in trims)
    limit_left, limit_top, limit_right, limit_bottom = limits
    xs = sorted({round(v, 6) for t in trims for v in (t[0], t[0] + t[2])})
    ys = sorted({round(v, 6) for t in trims for v in (t[1], t[1] + t[3])})
    reach = max(p.scene.bleed for p in placed) + MARK_MAX
    o = MARK_OFFSET
    marks = [(x, max(limit_top, top - reach), x, top - o) for x in xs]
    marks += [(x, bottom + o, x, min(limit_bottom, bottom + reach)) for x in xs]
    marks += [(max(limit_left, left - reach), y, left - o, y) for y in ys]
    marks += [(right + o, y, min(limit_right, right + reach), y) for y in ys]
    return printable(marks, settings)


def tile_marks(window: Box, settings: Settings, limits: Edges) -> list[tuple[float, float, float, float]]:
    """Corner marks of a tile: each edge of its window extended outward at both ends, as far as the `limits` (the
    content area, the tiles beside it) let them (impose_tiled keeps MARK_ROOM free on every side of the window;
    a mark too short to cut by is left out)."""
    if not settings.crop_marks:
        return []
    wx, wy, ww, wh = window
    left, top, right, bottom = limits
    o, reach = MARK_OFFSET, MARK_OFFSET + MARK_MAX
    marks = []
    for x in (wx, wx + ww):
        marks += [(x, max(top, wy - reach), x, wy - o), (x, wy + wh + o, x, min(bottom, wy + wh + reach))]
    for y in (wy, wy + wh):
        marks += [(max(left, wx - reach), y, wx - o, y), (wx + ww + o, y, min(right, wx + ww + reach), y)]
    return printable(marks, settings)


def printable(marks: list[tuple[float, float, float, float]], settings: Settings) -> list[tuple[float, float, float, float]]:
    """The marks cut back to the printable page, inside the margin the user chose (home printers print nothing
    nearer the edge), leaving out any that would be too short to cut by."""
    pw, ph = settings.size
    m = settings.margin
    out = []
    for x1, y1, x2, y2 in marks:
        x1, x2 = (min(max(v, m), pw - m) for v in (x1, x2))
        y1, y2 = (min(max(v, m), ph - m) for v in (y1, y2))
        if math.hypot(x2 - x1, y2 - y1) >= MARK_LEAST - 1e-6:
            out.append((x1, y1, x2, y2))
    return out


def impose_grid(run: list[tuple[Scene, Scene | None, str]], settings: Settings) -> list[Sheet]:
    """Front sheets (and mirrored back sheets) for pieces that share one size."""
    first = run[0][0]
    full = plan_grid(first, settings, len(run))
    b = first.bleed
    sheets: list[Sheet] = []
    duplex = settings.duplex != "off" and any(back is not None for _, back, _ in run)
    for start in range(0, len(run), full.per_sheet):
        chunk = run[start:start + full.per_sheet]
        # a last sheet of a few pieces whose full sheets need the footer beside them gets its own grid: with
        # the footer below, it may share a sheet
        last = len(chunk) < full.per_sheet and full.footer != "bottom"
        grid = plan_grid(first, settings, len(chunk)) if last else full
        pitch_w, pitch_h = grid.cell
        ax, ay, aw, ah = block_area(settings, grid.footer, grid.edge, cell_bleed(first), grid.single)
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
        front.marks = crop_marks(front.placed, settings, mark_limits(settings, grid.footer))
        front.blocks, front.tight = [len(front.placed)], [grid.single]
        sheets.append(front)
        if duplex:
            back = Sheet("back", names, footer=mirror_side(grid.footer, settings))
            for placed, (_, back_scene, _) in zip(front.placed, chunk):
                if back_scene is not None:
                    back.placed.append(mirror(placed, back_scene, settings))
            back.marks = crop_marks(back.placed, settings, mark_limits(settings, back.footer))
            back.blocks, back.tight = [len(back.placed)], [grid.single]
            sheets.append(back)
    return sheets


def tile_label(col: int, row: int) -> str:
    return f"{chr(ord('A') + row)}{col + 1}"


def _boxes(elements, dx: float = 0.0, dy: float = 0.0, scale: float = 1.0, link: bool = False):
    """((x0, y0, x1, y1), "line" | "text" | "shape") for everything drawn, through groups (translation, scale);
    whatever a link group draws counts as a line."""
    from ..look.fonts import ascent_mm, text_width_mm  # only tiled boards measure text here

    for e in elements:
        if isinstance(e, Group):
            yield from _boxes(e.children, dx + e.dx * scale, dy + e.dy * scale, scale * e.scale, link or e.link)
            continue
        if isinstance(e, Rect):
            box = (e.x, e.y, e.x + e.w, e.y + e.h)
        elif isinstance(e, Circle):
            box = (e.cx - e.r, e.cy - e.r, e.cx + e.r, e.cy + e.r)
        elif isinstance(e, (Polygon, Path)):
            points = e.points if isinstance(e, Polygon) else [c[-2:] for c in e.commands if c[0] != "Z"]
            if not points:
                continue
            box = (min(x for x, _ in points), min(y for _, y in points), max(x for x, _ in points),
                   max(y for _, y in points))
        elif isinstance(e, Text):
            for line in e.lines:
                width = text_width_mm(line.text, e.font, e.size)
                left = line.x - {"left": 0.0, "center": 0.5, "right": 1.0}[e.align] * width
                top = line.y - ascent_mm(e.font, e.size)
                yield (dx + left * scale, dy + top * scale, dx + (left + width) * scale, dy + line.y * scale), "text"
            continue
        elif isinstance(e, Line):
            box = (min(e.x1, e.x2), min(e.y1, e.y2), max(e.x1, e.x2), max(e.y1, e.y2))
        else:
            continue
        yield ((dx + box[0] * scale, dy + box[1] * scale, dx + box[2] * scale, dy + box[3] * scale),
               "line" if link or isinstance(e, Line) else "shape")


SPACE_WEIGHT = 10  # how bad cutting through a space, box or icon is
TEXT_WEIGHT = 100  # a word cut in two is worse than any space: a seam crosses text only where nothing else can
SEAM_CLEAR = 1.1  # mm kept between a seam and anything drawn beside it, so a cut a hair off the line shaves nothing
TEXT_CLEAR = 2.1  # mm kept between a seam and a text: a letter is never shaved, nor a word read across the seam


def seam_blocks(scene: Scene, axis: int) -> list[tuple[float, float, int]]:
    """Stretches of the scene (bleed-box coordinates, along x for axis 0, y for 1) a seam should not cut, with
    how bad cutting each is: every text (worst), space, box and icon, and the inside of every grid cell.
    Shapes as large as much of the board (its ground, frame, a grid's backdrop) do not count: seams cross
    them along grid lines."""
    size = (scene.outer_width, scene.outer_height)[axis]
    b = scene.bleed
    blocked, rules = [], []
    for (x0, y0, x1, y1), kind in _boxes(scene.elements):
        lo, hi = ((x0, x1), (y0, y1))[axis]
        across = ((y0, y1), (x0, x1))[axis]
        if kind == "line":  # links may be crossed; a line along the seam's direction is a grid line
            if hi - lo < 1e-6 and across[1] - across[0] > 20:
                rules.append(lo + b)
        elif kind == "text":
            blocked.append((lo + b - TEXT_CLEAR, hi + b + TEXT_CLEAR, TEXT_WEIGHT))
        elif hi - lo < size * 0.5:
            blocked.append((lo + b - SEAM_CLEAR, hi + b + SEAM_CLEAR, SPACE_WEIGHT))
    rules = sorted(set(round(r, 3) for r in rules))
    blocked += [(a, c, SPACE_WEIGHT) for a, c in zip(rules, rules[1:]) if c - a < 60]  # inside a grid cell
    return blocked


CUT_SPAN = 2 ** 40  # more than any seam's cut weight: tiles * CUT_SPAN + cut orders by tiles, then cut
UNREACHED = 2 ** 63 - 1  # the largest int64: a candidate no way reaches yet


def cut_weights(xs: list[float], blocked: list[tuple[float, float, int]]) -> list[int]:
    """How bad a seam at each of `xs` is: the weights of the stretches it falls strictly inside (a < x < c),
    summed by sorted starts and ends, not stretch by stretch (a board's texts are thousands of them)."""
    stretches = [(a, c, weight) for a, c, weight in blocked if a < c]
    starts = sorted((a, weight) for a, _, weight in stretches)
    ends = sorted((c, weight) for _, c, weight in stretches)
    start_at, end_at = [a for a, _ in starts], [c for c, _ in ends]
    started, ended = [0], [0]
    for _, weight in starts:
        started.append(started[-1] + weight)
    for _, weight in ends:
        ended.append(ended[-1] + weight)
    return [started[bisect_left(start_at, x)] - ended[bisect_right(end_at, x)] for x in xs]


def choose_seams(length: float, window: float, blocked: list[tuple[float, float, int]], even: bool = True
                 ) -> list[float]:
    """Seams along one axis: the fewest tiles, then the least cut (nothing, where a free line is in reach),
    then the most even tiles, or with `even` False the least even (large tiles and a small one, which may
    share a page with another). Each tile after the first starts a flap before its seam.

    Each candidate's best way there is chosen among the candidates a tile's reach back, as whole arrays
    (numpy): a board's texts give hundreds of candidates each reaching hundreds back."""
    if length <= window + 1e-9:
        return []
    import numpy  # only a board tiled over sheets needs it (a dependency of ours anyway: see pyproject.toml)

    candidates = sorted({v for a, c, _ in blocked for v in (a, c) if 2 * TILE_FLAP < v < length}
                        | {float(v) for v in range(int(2 * TILE_FLAP) + 1, int(length), 5)})

    sign = 1 if even else -1
    cuts = cut_weights(candidates, blocked)
    at = numpy.array(candidates)
    # the best way to a seam at each candidate: tiles and cut as one whole number (tiles * CUT_SPAN + cut, so
    # one min finds the fewest tiles, then the least cut), the sum of squared tile lengths, the seam before it
    rank = numpy.full(len(candidates), UNREACHED, dtype=numpy.int64)
    squares = numpy.zeros(len(candidates))
    previous: list[int | None] = [None] * len(candidates)
    for i, x in enumerate(candidates):
        way = (CUT_SPAN + cuts[i], sign * x * x) if x <= window else None
        lo, hi = bisect_left(candidates, x + TILE_FLAP - window), bisect_left(candidates, x - TILE_FLAP)
        chosen = None
        if hi > lo:
            least = rank[lo:hi].min()
            if least != UNREACHED:
                sums = numpy.where(rank[lo:hi] == least, squares[lo:hi] + sign * (x - at[lo:hi] + TILE_FLAP) ** 2,
                                   numpy.inf)
                j = int(numpy.argmin(sums))  # the first of equals, as min() over the candidates in order
                option = (int(least) + CUT_SPAN + cuts[i], float(sums[j]))
                if way is None or option < way:
                    chosen, way = lo + j, option
        if way is not None:
            rank[i], squares[i] = way
            previous[i] = chosen
    ends = [(int(rank[i]) + CUT_SPAN, float(squares[i]) + sign * (length - candidates[i] + TILE_FLAP) ** 2, i)
            for i in range(len(candidates))
            if rank[i] != UNREACHED and length - (candidates[i] - TILE_FLAP) <= window + 1e-9]
    index: int | None = min(ends, key=lambda o: o[:2])[2]
    seams = []
    while index is not None:
        seams.append(candidates[index])
        index = previous[index]
    return seams[::-1]


def seam_targets(side: str, seam: float, span: tuple[float, float]) -> list[tuple[float, float]]:
    """Arrow tips along a seam: two or more, at least 40 mm apart where the seam is long enough."""
    lo, hi = span
    count = max(2, int((hi - lo) // 80) + 1)
    step = (hi - lo) / count
    along = [lo + step * (i + 0.5) for i in range(count)]
    return [(seam, a) if side == "left" else (a, seam) for a in along]


def cut_tiles(scene: Scene, rotation: int, size: tuple[float, float], xs: list[float], ys: list[float]
              ) -> list[Tile]:
    """The tiles between the seams, in board order, each with its window's top-left at (0, 0) (see `moved`):
    every tile after the first in a row or column has a flap beyond its seam that goes under its neighbour,
    with arrows on the seam line."""
    bw, bh = size
    nx, ny = len(xs) + 1, len(ys) + 1
    starts_x, ends_x = [0.0] + [x - TILE_FLAP for x in xs], xs + [bw]
    starts_y, ends_y = [0.0] + [y - TILE_FLAP for y in ys], ys + [bh]
    tiles = []
    for row in range(ny):
        for col in range(nx):
            bx, by = starts_x[col], starts_y[row]
            w, h = ends_x[col] - bx, ends_y[row] - by
            flaps, targets = [], []
            own_x = (bx + TILE_FLAP if col else bx, ends_x[col])
            own_y = (by + TILE_FLAP if row else by, ends_y[row])
            if col:
                flaps.append(("left", (0.0, 0.0, TILE_FLAP, h), tile_label(col - 1, row)))
                targets += [("left", x - bx, y - by) for x, y in seam_targets("left", xs[col - 1], own_y)]
            if row:
                flaps.append(("top", (0.0, 0.0, w, TILE_FLAP), tile_label(col, row - 1)))
                targets += [("top", x - bx, y - by) for x, y in seam_targets("top", ys[row - 1], own_x)]
            tiles.append(Tile(scene, rotation, (0.0, 0.0, w, h), bx, by, tile_label(col, row), (nx, ny),
                              tuple(flaps), tuple(targets)))
    return tiles


def moved(tile: Tile, x: float, y: float) -> Tile:
    """The tile with its window's top-left at (x, y) on the page, its flaps and arrows with it."""
    dx, dy = x - tile.window[0], y - tile.window[1]
    return replace(tile, window=(x, y, *tile.window[2:]),
                   flaps=tuple((side, (fx + dx, fy + dy, fw, fh), under)
                               for side, (fx, fy, fw, fh), under in tile.flaps),
                   targets=tuple((side, tx + dx, ty + dy) for side, tx, ty in tile.targets))


Shelf = list[Tile]  # tiles side by side, tops in line


def shelf_size(shelf: Shelf) -> tuple[float, float]:
    return (sum(t.window[2] for t in shelf) + TILE_GAP * (len(shelf) - 1), max(t.window[3] for t in shelf))


def pack_tiles(tiles: list[Tile], area: Box) -> list[list[Tile]]:
    """The tiles on as few pages as they fit, each tile whole and TILE_GAP from the next (room for both
    tiles' corner marks): tallest first, each on the first page with room beside the tiles of a row or in a
    row under them. Each page's rows are centred on it in board order, and the pages follow their first tile."""
    ax, ay, aw, ah = area
    order = {t.label: i for i, t in enumerate(tiles)}
    pages: list[list[Shelf]] = []

    def height(shelves: list[Shelf]) -> float:
        return sum(shelf_size(s)[1] for s in shelves) + TILE_GAP * (len(shelves) - 1)

    for tile in sorted(tiles, key=lambda t: -t.window[3]):
        w, h = tile.window[2:]
        for shelves in pages:
            beside = next((s for s in shelves if shelf_size(s)[0] + TILE_GAP + w <= aw + 1e-9), None)
            if beside is not None:  # no taller than the row: the tallest came first
                beside.append(tile)
                break
            if height(shelves) + TILE_GAP + h <= ah + 1e-9:
                shelves.append([tile])
                break
        else:
            pages.append([[tile]])
    laid = []
    for shelves in pages:
        shelves = sorted((sorted(s, key=lambda t: order[t.label]) for s in shelves), key=lambda s: order[s[0].label])
        y, page = ay + (ah - height(shelves)) / 2, []
        for shelf in shelves:
            width, tall = shelf_size(shelf)
            x = ax + (aw - width) / 2
            for tile in shelf:
                page.append(moved(tile, x, y))
                x += tile.window[2] + TILE_GAP
            y += tall + TILE_GAP
        laid.append(page)
    return sorted(laid, key=lambda page: order[page[0].label])


def impose_tiled(scene: Scene, component: str, settings: Settings) -> list[Sheet]:
    """An assembly map, then the tiles of a piece too large for the paper, packed on as few pages as hold them.

    Seams fall on the board's grid lines or between its spaces; of the seams that cut nothing, those whose
    tiles share pages best win (even tiles, or large ones and a small one that joins another page)."""
    ax, ay, aw, ah = content_area(settings)
    ow, oh = scene.outer_width, scene.outer_height
    options = []
    # choose_seams depends only on its arguments, and of the 32 seam lists the 16 ways below try only 12 differ
    # (the tight area is as tall as the other; each evenness of one axis goes with both of the other's): each
    # is chosen once, a tiled board imposed in well under half the time
    chosen: dict[tuple, list[float]] = {}

    def seams(rotation: int, axis: int, length: float, window: float, blocks, even: bool) -> list[float]:
        key = (rotation, axis, window, even)
        if key not in chosen:
            chosen[key] = choose_seams(length, window, blocks, even=even)
        return chosen[key]

    # room for corner marks above, below and on both sides of every tile, so both ends of each cut line are
    # marked; or, tight, on its left only (its level cuts marked at one end), where the width that gives the
    # board saves a page or a seam through a space or a word
    for tight in (False, True):
        area = (ax + MARK_ROOM, ay + MARK_ROOM, aw - (1 if tight else 2) * MARK_ROOM, ah - 2 * MARK_ROOM)
        for rotation in (0, 90):
            bw, bh = (oh, ow) if rotation else (ow, oh)
            # turned 90° clockwise, the scene's y runs along the page's x, from the far side
            x_blocks = seam_blocks(scene, 1 if rotation else 0)
            y_blocks = seam_blocks(scene, 0 if rotation else 1)
            if rotation:
                x_blocks = [(bw - c, bw - a, weight) for a, c, weight in x_blocks]
            for uneven in range(4):  # even tiles both ways first
                xs = seams(rotation, 0, bw, area[2], x_blocks, even=not uneven & 1)
                ys = seams(rotation, 1, bh, area[3], y_blocks, even=not uneven & 2)
                cuts = sum(w for x in xs for a, c, w in x_blocks if a < x < c) + sum(
                    w for y in ys for a, c, w in y_blocks if a < y < c)
                pages = pack_tiles(cut_tiles(scene, rotation, (bw, bh), xs, ys), area)
                options.append((len(pages), (len(xs) + 1) * (len(ys) + 1), cuts, tight, uneven, rotation, pages))
    best = min(options, key=lambda o: o[:6])
    pages = [[replace(t, tight=best[3]) for t in page] for page in best[6]]
    laid = {t.label: t for page in pages for t in page}
    tiles = [laid[label] for label in sorted(laid, key=lambda label: (label[0], int(label[1:])))]
    sheets = [Sheet("map", [component], tiles=tiles)] + [Sheet("tile", [component], tiles=page) for page in pages]
    for sheet in sheets[1:]:
        sheet.marks = block_marks(sheet, settings)
    return sheets


def map_area(settings: Settings) -> Box:
    """Where an assembly map's picture of the board may go: below its heading, above the footer."""
    pw, ph = settings.size
    m = settings.margin
    return (m, m + MAP_TOP, pw - 2 * m, ph - 2 * m - MAP_TOP - FOOTER_H - MAP_FOOT)


def fit_picture(size: tuple[float, float], area: Box) -> Box:
    """A picture of `size` scaled to fill `area` (its width or height), centred across and at its top."""
    ax, ay, aw, ah = area
    scale = min(aw / size[0], ah / size[1])
    return (ax + (aw - size[0] * scale) / 2, ay, size[0] * scale, size[1] * scale)


def lay_aids(aids: list[tuple[Scene, str]], area: Box, picture: tuple[float, float] | None = None
             ) -> tuple[Box | None, list[Placed]] | None:
    """Player aids at actual size in `area`, upright or turned, in a row or a column: centred on a page of
    their own, or below or beside a `picture` (an assembly map) that shrinks for them, whichever keeps it
    largest, to MAP_LEAST of its size alone at most. The picture's box and the aids, or None if they do not
    fit. An aid shows its trim only: it is read on the page, not cut out."""
    ax, ay, aw, ah = area
    full = min(aw / picture[0], ah / picture[1]) if picture else 0.0
    best = None
    for turned in (False, True):
        sizes = [(s.height, s.width) if turned else (s.width, s.height) for s, _ in aids]
        gaps = AID_GAP * (len(sizes) - 1)
        row = (sum(w for w, _ in sizes) + gaps, max(h for _, h in sizes))
        column = (max(w for w, _ in sizes), sum(h for _, h in sizes) + gaps)
        for below, (bw, bh) in ((True, row), (False, column)):
            if picture is None:
                if bw <= aw and bh <= ah:
                    best = best or (0.0, turned, below, sizes, (ax + (aw - bw) / 2, ay + (ah - bh) / 2), None)
                continue
            room = (aw, ah - bh - AID_GAP) if below else (aw - bw - AID_GAP, ah)
            scale = min(room[0] / picture[0], room[1] / picture[1])
            if bw > aw or bh > ah or scale < MAP_LEAST * full or (best and scale <= best[0]):
                continue
            mw, mh = picture[0] * scale, picture[1] * scale
            if below:  # the map at the top, the aids under it, both centred across
                box, start = (ax + (aw - mw) / 2, ay, mw, mh), (ax + (aw - bw) / 2, ay + mh + AID_GAP)
            else:  # side by side, centred across as one
                left = ax + (aw - mw - AID_GAP - bw) / 2
                box, start = (left, ay, mw, mh), (left + mw + AID_GAP, ay)
            best = (scale, turned, below, sizes, start, box)
    if best is None:
        return None
    _, turned, below, sizes, (x, y), box = best
    placed = []
    for (scene, component), (w, h) in zip(aids, sizes):
        b = scene.bleed
        # turned, an aid reads from the bottom up (its top to the left), as a footer beside the pieces does
        placed.append(Placed(scene, x - b, y - b, 270 if turned else 0, component, (x, y, w, h)))
        x, y = (x + w + AID_GAP, y) if below else (x, y + h + AID_GAP)
    return box, placed


def hold_aids(sheets: list[Sheet], aids: list[tuple[Scene, str]], settings: Settings) -> Sheet | None:
    """Put the player aids on the first assembly map, or on a page of their own (returned) when there is no map
    (or it has no room); None when they fit on neither."""
    names = list(dict.fromkeys(c for _, c in aids))
    first = next((s for s in sheets if s.role == "map"), None)
    if first is not None:
        laid = lay_aids(aids, map_area(settings), first.tiles[0].board_size)
        if laid:
            first.picture, first.aids = laid
            first.components += names
            return first
    laid = lay_aids(aids, content_area(settings))
    if laid is None:
        return None
    return Sheet("aid", names, aids=laid[1])


def stackable(sheet: Sheet) -> bool:
    """A sheet of fronts with its footer below: its block can go above or below another such sheet's."""
    return sheet.role == "front" and sheet.footer == "bottom"


def hosts(sheet: Sheet) -> bool:
    """A sheet that may take other sheets' blocks: one that stacks, or a page of a board's tiles (blank behind,
    so only one-sided pieces join it)."""
    return stackable(sheet) or sheet.role == "tile"


def block_gap(settings: Settings) -> float:
    """Between the bleed of two blocks side by side or one above the other: BLOCK_GAP, or with little bleed,
    what two marks MARK_LEAST long and MARK_APART apart need."""
    return max(BLOCK_GAP, 2 * (MARK_ROOM - settings.bleed) + MARK_APART)


def block_box(placed: list[Placed]) -> Edges:
    """x0, y0, x1, y1 of what a block shows: its pieces with the bleed round the block."""
    boxes = [p.visible_box for p in placed]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[0] + b[2] for b in boxes),
            max(b[1] + b[3] for b in boxes))


def apart(box: Edges, boxes: list[Edges], limits: Edges) -> Edges:
    """How far the marks of the block at `box` may run within `limits`: toward another of the `boxes` above,
    below or beside it, halfway, MARK_APART short of that block's marks."""
    x0, y0, x1, y1 = box
    left, top, right, bottom = limits
    half = MARK_APART / 2
    for ox0, oy0, ox1, oy1 in boxes:
        if (ox0, oy0, ox1, oy1) == box:
            continue
        if ox0 < x1 and x0 < ox1:  # above or below
            if oy1 <= y0:
                top = max(top, (oy1 + y0) / 2 + half)
            elif oy0 >= y1:
                bottom = min(bottom, (y1 + oy0) / 2 - half)
        elif oy0 < y1 and y0 < oy1:  # beside
            if ox1 <= x0:
                left = max(left, (ox1 + x0) / 2 + half)
            else:
                right = min(right, (x1 + ox0) / 2 - half)
    return left, top, right, bottom


def block_marks(sheet: Sheet, settings: Settings) -> list[tuple[float, float, float, float]]:
    """Crop marks for each block and each tile on the sheet, kept apart from the others' (`apart`), less those
    `near_misses_in_gaps` leaves out (recorded in the sheet's one_ended)."""
    blocks, start = [], 0
    for size in sheet.blocks:
        blocks.append(sheet.placed[start:start + size])
        start += size
    windows = [t.window for t in sheet.tiles] if sheet.role == "tile" else []
    tile_boxes = [(x, y, x + w, y + h) for x, y, w, h in windows]
    boxes = [block_box(b) for b in blocks]
    limits = mark_limits(settings, sheet.footer)
    # tiles first, as Sheet.one_ended counts them
    marked = [tile_marks(window, settings, apart(box, boxes + tile_boxes, limits))
              for window, box in zip(windows, tile_boxes)]
    marked += [crop_marks(block, settings, apart(box, boxes + tile_boxes, limits))
               for block, box in zip(blocks, boxes)]
    trims = tile_boxes + [
        (min(t[0] for t in ts), min(t[1] for t in ts), max(t[0] + t[2] for t in ts), max(t[1] + t[3] for t in ts))
        for ts in ([p.trim_box for p in block] for block in blocks)]
    dropped = near_misses_in_gaps(marked, trims)
    sheet.one_ended = sorted({(i, 0 if m[0] == m[2] else 1, m[0] if m[0] == m[2] else m[1]) for i, m in dropped})
    # drawn in the order they always were: blocks, then tiles
    order = list(range(len(windows), len(marked))) + list(range(len(windows)))
    return [m for i in order for m in marked[i] if (i, m) not in dropped]


def block_trims(sheet: Sheet) -> list[list[Edges]]:
    """The trims of each block on the sheet as x0, y0, x1, y1, tiles first (each tile's window one block), as
    Sheet.one_ended counts them."""
    out = [[(x, y, x + w, y + h)] for x, y, w, h in (t.window for t in sheet.tiles)] if sheet.role == "tile" else []
    start = 0
    for size in sheet.blocks:
        out.append([(x, y, x + w, y + h) for x, y, w, h in (p.trim_box for p in sheet.placed[start:start + size])])
        start += size
    return out


def marked_ends(sheet: Sheet) -> list[tuple[int, int, float, frozenset[str]]]:
    """Each trim line of each block and tile, as (block, axis, line, the ends its marks are at): axis 0 an
    upright line at x = line, its ends "top" and "bottom"; 1 a level one at y = line, "left" and "right". A
    mark is a block's when it lies on one of its lines, starting MARK_OFFSET beyond the block's outer trims."""
    out = []
    for i, trims in enumerate(block_trims(sheet)):
        x0, y0 = min(t[0] for t in trims), min(t[1] for t in trims)
        x1, y1 = max(t[2] for t in trims), max(t[3] for t in trims)
        for axis, (low, high), names in ((0, (y0, y1), ("top", "bottom")), (1, (x0, x1), ("left", "right"))):
            for line in sorted({round(t[axis], 6) for t in trims} | {round(t[axis + 2], 6) for t in trims}):
                ends = set()
                for m in sheet.marks:
                    if abs(m[axis] - line) > 1e-6 or abs(m[axis + 2] - line) > 1e-6:
                        continue
                    near, far = sorted((m[1 - axis], m[3 - axis]))
                    if abs(low - MARK_OFFSET - far) < 1e-3:
                        ends.add(names[0])
                    elif abs(near - high - MARK_OFFSET) < 1e-3:
                        ends.add(names[1])
                out.append((i, axis, line, frozenset(ends)))
    return out


def one_end_note(sheet: Sheet) -> str:
    """What the sheet's footer says when some cut lines have a mark at one end only (a tight grid, a line whose
    other end would jog against another block's): where their marks are, so a cutter lays the ruler along the
    piece's edge there; "" when every line is marked at both ends."""
    ends = {end for *_, marked in marked_ends(sheet) if len(marked) == 1 for end in marked}
    if not ends:
        return ""
    named = [end for end in ("top", "bottom", "left", "right") if end in ends]
    return f" Cut lines marked at one end only, at the {' and '.join(named)}."


def near_misses_in_gaps(marked: list[list[tuple[float, float, float, float]]], trims: list[Edges]
                        ) -> set[tuple[int, tuple[float, float, float, float]]]:
    """The marks to leave out, as (block, mark): where two blocks' parallel trim lines near-miss (closer than
    MARK_APART, not one line: blocks of two sizes that both fill the width, where no placement parts them),
    their marks facing each other across the gap between the blocks would read as one jogged line; only the
    upper block's (in a gap between blocks side by side, the left one's) is kept, and the other block's line
    is marked at its far end only, as a tight grid's are. `trims`: each block's outer trims, x0, y0, x1, y1."""
    out = set()
    for j, marks in enumerate(marked):
        for m in marks:
            axis = 0 if m[0] == m[2] else 1  # upright marks lie in a gap above or below; level, beside
            if max(m[1 - axis], m[3 - axis]) > trims[j][1 - axis]:
                continue  # on the block's lower (right) side: never left out
            for i, others in enumerate(marked):
                # the other block lies before this one, in the gap the mark runs into
                if i == j or trims[i][3 - axis] > trims[j][1 - axis] + 1e-6:
                    continue
                if any(o[axis] == o[axis + 2] and near_misses([o[axis]], [m[axis]])
                       and min(o[1 - axis], o[3 - axis]) >= trims[i][3 - axis] for o in others):
                    out.add((j, m))
    return out


def plain_back(front: Scene) -> Scene:
    """Nothing, in the shape of `front`: what lands behind a one-sided piece that shares a sheet with backs."""
    return Scene(front.width, front.height, front.bleed, (), front.shape, front.corner_radius,
                 f"{front.label} (plain back)")


@dataclass
class Block:
    """A block of touching pieces from one sheet of fronts, with one back per piece (None: none), or the tiles
    of a board's page, which take other blocks under or over them but never move across or to another page."""

    placed: list[Placed]
    backs: list[Scene | None]
    tiles: list[Tile] = field(default_factory=list)
    pad: float = 0.0  # kept above and below tiles, as a block's bleed is: room for their corner marks
    tight: bool = False  # a tight grid's block: its trim lines are marked at one end
    size: tuple[float, float] = (0.0, 0.0)  # width and height of what it shows

    def __post_init__(self):
        if self.placed or self.tiles:  # a map has neither: it never stacks
            x0, y0, x1, y1 = self.box
            self.size = (x1 - x0, y1 - y0)

    @property
    def box(self) -> Edges:
        """x0, y0, x1, y1 of what it shows, with room for the marks of tiles above and below them."""
        if self.placed:
            return block_box(self.placed)
        windows = [t.window for t in self.tiles]
        return (min(x for x, _, _, _ in windows), min(y for _, y, _, _ in windows) - self.pad,
                max(x + w for x, _, w, _ in windows), max(y + h for _, y, _, h in windows) + self.pad)


Row = list[Block]


def row_size(row: Row, gap: float) -> tuple[float, float]:
    return sum(b.size[0] for b in row) + gap * (len(row) - 1), max(b.size[1] for b in row)


def rows_height(rows: list[Row], gap: float) -> float:
    return sum(row_size(r, gap)[1] for r in rows) + gap * (len(rows) - 1)


def trim_lines(block: Block, axis: int) -> list[float]:
    """A block's upright (axis 0: their x) or level (axis 1: their y) trim lines, its tiles' window edges."""
    boxes = [p.trim_box for p in block.placed] + [t.window for t in block.tiles]
    return sorted({round(box[axis] + k * box[axis + 2], 6) for box in boxes for k in (0, 1)})


def snapped(lines: list[float], others: list[float], least: float, most: float) -> float:
    """The smallest shift, from `least` to `most`, that puts each of `lines` on one of `others` or MARK_APART
    or more from it: two blocks' marks a ruler could take for one line are one line (where no shift can, the
    one that leaves the fewest near misses)."""
    shifts = [d for d in {0.0} | {o - v + k for v in lines for o in others for k in (0.0, -MARK_APART, MARK_APART)}
              if least - 1e-9 <= d <= most + 1e-9]
    return min(shifts, key=lambda d: (near_misses([v + d for v in lines], others), abs(d)), default=0.0)


def across(rows: list[Row], gap: float, ax: float, aw: float) -> list[list[float]]:
    """How far each block moves across: a row of blocks is centred, a row of one keeps its place; then each row
    is nudged, and the rows above it together if it cannot move far enough alone, so that its upright trim
    lines and those above are one line or MARK_APART apart (a ruler through a mark above and one below cuts
    both blocks true). Rows of tiles never move."""
    out: list[list[float]] = []
    above: list[tuple[float, float]] = []  # (line, row) of the rows above
    slack_above = (-math.inf, math.inf)  # how far all the rows above may still move together
    for r, row in enumerate(rows):
        x = ax + (aw - row_size(row, gap)[0]) / 2
        shifts = [(x + sum(b.size[0] + gap for b in row[:i]) - b.box[0] if len(row) > 1 else 0.0)
                  for i, b in enumerate(row)]
        if any(b.tiles for b in row):
            slack = (0.0, 0.0)
        else:
            slack = (ax - min(b.box[0] + dx for b, dx in zip(row, shifts)),
                     ax + aw - max(b.box[2] + dx for b, dx in zip(row, shifts)))
        lines = [v + dx for b, dx in zip(row, shifts) for v in trim_lines(b, 0)]
        shift = snapped(lines, [v for v, _ in above], slack[0] - slack_above[1], slack[1] - slack_above[0])
        # this row moves by `shift` relative to the rows above: as little of it by them as its own room allows
        lift = min(max(0.0, slack[0] - shift), slack_above[1]) if shift < slack[0] else \
            max(min(0.0, slack[1] - shift), slack_above[0])
        if lift:
            out = [[dx + lift for dx in done] for done in out]
            above = [(v + lift, row_of) for v, row_of in above]
        slack_above = (max(slack_above[0] - lift, slack[0] - shift - lift), min(slack_above[1] - lift,
                                                                                 slack[1] - shift - lift))
        shifts = [dx + shift + lift for dx in shifts]
        out.append(shifts)
        above += [(v + shift + lift, r) for v in lines]
    return out


def near_misses(lines: list[float], others: list[float]) -> int:
    """How many of `lines` lie within MARK_APART of one of `others` without being it: lines a ruler mistakes."""
    return sum(1e-6 <= abs(v - o) < MARK_APART - 1e-6 for v in lines for o in others)


def lines_agree(rows: list[Row], gap: float, ax: float, aw: float) -> bool:
    """Laid out as restack lays them, no two of these rows' upright trim lines are a near miss (closer than
    MARK_APART, not one line): a block that would need one goes on another sheet."""
    seen: list[float] = []
    for row, shifts in zip(rows, across(rows, gap, ax, aw)):
        lines = [v + dx for b, dx in zip(row, shifts) for v in trim_lines(b, 0)]
        if near_misses(lines, seen):
            return False
        seen += lines
    return True


def restack(front: Sheet, back: Sheet | None, rows: list[Row], settings: Settings) -> None:
    """Lay the rows of blocks out one under another, centred as a whole, each row's blocks side by side and
    centred across (a row of one block keeps its place across), each row nudged across and each block down in
    its row so that its trim lines and another block's are one line or MARK_APART apart (`snapped`); each back
    follows its front."""
    gap = block_gap(settings)
    ax, ay, aw, ah = block_area(settings, "bottom", 0.0, settings.bleed)
    y = ay + (ah - rows_height(rows, gap)) / 2
    front.placed, backs, front.blocks, front.tight = [], [], [], []
    if front.role == "tile":
        front.tiles = []
    shifts = across(rows, gap, ax, aw)
    for row, row_shifts in zip(rows, shifts):
        height = row_size(row, gap)[1]
        levels: list[float] = []  # the level trim lines of the row's blocks to the left
        for block, dx in zip(row, row_shifts):
            _, by, _, _ = block.box
            lines = trim_lines(block, 1)
            dy = y - by + (snapped([v + y - by for v in lines], levels, 0.0, height - block.size[1])
                           if not block.tiles else 0.0)
            levels += [v + dy for v in lines]
            front.tiles += [moved(t, t.window[0] + dx, t.window[1] + dy) for t in block.tiles]
            if block.placed:
                front.placed += [replace(p, x=p.x + dx, y=p.y + dy,
                                         clip=p.clip and (p.clip[0] + dx, p.clip[1] + dy, *p.clip[2:]))
                                 for p in block.placed]
                backs += block.backs
                front.blocks.append(len(block.placed))
                front.tight.append(block.tight)
        y += height + gap
    front.marks = block_marks(front, settings)
    if back is not None:
        back.placed = [mirror(f, scene or plain_back(f.scene), settings) for f, scene in zip(front.placed, backs)]
        back.blocks, back.tight = list(front.blocks), list(front.tight)
        back.marks = block_marks(back, settings)


def join(host: "Stacked", rows: list[Row], front: Sheet, back: Sheet | None, settings: Settings) -> None:
    """The host takes `front`'s block (laid out as `rows`), and its backs, if any, on a back sheet of its own."""
    host.rows = rows
    host.front.components = list(dict.fromkeys(host.front.components + front.components))
    if host.back is None and back is not None:
        host.back = Sheet("back", [], footer=mirror_side(host.front.footer, settings))
    if host.back is not None:
        host.back.components = list(host.front.components)
    restack(host.front, host.back, host.rows, settings)


def rows_shared(block: Block, candidates: list["Stacked"], places) -> list[tuple["Stacked", list[Row]]] | None:
    """Where each row of a one-sided block that no sheet takes whole can go, one row to a host (its rows then),
    or None when any row finds none: a strip then shares sheets rather than taking one of its own."""
    by_row: dict[float, list[Placed]] = {}
    for p in block.placed:
        by_row.setdefault(round(p.y, 3), []).append(p)
    if len(by_row) < 2:
        return None
    out: list[tuple[Stacked, list[Row]]] = []
    taken: set[int] = set()
    for _, placed in sorted(by_row.items()):
        # a row cut from a grid whose pieces share cuts gets its bleed above and below back
        placed = [replace(p, clip=(p.clip[0], p.trim_box[1] - p.scene.bleed, p.clip[2],
                                   p.trim_box[3] + 2 * p.scene.bleed)) if p.clip else p for p in placed]
        part = Block(placed, [None] * len(placed), tight=block.tight)
        host = next(((k, p[0]) for k in candidates if id(k) not in taken
                     for p in [places(k, part)] if p), None)
        if host is None:
            return None
        taken.add(id(host[0]))
        out.append(host)
    return out


@dataclass
class Stacked:
    """A sheet of fronts that may take other sheets' blocks, in rows, and its backs (if any)."""

    front: Sheet
    back: Sheet | None
    rows: list[Row]


def stack(sheets: list[Sheet], settings: Settings) -> list[Sheet]:
    """Part-filled sheets of fronts share a sheet when they fit, one block under another or beside it, whatever
    their pieces' sizes (each block keeps its own cuts), so a few counters or a lone card never takes a
    sheet of its own. A sheet with backs prefers a host with backs; when one-sided pieces and pieces with
    backs share a sheet, the one-sided ones get a plain back, so every piece still has its own back. A page
    of a board's tiles takes one-sided blocks above or below its tiles, which stay where they are across."""
    units: list[tuple[Sheet, Sheet | None]] = []
    i = 0
    while i < len(sheets):
        back = sheets[i + 1] if i + 1 < len(sheets) and sheets[i + 1].role == "back" else None
        units.append((sheets[i], back))
        i += 2 if back else 1
    kept: list[Stacked] = []
    room_x, _, room_w, room = block_area(settings, "bottom", 0.0, settings.bleed)  # blocks are measured to their bleed
    gap = block_gap(settings)

    def places(k: Stacked, block: Block) -> list[list[Row]]:
        """The host's rows with `block` added: beside the blocks of a row (not of tiles, which keep their place
        across), or as a row of its own."""
        out = [k.rows[:r] + [k.rows[r] + [block]] + k.rows[r + 1:] for r in range(len(k.rows))
               if not any(b.tiles for b in k.rows[r])]
        fit = [rows for rows in out + [k.rows + [[block]]]
               if rows_height(rows, gap) <= room + 1e-6 and all(row_size(r, gap)[0] <= room_w + 1e-6 for r in rows)]
        return sorted(fit, key=lambda rows: not lines_agree(rows, gap, room_x, room_w))  # true lines first

    # tallest blocks first, so each shorter one finds the sheet it fits best (first fit decreasing); the
    # sheets then keep the order of their first block
    blocks = [Block(list(front.placed), [b.scene for b in back.placed] if back is not None else
                    [None] * len(front.placed), list(front.tiles) if front.role == "tile" else [], settings.bleed,
                    any(front.tight)) for front, back in units]
    # pages of tiles first, to host; then the tallest blocks
    order = sorted(range(len(units)), key=lambda i: -math.inf if units[i][0].role == "tile" else
                   -blocks[i].size[1] if stackable(units[i][0]) else 0)
    smallest = [blocks[i] for i in order if stackable(units[i][0])]
    least_h = min((b.size[1] for b in smallest), default=math.inf)
    least_w = min((b.size[0] for b in smallest), default=math.inf)

    def open_to_more(k: Stacked) -> bool:  # a host that the smallest block could still join
        return hosts(k.front) and (rows_height(k.rows, gap) + gap + least_h <= room + 1e-6 or any(
            row_size(r, gap)[0] + gap + least_w <= room_w + 1e-6 for r in k.rows))

    open_hosts: list[Stacked] = []  # the kept sheets, in order, less those full for any block: a deck of
    # thousands of full sheets is then not searched thousands of times over
    first_of: dict[int, int] = {}
    for index in order:
        front, back = units[index]
        block = blocks[index]
        host, rows = None, None
        if stackable(front) and (back is None or len(back.placed) == len(block.placed)):
            can = [(k, p[0]) for k in open_hosts for p in [places(k, block)]
                   if p and (back is None or k.front.role != "tile")]
            # a host with backs for blocks with backs, then one where every mark lies on a true line
            can.sort(key=lambda kr: ((kr[0].back is None) != (back is None),
                                     not lines_agree(kr[1], gap, room_x, room_w)))
            host, rows = next(iter(can), (None, None))
        if host is None and stackable(front) and back is None and block.size[1] < room / 4:
            # a short strip: every stacking sheet with a row's room is a candidate, full for others or not
            shared = rows_shared(block, [k for k in kept if stackable(k.front)
                                         and rows_height(k.rows, gap) + gap < room], places)
            if shared is not None:  # a short strip's rows (a colour's outpost cubes each) join other sheets
                for host, rows in shared:
                    first_of[id(host.front)] = min(first_of[id(host.front)], index)
                    join(host, rows, front, None, settings)
                    if host in open_hosts and not open_to_more(host):
                        open_hosts.remove(host)
                continue
        if host is None:
            first_of[id(front)] = index
            kept.append(Stacked(front, back, [[block]]))
            if open_to_more(kept[-1]):
                open_hosts.append(kept[-1])
            continue
        if host.front.role != "tile":  # a page of tiles keeps its place among its board's
            first_of[id(host.front)] = min(first_of[id(host.front)], index)
        join(host, rows, front, back, settings)
        if not open_to_more(host):
            open_hosts.remove(host)
    kept.sort(key=lambda k: first_of[id(k.front)])
    return [s for k in kept for s in (k.front, k.back) if s is not None]


def impose(runs: list[list[tuple[Scene, Scene | None, str]]], settings: Settings,
           aids: list[tuple[Scene, str]] = ()) -> list[Sheet]:
    """All sheets for a game; player aids go on an assembly map or a page of their own (`hold_aids`), or
    join the pieces when they fit on neither."""
    sheets: list[Sheet] = []
    for run in runs:
        sheets.extend(impose_run(run, settings))
    if aids:
        held = hold_aids(sheets, list(aids), settings)
        if held is None:  # pieces after all, a run for each size
            runs_of: dict[tuple, list[tuple[Scene, Scene | None, str]]] = {}
            for scene, component in aids:
                size = (scene.outer_width, scene.outer_height, scene.shape, scene.corner_radius)
                runs_of.setdefault(size, []).append((scene, None, component))
            for run in runs_of.values():
                sheets.extend(impose_run(run, settings))
        elif held.role == "aid":
            sheets.insert(0, held)
    return stack(sheets, settings)


def impose_run(run: list[tuple[Scene, Scene | None, str]], settings: Settings) -> list[Sheet]:
    """A run's pieces in a grid, or tiled one by one when they are larger than the paper."""
    if fits_on_page(run[0][0], settings):
        return impose_grid(run, settings)
    return [s for scene, _, component in run for s in impose_tiled(scene, component, settings)]


def paper_sheet(page: int, pages: int, duplex: str) -> tuple[int, int]:
    """Which sheet of paper a page prints on, and how many the file takes: two pages to a sheet when the
    whole file prints double-sided, one when it does not."""
    if duplex == "off":
        return page, pages
    return (page + 1) // 2, (pages + 1) // 2


def paginate(sheets: list[Sheet], info_pages: int, duplex: str) -> list[Sheet]:
    """The file's pages after `info_pages` pages of contents, ordered to print whole and double-sided.

    Assembly maps and pages of player aids join the contents at the front (information may back
    information), every sheet of fronts starts a physical sheet with its own backs behind it, and a
    one-sided sheet of pieces gets a blank back, so nothing is ever printed behind a piece but its own back.
    With duplex off nothing is printed on a back, so there are no blanks.
    """
    two_sided = duplex != "off"
    maps = [s for s in sheets if s.role in ("map", "aid")]
    pieces = [s for s in sheets if s.role not in ("map", "aid")]
    ordered = list(maps)
    if two_sided and (info_pages + len(maps)) % 2:
        ordered.append(Sheet("blank", []))
    for i, sheet in enumerate(pieces):
        ordered.append(sheet)
        has_backs = i + 1 < len(pieces) and pieces[i + 1].role == "back"
        if two_sided and sheet.role in ("front", "tile") and not has_backs:
            ordered.append(Sheet("blank", []))
    last = info_pages + len(ordered)
    page_of: dict[tuple[int, str], list[int]] = {}  # a board's tile -> its page, for each copy of the board in turn
    for page, sheet in enumerate(ordered, info_pages + 1):
        sheet.page = page
        sheet.number, sheet.of = paper_sheet(page, last, duplex)
        if two_sided:
            other = page + 1 if page % 2 else page - 1
            sheet.back_page = other if other <= last else 0
        for tile in sheet.tiles if sheet.role == "tile" else ():
            page_of.setdefault((id(tile.scene), tile.label), []).append(page)
    for sheet in maps:
        if sheet.role == "map":
            sheet.tile_pages = [page_of[id(t.scene), t.label].pop(0) for t in sheet.tiles]
    return ordered
