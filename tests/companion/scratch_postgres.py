"""A throwaway PostgreSQL cluster in a temporary folder, for the tests and bench/companion_load.py.

Debian's `postgresql` package puts initdb and pg_ctl under /usr/lib/postgresql/<major>/bin, off PATH.
PostgreSQL refuses to run as root, so as root (CI) the cluster belongs to the package's `postgres` user and
its commands run through `runuser`. Standard library only, apart from psycopg to make databases.
"""
from __future__ import annotations

import glob
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

USER = "starpnp"  # the cluster's superuser; local connections are trusted, and it listens on loopback only


def find_initdb() -> str | None:
    """initdb on PATH, else the newest one Debian installed."""
    found = shutil.which("initdb")
    if found:
        return found
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    return versions[-1] if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ScratchPostgres:
    """initdb + pg_ctl start in a temporary folder; `new_database()` gives each caller an empty database.

    `settings` are server settings (e.g. {"fsync": "off"} for tests, whose data is thrown away anyway)."""

    def __init__(self, initdb: str, settings: dict[str, str] | None = None):
        self.bin = Path(initdb).resolve().parent
        self.settings = settings or {}
        self.port = _free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="starpnp-pg-"))
        self.as_postgres: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
            self.as_postgres = ["runuser", "-u", "postgres", "--"]
        self.data = self.folder / "data"

    def _run(self, *args: str) -> None:
        result = subprocess.run([*self.as_postgres, *args], cwd=self.folder, capture_output=True, text=True)
        if result.returncode:
            raise RuntimeError(f"{Path(args[0]).name} failed ({result.returncode}): "
                               f"{(result.stderr or result.stdout).strip()[-2000:]}")

    def start(self) -> "ScratchPostgres":
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", USER, "-A", "trust", "-E", "UTF8",
                  "--locale=C", "--no-sync")
        options = {"listen_addresses": "127.0.0.1", "port": str(self.port),
                   "unix_socket_directories": str(self.folder), **self.settings}
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "server.log"), "-w",
                  "-o", " ".join(f"-c {key}={value}" for key, value in options.items()), "start")
        return self

    @property
    def pid(self) -> int:
        """The postmaster's process id (its backends are its children)."""
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """The URL of a new, empty database."""
        return create_database(self.url())

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def create_database(admin_url: str) -> str:
    """A new, empty database on the server of `admin_url` (a SQLAlchemy URL); returns its URL.

    It is a schema of its own in the admin URL's database, which the URL makes the only one its clients
    see (search_path): as empty as a CREATE DATABASE, but made in milliseconds, not a copy of template1."""
    import psycopg
    from sqlalchemy.engine import make_url

    admin = make_url(admin_url)
    name = f"starpnp_{secrets.token_hex(6)}"
    conninfo = admin.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    return admin.update_query_dict({"options": f"-csearch_path={name}"}).render_as_string(hide_password=False)
