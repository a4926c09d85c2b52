"""Every write of the studio re-checks where it goes at the moment it writes, and no request is a 500 (issue
#50): a link swapped in between a write and its undo is never written through, a body no JSON reader
expects is a 400 of one line, a full disk a 507 and a read-only folder a 503, the file left whole."""
from __future__ import annotations

import contextlib
import io
import os
import resource
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from PIL import Image

from starpnp.generator.look.loader import load_game
from starpnp.generator.studio import create_app
from starpnp.resources import components_dir


def version(page) -> int:
    return page.get("/news?since=0").json["version"]


def png(color: str = "red", size: tuple[int, int] = (8, 8)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, "PNG")
    return out.getvalue()


def one_line(answer) -> str:
    (line,) = answer.get_json()["error"].splitlines()
    assert "Traceback" not in line and len(line) < 300
    return line


def edit_title(page):
    return page.post("/edit", json={"id": "deck.front.1", "set": {"title": "Barter"}, "version": version(page)})


def move_title(page):
    return page.post("/move", json={"id": "deck.front.1", "box": "title", "x": 4, "y": 5, "w": 50, "h": 9,
                                    "version": version(page)})


def drop_art(page):
    return page.post("/art", data={"id": "promo.front.1", "version": str(version(page)),
                                   "file": (io.BytesIO(png()), "harbour.png")})


# each kind of write, and the file or folder of the game a link to an outside copy is put in place of
WRITES = {"edit": (edit_title, "cards.csv"), "move": (move_title, "layouts"), "art": (drop_art, "art")}


def swap_for_link(game: Path, name: str, outside: Path) -> Path:
    """`game/name` replaced by a link to an outside copy holding the same bytes."""
    copy = outside / name
    if (game / name).is_dir():
        shutil.copytree(game / name, copy)
        shutil.rmtree(game / name)
    else:
        shutil.copy2(game / name, copy)
        (game / name).unlink()
    (game / name).symlink_to(copy)
    return copy


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("kind", list(WRITES))
@pytest.mark.parametrize("then", ["undo", "redo"])
def test_a_link_swapped_in_after_a_write_is_not_written_through_by_undo_or_redo(game, page, tmp_path, kind, then):
    write, swapped = WRITES[kind]
    assert write(page).status_code == 200
    if then == "redo":
        assert page.post("/undo", json={}).status_code == 200
    outside = tmp_path / "outside"
    outside.mkdir()
    copy = swap_for_link(game, swapped, outside)
    held = snapshot(outside)
    answer = page.post(f"/{then}", json={})
    assert answer.status_code == 409 and "no longer a real file inside the folder" in one_line(answer)
    assert snapshot(outside) == held and copy.exists()


@pytest.mark.parametrize("kind", list(WRITES))
def test_a_link_in_place_before_a_write_is_refused_and_nothing_outside_changes(game, page, tmp_path, kind):
    write, swapped = WRITES[kind]
    if not (game / swapped).exists():
        (game / swapped).mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    swap_for_link(game, swapped, outside)
    held = snapshot(outside)
    answer = write(page)
    said = one_line(answer)  # the writer's guard, or the load's before it (a move reads the layouts first)
    assert answer.status_code == 400 and ("reached through no link" in said or "link leading out" in said), said
    assert snapshot(outside) == held


def test_undo_refuses_when_the_file_is_not_what_the_journal_wrote(game, page):
    assert move_title(page).status_code == 200
    layout = game / "layouts" / "deck_card.yaml"
    layout.write_text(layout.read_text() + "# saved in an editor\n")
    answer = page.post("/undo", json={})
    assert answer.status_code == 409 and layout.read_text().endswith("# saved in an editor\n")


def test_a_lone_surrogate_and_a_huge_number_are_one_line_400s(game, page):
    before = snapshot(game)
    answer = page.post("/edit", data='{"id": "deck.front.1", "set": {"title": "a\\ud800b"}, "version": %d}'
                       % version(page), content_type="application/json")
    assert answer.status_code == 400 and "lone surrogate (U+D800)" in one_line(answer)
    answer = page.post("/move", data='{"id": "deck.front.1", "box": "title", "x": 1%s, "y": 5, "w": 50, "h": 9, '
                       '"version": %d}' % ("0" * 400, version(page)), content_type="application/json")
    assert answer.status_code == 400 and one_line(answer).startswith("x: expected a number of mm")
    assert snapshot(game) == before


@pytest.mark.parametrize("folder", ["mine\0x", "/".join(["d"] * 2000), "~nosuchuser/x"])
def test_customise_with_a_path_that_names_no_folder_is_a_400(tmp_path, as_page, folder):
    page = as_page(create_app({"GAME_FOLDER": components_dir() / "stratastar", "OUT": tmp_path / "out",
                               "FOLLOW": False}))
    answer = page.post("/customise", json={"folder": folder})
    assert answer.status_code == 400 and one_line(answer).startswith("folder: ")


@pytest.mark.parametrize("text", ["Port\x85Royal", "Port\u2028Royal", "Port\u2029Royal"])
@pytest.mark.parametrize("face", ["deck.front.1", "promo.front.1"])
def test_a_line_separator_is_kept_as_written_or_refused_never_changed(game, page, text, face):
    answer = page.post("/edit", json={"id": face, "set": {"title": text}, "version": version(page)})
    if answer.status_code == 400:
        one_line(answer)
        return
    assert answer.status_code == 200
    titles = [getattr(p.front.params, "title", None) for c in load_game(game).components for p in c.pieces]
    assert text in titles


@contextlib.contextmanager
def file_size_limit(size: int):
    """Files this process writes may grow to `size` bytes (a disk that fills up): EFBIG past it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


def test_a_full_disk_is_a_507_of_one_line_and_the_file_stays_whole(game, page):
    cards = game / "cards.csv"
    before, seen = cards.read_bytes(), version(page)
    with file_size_limit(len(before)):
        answer = page.post("/edit", json={"id": "deck.front.1", "set": {"title": "A much longer title"},
                                          "version": seen})
    assert answer.status_code == 507 and one_line(answer).startswith("the disk is full")
    assert cards.read_bytes() == before and not list(game.glob(".*.part"))


@contextlib.contextmanager
def read_only(folder: Path):
    """`folder` made read-only: by its mode, or for root (whom modes do not stop) by the immutable flag."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    made = subprocess.run(["chattr", "+i", str(folder)], capture_output=True)
    if made.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail(f"chattr +i: {made.stderr.decode()[:200]}")
        pytest.skip("root on a file system without the immutable flag")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


@pytest.mark.parametrize("kind", ["edit", "art"])
def test_a_read_only_folder_is_a_503_of_one_line_and_the_files_stay_whole(game, page, kind):
    (game / "art").mkdir()
    before = snapshot(game)
    with read_only(game), read_only(game / "art"):
        answer = WRITES[kind][0](page)
    assert answer.status_code == 503 and one_line(answer).startswith("the game's folder cannot be written")
    assert snapshot(game) == before


# -- a move writes what the person moved, as they gave it (issue #48) ------------------------------------------

def title_box(page) -> dict:
    face = page.get("/faces?ids=deck.front.1").json["faces"][0]
    return next(b for b in face["edit"]["boxes"] if b["name"] == "title")


def move_to(page, **place):
    box = {key: title_box(page)[key] for key in ("x", "y", "w", "h")}
    return page.post("/move", json={"id": "deck.front.1", "box": "title", **box, **place, "version": version(page)})


def test_a_move_of_y_alone_writes_only_y_and_keeps_the_millimetres_given(game, page):
    layout = game / "layouts" / "deck_card.yaml"
    layout.write_text(layout.read_text().replace("title: {size: 14}", "title: {size: 14, h: 10.56}"))
    page.application.extensions["studio_desk"].load()
    assert move_to(page, y=7.25).status_code == 200
    assert "title: {size: 14, h: 10.56, y: 7.25}" in layout.read_text()
    assert move_to(page).status_code == 200  # dropped where it is: nothing written, no step
    assert page.get("/news?since=0").json["undo"].startswith("title box of deck_card: y")


def test_a_key_that_follows_an_expression_is_kept_unless_the_person_sets_a_number(game, page):
    layout = game / "layouts" / "deck_card.yaml"
    layout.write_text(layout.read_text().replace("title: {size: 14}", "title: {size: 14, y: inset + 1}"))
    page.application.extensions["studio_desk"].load()
    before = layout.read_text()
    assert move_to(page, h=9.5).status_code == 200  # a resize: y still follows inset
    assert layout.read_text() == before.replace("y: inset + 1}", "y: inset + 1, h: 9.5}")
    asked = move_to(page, y=6)
    assert asked.status_code == 400 and asked.json["expressions"] == {"y": "inset + 1"}
    assert "y follows inset + 1" in one_line(asked) and "y: inset + 1" in layout.read_text()
    box = {key: title_box(page)[key] for key in ("x", "w", "h")}
    chosen = page.post("/move", json={"id": "deck.front.1", "box": "title", **box, "y": 6, "numbers": True,
                                      "version": version(page)})
    assert chosen.status_code == 200 and "title: {size: 14, y: 6, h: 9.5}" in layout.read_text()


# -- two tabs share one journal (issue #48) ----------------------------------------------------------------------

def test_an_edit_over_a_value_another_tab_changed_since_is_a_409_and_undo_says_whose_step_it_takes(game, page):
    cards = game / "cards.csv"
    seen = version(page)  # both tabs show this version

    def edit_in(tab: str, **values):
        return page.post("/edit", json={"id": "deck.front.1", "set": values, "version": seen},
                         headers={"X-Studio-Tab": tab})
    assert edit_in("one", title="Barter").status_code == 200
    written = cards.read_bytes()
    late = edit_in("two", title="Swap")
    assert late.status_code == 409 and cards.read_bytes() == written
    assert one_line(late).startswith("cards.csv:2 was changed in another tab since this page's version")
    assert edit_in("two", count=5).status_code == 200  # another value of that row: no conflict
    assert b"5,Barter," in cards.read_bytes()
    news = page.get("/news?since=0").json
    assert news["undo"].startswith("count of Barter") and news["undo_tab"] == "two"
    undone = page.post("/undo", json={}, headers={"X-Studio-Tab": "one"})
    assert undone.status_code == 200 and undone.json["whose"] == "another tab's"
    assert undone.json["undone"].startswith("count of Barter")
    again = page.post("/undo", json={}, headers={"X-Studio-Tab": "one"}).json
    assert again["whose"] == "this tab's" and again["undone"].startswith("title of Trade")


# -- pictures: a phone's photo fits, a bomb is told by its pixels, the same bytes are kept once (issue #48) ------

def huge_png(width: int, height: int) -> bytes:
    """A PNG's header claiming `width` × `height` pixels, as a decompression bomb's does (no pixels follow)."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))


def post_art(page, data: bytes, name: str):
    return page.post("/art", data={"id": "promo.front.1", "version": str(version(page)),
                                   "file": (io.BytesIO(data), name)})


def test_a_decompression_bomb_is_too_many_pixels_with_the_numbers(game, page):
    answer = post_art(page, huge_png(20_000, 20_000), "bomb.png")
    assert answer.status_code == 400
    assert one_line(answer) == ("file: too many pixels: 400 million, where a picture holds at most 89 million; "
                                "scale it down and drop it again")
    assert not (game / "art").exists()


def test_a_picture_up_to_20_mib_passes_the_request_limit_and_a_bigger_one_is_one_line(game, page):
    from starpnp.generator.studio.writeback import MOST_ART_BYTES

    assert MOST_ART_BYTES == 20 * 1024 * 1024
    answer = post_art(page, png() + b"\0" * (12 * 1024 * 1024), "phone.png")  # over the old 8 MiB line
    assert answer.status_code == 200, answer.json
    answer = post_art(page, png() + b"\0" * MOST_ART_BYTES, "poster.png")
    assert answer.status_code == 413 and "a picture is at most 20 MiB: save it smaller" in one_line(answer)


def phone_photo(size: tuple[int, int] = (4000, 3000)) -> bytes:
    """A JPEG as a phone saves it: turned by its EXIF orientation, with a colour profile."""
    image = Image.linear_gradient("L").resize(size).convert("RGB")
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: turned 90° clockwise to be seen upright
    out = io.BytesIO()
    image.save(out, "JPEG", quality=95, exif=exif, icc_profile=b"not-a-real-profile-but-kept")
    return out.getvalue()


def test_a_phone_photo_is_kept_at_what_its_box_shows_at_600_dpi_with_its_orientation_and_profile(game, page):
    answer = post_art(page, phone_photo(), "phone photo.jpg")
    assert answer.status_code == 200, answer.json
    box = next(b for b in page.get("/faces?ids=promo.front.1").json["faces"][0]["boxes"] if b.get("kind") == "image")
    need = max(box["w"] / 25.4 * 600 / 4000, box["h"] / 25.4 * 600 / 3000)  # cover: no side short of 600 dpi
    kept = game / "art" / "phone-photo.jpg"
    with Image.open(kept) as image:
        assert image.format == "JPEG" and image.size == (round(4000 * need), round(3000 * need))
        assert image.getexif()[0x0112] == 6 and image.info["icc_profile"] == b"not-a-real-profile-but-kept"
    assert kept.stat().st_size < len(phone_photo()) / 3
    assert "kept at" in page.get("/news?since=0").json["undo"]
    # a picture already no larger than its box needs is kept byte for byte
    assert post_art(page, png(size=(300, 200)), "small.png").status_code == 200
    assert (game / "art" / "small.png").read_bytes() == png(size=(300, 200))


def test_the_same_picture_is_kept_once_and_an_undone_upload_s_file_goes(game, page):
    assert post_art(page, png(), "harbour.png").status_code == 200
    assert post_art(page, png(), "Harbour again.png").status_code == 200
    assert sorted(p.name for p in (game / "art").iterdir()) == ["harbour.png"]
    assert post_art(page, png("blue"), "sea.png").status_code == 200
    assert (game / "art" / "sea.png").is_file()
    assert page.post("/undo", json={}).status_code == 200
    assert sorted(p.name for p in (game / "art").iterdir()) == ["harbour.png"]
