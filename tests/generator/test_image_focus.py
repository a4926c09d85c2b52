"""An image box's focus: the point of a picture `cover` keeps in view, drawn alike by the PDF and the SVG."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pypdfium2
from PIL import Image

from pdf_probe import scene_pdf
from starpnp.generator.look.loader import load_game
from starpnp.generator.look.render import SceneCache
from starpnp.generator.sheets.svg import scene_to_svg

RED, BLUE = (220, 30, 30), (30, 30, 220)
LAYOUT = ("fields: {}\nboxes:\n  band: {kind: image, src: \"'art/tall.png'\", x: 0, y: 0, w: 40, h: 20%s}\n")


TALL_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 80"><rect width="20" height="40" fill="#DC1E1E"/>'
            '<rect y="40" width="20" height="40" fill="#1E1EDC"/></svg>')


def game(folder: Path, focus: str = "") -> Path:
    """A 40 × 40 mm tile whose top half shows a tall picture, red above and blue below: `cover` crops the
    picture to a 2:1 band, so which colour shows is the focus's doing."""
    (folder / "art").mkdir(parents=True)
    tall = Image.new("RGB", (20, 80), RED)
    tall.paste(BLUE, (0, 40, 20, 80))
    tall.save(folder / "art" / "tall.png")
    (folder / "art" / "tall.svg").write_text(TALL_SVG)
    (folder / "layouts").mkdir()
    (folder / "layouts" / "band.yaml").write_text(LAYOUT % focus)
    (folder / "game.yaml").write_text("id: band\nname: Band\nplayers: {min: 1, max: 2}\ncolors: [red]\n")
    (folder / "tiles.yaml").write_text("components:\n  - {id: tile, name: Tile, kind: tile, size: [40, 40], "
                                       "front: {layout: band}, items: [{count: 1}]}\n")
    return folder


def scene_of(folder: Path):
    loaded = load_game(folder, frozenset(), False, items=False)
    comp = loaded.components[0]
    scene, ctx = SceneCache(0.0, folder).sketch(comp, comp.pieces[0], "front")
    assert ctx.warnings == []
    return scene


def band_colour(scene) -> tuple[int, int, int]:
    """The colour the PDF shows in the middle of the band, rendered by PDFium."""
    page = pypdfium2.PdfDocument(scene_pdf(scene))[0]
    picture = page.render(scale=4).to_pil().convert("RGB")
    return picture.getpixel((picture.width // 2, picture.height // 4))


def svg_image_box(scene) -> tuple[float, ...]:
    found = re.search(r'<image [^>]*height="([\d.-]+)"[^>]*width="([\d.-]+)"[^>]*x="([\d.-]+)"[^>]*y="([\d.-]+)"',
                      scene_to_svg(scene))
    h, w, x, y = map(float, found.groups())
    return x, y, w, h


def near(colour, wanted) -> bool:
    return all(abs(a - b) < 40 for a, b in zip(colour, wanted))


def test_focus_at_the_top_shows_the_top_in_the_pdf_and_the_svg(tmp_path):
    scene = scene_of(game(tmp_path / "top", ", focus: [0.5, 0]"))
    assert near(band_colour(scene), RED)
    assert svg_image_box(scene) == (0.0, 0.0, 40.0, 160.0)  # the picture's top at the band's top


def test_focus_at_the_bottom_shows_the_bottom_in_the_pdf_and_the_svg(tmp_path):
    scene = scene_of(game(tmp_path / "bottom", ", focus: [0.5, 1]"))
    assert near(band_colour(scene), BLUE)
    assert svg_image_box(scene) == (0.0, -140.0, 40.0, 160.0)  # its bottom at the band's bottom (20 mm)


def test_no_focus_crops_evenly_as_before(tmp_path):
    scene = scene_of(game(tmp_path / "centre"))
    assert svg_image_box(scene) == (0.0, -70.0, 40.0, 160.0)


def test_a_focus_that_is_not_two_fractions_skips_the_box_with_one_line(tmp_path):
    folder = game(tmp_path / "bad", ", focus: [2, 0]")
    loaded = load_game(folder, frozenset(), False, items=False)
    comp = loaded.components[0]
    _, ctx = SceneCache(0.0, folder).sketch(comp, comp.pieces[0], "front")
    assert ctx.warnings == ["tiles.yaml:2: tile: #1: front: box band: not drawn: focus is two fractions from 0 to 1, across and down, "
                            "e.g. [0.5, 0.3]; got '[2, 0]'"]


def test_svg_art_takes_its_focus_from_its_own_proportions_in_both_backends(tmp_path):
    folder = game(tmp_path / "svg", ", focus: [0.5, 1]")
    layout = folder / "layouts" / "band.yaml"
    layout.write_text(layout.read_text().replace("tall.png", "tall.svg"))
    scene = scene_of(folder)
    assert near(band_colour(scene), BLUE)
    assert svg_image_box(scene) == (0.0, -140.0, 40.0, 160.0)


def test_a_cards_own_focus_wins_over_the_boxs_in_the_pdf_and_the_svg(tmp_path):
    """The box keeps the top in view; one tile's own `band_focus` keeps the bottom, the other's the box's."""
    folder = game(tmp_path / "own", ", focus: [0.5, 0]")
    tiles = folder / "tiles.yaml"
    tiles.write_text(tiles.read_text().replace("items: [{count: 1}]", "items: [{count: 1, band_focus: [0.5, 1]}, "
                                                                          "{count: 1}]"))
    loaded = load_game(folder, frozenset(), False)
    comp = loaded.components[0]
    cache = SceneCache(0.0, folder)
    own, plain = (cache.sketch(comp, piece, "front")[0] for piece in comp.pieces)
    assert near(band_colour(own), BLUE) and svg_image_box(own) == (0.0, -140.0, 40.0, 160.0)
    assert near(band_colour(plain), RED) and svg_image_box(plain) == (0.0, 0.0, 40.0, 160.0)
