"""Helpers for tests that talk to a real companion server over HTTP (standard library only)."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(method: str, url: str, body=None, headers: dict | None = None, raw: bytes | None = None,
            timeout: float = 10) -> tuple[int, dict | str]:
    """(status, parsed JSON or text) for one request; HTTP errors are answers, not exceptions."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    hdrs = {"Content-Type": "application/json"} if data is not None else {}
    hdrs.update(headers or {})
    req = urllib.request.Request(url, data=data, method=method, headers=hdrs)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            status, text = resp.status, resp.read().decode()
            ctype = resp.headers.get("Content-Type", "")
    except urllib.error.HTTPError as error:
        status, text, ctype = error.code, error.read().decode(), error.headers.get("Content-Type", "")
    return status, (json.loads(text) if "json" in ctype and text else text)


def create_table(base_url: str, game: str = "generic", players=None, options=None) -> dict:
    """Create a table through the JSON API and return its JSON (code, url, version, state)."""
    players = players or [{"name": "Ann", "color": "red"}, {"name": "Ben", "color": "blue"}]
    status, body = request("POST", f"{base_url}/api/tables",
                           {"game": game, "players": players, "options": options or {}})
    assert status == 201, body
    return body


class ServerProcess:
    """`python -m companion.serve` on a free loopback port with its own data directory."""

    def __init__(self, data_dir: Path, port: int | None = None, extra_args: tuple[str, ...] = ()):
        self.data_dir, self.port = Path(data_dir), port or free_port()
        self.extra_args = extra_args
        self.proc: subprocess.Popen | None = None
        self.log_path = self.data_dir / "server.log"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20) -> "ServerProcess":
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion.serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--data", str(self.data_dir), *self.extra_args],
            cwd=REPO, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}: {self.log()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"server did not start within {timeout}s: {self.log()}")

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:] if self.log_path.exists() else ""
