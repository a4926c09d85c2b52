"""Bad data always ends as one line naming the file (and line), exit status 2, never a traceback or a hang:
the causes the mutation fuzzer found, one test each."""
from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from cli_runner import one_line, replace, run


def check_fails(game, *expected: str) -> str:
    return one_line(run("check", game), *expected)


@pytest.mark.parametrize("colour", ["blurple", "#GGG", "#12345"])
def test_a_colour_that_is_not_one_is_refused_by_check(game, colour):
    replace(game / "cards.yaml", "front: {layout: starred_card, color: blue}", f"front: {{layout: starred_card, color: '{colour}'}}")
    check_fails(game, "cards.yaml:6:", "front.color", "expected a colour")


@pytest.mark.parametrize("size", [".nan", ".inf", "-3", "100000"])
def test_sizes_must_be_finite_positive_and_sane(game, size):
    replace(game / "chits.yaml", "size: 20", f"size: {size}")
    check_fails(game, "chits.yaml:", "size")


def test_counts_have_an_upper_bound(game):
    replace(game / "cards.yaml", "{count: 3, title: Attack", "{count: 99999999, title: Attack")
    check_fails(game, "cards.yaml:9:", "count", "must be ≤ 10000")


@pytest.mark.parametrize("option", ["--bleed=nan", "--margin=nan", "--bleed=inf"])
def test_bleed_and_margin_must_be_numbers(game, tmp_path, option):
    result = run("build", game, option, "--out", tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"Invalid value for '{option.split('=')[0]}'" in result.stderr


def test_an_alias_bomb_is_refused_without_expanding_it(game):
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(8))
    (game / "bomb.yaml").write_text(bomb + "components: []\n")
    check_fails(game, "bomb.yaml", "aliases expand")


def test_deep_nesting_is_refused(game):
    (game / "deep.yaml").write_text("components: " + "[" * 500 + "]" * 500 + "\n")
    check_fails(game, "deep.yaml", "nest")


def test_a_list_as_a_key_is_refused_on_its_line(game):
    (game / "keys.yaml").write_text("components:\n  - ? [a, b]\n    : 1\n")
    check_fails(game, "keys.yaml:2:", "a key must be plain text")


def test_invalid_utf8_names_its_line(game):
    (game / "latin.yaml").write_bytes(b"components:\n  # caf\xe9\n")
    check_fails(game, "latin.yaml:2:", "not UTF-8")


def test_a_fifo_named_yaml_does_not_hang(game):
    os.mkfifo(game / "pipe.yaml")
    check_fails(game, "pipe.yaml", "not a regular file")


def test_a_long_value_is_not_echoed_whole(game):
    replace(game / "cards.yaml", "{count: 3, title: Attack", "{count: " + "9" * 5000 + ", title: Attack")
    assert "9" * 100 not in check_fails(game, "cards.yaml")


# ---- a game folder is a sandbox: art comes only from inside it ---------------------------------------------

def art_deck(folder: Path, art: str) -> Path:
    folder.mkdir()
    (folder / "game.yaml").write_text("id: artdeck\nname: Art Deck\nplayers: {min: 1, max: 4}\ncolors: [red]\n")
    (folder / "deck.yaml").write_text("components:\n  - id: deck\n    name: Deck\n    kind: card\n    size: poker\n"
                                      f"    front: {{layout: card, art: '{art}'}}\n    items:\n      - {{title: A}}\n")
    (folder / "art").mkdir()
    return folder


def build_warnings(game: Path, out: Path) -> str:
    result = run("build", game, "--out", out, "--format", "pdf", "--strict")
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    return result.stderr


@pytest.mark.parametrize("how", ["dotdot", "absolute", "symlink"])
def test_art_outside_the_folder_is_refused(tmp_path, how):
    secret = tmp_path / "secret.png"
    Image.new("RGB", (20, 20), "#FF0000").save(secret)
    art = {"dotdot": "../secret.png", "absolute": str(secret), "symlink": "art/link.png"}[how]
    game = art_deck(tmp_path / "game", art)
    (game / "art" / "link.png").symlink_to(secret)
    assert "art must be inside the game's folder" in build_warnings(game, tmp_path / "out")


def test_svg_art_that_points_at_other_files_is_refused(tmp_path):
    game = art_deck(tmp_path / "game", "art/pic.svg")
    (game / "art" / "pic.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                                          '<image href="/etc/hostname" width="10" height="10"/></svg>')
    assert "SVG art may not use other files" in build_warnings(game, tmp_path / "out")


def test_svg_art_with_a_zero_size_is_refused(tmp_path):
    game = art_deck(tmp_path / "game", "art/pic.svg")
    (game / "art" / "pic.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="0" height="10"/>')
    assert "SVG width is '0'" in build_warnings(game, tmp_path / "out")


def test_a_decompression_bomb_is_refused(tmp_path):
    """A tiny PNG whose header claims 100,000 × 100,000 pixels: refused before any pixel is decoded."""
    game = art_deck(tmp_path / "game", "art/bomb.png")
    Image.new("L", (1, 1)).save(game / "art" / "bomb.png")
    data = bytearray((game / "art" / "bomb.png").read_bytes())
    ihdr = data.index(b"IHDR")
    data[ihdr + 4:ihdr + 12] = struct.pack(">II", 100_000, 100_000)
    data[ihdr + 17:ihdr + 21] = struct.pack(">I", zlib.crc32(bytes(data[ihdr:ihdr + 17])))
    (game / "art" / "bomb.png").write_bytes(bytes(data))
    check_fails(game, "deck.yaml:6: components[0].front.art: 'art/bomb.png': too many pixels: more than 178,956,970, "
                      "a decompression bomb; the limit is 25,000,000")


@pytest.fixture(scope="module")
def huge_png() -> bytes:
    """A 12,000 × 12,000 one-bit PNG, all white: made once for the two tests below (Pillow takes seconds)."""
    import io

    png = io.BytesIO()
    Image.new("1", (12_000, 12_000), 1).save(png, "PNG")
    return png.getvalue()


def test_art_with_more_pixels_than_a_face_draws_is_one_line_with_the_numbers(tmp_path, huge_png):
    """A 12,000 × 12,000 one-bit PNG is a 41 KB file, under Pillow's own guard, and 144 Mpx to draw."""
    game = art_deck(tmp_path / "game", "art/big.png")
    (game / "art" / "big.png").write_bytes(huge_png)
    check_fails(game, "deck.yaml:6: components[0].front.art: 'art/big.png': too many pixels: 12,000 × 12,000 = "
                      "144,000,000; the limit is 25,000,000 (5,000 × 5,000")


def test_the_largest_art_a_face_draws_is_accepted_and_one_pixel_more_is_not(tmp_path):
    from starpnp.generator.look.images import art_refused

    (tmp_path / "art").mkdir()
    Image.new("1", (5_000, 5_000)).save(tmp_path / "art" / "largest.png")
    Image.new("1", (5_001, 5_000)).save(tmp_path / "art" / "past.jpg")
    assert art_refused("art/largest.png", [tmp_path]) is None
    assert art_refused("art/past.jpg", [tmp_path]).startswith("too many pixels: 5,001 × 5,000 = 25,005,000; the limit")


def test_a_number_beyond_any_sane_measure_is_refused_on_its_line(game):
    replace(game / "chits.yaml", "      title: Mini board", "      title: Mini board\n      regions:\n"
            "        - {type: track, x: 10, y: 10, cells: 1000000000, cell_w: 10, cell_h: 10}")
    check_fails(game, "chits.yaml:", "regions[0].cells", "1e+09 is beyond")


def test_a_huge_text_size_is_fitted_without_thousands_of_tries(game, tmp_path):
    replace(game / "chits.yaml", "      title: Mini board", "      title: Mini board\n      regions:\n"
            "        - {type: text, x: 10, y: 10, w: 100, h: 20, size: 9999, text: Hello}")
    result = run("build", game, "--out", tmp_path / "out", "--format", "pdf")
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr


def test_an_error_in_overrides_is_blamed_on_the_users_file_and_line(tmp_path):
    folder = tmp_path / "mine"
    assert run("init", "stratastar", folder, "--overrides").returncode == 0
    text = (folder / "overrides.yaml").read_text().replace(
        "components:\n", "components:\n  galaxy_deck:\n    items:\n      Attack: {count: -3}\n", 1)
    (folder / "overrides.yaml").write_text(text)
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "Attack: {count: -3}" in row)
    message = check_fails(folder, f"{folder / 'overrides.yaml'}:{line}: components.galaxy_deck.items.Attack.count")
    assert "components/stratastar" not in message


@pytest.mark.parametrize("faces, expected", [
    ('["pips:7", "1", "2", "3", "4", "5"]', ["faces[0]", "must match", "got 'pips:7'"]),
    ('["1", "2"]', ["faces", "at least 6"]),
])
def test_a_bad_die_face_is_one_line_naming_the_face(game, faces, expected):
    (game / "dice.yaml").write_text("components:\n  - id: dice\n    name: Dice\n    kind: die\n    size: [104, 72]\n"
                                    "    front: {layout: die_net, title: Die}\n    items:\n"
                                    f"      - {{name: A die, faces: {faces}}}\n")
    check_fails(game, "dice.yaml:8:", *expected)


def test_svg_art_embedding_a_picture_of_too_many_pixels_is_one_line(tmp_path, huge_png):
    """The SVG reader draws a PNG or JPEG written inside SVG art (base64): it is measured as a file is."""
    import base64

    game = art_deck(tmp_path / "game", "art/pic.svg")
    (game / "art" / "pic.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image width="10" height="10" '
        f'href="data:image/png;base64,{base64.b64encode(huge_png).decode()}"/></svg>')
    check_fails(game, "deck.yaml:6: components[0].front.art: 'art/pic.svg': SVG art's embedded picture: too many "
                      "pixels: 12,000 × 12,000 = 144,000,000; the limit is 25,000,000")
