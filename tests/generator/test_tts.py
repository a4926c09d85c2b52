"""`--format tts`: Tabletop Simulator's saved object, read back as Tabletop Simulator would read it."""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import pytest
from PIL import Image

from cli_runner import run

MINI = Path(__file__).resolve().parent.parent / "fixtures" / "mini"


@pytest.fixture(scope="module")
def tts(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("tts")
    result = run("build", MINI, "--out", out, "--format", "tts")
    assert result.returncode == 0, result.stderr
    return out / "mini" / "tts"


def local(url: str) -> Path:
    assert url.startswith("file:///"), url
    return Path(url2pathname(urlparse(url).path))


def test_a_deck_lists_every_card_its_data_counts(tts):
    saved = json.loads((tts / "mini.json").read_text())
    [deck] = [o for o in saved["ObjectStates"] if o["Name"] == "DeckCustom"]
    assert deck["Nickname"] == "Deck"
    # mini's deck: 3 Attack, 2 Move, 1 Mystery
    assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"]) == 6
    [(key, sheet)] = deck["CustomDeck"].items()
    assert (sheet["NumWidth"], sheet["NumHeight"]) == (10, 7)
    slots = [card_id - int(key) * 100 for card_id in deck["DeckIDs"]]
    assert slots == [0, 0, 0, 1, 1, 2]
    names = [card["Nickname"] for card in deck["ContainedObjects"]]
    assert names == ["Attack"] * 3 + ["Move"] * 2 + ["Mystery"]


def test_the_face_sheet_is_a_10_by_7_rgb_grid_within_4096_px_with_the_hidden_card_last(tts):
    saved = json.loads((tts / "mini.json").read_text())
    [deck] = [o for o in saved["ObjectStates"] if o["Name"] == "DeckCustom"]
    [sheet] = deck["CustomDeck"].values()
    with Image.open(local(sheet["FaceURL"])) as image:
        assert image.mode == "RGB" and max(image.size) <= 4096
        w, h = image.size[0] // 10, image.size[1] // 7
        assert image.size == (w * 10, h * 7)
        assert w / h == pytest.approx(63 / 88, abs=0.01)  # a poker card's trim, no bleed
        used = image.crop((0, 0, w, h)).getcolors(1 << 20)
        empty = image.crop((3 * w, 0, 4 * w, h)).getcolors(1 << 20)
        hidden = image.crop((9 * w, 6 * h, 10 * w, 7 * h))
        assert len(used) > 10 and len(empty) == 1  # slot 0 drawn, slot 3 blank
        assert len(hidden.getcolors(1 << 20)) > 10  # the hidden-card image (the back) is drawn
    with Image.open(local(sheet["BackURL"])) as back:
        assert back.mode == "RGB" and back.width / back.height == pytest.approx(63 / 88, abs=0.01)


def test_chits_become_tiles_in_a_bag_with_both_faces(tts):
    saved = json.loads((tts / "mini.json").read_text())
    bags = [o for o in saved["ObjectStates"] if o["Name"] == "Bag"]
    assert bags
    for bag in bags:
        for tile in bag["ContainedObjects"]:
            assert tile["Name"] == "Custom_Tile"
            assert local(tile["CustomImage"]["ImageURL"]).is_file()
            assert local(tile["CustomImage"]["ImageSecondaryURL"]).is_file()


def test_the_folder_says_where_to_copy_it(tts):
    text = (tts / "README.txt").read_text()
    assert "Saved Objects" in text and "file:///" in text


def test_a_designers_game_builds_to_every_format_and_its_deck_counts_equal_the_spreadsheet(tmp_path):
    """Comet Couriers (tests/fixtures/couriers): its own icons, a CSV deck, counters, a board; no Python."""
    import csv

    couriers = MINI.parent / "couriers"
    result = run("build", couriers, "--out", tmp_path, "--format", "pdf,svg,png,tts", "--dpi", "100")
    assert result.returncode == 0 and not result.stderr.strip(), result.stderr
    assert "warning" not in result.stdout, result.stdout  # {fuel} in the spreadsheet's text is its own icon
    out = tmp_path / "couriers"
    assert (out / "couriers-a4.pdf").is_file() and any((out / "svg").rglob("*.svg"))
    assert any((out / "png").rglob("*.png"))
    with (couriers / "parcels.csv").open(newline="") as f:
        counts = [int(row["count"]) for row in csv.DictReader(f)]
    saved = json.loads((out / "tts" / "couriers.json").read_text())
    [deck] = [o for o in saved["ObjectStates"] if o["Name"] == "DeckCustom"]
    assert deck["Nickname"] == "Parcel deck" and len(deck["DeckIDs"]) == sum(counts) == 10
    [(key, sheet)] = deck["CustomDeck"].items()
    assert sorted(set(deck["DeckIDs"])) == [int(key) * 100 + slot for slot in range(len(counts))]
    with Image.open(local(sheet["FaceURL"])) as image:
        # 63 x 88 mm cards at 100 dpi: 248 x 346 px each, ten across and seven down
        assert image.size == (int(63 * 100 / 25.4) * 10, int(88 * 100 / 25.4) * 7)
    bags = {o["Nickname"]: o for o in saved["ObjectStates"] if o["Name"] == "Bag"}
    assert len(bags["Fuel tokens"]["ContainedObjects"]) == 12
    assert len(bags["Courier ships"]["ContainedObjects"]) == 4  # one per player colour
