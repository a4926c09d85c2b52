"""HTML pages and htmx fragments through the test client: forms without JS, CSRF, polls, spectators."""
import html
import re

from companion_test_helpers import csrf_from, sit

def page(client, table, seat="p1"):
    """The table page of a phone seated as `seat` (sitting down first, as the lobby's button does)."""
    response = client.get(sit(client, table["code"], seat))
    assert response.status_code == 200
    return response.get_data(as_text=True)


def score(client, table, player="p1"):
    return client.get(f"/api/tables/{table['code']}").get_json()["state"]["counters"][player]["Score"]


def tap(client, table, token, htmx=False, **fields):
    data = {"csrf_token": token, "type": "add", "player": "p1", "delta": "1", **fields}
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/t/{table['code']}/events", data=data, headers=headers)


def test_security_headers_on_every_page(client, table):
    response = client.get(sit(client, table["code"]))
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    html = response.get_data(as_text=True)
    assert not re.search(r"<script(?![^>]*\bsrc=)", html), "inline script"
    assert not re.search(r"\son[a-z]+=", html), "inline event handler"
    assert " style=" not in html


def test_htmx_is_served_from_the_python_package(client):
    response = client.get("/static/vendor/htmx-2.0.3.min.js")
    assert response.status_code == 200 and b"2.0.3" in response.data
    assert response.headers["Content-Type"].startswith("text/javascript")


def test_a_form_without_javascript_posts_and_redirects(client, table):
    token = csrf_from(page(client, table))
    response = tap(client, table, token)
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{table['code']}/play")
    assert score(client, table) == 1


def test_an_htmx_tap_gets_the_live_fragment(client, table):
    token = csrf_from(page(client, table))
    response = tap(client, table, token, htmx=True)
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "<html" not in html
    assert 'id="version" name="v" value="1"' in html


def test_forms_without_a_valid_csrf_token_are_refused(client, table):
    assert tap(client, table, "").status_code == 400
    assert tap(client, table, "forged.token.value").status_code == 400
    other = client.application.test_client()  # another browser: its own session
    stolen = csrf_from(page(client, table))
    sit(other, table["code"])
    response = other.post(f"/t/{table['code']}/events",
                          data={"csrf_token": stolen, "type": "add", "player": "p1", "delta": "1"})
    assert response.status_code == 400 and "csrf_token" in response.get_data(as_text=True)
    assert score(client, table) == 0


def test_csrf_tokens_last_a_whole_evening(client, table, monkeypatch):
    import time as time_module
    token = csrf_from(page(client, table))
    later = time_module.time() + 12 * 3600
    monkeypatch.setattr("itsdangerous.timed.time.time", lambda: later)
    assert tap(client, table, token).status_code == 303


def test_an_invalid_tap_shows_a_message_and_changes_nothing(client, table):
    token = csrf_from(page(client, table))
    response = tap(client, table, token, htmx=True, delta="lots")
    assert response.status_code == 422
    assert "Expected a whole number" in response.get_data(as_text=True)  # a sentence, no field name
    response = tap(client, table, token, delta="lots")  # without JS: the page with the message
    assert response.status_code == 422 and "<html" in response.get_data(as_text=True)
    assert score(client, table) == 0


def test_poll_answers_204_while_nothing_changed(client, table):
    live = f"/t/{table['code']}/play/live"
    token = csrf_from(page(client, table))
    assert client.get(f"{live}?v=0").status_code == 204
    tap(client, table, token)
    changed = client.get(f"{live}?v=0")
    assert changed.status_code == 200 and 'value="1"' in changed.get_data(as_text=True)
    assert client.get(f"{live}?v=1").status_code == 204
    assert client.get(f"{live}").status_code == 200  # no version: send the fragment


def test_undo_form_takes_back_my_last_tap(client, table):
    token = csrf_from(page(client, table))
    tap(client, table, token, delta="5")
    tap(client, table, token, delta="2")
    response = client.post(f"/t/{table['code']}/undo", data={"csrf_token": token})
    assert response.status_code == 303 and score(client, table) == 5
    history = client.get(f"/t/{table['code']}/history").get_data(as_text=True)
    assert history.index("took back #2") < history.index("#1")  # newest first


def test_spectators_see_the_table_but_get_no_forms(client, table):
    watch_path = table["watch_url"].removeprefix("http://table.test")
    html = client.get(watch_path).get_data(as_text=True)
    assert "Ann" in html and "Watching" in html
    assert "<form" not in html and table["code"] not in html  # the join code is not leaked
    assert client.get(f"{watch_path}/live?v=0").status_code == 204
    assert client.post(f"{watch_path}/events").status_code in (404, 405)


def test_home_lists_tables_and_creates_one_with_a_form(client, table):
    assert table["code"] not in client.get("/").get_data(as_text=True)  # made through the API, never opened
    client.get(f"/t/{table['code']}")
    home = client.get("/").get_data(as_text=True)
    assert table["code"] in home
    assert 'href="/print"' in home  # and the way to print a set
    response = client.post("/tables", data={"csrf_token": csrf_from(home), "game": "generic", "name1": "Cy",
                                             "color1": "green", "name2": "Di", "color2": "yellow",
                                             "counters": "VP, Coins"})
    assert response.status_code == 303
    lobby = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "<svg" in lobby and "Cy" in lobby and "Di" in lobby


def test_create_form_errors_are_shown_on_the_form(client):
    home = client.get("/").get_data(as_text=True)
    response = client.post("/tables", data={"csrf_token": csrf_from(home), "game": "generic", "name1": "Solo"})
    assert response.status_code == 400 and "players:" in response.get_data(as_text=True)


def test_join_form_accepts_sloppy_codes_and_explains_bad_ones(client, table):
    sloppy = table["code"].lower().replace("-", " ")
    response = client.get(f"/join?code={sloppy}")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{table['code']}")
    assert client.get("/join?code=hello").status_code == 400
    assert client.get("/join?code=0000-0000").status_code == 404


def test_unknown_pages_and_seats_are_404_pages(client, table):
    for path in ("/t/0000-0000", "/t/0000-0000/play", "/t/nonsense/play/live", "/nowhere"):
        response = client.get(path)
        assert response.status_code == 404 and "<html" in response.get_data(as_text=True), path


def test_the_phone_shows_the_printed_player_colours(client):
    """One palette: the pieces' colours are the phone's (light screens), and no stylesheet has its own."""
    from starpnp.generator.data.palette import PLAYER_COLORS

    css = client.get("/static/palette.css").get_data(as_text=True)
    for color in PLAYER_COLORS.values():
        assert f"--{color.id}: {color.on_light};" in css and f"--{color.id}: {color.dark};" in css
        if color.id != "white":  # printed white would vanish on a white screen: the one exception
            assert color.on_light == color.hex
    assert "palette.css" in client.get("/").get_data(as_text=True)
    own = client.get("/static/companion.css").get_data(as_text=True)
    assert not any(f"--{color}:" in own for color in PLAYER_COLORS)


def test_the_home_page_lists_only_the_tables_this_browser_opened(app):
    """Join codes give control of every seat: another browser must never see them on the home page, and
    a spectator page shows none (its Home link leads to a page listing nothing of others')."""
    host, guest, stranger = app.test_client(), app.test_client(), app.test_client()
    body = {"game": "generic", "players": [{"name": "Ann"}, {"name": "Ben"}]}
    mine = host.post("/api/tables", json=body).get_json()
    other = host.post("/api/tables", json=body).get_json()
    host.get(f"/t/{mine['code']}")
    sit(guest, other["code"], "p2")
    assert mine["code"] in host.get("/").get_data(as_text=True)
    assert other["code"] not in host.get("/").get_data(as_text=True)
    assert other["code"] in guest.get("/").get_data(as_text=True) and mine["code"] not in guest.get("/").get_data(as_text=True)
    watch = stranger.get(mine["watch_url"].removeprefix("http://table.test")).get_data(as_text=True)
    assert mine["code"] not in watch
    home = stranger.get("/").get_data(as_text=True)
    assert mine["code"] not in home and other["code"] not in home


def test_a_mistyped_join_code_keeps_what_was_typed_and_says_what_to_check(client):
    response = client.get("/join?code=7K2M-QX4Q")
    page = response.get_data(as_text=True)
    assert response.status_code == 404 and 'value="7K2M-QX4Q"' in page
    assert "No table has that code. Check it on the host" in page


def test_a_phone_acts_only_as_the_seat_it_took(client, table):
    """The seat comes from the phone's cookie, never from the URL or the form: Ann's phone cannot undo
    Ben's tap, and sends for Ben only what the game allows for another seat, logged as "Ann for Ben"."""
    code = table["code"]
    assert client.get(f"/t/{code}/play").headers["Location"].endswith(f"/t/{code}")  # not seated: the lobby
    assert client.post(f"/t/{code}/events", data={"csrf_token": "x"}).status_code in (400, 401)
    ben = client.application.test_client()
    ben_token = csrf_from(page(ben, table, "p2"))
    assert tap(ben, table, ben_token, player="p2", delta="4").status_code == 303
    token = csrf_from(page(client, table, "p1"))
    assert client.post(f"/t/{code}/undo", data={"csrf_token": token}).status_code == 422  # Ann has nothing
    assert score(client, table, "p2") == 4
    assert tap(client, table, token, player="p2", delta="1").status_code == 303  # counters: anyone keeps count
    history = client.get(f"/t/{code}/history").get_data(as_text=True)
    assert "Ann for Ben" in history and history.count("sat down") == 2
    assert client.post(f"/t/{code}/undo", data={"csrf_token": token}).status_code == 303
    assert score(client, table, "p2") == 4  # Ann took back her own tap for Ben, not Ben's
    lobby = client.get(f"/t/{code}").get_data(as_text=True)
    assert "This phone plays as <strong>Ann</strong>" in lobby


def test_a_seat_taken_again_on_another_phone_is_noted(client, table):
    for phone in (client, client.application.test_client()):
        page(phone, table, "p2")
    history = client.get(f"/t/{table['code']}/history").get_data(as_text=True)
    assert "The host gave Ben's seat to a new phone (it showed " in html.unescape(history)


def test_with_a_game_folder_the_create_form_shows_the_designers_game(tmp_path):
    """`serve --game-folder` is for the designer's own game: the form starts on it, not on one of ours."""
    from pathlib import Path

    from starpnp.companion import create_app

    couriers = Path(__file__).resolve().parent.parent / "fixtures" / "couriers"
    app = create_app({"DATA_DIR": str(tmp_path), "GAME_FOLDERS": [str(couriers)]})
    html = app.test_client().get("/").get_data(as_text=True)
    assert re.findall(r'<option value="([a-z_]+)" selected>', html)[0] == "couriers"
    assert "Comet Couriers: 2 to 4 players" in html
