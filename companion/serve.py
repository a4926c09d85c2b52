"""Serve the companion with waitress and tell people at the table where to point their phones.

`starpnp serve` calls `run`.
"""
from __future__ import annotations

import socket
import sys
from typing import Any, Mapping

import segno

THREADS = 8
CONNECTIONS = 1000  # waitress' default of 100 let 101 idle sockets stall the server for everyone
IDLE_SECONDS = 30
SWITCH_INTERVAL = 0.0005  # seconds


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), or loopback if there is none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def public_url(host: str, port: int) -> str:
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    return f"http://{f'[{shown}]' if ':' in shown else shown}:{port}"


def _fail(message: str) -> None:
    print(f"starpnp serve: {message}", file=sys.stderr)
    raise SystemExit(1)


def run(host: str, port: int, data_dir: str | None, config: Mapping[str, Any] | None = None) -> None:
    """Start the production server (waitress); one-line errors and exit status 1 when it cannot start."""
    from waitress import create_server

    from . import create_app

    config = dict(config or {})
    url = config.pop("PUBLIC_URL", None) or public_url(host, port)  # given: a load balancer's address
    try:
        app = create_app({"DATA_DIR": data_dir, "PUBLIC_URL": url, "SOLE_WRITER": True, **config})
    except Exception as error:  # a bad data dir or database URL: say so in one line, no traceback
        _fail(f"cannot open the companion database: {str(error).splitlines()[0]}")
    try:
        # Idle phones hold connections open: allow far more than a table needs and drop the idle ones soon,
        # and refuse a body over the app's limit before reading it.
        server = create_server(app, host=host, port=port, threads=THREADS, ident="starpnp",
                               connection_limit=CONNECTIONS, channel_timeout=IDLE_SECONDS,
                               max_request_body_size=app.config["MAX_CONTENT_LENGTH"])
    except OSError as error:
        _fail(f"cannot listen on {host}:{port}: {error.strerror or error}")
    # Writes to one table queue on a lock; with Python's default 5 ms GIL switch interval the thread
    # holding it waits behind busy request threads. A shorter interval keeps the queue moving.
    sys.setswitchinterval(SWITCH_INTERVAL)
    print(f"starpnp companion on {url}  (Ctrl+C to stop)", flush=True)
    segno.make(url, error="m").terminal(compact=True)
    sys.stdout.flush()
    try:
        server.run()
    except KeyboardInterrupt:
        print("stopped.")
    finally:
        server.close()

