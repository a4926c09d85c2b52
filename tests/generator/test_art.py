"""User art: PNG and SVG images in art windows, backgrounds and backs, embedded once per file."""
from __future__ import annotations

import json

import os
import shutil
from pathlib import Path

from PIL import Image
from pypdf import PdfReader

from starpnp_test_support import MINI
from pdf_probe import images_of, render
from cli_runner import run

SVG_ART = """<svg xmlns="http://www.w3.org/2000/svg" width="100" height="140" viewBox="0 0 100 140">
<rect width="100" height="140" fill="#0B3D91"/><circle cx="50" cy="70" r="30" fill="#FFD54F"/></svg>"""


def write_big_png(path: Path) -> int:
    """About 2 MB of incompressible pixels, so embedding it twice would show in the file size."""
    side = 820
    Image.frombytes("RGB", (side, side), os.urandom(side * side * 3)).save(path, compress_level=1)
    return path.stat().st_size


def deck_with_art(folder: Path) -> Path:
    folder.mkdir()
    (folder / "game.yaml").write_text("id: artdeck\nname: Art Deck\nplayers: {min: 1, max: 4}\ncolors: [red]\n")
    items = "\n".join(f"      - {{count: 10, title: Card {i}, text: Ten copies of card {i}.}}" for i in range(10))
    (folder / "deck.yaml").write_text(
        "components:\n  - id: deck\n    name: Deck\n    kind: card\n    size: poker\n"
        "    front: {layout: card, art: art/big.png}\n"
        "    back: {layout: card_back, title: Art Deck, background_art: art/pattern.svg}\n"
        "    items:\n" + items + "\n")
    (folder / "art").mkdir()
    return folder


def test_a_hundred_cards_with_one_2mb_image_embed_it_once(tmp_path):
    game = deck_with_art(tmp_path / "artdeck")
    size = write_big_png(game / "art" / "big.png")
    (game / "art" / "pattern.svg").write_text(SVG_ART)
    assert size > 1_900_000
    result = run("build", game, "--out", tmp_path / "out", "--format", "pdf", "--strict")
    assert result.returncode == 0, result.stderr
    pdf = tmp_path / "out" / "artdeck" / "artdeck-a4.pdf"
    reader = PdfReader(pdf)
    assert len(images_of(reader)) == 1
    assert pdf.stat().st_size < 1.5 * size  # one copy of the pixels, not ten or a hundred
    svg_forms = {name for page in reader.pages
                 for name in page["/Resources"].get("/XObject", {}) if name.startswith("/SvgArt")}
    assert len(svg_forms) <= 1  # the SVG background is one form, drawn by reference


def test_svg_art_is_drawn_in_the_pdf(tmp_path):
    """The SVG's yellow disc must be visible on the rendered back sheet."""
    game = deck_with_art(tmp_path / "artdeck")
    (game / "art" / "pattern.svg").write_text(SVG_ART)
    Image.new("RGB", (40, 60), "#2E7D32").save(game / "art" / "big.png")
    assert run("build", game, "--out", tmp_path / "out", "--format", "pdf").returncode == 0
    pdf = tmp_path / "out" / "artdeck" / "artdeck-a4.pdf"
    front_page, back_page = json.loads((tmp_path / "out" / "artdeck" / "manifest.json").read_text())[
        "components"][0]["pages"][:2]  # a sheet of fronts, then its backs
    back = render(pdf, back_page, tmp_path)
    colours = {colour for _, colour in back.getcolors(1 << 16)}
    assert any(r > 230 and 190 < g < 230 and b < 120 for r, g, b in colours), "no SVG yellow on the backs"
    front = render(pdf, front_page, tmp_path)
    assert any(abs(r - 0x2E) < 12 and abs(g - 0x7D) < 12 and abs(b - 0x32) < 12
               for _, (r, g, b) in front.getcolors(1 << 16)), "no PNG green on the fronts"


def test_missing_art_still_builds_the_rest_with_a_placeholder(tmp_path):
    game = tmp_path / "mini"
    shutil.copytree(MINI, game)
    text = (game / "chits.yaml").read_text()
    (game / "chits.yaml").write_text(text.replace("{layout: chit, label: Fleet, icon: fleet}",
                                                  "{layout: chit, label: Fleet, icon: fleet, background_art: gone.svg}"))
    result = run("build", game, "--out", tmp_path / "out", "--format", "pdf,svg")
    assert result.returncode == 0
    assert "chits.yaml:8: fleets: Fleet (red): front: background_art: gone.svg: image file not found" in result.stdout
    assert (tmp_path / "out" / "mini" / "mini-a4.pdf").is_file()
