"""Layout mode's requests beyond a move (docs/studio-api.md): a face's boxes and fonts, a box added or
deleted, a text's font, a picture's fit and focus; and one face as a PNG at the build's dpi."""
from __future__ import annotations

import io
import re

from flask import Blueprint, Response, request

from ..build import BuildOptions
from ..data.errors import DataErrors
from .boxes import LayoutBoxes
from .views import changed, desk, json_body, refused, tab, version_of, writeback

bp = Blueprint("studio_boxes", __name__)


def boxes() -> LayoutBoxes:
    return LayoutBoxes(writeback())


@bp.get("/boxes")
def box_info():
    tile_id = request.args.get("id", "")
    return changed(lambda: boxes().info(tile_id))


@bp.post("/boxes/add")
def add_box():
    body = json_body("id", "kind", "name", "x", "y", "w", "h", "version")
    return changed(lambda: boxes().add(str(body["id"]), body, version_of(body["version"]), tab()))


@bp.post("/boxes/delete")
def delete_box():
    body = json_body("id", "box", "version")
    return changed(lambda: boxes().delete(str(body["id"]), body["box"], version_of(body["version"]), tab()))


@bp.post("/boxes/style")
def style_box():
    body = json_body("id", "box", "set", "version")
    if not isinstance(body["set"], dict):
        return refused("set: expected {font}, {fit} or {focus}")
    return changed(lambda: boxes().style(str(body["id"]), body["box"], body["set"], version_of(body["version"]),
                                         tab(), card=body.get("card") is True))


@bp.get("/face.png")
def face_png():
    """The face open large as a PNG at the build's dpi, bleed included, as `starpnp build --format png` draws
    it; the file named after the game, the component and the card."""
    from ..exports.face_files import render_face

    d = desk()
    with d.lock:  # the face as of one load: a load meanwhile replaces the tiles and the drawing cache together
        tile = d.by_id.get(request.args.get("id", ""))
        if tile is None:
            return refused("id: no such face (the folder changed: fetch /news)", 404)
        comp, piece = tile.pieces[0]
        try:
            scene, _ = d.cache.sketch(comp, piece, tile.side)
        except DataErrors as exc:
            return refused(exc.errors[0])
    dpi = BuildOptions().dpi
    picture = render_face(scene, dpi)
    out = io.BytesIO()
    picture.save(out, format="PNG", dpi=(dpi, dpi))
    game = d.game.info.id if d.game else d.folder.name
    name = "-".join(slug(part) for part in (game, comp.spec.id, piece.name, tile.side)) + ".png"
    return Response(out.getvalue(), mimetype="image/png",
                    headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"})


def slug(text: str) -> str:
    """A part of a file name: letters, digits, - and _ (a card's title may hold anything)."""
    return re.sub(r"[^A-Za-z0-9_]+", "_", text).strip("_")[:60] or "face"
