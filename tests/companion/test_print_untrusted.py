"""/print on a folder the server was given (issue #33): a problem in the folder is a 4xx naming it, never a
500, and no request waits past the time limit of a build on demand."""
from __future__ import annotations

from pathlib import Path

import pytest

from starpnp.companion import create_app
from starpnp.generator import ondemand

GAME = "id: tiny\nname: Tiny\nplayers: {min: 1, max: 2}\ncolors: [red, blue]\n"
CARDS = ("components:\n  - id: deck\n    name: Deck\n    kind: card\n    size: poker\n"
         "    front: {layout: probe}\n    items:\n      - {count: 1}\n")


def tiny(folder: Path, box: str) -> Path:
    (folder / "layouts").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME)
    (folder / "cards.yaml").write_text(CARDS)
    (folder / "layouts" / "probe.yaml").write_text(f"boxes:\n  probe: {box}\n")
    return folder


@pytest.fixture
def client_for(tmp_path):
    def make(box: str):
        folder = tiny(tmp_path / "tiny", box)
        return create_app({"DATA_DIR": str(tmp_path / "data"), "PRINT_FOLDERS": [str(folder)]}).test_client()
    return make


def test_a_value_past_a_limit_while_drawing_is_a_422_naming_its_line(client_for):
    client = client_for("{kind: rect, x: 1, y: 1, w: 2, h: '1e308*10'}")
    response = client.get("/print/tiny/download", headers={"Accept": "application/json"})
    assert response.status_code == 422
    assert "probe.yaml:2: boxes.probe.h: a number is inf" in response.get_json()["error"]


def test_a_build_past_its_time_limit_stops_with_a_422(client_for, monkeypatch):
    monkeypatch.setattr(ondemand, "MAX_BUILD_SECONDS", 0)
    client = client_for("{kind: rect, repeat: entries(500), x: 1, y: 1, w: 2, h: 2}")
    response = client.get("/print/tiny/download", headers={"Accept": "application/json"})
    assert response.status_code == 422
    assert "drawing took longer than a build on demand may" in response.get_json()["error"]


def test_a_request_waits_for_other_builds_no_longer_than_the_limit(client_for, monkeypatch):
    monkeypatch.setattr(ondemand, "MAX_BUILD_SECONDS", 0.2)
    client = client_for("{kind: rect, x: 1, y: 1, w: 2, h: 2}")
    with ondemand._one_build:  # another build holds the one build slot
        response = client.get("/print/tiny/download", headers={"Accept": "application/json"})
    assert response.status_code == 503 and response.headers["Retry-After"] == "60"
    assert "busy" in response.get_json()["error"]
    assert client.get("/print/tiny/download").status_code == 200  # and once it is free, it builds
