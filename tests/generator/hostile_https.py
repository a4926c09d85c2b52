"""A local HTTPS server that serves a published sheet well, or badly on purpose: it drips its status line,
its headers or its body a byte at a time, sends too many or too long headers, a line that is no status
line, broken chunks, a body short of its Content-Length, and redirects to http, to loopback, private and
link-local addresses or round in a loop. Its certificate is made by openssl (as `serve --https` makes one)
and trusted only by what is told to (SSL_CERT_FILE), so the tests run the very https path a build takes.

`BEHAVIOURS` names every path; `served(folder)` starts one on an ephemeral loopback port."""
from __future__ import annotations

import ssl
import threading
import time
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from starpnp_test_support import require_tool

SHEET = (Path(__file__).resolve().parent.parent / "fixtures" / "couriers" / "parcels.csv").read_bytes()
DRIP_SECONDS = 0.25  # between two bytes of a drip
DRIP_FOR = 30  # seconds a drip goes on at most (far past any test's deadline), so its thread ends


def _answer(body: bytes, content_type: str = "text/csv", status: str = "200 OK", extra: bytes = b"") -> bytes:
    return (f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
            f"Connection: close\r\n").encode() + extra + b"\r\n" + body


def _redirect(location: str) -> bytes:
    return f"HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".encode()


class Hostile(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):  # noqa: N802 - the standard library's name
        self.server.requests.append(self.path)
        port = self.server.server_port
        plain = {
            "/pub.csv": _answer(SHEET),
            "/edit": _answer(b"<html>Sign in</html>", "text/html"),
            "/gone.csv": _answer(b"", status="404 Not Found"),
            "/to-http": _redirect(f"http://127.0.0.1:{port}/pub.csv"),
            "/to-pub": _redirect("/pub.csv"),
            "/to-loopback": _redirect(f"https://127.0.0.2:{port}/pub.csv"),
            "/to-localhost": _redirect(f"https://localhost:{port}/pub.csv"),
            "/to-mapped": _redirect(f"https://[::ffff:127.0.0.1]:{port}/pub.csv"),
            "/to-ipv6-loopback": _redirect(f"https://[::1]:{port}/pub.csv"),
            "/to-private": _redirect("https://10.20.30.40/pub.csv"),
            "/to-link-local": _redirect("https://169.254.169.254/latest/meta-data/"),
            "/loop": _redirect("/loop"),
            "/no-location": b"HTTP/1.1 302 Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            "/many-headers": _answer(SHEET, extra=b"".join(b"X-Filler-%d: x\r\n" % n for n in range(150))),
            "/long-header": _answer(SHEET, extra=b"X-Long: " + b"x" * 70_000 + b"\r\n"),
            "/bad-status": b"HTTP/1.1 two-hundred OK\r\n\r\n" + SHEET,
            "/not-http": b"SSH-2.0-OpenSSH_9.2\r\n",
            "/bad-chunks": (b"HTTP/1.1 200 OK\r\nContent-Type: text/csv\r\nTransfer-Encoding: chunked\r\n\r\n"
                            b"10\r\nid,name\r\n" + b"zz\r\n" + b"x" * 100 + b"\r\n0\r\n\r\n"),
            "/short": _answer(SHEET)[:-len(SHEET) // 2],
            "/negative-length": (b"HTTP/1.1 200 OK\r\nContent-Type: text/csv\r\nContent-Length: -1\r\n"
                                 b"Connection: close\r\n\r\n" + SHEET),
            "/doubled-length": _answer(SHEET, extra=f"Content-Length: {2 * len(SHEET)}\r\n".encode()),
            "/closed": b"",
        }
        drips = {
            "/drip-status": b"HTTP/1.1 200 OK\r\n" * 200,
            "/drip-headers": b"HTTP/1.1 200 OK\r\n" + b"X-Slow: y\r\n" * 200,
            "/drip-body": _answer(SHEET * 8),
        }
        try:
            if self.path in plain:
                self.wfile.write(plain[self.path])
            elif self.path in drips:
                self.drip(drips[self.path])
            else:
                self.wfile.write(_answer(b"", status="404 Not Found"))
        except OSError:  # the client gave up, as it should at its deadline
            pass
        self.close_connection = True

    def drip(self, data: bytes) -> None:
        ends = time.monotonic() + DRIP_FOR
        for index in range(len(data)):
            if time.monotonic() > ends:
                return
            self.wfile.write(data[index:index + 1])
            self.wfile.flush()
            time.sleep(DRIP_SECONDS)

    def log_message(self, *args):
        pass


BEHAVIOURS = ("/pub.csv", "/edit", "/gone.csv", "/to-http", "/to-pub", "/to-loopback", "/to-localhost", "/to-mapped",
              "/to-ipv6-loopback", "/to-private", "/to-link-local", "/loop", "/no-location", "/many-headers",
              "/long-header", "/bad-status", "/not-http", "/bad-chunks", "/short", "/negative-length",
              "/doubled-length", "/closed", "/drip-status",
              "/drip-headers", "/drip-body")


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, *args):
        super().__init__(*args)
        self.requests: list[str] = []


@contextmanager
def served(folder: Path):
    """(base https address on an ephemeral loopback port, the certificate to trust, the paths asked for)."""
    require_tool("openssl", "openssl")
    from starpnp.companion.serve import certificate

    cert, key = certificate(folder / "tls", "127.0.0.1")
    server = _Server(("127.0.0.1", 0), Hostile)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"https://127.0.0.1:{server.server_port}", cert, server.requests
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
