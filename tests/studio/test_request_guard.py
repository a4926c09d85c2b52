"""The request guard (starpnp/web/guard.py) as the studio and the companion use it: a stranger's page, a
rebound name or a request without the page's token is refused before anything is read or written."""
from __future__ import annotations

import json
import threading
import time
import urllib.request

import pytest

from starpnp.companion import create_app as create_companion
from starpnp.generator.studio import create_app
from starpnp.web.guard import loopback_names, split_host


def settings(client, **headers):
    return client.post("/settings", json={"ink": "low"}, headers=headers)


def test_the_page_carries_its_token_and_its_own_writes_pass(app, as_page):
    token = app.extensions["request_guard"].token
    assert f'<meta name="studio-token" content="{token}">' in app.test_client().get("/").text
    assert settings(as_page(app)).status_code == 200


@pytest.mark.parametrize("headers, line", [
    ({"Origin": "http://localhost"}, "X-Studio-Token: missing or wrong"),
    ({"Origin": "http://localhost", "X-Studio-Token": "guess"}, "X-Studio-Token: missing or wrong"),
    ({"X-Studio-Token": "TOKEN"}, "Origin: a change must come from this server's page"),
    ({"Origin": "http://evil.example", "X-Studio-Token": "TOKEN"}, "Origin: 'http://evil.example' is not"),
    ({"Origin": "null", "X-Studio-Token": "TOKEN"}, "Origin: 'null' is not"),
])
def test_a_write_without_the_page_s_origin_and_token_is_a_403_and_changes_nothing(app, headers, line):
    desk = app.extensions["studio_desk"]
    before = desk.settings
    headers = {k: v.replace("TOKEN", app.extensions["request_guard"].token) for k, v in headers.items()}
    answer = settings(app.test_client(), **headers)
    assert answer.status_code == 403 and answer.json["error"].startswith(line)
    assert desk.settings == before


def test_a_rebound_host_name_is_refused_even_for_a_read(app):
    client = app.test_client()
    for host in ("evil.example", "evil.example:8040", "localhost.evil.example"):
        answer = client.get("/news", headers={"Host": host})
        assert answer.status_code == 403 and answer.json["error"].startswith(f"Host: '{host}'")
    for host in ("localhost:8040", "127.0.0.1:8040", "[::1]:8040"):
        assert client.get("/news", headers={"Host": host}).status_code == 200
    # a read a foreign page asks for is refused too, though the browser would not show it the answer
    assert client.get("/news", headers={"Origin": "http://evil.example"}).status_code == 403


def test_names_and_hosts():
    assert split_host("[::1]:8040") == ("::1", "8040") and split_host("LocalHost") == ("localhost", "")
    assert split_host("::1") == ("::1", "")
    assert "localhost" in loopback_names("127.0.0.1") and "localhost" in loopback_names("0.0.0.0")
    assert loopback_names("192.168.1.5") == {"192.168.1.5"}


def test_the_companion_refuses_another_site_s_form_but_not_its_own(tmp_path):
    app = create_companion({"DATA_DIR": tmp_path, "PUBLIC_URL": "https://table.example/"})
    client = app.test_client()
    for origin in ("http://evil.example", "null"):
        answer = client.post("/api/tables", json={"game": "stratastar", "players": [{"name": "Ann", "color": "red"}, {"name": "Ben", "color": "blue"}]},
                             headers={"Origin": origin, "Accept": "application/json"})
        assert answer.status_code == 403, origin
    for origin in ("http://localhost", "https://table.example"):
        answer = client.post("/api/tables", json={"game": "stratastar", "players": [{"name": "Ann", "color": "red"}, {"name": "Ben", "color": "blue"}]},
                             headers={"Origin": origin})
        assert answer.status_code == 201, (origin, answer.text)


def test_thirty_open_pages_do_not_delay_another_request(studio):
    """Each page holds a live-update stream (a thread of its own, not one of the request threads)."""
    streams = [urllib.request.urlopen(studio.url + "push", timeout=10) for _ in range(30)]
    try:
        for stream in streams:
            assert stream.readline().startswith(b"retry:")
        started = time.monotonic()
        with urllib.request.urlopen(studio.url + "news?since=0", timeout=10) as answer:
            assert json.load(answer)["distinct"] > 3
        assert time.monotonic() - started < 1.0
    finally:
        for stream in streams:
            stream.close()
