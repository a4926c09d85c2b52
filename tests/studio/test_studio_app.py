"""The studio's server side without a browser: what a save changes, the banner's line, the switches, the
proof sheet and the build buttons."""
from __future__ import annotations

import subprocess
import sys
import time

import pdfplumber
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from starpnp.generator.studio import create_app
from starpnp.generator.studio.desk import Desk
from starpnp_test_support import examples


@pytest.fixture
def client(game, tmp_path, as_page):
    return as_page(create_app({"GAME_FOLDER": game, "OUT": tmp_path / "out", "FOLLOW": False}))


def versions(desk: Desk) -> dict[str, str]:
    return {tile.id: tile.version for tile in desk.tiles}


def test_one_cell_changes_one_face_and_only_that_face_is_drawn_again(game):
    desk = Desk(game)
    desk.load()
    for tile in desk.tiles:
        desk.face(tile.id)
    before, drawn = versions(desk), desk.drawn
    cards = game / "cards.csv"
    cards.write_text(cards.read_text().replace("Every player takes 2 coins", "Every player takes 3 coins"))
    desk.load()
    after = versions(desk)
    assert [tid for tid in after if after[tid] != before[tid]] == ["deck.front.4"]
    news = desk.news(desk.version - 1)
    assert not news["full"] and [t["id"] for t in news["tiles"]] == ["deck.front.4"]
    for tile in desk.tiles:
        desk.face(tile.id)
    assert desk.drawn == drawn + 1
    assert "3 coins" in desk.face("deck.front.4")["svg"]


def test_a_count_and_a_new_row_show_as_such(game):
    desk = Desk(game)
    desk.load()
    cards = game / "cards.csv"
    cards.write_text(cards.read_text().replace("3,Trade", "4,Trade") + "1,Lighthouse,Event,1,1,Look out.,\n")
    desk.load()
    news = desk.news(desk.version - 1)
    assert news["added"] == ["Deck, front: Lighthouse"] and news["full"]
    assert next(t for t in news["tiles"] if t["id"] == "deck.front.1")["count"] == 4
    cards.write_text(cards.read_text().replace("1,Lighthouse,Event,1,1,Look out.,\n", ""))
    desk.load()
    assert desk.news(desk.version - 1)["gone"] == ["Deck, front: Lighthouse"]


def test_a_broken_save_keeps_the_last_good_faces_and_says_file_line_and_key(game):
    desk = Desk(game)
    desk.load()
    good = versions(desk)
    layout = game / "layouts" / "deck_card.yaml"
    text = layout.read_text()
    layout.write_text(text.replace("text: {size: 10}", "text: {size: [}"))
    desk.load()
    assert desk.error.startswith(f"{layout}:") and versions(desk) == good
    layout.write_text(text)
    desk.load()
    assert desk.error is None and versions(desk) == good


def test_a_warning_names_its_spreadsheet_row_and_is_marked_where_it_is(game):
    cards = game / "cards.csv"
    cards.write_text(cards.read_text().replace("Then discard this card.", "Then {discard} this card."))
    desk = Desk(game)
    desk.load()
    face = desk.face("deck.front.4")
    assert face["warnings"] == ["text: {discard} is neither an icon nor a rule number, printed as written"]
    assert '<g class="mark">' in face["overlay"]
    assert desk.by_id["deck.front.4"].sources == ["cards.csv:5"]
    assert desk.row("deck.front.4") == "1,Windfall,Event,0,0,Every player takes 2 coins. Then {discard} this card.,#EF6C00"


def test_switches_change_the_faces_they_touch(client, game):
    desk = client.application.extensions["studio_desk"]
    before = versions(desk)
    assert client.post("/settings", json={"ink": "low"}).status_code == 200
    assert all(versions(desk)[tid] != before[tid] for tid in before)
    assert client.post("/settings", json={"options": ["nope"]}).status_code == 400
    assert client.post("/settings", data="x").status_code == 400
    assert client.get("/news?since=x").status_code == 400
    assert client.get("/output/..%2f..%2fetc/passwd").status_code == 404


def test_a_proof_sheet_is_one_page_at_actual_size_with_crop_marks(client, tmp_path):
    answer = client.post("/proof", json={"ids": ["deck.front.1", "deck.back.1", "coins.front.1"]})
    assert answer.status_code == 200, answer.get_json()
    with pdfplumber.open(tmp_path / "out" / answer.get_json()["result"]) as pdf:
        assert len(pdf.pages) == 1
        page = pdf.pages[0]
        assert round(page.width / 72 * 25.4) == 210
        marks = [line for line in page.lines if abs(line["x0"] - line["x1"]) < 0.01 or abs(line["top"] - line["bottom"]) < 0.01]
        assert len(marks) >= 3 * 8
        # the card's trim is 63 mm wide: two vertical marks of it stand 63 mm apart
        xs = sorted({round(line["x0"] / 72 * 25.4, 1) for line in marks if abs(line["x0"] - line["x1"]) < 0.01})
        assert any(round(b - a, 1) == 63.0 for a in xs for b in xs)
    assert client.post("/proof", json={"ids": ["nope"]}).status_code == 400
    assert client.post("/proof", json={"ids": ["board.front.1"] * 3}).status_code == 400  # not one page


def test_the_build_button_runs_the_cli_build_and_links_the_file(client, tmp_path):
    assert client.post("/build", json={"kind": "pdf"}).status_code == 202
    deadline = time.monotonic() + 60
    while (job := client.get("/jobs").get_json()["jobs"][0])["state"] in ("queued", "running"):
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert job["state"] == "done" and job["result"] == "harbour_lights/harbour_lights-a4.pdf"
    assert client.get("/output/" + job["result"]).data[:5] == b"%PDF-"
    assert client.post("/build", json={"kind": "exe"}).status_code == 400


DEEP = "[" * 100_000 + "]" * 100_000  # deeper than Python's JSON reader recurses, well within the body limit


@pytest.mark.parametrize("path", ["/build", "/proof", "/settings", "/edit", "/move", "/customise", "/art",
                                  "/cards/add", "/cards/set"])
@pytest.mark.parametrize("sent", [{"json": {"kind": [], "ids": {}, "ink": [], "options": [[]]}}, {"json": [1]},
                                  {"json": "x"}, {"data": DEEP, "content_type": "application/json"},
                                  {"data": '{"ink": ' + DEEP + "}", "content_type": "application/json"},
                                  {"data": b"\xff\xfe", "content_type": "application/json"}])
def test_every_malformed_body_is_a_400_of_one_line(client, path, sent):
    answer = client.post(path, **sent)
    assert answer.status_code == 400, answer.get_data(as_text=True)[:300]
    (line,) = answer.get_json()["error"].splitlines()
    assert len(line) < 200 and "Traceback" not in line


LEAF = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
KEYS = ["kind", "ids", "ink", "options", "write_ins", "id", "set", "version", "box", "x", "y", "w", "h", "folder",
        "title", "count", "component", "rows", "row", "to", "at", "column", "value"]
JSON = st.recursive(LEAF, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.sampled_from(KEYS) | st.text(max_size=4), inner, max_size=4), max_leaves=12)
# bodies shaped as the page sends them, holding any value: they reach the writes, not only the shape checks
CHANGES = st.fixed_dictionaries({"id": st.sampled_from(["deck.front.1", "coins.front.1", "promo.front.1"]) | LEAF,
                                 "version": st.integers(0, 6) | LEAF, "box": st.sampled_from(["title", "art"]) | LEAF,
                                 "set": st.dictionaries(st.sampled_from(["title", "count", "color", "text"]), JSON,
                                                        max_size=2) | JSON,
                                 "x": LEAF, "y": LEAF, "w": LEAF, "h": LEAF, "folder": LEAF,
                                 # the card list's (cardlist.py)
                                 "component": st.sampled_from(["deck", "promo", "coins"]) | LEAF,
                                 "rows": st.lists(st.integers(-1, 6) | LEAF, max_size=3) | JSON,
                                 "row": st.integers(-1, 6) | LEAF, "to": st.integers(-1, 6) | LEAF,
                                 "at": st.integers(-1, 6) | LEAF,
                                 "column": st.sampled_from(["count", "title", "colour"]) | LEAF, "value": JSON})
WRITES = ["/edit", "/move", "/art", "/customise", "/undo", "/redo", "/cards/add", "/cards/copy", "/cards/delete",
          "/cards/move", "/cards/set"]


@settings(max_examples=examples(90), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(["/build", "/proof", "/settings"] + WRITES), sent=JSON | CHANGES)
def test_any_json_body_is_answered_in_one_line_never_a_500(client, path, sent):
    """Whatever JSON a page (or anything else with the token) posts, the answer is the endpoint's own or a
    4xx of one line: hypothesis, derandomized under the ci profile."""
    answer = client.post(path, json=sent)
    assert answer.status_code in (200, 202, 400, 404, 409), (path, sent, answer.get_data(as_text=True)[:300])
    if answer.status_code >= 400:
        (line,) = answer.get_json()["error"].splitlines()
        assert len(line) < 300


def test_a_face_past_a_budget_is_one_line_on_its_tile_not_a_500(game, tmp_path, as_page):
    (game / "layouts" / "tall_title.yaml").write_text(
        "extends: card\nboxes:\n  flood: {kind: polygon, repeat: entries(10000), points: 'polygon_points(1, 1, 1, "
        "10000)'}\n")
    client = as_page(create_app({"GAME_FOLDER": game, "OUT": tmp_path / "out", "FOLLOW": False}))
    answer = client.get("/faces?ids=promo.front.1")
    assert answer.status_code == 200
    (face,) = answer.get_json()["faces"]
    assert face["svg"] == "" and len(face["warnings"]) == 1
    assert "boxes.flood: what one face draws (corners, path commands and characters in all)" in face["warnings"][0]
    answer = client.post("/proof", json={"ids": ["promo.front.1"]})
    assert answer.status_code == 400 and "what one face draws" in answer.get_json()["error"]


def test_the_page_offers_the_games_options_as_switches(tmp_path, as_page):
    from starpnp.generator.look.loader import find_game

    app = create_app({"GAME_FOLDER": find_game("stratastar"), "OUT": tmp_path, "FOLLOW": False})
    client = as_page(app)
    page = client.get("/").get_data(as_text=True)
    assert 'name="option" value="power_cards"' in page and 'id="write-ins"' in page
    assert client.post("/settings", json={"options": ["power_cards"], "write_ins": True}).status_code == 200
    desk = app.extensions["studio_desk"]
    assert "power_cards" in desk.game.options and desk.game.write_ins


def test_studio_on_a_folder_that_is_no_game_is_one_line(tmp_path):
    result = subprocess.run([sys.executable, "-m", "starpnp", "studio", str(tmp_path / "nowhere")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1 and "no such game or folder" in result.stderr


def test_a_changed_icon_gives_new_versions_only_to_the_faces_that_show_it(game):
    desk = Desk(game)
    desk.load()
    for tile in desk.tiles:
        desk.face(tile.id)
    before = versions(desk)
    icon = game / "icons" / "coin.svg"
    icon.write_text(icon.read_text().replace('r="', 'r="1', 1))
    desk.load(assets_changed=True)
    after = versions(desk)
    assert sorted(tid for tid in after if after[tid] != before[tid]) == ["coins.front.1", "deck.front.2"]
    assert [t["id"] for t in desk.news(desk.version - 1)["tiles"]] == ["deck.front.2", "coins.front.1"]


def test_the_summary_counts_pieces_as_the_build_does_backs_not_being_pieces(client, game, tmp_path):
    from starpnp.generator.build import BuildOptions, build_game

    news = client.get("/news?since=0").get_json()
    faces_shown = sum(tile["count"] for tile in news["tiles"])
    built = build_game(game, BuildOptions(formats=("pdf",), out=tmp_path / "built"))
    assert news["pieces"] == built.pieces == 47
    assert faces_shown > built.pieces  # the deck's backs are faces the studio shows, not more pieces


def test_studio_dot_names_the_folder_it_is_started_in(game, tmp_path, monkeypatch, as_page):
    monkeypatch.chdir(game)
    page = as_page(create_app({"GAME_FOLDER": ".", "OUT": tmp_path / "out", "FOLLOW": False})).get("/").text
    assert f'<span data-folder title="{game}">harbour</span>' in page
    assert "my-harbour" in page  # and Customise would offer a folder beside it by name, not "my-"
