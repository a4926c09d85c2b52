"""The studio writes a face's edits back into the file each value came from: every test compares the file's
bytes before and after and finds only the edited value changed (issue #40)."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from starpnp.generator.look.checks import face_warnings
from starpnp.generator.look.loader import load_game
from starpnp.generator.data.yamlio import DataErrors
from starpnp.generator.studio import create_app


def version(page) -> int:
    return page.get("/news?since=0").json["version"]


def edit(page, face: str, **values):
    return page.post("/edit", json={"id": face, "set": values, "version": version(page)})


def face_edit(page, face: str) -> dict:
    return page.get(f"/faces?ids={face}").json["faces"][0]["edit"]


CARDS = "count,title,type,cost,value,text,color\n"


def test_a_count_a_title_and_a_colour_change_only_their_cells(game, page):
    cards = game / "cards.csv"
    before = cards.read_bytes()
    answer = edit(page, "deck.front.1", count="4", title="Trade, again", color="#AD1457")
    assert answer.status_code == 200, answer.json
    assert cards.read_bytes() == before.replace(
        b"3,Trade,Action,1,1,Swap one of your coins for a coin of another player's colour.,\n",
        b'4,"Trade, again",Action,1,1,Swap one of your coins for a coin of another player\'s colour.,#AD1457\n')
    assert answer.json["version"] == version(page)
    face = page.get("/faces?ids=deck.front.1").json["faces"][0]
    assert "Trade, again" in face["svg"]
    assert {f["name"]: f["value"] for f in face["edit"]["fields"]}["count"] == 4


def test_a_spreadsheet_keeps_its_bom_delimiter_quoting_and_line_ends(game, page, app):
    cards = game / "cards.csv"
    rows = cards.read_text().replace(",", ";").replace('"Pay 1 {coin}: look at the top two cards of the deck; keep one '
                                                       'and put the other at the bottom."', "Look.")
    written = ("\ufeff" + rows.replace("\n", "\r\n").replace("3;Trade;", '3;"Trade";')).encode()
    cards.write_bytes(written)
    app.extensions["studio_desk"].load()
    assert edit(page, "deck.front.1", title="Barter; then trade").status_code == 200
    assert cards.read_bytes() == written.replace(b'3;"Trade";', b'3;"Barter; then trade";')
    assert edit(page, "deck.front.2", text="Look at the top card.").status_code == 200
    assert cards.read_bytes().count(b"\r\n") == written.count(b"\r\n") and cards.read_bytes().startswith(b"\xef\xbb\xbf")


def test_a_yaml_item_changes_in_place_and_a_new_key_joins_its_mapping(game, page):
    counters = game / "counters.yaml"
    before = counters.read_bytes()
    assert edit(page, "coins.front.1", count=24, label="Gold", color="#FFB300").status_code == 200
    assert counters.read_bytes() == before.replace(b"      - {count: 20}",
                                                   b'      - {count: 24, color: "#FFB300", label: Gold}')


BLOCK = """# Event cards, kept by hand.
components:
  - id: events
    name: Events
    kind: card
    size: poker
    front: {layout: card, color: "#37474F"}
    items:
      - name: Storm     # the first
        count: 2
        title: "Storm at sea"

        text: 'Lose a turn.'
      - name: Calm
        title: Calm
"""


def test_a_block_item_keeps_its_comments_quotes_and_blank_lines(game, page, app):
    (game / "events.yaml").write_text(BLOCK)
    app.extensions["studio_desk"].load()
    ids = [t["id"] for t in page.get("/news?since=0").json["tiles"] if t["component"] == "events"]
    assert edit(page, ids[0], title="Storm: at sea", text="Lose a turn, then draw.", count=3).status_code == 200
    assert (game / "events.yaml").read_text() == BLOCK.replace('"Storm at sea"', '"Storm: at sea"').replace(
        "'Lose a turn.'", "'Lose a turn, then draw.'").replace("count: 2", "count: 3")
    assert edit(page, ids[1], cost="2").status_code == 200
    assert (game / "events.yaml").read_text().endswith("      - name: Calm\n        title: Calm\n        cost: \"2\"\n")


def test_a_value_the_loader_refuses_is_its_check_line_and_nothing_is_written(game, page, tmp_path):
    cards = game / "cards.csv"
    before = cards.read_bytes()
    answer = edit(page, "deck.front.1", count="x")
    assert answer.status_code == 400 and cards.read_bytes() == before
    cards.write_bytes(before.replace(b"3,Trade", b"x,Trade"))
    with pytest.raises(DataErrors) as refused:
        load_game(game)
    assert answer.json["error"] == refused.value.errors[0]
    assert edit(page, "deck.front.1", shape="round").json["error"].startswith("set.shape: this face has no such field")


def test_undo_and_redo_restore_the_exact_bytes_and_refuse_after_a_save(game, page):
    cards, counters = game / "cards.csv", game / "counters.yaml"
    original, chits = cards.read_bytes(), counters.read_bytes()
    edit(page, "deck.front.1", title="Barter")
    edited = cards.read_bytes()
    edit(page, "coins.front.1", count=21)
    assert page.get("/news?since=0").json["undo"].startswith("count of")
    assert page.post("/undo", json={}).status_code == 200 and counters.read_bytes() == chits
    assert page.post("/undo", json={}).status_code == 200 and cards.read_bytes() == original
    assert page.post("/undo", json={}).json["error"] == "nothing to undo"
    assert page.post("/redo", json={}).status_code == 200 and cards.read_bytes() == edited
    cards.write_bytes(edited + b"1,Lighthouse,Event,1,1,Look out.,\n")  # the designer saves in their editor
    answer = page.post("/undo", json={})
    assert answer.status_code == 409 and cards.read_bytes().endswith(b"Look out.,\n")


def test_a_stale_version_is_refused_with_the_file_s_state_and_the_edit(game, page, app):
    cards = game / "cards.csv"
    seen = version(page)
    saved = cards.read_bytes().replace(b"3,Trade", b"5,Trade")
    cards.write_bytes(saved)  # saved in an editor; the page has not heard of it yet
    body = {"id": "deck.front.1", "set": {"title": "Barter"}, "version": seen}
    answer = page.post("/edit", json=body)
    assert answer.status_code == 409 and cards.read_bytes() == saved
    assert answer.json["edit"] == body and answer.json["current"] == {"title": "Trade"}
    assert answer.json["version"] > seen and "cards.csv changed on disk" in answer.json["error"]
    again = page.post("/edit", json={**body, "version": answer.json["version"]})  # the one click re-applying it
    assert again.status_code == 200 and cards.read_bytes() == saved.replace(b"5,Trade", b"5,Barter")


def test_an_edit_without_the_page_s_token_is_a_403_and_writes_nothing(game, app):
    before = (game / "cards.csv").read_bytes()
    client = app.test_client()
    answer = client.post("/edit", json={"id": "deck.front.1", "set": {"title": "X"}, "version": 1},
                         headers={"Origin": "http://localhost"})
    assert answer.status_code == 403 and (game / "cards.csv").read_bytes() == before


def test_a_field_a_spreadsheet_has_no_column_for_says_so(game, page):
    fields = {f["name"]: f for f in face_edit(page, "deck.front.1")["fields"]}
    assert fields["title"]["writable"] and fields["title"]["where"] == "cards.csv:2, column title"
    assert not fields["icon"]["writable"] and fields["icon"]["why"].startswith("cards.csv has no icon column")
    answer = edit(page, "deck.front.1", icon="coin")
    assert answer.status_code == 400 and answer.json["readonly"]


def test_a_workbook_backed_face_says_which_file_and_cell_to_change(game, app, page):
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "Cards"
    for row in ([c for c in CARDS.strip().split(",")], [2, "Sail", "Action", 1, 1, "Move two spaces.", None]):
        sheet.append(row)
    book.save(game / "cards.xlsx")
    (game / "cards.yaml").write_text((game / "cards.yaml").read_text().replace("items: cards.csv", "items: cards.xlsx"))
    app.extensions["studio_desk"].load()
    fields = {f["name"]: f for f in face_edit(page, "deck.front.1")["fields"]}
    assert not fields["title"]["writable"]
    assert fields["title"]["why"].startswith("cards.xlsx, sheet Cards, cell B2 (title): change it there and save")
    assert fields["icon"]["why"].startswith("cards.xlsx, sheet Cards, row 2, a new column icon: change it there")
    before = (game / "cards.xlsx").read_bytes()
    answer = edit(page, "deck.front.1", title="Row")
    assert answer.status_code == 400 and answer.json["readonly"] and (game / "cards.xlsx").read_bytes() == before


def test_moving_a_box_writes_only_its_keys_into_the_game_s_layout(game, page):
    layout = game / "layouts" / "deck_card.yaml"
    before = layout.read_text()
    title = next(b for b in face_edit(page, "deck.front.1")["boxes"] if b["name"] == "title")
    answer = page.post("/move", json={"id": "deck.front.1", "box": "title", "x": 4.04, "y": 5, "w": 50.5,
                                      "h": title["h"], "version": version(page)})
    assert answer.status_code == 200, answer.json
    assert layout.read_text() == before.replace("title: {size: 14}", "title: {size: 14, x: 4.04, y: 5, w: 50.5}")
    moved = next(b for b in face_edit(page, "deck.front.1")["boxes"] if b["name"] == "title")
    assert (moved["x"], moved["y"], moved["w"], moved["h"]) == (4.04, 5, 50.5, title["h"])


def test_a_box_of_a_built_in_layout_goes_into_a_layout_of_the_game_s_own_that_extends_it(game, page):
    before = (game / "board.yaml").read_bytes()
    answer = page.post("/move", json={"id": "board.front.1", "box": "title", "x": 7, "y": 8, "w": 200, "h": 12,
                                      "version": version(page)})
    assert answer.status_code == 200, answer.json
    assert (game / "layouts" / "board.yaml").read_text() == "extends: board\nboxes:\n  title: {x: 7, y: 8, w: 200, h: 12}\n"
    assert (game / "board.yaml").read_bytes() == before  # the component still names `board`: now the game's own
    assert page.post("/undo", json={}).status_code == 200 and not (game / "layouts" / "board.yaml").exists()


def test_a_box_outside_the_face_is_refused_before_writing(game, page):
    answer = page.post("/move", json={"id": "board.front.1", "box": "title", "x": 240, "y": 8, "w": 200, "h": 12,
                                      "version": version(page)})
    assert answer.status_code == 400 and not (game / "layouts" / "board.yaml").exists()
    file, _, line = answer.json["error"].partition(": ")
    assert file == "layouts/board.yaml" and line.startswith("box title: x 240, y 8, w 200, h 12 runs outside the face")
    (game / "layouts" / "board.yaml").write_text("extends: board\nboxes:\n  title: {x: 240, y: 8, w: 200, h: 12}\n")
    assert any(warning.endswith(f": front: {line}") for warning in face_warnings(load_game(game), game))  # check's


def png(color: str = "red") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), color).save(out, "PNG")
    return out.getvalue()


def test_an_image_dropped_on_a_face_is_copied_into_art_and_named_by_its_item(game, page):
    promo = game / "promo.yaml"
    before = promo.read_bytes()
    answer = page.post("/art", data={"id": "promo.front.1", "version": str(version(page)),
                                     "file": (io.BytesIO(png()), "../My Harbour!.png")})
    assert answer.status_code == 200, answer.json
    assert (game / "art" / "My-Harbour.png").read_bytes() == png()
    assert promo.read_bytes() == before.replace(b"text: Take the first turn.}",
                                                b"text: Take the first turn., art: art/My-Harbour.png}")
    other = page.post("/art", data={"id": "promo.front.1", "file": (io.BytesIO(png("blue")), "My Harbour.png")})
    assert other.status_code == 200 and (game / "art" / "My-Harbour-2.png").is_file()
    fake = page.post("/art", data={"id": "promo.front.1", "file": (io.BytesIO(b"<html>"), "x.png")})
    assert fake.status_code == 400 and fake.json["error"] == "file: not a PNG, JPEG or SVG image"
    assert page.post("/undo", json={}).status_code == 200 and not (game / "art" / "My-Harbour-2.png").exists()


def test_a_picture_dropped_on_a_card_of_a_list_without_a_picture_column_adds_the_column(game, page):
    """The scaffold's cards.csv has no art column: the header gains one and the card's row its cell, and no
    other line of the file changes (the shorter rows read the new column as empty)."""
    cards = game / "cards.csv"
    before = cards.read_bytes().splitlines(keepends=True)
    row = next(i for i, line in enumerate(before) if line.startswith(b"3,Explore,"))
    answer = page.post("/art", data={"id": "deck.front.2", "version": str(version(page)),
                                     "file": (io.BytesIO(png()), "explore.png")})
    assert answer.status_code == 200, answer.json
    after = cards.read_bytes().splitlines(keepends=True)
    assert after[0] == before[0].rstrip(b"\r\n") + b",art" + before[0][len(before[0].rstrip(b"\r\n")):]
    assert after[row] == before[row].rstrip(b"\r\n") + b",art/explore.png" + before[row][len(before[row].rstrip(b"\r\n")):]
    assert [line for i, line in enumerate(after) if i not in (0, row)] == \
        [line for i, line in enumerate(before) if i not in (0, row)]
    assert page.post("/undo", json={}).status_code == 200 and cards.read_bytes() == b"".join(before)


def test_the_edited_folder_builds_with_its_edits(game, page, tmp_path):
    import pdfplumber

    from starpnp.generator.build import BuildOptions, build_game

    edit(page, "deck.front.1", title="Barter Fair", count=4)
    result = build_game(game, BuildOptions(formats=("pdf",), out=tmp_path / "built"))
    pdf = next(path for path in result.files if path.suffix == ".pdf")
    with pdfplumber.open(pdf) as document:
        text = " ".join(page.extract_text() or "" for page in document.pages)
    assert "Barter" in text and "Trade" not in text  # the title wraps: Barter, then Fair
    assert next(p for c in load_game(game).components if c.spec.id == "deck" for p in c.pieces
                if p.name == "Barter Fair").count == 4


def test_our_own_game_is_read_only_until_customised_and_then_edits_land_in_its_overrides(tmp_path, as_page):
    from starpnp.resources import components_dir
    from starpnp.generator.studio.writes import digest

    ours = components_dir() / "stratastar"
    untouched = {path: digest(path.read_bytes()) for path in ours.rglob("*") if path.is_file()}
    page = as_page(create_app({"GAME_FOLDER": ours, "OUT": tmp_path / "out", "FOLLOW": False}))
    news = page.get("/news?since=0").json
    assert news["folder"]["builtin"] and not news["folder"]["writable"]
    card = next(t for t in news["tiles"] if t["component"] == "galaxy_deck" and t["side"] == "front")
    refused = edit(page, card["id"], count=9)
    assert refused.status_code == 400 and refused.json["readonly"] and "Customise" in refused.json["error"]

    mine = tmp_path / "my stratastar"
    answer = page.post("/customise", json={"folder": str(mine)})
    assert answer.status_code == 200, answer.json
    assert answer.json["folder"] == str(mine) and answer.json["build"] == f"starpnp build '{mine}'"
    news = page.get("/news?since=0").json
    assert news["folder"]["overrides"] and news["folder"]["writable"] and news["folder"]["path"] == str(mine)
    before = (mine / "overrides.yaml").read_text()
    card = next(t for t in news["tiles"] if t["id"] == card["id"])
    name = card["names"][0]
    assert edit(page, card["id"], count=card["count"] + 2).status_code == 200
    art = page.post("/art", data={"id": card["id"], "file": (io.BytesIO(png()), "my card.png")})
    assert art.status_code == 200, art.json
    after = (mine / "overrides.yaml").read_text()
    component = "galaxy_deck"
    own = card["count"] + 2  # Attack is one item, its power-card variant's 4 among its copies: one count
    assert after == before.replace("components:\n", f"components:\n  {component}:\n    items:\n      {name}: "
                                                  f"{{count: {own}, art: art/my-card.png}}\n", 1)
    game = load_game(mine)
    piece = next(p for c in game.components if c.spec.id == component for p in c.pieces if p.name == name)
    assert piece.count == own and piece.front.params.art == "art/my-card.png"
    moved = page.post("/move", json={"id": card["id"], "box": "title", "x": 6, "y": 3.5, "w": 50, "h": 10,
                                     "version": version(page)})
    assert moved.status_code == 200, moved.json  # into a layout of the folder's own, extending our galaxy card
    assert (mine / "layouts" / "galaxy_card.yaml").read_text() == \
        "extends: galaxy_card\nboxes:\n  title: {x: 6, y: 3.5, w: 50, h: 10}\n"
    assert {path: digest(path.read_bytes()) for path in ours.rglob("*") if path.is_file()} == untouched


def test_a_box_a_component_changes_inline_is_moved_there(game, page, app):
    inline = BLOCK.replace('front: {layout: card, color: "#37474F"}',
                           'front: {layout: card, color: "#37474F", boxes: {title: {h: 12}}}')
    (game / "events.yaml").write_text(inline)
    app.extensions["studio_desk"].load()
    face = next(t["id"] for t in page.get("/news?since=0").json["tiles"] if t["component"] == "events")
    answer = page.post("/move", json={"id": face, "box": "title", "x": 6, "y": 4, "w": 50, "h": 12,
                                      "version": version(page)})
    assert answer.status_code == 200, answer.json
    assert (game / "events.yaml").read_text() == inline.replace("boxes: {title: {h: 12}}",
                                                                "boxes: {title: {h: 12, x: 6, y: 4, w: 50}}")
    assert not (game / "layouts" / "card.yaml").exists()


def test_an_art_folder_that_is_a_link_out_of_the_game_is_not_written_through(game, page, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (game / "art").symlink_to(elsewhere)
    answer = page.post("/art", data={"id": "promo.front.1", "file": (io.BytesIO(png()), "x.png")})
    assert answer.status_code == 400 and "inside the game's folder" in answer.json["error"]
    assert list(elsewhere.iterdir()) == []


def test_the_studio_s_own_write_is_not_loaded_again_but_a_save_in_an_editor_is(game, tmp_path, as_page):
    import time

    app = create_app({"GAME_FOLDER": game, "OUT": tmp_path / "out", "FOLLOW": True})
    try:
        page, desk = as_page(app), app.extensions["studio_desk"]
        written = edit(page, "deck.front.1", title="Barter").json["version"]
        time.sleep(0.5)  # five looks of the follower: none of them may load the studio's own write again
        assert desk.version == written
        promo = game / "promo.yaml"
        promo.write_text(promo.read_text().replace("Harbour Master General", "Harbour Master"))
        deadline = time.monotonic() + 10
        while desk.version == written and time.monotonic() < deadline:
            time.sleep(0.05)
        assert desk.version == written + 1 and "Harbour Master" in desk.by_id["promo.front.1"].names
    finally:
        app.extensions["studio_follower"].stop()


def test_an_image_over_the_size_limit_is_refused_in_one_line(game, page):
    from starpnp.generator.studio.writeback import MOST_ART_BYTES

    big = png() + b"\0" * MOST_ART_BYTES
    answer = page.post("/art", data={"id": "promo.front.1", "file": (io.BytesIO(big), "big.png")})
    assert answer.status_code == 413 and answer.json["error"].startswith("file: ") and "at most 20 MiB" in answer.json["error"]
    assert not (game / "art").exists()


def test_a_value_set_to_what_the_file_holds_is_no_step_to_undo(game, page):
    """A field left again with its value unchanged (a blur after a redraw) writes nothing, so Undo still
    takes back the person's last real change."""
    cards = game / "cards.csv"
    before = cards.read_bytes()
    assert edit(page, "deck.front.1", title="Barter").status_code == 200
    changed = cards.read_bytes()
    assert edit(page, "deck.front.1", title="Barter").status_code == 200
    assert cards.read_bytes() == changed
    assert page.post("/undo", json={}).status_code == 200 and cards.read_bytes() == before
    assert page.post("/undo", json={}).status_code == 400  # nothing more to undo
