"""A declared tracker may declare its step sizes: the page offers them (hold and folded ± buttons)."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError

from companion_test_helpers import PhoneClient, sit
from starpnp.companion import create_app
from starpnp.generator.data.tracker import TrackedCounter

COURIERS = Path(__file__).resolve().parent.parent / "fixtures" / "couriers"


def test_a_declared_counter_offers_its_own_steps(tmp_path):
    folder = tmp_path / "couriers"
    shutil.copytree(COURIERS, folder)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("{id: points, label: Points, min: 0, max: 30}",
                                             "{id: points, label: Points, min: 0, max: 30, steps: [3, 20]}"))
    app = create_app({"DATA_DIR": str(tmp_path / "data"), "GAME_FOLDERS": [str(folder)]})
    app.test_client_class = PhoneClient
    client = app.test_client()
    code = client.post("/api/tables", json={"game": "couriers", "players": [{"name": "Ann"}, {"name": "Bo"}]}
                       ).get_json()["code"]
    html = client.get(sit(client, code)).get_data(as_text=True)
    mine = html[html.index('data-player="p1"'):html.index('data-player="p2"')]
    points = mine[mine.index('data-counter="points"'):mine.index('data-counter="fuel"')]
    assert re.findall(r'data-long="(-?\d+)"', points) == ["-3", "3"]  # held: the first of its steps
    assert re.findall(r">([−+]\d+)</button>", points) == ["−1", "+1", "−20", "−3", "+3", "+20"]
    fuel = mine[mine.index('data-counter="fuel"'):]
    assert re.findall(r'data-long="(-?\d+)"', fuel)[:2] == ["-5", "5"]  # the default steps, 5 and 10


@pytest.mark.parametrize("steps", [[0], [1001], [1, 2, 3, 4]])
def test_steps_out_of_range_are_refused(steps):
    with pytest.raises(ValidationError):
        TrackedCounter(id="coins", label="Coins", steps=steps)
