"""A game's own typeface from its fonts/ folder: the PDF embeds it, the SVG carries it so Chromium draws it,
and a character it lacks is a warning naming character, text and face, printed in Lato."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cli_runner import one_line, replace, run
from starpnp_test_support import require_tool

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
# Tomson Talks (Debian's fonts-tomsontalks, SIL Open Font License 1.1; licence beside it): comic lettering
# with 125 characters, so a rules text soon finds one it lacks.
FONT = FIXTURES / "fonts" / "TomsonTalks.ttf"
CARD = 'front: {layout: card, color: "#00695C", icon: parcel}'


def lettered(folder: Path, boxes: str = "{title: {font: Tomson Talks}, text: {font: tomson-talks}}") -> Path:
    game = folder / "couriers"
    shutil.copytree(FIXTURES / "couriers", game)
    (game / "fonts").mkdir()
    shutil.copy(FONT, game / "fonts")
    replace(game / "cards.yaml", CARD, CARD[:-1] + f", boxes: {boxes}}}")
    return game


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("fonts")
    game = lettered(folder)
    result = run("build", game, "--out", folder / "out", "--format", "pdf,svg")
    assert result.returncode == 0 and "warning" not in result.stdout, result.stdout + result.stderr
    return folder / "out" / "couriers"


def test_the_pdf_embeds_a_subset_of_the_games_font(built):
    require_tool("pdffonts", "poppler-utils")
    listing = subprocess.run(["pdffonts", built / "couriers-a4.pdf"], capture_output=True, text=True).stdout
    [row] = [line for line in listing.splitlines() if "TomsonTalks" in line]
    name, kind, _encoding, embedded, subset, *_ = row.split()
    assert re.fullmatch(r"[A-Z]{6}\+TomsonTalks", name) and kind == "TrueType"
    assert (embedded, subset) == ("yes", "yes")


@pytest.mark.browser
def test_the_svg_carries_the_font_and_chromium_draws_it(built, browser):
    [svg] = (built / "svg" / "parcels").glob("ice-crate-front.svg")
    text = svg.read_text()
    assert "@font-face" in text and "font/ttf;base64," in text and "font-family=\"'Tomson Talks', Lato" in text
    without = text.replace("'Tomson Talks', ", "")  # the same face as a viewer without the font would draw it
    page = browser.new_page(viewport={"width": 300, "height": 420})
    try:
        shots, loaded = [], []
        for markup in (text, without):
            page.set_content(f"<body style='margin:0'>{markup.split('?>', 1)[-1]}</body>")
            page.evaluate("document.fonts.ready")
            loaded.append(page.evaluate("[...document.fonts].filter(f => f.status == 'loaded').map(f => f.family)"))
            shots.append(page.screenshot(clip={"x": 0, "y": 0, "width": 240, "height": 60}))
    finally:
        page.close()
    assert loaded == [['"Tomson Talks"'], []] or loaded == [["Tomson Talks"], []], loaded
    assert shots[0] != shots[1]


def test_a_character_the_font_lacks_is_a_warning_and_prints_in_lato(tmp_path):
    game = lettered(tmp_path)
    replace(game / "parcels.csv", "Ice Crate", "Ice Crate #2")  # '#' is not in Tomson Talks
    result = run("check", game)
    assert result.returncode == 0, result.stderr
    assert re.search(r"title: Tomson Talks Regular has no '#' \(U\+0023\) for 'Ice Crate #2'; printed in Lato",
                     result.stdout + result.stderr), result.stdout + result.stderr
    from starpnp.generator.look import fonts
    from starpnp.generator.look.gamefonts import game_fonts

    registered = game_fonts((game,))["tomsontalks"]
    assert fonts.runs("Crate #2", registered) == ((registered, "Crate "), ("Lato-Regular", "#"), (registered, "2"))


def test_an_unknown_font_name_is_a_warning_naming_the_folders_fonts(tmp_path):
    game = lettered(tmp_path, "{title: {font: Bangers}}")
    result = run("check", game)
    assert "title: font 'Bangers' is neither Lato nor a font in fonts/ (Tomson Talks Regular); printed in Lato" \
        in result.stdout + result.stderr, result.stdout + result.stderr


def test_a_font_file_that_is_not_a_font_or_leads_out_is_refused_in_one_line(tmp_path):
    from starpnp.generator.data.yamlio import DataErrors
    from starpnp.generator.look.loader import load_game

    game = lettered(tmp_path)
    (game / "fonts" / "Broken.ttf").write_bytes(b"not a font at all")
    one_line(run("check", game), "Broken.ttf: not a font ReportLab can embed")
    (game / "fonts" / "Broken.ttf").unlink()
    outside = tmp_path / "Elsewhere.ttf"
    shutil.copy(FONT, outside)
    (game / "fonts" / "Elsewhere.ttf").symlink_to(outside)
    with pytest.raises(DataErrors) as caught:
        load_game(game)
    assert caught.value.errors == [f"{game / 'fonts' / 'Elsewhere.ttf'}: a font must be a file inside the game's "
                                   f"folder (no absolute path, .. or link leading out)"]


def test_an_otf_family_embeds_and_bold_takes_its_bold_face(tmp_path):
    """Comic Neue (Debian's fonts-comic-neue, SIL Open Font License 1.1): PostScript-outline .otf files,
    Regular and Bold."""
    require_tool("pdffonts", "poppler-utils")
    game = tmp_path / "couriers"
    shutil.copytree(FIXTURES / "couriers", game)
    (game / "fonts").mkdir()
    for face in ("Regular", "Bold"):
        shutil.copy(FIXTURES / "fonts" / f"ComicNeue-{face}.otf", game / "fonts")
    replace(game / "cards.yaml", CARD, CARD[:-1] + ", boxes: {text: {font: Comic Neue}}}")
    out = tmp_path / "out"

    def embedded() -> set[str]:
        result = run("build", game, "--out", out, "--format", "pdf")
        assert result.returncode == 0 and "warning" not in result.stdout, result.stdout + result.stderr
        listing = subprocess.run(["pdffonts", out / "couriers" / "couriers-a4.pdf"], capture_output=True,
                                 text=True).stdout
        return {line.split()[0].split("+")[-1] for line in listing.splitlines()[2:]}

    assert {"ComicNeue-Regular"} <= embedded() and "ComicNeue-Bold" not in embedded()
    replace(game / "parcels.csv", "Deliver to any ice moon", "**Deliver** to any ice moon")
    assert {"ComicNeue-Regular", "ComicNeue-Bold"} <= embedded()


def test_png_and_tabletop_images_draw_the_face_in_the_games_font(tmp_path):
    """PNG and Tabletop Simulator images are the face's own PDF rasterised: the same embedded font."""
    from starpnp.generator.exports.face_files import render_face
    from starpnp.generator.look.loader import load_game
    from starpnp.generator.look.render import SceneCache, faces

    def first_card(folder: Path):
        [face, *_] = [f for f in faces(load_game(folder), SceneCache(0.0, folder)) if f.component == "parcels"]
        return render_face(face.front, 100)

    lettered_card, lato_card = first_card(lettered(tmp_path)), first_card(FIXTURES / "couriers")
    assert lettered_card.size == lato_card.size
    assert lettered_card.tobytes() != lato_card.tobytes()
    top = (0, 0, lato_card.width, lato_card.height // 8)  # the title band; the art and icons are alike
    assert lettered_card.crop(top).tobytes() != lato_card.crop(top).tobytes()
