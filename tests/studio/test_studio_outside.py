"""The studio is a server: the folder it is started on may not extend a game outside it (issue #41), so it
shows the one-line refusal in its banner and serves no face of that other game."""
from __future__ import annotations

import json
import urllib.request

import pytest

from starpnp.generator.customise import new_game


@pytest.fixture
def game(tmp_path):
    """The folder the studio starts on: overrides of `../harbour`, a game beside it."""
    new_game("Harbour Lights", tmp_path / "harbour")
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "overrides.yaml").write_text("extends: ../harbour\n")
    return mine


def test_the_studio_refuses_a_folder_extending_a_game_outside_it(studio, game):
    with urllib.request.urlopen(f"{studio.url}news?since=0", timeout=30) as response:
        news = json.load(response)
    assert news["error"] == (f"{game / 'overrides.yaml'}:1: extends: '../harbour': a game outside this folder; a "
                             f"server reads nothing outside the folders it is given")
    assert news["tiles"] == [] and news["pieces"] == 0
