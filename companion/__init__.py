"""The table companion: a Flask app where every phone at a table shares one event log.

`create_app(config)` builds the app; `companion.serve.run` serves it with waitress.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Mapping

from flask import Flask

from ..web.push import HEARTBEAT_SECONDS

DEFAULTS: dict[str, Any] = {
    "DATA_DIR": None,             # SQLite lives here (else STARPNP_DATA, else the working directory)
    "DATABASE_URL": None,         # e.g. postgresql+psycopg://... (else STARPNP_DATABASE_URL)
    "PUBLIC_URL": None,           # base of join links and QR codes (serve sets the LAN address)
    "BENCH_HELLO": False,         # register /bench/hello (or STARPNP_BENCH_HELLO=1): bench/companion_load.py's baseline
    "SQLITE_SYNCHRONOUS": "NORMAL",  # WAL + NORMAL: a 201 survives the server being killed; FULL also
                                     # survives power loss, at ~2 ms of fsync per write (BENCHMARKS.md)
    "SOLE_WRITER": False,         # serve: this process alone writes the SQLite file (locked), so
                                  # polls are answered from memory
    "POOL_SIZE": 8,
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_HTTPONLY": True,
    "PERMANENT_SESSION_LIFETIME": 7 * 24 * 3600,
    "JSON_SORT_KEYS": False,
    "GAME_FOLDERS": [],           # designers' game folders whose tracker: the create form offers (serve --game-folder)
    "PRINT_FOLDERS": [],          # game folders offered on /print besides ours (serve --print-folder)
    "WRONG_CODES_PER_MINUTE": 20,
    "PUSH_STREAMS": 400,          # push connections one process holds open (a thread each); over it a phone polls
    "PUSH_HEARTBEAT_SECONDS": HEARTBEAT_SECONDS,  # a push stream's idle line: a proxy keeps it (a closed one is freed within a second)
    "MAX_TABLES": 10_000,         # tables one server holds; creating more is a 503 naming the limit  # "no table with this code" answers a device gets before a 429
}


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    from . import api, errors, printing, stats_views, views
    from .rules import all_rules
    from .rules.declared import rules_from_folder
    from .security import init_security
    from .throttle import init_throttle
    from .storage import Store, database_url, make_engine
    from ..web.guard import RequestGuard
    from ..web.push import Slots, listen_postgres
    from ..resources import templates_dir

    app = Flask(__name__, template_folder=str(templates_dir()), static_folder="static")
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    # The data folder is settled here, once: the database and the /print cache live in it.
    # Made absolute against the working directory now: Flask's send_file would read a relative path (the
    # /print cache) against the package's folder instead.
    app.config["DATA_DIR"] = Path(app.config["DATA_DIR"] or os.environ.get("STARPNP_DATA") or ".").expanduser().resolve()
    url = database_url(app.config["DATA_DIR"], app.config["DATABASE_URL"] or os.environ.get("STARPNP_DATABASE_URL"))
    engine = make_engine(url, app.config["POOL_SIZE"], app.config["SQLITE_SYNCHRONOUS"])
    rules = {**all_rules(), **{r.id: r for r in map(rules_from_folder, map(Path, app.config["GAME_FOLDERS"]))}}
    store = Store(engine, rules, sole_writer=app.config["SOLE_WRITER"], max_tables=app.config["MAX_TABLES"])
    app.extensions["companion_store"] = store
    app.extensions["companion_push_slots"] = Slots(app.config["PUSH_STREAMS"])
    if engine.dialect.name == "postgresql":  # other processes' writes reach this one's streams
        listen_postgres(engine.url.set(drivername="postgresql").render_as_string(hide_password=False),
                        store.changes, threading.Event())
    app.secret_key = app.config.get("SECRET_KEY") or store.secret_key()

    init_security(app)
    # Phones reach the companion by any name (a LAN address, a proxy's public name), and each seat's own
    # token is checked by the API: the shared guard refuses what another site's page asks of it.
    public = app.config["PUBLIC_URL"]
    RequestGuard(origins=frozenset({public.rstrip("/")}) if public else frozenset()).install(app)
    init_throttle(app)
    errors.init_errors(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(views.bp)
    app.register_blueprint(printing.bp)
    app.register_blueprint(stats_views.bp)
    if app.config["BENCH_HELLO"] or os.environ.get("STARPNP_BENCH_HELLO") == "1":
        app.add_url_rule("/bench/hello", "bench_hello", lambda: "hello, world")
    return app
