"""The studio's page, its live-update stream and the JSON it fetches: news since a version, faces by id,
settings, builds, proofs. Every request has passed the request guard (starpnp/web/guard.py) first."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, render_template, request, send_from_directory
from werkzeug.exceptions import HTTPException

from ...resources import folder as package_folder
from ..look.fonts import FONT_FILES, font_path
from ...web import push
from ...web.body import json_object
from ..data.errors import DataErrors
from .desk import PUSHED, Desk, Settings
from .jobs import KINDS, Jobs

bp = Blueprint("studio", __name__)
MOST_FACES_ASKED = 80  # one request's faces: a screen's worth at the smallest zoom


def desk() -> Desk:
    return current_app.extensions["studio_desk"]


def jobs() -> Jobs:
    return current_app.extensions["studio_jobs"]


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
    return render_template("studio/page.html", folder=d.folder, name=info.name if info else d.folder.name,
                           options=options, settings=d.settings, kinds=list(KINDS),
                           token=current_app.extensions["request_guard"].token)


@bp.get("/push")
def live():
    """Server-sent events: the version each time the folder is loaded again (starpnp/web/push.py, as the
    companion's tables); 503 when every stream slot is taken, and the page polls /news instead."""
    slots, d = current_app.extensions["studio_push_slots"], desk()
    if not slots.take():
        return Response("every live-update slot is taken; poll /news instead\n", 503, {"Retry-After": "30"},
                        mimetype="text/plain")

    def events():
        with d.changes.watching(PUSHED) as watch:  # watching first: a load from here on is not missed
            yield from push.stream(watch, d.version)

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
    return jsonify(desk().news(since))


@bp.get("/faces")
def faces():
    ids = [tid for tid in request.args.get("ids", "").split(",") if tid][:MOST_FACES_ASKED]
    d = desk()
    drawn = [face for face in map(d.face, ids) if face is not None]
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


