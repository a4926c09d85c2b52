"""`items: https://…`: a card list published on the web as CSV, served here by a real local HTTPS server with
a certificate made by openssl (as `serve --https` makes one) that only the build process is told to trust
(SSL_CERT_FILE). So the test runs the very https path a designer's build takes; no switch in starpnp lets
plain http through."""
from __future__ import annotations

import os
import shutil
import ssl
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from cli_runner import STARPNP, one_line, replace
from starpnp_test_support import require_tool

COURIERS = Path(__file__).resolve().parent.parent / "fixtures" / "couriers"
SHEET = (COURIERS / "parcels.csv").read_bytes()


class Sheet(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - the standard library's name
        if self.path == "/to-http":
            self.send_response(302)
            self.send_header("Location", f"http://127.0.0.1:{self.server.server_port}/pub.csv")
            self.end_headers()
            return
        body = SHEET if self.path == "/pub.csv" else b"<html>Sign in</html>" if self.path == "/edit" else b""
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", "text/html" if self.path == "/edit" else "text/csv")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def https_sheet(tmp_path):
    """(base https address on an ephemeral loopback port, the certificate to trust, stop())."""
    require_tool("openssl", "openssl")
    from starpnp.companion.serve import certificate

    cert, key = certificate(tmp_path / "tls", "127.0.0.1")
    server = ThreadingHTTPServer(("127.0.0.1", 0), Sheet)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def stop():
        server.shutdown()
        server.server_close()
        thread.join(5)

    yield f"https://127.0.0.1:{server.server_port}", cert, stop
    if thread.is_alive():
        stop()


def build(game: Path, cert: Path, *extra) -> subprocess.CompletedProcess:
    env = {**os.environ, "SSL_CERT_FILE": str(cert)}
    return subprocess.run([*STARPNP, "build", str(game), "--format", "pdf", "--out", str(game.parent / "out"),
                           *extra], capture_output=True, text=True, env=env, timeout=120)


def published(folder: Path, url: str) -> Path:
    game = folder / "couriers"
    shutil.copytree(COURIERS, game)
    (game / "parcels.csv").unlink()
    replace(game / "cards.yaml", "items: parcels.csv", f"items: {url}")
    return game


def test_a_published_sheet_builds_then_builds_from_its_kept_copy_and_refresh_insists(tmp_path, https_sheet):
    base, cert, stop = https_sheet
    game = published(tmp_path, f"{base}/pub.csv")
    fetched = build(game, cert)
    assert fetched.returncode == 0 and "warning" not in fetched.stdout, fetched.stdout + fetched.stderr
    assert "27 pieces" in fetched.stdout  # the 10 parcels of the sheet, as from parcels.csv
    [copy] = (game / ".cache" / "published").glob("*.csv")
    assert copy.read_bytes() == SHEET

    stop()
    offline = build(game, cert)
    assert offline.returncode == 0, offline.stderr
    assert "27 pieces" in offline.stdout
    assert f"{base}/pub.csv: cannot fetch the published sheet" in offline.stdout
    assert "using the copy fetched less than a minute ago" in offline.stdout, offline.stdout

    line = one_line(build(game, cert, "--refresh"), f"{base}/pub.csv: cannot fetch the published sheet")
    assert "copy" not in line


def test_without_a_kept_copy_an_unreachable_sheet_is_one_line(tmp_path, https_sheet):
    base, cert, stop = https_sheet
    stop()
    game = published(tmp_path, f"{base}/pub.csv")
    one_line(build(game, cert), "cannot fetch the published sheet", "no copy kept from an earlier build")


def test_only_https_no_redirect_to_plain_http_and_csv_not_a_web_page(tmp_path, https_sheet):
    base, cert, _ = https_sheet
    game = published(tmp_path, f"{base}/to-http")
    one_line(build(game, cert), "redirected to 'http://127.0.0.1", "only https addresses are followed")
    replace(game / "cards.yaml", f"{base}/to-http", base.replace("https://", "http://") + "/pub.csv")
    one_line(build(game, cert), "a published sheet is read over https only")
    replace(game / "cards.yaml", base.replace("https://", "http://") + "/pub.csv", f"{base}/edit")
    one_line(build(game, cert), f"{base}/edit: answers a web page, not CSV; publish the sheet to the web as CSV")
    replace(game / "cards.yaml", f"{base}/edit", f"{base}/gone.csv")
    one_line(build(game, cert), f"{base}/gone.csv: the server answered 404")
    assert not (game / ".cache").exists()


def test_the_address_is_named_in_a_bad_rows_error(tmp_path, https_sheet, monkeypatch):
    base, cert, _ = https_sheet
    monkeypatch.setattr(sys.modules[__name__], "SHEET", SHEET.replace(b"3,Ice Crate", b"x,Ice Crate"))
    game = published(tmp_path, f"{base}/pub.csv")
    one_line(build(game, cert), f"{base}/pub.csv:2: count:", "expected a whole number")
