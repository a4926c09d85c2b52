"""Layout mode's writes beyond a move (issue #48): a box added to a face's layout, a box the game's layout
added deleted, a text's font, a picture's fit and focus, and one face as a PNG. Each test diffs the files and
finds exactly the intended lines changed."""
from __future__ import annotations

import difflib
import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from starpnp.generator.studio.boxes import without_key
from starpnp_test_support import examples


def version(page) -> int:
    return page.get("/news?since=0").json["version"]


def diff(before: str, after: str) -> list[str]:
    """The lines taken out (-) and put in (+), as git diff shows them."""
    return [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text() for p in sorted(folder.rglob("*")) if p.is_file()}


def changes(before: dict, after: dict) -> dict[str, list[str]]:
    return {name: diff(before.get(name, ""), after.get(name, "")) for name in sorted({*before, *after})
            if before.get(name) != after.get(name)}


NEW_BOX = {"kind": "text", "name": "motto", "x": 6, "y": 70, "w": 51, "h": 6}


def test_a_text_box_reading_a_new_field_adds_its_lines_and_the_csv_column(game, page):
    before = snapshot(game)
    answer = page.post("/boxes/add", json={"id": "deck.front.1", **NEW_BOX, "field": "motto",
                                          "version": version(page)})
    assert answer.status_code == 200, answer.json
    assert changes(before, snapshot(game)) == {
        "cards.csv": ["-count,title,type,cost,value,text,color", "+count,title,type,cost,value,text,color,motto"],
        "layouts/deck_card.yaml": ["+  motto: {kind: text, when: motto, text: \"{motto}\", x: 6, y: 70, w: 51, h: 6}",
                                   "+fields:", "+  motto: {type: text, default: \"\"}"]}
    boxes = page.get("/boxes?id=deck.front.1").json["boxes"]
    assert boxes["motto"] == {"kind": "text", "own": True, "font": None, "fit": None, "focus": None,
                              "card_focus": None, "from": "x, y, w and h in layouts/deck_card.yaml:11"}
    assert boxes["title"]["own"] is False


def test_a_value_for_this_card_goes_in_its_row_and_the_face_shows_it(game, page):
    cards = game / "cards.csv"
    before = cards.read_text()
    answer = page.post("/boxes/add", json={"id": "deck.front.1", **NEW_BOX, "field": "motto",
                                          "value": "Fair winds", "version": version(page)})
    assert answer.status_code == 200, answer.json
    row = next(line for line in before.splitlines() if line.startswith("3,Trade,"))
    assert diff(before, cards.read_text()) == ["-count,title,type,cost,value,text,color", f"-{row}",
                                               "+count,title,type,cost,value,text,color,motto", f"+{row},Fair winds"]
    assert "Fair winds" in page.get("/faces?ids=deck.front.1").json["faces"][0]["svg"]


def test_a_yaml_item_gets_the_new_fields_key_and_undo_takes_it_all_back(game, page):
    before = snapshot(game)
    answer = page.post("/boxes/add", json={"id": "promo.front.1", **NEW_BOX, "field": "motto", "value": "Ahoy",
                                          "version": version(page)})
    assert answer.status_code == 200, answer.json
    assert changes(before, snapshot(game)) == {
        "layouts/tall_title.yaml": ["+  motto: {kind: text, when: motto, text: \"{motto}\", x: 6, y: 70, w: 51, h: 6}",
                                    "+fields:", "+  motto: {type: text, default: \"\"}"],
        "promo.yaml": ["-      - {count: 1, title: Harbour Master General, text: Take the first turn.}",
                       "+      - {count: 1, title: Harbour Master General, text: Take the first turn., motto: Ahoy}"]}
    assert page.post("/undo", json={"version": version(page)}).status_code == 200
    assert snapshot(game) == before


def test_a_fixed_icon_on_our_own_layout_makes_the_games_file_extending_it(game, page):
    answer = page.post("/boxes/add", json={"id": "coins.front.1", "kind": "icon", "name": "mark", "x": 2, "y": 2,
                                          "w": 4, "h": 4, "value": "coin", "version": version(page)})
    assert answer.status_code == 200, answer.json
    assert (game / "layouts" / "chit.yaml").read_text() == (
        "extends: chit\nboxes:\n  mark: {kind: icon, icon: coin, x: 2, y: 2, w: 4, h: 4}\n")


def test_a_box_ours_is_not_deleted_and_one_the_game_added_is_its_lines_only(game, page):
    refused = page.post("/boxes/delete", json={"id": "deck.front.1", "box": "title", "version": version(page)})
    assert refused.status_code == 400
    assert refused.json["error"] == ("box: title is a box of the layout deck_card as starpnp ships it, not one this "
                                     "game's layout file added, so it is not deleted here")
    layout = game / "layouts" / "deck_card.yaml"
    original = layout.read_text()
    page.post("/boxes/add", json={"id": "deck.front.1", **NEW_BOX, "value": "Fixed words", "version": version(page)})
    added = layout.read_text()
    assert diff(original, added) == ['+  motto: {kind: text, text: Fixed words, x: 6, y: 70, w: 51, h: 6}']
    answer = page.post("/boxes/delete", json={"id": "deck.front.1", "box": "motto", "version": version(page)})
    assert answer.status_code == 200, answer.json
    assert layout.read_text() == original


def test_a_cards_own_focus_goes_on_its_row_and_the_boxs_stays_the_others(game, page):
    """"This card only": the focus is the card's own `art_focus` cell (the header gains the column), the
    layout's box keeps its focus for every other card; a second focus changes the cell alone."""
    deck, layout = game / "cards.csv", game / "layouts" / "deck_card.yaml"
    csv, layout_text = deck.read_text(), layout.read_text()
    answer = page.post("/boxes/style", json={"id": "deck.front.1", "box": "art", "set": {"focus": [0.5, 0.2]},
                                            "card": True, "version": version(page)})
    assert answer.status_code == 200, answer.json
    header, trade = csv.splitlines()[:2]
    assert diff(csv, deck.read_text()) == [f"-{header}", f"-{trade}", f"+{header},art_focus",
                                           f'+{trade},"[0.5, 0.2]"']
    assert layout.read_text() == layout_text
    boxes = page.get("/boxes?id=deck.front.1").json["boxes"]
    assert boxes["art"]["card_focus"] == [0.5, 0.2] and boxes["art"]["focus"] is None
    assert page.get("/boxes?id=deck.front.2").json["boxes"]["art"]["card_focus"] is None
    assert page.get("/news?since=0").json["undo"] == "art focus of Trade alone: 0.5, 0.2 (cards.csv)"
    once = deck.read_text()
    page.post("/boxes/style", json={"id": "deck.front.1", "box": "art", "set": {"focus": [0.5, 0.9]}, "card": True,
                                    "version": version(page)})
    assert diff(once, deck.read_text()) == [f'-{trade},"[0.5, 0.2]"', f'+{trade},"[0.5, 0.9]"']
    refused = page.post("/boxes/style", json={"id": "deck.front.1", "box": "title", "set": {"focus": [0.5, 0.9]},
                                             "card": True, "version": version(page)})
    assert refused.status_code == 400 and refused.json["error"] == "box: the layout deck_card has no picture box 'title'"


def test_a_fonts_and_a_focus_are_written_as_a_person_writes_them(game, page):
    assert "Lato-Black" in page.get("/boxes?id=deck.front.1").json["fonts"]
    layout = game / "layouts" / "deck_card.yaml"
    original = layout.read_text()
    answer = page.post("/boxes/style", json={"id": "deck.front.1", "box": "title", "set": {"font": "Lato-Italic"},
                                            "version": version(page)})
    assert answer.status_code == 200, answer.json
    assert diff(original, layout.read_text()) == ["-  title: {size: 14}", "+  title: {size: 14, font: Lato-Italic}"]
    middle = layout.read_text()
    answer = page.post("/boxes/style", json={"id": "deck.front.1", "box": "art", "set": {"focus": [0.5, 0.25]},
                                            "version": version(page)})
    assert answer.status_code == 200, answer.json
    assert diff(middle, layout.read_text()) == ["+  art: {focus: [0.5, 0.25]}"]
    again = layout.read_text()
    page.post("/boxes/style", json={"id": "deck.front.1", "box": "art", "set": {"focus": [0.5, 0.7]},
                                    "version": version(page)})
    assert diff(again, layout.read_text()) == ["-  art: {focus: [0.5, 0.25]}", "+  art: {focus: [0.5, 0.7]}"]
    refused = page.post("/boxes/style", json={"id": "deck.front.1", "box": "art", "set": {"fit": "contain"},
                                             "version": version(page)})
    assert refused.json["error"] == "fit: the box's fit follows art_fit; change art_fit in the face's fields"
    bad = page.post("/boxes/style", json={"id": "deck.front.1", "box": "title", "set": {"font": "Comic Sans"},
                                         "version": version(page)})
    assert bad.status_code == 400 and bad.json["error"].startswith("font: expected one of Lato-Regular, ")


def test_bad_boxes_are_refused_in_one_line_and_nothing_is_written(game, page):
    before = snapshot(game)
    for asked, said in [({"kind": "video"}, "kind: expected one of text, image, icon"),
                        ({"name": "title"}, "name: the layout deck_card already has a box title; choose another name"),
                        ({"name": "Big Box"}, "name: a box's name is lowercase letters, digits and _, a letter first "
                                              "(title_2)"),
                        ({"x": 200}, "layouts/deck_card.yaml: box motto: x 200, y 70, w 51, h 6 runs outside the "
                                     "face (63 × 88 mm and 3 mm of bleed round it)"),
                        ({}, "value: a box shows a field or a fixed value; give one")]:
        answer = page.post("/boxes/add", json={"id": "deck.front.1", **NEW_BOX, **asked, "version": version(page)})
        assert (answer.status_code, answer.json.get("error")) == (400, said), asked
    assert snapshot(game) == before


def test_one_face_as_a_png_at_the_builds_dpi_named_after_the_card(page):
    answer = page.get("/face.png?id=deck.front.1")
    assert answer.status_code == 200
    assert answer.headers["Content-Disposition"] == 'attachment; filename="harbour_lights-deck-Trade-front.png"'
    with Image.open(io.BytesIO(answer.data)) as picture:
        assert picture.size == (round(69 / 25.4 * 300), round(94 / 25.4 * 300))  # 63 × 88 mm and 3 mm of bleed
        assert round(picture.info["dpi"][0]) == 300
    assert page.get("/face.png?id=nope").status_code == 404


def test_a_players_copy_gets_the_box_in_its_own_layout_and_the_cards_value_in_its_overrides(tmp_path, as_page):
    from starpnp.resources import components_dir
    from starpnp.generator.studio import create_app

    page = as_page(create_app({"GAME_FOLDER": components_dir() / "stratastar", "OUT": tmp_path / "out",
                               "FOLLOW": False}))
    card = next(t for t in page.get("/news?since=0").json["tiles"] if t["component"] == "galaxy_deck")
    refused = page.post("/boxes/add", json={"id": card["id"], **NEW_BOX, "field": "motto", "version": version(page)})
    assert refused.status_code == 400 and "Customise" in refused.json["error"]
    mine = tmp_path / "mine"
    assert page.post("/customise", json={"folder": str(mine)}).status_code == 200
    before = snapshot(mine)
    answer = page.post("/boxes/add", json={"id": card["id"], **NEW_BOX, "field": "motto", "value": "Onward",
                                          "version": version(page)})
    assert answer.status_code == 200, answer.json
    name = card["names"][0]
    assert changes(before, snapshot(mine)) == {
        "layouts/galaxy_card.yaml": ["+extends: galaxy_card", "+boxes:",
                                     '+  motto: {kind: text, when: motto, text: "{motto}", x: 6, y: 70, w: 51, h: 6}',
                                     "+fields:", '+  motto: {type: text, default: ""}'],
        "overrides.yaml": ["+  galaxy_deck:", "+    items:", f"+      {name}: {{motto: Onward}}"]}
    refused = page.post("/boxes/delete", json={"id": card["id"], "box": "title", "version": version(page)})
    assert refused.json["error"] == ("box: title is a box of the layout galaxy_card as the game this folder customises "
                                     "writes it, not one this game's layout file added, so it is not deleted here")


BODY = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                    max_leaves=8)
ASKED = st.fixed_dictionaries({"id": st.sampled_from(["deck.front.1", "coins.front.1"]) | BODY,
                               "version": st.integers(0, 4) | BODY, "kind": st.sampled_from(["text", "icon"]) | BODY,
                               "name": st.sampled_from(["motto", "title"]) | BODY, "box": st.sampled_from(["title", "art"]) | BODY,
                               "field": BODY, "value": BODY, "set": st.fixed_dictionaries({}, optional={
                                   "font": BODY, "fit": BODY, "focus": BODY}) | BODY,
                               "x": BODY, "y": BODY, "w": BODY, "h": BODY})


@settings(max_examples=examples(20), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(["/boxes/add", "/boxes/delete", "/boxes/style"]), sent=BODY | ASKED)
def test_any_json_body_is_answered_in_one_line_never_a_500(page, path, sent):
    answer = page.post(path, json=sent)
    assert answer.status_code in (200, 400, 404, 409), (path, sent, answer.get_data(as_text=True)[:300])
    if answer.status_code >= 400:
        (line,) = answer.get_json()["error"].splitlines()
        assert len(line) < 300


def test_the_box_writes_need_the_pages_token_as_every_write_does(app, game):
    before = snapshot(game)
    stranger = app.test_client()
    stranger.environ_base.update({"HTTP_ORIGIN": "http://localhost"})
    for path in ("/boxes/add", "/boxes/delete", "/boxes/style"):
        answer = stranger.post(path, json={"id": "deck.front.1", **NEW_BOX, "field": "motto", "box": "title",
                                           "set": {"font": "Lato-Bold"}, "version": 1})
        assert answer.status_code == 403, (path, answer.json)
    assert snapshot(game) == before


def test_a_text_box_takes_a_font_of_the_games_own_by_family_and_style(game, page, app):
    from importlib.resources import files

    (game / "fonts").mkdir()
    (game / "fonts" / "House.ttf").write_bytes((files("font_lato") / "files" / "Lato-Bold.ttf").read_bytes())
    app.extensions["studio_desk"].load()
    fonts = page.get("/boxes?id=deck.front.1").json["fonts"]
    assert fonts[:4] == ["Lato-Regular", "Lato-Bold", "Lato-Italic", "Lato-Black"] and fonts[-1] == "Lato Bold"
    layout = game / "layouts" / "deck_card.yaml"
    original = layout.read_text()
    answer = page.post("/boxes/style", json={"id": "deck.front.1", "box": "text", "set": {"font": "Lato Bold"},
                                            "version": version(page)})
    assert answer.status_code == 200, answer.json
    assert diff(original, layout.read_text()) == ["-  text: {size: 10}", "+  text: {size: 10, font: Lato Bold}"]
    assert page.get("/faces?ids=deck.front.1").json["faces"][0]["warnings"] == []


@pytest.mark.parametrize("text, left", [
    ("extends: card\nboxes:\n  title: {size: 14}\n  motto: {kind: text, text: hi, x: 1, y: 1, w: 9, h: 4}  # mine\n"
     "fields:\n  motto: {type: text}\n",
     "extends: card\nboxes:\n  title: {size: 14}\nfields:\n  motto: {type: text}\n"),
    ("boxes:\n  motto:\n    kind: text\n    text: hi\n\n  # the next one\n  other: {kind: text, text: b}\n",
     "boxes:\n\n  # the next one\n  other: {kind: text, text: b}\n"),
    ("boxes: {a: {kind: rect}, motto: {kind: text, text: hi}, b: {kind: rect}}\n",
     "boxes: {a: {kind: rect}, b: {kind: rect}}\n"),
    ("boxes: {motto: {kind: text, text: hi}, b: {kind: rect}}\n", "boxes: {b: {kind: rect}}\n"),
    ("extends: card\r\nboxes:\r\n  motto: {kind: text, text: hi}", "extends: card\r\nboxes:\r\n"),
])
def test_a_box_taken_out_leaves_every_other_character(text, left):
    assert without_key(text, ("boxes", "motto"), "layouts/card.yaml") == left


def test_a_box_reading_a_field_the_layout_has_gives_this_card_its_column_or_key(game, page):
    before = snapshot(game)
    answer = page.post("/boxes/add", json={"id": "deck.front.1", **NEW_BOX, "name": "small_print", "field": "footer",
                                          "value": "Harbour rules", "version": version(page)})
    assert answer.status_code == 200, answer.json
    row = next(line for line in before["cards.csv"].splitlines() if line.startswith("3,Trade,"))
    assert changes(before, snapshot(game)) == {
        "cards.csv": ["-count,title,type,cost,value,text,color", f"-{row}",
                      "+count,title,type,cost,value,text,color,footer", f"+{row},Harbour rules"],
        "layouts/deck_card.yaml": ['+  small_print: {kind: text, when: footer, text: "{footer}", x: 6, y: 70, w: 51, '
                                   'h: 6}']}
    before = snapshot(game)
    answer = page.post("/boxes/add", json={"id": "coins.front.1", "kind": "text", "name": "worth", "x": 2, "y": 2,
                                          "w": 12, "h": 4, "field": "value", "value": "3", "version": version(page)})
    assert answer.status_code == 200, answer.json
    assert changes(before, snapshot(game)) == {
        "counters.yaml": ["-      - {count: 20}", '+      - {count: 20, value: "3"}'],  # text or number, as /edit writes it
        "layouts/chit.yaml": ["+extends: chit", "+boxes:",
                              '+  worth: {kind: text, when: value, text: "{value}", x: 2, y: 2, w: 12, h: 4}']}
