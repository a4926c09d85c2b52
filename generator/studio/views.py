"""The studio's page, its live-update stream and the JSON it fetches: news since a version, faces by id,
settings, builds, proofs. Every request has passed the request guard (starpnp/web/guard.py) first."""
from __future__ import annotations

import errno
from pathlib import Path

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, render_template, request, send_from_directory
from werkzeug.exceptions import BadRequest, HTTPException, RequestEntityTooLarge

from ...resources import folder as package_folder
from ..data.errors import DataError
from ..look.fonts import FONT_FILES, font_path
from ...web import push
from ...web.body import json_object
from ..data.errors import DataErrors
from .desk import PUSHED, Desk, Settings
from .jobs import KINDS, Jobs
from .writeback import MOST_ART_BYTES, NoFace, Refused, Stale, WriteBack, too_big

bp = Blueprint("studio", __name__)
MOST_FACES_ASKED = 80  # one request's faces: a screen's worth at the smallest zoom
CARDS = ("all", "one")  # which cards of a face standing for several items alike an edit or a picture is for
CARDS_EXPECTED = "cards: expected all or one (the cards of a face standing for several items alike)"


def desk() -> Desk:
    return current_app.extensions["studio_desk"]


def jobs() -> Jobs:
    return current_app.extensions["studio_jobs"]


def writeback() -> WriteBack:
    return current_app.extensions["studio_writeback"]


def refused(message: str, status: int = 400):
    return jsonify(error=message), status


def body(shape: str) -> dict:
    """The request's JSON object; anything else (no JSON, `[1]`, JSON nested 100,000 deep) is a 400 of one
    line saying the shape expected."""
    try:
        return json_object(request)
    except ValueError as exc:
        abort(400, f"{exc}: {shape}")


@bp.get("/")
def page():
    d = desk()
    info = d.game.info if d.game else None
    options = sorted(info.options.items()) if info else []
    folder = d.folder.resolve()  # `studio .` shows the folder's own name, not "."
    return render_template("studio/page.html", folder=folder, name=info.name if info else folder.name,
                           options=options, settings=d.settings, kinds=list(KINDS),
                           token=current_app.extensions["request_guard"].token,
                           customise_default=free_folder(Path.cwd() / f"my-{folder.name}"))


def free_folder(path: Path) -> Path:
    """`path`, or `path-2`, `path-3`, … the first that does not exist: where Customise offers to make a copy."""
    taken = 1
    while path.with_name(f"{path.name}-{taken}" if taken > 1 else path.name).exists():
        taken += 1
    return path.with_name(f"{path.name}-{taken}" if taken > 1 else path.name)


@bp.get("/push")
def live():
    """Server-sent events: the version each time the folder is loaded again (starpnp/web/push.py, as the
    companion's tables); 503 when every stream slot is taken, and the page polls /news instead."""
    slots, d = current_app.extensions["studio_push_slots"], desk()
    if not slots.take():
        return Response("every live-update slot is taken; poll /news instead\n", 503, {"Retry-After": "30"},
                        mimetype="text/plain")

    gone = push.client_gone(request.environ)

    def events():
        with d.changes.watching(PUSHED) as watch:  # watching first: a load from here on is not missed
            yield from push.stream(watch, d.version, gone=gone)

    response = Response(events(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(slots.give_back)
    return response


@bp.get("/news")
def news():
    try:
        since = int(request.args.get("since", "0"))
    except ValueError:
        return refused("since: expected a whole number")
    wb, d = writeback(), desk()
    # where the Print PDF button's file lands (the build's out folder, by the game's id), told before it is made
    out = {"out": str((jobs().out / d.game.info.id).resolve())} if d.game else {}
    return jsonify({**d.news(since), "folder": {**wb.folder_info(), **out}, **wb.steps()})


@bp.get("/faces")
def faces():
    ids = [tid for tid in request.args.get("ids", "").split(",") if tid][:MOST_FACES_ASKED]
    d, wb = desk(), writeback()
    drawn = [{**face, "edit": wb.describe(face["id"], face["boxes"])} for face in map(d.face, ids) if face is not None]
    return jsonify(faces=drawn, drawn=d.drawn)


@bp.get("/row")
def row():
    text = desk().row(request.args.get("id", ""))
    if text is None:
        return refused("id: no such face", 404)
    return jsonify(row=text)


@bp.post("/settings")
def settings():
    asked = body("{ink, write_ins, options}")
    d = desk()
    known = set(d.game.info.options) if d.game else set()
    options = asked.get("options", [])
    if not isinstance(options, list) or not all(isinstance(o, str) and o in known for o in options):
        return refused(f"options: expected a list of this game's options ({', '.join(sorted(known)) or 'none'})")
    ink = asked.get("ink", "full")
    if not isinstance(ink, str) or ink not in ("full", "low"):
        return refused("ink: expected full or low")
    d.settings = Settings(frozenset(options), bool(asked.get("write_ins")), ink)
    d.load()
    return jsonify(version=d.version)


def changed(make_change, edit: dict | None = None):
    """A change's answer: its new version, or the one line saying why nothing was written (docs/studio-api.md)."""
    try:
        done = make_change()
        return jsonify(done if isinstance(done, dict) else {"version": done})
    except Refused as exc:
        return jsonify(error=str(exc), **({"readonly": True} if exc.readonly else {}), **exc.answer), 400
    except DataError as exc:  # a file that is no longer as the page saw it (an item gone), say
        return refused(str(exc))
    except NoFace:
        return refused("id: no such face (the folder changed: fetch /news)", 404)
    except OSError as exc:
        return refused(*write_failure(exc))
    except Stale as exc:
        d, edit = desk(), edit or {}
        d.load()  # the page is shown the file as it is now
        fields = list(edit.get("set") or ()) if isinstance(edit.get("set"), dict) else []
        return jsonify(error=str(exc), version=d.version, edit=edit or None,
                       current=writeback().values(str(edit.get("id", "")), fields)), 409


def write_failure(exc: OSError) -> tuple[str, int]:
    """A write the disk refused, in one line: 507 when it is full (or the file would pass a size limit),
    503 when the folder cannot be written (read-only, no permission); the file is as it was (replace_whole)."""
    reason = exc.strerror or type(exc).__name__
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return f"the disk is full ({reason}): nothing was written and the file is as it was; free some space", 507
    return f"the game's folder cannot be written ({reason}): nothing was written and the file is as it was", 503


def json_body(*required: str) -> dict:
    """body(), with each of `required` present."""
    found = body("{" + ", ".join(required) + "}")
    for name in required:
        if name not in found:
            raise BadRequest(f"{name}: required")
    return found


def tab() -> str:
    """The page's tab, as its header names it (two tabs' changes to one value are told apart by it)."""
    return request.headers.get("X-Studio-Tab", "")[:64]


def version_of(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest("version: expected the whole number /news last gave")
    return value


@bp.post("/edit")
def edit():
    body = json_body("id", "set", "version")
    if not isinstance(body["set"], dict) or not body["set"]:
        return refused("set: expected the fields to change, as {field: value}")
    cards = body.get("cards")
    if cards is not None and cards not in CARDS:
        return refused(CARDS_EXPECTED)
    return changed(lambda: writeback().edit(str(body["id"]), body["set"], version_of(body["version"]), tab(), cards),
                   body)


@bp.post("/move")
def move():
    body = json_body("id", "box", "x", "y", "w", "h", "version")
    return changed(lambda: writeback().move(str(body["id"]), str(body["box"]), body, version_of(body["version"]),
                                                     tab()),
                   body)


@bp.post("/art")
def art():
    request.max_content_length = MOST_ART_BYTES + 64 * 1024
    try:
        upload = request.files.get("file")
    except RequestEntityTooLarge:
        return refused(too_big(request.content_length), 413)
    tile_id = request.form.get("id", "")
    if upload is None or not upload.filename:
        return refused("file: expected an image file (a multipart form with id and file)")
    try:
        version = int(request.form.get("version", desk().version))
    except ValueError:
        return refused("version: expected the whole number /news last gave")
    cards = request.form.get("cards")
    if cards is not None and cards not in CARDS:
        return refused(CARDS_EXPECTED)
    data = upload.read(MOST_ART_BYTES + 1)
    if len(data) > MOST_ART_BYTES:
        return refused(too_big(request.content_length), 413)
    return changed(lambda: writeback().art(tile_id, upload.filename, data, version, tab(), cards),
                   {"id": tile_id, "set": {}, "version": version})


@bp.post("/undo")
def undo():
    return changed(lambda: writeback().undo(tab()))


@bp.post("/redo")
def redo():
    return changed(lambda: writeback().redo(tab()))


@bp.post("/customise")
def customise():
    body = json_body("folder")
    try:
        return jsonify(writeback().customise(body["folder"]))
    except Refused as exc:
        return refused(str(exc))
    except OSError as exc:
        return refused(*write_failure(exc))


@bp.post("/build")
def build():
    kind = body("{kind}").get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        return refused(f"kind: expected one of {', '.join(KINDS)}")
    d = desk()
    s = d.settings
    job = jobs().start(kind, d.folder, s.options, s.write_ins, s.ink)
    return jsonify(job.summary()), 202


@bp.post("/proof")
def proof():
    from .proof import proof_sheet

    ids = body("{ids}").get("ids")
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
        return refused("ids: expected a list of face ids")
    d = desk()
    try:
        path = proof_sheet(d, ids, jobs().out)
    except ValueError as exc:
        return refused(str(exc))
    except DataErrors as exc:  # a face past a budget
        return refused(exc.errors[0])
    return jsonify(result=str(path.relative_to(jobs().out)))


@bp.get("/jobs")
def job_list():
    return jsonify(jobs=jobs().summaries())


@bp.get("/output/<path:name>")
def output(name: str):
    return send_from_directory(jobs().out, name)


@bp.get("/fonts/<name>.ttf")
def font(name: str):
    if name not in FONT_FILES:
        abort(404)
    path = Path(font_path(name))
    response = send_from_directory(path.parent, path.name, mimetype="font/ttf")
    response.cache_control.max_age = 24 * 3600
    return response


@bp.get("/companion.css")
def companion_css():
    """The companion's stylesheet: the studio wears the same look."""
    return send_from_directory(package_folder("starpnp.companion") / "static", "companion.css", mimetype="text/css")


@bp.get("/palette.css")
def palette_css():
    from ..data.palette import stylesheet

    return Response(stylesheet(), mimetype="text/css")


def init_errors(app: Flask) -> None:
    """Every refusal, the request guard's included, is one line of JSON."""
    @app.errorhandler(HTTPException)
    def _http(error: HTTPException):
        return refused((error.description or error.name).splitlines()[0] if error.code != 404 else "not found",
                       error.code or 500)


