"""Real Chromium at 360x740: every game's scoreboard strip is on the first screen, shows every player, is set
large enough to read across a table, and nothing on the page runs off the side; TV mode fits a landscape
screen and never shows the join code. With STARPNP_SCREENSHOTS=<dir> it saves the screens it checks.
And the game-first create form, in-process: the game's players and options, and what it creates."""
from __future__ import annotations

import re
from contextlib import contextmanager

import pytest
from playwright.sync_api import expect

from companion_test_helpers import bearer, create_table, csrf_from, open_seat, request, save_screens

NAMES = ["Ann", "Maximiliana Featherstonehaugh", "Cleo", "Dmitri"]  # one name longer than a quarter screen
SEATS = {"generic": 4, "handful_of_stars": 4, "stars_inc": 4, "starship_catan": 2, "stratastar": 4}
FIRST_MOVE = {  # one change that puts a player ahead: (seat, event)
    "generic": ("p2", {"type": "add", "delta": 3}),
    "handful_of_stars": ("p2", {"type": "vp", "delta": 3}),
    "stars_inc": ("p2", {"type": "adjust", "what": "points", "delta": 3}),
    "starship_catan": ("p2", {"type": "vp", "delta": 3}),
    "stratastar": ("p1", {"type": "colonise"}),
}
MIN_SCORE_PX = 20
SIDEWAYS = """() => [...document.querySelectorAll("body *")].filter(el => {
    const r = el.getBoundingClientRect();
    return r.width && (r.left < -0.5 || r.right > innerWidth + 0.5);
  }).map(el => el.outerHTML.slice(0, 80))"""


@contextmanager
def screen(browser, width: int = 360, height: int = 740, script: str | None = None):
    """A page in a fresh browser context (its own cookies: another phone) at width x height, a touch phone
    when narrow; `script` runs before each page's own. Closed afterwards."""
    narrow = width < 600
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=narrow, has_touch=narrow)
    if script:
        context.add_init_script(script)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.parametrize("game", SEATS)
def test_strip_on_the_first_screen_readable_and_nothing_overflows(live_server, browser, game):
    table = create_table(live_server, game, [{"name": name} for name in NAMES[:SEATS[game]]])
    seat, event = FIRST_MOVE[game]
    status, _ = request("POST", f"{live_server}/api/tables/{table['code']}/events", {**event, "player": seat},
                        bearer(table["tokens"][seat]))
    assert status == 201
    _, now = request("GET", f"{live_server}/api/tables/{table['code']}")
    ahead = now["derived"]["scoreboard"]["rows"][0]
    assert ahead["player"] == seat
    with screen(browser) as page:
        open_seat(page, live_server, table["code"], "p1")
        strip = page.locator("[data-scoreboard]")
        expect(strip).to_be_visible()
        box = strip.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 740, box  # seen without scrolling
        tiles = strip.locator("[data-score-player]")
        expect(tiles).to_have_count(SEATS[game])
        for i in range(SEATS[game]):
            tile = tiles.nth(i).bounding_box()
            assert tile["x"] >= 0 and tile["x"] + tile["width"] <= 360 and tile["y"] + tile["height"] <= 740, tile
        sizes = strip.locator("[data-score]").evaluate_all("els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
        assert min(sizes) >= MIN_SCORE_PX, sizes
        expect(tiles.nth(0)).to_contain_text("Ann")  # seat order: no tile moves as the scores change
        leader = strip.locator(f'[data-score-player="{seat}"]')
        expect(leader).to_contain_text("1st")
        expect(leader.locator("[data-score]")).to_have_text(str(ahead["score"]))
        assert page.evaluate(SIDEWAYS) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        save_screens(page, f"scoreboard-{game}")


@pytest.mark.browser
def test_tv_mode_fits_a_landscape_screen_and_hides_the_join_code(live_server, browser):
    table = create_table(live_server, "handful_of_stars", [{"name": name} for name in NAMES])
    with screen(browser, 1280, 720) as page:
        page.goto(table["watch_url"] + "/tv")
        strip = page.locator("[data-scoreboard]")
        expect(strip.locator("[data-score-player]")).to_have_count(4)
        box = strip.bounding_box()
        assert box["y"] + box["height"] <= 720 and box["width"] > 1000, box  # one row across the screen
        sizes = strip.locator("[data-score]").evaluate_all("els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
        assert min(sizes) >= 100, sizes
        expect(page.locator("[data-turn]")).to_contain_text("Ann's turn")
        status, _ = request("POST", f"{live_server}/api/tables/{table['code']}/events",
                            {"type": "colony", "player": "p3"}, bearer(table["tokens"]["p3"]))
        assert status == 201
        expect(strip.locator('[data-score-player="p3"]')).to_contain_text("1st")  # the poll brought it
        assert table["code"] not in page.content() and page.evaluate(SIDEWAYS) == []
        save_screens(page, "tv-handful_of_stars")



@pytest.mark.browser
def test_final_standings_come_first_and_fit_a_phone(live_server, browser):
    table = create_table(live_server, "handful_of_stars", [{"name": name} for name in NAMES])
    events = [("p2", {"type": "occupy", "delta": 1}), ("p3", {"type": "colony"}),
              *[("p1", {"type": "shuffle"})] * 20, *[(f"p{i % 4 + 1}", {"type": "end_turn"}) for i in range(8)]]
    for seat, event in events:
        status, body = request("POST", f"{live_server}/api/tables/{table['code']}/events", {**event, "player": seat},
                               bearer(table["tokens"][seat]))
        assert status == 201, body
    with screen(browser) as page:
        open_seat(page, live_server, table["code"], "p1")
        standings = page.locator("[data-standings]")
        expect(standings.locator("[data-verdict]")).to_have_text("Cleo wins with 29 VP.")
        expect(standings.locator("[data-player-row]")).to_have_count(4)
        assert standings.bounding_box()["y"] < 120  # the first thing under the header
        last = standings.locator("[data-player-row]").last.bounding_box()
        assert last["y"] + last["height"] <= 740  # every place on the first screen
        assert page.evaluate(SIDEWAYS) == []
        save_screens(page, "standings-handful_of_stars")

# -- the create form: game first ----------------------------------------------------------------------------
def selected_game(html: str) -> str:
    return re.search(r'<option value="([a-z_]+)" selected>', html).group(1)


def test_create_form_starts_with_one_of_our_games_and_its_player_limits(client):
    html = client.get("/").get_data(as_text=True)
    assert selected_game(html) != "generic"
    catan = client.get("/?game=starship_catan&name1=Ann").get_data(as_text=True)
    assert selected_game(catan) == "starship_catan" and "Starship Catan: 2 players." in catan
    assert re.findall(r'name="name(\d)"', catan) == ["1", "2"] and 'value="Ann"' in catan  # the typed name kept
    stars = client.get("/?game=stars_inc").get_data(as_text=True)
    assert re.findall(r'name="name(\d)"', stars) == ["1", "2", "3", "4"]
    assert len(re.findall(r'name="name\d"[^>]*required', stars)) == 2
    assert '<option value="advanced">Advanced</option>' in stars
    assert re.search(r'name="target_score" value="30" type="number" step="1" inputmode="numeric" min="1" max="999"',
                     stars)
    assert 'name="counters"' not in stars and 'name="power_cards"' in client.get("/?game=stratastar").get_data(as_text=True)


@pytest.mark.parametrize("game, sent, options", [
    ("stars_inc", {"mode": "advanced", "target_score": "20", "max_h": "14"},
     {"mode": "advanced", "target_score": 20, "max_h": 14, "max_he": 12}),
    ("stratastar", {"power_cards": ["off", "on"]}, {"power_cards": True}),
    ("stratastar", {"power_cards": "off"}, {"power_cards": False}),
    ("generic", {"counters": "VP, Coins"}, {"counters": ["VP", "Coins"]}),
])
def test_create_form_sends_the_games_options(client, game, sent, options):
    home = client.get(f"/?game={game}").get_data(as_text=True)
    response = client.post("/tables", data={"csrf_token": csrf_from(home), "game": game, "name1": "Ann",
                                            "name2": "Bo", **sent})
    assert response.status_code == 303, response.get_data(as_text=True)[:400]
    code = response.headers["Location"].rsplit("/", 1)[1]
    made = client.get(f"/api/tables/{code}").get_json()["options"]
    assert {name: made[name] for name in options} == options


def test_create_form_refuses_a_bad_option_and_keeps_the_form(client):
    home = client.get("/?game=stars_inc").get_data(as_text=True)
    response = client.post("/tables", data={"csrf_token": csrf_from(home), "game": "stars_inc", "name1": "Ann",
                                            "name2": "Bo", "target_score": "lots"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and "options.target_score: expected a whole number" in html
    assert selected_game(html) == "stars_inc" and 'value="Bo"' in html


# -- keep-awake ------------------------------------------------------------------------------------------
FAKE_WAKE_LOCK = """window.wakeLocks = [];
Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {request(kind) {
  const sentinel = new EventTarget();
  sentinel.release = () => sentinel.dispatchEvent(new Event("release"));
  window.wakeLocks.push([kind, sentinel]);
  return Promise.resolve(sentinel); }}});"""
PLAIN_HTTP = 'Object.defineProperty(window, "isSecureContext", {value: false});'


@pytest.mark.browser
def test_table_page_holds_a_screen_wake_lock_and_takes_it_again(live_server, browser):
    table = create_table(live_server, "generic")
    with screen(browser, script=FAKE_WAKE_LOCK) as page:
        open_seat(page, live_server, table["code"], "p1")
        expect(page.locator("html")).to_have_attribute("data-awake", "lock")
        assert page.evaluate("wakeLocks.map(lock => lock[0])") == ["screen"]
        page.evaluate("wakeLocks[0][1].release()")  # what the browser does when the page is hidden
        expect(page.locator("html")).to_have_attribute("data-awake", "off")
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # back in view
        expect(page.locator("html")).to_have_attribute("data-awake", "lock")
        assert page.evaluate("wakeLocks.length") == 2
        page.goto(f"{live_server}/")  # the home page does not keep the screen on
        assert page.evaluate("wakeLocks.length") == 0 and page.locator("html[data-awake]").count() == 0


@pytest.mark.browser
def test_over_plain_http_a_muted_looping_video_keeps_the_screen_on(live_server, browser):
    table = create_table(live_server, "generic")
    with screen(browser, script=PLAIN_HTTP) as page:
        page.goto(table["watch_url"] + "/tv")
        page.mouse.click(180, 600)  # a first tap starts it where the browser needs one
        expect(page.locator("html")).to_have_attribute("data-awake", "video")
        video = page.locator("video.keep-awake")
        assert video.evaluate("v => v.muted && v.loop && !v.paused && v.currentSrc.includes('/static/awake.')")


# -- steppers ----------------------------------------------------------------------------------------------
@pytest.mark.browser
def test_steppers_step_by_one_by_five_on_a_hold_and_stay_within_the_fields_limits(live_server, browser):
    table = create_table(live_server, "generic")
    with screen(browser) as page:
        open_seat(page, live_server, table["code"], "p1")
        form = page.locator('form:has(input[name="type"][value="set"])')
        field, less, more = form.locator("input[name=value]"), form.locator(".step-down"), form.locator(".step-up")
        for _ in range(3):
            more.click()
        expect(field).to_have_value("3")
        less.dispatch_event("pointerdown")  # held: one step of 5, no keypad and no minus key needed
        expect(field).to_have_value("-2")
        less.dispatch_event("pointerup")
        form.get_by_role("button", name="Set", exact=True).click()
        expect(page.locator('[data-score-player="p1"] [data-score]')).to_have_text("-2")
        assert page.evaluate(SIDEWAYS) == []

        page.goto(f"{live_server}/?game=stars_inc")
        target = page.locator("input[name=target_score]")
        target.fill("2")
        target.locator("xpath=..").locator(".step-down").dispatch_event("pointerdown")
        expect(target).to_have_value("1")  # 2 - 5, held at the field's minimum
