"""Fixtures for the rules tests that go through the app (Flask test client on a fresh SQLite file)."""
import pytest

from companion_test_helpers import PhoneClient
from starpnp.companion import create_app
from table_helpers import PUBLIC_URL


@pytest.fixture
def client(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "PUBLIC_URL": PUBLIC_URL})
    app.test_client_class = PhoneClient
    return app.test_client()
