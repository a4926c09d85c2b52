"""A proof sheet: the faces chosen in the studio on one page, at actual size, each with its crop marks, to print
and hold in the hand before printing the set."""
from __future__ import annotations

from pathlib import Path

from ..look.render import SceneCache, slug
from ..sheets.imposition import MARK_APART, MARK_MAX, Placed, Settings, Sheet, content_area, crop_marks, mark_limits
from ..sheets.pdf import PdfDocument
from .desk import Desk

GAP = 2 * MARK_MAX + MARK_APART  # mm between two faces' bleed boxes: room for both sets of marks


def shelves(sizes: list[tuple[float, float]], width: float, height: float) -> list[tuple[float, float]] | None:
    """Top-left corners for boxes of `sizes` laid in rows left to right inside width × height, or None when
    they do not all fit."""
    corners, x, y, row = [], 0.0, 0.0, 0.0
    for w, h in sizes:
        if x > 0 and x + w > width:
            x, y, row = 0.0, y + row + GAP, 0.0
        if w > width or y + h > height:
            return None
        corners.append((x, y))
        x, row = x + w + GAP, max(row, h)
    return corners


def proof_sheet(desk: Desk, ids: list[str], out: Path) -> Path:
    """Write the proof sheet of the faces `ids` (in that order) under `out`; ValueError when an id is unknown
    or the faces do not fit on one A4 page."""
    settings = Settings(duplex="off", ink=desk.settings.ink)
    with desk.lock:
        tiles = [desk.by_id.get(tid) for tid in ids]
        if any(tile is None for tile in tiles) or desk.game is None:
            raise ValueError("a face chosen is no longer in the game; choose again")
        cache = SceneCache(settings.bleed, desk.folder, ink=settings.ink)
        scenes = [(cache.sketch(*tile.pieces[0], tile.side)[0], tile.component) for tile in tiles]
        game = desk.game
    x0, y0, w, h = content_area(settings)
    x0, y0, w, h = x0 + MARK_MAX, y0 + MARK_MAX, w - 2 * MARK_MAX, h - 2 * MARK_MAX
    corners = shelves([(s.outer_width, s.outer_height) for s, _ in scenes], w, h)
    if corners is None:
        raise ValueError(f"the {len(ids)} faces chosen do not fit on one page at actual size; choose fewer")
    sheet = Sheet("front", list(dict.fromkeys(c for _, c in scenes)), number=1, of=1, page=1)
    left, top, right, bottom = mark_limits(settings, sheet.footer)
    half = GAP / 2  # each face's marks keep to its half of the gap
    for (scene, component), (x, y) in zip(scenes, corners):
        placed = Placed(scene, x0 + x, y0 + y, 0, component)
        sheet.placed.append(placed)
        px, py, pw, ph = placed.visible_box
        own = (max(left, px - half), max(top, py - half), min(right, px + pw + half), min(bottom, py + ph + half))
        sheet.marks += crop_marks([placed], settings, own)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{slug(game.info.id, empty='game')}-proof.pdf"
    doc = PdfDocument(str(path), settings, f"{game.info.name} (proof)", {c.spec.id: c.spec.name for c in game.components})
    doc.sheet(sheet, " Proof sheet from starpnp studio.")
    doc.save()
    return path
