"""Layout mode in a real browser on a game from `starpnp new` (issue #48): a text box reading a new field
is added through the page's own controls and the files change by exactly the intended lines; the large view
zooms to 400 % about the pointer (wheel, buttons, keys); a dragged box snaps to a guide; axe-core finds no
serious or critical issue with layout mode's tools open. One studio for the file: each test undoes its
writes."""
from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from starpnp_test_support import axe_violations

pytestmark = pytest.mark.browser

DESK = {"width": 1280, "height": 800}
LIVE_MS = 5000


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_bytes().decode("utf-8", "replace") for p in sorted(folder.rglob("*"))
            if p.is_file()}


def changes(before: dict, after: dict) -> dict[str, list[str]]:
    """Per file changed, the lines taken out (-) and put in (+), as `git diff` shows them."""
    return {name: [line for line in difflib.unified_diff(before.get(name, "").splitlines(),
                                                         after.get(name, "").splitlines(), lineterm="", n=0)
                   if line[:1] in "+-" and not line.startswith(("+++", "---"))]
            for name in sorted({*before, *after}) if before.get(name) != after.get(name)}


def layout_mode(browser, studio, face_id: str = "deck.front.1") -> tuple[Page, object]:
    page = browser.new_context(viewport=DESK).new_page()
    page.goto(studio.url)
    tile = page.locator(f'[data-id="{face_id}"]')
    expect(tile.locator(".face svg").first).to_be_visible(timeout=LIVE_MS)
    tile.locator(".face").click()
    dialog = page.get_by_role("dialog", name="One face, large")
    dialog.get_by_label("Layout mode").check()
    expect(dialog.locator("[data-layout-tools]")).to_be_visible(timeout=LIVE_MS)
    return page, dialog


def undo_all(page: Page, dialog, folder: Path, before: dict) -> None:
    for _ in range(3):
        if snapshot(folder) == before:
            return
        with page.expect_response(lambda r: r.url.endswith("/undo")):
            dialog.locator("[data-undo]").click()
    assert snapshot(folder) == before


def test_a_text_box_reading_a_new_field_is_added_from_the_page_and_axe_passes(browser, module_studio):
    folder = module_studio.folder
    before = snapshot(folder)
    page, dialog = layout_mode(browser, module_studio)
    form = dialog.get_by_role("form", name="Add a box")
    form.get_by_label("Kind").select_option("text")
    form.get_by_label("Name").fill("motto")
    form.get_by_label("Field").fill("motto")
    form.get_by_label("On this card").fill("Fair winds")
    with page.expect_response(lambda r: r.url.endswith("/boxes/add")) as answer:
        form.get_by_role("button", name="Add the box").click()
    assert answer.value.ok, answer.value.text()
    motto = dialog.locator('.box[data-box="motto"]')
    expect(motto).to_be_focused(timeout=LIVE_MS)  # ready to be dragged into place, or moved by the arrows
    expect(dialog.locator(".large-face svg text", has_text="Fair winds")).to_have_count(1)
    trade = next(line for line in before["cards.csv"].splitlines() if line.startswith("3,Trade,"))
    assert changes(before, snapshot(folder)) == {
        "cards.csv": ["-count,title,type,cost,value,text,color", f"-{trade}",
                      "+count,title,type,cost,value,text,color,motto", f"+{trade},Fair winds"],
        "layouts/deck_card.yaml": ['+  motto: {kind: text, when: motto, text: "{motto}", x: 7, y: 40, w: 50, h: 8}',
                                   "+fields:", '+  motto: {type: text, default: ""}']}
    chosen = dialog.locator("[data-chosen-box]")
    expect(chosen.get_by_label("Font")).to_have_value("Lato-Regular")
    expect(chosen.get_by_role("button", name="Delete box motto")).to_be_visible()
    assert axe_violations(page) == []
    undo_all(page, dialog, folder, before)
    page.context.close()


def test_the_large_view_zooms_to_400_percent_about_the_pointer(browser, module_studio):
    page, dialog = layout_mode(browser, module_studio)
    view, face = dialog.locator("[data-large-view]"), dialog.locator(".large-face")
    width = face.bounding_box()["width"]
    dialog.get_by_role("button", name="Zoom in").click()
    expect(view).to_have_attribute("data-zoom", "1.25")
    dialog.locator('.box[data-box="title"]').focus()
    page.keyboard.press("+")
    expect(view).to_have_attribute("data-zoom", "1.5")
    page.keyboard.press("0")
    expect(view).to_have_attribute("data-zoom", "1")
    box = view.bounding_box()
    pointer = (box["x"] + box["width"] * 0.25, box["y"] + box["height"] * 0.75)
    under = page.evaluate("([x, y]) => { const r = document.querySelector('.large-face').getBoundingClientRect();"
                          " return [(x - r.left) / r.width, (y - r.top) / r.height]; }", pointer)
    page.mouse.move(*pointer)
    for _ in range(2):  # × e each: 272 %, then 400 % (739 % asked)
        page.mouse.wheel(0, -400)
    expect(view).to_have_attribute("data-zoom", "4")  # and no further
    assert face.bounding_box()["width"] == pytest.approx(4 * width, rel=0.01)
    still = page.evaluate("([x, y]) => { const r = document.querySelector('.large-face').getBoundingClientRect();"
                          " return [(x - r.left) / r.width, (y - r.top) / r.height]; }", pointer)
    assert still == pytest.approx(under, abs=0.01)  # the same point of the face under the pointer
    assert axe_violations(page) == []  # zoomed, the view scrolls and the keyboard reaches it
    page.keyboard.press("-")
    expect(view).to_have_attribute("data-zoom", "3")
    with page.expect_download() as download:
        dialog.get_by_role("link", name="Export PNG").click()
    assert download.value.suggested_filename == "harbour_lights-deck-Trade-front.png"
    page.context.close()


def test_a_dragged_box_snaps_to_the_safe_zone_and_says_so(browser, module_studio):
    folder = module_studio.folder
    before = snapshot(folder)
    page, dialog = layout_mode(browser, module_studio)
    title = dialog.locator('.box[data-box="title"]')
    start = title.bounding_box()
    face = dialog.locator(".large-face").bounding_box()
    per_mm = face["width"] / 69  # 63 mm and 3 mm of bleed either side
    left = page.evaluate("document.querySelector('.box[data-box=title]').rect.x")
    grab = (start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.move(*grab)
    page.mouse.down()
    # the title's left edge to 3.2 mm, 0.2 mm right of the safe zone's line at 3 mm: within reach, it lands on it
    page.mouse.move(grab[0] + (3.2 - left) * per_mm, grab[1] + 10 * per_mm, steps=4)
    expect(dialog.locator('.guide[data-guide="x"]')).to_have_count(1)
    with page.expect_response(lambda r: r.url.endswith("/move")) as answer:
        page.mouse.up()
    assert answer.value.ok, answer.value.text()
    expect(dialog.locator(".guide")).to_have_count(0)
    lines = changes(before, snapshot(folder))["layouts/deck_card.yaml"]
    assert lines[0] == "-  title: {size: 14}" and lines[1].startswith("+  title: {size: 14, x: 3, y: ")
    undo_all(page, dialog, folder, before)
    page.context.close()


def test_an_arrow_key_nudge_stops_on_the_guide_it_would_pass(browser, module_studio):
    """1 mm steps (Shift + arrow) from a left edge off the millimetre grid would jump over the safe zone's
    line at 3 mm; the step that passes it stops on it and shows the guide, and the next goes on past."""
    folder = module_studio.folder
    before = snapshot(folder)
    page, dialog = layout_mode(browser, module_studio)
    title = dialog.locator('.box[data-box="title"]')
    x_of = "document.querySelector('.box[data-box=title]').rect.x"
    title.focus()
    for _ in range(3):  # 0.1 mm steps: the left edge off the whole millimetres
        page.keyboard.press("ArrowRight")
    start = page.evaluate(x_of)
    assert round(start - 3, 2) % 1 != 0, start
    seen = []
    while not seen or seen[-1] > 3:
        page.keyboard.press("Shift+ArrowLeft")
        seen.append(page.evaluate(x_of))
        assert len(seen) < 40, str(seen)
    assert seen[-1] == 3, seen
    expect(dialog.locator('.guide[data-guide="x"]')).to_have_count(1)
    layout = folder / "layouts" / "deck_card.yaml"
    page.wait_for_timeout(400)  # the nudge is written once the keys rest
    expect(dialog.locator("[data-undo]")).to_have_attribute("title", re.compile("title box"), timeout=LIVE_MS)
    assert "  title: {size: 14, x: 3}\n" in layout.read_text()
    page.keyboard.press("Shift+ArrowLeft")
    assert page.evaluate(x_of) == 2, "the next step goes on past the guide"
    for _ in range(50):
        if "  title: {size: 14, x: 2}\n" in layout.read_text():
            break
        page.wait_for_timeout(100)
    assert "  title: {size: 14, x: 2}\n" in layout.read_text()
    undo_all(page, dialog, folder, before)
    page.context.close()


def tall_png() -> bytes:
    """20 × 80 px, red above and blue below: an art window crops it to a band."""
    import io

    from PIL import Image

    picture = Image.new("RGB", (20, 80), (220, 30, 30))
    picture.paste((30, 30, 220), (0, 40, 20, 80))
    out = io.BytesIO()
    picture.save(out, format="PNG")
    return out.getvalue()


@pytest.mark.parametrize("card_only", [False, True], ids=["the box's", "this card only"])
def test_a_picture_dragged_inside_its_box_with_alt_sets_its_focus(browser, module_studio, card_only):
    """Alt + drag: the box's focus in the layout, or with "This card only" the card's own `art_focus` cell."""
    folder = module_studio.folder
    before = snapshot(folder)
    page, dialog = layout_mode(browser, module_studio)
    with page.expect_response(lambda r: r.url.endswith("/art")) as uploaded:
        dialog.locator("#edit-art-file").set_input_files(files=[{"name": "tall.png", "mimeType": "image/png",
                                                                  "buffer": tall_png()}])
    page.wait_for_function("(v) => Number(document.querySelector('dialog[open]')?.dataset.caughtUp) >= v",
                           arg=uploaded.value.json()["version"], timeout=LIVE_MS)  # shown as the file now is
    art = dialog.locator('.box[data-box="art"]')
    expect(art).to_be_visible(timeout=LIVE_MS)
    if card_only:
        art.focus()
        dialog.locator("[data-chosen-box]").get_by_label("This card only").check()
    box = None
    for _ in range(50):  # the overlay is drawn anew with each redraw: measured once one stands
        if box := art.bounding_box():
            break
        page.wait_for_timeout(100)
    per_mm = dialog.locator(".large-face").bounding_box()["width"] / 69
    grab = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.move(*grab)
    page.keyboard.down("Alt")
    page.mouse.down()
    page.mouse.move(grab[0], grab[1] + 30 * per_mm, steps=4)  # the picture 30 mm down: more of its top shows
    with page.expect_response(lambda r: r.url.endswith("/boxes/style")) as answer:
        page.mouse.up()
    page.keyboard.up("Alt")
    assert answer.value.ok, answer.value.text()
    changed = changes(before, snapshot(folder))
    if card_only:  # the row's picture and its focus, in two new columns; the layout as it was
        assert set(changed) == {"art/tall.png", "cards.csv"}
        header, row = (line for line in changed["cards.csv"] if line.startswith("+"))
        assert header.endswith(",art,art_focus") and row.startswith("+3,Trade,")
        down = float(row.split(", ")[-1].rstrip(']"'))
    else:
        assert set(changed) == {"art/tall.png", "cards.csv", "layouts/deck_card.yaml"}  # the picture, its focus
        lines = changed["layouts/deck_card.yaml"]
        assert len(lines) == 1 and lines[0].startswith("+  art: {focus: [0.5, 0.")
        down = float(lines[0].split(", ")[1].rstrip("]}"))
    assert 0.3 < down < 0.4  # 30 mm of the 180 mm the window crops from the 212 mm tall picture: 0.5 - 0.17
    expect(dialog.locator("[data-chosen-box]").get_by_label("Focus down %")).to_have_value(str(round(down * 100)),
                                                                                           timeout=LIVE_MS)
    undo_all(page, dialog, folder, before)
    page.context.close()
