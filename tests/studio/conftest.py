"""A designer's game folder made by `starpnp new`, with one more card whose layout hides its title, and the
studio on it as a real server process."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion_test_helpers import free_port, not_listening
from starpnp.generator.customise import new_game
from starpnp.generator.studio import create_app

# A card whose title box runs 1.4 mm under the white panel, as the scaffold's once did: a two-line title is
# half hidden, and only check's covered-box warning says so.
HIDDEN_TITLE_LAYOUT = "extends: card\nboxes:\n  title: {h: 12, size: 14}\n"
PROMO = ("components:\n  - id: promo\n    name: Promo\n    kind: card\n    size: poker\n"
         "    front: {layout: tall_title, color: '#00838F'}\n    items:\n"
         "      - {count: 1, title: Harbour Master General, text: Take the first turn.}\n")


def page_client(app):
    """A test client that asks as the studio's own page does: from its origin, with its token."""
    client = app.test_client()
    client.environ_base.update({"HTTP_ORIGIN": "http://localhost",
                                "HTTP_X_STUDIO_TOKEN": app.extensions["request_guard"].token})
    return client


@pytest.fixture
def as_page():
    """`as_page(app)`: page_client, for test files that cannot import this conftest by name."""
    return page_client


def make_game(folder: Path) -> Path:
    new_game("Harbour Lights", folder)
    (folder / "layouts" / "tall_title.yaml").write_text(HIDDEN_TITLE_LAYOUT)
    (folder / "promo.yaml").write_text(PROMO)
    return folder


@pytest.fixture
def game(tmp_path) -> Path:
    return make_game(tmp_path / "harbour")


@pytest.fixture
def app(game, tmp_path):
    """The studio's Flask app on `game`, writing its builds beside it and watching no files."""
    return create_app({"GAME_FOLDER": game, "OUT": tmp_path / "out", "FOLLOW": False})


@pytest.fixture
def page(app):
    """A client that asks as the studio's page does."""
    return page_client(app)


class StudioProcess:
    """`starpnp studio FOLDER` on a free loopback port."""

    def __init__(self, folder: Path, out: Path):
        self.folder, self.out, self.port = folder, out, free_port()
        self.log_path = out.parent / f"studio-{self.port}.log"
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self, timeout: float = 20) -> "StudioProcess":
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen([sys.executable, "-m", "starpnp", "studio", str(self.folder), "--port",
                                      str(self.port), "--out", str(self.out)], stdout=log, stderr=subprocess.STDOUT,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        if problem := not_listening(self.proc, self.port, timeout):
            self.stop()
            raise RuntimeError(f"studio {problem}: {self.log_path.read_text()}")
        return self

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


@pytest.fixture
def studio(game, tmp_path):
    process = StudioProcess(game, tmp_path / "out").start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def module_studio(tmp_path_factory):
    """One game and one studio for a whole test file (its tests leave the files as they found them)."""
    base = tmp_path_factory.mktemp("studio")
    process = StudioProcess(make_game(base / "harbour"), base / "out").start()
    yield process
    process.stop()


@pytest.fixture
def studio_of(tmp_path):
    """`studio_of(folder)`: `starpnp studio FOLDER` started (a name, for one of our games), stopped after."""
    started = []

    def start(folder: Path) -> StudioProcess:
        started.append(StudioProcess(folder, tmp_path / "out").start())
        return started[-1]
    yield start
    for process in started:
        process.stop()
