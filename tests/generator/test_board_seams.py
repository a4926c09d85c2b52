"""The tiled boards of our games assemble one way: seams between spaces, two or more arrows per seam, and
every seam mark on a flap that the neighbouring tile covers once built. Read from the written PDF."""
from __future__ import annotations

import pytest
from pypdf import PdfReader

from pdf_probe import read_page
from starpnp.generator.build import BuildOptions, build_game
from starpnp.generator.sheets.imposition import MARK_OFFSET, Settings, TILE_FLAP
from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.look.render import SceneCache
from starpnp.generator.look.scene import Circle, Group, Line, Rect

BOARDS = {"handful_of_stars": "board", "stars_inc": "board", "stratastar": "board"}
TOL = 0.05
CLEAR = 1.0  # mm


@pytest.fixture(scope="module", params=["a4", "letter"])
def built(request, tmp_path_factory):
    out = tmp_path_factory.mktemp(f"seams-{request.param}")
    for game in BOARDS:
        build_game(find_game(game), BuildOptions(settings=Settings(paper=request.param), out=out, formats=("pdf",)))
    return out, request.param


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


def tile_pages(out, paper, game):
    import json

    manifest = json.loads((out / game / "manifest.json").read_text())
    pages = next(c["pages"] for c in manifest["components"] if c["id"] == BOARDS[game])
    return PdfReader(out / game / f"{game}-{paper}.pdf"), pages[1:]  # the assembly map comes first


def seams_of(built, game):
    """(page, seam position in the scene, spaces it cuts, arrow tips on it, marks off the flaps) per seam."""
    out, paper = built
    folder = find_game(game)
    comp = next(c for c in load_game(folder).components if c.spec.id == BOARDS[game])
    scene = SceneCache(3.0, folder).face(comp, comp.pieces[0], "front")
    boxes = spaces(scene)
    assert len(boxes[0]) > 10
    reader, pages = tile_pages(out, paper, game)
    found = []
    for page in pages:
        drawing = read_page(reader, page - 1)
        (board,), (turn,) = drawing.forms, drawing.turns
        turned = turn == 90
        marks = [m for m in drawing.lines if m.vertical or m.horizontal]
        # corner marks stop MARK_OFFSET short of the cut: the window's left and top edges
        left = min(max(m.x1, m.x2) for m in marks if m.horizontal) + MARK_OFFSET
        top = min(max(m.y1, m.y2) for m in marks if m.vertical) + MARK_OFFSET
        off_flaps = [(x, y) for shape in drawing.fills for x, y in shape
                     if x > left + TILE_FLAP + TOL and y > top + TILE_FLAP + TOL]
        for seam in (m for m in drawing.lines if abs(min(m.x1, m.x2) - left - TILE_FLAP) < 0.5 and m.vertical
                     or abs(min(m.y1, m.y2) - top - TILE_FLAP) < 0.5 and m.horizontal):
            vertical = seam.vertical
            at = seam.x1 + 0.2 if vertical else seam.y1 + 0.2  # the line sits just inside the flap
            page_pos = at - (board.x if vertical else board.y)
            if turned:  # a board turned clockwise: page x runs along the scene's y, from its far side
                axis, pos = (1, board.w - page_pos) if vertical else (0, page_pos)
            else:
                axis, pos = (0, page_pos) if vertical else (1, page_pos)
            crossed = [b for b in boxes[axis] if b[axis] + 0.3 < pos < b[axis + 2] - 0.3]
            # nothing drawn within CLEAR of the cut line, where a cut a hair off the line would shave it
            crossed += [b for b in boxes["shapes"] if b[axis] - CLEAR < pos < b[axis + 2] + CLEAR and b not in crossed]
            tips = [pt for shape in drawing.fills if len(shape) == 3 for pt in shape
                    if abs((pt[0] if vertical else pt[1]) - (at - 0.2)) < 0.05]
            found.append((page, pos, crossed, tips, off_flaps))
    assert len(found) >= 2
    return found


@pytest.mark.parametrize("game", sorted(BOARDS))
def test_every_seam_has_two_arrows_or_more_and_every_mark_is_on_a_hidden_flap(built, game):
    for page, pos, _, tips, off_flaps in seams_of(built, game):
        assert len(tips) >= 2, f"{game} page {page}: {len(tips)} arrow(s) on the seam at {pos:.1f} mm"
        assert off_flaps == [], f"{game} page {page}: marks outside the flaps show once built"


@pytest.mark.parametrize("game", sorted(BOARDS))
def test_seams_fall_between_spaces(built, game):
    for page, pos, crossed, _, _ in seams_of(built, game):
        assert crossed == [], f"{game} page {page}: the seam at {pos:.1f} mm cuts through {crossed[:3]}"
