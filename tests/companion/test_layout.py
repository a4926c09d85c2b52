"""The table page on a 360 px phone, light and dark: nothing overflows sideways, tap targets are big.

With STARPNP_SCREENSHOTS=<dir> (e.g. docs/screenshots) it saves companion-table-{light,dark}.png there.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from companion_test_helpers import bearer, create_table, open_seat, request

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def busy_table(live_server):
    players = [{"name": "Ann", "color": "red"}, {"name": "Benedikt Longname", "color": "yellow"},
               {"name": "Cy", "color": "blue"}]
    table = create_table(live_server, players=players, options={"counters": ["VP", "Credits"]})
    for event in ({"player": "p1", "delta": 4}, {"player": "p2", "delta": 7, "counter": "Credits"},
                  {"player": "p3", "delta": 2}, {"player": "p3", "delta": 1}):
        request("POST", f"{live_server}/api/tables/{table['code']}/events", {"type": "add", **event},
                bearer(table["tokens"]["p1"]))
    return table["code"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_table_page_fits_a_360px_phone(browser, live_server, busy_table, scheme, tmp_path):
    context = browser.new_context(viewport={"width": 360, "height": 740}, color_scheme=scheme,
                                  device_scale_factor=2)
    page = context.new_page()
    open_seat(page, live_server, busy_table, "p1")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    small = page.evaluate("""[...document.querySelectorAll('#live button')]
        .filter(b => b.getBoundingClientRect().height < 44).length""")
    assert small == 0
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert (background == "rgb(14, 15, 18)") == (scheme == "dark")
    shot = tmp_path / f"companion-table-{scheme}.png"
    page.screenshot(path=str(shot))
    if folder := os.environ.get("STARPNP_SCREENSHOTS"):
        shutil.copy(shot, Path(folder) / shot.name)
    context.close()
