"""A designer's own game on two phones: `starpnp serve --game-folder` offers it on the create form, the
phones play it to its declared end, and both show the same final standings; the export ranks them."""
from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion_test_helpers import SYNC_MS, ServerProcess, open_seat, request, save_screens

pytestmark = pytest.mark.browser

COURIERS = Path(__file__).resolve().parent.parent / "fixtures" / "couriers"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Started from another folder, with the game folder given relative to it, as a designer would."""
    elsewhere = tmp_path_factory.mktemp("designer")
    (elsewhere / "couriers").symlink_to(COURIERS, target_is_directory=True)
    server = ServerProcess(elsewhere / "data", extra_args=("--game-folder", "couriers"), cwd=elsewhere).start()
    yield server.base_url
    server.stop()


def create_through_the_form(page, base_url: str) -> str:
    page.goto(base_url)
    # Picking the game reloads the form's card (htmx): names typed before that reload lands would be lost
    # (on a slow machine the browser then refuses the empty required names), so wait for it first.
    with page.expect_response(lambda answer: "game=couriers" in answer.url):
        page.select_option('select[name="game"]', "couriers")
    expect(page.locator("[data-player-count]")).to_contain_text("Comet Couriers: 2 to 4 players")
    page.fill('input[name="name1"]', "Ann")
    page.fill('input[name="name2"]', "Bo")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(f"{base_url}/t/*")
    return page.url.rsplit("/", 1)[-1]


def tap_in(page, player: str, counter: str, sign: str) -> None:
    page.locator(f'article[data-player="{player}"] .counter:has([data-counter="{counter}"]) .grid2 button.{sign}').click()


def test_two_phones_play_a_declared_game_to_its_end(server, two_phones):
    ann, bo = two_phones
    code = create_through_the_form(ann, server)
    open_seat(ann, server, code, "p1")
    open_seat(bo, server, code, "p2")
    expect(bo.locator('article[data-player="p1"] [data-counter="fuel"]')).to_have_text("5")
    ann.get_by_role("button", name="End Ann's turn").click()
    expect(bo.get_by_role("button", name="End Bo's turn")).to_be_visible(timeout=SYNC_MS)
    bo.get_by_role("button", name="End Bo's turn").click()
    expect(ann.locator('[data-shared="round"]')).to_have_text("2", timeout=SYNC_MS)
    for _ in range(3):
        tap_in(bo, "p2", "points", "plus")
    expect(bo.locator('article[data-player="p2"] [data-counter="points"]')).to_have_text("3")
    save_screens(bo, "couriers-play")
    for score in range(1, 12):
        tap_in(ann, "p1", "points", "plus")
        expect(ann.locator('article[data-player="p1"] [data-counter="points"]')).to_have_text(str(score))
    tap_in(ann, "p1", "points", "plus")  # Ann delivers her 12th point: the declared end
    for phone in (ann, bo):
        expect(phone.get_by_text("Ann reached 12 Points.")).to_be_visible(timeout=SYNC_MS)
        expect(phone.locator("button.plus")).to_have_count(0)
    standings = [phone.get_by_role("region", name="Final standings").inner_text() for phone in (ann, bo)]
    assert standings[0] == standings[1] and "Ann wins with 12 Points" in standings[0]
    save_screens(ann, "couriers-end")
    status, text = request("GET", f"{server}/t/{code}/export.csv")
    assert status == 200
    last = list(csv.DictReader(io.StringIO(text)))[-1]  # the scores and ranks after the final tap
    assert (last["score Ann"], last["rank Ann"], last["score Bo"], last["rank Bo"]) == ("12", "1", "3", "2")


def test_a_folder_without_a_tracker_stops_serve_with_one_line(tmp_path):
    (tmp_path / "game.yaml").write_text("id: g\nname: G\nplayers: {min: 2, max: 2}\ncolors: [red, blue]\n")
    result = subprocess.run([sys.executable, "-m", "starpnp", "serve", "--game-folder", str(tmp_path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "--game-folder" in result.stderr and "tracker" in result.stderr
    assert result.stderr.count("\n") == 1
