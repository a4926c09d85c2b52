"""A face standing for several items alike, in a real browser (issue #48): a new value asks one plain
question under its field — all the face's cards, or only this one — by keyboard alone, with nothing
serious for axe-core; each answer writes exactly its lines."""
from __future__ import annotations

import io
import time
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import expect

from starpnp_test_support import axe_violations

pytestmark = pytest.mark.browser

LIVE_MS = 8000
FIRST = "      - {count: 2, title: Harbour Master General, text: Take the first turn.}\n"
SECOND = "      - {count: 3, title: Harbour Master General, text: Take the first turn.}\n"
QUESTION = ("This face is 5 cards, written as 2 items alike (2 Harbour Master General and 3 Harbour Master General): "
            "change all 5, or only one card, split out as an item of its own?")


def settled(path: Path, expected: str) -> None:
    deadline = time.monotonic() + LIVE_MS / 1000
    while time.monotonic() < deadline and path.read_text() != expected:
        time.sleep(0.05)
    assert path.read_text() == expected


def caught_up(page) -> None:
    """The large view shows the folder as of the page's latest news (a write redraws it and its form)."""
    page.wait_for_function("() => document.getElementById('large').dataset.caughtUp === document.body.dataset.version",
                           timeout=LIVE_MS)


def several_large(browser, game, studio_of) -> tuple:
    """promo.yaml with one face of 2 + 3 cards alike, the studio on it, that face's large view open: (the
    file's text, the page, the dialog)."""
    promo = game / "promo.yaml"
    start = promo.read_text().replace("      - {count: 1, title: Harbour Master General, text: Take the first turn.}\n",
                                      FIRST) + SECOND
    promo.write_text(start)
    process = studio_of(game)
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(process.url)
    tile = page.locator('[data-id="promo.front.1"]')
    tile.scroll_into_view_if_needed()  # drawn once on screen
    expect(tile.locator(".face svg").first).to_be_visible(timeout=LIVE_MS)
    tile.locator(".face").click()
    dialog = page.get_by_role("dialog", name="One face, large")
    expect(dialog.get_by_label("text", exact=True)).to_have_value("Take the first turn.", timeout=LIVE_MS)
    return start, page, dialog


def test_an_edit_on_a_face_of_several_items_asks_all_or_one_by_keyboard(browser, game, studio_of):
    promo = game / "promo.yaml"
    start, page, dialog = several_large(browser, game, studio_of)
    text = dialog.get_by_label("text", exact=True)
    text.fill("Take the last turn.")
    text.press("Tab")  # left: asked, nothing written yet
    ask = dialog.get_by_role("group", name=QUESTION)
    expect(ask.get_by_role("button", name="All 5 cards")).to_be_focused()
    assert promo.read_text() == start
    assert axe_violations(page) == []
    page.keyboard.press("Tab")
    expect(ask.get_by_role("button", name="Only this card")).to_be_focused()
    page.keyboard.press("Enter")
    one = FIRST.replace("count: 2", "count: 1")
    settled(promo, start.replace(FIRST, one + one.replace("the first turn", "the last turn")))
    expect(ask).to_have_count(0)

    # the view stays on this face: the four cards still alike (1 + 3)
    expect(page.locator('[data-id="promo.front.1"] .count')).to_have_text("× 4", timeout=LIVE_MS)
    caught_up(page)
    title = dialog.get_by_label("title", exact=True)
    expect(title).to_have_value("Harbour Master General", timeout=LIVE_MS)
    split = promo.read_text()
    title.fill("Harbour Pilot")
    title.press("Enter")
    page.keyboard.press("Enter")  # the first answer, in focus: all of them
    settled(promo, split.replace(one + "      - {count: 1, title: Harbour Master General, text: Take the last",
                                 one.replace("Harbour Master General", "Harbour Pilot")
                                 + "      - {count: 1, title: Harbour Master General, text: Take the last")
                         .replace(SECOND, SECOND.replace("Harbour Master General", "Harbour Pilot")))

    expect(page.get_by_role("button", name="Open Harbour Pilot · front large")).to_have_count(1, timeout=LIVE_MS)
    caught_up(page)
    text = dialog.get_by_label("text", exact=True)
    text.fill("Take no turn.")
    text.press("Control+Enter")  # a text box: Ctrl+Enter sends it
    expect(dialog.locator("[data-ask] button").first).to_be_focused()
    page.keyboard.press("Escape")  # nothing written, the value as the file has it, the view still open
    expect(text).to_have_value("Take the first turn.")
    expect(dialog).to_be_visible()
    page.context.close()


def test_a_picture_on_a_face_of_several_items_asks_the_same_question_before_it_uploads(browser, game, studio_of):
    """A picture picked for the face: the edit's question, nothing uploaded until it is answered (Escape:
    never); "Only this card" splits one card out holding the picture, as the edit's split does."""
    promo = game / "promo.yaml"
    start, page, dialog = several_large(browser, game, studio_of)
    uploads = []
    page.on("request", lambda request: uploads.append(request.url) if request.url.endswith("/art") else None)
    picture = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(picture, "PNG")
    picker = dialog.locator("#edit-art-file")
    file = {"name": "harbour.png", "mimeType": "image/png", "buffer": picture.getvalue()}

    picker.set_input_files(files=[file])
    ask = dialog.get_by_role("group", name=QUESTION)
    expect(ask.get_by_role("button", name="All 5 cards")).to_be_focused()
    page.keyboard.press("Escape")  # not sent at all
    expect(ask).to_have_count(0)
    expect(picker).to_be_focused()
    picker.set_input_files(files=[file])
    expect(ask.get_by_role("button", name="All 5 cards")).to_be_focused()
    assert uploads == [] and promo.read_text() == start and not (game / "art").exists()
    ask.get_by_role("button", name="Only this card").click()
    one = FIRST.replace("count: 2", "count: 1")
    settled(promo, start.replace(FIRST, one + one.replace("turn.}", "turn., art: art/harbour.png}")))
    assert len(uploads) == 1 and (game / "art" / "harbour.png").read_bytes() == picture.getvalue()
    page.context.close()
