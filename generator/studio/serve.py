"""Serving the studio on this computer with waitress: one line saying where, until Ctrl+C."""
from __future__ import annotations

import sys
from pathlib import Path

THREADS = 8  # a page holds one waiting request open; the rest draw faces and answer buttons


def run(folder: Path, host: str, port: int, out: Path) -> None:
    from waitress import create_server

    from . import create_app

    app = create_app({"GAME_FOLDER": folder, "OUT": out})
    try:
        server = create_server(app, host=host, port=port, threads=THREADS, ident="starpnp-studio")
    except OSError as error:
        print(f"starpnp studio: cannot listen on {host}:{port}: {error.strerror or error}", file=sys.stderr)
        raise SystemExit(1) from None
    shown = f"[{host}]" if ":" in host else host
    print(f"starpnp studio for {folder} on http://{shown}:{port}/  (Ctrl+C to stop)", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        print("stopped.")
    finally:
        server.close()
