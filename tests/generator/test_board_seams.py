"""The tiled boards of our games assemble one way: seams between spaces, two or more arrows per seam, and
every seam mark on a flap that the neighbouring tile covers once built. Read from the written PDF."""
from __future__ import annotations

import functools
import re

import pytest
from pypdf import PdfReader

from pdf_probe import read_page
from starpnp_test_support import pdf_page_texts
from starpnp.generator.build import BuildOptions
from starpnp.generator.sheets.imposition import MARK_ROOM, TILE_FLAP, TILE_GAP, Settings, content_area
from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.look.render import SceneCache
from starpnp.generator.look.scene import Circle, Group, Line, Rect

BOARDS = {"handful_of_stars": "board", "stars_inc": "board", "stratastar": "board"}
TOL = 0.05
CLEAR = 1.0  # mm


@pytest.fixture(scope="module", params=[("a4", "full"), ("letter", "full"), ("a4", "low"), ("letter", "low")],
                ids="-".join)
def built(request, shared_builds):
    """({game: its build's folder}, paper, ink)."""
    paper, ink = request.param
    options = BuildOptions(settings=Settings(paper=paper, ink=ink), formats=("pdf",))
    return {game: shared_builds.build(find_game(game), options).folder for game in BOARDS}, paper, ink


def spaces(scene) -> dict[int, list[tuple[float, float, float, float]]]:
    """Bleed-box boxes a seam across each axis must not cut: circles, filled boxes smaller than a quarter of
    the board, and the columns (axis 0) or rows (axis 1) of its grids, between neighbouring grid lines."""
    b = scene.bleed
    found = []
    rules: dict[int, list[tuple[float, float, float]]] = {0: [], 1: []}  # axis -> (position, from, to)

    def walk(elements, dx, dy):
        for e in elements:
            if isinstance(e, Group):
                if e.scale == 1:  # icons are drawn inside spaces already counted
                    walk(e.children, dx + e.dx, dy + e.dy)
            elif isinstance(e, Circle):
                found.append((dx + e.cx - e.r + b, dy + e.cy - e.r + b, dx + e.cx + e.r + b, dy + e.cy + e.r + b))
            elif isinstance(e, Rect) and e.style.fill and 3 < e.w < scene.width / 4 and 3 < e.h < scene.height / 4:
                found.append((dx + e.x + b, dy + e.y + b, dx + e.x + e.w + b, dy + e.y + e.h + b))
            elif isinstance(e, Line) and e.x1 == e.x2 and abs(e.y2 - e.y1) > 20:
                rules[0].append((dx + e.x1 + b, dy + min(e.y1, e.y2) + b, dy + max(e.y1, e.y2) + b))
            elif isinstance(e, Line) and e.y1 == e.y2 and abs(e.x2 - e.x1) > 20:
                rules[1].append((dy + e.y1 + b, dx + min(e.x1, e.x2) + b, dx + max(e.x1, e.x2) + b))

    walk(scene.elements, 0.0, 0.0)
    blocking = {0: list(found), 1: list(found), "shapes": list(found)}
    for axis, lines in rules.items():
        lines.sort()
        for (a, lo, hi), (c, lo2, hi2) in zip(lines, lines[1:]):
            if 1 < c - a < 60 and abs(lo - lo2) < 1 and abs(hi - hi2) < 1:  # two lines of one grid
                blocking[axis].append((a, lo, c, hi) if axis == 0 else (lo, a, hi, c))
    return blocking


def tile_pdf(folders, paper, ink, game):
    """The game's PDF and the pages of its board's tiles."""
    import json

    manifest = json.loads((folders[game] / "manifest.json").read_text())
    pages = next(c["pages"] for c in manifest["components"] if c["id"] == BOARDS[game])
    name = f"{game}-{paper}" + ("-ink-low" if ink == "low" else "")
    return folders[game] / f"{name}.pdf", pages[1:]  # the assembly map comes first


def tile_pages(folders, paper, ink, game):
    path, pages = tile_pdf(folders, paper, ink, game)
    return PdfReader(path), pages


def tiles_on(drawing):
    """(board's box, turn, window) for each tile on a page: a board is larger than the page (that is why it is
    tiled), and shows through its tile's window; other pieces may share the page."""
    return [(form, turn, clip) for form, turn, clip in zip(drawing.forms, drawing.turns, drawing.clips)
            if max(form.w, form.h) > drawing.height]


def seams_of(built, game):
    """(page, seam position in the scene, spaces it cuts, arrow tips on it, marks off the flaps, texts it cuts or
    comes within WORD_CLEAR of) per seam."""
    folders, paper, ink = built
    folder = find_game(game)
    comp = next(c for c in load_game(folder).components if c.spec.id == BOARDS[game])
    scene = SceneCache(3.0, folder, ink=ink).face(comp, comp.pieces[0], "front")
    boxes = spaces(scene)
    words = text_boxes(scene)
    assert len(boxes[0]) > 10
    reader, pages = tile_pages(folders, paper, ink, game)
    found = []
    for page in pages:
        drawing = read_page(reader, page - 1)
        for board, turn, window in tiles_on(drawing):
            turned = turn == 90
            left, top = window.x, window.y  # a tile's board shows through its window: the tile as cut

            def inside(x, y, window=window):
                return window.x - TOL <= x <= window.right + TOL and window.y - TOL <= y <= window.bottom + TOL

            off_flaps = [(x, y) for shape in drawing.fills for x, y in shape
                         if inside(x, y) and x > left + TILE_FLAP + TOL and y > top + TILE_FLAP + TOL]
            for seam in (m for m in drawing.lines if inside(m.x1, m.y1) and inside(m.x2, m.y2) and (
                    abs(min(m.x1, m.x2) - left - TILE_FLAP) < 0.5 and m.vertical
                    or abs(min(m.y1, m.y2) - top - TILE_FLAP) < 0.5 and m.horizontal)):
                vertical = seam.vertical
                at = seam.x1 + 0.2 if vertical else seam.y1 + 0.2  # the line sits just inside the flap
                page_pos = at - (board.x if vertical else board.y)
                if turned:  # a board turned clockwise: page x runs along the scene's y, from its far side
                    axis, pos = (1, board.w - page_pos) if vertical else (0, page_pos)
                else:
                    axis, pos = (0, page_pos) if vertical else (1, page_pos)
                crossed = [b for b in boxes[axis] if b[axis] + 0.3 < pos < b[axis + 2] - 0.3]
                # nothing drawn within CLEAR of the cut line, where a cut a hair off the line would shave it
                crossed += [b for b in boxes["shapes"]
                            if b[axis] - CLEAR < pos < b[axis + 2] + CLEAR and b not in crossed]
                tips = [pt for shape in drawing.fills if len(shape) == 3 for pt in shape
                        if inside(*pt) and abs((pt[0] if vertical else pt[1]) - (at - 0.2)) < 0.05]
                near = [(text, box, axis) for text, box in words
                        if box[axis] - WORD_CLEAR < pos < box[axis + 2] + WORD_CLEAR]
                found.append((page, pos, crossed, tips, off_flaps, near))
    assert len(found) >= 2
    return found


@pytest.mark.parametrize("game", sorted(BOARDS))
def test_every_seam_has_two_arrows_or_more_and_every_mark_is_on_a_hidden_flap(built, game):
    for page, pos, _, tips, off_flaps, _ in seams_of(built, game):
        assert len(tips) >= 2, f"{game} page {page}: {len(tips)} arrow(s) on the seam at {pos:.1f} mm"
        assert off_flaps == [], f"{game} page {page}: marks outside the flaps show once built"


@pytest.mark.parametrize("game", sorted(BOARDS))
def test_seams_fall_between_spaces(built, game):
    for page, pos, crossed, _, _, _ in seams_of(built, game):
        assert crossed == [], f"{game} page {page}: the seam at {pos:.1f} mm cuts through {crossed[:3]}"


WORD_CLEAR = 2.0  # mm between a seam and any text: a word is never cut, nor shaved by a cut a hair off the line


def text_boxes(scene) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each line of text on the board, with its box in bleed-box coordinates (ascent to descent)."""
    from starpnp.generator.look import fonts
    from starpnp.generator.look.ink import IDENTITY, apply, group_matrix, then
    from starpnp.generator.look.scene import Text

    found = []

    def walk(elements, m):
        for e in elements:
            if isinstance(e, Group):
                walk(e.children, then(m, group_matrix(e)))
            elif isinstance(e, Text):
                for line in e.lines:
                    width = fonts.text_width_mm(line.text, e.font, e.size)
                    left = line.x - {"left": 0.0, "center": 0.5, "right": 1.0}[e.align] * width
                    top, bottom = line.y - fonts.ascent_mm(e.font, e.size), line.y + fonts.descent_mm(e.font, e.size)
                    corners = [apply(m, x, y) for x in (left, left + width) for y in (top, bottom)]
                    xs, ys = [x + scene.bleed for x, _ in corners], [y + scene.bleed for _, y in corners]
                    found.append((line.text, (min(xs), min(ys), max(xs), max(ys))))

    walk(scene.elements, IDENTITY)
    assert found
    return found


@pytest.mark.parametrize("game", sorted(BOARDS))
def test_no_seam_crosses_a_word_or_comes_within_2_mm_of_one(built, game):
    """Every text of every tiled board (its title, labels, the lines of its aids) lies WORD_CLEAR or more from
    every seam: Stratastar's title read "...MAP OF THE | GALAXY" across one, its E 0.38 mm from the cut."""
    problems = [f"page {page}: the seam at {pos:.1f} mm runs {'through' if box[axis] < pos < box[axis + 2] else 'by'} "
                f"{text!r} ({box[axis]:.1f}-{box[axis + 2]:.1f} mm)"
                for page, pos, _, _, _, near in seams_of(built, game) for text, box, axis in near]
    assert not problems, f"{game} {built[1]} {built[2]}: " + "; ".join(problems)


def tile_sheets(built, game):
    """(page, tile windows, footer and page text) for each page of the board's tiles, and the map's text: read
    once per build, for the three tests that check them."""
    folders, paper, ink = built
    return read_tile_sheets(folders[game], paper, ink, game)


@functools.cache
def read_tile_sheets(folder, paper, ink, game):
    path, pages = tile_pdf({game: folder}, paper, ink, game)
    reader, texts = PdfReader(path), pdf_page_texts(path)
    drawn = []
    for page in pages:
        drawing = read_page(reader, page - 1)
        drawn.append((page, [window for _, _, window in tiles_on(drawing)], texts[page - 1]))
    return drawn, texts[pages[0] - 2]


def one_page_holds(windows, paper) -> bool:
    """All these tiles fit on one page, whole and with room for their corner marks: one under another or side
    by side (the simplest ways; a packer that misses them leaves a sheet half empty)."""
    _, _, aw, ah = content_area(Settings(paper=paper))
    aw, ah = aw - MARK_ROOM, ah - 2 * MARK_ROOM
    gaps = TILE_GAP * (len(windows) - 1)
    column = sum(w.h for w in windows) + gaps <= ah + TOL and max(w.w for w in windows) <= aw + TOL
    row = sum(w.w for w in windows) + gaps <= aw + TOL and max(w.h for w in windows) <= ah + TOL
    return column or row


@pytest.mark.parametrize("game", sorted(BOARDS))
def test_no_two_pages_of_tiles_could_be_one(built, game):
    """Board sheets are not half empty: whichever two pages of a board's tiles are taken, their tiles do not
    fit on one page together (Handful's three short middle tiles took three pages before: two fit on one)."""
    drawn, _ = tile_sheets(built, game)
    for i, (page, windows, _) in enumerate(drawn):
        assert windows, f"{game} page {page}: no tile"
        for other, more, _ in drawn[i + 1:]:
            assert not one_page_holds(windows + more, built[1]), f"{game}: pages {page} and {other} fit on one"


def test_tiles_share_pages(built):
    """At least one page holds two tiles (else the test above could pass on one tile a page, as before)."""
    counts = {game: [len(windows) for _, windows, _ in tile_sheets(built, game)[0]] for game in BOARDS}
    assert any(n > 1 for n in counts["handful_of_stars"]) and any(n > 1 for n in counts["stratastar"]), counts
    assert sum(map(len, counts.values())) <= 17, counts  # 19 before, a page a tile


@pytest.mark.parametrize("game", sorted(BOARDS))
def test_every_tile_prints_once_and_the_map_says_on_which_page(built, game):
    drawn, map_text = tile_sheets(built, game)
    labels = []
    for page, windows, text in drawn:
        said = re.search(r"· tiles? ([A-Z]\d+(?:, [A-Z]\d+)*) ·", text)
        assert said, f"{game} page {page}: the footer does not say which tiles it holds"
        here = said[1].split(", ")
        assert len(here) == len(windows), f"{game} page {page}: {len(windows)} tiles drawn, footer says {here}"
        assert f"p. {page}" in map_text, f"{game}: the assembly map does not point to page {page}"
        labels += here
    assert len(labels) == len(set(labels)), f"{game}: a tile prints twice: {labels}"
    rows = {label[0] for label in labels}
    cols = {label[1:] for label in labels}
    assert len(labels) == len(rows) * len(cols), f"{game}: tiles {labels} leave a gap in the board"
    assert re.search(rf"is {len(labels)} tiles, {len(rows)} rows of {len(cols)}, printed on {len(drawn)} pages",
                     " ".join(map_text.split())), map_text[:300]


def test_one_sided_pieces_fill_a_page_of_tiles_with_room(built):
    """Handful's short tile B3 leaves most of its page free: one-sided pieces take the room (on Letter that
    saves a sheet; their page's back stays blank, see test_duplex_whole_file.py)."""
    reader, pages = tile_pages(*built, "handful_of_stars")
    drawings = [read_page(reader, page - 1) for page in pages]
    assert any(len(d.pieces) > len(tiles_on(d)) for d in drawings)
