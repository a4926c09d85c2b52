"""Issue #48's player acceptance in a real browser: `starpnp studio stratastar` → Customise → Attack's count
to 24, a copy of Scout with its own title and picture (the card list's Duplicate, then the large view), one
card deleted (the card list) and a box moved (layout mode, the arrow keys) → `starpnp build` of the copy
prints exactly those changes (text, counts and pictures read from the PDF), and our components/ are as they
were."""
from __future__ import annotations

import io
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import expect
from pypdf import PdfReader

from starpnp_pdf_probe import images_of
from starpnp.resources import components_dir
from starpnp_test_support import folder_digest, pdf_page_texts

pytestmark = pytest.mark.browser

DESK = {"width": 1400, "height": 900}
LIVE_MS = 8000


def written(path: Path, *parts: str) -> str:
    """The file once it holds every part (the page writes on its own time)."""
    deadline = time.monotonic() + LIVE_MS / 1000
    while time.monotonic() < deadline:
        text = path.read_text() if path.is_file() else ""
        if all(part in text for part in parts):
            return text
        time.sleep(0.05)
    raise AssertionError(f"{path.name} never held {parts}: {text!r}")


def built(folder: Path, out: Path) -> tuple[Path, dict]:
    subprocess.run([sys.executable, "-m", "starpnp", "build", str(folder), "--format", "pdf", "--out", str(out)],
                   check=True, capture_output=True)
    return next(out.glob("*/*.pdf")), json.loads(next(out.glob("*/manifest.json")).read_text())


def pieces(manifest: dict, component: str) -> dict[str, int]:
    deck = next(c for c in manifest["components"] if c["id"] == component)
    counts: dict[str, int] = {}
    for piece in deck["pieces"]:
        counts[piece["name"]] = counts.get(piece["name"], 0) + piece["count"]
    return counts


def test_a_player_recounts_copies_deletes_and_moves_and_the_build_prints_exactly_that(browser, tmp_path, studio_of):
    ours = components_dir() / "stratastar"
    before = folder_digest(ours)
    folder = tmp_path / "my stratastar"
    picture = io.BytesIO()
    Image.new("RGB", (60, 40), "#C2185B").save(picture, "PNG")
    process = studio_of(Path("stratastar"))
    try:
        page = browser.new_context(viewport=DESK).new_page()
        page.goto(process.url)
        expect(page.locator('[data-id="galaxy_deck.front.1"] .face svg').first).to_be_visible(timeout=LIVE_MS)
        page.get_by_role("button", name="Customise").click()
        page.get_by_label("Folder").fill(str(folder))
        page.get_by_role("button", name="Make my copy").click()
        expect(page.locator("[data-own-copy]")).to_contain_text("starpnp build", timeout=LIVE_MS)
        overrides = folder / "overrides.yaml"

        attack = page.locator('[data-id="galaxy_deck.front.1"]').get_by_role("spinbutton", name="Copies of Attack")
        expect(attack).to_have_value("20", timeout=LIVE_MS)
        attack.fill("24")
        attack.press("Enter")
        written(overrides, "Attack: {count: 24}")

        page.get_by_role("button", name="Card list").click()
        panel = page.locator("#cardlist")
        panel.get_by_label("Component").select_option("abilities")
        rows = panel.locator("tbody tr")
        expect(rows.filter(has_text="Piracy")).to_have_count(1, timeout=LIVE_MS)
        rows.filter(has_text="Scout").first.locator("input.cl-pick").check()
        panel.get_by_role("button", name="Duplicate").click()
        written(overrides, "like: Scout")
        expect(rows.filter(has_text="Scout 2")).to_have_count(1, timeout=LIVE_MS)
        panel.get_by_label("Choose Scout (row 1)").uncheck()
        rows.filter(has_text="Piracy").locator("input.cl-pick").check()
        panel.get_by_role("button", name="Delete").click()
        written(overrides, "remove: [Piracy]")

        expect(page.get_by_role("button", name="Open Piracy · front large")).to_have_count(0, timeout=LIVE_MS)
        copy = page.locator("figure", has=page.get_by_role("button", name="Open Scout 2 · front large"))
        copy.scroll_into_view_if_needed()
        expect(copy.locator(".face svg").first).to_be_visible(timeout=LIVE_MS)  # drawn: it opens large
        copy.get_by_role("button", name="Open Scout 2 · front large").click()
        dialog = page.get_by_role("dialog", name="One face, large")
        title = dialog.get_by_label("title", exact=True)
        expect(title).to_have_value("Scout 2", timeout=LIVE_MS)
        title.fill("Far Scout")
        title.press("Enter")
        written(overrides, "title: Far Scout")
        dialog.get_by_label("picture").set_input_files(
            files=[{"name": "far-scout.png", "mimeType": "image/png", "buffer": picture.getvalue()}])
        written(overrides, "art: art/far-scout.png")

        dialog.get_by_label("Layout mode").check()
        box = dialog.locator('[data-box="title"]')
        expect(box).to_be_visible(timeout=LIVE_MS)
        box.focus()
        expect(dialog.locator("[data-box-from]")).to_have_text("Place: x, y, w and h from the builtin layout `card`.")
        box.press("ArrowDown")
        box.press("ArrowDown")  # two nudges of 0.1 mm, written once the arrows rest
        layout = written(folder / "layouts" / "card.yaml", "title")
        page.context.close()
    finally:
        process.stop()

    assert "components:\n  galaxy_deck:\n    items:\n      Attack: {count: 24}\n  abilities:\n" \
           "    add: [{like: Scout, title: Far Scout, art: art/far-scout.png}]\n    remove: [Piracy]\n#" \
           in overrides.read_text(), overrides.read_text()  # the copy's own entry took its title and picture
    assert (folder / "art" / "far-scout.png").read_bytes() == picture.getvalue()
    assert [line for line in layout.splitlines() if "title" in line or "extends" in line] == [
        "extends: card", "  title: {y: 3.2}"], layout  # the one key the arrows moved, under ours

    pdf, manifest = built(folder, tmp_path / "built")
    their_pdf, theirs = built(ours, tmp_path / "ours")
    assert sum(n for name, n in pieces(manifest, "galaxy_deck").items() if name.startswith("Attack")) == 24
    mine, was = pieces(manifest, "abilities"), pieces(theirs, "abilities")
    assert mine == {**{name: n for name, n in was.items() if name != "Piracy"}, "Far Scout": 1}
    text, their_text = "\n".join(pdf_page_texts(pdf)), "\n".join(pdf_page_texts(their_pdf))
    assert text.count("Far Scout") == 1 and their_text.count("Far Scout") == 0
    assert text.count("Piracy") == their_text.count("Piracy") - 1  # the card gone; the icon key still names it
    images, their_images = images_of(PdfReader(pdf)), images_of(PdfReader(their_pdf))
    assert len(images) == len(their_images) + 1
    assert [(i["/Width"], i["/Height"]) for i in images].count((60, 40)) == 1
    assert folder_digest(ours) == before
