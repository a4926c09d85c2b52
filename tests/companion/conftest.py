"""Fixtures for the companion's in-process tests (Flask test client on a fresh SQLite database)."""
from __future__ import annotations

import pytest
from companion_test_helpers import PhoneClient

from starpnp.companion import create_app

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
