"""The card list in a real browser, as a designer on `starpnp new` uses it (issue #48): add, duplicate,
delete and reorder cards (by the buttons, by Alt+Arrow and by dragging), all counts to 2 at once, and Undo;
each change's `git diff` is exactly the intended lines; axe-core finds nothing serious on the list."""
from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from starpnp_test_support import axe_violations

pytestmark = pytest.mark.browser

LIVE_MS = 5000
HEADER = "count,title,type,cost,value,text,color\n"
TRADE = "3,Trade,Action,1,1,Swap one of your coins for a coin of another player's colour.,\n"
EXPLORE = ('3,Explore,Action,2,2,"Pay 1 {coin}: look at the top two cards of the deck, keep one and put the other '
           'at the bottom.",#2E7D32\n')
BUILD = "2,Build,Action,3,3,Pay 3 coins to place a marker on an empty space next to one of yours.,#6A1B9A\n"
WINDFALL = "1,Windfall,Event,0,0,Every player takes 2 coins. Then discard this card.,#EF6C00\n"


def git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, check=True).stdout


def changed_lines(folder: Path) -> list[str]:
    """The `git diff`'s changed lines (+ and -), without its headers."""
    return [line for line in git(folder, "diff", "--unified=0").splitlines()
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def settled(folder: Path, expected: str, name: str = "cards.csv") -> None:
    deadline = time.monotonic() + LIVE_MS / 1000
    while time.monotonic() < deadline and (folder / name).read_text() != expected:
        time.sleep(0.05)
    assert (folder / name).read_text() == expected


@pytest.fixture
def designer(browser, studio):
    folder = studio.folder
    git(folder, "init", "-q")
    git(folder, "add", ".")
    git(folder, "-c", "user.email=d@example.org", "-c", "user.name=Designer", "commit", "-qm", "start")
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    page.goto(studio.url)
    page.get_by_role("button", name="Card list").click()
    panel = page.locator("#cardlist")
    expect(panel.locator("tbody tr")).not_to_have_count(0, timeout=LIVE_MS)
    panel.get_by_label("Component").select_option("deck")
    expect(panel.locator("tbody tr")).to_have_count(4, timeout=LIVE_MS)
    yield page, panel, folder
    page.context.close()


def choose(panel, *rows: int) -> None:
    for row in rows:
        panel.locator("tbody tr").nth(row).locator("input.cl-pick").check()


def step(folder: Path, expected: str) -> list[str]:
    """Once cards.csv holds `expected`: the lines this step changed (`git diff`), then the step committed so
    the next diff is the next step's alone."""
    settled(folder, expected)
    lines = changed_lines(folder)
    git(folder, "-c", "user.email=d@example.org", "-c", "user.name=Designer", "commit", "-qam", "step")
    return lines


def rows_shown(panel, count: int):
    expect(panel.locator("tbody tr")).to_have_count(count, timeout=LIVE_MS)
    return panel.locator("tbody tr")


def test_a_designer_adds_copies_deletes_and_reorders_cards_and_sets_every_count(designer):
    page, panel, folder = designer
    assert axe_violations(page) == []
    new = "1,New card,,,,,\n"

    choose(panel, 0)
    panel.get_by_role("button", name="Duplicate").click()
    settled(folder, HEADER + TRADE + TRADE + EXPLORE + BUILD + WINDFALL)
    assert changed_lines(folder) == ["+" + TRADE.rstrip("\n")]
    rows_shown(panel, 5)
    page.locator("[data-undo]").first.click()  # Undo takes the copy back: the file is as committed
    settled(folder, HEADER + TRADE + EXPLORE + BUILD + WINDFALL)
    assert changed_lines(folder) == []

    rows_shown(panel, 4)
    panel.get_by_role("button", name="Add card").click()  # after the chosen card, Trade
    assert step(folder, HEADER + TRADE + new + EXPLORE + BUILD + WINDFALL) == ["+" + new.rstrip()]

    rows_shown(panel, 5).nth(1).locator("input.cl-pick").press("Alt+ArrowDown")  # the new card below Explore
    assert step(folder, HEADER + TRADE + EXPLORE + new + BUILD + WINDFALL) in (
        ["-" + new.rstrip(), "+" + new.rstrip()], ["-" + EXPLORE.rstrip(), "+" + EXPLORE.rstrip()])
    expect(panel.locator("tbody tr").nth(2)).to_contain_text("New card", timeout=LIVE_MS)

    panel.locator("tbody tr").nth(4).drag_to(panel.locator("tbody tr").nth(0))  # Windfall dragged to the top
    assert step(folder, HEADER + WINDFALL + TRADE + EXPLORE + new + BUILD) == [
        "+" + WINDFALL.rstrip(), "-" + WINDFALL.rstrip()]
    expect(panel.locator("tbody tr").nth(0)).to_contain_text("Windfall", timeout=LIVE_MS)

    for box in panel.locator("input.cl-pick:checked").all():
        box.uncheck()
    choose(panel, 3)
    panel.get_by_role("button", name="Delete").click()
    assert step(folder, HEADER + WINDFALL + TRADE + EXPLORE + BUILD) == ["-" + new.rstrip()]

    rows_shown(panel, 4)
    choose(panel, 0, 1, 2, 3)
    panel.get_by_label("Set").select_option("count")
    panel.get_by_label("to", exact=True).fill("2")
    panel.get_by_role("button", name="Set on chosen cards").click()
    twos = [WINDFALL, TRADE, EXPLORE]  # Build already has 2: its line stays as it was
    assert step(folder, HEADER + "".join("2" + row[1:] for row in twos) + BUILD) == (
        ["-" + row.rstrip() for row in twos] + ["+2" + row[1:].rstrip() for row in twos])
    expect(panel.locator("[data-cl-status]")).to_contain_text("count = 2 on 4 cards", timeout=LIVE_MS)
    expect(page.locator('[data-id="deck.front.1"] .count input')).to_have_value("2", timeout=LIVE_MS)  # its face
    assert axe_violations(page) == []
