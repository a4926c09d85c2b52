"""Serve the companion with waitress and tell people at the table where to point their phones.

`starpnp serve` calls `run`.
"""
from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Mapping

import segno

THREADS = 8  # for requests; each open push stream holds a thread of its own on top (PUSH_STREAMS)
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


def public_url(host: str, port: int, scheme: str = "http") -> str:
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    return f"{scheme}://{f'[{shown}]' if ':' in shown else shown}:{port}"


def certificate(data_dir: Path, address: str) -> tuple[Path, Path]:
    """A self-signed certificate for this machine's address, made once per data folder with openssl (kept,
    so phones that trusted it once are not asked again)."""
    cert, key = data_dir / "https-certificate.pem", data_dir / "https-key.pem"
    if cert.exists() and key.exists():
        return cert, key
    if shutil.which("openssl") is None:
        _fail("--https makes its certificate with the openssl command, which is not installed (Debian: openssl)")
    data_dir.mkdir(parents=True, exist_ok=True)
    names = f"subjectAltName=DNS:localhost,IP:127.0.0.1{f',IP:{address}' if address != '127.0.0.1' else ''}"
    made = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "825",
                           "-subj", "/CN=starpnp table companion", "-addext", names,
                           "-keyout", str(key), "-out", str(cert)], capture_output=True, text=True)
    if made.returncode != 0:
        _fail(f"openssl could not make a certificate: {(made.stderr.strip().splitlines() or ['?'])[-1]}")
    key.chmod(0o600)
    return cert, key


def _fail(message: str) -> None:
    print(f"starpnp serve: {message}", file=sys.stderr)
    raise SystemExit(1)


def run(host: str, port: int, data_dir: str | None, config: Mapping[str, Any] | None = None,
        https: bool = False) -> None:
    """Start the production server (waitress); one-line errors and exit status 1 when it cannot start.
    With `https`, Werkzeug's threaded server with a self-signed certificate (waitress speaks no TLS): for a
    table at home; a hosted server puts a TLS proxy in front of plain `serve` instead."""
    from . import create_app

    config = dict(config or {})
    url = config.pop("PUBLIC_URL", None) or public_url(host, port, "https" if https else "http")
    try:
        app = create_app({"DATA_DIR": data_dir, "PUBLIC_URL": url, "SOLE_WRITER": True, **config})
    except Exception as error:  # a bad data dir or database URL: say so in one line, no traceback
        _fail(f"cannot open the companion database: {str(error).splitlines()[0]}")
    if https:
        return _run_https(app, host, port, url)
    try:
        # Idle phones hold connections open: allow far more than a table needs and drop the idle ones soon,
        # and refuse a body over the app's limit before reading it. A push stream holds its thread while it
        # is open, so there is one per stream the app admits besides the THREADS that answer taps.
        server = waitress_server(app, host, port)
    except OSError as error:
        _fail(f"cannot listen on {host}:{port}: {error.strerror or error}")
    # Writes to one table queue on a lock; with Python's default 5 ms GIL switch interval the thread
    # holding it waits behind busy request threads. A shorter interval keeps the queue moving.
    sys.setswitchinterval(SWITCH_INTERVAL)
    _end_streams_on_interrupt(app)
    _serve_until_stopped(url, server.run, server.close)


def waitress_server(app, host: str, port: int):
    """The production server for `app`, not yet running (`run` serves it; tests run it in a thread)."""
    from waitress import create_server

    from ..web.push import WAITRESS_OPTIONS

    return create_server(app, host=host, port=port, threads=THREADS + app.config["PUSH_STREAMS"], ident="starpnp",
                         connection_limit=CONNECTIONS, channel_timeout=IDLE_SECONDS,
                         max_request_body_size=app.config["MAX_CONTENT_LENGTH"], **WAITRESS_OPTIONS)


def _end_streams_on_interrupt(app) -> None:
    """Ctrl+C ends the open push streams first: each holds a thread, which waitress waits 5 s for."""
    previous = signal.getsignal(signal.SIGINT)

    def interrupted(signum, frame):
        app.extensions["companion_store"].changes.close()
        (previous if callable(previous) else signal.default_int_handler)(signum, frame)

    signal.signal(signal.SIGINT, interrupted)


def _serve_until_stopped(url: str, serve: Callable[[], None], close: Callable[[], None], note: str = "") -> None:
    """Say where phones should point (address and QR code), then serve until Ctrl+C."""
    print(f"starpnp companion on {url}  (Ctrl+C to stop)" + (f"\n{note}" if note else ""), flush=True)
    segno.make(url, error="m").terminal(compact=True)
    sys.stdout.flush()
    try:
        serve()
    except KeyboardInterrupt:
        print("stopped.")
    finally:
        close()


def _run_https(app, host: str, port: int, url: str) -> None:
    from werkzeug.serving import make_server

    cert, key = certificate(app.config["DATA_DIR"], lan_address())
    try:
        server = make_server(host, port, app, threaded=True, ssl_context=(str(cert), str(key)))
    except (OSError, SystemExit) as error:
        _fail(f"cannot listen on {host}:{port}: {getattr(error, 'strerror', None) or error}")
    _end_streams_on_interrupt(app)
    _serve_until_stopped(url, server.serve_forever, server.server_close,
                         f"Each phone's browser warns once that it does not know this certificate ({cert.name} in "
                         f"the data folder): choose to continue to the site.")
