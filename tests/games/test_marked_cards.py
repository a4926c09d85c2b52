"""No marked cards: every piece of a deck that is shuffled face down shows the same back, pixel for pixel, and
decks that may share a sheet have the same ground along their cut, so a slightly missed cut never shows one
deck's colour on the edge of another's card. The game's name prints once on a back."""
from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pypdfium2
import pytest

from starpnp.generator.exports.face_files import face_pdf
from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.look.render import SceneCache
from starpnp.generator.look.scene import Scene
from scene_text import printed_texts

GAMES = ["handful_of_stars", "starship_catan", "stars_inc", "stratastar"]
DPI = 60
EDGE_MM = 2.0  # inside the cut: how far a missed cut may show of a neighbour's back


def shuffled_decks(game):
    """Components laid face down at random: one back declared for the whole component, many fronts."""
    return [comp for comp in game.components
            if all(piece.back for piece in comp.pieces)
            and len({(piece.back.layout, piece.back.params.model_dump_json()) for piece in comp.pieces}) == 1
            and len({(piece.front.layout, piece.front.params.model_dump_json()) for piece in comp.pieces}) > 1]


def pixels(scene: Scene):
    buf = io.BytesIO()
    face_pdf([scene], buf)
    page = pypdfium2.PdfDocument(buf.getvalue())[0]
    size = (round(scene.outer_width / 25.4 * DPI), round(scene.outer_height / 25.4 * DPI))
    return page.render(scale=DPI / 72).to_pil().convert("RGB").crop((0, 0, *size))


def backs(game_id: str):
    """{component id: (component, [(piece label, back image, scene)])}, drawing each distinct back scene once."""
    folder = find_game(game_id)
    game = load_game(folder)
    cache, drawn, out = SceneCache(3.0, folder), {}, {}
    for comp in shuffled_decks(game):
        for piece in comp.pieces:
            scene = cache.face(comp, piece, "back")
            key = hashlib.sha1(repr(scene.elements).encode()).hexdigest()
            if key not in drawn:
                drawn[key] = pixels(scene)
            out.setdefault(comp.spec.id, (comp, []))[1].append((f"{piece.name} ({piece.color})" if piece.color else piece.name,
                                             drawn[key], scene))
    return game, out


@pytest.fixture(scope="module", params=GAMES)
def game_backs(request):
    return request.param, *backs(request.param)


def test_every_game_has_a_shuffled_deck(game_backs):
    _, _, decks = game_backs
    assert decks, "no shuffled deck found: the test would check nothing"


def test_every_back_in_a_shuffled_deck_is_identical(game_backs):
    _, _, decks = game_backs
    for comp, faces in decks.values():
        first_name, first, _ = faces[0]
        for name, image, _ in faces[1:]:
            assert image.tobytes() == first.tobytes(), f"{comp.spec.id}: {name} has another back than {first_name}"


def edge_band(image, bleed_mm: float):
    """The image with its middle blanked: what shows along the cut, bleed included."""
    band = round((bleed_mm + EDGE_MM) / 25.4 * DPI)
    copy = image.copy()
    copy.paste((0, 0, 0), (band, band, image.width - band, image.height - band))
    return copy.tobytes()


def test_decks_that_may_share_a_sheet_have_the_same_ground_along_the_cut(game_backs):
    game_id, _, decks = game_backs
    by_size = {}
    for comp, faces in decks.values():
        if comp.spec.kind == "card":
            by_size.setdefault(tuple(comp.spec.size), []).append((comp.spec.id, edge_band(faces[0][1], 3.0)))
    for size, groups in by_size.items():
        first_id, first = groups[0]
        for comp_id, band in groups[1:]:
            assert band == first, f"{game_id}: the {comp_id} backs show another colour at the cut than {first_id}"


def test_the_game_name_prints_once_on_a_back(game_backs):
    game_id, game, decks = game_backs
    name = game.info.name.upper()
    for comp, faces in decks.values():
        if comp.spec.kind != "card":
            continue
        text = " ".join(t for t, _ in printed_texts(faces[0][2].elements)).upper()
        assert text.count(name) == 1, f"{comp.spec.id}: {game.info.name!r} prints {text.count(name)} times: {text!r}"


def test_a_different_back_is_caught():
    """The comparison sees a single tint change on one card."""
    folder = find_game("stratastar")
    game = load_game(folder)
    deck = next(c for c in game.components if c.spec.id == "galaxy_deck")
    cache = SceneCache(3.0, folder)
    scene = cache.face(deck, deck.pieces[0], "back")
    from starpnp.generator.look.scene import Rect, Style
    marked = Scene(scene.width, scene.height, scene.bleed, scene.elements + (Rect(-3, -3, 4, 4, Style(fill="#0B4F4A")),),
                   scene.shape, scene.corner_radius, scene.label)
    assert edge_band(pixels(marked), 3.0) != edge_band(pixels(scene), 3.0)
