"""Serving the studio on this computer with waitress: one line saying where, until Ctrl+C."""
from __future__ import annotations

import sys
from pathlib import Path

THREADS = 8  # for requests: drawing faces and answering buttons; each live-update stream has one more


def run(folder: Path, host: str, port: int, out: Path) -> None:
    from waitress import create_server

    from . import create_app
    from .writeback import MOST_ART_BYTES
    from ...web.guard import loopback_names

    app = create_app({"GAME_FOLDER": folder, "OUT": out, "HOSTS": loopback_names(host)})
    try:
        server = create_server(app, host=host, port=port, threads=THREADS + app.config["PUSH_STREAMS"],
                               ident="starpnp-studio", max_request_body_size=MOST_ART_BYTES + 64 * 1024)
    except OSError as error:
        print(f"starpnp studio: cannot listen on {host}:{port}: {error.strerror or error}", file=sys.stderr)
        raise SystemExit(1) from None
    shown = f"[{host}]" if ":" in host else host
    print(f"starpnp studio for {folder} on http://{shown}:{port}/  (Ctrl+C to stop)", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        app.extensions["studio_desk"].changes.close()  # the open streams end, so waitress need not wait for them
        print("stopped.")
    finally:
        server.close()
