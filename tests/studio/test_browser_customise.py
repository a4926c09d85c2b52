"""One of our games in the studio, as a player meets it: read-only with a Customise button; Customise makes
an overrides folder where the player says, the page says where it is, how to print it and where the PDF will
be, and a count and a picture changed on a card land in that folder, which builds with them (from the page's
own button, which opens the PDF; a face of a card and its variant taking the count the player means); our
components/ stay as they were."""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import expect

from starpnp.resources import components_dir
from starpnp_test_support import axe_violations, folder_digest

pytestmark = pytest.mark.browser

DESK = {"width": 1280, "height": 800}
LIVE_MS = 8000  # a write shows within a second; Customise loads the whole game again


def test_customise_stratastar_then_a_cards_count_and_picture_land_in_the_overrides_folder(browser, tmp_path,
                                                                                        studio_of):
    ours = components_dir() / "stratastar"
    before = folder_digest(ours)
    process = studio_of(Path("stratastar"))  # as `starpnp studio stratastar` finds it: by name
    try:
        page = browser.new_context(viewport=DESK).new_page()
        page.goto(process.url)
        research = page.locator('[data-id="galaxy_deck.front.5"]')
        expect(research.locator(".face svg").first).to_be_visible(timeout=LIVE_MS)
        expect(research.locator(".count")).to_have_text("× 5")  # ours: read-only, no field to type in
        page.get_by_role("button", name="Customise").click()
        folder = tmp_path / "my stratastar"
        page.get_by_label("Folder").fill(str(folder))
        page.get_by_role("button", name="Make my copy").click()
        where = page.locator("[data-own-copy]")
        expect(where).to_contain_text(f"starpnp build '{folder}'", timeout=LIVE_MS)
        expect(page.get_by_role("button", name="Customise")).to_be_hidden()

        research.scroll_into_view_if_needed()
        count = research.get_by_role("spinbutton", name="Copies of Research")
        expect(count).to_have_value("5", timeout=LIVE_MS)
        count.fill("7")
        count.press("Enter")
        page.wait_for_function("() => document.querySelector('[data-undo]').title.includes('count of Research')",
                               timeout=LIVE_MS)  # written: the large view then reads overrides.yaml's line
        research.locator(".face").click()
        dialog = page.get_by_role("dialog", name="One face, large")
        expect(dialog.get_by_label("title", exact=True)).to_have_value("Research")
        shown = dialog.inner_text()  # a player reads cards and counts; files and lines wait in a closed detail
        assert "(a new key)" not in shown and not re.search(r"\.(yaml|csv):\d", shown), shown
        dialog.locator("details.from summary").first.click()
        expect(dialog).to_contain_text(re.compile(r"overrides\.yaml:\d"), use_inner_text=True)
        assert axe_violations(page) == []  # the player's large view, its details folded and open
        picture = io.BytesIO()
        Image.new("RGB", (60, 40), "#7E57C2").save(picture, "PNG")
        dialog.get_by_label("picture").set_input_files(
            files=[{"name": "flask.png", "mimeType": "image/png", "buffer": picture.getvalue()}])
        expect(dialog.locator(".large-face svg image")).to_have_count(1, timeout=LIVE_MS)
        expect(research.get_by_role("spinbutton", name="Copies of Research")).to_have_value("7")
        page.keyboard.press("Escape")

        # Attack is one card of 20 (4 of them starred with power_cards): one count, as README writes it
        attack = page.locator('[data-id="galaxy_deck.front.1"]').get_by_role("spinbutton", name="Copies of Attack")
        expect(attack).to_have_value("20", timeout=LIVE_MS)
        attack.fill("24")
        attack.press("Tab")  # left: written
        page.wait_for_function("() => document.querySelector('[data-undo]').title.includes('count of Attack')",
                               timeout=LIVE_MS)
        pdfs = tmp_path / "out" / "my-stratastar"  # the studio's --out, by the copy's own id
        expect(where.locator("[data-pdf-folder]")).to_have_text(str(pdfs.resolve()))
        with page.context.expect_page() as opened:
            where.get_by_role("button", name="Build the PDF and open it").click()
        tab = opened.value
        tab.wait_for_function("() => location.pathname.endsWith('.pdf')", timeout=60_000)
        page.context.close()
    finally:
        process.stop()
    assert tab.url.endswith(next(pdfs.glob("*.pdf")).name)

    overrides = (folder / "overrides.yaml").read_text()
    assert "Research: {count: 7, art: art/flask.png}" in overrides
    assert (folder / "art" / "flask.png").read_bytes() == picture.getvalue()
    out = tmp_path / "built"
    subprocess.run([sys.executable, "-m", "starpnp", "build", str(folder), "--format", "pdf", "--out", str(out)],
                   check=True, capture_output=True)
    manifest = json.loads(next(out.glob("*/manifest.json")).read_text())
    deck = next(c for c in manifest["components"] if c["id"] == "galaxy_deck")
    assert {"name": "Research", "count": 7, "color": None} in deck["pieces"]
    assert "Attack: {count: 24}" in overrides  # the 24 the player typed, as README's example writes it
    assert sum(p["count"] for p in deck["pieces"] if p["name"].startswith("Attack")) == 24
    assert folder_digest(ours) == before
