"""The crash causes of issue #28, each on a fresh `starpnp init stratastar` copy: `check` and `build` both
answer with one line naming the file, the field and what is allowed, and exit status 2; a short colour code
is no crash at all but a colour."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pdfplumber
import pytest

from cli_runner import one_line, replace, run
from starpnp.generator.look.layouts.base import text_ground
from starpnp.generator.sheets.pdf import color

HOMEWORLD = "{count: 4, label: Homeworld,"


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("init") / "stratastar"
    result = run("init", "stratastar", folder)
    assert result.returncode == 0, result.stderr
    return folder


@pytest.fixture
def game(fresh, tmp_path) -> Path:
    folder = tmp_path / "mine"
    shutil.copytree(fresh, folder, symlinks=True)
    return folder


def refused(game: Path, tmp_path: Path, *expected: str) -> str:
    """check and build give the same one line, exit status 2; build writes nothing."""
    line = one_line(run("check", game), *expected)
    assert one_line(run("build", game, "--format", "pdf", "--out", tmp_path / "out"), *expected) == line
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))
    return line


def with_art(game: Path, art: str) -> None:
    replace(game / "chits.yaml", HOMEWORLD, f"{HOMEWORLD} art: {art},")


@pytest.mark.parametrize("size", ["0.001", "4.9", "[20, 0.5]", "2001"])
def test_a_piece_size_outside_5_to_2000_mm_is_refused(game, tmp_path, size):
    replace(game / "chits.yaml", "size: 25", f"size: {size}", )
    refused(game, tmp_path, "chits.yaml:5: components[0].size:", "size must be 5 to 2000 mm a side")


def test_a_three_digit_colour_is_the_six_digit_one(game, tmp_path):
    replace(game / "chits.yaml", 'color: "#F2C14E"', 'color: "#F0A"')
    assert run("check", game).returncode == 0
    result = run("build", game, "--format", "pdf", "--out", tmp_path / "out")
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    expected = color(text_ground("#FF00AA")).rgb()
    pdf_path = next((tmp_path / "out").rglob("*.pdf"))
    manifest = json.loads((pdf_path.parent / "manifest.json").read_text())
    (chits,) = [c["pages"] for c in manifest["components"] if c["id"] == "map_chits"]  # the chit's own pages
    with pdfplumber.open(pdf_path, pages=chits) as pdf:
        fills = {tuple(round(c, 3) for c in rect["non_stroking_color"] or ())
                 for page in pdf.pages for rect in page.rects}
    assert tuple(round(c, 3) for c in expected) in fills  # not #000FFA, as ReportLab reads a short code


def test_an_art_name_with_a_nul_byte_is_refused(game, tmp_path):
    with_art(game, '"home\\0.png"')
    refused(game, tmp_path, "chits.yaml:14: components[0].items[0].art:", "may not contain control characters")


def test_an_art_file_that_links_to_itself_is_refused(game, tmp_path):
    (game / "self.png").symlink_to("self.png")
    with_art(game, "self.png")
    refused(game, tmp_path, "chits.yaml:14: components[0].items[0].art: 'self.png':", "leads back to itself")


def test_an_art_name_of_5000_characters_is_refused_not_echoed(game, tmp_path):
    with_art(game, "a" * 5000 + ".png")
    line = refused(game, tmp_path, "chits.yaml:14: components[0].items[0].art:", "at most 255 characters")
    assert "a" * 100 not in line


@pytest.mark.parametrize("svg, expected", [
    ('width="1e30" height="1e30"', "SVG width is '1e30', not a size between 0.01 and 1,000,000"),
    ('width="1e-30" height="10"', "SVG width is '1e-30'"),
    ('viewBox="0 0 0 0"', "SVG viewBox is '0 0 0 0'; it must be four numbers"),
    ('viewBox="0 0 -10 10"', "SVG viewBox is '0 0 -10 10'"),
    ('viewBox="0 0 10"', "SVG viewBox is '0 0 10'"),
    ('width="100%"', "SVG art needs a width and height (not in %) or a viewBox"),
])
def test_svg_art_whose_size_no_page_can_hold_is_refused_with_its_file_named(game, tmp_path, svg, expected):
    (game / "home.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg" {svg}><rect width="5" height="5"/></svg>')
    with_art(game, "home.svg")
    refused(game, tmp_path, "chits.yaml:14: components[0].items[0].art: 'home.svg':", expected)


def test_svg_art_drawing_beyond_any_page_is_refused(game, tmp_path):
    (game / "home.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                   '<path d="M0 0 L1e30 5 Z"/></svg>')
    with_art(game, "home.svg")
    refused(game, tmp_path, "'home.svg': SVG <path d> holds 1e30, beyond ±1,000,000")


def test_an_overrides_file_extending_a_100000_character_name_is_refused(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "overrides.yaml").write_text("extends: " + "x" * 100_000 + "\n")
    line = refused(folder, tmp_path, "overrides.yaml:1: extends:", "not a game or folder")
    assert len(line) < 300


def test_a_game_name_too_long_for_the_file_system_is_named_shortly(tmp_path):
    line = one_line(run("check", "y" * 5000), "not a game or folder")
    assert len(line) < 200


# ---- found by the fuzzer (test_fuzz_properties.py) --------------------------------------------------------

def test_a_layout_that_is_a_mapping_is_refused_on_its_line(game, tmp_path):
    replace(game / "chits.yaml", "layout: chit", "layout: {}")
    refused(game, tmp_path, "chits.yaml:", "layout: unknown layout {}; known:")
