"""The studio in a real browser: a saved CSV cell redraws that face alone, the scroll stays; a broken layout
file shows one line naming file and line over the faces, which stay, under the header; a hidden title is
marked on its face; a count never wraps."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

DESK = {"width": 1280, "height": 800}
LIVE_MS = 5000  # a save shows within a second; this leaves room for a busy machine


def paints(page) -> dict[str, int]:
    """How often each face has been drawn into the page, by face id (drawn ones only)."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.tile')]
        .filter((t) => t.querySelector('.face svg')).map((t) => [t.dataset.id, Number(t.dataset.paints)]))""")


def test_a_save_redraws_only_its_face_and_a_broken_file_shows_a_banner(browser, studio, game):
    context = browser.new_context(viewport=DESK)
    page = context.new_page()
    page.goto(studio.url)
    explore = page.locator('[data-id="deck.front.2"]')
    expect(explore.locator(".face svg").first).to_be_visible(timeout=LIVE_MS)
    expect(explore.locator(".where")).to_have_text("cards.csv:3")
    explore.scroll_into_view_if_needed()
    page.mouse.wheel(0, 120)
    page.wait_for_timeout(300)
    expect(explore.locator(".face svg").first).to_be_visible()
    scrolled = page.evaluate("scrollY")
    assert scrolled > 0
    before = paints(page)
    assert before.get("deck.front.2") == 1 and len(before) >= 3

    cards = game / "cards.csv"
    cards.write_text(cards.read_text().replace("keep one and put the other", "keep both, never the other"))
    expect(explore.locator(".face svg text", has_text="keep both")).to_have_count(1, timeout=LIVE_MS)
    page.wait_for_timeout(500)  # room for any other face to be (wrongly) redrawn
    after = paints(page)
    assert after["deck.front.2"] == 2
    assert {k: v for k, v in after.items() if k != "deck.front.2"} == \
        {k: v for k, v in before.items() if k != "deck.front.2"}
    assert page.evaluate("scrollY") == scrolled

    layout = game / "layouts" / "deck_card.yaml"
    good = layout.read_text()
    layout.write_text(good.replace("text: {size: 10}", "text: {sise: 10}"))
    banner = page.get_by_role("alert")
    expect(banner).to_be_visible(timeout=LIVE_MS)
    line = next(n for n, text in enumerate(good.splitlines(), start=1) if "text: {size: 10}" in text)
    expect(banner).to_contain_text(f"deck_card.yaml:{line}: boxes.text.sise: unknown key")
    expect(explore.locator(".face svg text", has_text="keep both")).to_have_count(1)  # the last good face stays
    assert page.evaluate("scrollY") == scrolled
    assert page.evaluate("""() => [document.querySelector('.top .game'), document.getElementById('zoom')].every((el) => {
        const r = el.getBoundingClientRect();
        return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === el;
    })""")  # scrolled down, the banner is under the header, not over its name and controls
    assert banner.bounding_box()["y"] >= page.locator("#controls").bounding_box()["y"] + 20
    page.screenshot(path=str(studio.out.parent / "studio-banner.png"))
    layout.write_text(good)
    expect(banner).to_be_hidden(timeout=LIVE_MS)
    assert page.evaluate("scrollY") == scrolled

    cards.write_text(cards.read_text() + "2,Lighthouse,Event,1,1,Look out.,\n")  # a face added, one count up
    expect(page.get_by_role("status")).to_have_text("1 face added: Deck, front: Lighthouse", timeout=LIVE_MS)
    expect(page.locator('[data-id="deck.front.5"] .count input')).to_have_value("2")
    expect(page.locator('[data-id="deck.back.1"] .count')).to_have_text("× 11")
    assert page.evaluate("scrollY") == scrolled
    context.close()


def test_a_hidden_title_is_marked_on_its_face(browser, studio):
    context = browser.new_context(viewport=DESK)
    page = context.new_page()
    page.goto(studio.url)
    promo = page.locator('[data-id="promo.front.1"]')
    promo.scroll_into_view_if_needed()
    expect(promo.locator(".warnings li")).to_have_text(
        "title: text hidden under box 'panel' drawn over it", timeout=LIVE_MS)
    mark = promo.locator(".overlay .mark rect")
    expect(mark).to_have_count(1)
    box, face = mark.bounding_box(), promo.locator(".face").bounding_box()
    assert face["y"] < box["y"] < face["y"] + face["height"] * 0.3  # at the title, near the top of the card
    page.add_style_tag(content=".tile { width: 2.2rem !important; }")  # narrower than "× 1" itself
    lines = page.evaluate("() => [...document.querySelectorAll('.tile .count')].map((c) => c.getClientRects().length)")
    assert lines and set(lines) == {1}  # a count never wraps under a long name
    page.add_style_tag(content=".tile { width: auto !important; }")
    promo.locator(".face").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("promo.yaml:8")
    expect(dialog.locator("[data-row]")).to_have_text(
        "      - {count: 1, title: Harbour Master General, text: Take the first turn.}")
    expect(dialog.locator("#edit-title")).to_have_value("Harbour Master General")
    context.close()

