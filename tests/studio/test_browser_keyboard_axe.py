"""The studio for a person who uses a keyboard or a screen reader: axe-core finds no serious or critical issue
in the page's three views (the faces, one face large, layout mode), each reached with the keyboard alone; and
layout mode says how many pieces a moved box changes before anything is written."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from starpnp_test_support import axe_violations

pytestmark = pytest.mark.browser

DESK = {"width": 1280, "height": 800}
LIVE_MS = 5000  # a face shows within a second; this leaves room for a busy machine


def test_the_faces_one_face_large_and_layout_mode_pass_axe_by_keyboard(browser, studio):
    page = browser.new_context(viewport=DESK).new_page()
    page.goto(studio.url)
    tile = page.locator('[data-id="deck.front.1"]')
    expect(tile.locator(".face svg").first).to_be_visible(timeout=LIVE_MS)
    assert axe_violations(page) == []

    face = tile.get_by_role("button", name="Open Trade · front large")
    face.focus()
    face.press("Enter")
    dialog = page.get_by_role("dialog", name="One face, large")
    expect(dialog.get_by_label("title", exact=True)).to_have_value("Trade")
    assert axe_violations(page) == []

    before = (studio.folder / "layouts" / "deck_card.yaml").read_bytes()
    switch = dialog.get_by_label("Layout mode")
    switch.focus()
    switch.press("Space")
    expect(switch).to_be_checked()
    expect(dialog.locator('[data-box="title"]')).to_be_focused()  # the first box, ready for the arrow keys
    readout = dialog.locator("[data-readout]")
    expect(readout).to_contain_text("Moving title moves it on all 9 pieces of Deck (the layout deck_card).")
    page.keyboard.press("Tab")
    second = page.evaluate("document.activeElement.dataset.box")
    expect(readout).to_have_text(f"Moving {second} moves it on all 9 pieces of Deck (the layout deck_card).")
    assert axe_violations(page) == []
    assert (studio.folder / "layouts" / "deck_card.yaml").read_bytes() == before  # said, not written
    page.context.close()
