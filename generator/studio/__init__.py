"""`starpnp studio DIR`: a local page showing every distinct face of one game folder, redrawn as files are saved.

`create_app(folder)` builds the Flask app (the companion's factory style and look); `run` serves it with
waitress and follows the folder for saves. Nothing here reaches the internet: fonts, script and styles are
package data.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from flask import Flask

DEFAULTS: dict[str, Any] = {
    "GAME_FOLDER": None,      # the game folder shown (a Path)
    "OUT": Path("output"),    # where the build buttons and the proof sheet write
    "FOLLOW": True,           # follow the folder for saves (a test may step it by hand)
    "MAX_CONTENT_LENGTH": 256 * 1024,
    "POLL_SECONDS": 20.0,     # how long a page's wait for news is held open
}


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    from ...resources import templates_dir
    from . import views
    from .desk import Desk
    from .follow import Follower
    from .jobs import Jobs

    app = Flask(__name__, template_folder=str(templates_dir()), static_folder="static",
                static_url_path="/studio-static")
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    folder = Path(app.config["GAME_FOLDER"])
    desk = Desk(folder)
    desk.load()
    app.extensions["studio_desk"] = desk
    app.extensions["studio_jobs"] = Jobs(Path(app.config["OUT"]).resolve())
    if app.config["FOLLOW"]:
        app.extensions["studio_follower"] = Follower(desk, [Path(app.config["OUT"]).resolve()]).start()
    app.register_blueprint(views.bp)
    return app
