"""Fixtures for the companion's tests: a Flask test client on a fresh SQLite database, and fresh PostgreSQL
databases on a throwaway cluster (scratch_postgres.py) for the store and multi-process tests."""
from __future__ import annotations

import importlib.util
import os

import pytest
from companion_test_helpers import PhoneClient

from scratch_postgres import ScratchPostgres, create_database, find_initdb
from starpnp.companion import create_app
from starpnp_test_support import missing, require_tool

PLAYERS = [{"name": "Ann", "color": "red"}, {"name": "Ben", "color": "blue"}]


@pytest.fixture
def app(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "PUBLIC_URL": "http://table.test"})
    app.test_client_class = PhoneClient
    return app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def table(client):
    """A fresh generic table (Ann p1, Ben p2); returns its API JSON."""
    response = client.post("/api/tables", json={"game": "generic", "players": PLAYERS})
    assert response.status_code == 201, response.get_json()
    return response.get_json()



@pytest.fixture(scope="session")
def postgres_server():
    """The admin URL of a PostgreSQL server for this session: STARPNP_TEST_DATABASE_URL when set (a server
    of your own, where the tests create databases), else a scratch cluster started here and removed after.
    Missing PostgreSQL or psycopg: skip locally, fail in CI."""
    if importlib.util.find_spec("psycopg") is None:
        missing("the Python package psycopg is not installed (pip install -e '.[postgres]')")
    if url := os.environ.get("STARPNP_TEST_DATABASE_URL"):
        yield url
        return
    initdb = require_tool(find_initdb() or "initdb", "apt-get install postgresql")
    # Its data is thrown away: no fsync, so the tests wait on no disk.
    cluster = ScratchPostgres(initdb, {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"})
    try:
        yield cluster.start().url()
    finally:
        cluster.stop()


@pytest.fixture
def postgres_url(postgres_server):
    """The SQLAlchemy URL of a new, empty PostgreSQL database."""
    return create_database(postgres_server)
