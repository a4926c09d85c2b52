"""`starpnp studio DIR`: a local page showing every distinct face of one game folder, redrawn as files are saved.

`create_app(folder)` builds the Flask app (the companion's factory style and look); `run` serves it with
waitress and follows the folder for saves. Nothing here reaches the internet: fonts, script and styles are
package data.
"""
from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any, Mapping

from flask import Flask

DEFAULTS: dict[str, Any] = {
    "GAME_FOLDER": None,      # the game folder shown (a Path)
    "OUT": Path("output"),    # where the build buttons and the proof sheet write
    "FOLLOW": True,           # follow the folder for saves (a test may step it by hand)
    "MAX_CONTENT_LENGTH": 256 * 1024,  # a request's body; an image dropped on a face may be larger (views.art)
    "HOSTS": None,            # host names the page is reached by (serve sets them from --host); None: loopback
    "TOKEN": None,            # the page's write token (None: a new random one each start)
    "PUSH_STREAMS": 64,       # live-update streams held open at once (a thread each); over it a page polls
}


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    from ...resources import templates_dir
    from . import boxviews, cardlist, views
    from .desk import Desk
    from .follow import Follower
    from .jobs import Jobs
    from .writeback import WriteBack
    from ...web.guard import LOOPBACK_NAMES, RequestGuard
    from ...web.push import Slots

    app = Flask(__name__, template_folder=str(templates_dir()), static_folder="static",
                static_url_path="/studio-static")
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    folder = Path(app.config["GAME_FOLDER"])
    desk = Desk(folder)
    desk.load()
    app.extensions["studio_desk"] = desk
    app.extensions["studio_writeback"] = WriteBack(desk)
    app.extensions["studio_jobs"] = Jobs(Path(app.config["OUT"]).resolve())
    if app.config["FOLLOW"]:
        app.extensions["studio_follower"] = Follower(desk, [Path(app.config["OUT"]).resolve()]).start()
    app.extensions["studio_push_slots"] = Slots(app.config["PUSH_STREAMS"])
    hosts = app.config["HOSTS"]
    RequestGuard(frozenset(hosts) if hosts else LOOPBACK_NAMES,
                 token=app.config["TOKEN"] or secrets.token_urlsafe(24)).install(app)
    app.register_blueprint(views.bp)
    cardlist.install(app)  # the card list's rows and its changes (cardlist.py)
    app.register_blueprint(boxviews.bp)
    views.init_errors(app)
    return app
