"""Editing in the studio's page, in a real browser, against `starpnp studio` as a real process: a card's
count, title and colour go into its CSV cells, a chit's into its YAML item, a dropped image into art/, a
dragged box into the game's layout; the files' bytes are exactly the edit; a build prints it; undo gives the
bytes back; an edit on a file saved meanwhile is refused, shown and applied again in one click.

One studio for the file (module fixture): each test undoes its own edits, and says so by comparing bytes."""
from __future__ import annotations

import base64
import io
import json
import subprocess
import sys
import time
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

DESK = {"width": 1280, "height": 800}
LIVE_MS = 5000  # a write shows within a second; this leaves room for a busy machine
TRADE_ROW = b"3,Trade,Action,1,1,Swap one of your coins for a coin of another player's colour.,\n"


def open_studio(browser, studio) -> Page:
    page = browser.new_context(viewport=DESK).new_page()
    page.goto(studio.url)
    return page


def written(path: Path, expected: bytes, seconds: float = LIVE_MS / 1000) -> None:
    """Wait until `path` holds `expected` (the studio writes it before it answers the page, which may be
    a moment after the key press), then say how it differs if it never does."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists() and path.read_bytes() == expected:
            return
        time.sleep(0.05)
    assert path.read_bytes().decode() == expected.decode()


def open_large(page: Page, face_id: str):
    tile = page.locator(f'[data-id="{face_id}"]')
    tile.scroll_into_view_if_needed()
    expect(tile.locator(".face svg").first).to_be_visible(timeout=LIVE_MS)
    tile.locator(".face").click()
    dialog = page.get_by_role("dialog", name="One face, large")
    expect(dialog).to_be_visible()
    return dialog


def undo(page: Page, times: int, press=None) -> None:
    """Undo `times` times (the large view's button, or `press()`), each once the page has heard of the last."""
    button = page.locator("dialog[open] [data-undo]")
    for _ in range(times):
        expect(page.locator("[data-undo]").first).to_be_enabled(timeout=LIVE_MS)
        with page.expect_response(lambda r: r.url.endswith("/undo")) as answer:
            press() if press else button.click()
        assert answer.value.ok, answer.value.text()
        page.wait_for_function("(v) => Number(document.body.dataset.version) >= v",
                               arg=answer.value.json()["version"], timeout=LIVE_MS)


def wrote(page: Page, action, endpoint: str = "edit") -> None:
    """Do `action`, which writes through POST /`endpoint`, and wait until the face open large shows the
    folder as of that write (redrawn and its fields filled from the file)."""
    with page.expect_response(lambda r: r.url.endswith("/" + endpoint) and r.request.method == "POST") as answer:
        action()
    assert "version" in answer.value.json(), answer.value.json()
    version = answer.value.json()["version"]
    page.wait_for_function("(v) => Number(document.querySelector('dialog[open]')?.dataset.caughtUp) >= v",
                           arg=version, timeout=LIVE_MS)


def redrawn(page: Page, action) -> None:
    """Do `action` and wait until the face open large has been drawn again from the file."""
    face = page.locator("dialog[open] .large-face")
    seen = face.get_attribute("data-version")
    action()
    expect(face).not_to_have_attribute("data-version", seen, timeout=LIVE_MS)


def build(folder: Path, out: Path) -> tuple[dict, list[str]]:
    """`starpnp build FOLDER --format pdf`: the manifest and the PDF's words."""
    subprocess.run([sys.executable, "-m", "starpnp", "build", str(folder), "--format", "pdf", "--out", str(out)],
                   check=True, capture_output=True)
    manifest = json.loads(next(out.glob("*/manifest.json")).read_text())
    with pdfplumber.open(next(out.glob("*/*.pdf"))) as pdf:
        return manifest, [word["text"] for page in pdf.pages for word in page.extract_words()]


def test_a_cards_count_title_and_colour_go_into_its_csv_cells_and_print(browser, module_studio, tmp_path):
    cards = module_studio.folder / "cards.csv"
    before = cards.read_bytes()
    page = open_studio(browser, module_studio)
    tile = page.locator('[data-id="deck.front.1"]')
    count = tile.get_by_role("spinbutton", name="Copies of Trade")
    expect(count).to_have_value("3", timeout=LIVE_MS)
    count.fill("-1")
    count.press("Enter")  # refused, in one line beside the field, which keeps what was typed
    expect(tile.locator("figcaption .error")).to_have_text(f"{cards}:2: count: must be ≥ 0, got -1", timeout=LIVE_MS)
    expect(count).to_have_value("-1")
    assert cards.read_bytes() == before
    count.fill("4")
    count.press("Enter")  # the compact control on the tile
    written(cards, before.replace(TRADE_ROW, TRADE_ROW.replace(b"3,Trade", b"4,Trade")))

    dialog = open_large(page, "deck.front.1")
    title = dialog.get_by_label("title", exact=True)
    expect(title).to_have_value("Trade")
    expect(dialog.locator("[data-field=title] .from")).to_have_text("cards.csv:2, column title")
    title.fill("Trade Winds")
    wrote(page, lambda: title.press("Enter"))
    expect(dialog.locator(".large-face svg text", has_text="Trade Winds")).to_have_count(1, timeout=LIVE_MS)
    colour = dialog.get_by_label("color", exact=True)
    colour.fill("#AA3300")
    wrote(page, lambda: colour.press("Tab"))  # a field is written when left, as well as on Enter
    edited = TRADE_ROW.replace(b"3,Trade,", b"4,Trade Winds,").replace(b"colour.,\n", b"colour.,#AA3300\n")
    written(cards, before.replace(TRADE_ROW, edited))
    expect(dialog.locator(".large-face svg [fill='#AA3300' i]").first).to_be_attached(timeout=LIVE_MS)
    expect(tile.locator(".face svg text", has_text="Trade Winds")).to_have_count(1)  # the tile redrew too

    manifest, words = build(module_studio.folder, tmp_path / "out")
    deck = next(c for c in manifest["components"] if c["id"] == "deck")
    assert {"name": "Trade Winds", "count": 4, "color": None} in deck["pieces"]
    assert words.count("Winds") == 4  # four copies printed, each with the new title

    dialog.get_by_role("button", name="Close").click()
    undo(page, 3, press=lambda: page.keyboard.press("Control+z"))
    assert cards.read_bytes() == before
    expect(count).to_have_value("3", timeout=LIVE_MS)
    page.context.close()


def test_a_chits_count_label_and_colour_go_into_its_yaml_item_and_a_dropped_image_into_art(browser, module_studio):
    counters = module_studio.folder / "counters.yaml"
    before = counters.read_bytes()
    page = open_studio(browser, module_studio)
    dialog = open_large(page, "coins.front.1")
    for label, value, item in [("count", "24", b"{count: 24}"),
                               ("label", "Gold", b"{count: 24, label: Gold}"),
                               ("color", "#00838F", b'{count: 24, label: Gold, color: "#00838F"}')]:
        field = dialog.get_by_label(label, exact=True)
        field.fill(value)
        wrote(page, lambda: field.press("Enter"))
        assert counters.read_bytes() == before.replace(b"{count: 20}", item)
    expect(dialog.locator(".large-face svg text", has_text="Gold")).to_have_count(1, timeout=LIVE_MS)

    picture = io.BytesIO()
    Image.new("RGB", (40, 40), "#FFD54F").save(picture, "PNG")
    page.evaluate("""([b64]) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const data = new DataTransfer();
        data.items.add(new File([bytes], "gold coin.png", {type: "image/png"}));
        const face = document.querySelector("dialog[open] .large-face");
        for (const type of ["dragenter", "dragover", "drop"]) {
            face.dispatchEvent(new DragEvent(type, {bubbles: true, cancelable: true, dataTransfer: data}));
        }
    }""", [base64.b64encode(picture.getvalue()).decode()])
    written(counters, before.replace(b"{count: 20}", b'{count: 24, label: Gold, color: "#00838F", art: art/gold-coin.png}'))
    assert (module_studio.folder / "art" / "gold-coin.png").read_bytes() == picture.getvalue()
    expect(dialog.locator(".large-face svg image")).to_have_count(1, timeout=LIVE_MS)

    undo(page, 4)
    assert counters.read_bytes() == before
    redo = dialog.locator("[data-redo]")
    expect(redo).to_have_attribute("title", "Redo: count of Coin (counters.yaml)", timeout=LIVE_MS)
    wrote(page, redo.click, "redo")
    assert counters.read_bytes() == before.replace(b"{count: 20}", b"{count: 24}")
    expect(dialog.get_by_label("count", exact=True)).to_have_value("24")
    undo(page, 1)
    assert counters.read_bytes() == before
    assert not (module_studio.folder / "art" / "gold-coin.png").exists()
    page.context.close()


def test_a_box_dragged_and_resized_goes_into_the_games_layout_that_extends_the_card(browser, module_studio):
    layout = module_studio.folder / "layouts" / "deck_card.yaml"
    before = layout.read_bytes()
    page = open_studio(browser, module_studio)
    moves = []
    page.on("request", lambda request: moves.append(request) if request.url.endswith("/move") else None)
    dialog = open_large(page, "deck.front.1")
    dialog.get_by_label("Layout mode").check()
    box = dialog.locator('[data-box="title"]')
    expect(box).to_be_visible()
    face = dialog.locator(".large-face").bounding_box()
    per_mm = face["width"] / (63 + 2 * 3)  # the face is drawn with its 3 mm bleed
    start = box.bounding_box()
    x, y = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    page.keyboard.down("Control")  # the 0.5 mm grid alone: no guide pulls the box (test_browser_layout_boxes.py)
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, 11):  # 5 mm right and 2 mm down, in ten pointer moves
        page.mouse.move(x + step * 0.5 * per_mm, y + step * 0.2 * per_mm)
    expect(box.locator(".box-size")).to_have_text("x 19.5  y 5  w 34.2  h 12 mm")  # shown while dragging
    assert moves == []  # the outline follows the pointer in the page; nothing is written until release
    redrawn(page, page.mouse.up)  # released: written, and the face drawn again from the file
    # only what moved is written: x and y; w and h stay as the layout works them out
    assert layout.read_bytes() == before.replace(b"title: {size: 14}", b"title: {size: 14, x: 19.5, y: 5}")
    assert len(moves) == 1

    box.focus()  # the box in focus shows its handles (as one under the pointer does)
    handle = box.locator('[data-handle="se"]')
    expect(handle).to_be_visible()
    corner = handle.bounding_box()
    cx, cy = corner["x"] + corner["width"] / 2, corner["y"] + corner["height"] / 2
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx - 4 * per_mm, cy + 3 * per_mm, steps=6)
    redrawn(page, page.mouse.up)
    page.keyboard.up("Control")
    assert layout.read_bytes() == before.replace(b"title: {size: 14}", b"title: {size: 14, x: 19.5, y: 5, w: 30, h: 15}")

    def nudge():
        box.focus()
        box.press("ArrowRight")
        box.press("ArrowRight")  # two nudges of 0.1 mm, written once the arrows rest
    redrawn(page, nudge)
    assert layout.read_bytes() == before.replace(b"title: {size: 14}", b"title: {size: 14, x: 19.7, y: 5, w: 30, h: 15}")
    assert len(moves) == 3

    undo(page, 3)
    assert layout.read_bytes() == before
    page.context.close()


def test_an_edit_on_a_file_saved_meanwhile_is_shown_and_applied_again_in_one_click(browser, module_studio):
    promo = module_studio.folder / "promo.yaml"
    before = promo.read_bytes()
    page = browser.new_context(viewport=DESK).new_page()
    # the page hears of no save (its live-update stream says nothing), so its version gets old
    page.route("**/push", lambda route: route.fulfill(status=200, content_type="text/event-stream", body=""))
    page.goto(module_studio.url)
    dialog = open_large(page, "promo.front.1")
    saved = before.replace(b"Take the first turn.", b"Take the second turn.")
    promo.write_bytes(saved)  # the designer saves in their editor
    wait_for_load(module_studio, "promo.front.1", "text", "Take the second turn.")
    title = dialog.get_by_label("title", exact=True)
    title.fill("Harbour Master")
    title.press("Enter")
    stale = dialog.locator("[data-stale]")
    expect(stale).to_contain_text('title = "Harbour Master"', timeout=LIVE_MS)
    expect(stale).to_contain_text("nothing was written. The face now shows")  # each sentence ends with its stop
    assert promo.read_bytes() == saved  # refused: nothing written
    expect(dialog.get_by_label("text", exact=True)).to_have_value("Take the second turn.")  # the file as saved
    stale.get_by_role("button", name="Apply my edit again").click()
    written(promo, saved.replace(b"title: Harbour Master General", b"title: Harbour Master"))
    expect(stale).to_be_hidden()
    undo(page, 1)
    assert promo.read_bytes() == saved
    promo.write_bytes(before)
    page.context.close()


def wait_for_load(studio, face_id: str, field: str, value: str) -> None:
    """Wait until the studio has read the folder again and its face `face_id` shows `value` in `field`."""
    from urllib.request import urlopen

    def shown() -> str | None:
        with urlopen(f"{studio.url}faces?ids={face_id}") as answer:
            fields = json.load(answer)["faces"][0]["edit"]["fields"]
        return next(f["value"] for f in fields if f["name"] == field)

    deadline = time.monotonic() + LIVE_MS / 1000
    while shown() != value and time.monotonic() < deadline:
        time.sleep(0.05)
    assert shown() == value
