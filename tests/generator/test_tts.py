"""`--format tts`: Tabletop Simulator's saved object, read back as Tabletop Simulator would read it."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PIL import Image

from cli_runner import replace, run

MINI = Path(__file__).resolve().parent.parent / "fixtures" / "mini"


@pytest.fixture(scope="module")
def tts(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("tts")
    result = run("build", MINI, "--out", out, "--format", "tts")
    assert result.returncode == 0, result.stderr
    return out / "mini" / "tts"


def local(url: str, folder: Path) -> Path:
    """The file an image address names: a name inside the exported folder, never an absolute path."""
    assert "/" not in url and ":" not in url, url
    return folder / url


def image_urls(saved: dict) -> list[str]:
    """Every image address in a saved object, wherever it sits (decks, cards in them, tiles in bags, boards)."""
    found = []

    def walk(value):
        if isinstance(value, dict):
            for key, child in value.items():
                if key in ("FaceURL", "BackURL", "ImageURL", "ImageSecondaryURL", "MeshURL", "DiffuseURL") and child:
                    found.append(child)
                else:
                    walk(child)
        elif isinstance(value, list):
            for child in value:
                walk(child)
    walk(saved)
    return found


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
    with Image.open(local(sheet["FaceURL"], tts)) as image:
        assert image.mode == "RGB" and max(image.size) <= 4096
        w, h = image.size[0] // 10, image.size[1] // 7
        assert image.size == (w * 10, h * 7)
        assert w / h == pytest.approx(63 / 88, abs=0.01)  # a poker card's trim, no bleed
        used = image.crop((0, 0, w, h)).getcolors(1 << 20)
        empty = image.crop((3 * w, 0, 4 * w, h)).getcolors(1 << 20)
        hidden = image.crop((9 * w, 6 * h, 10 * w, 7 * h))
        assert len(used) > 10 and len(empty) == 1  # slot 0 drawn, slot 3 blank
        assert len(hidden.getcolors(1 << 20)) > 10  # the hidden-card image (the back) is drawn
    with Image.open(local(sheet["BackURL"], tts)) as back:
        assert back.mode == "RGB" and back.width / back.height == pytest.approx(63 / 88, abs=0.01)


def test_chits_become_tiles_in_a_bag_with_both_faces(tts):
    saved = json.loads((tts / "mini.json").read_text())
    bags = [o for o in saved["ObjectStates"] if o["Name"] == "Bag"]
    assert bags
    for bag in bags:
        for tile in bag["ContainedObjects"]:
            assert tile["Name"] == "Custom_Tile"
            assert local(tile["CustomImage"]["ImageURL"], tts).is_file()
            assert local(tile["CustomImage"]["ImageSecondaryURL"], tts).is_file()


def test_the_folder_says_where_to_copy_it(tts):
    text = (tts / "README.txt").read_text()
    assert "Saved Objects" in text and "--tts-url file:///" in text and "Upload All Loaded Files" in text
    assert "--tts-url https://" in text


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
    with Image.open(local(sheet["FaceURL"], out / "tts")) as image:
        # 63 x 88 mm cards at 100 dpi: 248 x 346 px each, ten across and seven down
        assert image.size == (int(63 * 100 / 25.4) * 10, int(88 * 100 / 25.4) * 7)
    bags = {o["Nickname"]: o for o in saved["ObjectStates"] if o["Name"] == "Bag"}
    assert len(bags["Fuel tokens"]["ContainedObjects"]) == 12
    assert len(bags["Courier ships"]["ContainedObjects"]) == 4  # one per player colour


COURIERS = MINI.parent / "couriers"


@pytest.fixture(scope="module")
def couriers_tts(tmp_path_factory) -> Path:
    """Comet Couriers' Tabletop Simulator folder, moved away from where it was built."""
    out = tmp_path_factory.mktemp("couriers")
    result = run("build", COURIERS, "--out", out / "built", "--format", "tts", "--dpi", "72")
    assert result.returncode == 0, result.stderr
    moved = out / "elsewhere" / "table"
    moved.parent.mkdir()
    shutil.move(out / "built" / "couriers" / "tts", moved)
    shutil.rmtree(out / "built")
    return moved


def test_the_moved_folder_still_finds_every_image_and_holds_no_other(couriers_tts):
    saved = json.loads((couriers_tts / "couriers.json").read_text())
    urls = image_urls(saved)
    assert len(urls) > 10
    assert all(local(url, couriers_tts).is_file() for url in urls)
    assert {p.name for p in couriers_tts.glob("*.png")} == set(urls)


def test_the_board_is_a_custom_board(couriers_tts):
    saved = json.loads((couriers_tts / "couriers.json").read_text())
    [board] = [o for o in saved["ObjectStates"] if o["Name"] == "Custom_Board"]
    assert board["Nickname"] == "Comet Couriers · the moons"  # the board's title; not a tile in a bag
    assert all(o.get("Nickname") != "Moon map" for o in saved["ObjectStates"])
    with Image.open(local(board["CustomImage"]["ImageURL"], couriers_tts)) as image:
        assert image.width / image.height == pytest.approx(260 / 180, abs=0.01)


def test_tts_url_makes_every_address_start_with_the_base(tmp_path, couriers_tts):
    base = "https://example.org/comet-couriers/"
    result = run("build", COURIERS, "--out", tmp_path, "--format", "tts", "--dpi", "72", "--tts-url", base)
    assert result.returncode == 0, result.stderr
    hosted = json.loads((tmp_path / "couriers" / "tts-url" / "couriers.json").read_text())
    relative = json.loads((couriers_tts / "couriers.json").read_text())
    urls = image_urls(hosted)
    assert urls == [f"https://example.org/comet-couriers/{name}" for name in image_urls(relative)]
    guide = (tmp_path / "couriers" / "tts-url" / "README.txt").read_text()
    assert f"--tts-url {(tmp_path / 'couriers' / 'tts-url').resolve().as_uri()}" in guide
    bad = run("build", COURIERS, "--out", tmp_path, "--format", "tts", "--tts-url", "javascript:alert(1)")
    assert bad.returncode == 2 and "--tts-url" in bad.stderr and "Traceback" not in bad.stderr


def test_a_tts_url_build_keeps_the_folder_that_travels(tmp_path):
    """One folder per option, as the PDFs keep one file each: the hosted build goes to tts-url/, and the plain
    tts/ (named by file names, to move or zip) stays as it was; its guide points at the -url folder."""
    plain = tmp_path / "couriers" / "tts"
    assert run("build", COURIERS, "--out", tmp_path, "--format", "tts", "--dpi", "72").returncode == 0
    before = {path.name: path.read_bytes() for path in plain.iterdir()}
    result = run("build", COURIERS, "--out", tmp_path, "--format", "tts", "--dpi", "72", "--tts-url",
                 "https://example.org/couriers/")
    assert result.returncode == 0, result.stderr
    assert {path.name: path.read_bytes() for path in plain.iterdir()} == before
    assert all(not url.startswith("https:") for url in image_urls(json.loads((plain / "couriers.json").read_text())))
    assert (tmp_path / "couriers" / "tts-url" / "couriers.json").is_file()
    assert f"--tts-url {(plain.parent / 'tts-url').resolve().as_uri()}" in (plain / "README.txt").read_text()


def test_changing_one_card_renames_exactly_its_sheet(tmp_path, couriers_tts):
    game = tmp_path / "couriers"
    shutil.copytree(COURIERS, game)
    replace(game / "parcels.csv", "Sealed Letter", "Sealed Note")
    result = run("build", game, "--out", tmp_path / "out", "--format", "tts", "--dpi", "72")
    assert result.returncode == 0, result.stderr
    before = {p.name for p in couriers_tts.glob("*.png")}
    after = {p.name for p in (tmp_path / "out" / "couriers" / "tts").glob("*.png")}
    assert len(before - after) == len(after - before) == 1
    [old], [new] = before - after, after - before
    assert old.startswith("parcels-faces-1-") and new.startswith("parcels-faces-1-")


DIE = """
  - id: dice
    name: Courier dice
    kind: die
    size: [104, 72]
    front: {layout: die_net}
    items:
      - {name: Fuel die, title: Fuel die, color: "#FBC02D", faces: ["pips:1", "pips:2", "pips:3", "icon:fuel", "5", "6"]}
"""
# the die_net cells that share a fold line, by index in the faces list: top, left, front, right, back, bottom
FOLDS = [(0, 2), (1, 2), (2, 3), (3, 4), (2, 5)]


def test_a_fold_up_die_is_a_dice_model_folded_from_its_net(tmp_path):
    game = tmp_path / "couriers"
    shutil.copytree(COURIERS, game)
    with (game / "pieces.yaml").open("a") as f:
        f.write(DIE)
    result = run("build", game, "--out", tmp_path / "out", "--format", "tts", "--dpi", "72")
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "out" / "couriers" / "tts"
    saved = json.loads((folder / "couriers.json").read_text())
    assert all(local(url, folder).is_file() for url in image_urls(saved))
    [die] = [o for o in saved["ObjectStates"] if o["Name"] == "Custom_Model"]
    mesh = die["CustomMesh"]
    assert die["Nickname"] == "Fuel die" and mesh["TypeIndex"] == 2  # Tabletop Simulator's dice type
    lines = local(mesh["MeshURL"], folder).read_text().splitlines()
    points = [tuple(map(float, line.split()[1:])) for line in lines if line.startswith("v ")]
    uvs = [tuple(map(float, line.split()[1:])) for line in lines if line.startswith("vt ")]
    faces = [[int(corner.split("/")[0]) - 1 for corner in line.split()[1:]] for line in lines if line.startswith("f ")]
    assert len(faces) == 6 and all(len(face) == 4 for face in faces)
    for face in faces:  # each face winds counter-clockwise seen from outside: its normal points away from the centre
        a, b, c = (points[i] for i in face[:3])
        u, v = [q - p for p, q in zip(a, b)], [q - p for p, q in zip(a, c)]
        normal = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
        centre = [sum(points[i][k] for i in face) / 4 for k in range(3)]
        assert sum(n * c for n, c in zip(normal, centre)) > 0
    for one, other in FOLDS:  # faces joined by a fold share an edge on the cube and the same edge of the image
        shared = {(points[i], uvs[i]) for i in faces[one]} & {(points[i], uvs[i]) for i in faces[other]}
        assert len(shared) == 2, (one, other)
    with Image.open(local(mesh["DiffuseURL"], folder)) as net:
        assert net.width / net.height == pytest.approx(104 / 72, abs=0.01)
        rgb = net.convert("RGB")
        for face in faces:  # just inside each face's upper edge: the die's yellow, not the paper cut away
            us, vs = [uvs[i][0] for i in face], [uvs[i][1] for i in face]
            x = (min(us) + max(us)) / 2 * net.width
            y = (1 - max(vs) + (max(vs) - min(vs)) * 0.03) * net.height
            assert all(abs(p - q) < 40 for p, q in zip(rgb.getpixel((int(x), int(y))), (0xFB, 0xC0, 0x2D)))
