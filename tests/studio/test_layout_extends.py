"""A box's place that a layout takes through `extends` (issue #48): the load records which file gave each of
x, y, w and h, the page says it ("from the builtin layout `card` via extends"), and a move writes over only
the keys it changed, in the layout file the face uses — never in the file it extends."""
from __future__ import annotations

from starpnp.generator.studio import create_app
from starpnp.resources import components_dir


def version(page) -> int:
    return page.get("/news?since=0").json["version"]


def move(page, face: str, box: str, **place):
    drawn = next(b for b in page.get(f"/faces?ids={face}").json["faces"][0]["edit"]["boxes"] if b["name"] == box)
    whole = {key: drawn[key] for key in ("x", "y", "w", "h")} | place
    return page.post("/move", json={"id": face, "box": box, **whole, "version": version(page)})


def placed(page, face: str, box: str) -> str:
    return page.get(f"/boxes?id={face}").json["boxes"][box]["from"]


def test_a_box_the_builtin_layout_places_is_moved_over_in_the_games_own_layout(game, page):
    """deck_card extends our `card` and changes the title's size only: its place is ours, and a move of y
    writes `y` beside `size`, which the page then names as the game's own line."""
    layout = game / "layouts" / "deck_card.yaml"
    before = layout.read_text()
    assert placed(page, "deck.front.1", "title") == "x, y, w and h from the builtin layout `card` via extends"
    assert move(page, "deck.front.1", "title", y=5).status_code == 200
    assert layout.read_text() == before.replace("  title: {size: 14}\n", "  title: {size: 14, y: 5}\n")
    assert page.get("/news?since=0").json["undo"] == (
        "title box of deck_card: y (layouts/deck_card.yaml; y from the builtin layout `card` via extends)")
    line = before.splitlines().index("  title: {size: 14}") + 1
    assert placed(page, "deck.front.1", "title") == (
        f"x, w and h from the builtin layout `card` via extends; y in layouts/deck_card.yaml:{line}")


def test_a_box_another_of_the_games_layouts_places_is_moved_in_the_layout_the_face_uses(game, page):
    """wide_title extends the game's tall_title, which extends ours: the title's height is tall_title's, and
    a move of the height is written in wide_title.yaml, tall_title.yaml (the promo's old layout) untouched."""
    layouts = game / "layouts"
    (layouts / "wide_title.yaml").write_text("extends: tall_title\nboxes:\n  text: {size: 9}\n")
    promo = game / "promo.yaml"
    promo.write_text(promo.read_text().replace("layout: tall_title", "layout: wide_title"))
    tall = (layouts / "tall_title.yaml").read_text()
    page.application.extensions["studio_desk"].load()
    assert placed(page, "promo.front.1", "title") == (
        "x, y and w from the builtin layout `card` via extends; h from this game's layout `tall_title` via extends")
    assert move(page, "promo.front.1", "title", h=14).status_code == 200
    assert (layouts / "wide_title.yaml").read_text() == (
        "extends: tall_title\nboxes:\n  text: {size: 9}\n  title: {h: 14}\n")
    assert (layouts / "tall_title.yaml").read_text() == tall
    assert page.get("/news?since=0").json["undo"].endswith(
        "(layouts/wide_title.yaml; h from this game's layout `tall_title` via extends)")


def test_a_customise_copy_moves_a_box_of_its_games_layout_in_a_layout_of_its_own(tmp_path, as_page):
    """Stratastar's galaxy cards use its galaxy_card layout (extending ours): a copy's move makes the copy's
    own layouts/galaxy_card.yaml, extending Stratastar's, with the one key moved; Stratastar's stays."""
    ours = components_dir() / "stratastar" / "layouts" / "galaxy_card.yaml"
    theirs = ours.read_bytes()
    page = as_page(create_app({"GAME_FOLDER": components_dir() / "stratastar", "OUT": tmp_path / "out",
                               "FOLLOW": False}))
    mine = tmp_path / "mine"
    assert page.post("/customise", json={"folder": str(mine)}).status_code == 200
    assert placed(page, "galaxy_deck.front.1", "title") == "x, y, w and h from the builtin layout `card` via extends"
    assert move(page, "galaxy_deck.front.1", "title", x=9).status_code == 200
    assert (mine / "layouts" / "galaxy_card.yaml").read_text() == "extends: galaxy_card\nboxes:\n  title: {x: 9}\n"
    assert ours.read_bytes() == theirs
    assert placed(page, "galaxy_deck.front.1", "title") == (
        "x in layouts/galaxy_card.yaml:3; y, w and h from the builtin layout `card` via extends")
