"""The studio writes where the load recorded each value came from (issue #48): one count for a card and its
option's variant, as README's Customising section shows it; a face standing for several items alike."""
from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

from PIL import Image
from pypdf import PdfReader

from starpnp.generator.build import BuildOptions, build_game
from starpnp.generator.look.loader import load_game
from starpnp.generator.sheets.imposition import Settings
from starpnp.generator.studio import create_app
from starpnp.resources import components_dir

MM = 72 / 25.4
PLACED = re.compile(rb"/([\w.]+) Do\b")  # a form placed on the page (ReportLab writes each `/NAME Do` so)
README = Path(__file__).resolve().parents[2] / "README.md"


def version(page) -> int:
    return page.get("/news?since=0").json["version"]


def edit(page, face: str, **values):
    return page.post("/edit", json={"id": face, "set": values, "version": version(page)})


def readme_example() -> tuple[int, int]:
    """README's overrides example for Attack: (the count written, the Attack cards it says that gives)."""
    customising = README.read_text().split("### Customising", 1)[1]
    found = re.search(r"Attack: \{count: (\d+)\}\s+# items by name: (\d+) Attack cards", customising)
    assert found, "README's Customising section shows Attack's count and how many cards it makes"
    return int(found[1]), int(found[2])


def cards_titled(pdf: Path, size: tuple[float, float] = (63 + 6, 88 + 6)) -> Counter:
    """How often each card face of `size` (mm, its bleed included) placed more than once is placed in the
    PDF, by the first line of its text (its title)."""
    reader = PdfReader(pdf)
    placed: Counter = Counter()
    for page in reader.pages:
        forms = page["/Resources"].get("/XObject", {})
        uses = Counter("/" + name.decode() for name in PLACED.findall(page.get_contents().get_data()))
        for name, times in uses.items():  # each form's text read once a page, a card's only: reading is slow
            form = forms[name].get_object()
            box = [float(v) / MM for v in form["/BBox"]]
            if (round(box[2] - box[0]), round(box[3] - box[1])) == size:
                placed[page.extract_xform_text(form).split("\n")[0]] += times
    return placed


def test_attack_count_set_in_the_studio_prints_the_cards_readme_says(tmp_path, as_page):
    """Customise Stratastar, set Attack's count as README's example writes it: overrides.yaml holds README's
    very line, and the PDF as many Attack cards as README says."""
    written, cards = readme_example()
    page = as_page(create_app({"GAME_FOLDER": components_dir() / "stratastar", "OUT": tmp_path / "out",
                               "FOLLOW": False}))
    mine = tmp_path / "my-stratastar"
    assert page.post("/customise", json={"folder": str(mine)}).status_code == 200
    face = page.get("/faces?ids=galaxy_deck.front.1").json["faces"][0]
    count = face["edit"]["fields"][0]
    assert face["edit"]["items"] == 1 and count["name"] == "count" and count["value"] == 20 and count["writable"]
    assert edit(page, "galaxy_deck.front.1", count=written).status_code == 200
    assert f"Attack: {{count: {written}}}" in (mine / "overrides.yaml").read_text()
    built = build_game(mine, BuildOptions(Settings(duplex="off"), ("pdf",), out=tmp_path / "built"))
    assert cards_titled(next(p for p in built.files if p.suffix == ".pdf"))["Attack"] == cards


def test_with_the_option_on_the_plain_and_the_starred_face_each_write_their_own_count(tmp_path, as_page):
    """With power_cards on, Attack's 20 are two faces: 16 plain and 4 starred. The plain face's 18 writes the
    item's count (22: its 18 and the starred 4); the starred face's 5 writes how many copies carry the star."""
    page = as_page(create_app({"GAME_FOLDER": components_dir() / "stratastar", "OUT": tmp_path / "out",
                               "FOLLOW": False}))
    mine = tmp_path / "mine"
    assert page.post("/customise", json={"folder": str(mine)}).status_code == 200
    assert page.post("/settings", json={"options": ["power_cards"]}).status_code == 200
    tiles = {t["names"][0]: t for t in page.get("/news?since=0").json["tiles"] if t["side"] == "front"}
    assert tiles["Attack"]["count"] == 16 and tiles["Attack (with power_cards)"]["count"] == 4
    assert edit(page, tiles["Attack"]["id"], count=18).status_code == 200
    assert edit(page, tiles["Attack (with power_cards)"]["id"], count=5).status_code == 200
    overrides = (mine / "overrides.yaml").read_text()
    assert "Attack: {count: 22, with_option: {power_cards: {copies: 5}}}" in overrides, overrides
    deck = next(c for c in load_game(mine, {"power_cards"}).components if c.spec.id == "galaxy_deck")
    assert [(p.name, p.count) for p in deck.pieces[:2]] == [("Attack", 17), ("Attack (with power_cards)", 5)]


def test_a_face_standing_for_several_items_alike_asks_all_or_one_and_says_why_its_count_is_theirs(game, page):
    """Two items written apart but alike on the card are one face: a new title asks whether all of its cards
    take it (then both items do: they stay one face) or one card; the count, each item's own, is read-only
    with one line naming them; never the first item alone."""
    cards = game / "promo.yaml"
    cards.write_text(cards.read_text() + "      - {count: 2, title: Harbour Master General, text: Take the first "
                                          "turn.}\n")
    page.application.extensions["studio_desk"].load()
    edits = page.get("/faces?ids=promo.front.1").json["faces"][0]["edit"]
    count, title = edits["fields"][0], next(f for f in edits["fields"] if f["name"] == "title")
    assert edits["items"] == 2 and not count["writable"] and "several" not in count
    assert count["why"].startswith("this face is 1 Harbour Master General and 2 Harbour Master General, written "
                                   "apart and alike on the card, each with its own count")
    question = ("This face is 3 cards, written as 2 items alike (1 Harbour Master General and 2 Harbour Master "
                "General): change all 3, or only one card, split out as an item of its own?")
    assert title["writable"] and title["several"] == {"cards": 3, "items": 2, "question": question}
    assert title["where"].endswith(" and 1 more")  # which items, the count's line says once
    refused = edit(page, "promo.front.1", count=5)
    assert refused.status_code == 400 and refused.json["readonly"]
    asked = edit(page, "promo.front.1", title="Harbour Pilot")
    assert asked.status_code == 400 and asked.json["several"]["question"] == question
    before = cards.read_text()
    answer = page.post("/edit", json={"id": "promo.front.1", "set": {"title": "Harbour Pilot"}, "cards": "all",
                                      "version": version(page)})
    assert answer.status_code == 200
    assert cards.read_text() == before.replace("title: Harbour Master General,", "title: Harbour Pilot,")


def split(page, face: str, **values):
    return page.post("/edit", json={"id": face, "set": values, "cards": "one", "version": version(page)})


def test_one_card_of_several_items_alike_changes_the_item_of_one_card_alone(game, page):
    """Of 1 + 2 cards alike, "only one card" changes the item that is one card already: no new item."""
    cards = game / "promo.yaml"
    cards.write_text(cards.read_text() + "      - {count: 2, title: Harbour Master General, text: Take the first "
                                          "turn.}\n")
    page.application.extensions["studio_desk"].load()
    before = cards.read_text()
    assert split(page, "promo.front.1", title="Harbour Pilot").status_code == 200
    assert cards.read_text() == before.replace("{count: 1, title: Harbour Master General,",
                                               "{count: 1, title: Harbour Pilot,")
    assert page.get("/news?since=0").json["undo"] == "title of one Harbour Master General card, an item of its own " \
                                                     "(promo.yaml)"


def test_one_card_of_several_items_alike_is_split_out_of_a_yaml_list_in_its_style(game, page):
    """Of 2 + 3 cards alike, one card is split out: the first item is copied right after itself as written
    (a flow item), the copy one card with the new text, the item one card fewer; nothing else changes."""
    cards = game / "promo.yaml"
    cards.write_text(cards.read_text().replace("{count: 1, title: Harbour", "{count: 2, title: Harbour")
                     + "      - {count: 3, title: Harbour Master General, text: Take the first turn.}\n")
    page.application.extensions["studio_desk"].load()
    before = cards.read_text()
    first = "      - {count: 2, title: Harbour Master General, text: Take the first turn.}\n"
    assert first in before
    assert split(page, "promo.front.1", text="Take the last turn.").status_code == 200
    assert cards.read_text() == before.replace(first, first.replace("count: 2", "count: 1") + first.replace(
        "count: 2", "count: 1").replace("Take the first turn.", "Take the last turn."), 1)
    counts = sorted(t["count"] for t in page.get("/news?since=0").json["tiles"]
                    if t["side"] == "front" and t["id"].startswith("promo."))
    assert counts == [1, 4]  # the card split out, and the other four alike


def test_one_card_of_several_rows_alike_is_split_out_of_a_csv_in_its_dialect(game, page):
    """Two rows alike in a semicolon CSV with CRLF line ends: one card split out is a copy of the first row
    right after it, its cells changed, the row's count one less; every other byte as it was."""
    deck = game / "cards.csv"
    rows_before = deck.read_bytes().decode()
    header, first = rows_before.splitlines()[:2]
    assert first.startswith("3,Trade,")
    deck.write_bytes((header + "\r\n" + first + "\r\n" + first.replace("3,Trade,", "2,Trade,", 1) + "\r\n")
                     .replace(",", ";").encode())
    page.application.extensions["studio_desk"].load()
    tile = next(t for t in page.get("/news?since=0").json["tiles"] if t["names"][0] == "Trade" and t["side"] == "front")
    assert tile["count"] == 5
    before = deck.read_bytes()
    assert split(page, tile["id"], title="Barter").status_code == 200
    trade = first.replace(",", ";")
    one = trade.replace("3;Trade;", "1;Barter;", 1)
    rest = before.decode().split("\r\n", 2)[2]  # the second row and the end, as written
    assert deck.read_bytes() == "\r\n".join([header.replace(",", ";"), trade.replace("3;", "2;", 1), one, rest]).encode()


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(out, "PNG")
    return out.getvalue()


def drop(page, face: str, **form):
    return page.post("/art", data={"id": face, "version": str(version(page)),
                                   "file": (io.BytesIO(png()), "harbour.png"), **form})


def test_a_picture_dropped_on_a_face_of_several_items_alike_asks_all_or_one_as_an_edit_does(game, page):
    """A picture on a face of 2 + 3 cards alike: without `cards` the same 400 and question as a field's edit,
    nothing written (no file in art/ either); `one` splits one card out exactly as the edit's split does,
    the copy naming the picture; `all` names it in both items."""
    cards = game / "promo.yaml"
    cards.write_text(cards.read_text().replace("{count: 1, title: Harbour", "{count: 2, title: Harbour")
                     + "      - {count: 3, title: Harbour Master General, text: Take the first turn.}\n")
    page.application.extensions["studio_desk"].load()
    before = cards.read_text()
    art = next(f for f in page.get("/faces?ids=promo.front.1").json["faces"][0]["edit"]["fields"]
               if f["name"] == "art")
    asked = drop(page, "promo.front.1")
    assert asked.status_code == 400 and asked.json["several"] == art["several"]
    assert asked.json["error"] == f"cards: {art['several']['question']} (send cards: all or one)"
    assert edit(page, "promo.front.1", title="x").json == asked.json  # the field edit's very answer
    assert cards.read_text() == before and not (game / "art").exists()
    assert drop(page, "promo.front.1", cards="some").json["error"].startswith("cards: expected all or one")

    assert drop(page, "promo.front.1", cards="one").status_code == 200
    first = "      - {count: 2, title: Harbour Master General, text: Take the first turn.}\n"
    one = first.replace("count: 2", "count: 1")
    assert cards.read_text() == before.replace(first, one + one.replace("turn.}", "turn., art: art/harbour.png}"), 1)
    assert (game / "art" / "harbour.png").read_bytes() == png()
    assert page.get("/news?since=0").json["undo"] == ("art of one Harbour Master General card, an item of its own "
                                                      "(promo.yaml): harbour.png")
    assert page.post("/undo", json={}).status_code == 200
    assert cards.read_text() == before and not (game / "art" / "harbour.png").exists()

    assert drop(page, "promo.front.1", cards="all").status_code == 200
    assert cards.read_text() == before.replace("Take the first turn.}", "Take the first turn., art: art/harbour.png}")


def test_a_value_the_component_gives_every_item_of_a_face_is_written_once_where_the_component_gives_it(game, page):
    """Two items alike on a face whose colour the component gives: a new colour is the component's, written
    once, not a new key on each item."""
    cards = game / "promo.yaml"
    cards.write_text(cards.read_text() + "      - {count: 2, title: Harbour Master General, text: Take the first "
                                          "turn.}\n")
    page.application.extensions["studio_desk"].load()
    color = next(f for f in page.get("/faces?ids=promo.front.1").json["faces"][0]["edit"]["fields"]
                 if f["name"] == "color")
    assert color["writable"] and color["where"] == "promo.yaml:6"
    answer = page.post("/edit", json={"id": "promo.front.1", "set": {"color": "#AD1457"}, "cards": "all",
                                      "version": version(page)})
    assert answer.status_code == 200
    text = cards.read_text()
    assert "front: {layout: tall_title, color: '#AD1457'}" in text and text.count("AD1457") == 1


def test_a_card_left_out_by_remove_does_not_shift_what_overrides_yaml_set_onto_the_next_card(tmp_path, as_page):
    """`remove: [Move]` moves Build and Trade up one place: the count overrides.yaml gives Build stays Build's,
    and a count set on Trade in the page is Trade's own line, not written over Build's."""
    page = as_page(create_app({"GAME_FOLDER": components_dir() / "stratastar", "OUT": tmp_path / "out",
                               "FOLLOW": False}))
    mine = tmp_path / "mine"
    assert page.post("/customise", json={"folder": str(mine)}).status_code == 200
    (mine / "overrides.yaml").write_text("extends: stratastar\ncomponents:\n  galaxy_deck:\n"
                                         "    items:\n      Build: {count: 7}\n    remove: [Move]\n")
    page.application.extensions["studio_desk"].load()
    tiles = {t["names"][0]: t["id"] for t in page.get("/news?since=0").json["tiles"] if t["side"] == "front"}
    assert "Move" not in tiles
    assert edit(page, tiles["Trade"], count=9).status_code == 200
    assert (mine / "overrides.yaml").read_text() == (
        "extends: stratastar\ncomponents:\n  galaxy_deck:\n    items:\n      Build: {count: 7}\n"
        "      Trade: {count: 9}\n    remove: [Move]\n")


def test_a_card_overrides_yaml_adds_is_changed_in_its_own_entry(tmp_path, as_page):
    """A copy of Scout that `add:` brings takes its new title and count in its own entry, so it is named by
    its new title everywhere after (the card list, `remove:`), never through `items:` by a name it had."""
    page = as_page(create_app({"GAME_FOLDER": components_dir() / "stratastar", "OUT": tmp_path / "out",
                               "FOLLOW": False}))
    mine = tmp_path / "mine"
    assert page.post("/customise", json={"folder": str(mine)}).status_code == 200
    start = "extends: stratastar\ncomponents:\n  abilities:\n    add:\n      - {like: Scout, title: Scout 2}\n"
    (mine / "overrides.yaml").write_text(start)
    page.application.extensions["studio_desk"].load()
    news = {t["names"][0]: t for t in page.get("/news?since=0").json["tiles"] if t["side"] == "front"}
    assert news["Scout 2"]["sources"] == ["overrides.yaml:5"]  # where the page says it was written
    tiles = {name: tile["id"] for name, tile in news.items()}
    assert edit(page, tiles["Scout 2"], title="Far Scout").status_code == 200
    assert edit(page, tiles["Scout 2"], count=2).status_code == 200
    assert (mine / "overrides.yaml").read_text() == start.replace("title: Scout 2}", "title: Far Scout, count: 2}")
    deck = next(c for c in load_game(mine).components if c.spec.id == "abilities")
    assert [(p.name, p.count) for p in deck.pieces if "Scout" in p.name] == [("Scout", 1), ("Far Scout", 2)]
