"""The card list's endpoints (cardlist.py) without a browser (issue #48): each change is one write of the
list's file, exactly those lines, undone by Undo with a line saying what it took back; a workbook names the
rows and cells to change; another tab's change or an editor's save since the page's version is a 409."""
from __future__ import annotations

import pytest

from starpnp.generator.studio import create_app

TRADE = b"3,Trade,Action,1,1,Swap one of your coins for a coin of another player's colour.,\n"


def version(page) -> int:
    return page.get("/news?since=0").get_json()["version"]


def post(page, action: str, tab: str = "", **body):
    return page.post(f"/cards/{action}", json={"version": version(page), **body}, headers={"X-Studio-Tab": tab})


def test_the_list_shows_every_component_with_its_file_and_rows(page):
    lists = {entry["component"]: entry for entry in page.get("/cards").get_json()["lists"]}
    deck = lists["deck"]
    assert deck["file"] == "cards.csv" and deck["writable"] and deck["columns"][:2] == ["count", "title"]
    assert [row["values"]["title"] for row in deck["rows"]] == ["Trade", "Explore", "Build", "Windfall"]
    assert [row["line"] for row in deck["rows"]] == [2, 3, 4, 5]
    assert lists["promo"]["file"] == "promo.yaml" and lists["promo"]["rows"][0]["values"]["count"] == "1"
    assert page.get("/cards?component=nope").status_code == 404


def test_a_copy_is_one_line_and_undo_says_what_it_takes_back(game, page):
    before = (game / "cards.csv").read_bytes()
    answer = post(page, "copy", component="deck", rows=[0])
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["done"] == "a copy of Trade in Deck (cards.csv)"
    assert (game / "cards.csv").read_bytes() == before.replace(TRADE, TRADE * 2)
    undone = page.post("/undo", json={})
    assert undone.get_json()["undone"] == "a copy of Trade in Deck (cards.csv)"
    assert (game / "cards.csv").read_bytes() == before
    assert page.get("/news?since=0").get_json()["pieces"] == sum(
        p.count for c in page.application.extensions["studio_desk"].game.components for p in c.pieces)


def test_a_file_without_a_final_line_break_keeps_none(game, page):
    cards = game / "cards.csv"
    text = cards.read_bytes().replace(b"\n", b"\r\n").rstrip(b"\r\n")
    cards.write_bytes(text)
    page.application.extensions["studio_desk"].load()
    assert post(page, "add", component="deck", at=4).status_code == 200
    assert cards.read_bytes() == text + b"\r\n1,New card,,,,,"
    assert post(page, "move", component="deck", row=4, to=0).status_code == 200
    rows = cards.read_bytes().split(b"\r\n")
    assert rows[1] == b"1,New card,,,,," and not cards.read_bytes().endswith(b"\n")


def test_a_yaml_list_gets_a_new_item_in_its_own_style(game, page):
    assert post(page, "add", component="promo", at=1).status_code == 200
    assert (game / "promo.yaml").read_text().endswith(
        "      - {count: 1, title: Harbour Master General, text: Take the first turn.}\n"
        "      - {count: 1, title: New card}\n")
    assert post(page, "set", component="promo", rows=[0, 1], column="count", value="2").status_code == 200
    assert (game / "promo.yaml").read_text().count("{count: 2, title:") == 2


def test_another_tab_s_change_or_an_editor_s_save_since_is_a_409(game, page):
    seen = version(page)
    first = page.post("/cards/add", json={"component": "deck", "version": seen, "at": 0}, headers={"X-Studio-Tab": "a"})
    assert first.status_code == 200
    second = page.post("/cards/delete", json={"component": "deck", "version": seen, "rows": [0]},
                       headers={"X-Studio-Tab": "b"})
    assert second.status_code == 409 and "changed in another tab" in second.get_json()["error"]
    (game / "cards.csv").write_bytes((game / "cards.csv").read_bytes() + b"1,Saved,,,,,\n")
    stale = page.post("/cards/delete", json={"component": "deck", "version": version(page), "rows": [0]},
                      headers={"X-Studio-Tab": "a"})
    assert stale.status_code == 409 and "changed on disk" in stale.get_json()["error"]
    assert b"1,Saved" in (game / "cards.csv").read_bytes()


def test_a_workbook_stays_read_only_and_names_the_rows_and_cells(game, app, page):
    from openpyxl import Workbook

    book = Workbook()
    book.active.title = "Cards"
    for row in (["count", "title"], [3, "Trade"], [2, "Build"], [1, "Windfall"]):
        book.active.append(row)
    book.save(game / "cards.xlsx")
    deck = game / "cards.yaml"
    deck.write_text(deck.read_text().replace("items: cards.csv", "items: cards.xlsx"))
    app.extensions["studio_desk"].load()
    (listed,) = page.get("/cards?component=deck").get_json()["lists"]
    assert not listed["writable"] and listed["why"].startswith("cards.xlsx, sheet Cards: the studio does not write")
    assert [row["line"] for row in listed["rows"]] == [2, 3, 4]
    said = {action: post(page, action, component="deck", **body).get_json()["error"] for action, body in (
        ("delete", {"rows": [1]}), ("add", {"at": 1}), ("set", {"rows": [0, 2], "column": "count", "value": 2}),
        ("move", {"row": 2, "to": 0}))}
    assert said["delete"] == ("cards.xlsx, sheet Cards: the studio does not write workbooks: delete row 3 there and "
                              "save; the list shows it at once")
    assert "insert a row after row 2 there" in said["add"]
    assert "set cells A2, A4 (count) there" in said["set"]
    assert "move row 4 to row 2 there" in said["move"]


def test_our_own_game_s_list_is_read_only_until_customised(tmp_path, as_page):
    from starpnp.generator.look.loader import find_game

    page = as_page(create_app({"GAME_FOLDER": find_game("stratastar"), "OUT": tmp_path, "FOLLOW": False}))
    lists = page.get("/cards").get_json()["lists"]
    assert lists and not any(entry["writable"] for entry in lists)
    answer = post(page, "copy", component=lists[0]["component"], rows=[0])
    assert answer.status_code == 400 and answer.get_json()["readonly"] and "Customise" in answer.get_json()["error"]


@pytest.mark.parametrize("body", [{"rows": [9]}, {"rows": []}, {"rows": [0, 1, 2, 3]}, {"rows": "x"}])
def test_a_wrong_choice_of_rows_is_one_line_and_nothing_written(game, page, body):
    before = (game / "cards.csv").read_bytes()
    answer = post(page, "delete", component="deck", **body)
    assert answer.status_code == 400 and len(answer.get_json()["error"].splitlines()) == 1
    assert (game / "cards.csv").read_bytes() == before


def test_a_customise_copy_s_cards_go_to_its_overrides_file(tmp_path, as_page):
    from starpnp.generator.customise import init_folder
    from starpnp.generator.look.loader import find_game

    mine = tmp_path / "my-stratastar"
    init_folder(find_game("stratastar"), mine, as_overrides=True)
    before = (mine / "overrides.yaml").read_text()
    page = as_page(create_app({"GAME_FOLDER": mine, "OUT": tmp_path / "out", "FOLLOW": False}))
    (listed,) = page.get("/cards?component=abilities").get_json()["lists"]
    assert listed["writable"] and listed["file"] == "overrides.yaml"
    titles = [row["values"]["title"] for row in listed["rows"]]
    assert titles[:2] == ["Scout", "Hyper Jump"]
    for action, body in (("copy", {"rows": [0]}), ("delete", {"rows": [1]}), ("move", {"row": 2, "to": 0}),
                         ("set", {"rows": [0], "column": "count", "value": "3"})):
        answer = post(page, action, component="abilities", **body)
        assert answer.status_code == 200, answer.get_json()
    text = (mine / "overrides.yaml").read_text()
    order = ", ".join([titles[3], titles[0], titles[2]] + titles[4:] + ["Scout 2"])
    assert text == before.replace("components:\n", "components:\n  abilities:\n"
                                  "    add: [{like: Scout, title: Scout 2}]\n    remove: [Hyper Jump]\n"
                                  f"    order: [{order}]\n    items:\n      {titles[3]}: {{count: 3}}\n", 1)
    (listed,) = page.get("/cards?component=abilities").get_json()["lists"]
    assert [row["values"]["title"] for row in listed["rows"]][:2] == [titles[3], "Scout"]
    assert listed["rows"][-1]["values"]["title"] == "Scout 2"
    assert page.post("/undo", json={}).get_json()["undone"] == "count = 3 on 1 card of Optional abilities (your copy)"


def test_a_set_on_a_card_a_customise_copy_adds_goes_into_its_add_entry(tmp_path, as_page):
    """All counts to 3 on Scout and the copy `add:` brings: Scout's under its name in `items:`, the copy's in
    its own entry (as an edit in the large view writes it), never `items: {Scout 2: …}`; both print 3."""
    from starpnp.generator.customise import init_folder
    from starpnp.generator.look.loader import find_game, load_game

    mine = tmp_path / "my-stratastar"
    init_folder(find_game("stratastar"), mine, as_overrides=True)
    start = "extends: stratastar\ncomponents:\n  abilities:\n    add:\n      - {like: Scout, title: Scout 2}\n"
    (mine / "overrides.yaml").write_text(start)
    page = as_page(create_app({"GAME_FOLDER": mine, "OUT": tmp_path / "out", "FOLLOW": False}))
    (listed,) = page.get("/cards?component=abilities").get_json()["lists"]
    titles = [row["values"]["title"] for row in listed["rows"]]
    chosen = [titles.index("Scout"), titles.index("Scout 2")]
    answer = post(page, "set", component="abilities", rows=chosen, column="count", value="3")
    assert answer.status_code == 200, answer.get_json()
    assert (mine / "overrides.yaml").read_text() == start.replace(
        "title: Scout 2}\n", "title: Scout 2, count: 3}\n    items:\n      Scout: {count: 3}\n")
    deck = next(c for c in load_game(mine).components if c.spec.id == "abilities")
    assert [(p.name, p.count) for p in deck.pieces if "Scout" in p.name] == [("Scout", 3), ("Scout 2", 3)]
    set_once = (mine / "overrides.yaml").read_text()
    assert post(page, "set", component="abilities", rows=chosen[1:], column="count", value="4").status_code == 200
    assert (mine / "overrides.yaml").read_text() == set_once.replace("Scout 2, count: 3}", "Scout 2, count: 4}")


@pytest.mark.parametrize("action, body", [
    ("move", {"row": 10 ** 400, "to": 0}), ("move", {"row": 0, "to": -(10 ** 400)}), ("add", {"at": 1e308}),
    ("set", {"rows": [0], "column": "title", "value": "a\udc80b"}), ("set", {"rows": [0], "column": "\udc80"}),
    ("copy", {"rows": [[0]]}), ("delete", {"rows": [None]}), ("set", {"rows": [0], "column": "count", "value": {}}),
])
def test_odd_values_are_one_short_line_never_a_500(game, page, action, body):
    before = (game / "cards.csv").read_bytes()
    answer = post(page, action, component="deck", **body)
    assert answer.status_code == 400, answer.get_data(as_text=True)[:300]
    (line,) = answer.get_json()["error"].splitlines()
    assert len(line) < 200
    assert (game / "cards.csv").read_bytes() == before


def test_the_news_names_the_card_added_and_gone_not_the_one_moved_along(page):
    seen = version(page)
    assert post(page, "add", component="deck", at=0).status_code == 200
    news = page.get(f"/news?since={seen}").get_json()
    assert news["added"] == ["Deck, front: New card"] and news["gone"] == []
    seen = version(page)
    assert post(page, "delete", component="deck", rows=[2]).status_code == 200  # Explore
    news = page.get(f"/news?since={seen}").get_json()
    assert news["added"] == [] and news["gone"] == ["Deck, front: Explore"]
