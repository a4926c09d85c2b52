"""Helpers for tests that talk to a real companion server over HTTP (standard library only)."""
from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from flask.testing import FlaskClient

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(method: str, url: str, body=None, headers: dict | None = None, raw: bytes | None = None,
            timeout: float = 10) -> tuple[int, dict | str]:
    """(status, parsed JSON or text) for one request; HTTP errors are answers, not exceptions."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    hdrs = {"Content-Type": "application/json"} if data is not None else {}
    hdrs.update(headers or {})
    req = urllib.request.Request(url, data=data, method=method, headers=hdrs)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            status, text = resp.status, resp.read().decode()
            ctype = resp.headers.get("Content-Type", "")
    except urllib.error.HTTPError as error:
        status, text, ctype = error.code, error.read().decode(), error.headers.get("Content-Type", "")
    return status, (json.loads(text) if "json" in ctype and text else text)


def create_table(base_url: str, game: str = "generic", players=None, options=None, group: str | None = None) -> dict:
    """Create a table through the JSON API (with a group code, if given) and return its JSON (code, url,
    version, state), plus `tokens`: each seat joined once, as each player's phone would ({"p1": token, ...})."""
    players = players or [{"name": "Ann", "color": "red"}, {"name": "Ben", "color": "blue"}]
    status, body = request("POST", f"{base_url}/api/tables", {"game": game, "players": players,
                                                            "options": options or {}, **({"group": group} if group else {})})
    assert status == 201, body
    HOSTS[body["code"]] = body["host_token"]
    body["tokens"] = {seat["id"]: join(base_url, body["code"], seat["id"]) for seat in body["state"]["players"]}
    return body


HOSTS: dict[str, str] = {}  # join code -> host token, of the tables create_table made: the tests are their host


def join(base_url: str, code: str, player: str, take_over: bool = False) -> str:
    """A seat token for `player` (POST /api/tables/<code>/join); a seat held elsewhere is asked for and,
    with `take_over`, given by the host."""
    status, body = request("POST", f"{base_url}/api/tables/{code}/join", {"player": player, "take_over": take_over})
    if status == 202:
        grant(base_url, code, player)
        return body["token"]
    assert status == 201, body
    return body["token"]


def grant(base_url: str, code: str, player: str) -> None:
    """As the table's host, give `player`'s seat to the phone asking for it first."""
    status, body = request("POST", f"{base_url}/api/tables/{code}/seats/{player}/grant", {"host_token": HOSTS[code]})
    assert status == 200, body


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


API_ACTION = re.compile(r"/api/tables/([^/]+)/(events|undo)")


class PhoneClient(FlaskClient):
    """Flask's test client used as a phone uses the API: an event or undo sent without an Authorization
    header joins the seat its body names (`player`, else p1) once, and carries that seat's token.
    With `anonymous = True` it sends exactly what it is given (for the tests of seat tokens). It keeps the
    host token of each table it creates, and as the host gives itself a seat another client holds."""

    anonymous = False

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tokens: dict[tuple[str, str], str] = {}
        self.hosts = HOSTS  # the test is the host of every table its clients create, whichever client sits

    def token(self, code: str, player: str) -> str | None:
        if (code, player) not in self.tokens:  # asking for the seat, as the host, if another client holds it
            answer = super().open(f"/api/tables/{code}/join", method="POST", json={"player": player, "take_over": True})
            if answer.status_code == 202 and not self.grant(code, player):
                return None
            if answer.status_code not in (201, 202):
                return None
            self.tokens[code, player] = answer.get_json()["token"]
        return self.tokens[code, player]

    def grant(self, code: str, player: str) -> bool:
        """As the table's host, give `player`'s seat to the client asking for it."""
        host = self.hosts.get(code)
        return bool(host) and super().open(f"/api/tables/{code}/seats/{player}/grant", method="POST",
                                           json={"host_token": host}).status_code == 200

    def open(self, *args, **kwargs):
        path = args[0] if args and isinstance(args[0], str) else ""
        if path == "/api/tables" and kwargs.get("method") == "POST":
            answer = super().open(*args, **kwargs)
            if answer.status_code == 201:
                self.hosts[answer.get_json()["code"]] = answer.get_json()["host_token"]
            return answer
        action = API_ACTION.fullmatch(path.split("?")[0])
        headers = dict(kwargs.get("headers") or {})
        if action and kwargs.get("method") == "POST" and not self.anonymous and "Authorization" not in headers:
            body = kwargs.get("json")
            player = body.get("player") if isinstance(body, dict) and isinstance(body.get("player"), str) else "p1"
            for _ in range(2):  # once more if the seat was taken since (say, by this client's own page)
                code = action.group(1)
                token = self.token(code, player) or self.token(code, "p1")
                if token:
                    kwargs["headers"] = {**headers, **bearer(token)}
                answer = super().open(*args, **kwargs)
                if answer.status_code != 401 or not token:
                    return answer
                self.tokens = {key: value for key, value in self.tokens.items() if value != token}
            return answer
        return super().open(*args, **kwargs)


def csrf_from(html: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match, "page has no CSRF token"
    return match.group(1)


def sit(client, code: str, player: str = "p1") -> str:
    """Take a seat as a phone does (the lobby's seat button, confirming when another phone holds it);
    returns the table page's path."""
    lobby = client.get(f"/t/{code}")
    assert lobby.status_code == 200, lobby.status_code
    form = {"csrf_token": csrf_from(lobby.get_data(as_text=True)), "player": player}
    answer = client.post(f"/t/{code}/seat", data=form)
    if "data-take-over" in answer.get_data(as_text=True):  # "Another phone plays as ...": ask for it, then
        answer = client.post(f"/t/{code}/seat", data={**form, "take_over": "yes"})  # the host gives it
        assert answer.headers["Location"].endswith("/seat/wait") and client.grant(code, player), "no host"
    assert answer.status_code == 303, answer.get_data(as_text=True)[:300]
    return f"/t/{code}/play"


def not_listening(proc: subprocess.Popen, port: int, timeout: float) -> str | None:
    """Wait until `proc` accepts connections on the loopback `port`: None, or why it never did."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return f"exited with {proc.returncode}"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return None
        except OSError:
            time.sleep(0.05)
    return f"did not start within {timeout}s"


class ServerProcess:
    """`starpnp serve` on a free loopback port with its own data directory (`command` runs starpnp: by
    default this interpreter's, or e.g. the `starpnp` script of a wheel installed elsewhere)."""

    def __init__(self, data_dir: Path, port: int | None = None, extra_args: tuple[str, ...] = (),
                 command: tuple[str, ...] = (sys.executable, "-m", "starpnp"), cwd: Path = REPO):
        self.data_dir, self.port = Path(data_dir), port or free_port()
        self.extra_args, self.command, self.cwd = extra_args, command, cwd
        self.proc: subprocess.Popen | None = None
        self.log_path = self.data_dir / "server.log"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20) -> "ServerProcess":
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [*self.command, "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--data", str(self.data_dir), *self.extra_args],
            cwd=self.cwd, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        if problem := not_listening(self.proc, self.port, timeout):
            self.stop()
            raise RuntimeError(f"server {problem}: {self.log()}")
        return self

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:] if self.log_path.exists() else ""


# -- browser tests (two phones on one table) -------------------------------------------------------------
SYNC_MS = 5000  # pushed at once, or polled every 2 s without push: the other phone shows a change well within this
DOUBLE_TAP_MS = 400  # companion.js: a second tap at the same spot sooner than this is the same tap
BIGGEST_TEXT = """() => { let best = [0, []];
  for (const el of document.querySelectorAll("main *")) { const r = el.getBoundingClientRect();
    if (!el.children.length && el.textContent.trim() && r.bottom > 0 && r.top < innerHeight) {
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size > best[0]) best = [size, []]; if (size === best[0]) best[1].push(el.textContent.trim()); } }
  return best[1]; }"""


def open_seat(page, base_url: str, code: str, player: str) -> None:
    """Sit down as a phone does — the lobby, then the seat's button — and wait until htmx has wired up the
    table page's forms (companion.js marks <html>)."""
    page.goto(f"{base_url}/t/{code}")
    page.locator(f'form.seats button[value="{player}"]').click()
    page.wait_for_load_state()
    if page.locator("[data-take-over]").count():  # the seat was joined through the API: ask for it,
        page.locator("[data-take-over] button").click()  # and the test, the table's host, gives it
        page.wait_for_url(f"{base_url}/t/{code}/seat/wait")
        grant(base_url, code, player)
    page.wait_for_url(f"{base_url}/t/{code}/play")
    page.wait_for_selector("html[data-live=ready]", state="attached")


def wait_for_polls(page, count: int = 2) -> None:
    """Let `count` polls of the page come back (a page polls only while it has no push stream): whatever was
    still on its way has arrived by then."""
    for _ in range(count):
        with page.expect_response(lambda r: "/live" in r.url, timeout=SYNC_MS):
            pass


def settle(page, ms: int = 1000) -> None:
    """Give anything still on its way to the page (a pushed change's fetch, a late answer) time to arrive."""
    page.wait_for_timeout(ms)


def tap(page, label: str) -> None:
    """Tap the (first) button labelled exactly `label`, as a player does: not sooner after the last tap, nor
    after the page last changed (an answer, a pushed change), than a double tap's window (companion.js takes
    a tap sooner at the same spot for the same tap, or for one aimed at the button that was there before)."""
    since = time.monotonic() - getattr(page, "last_tap", 0.0)
    if since < DOUBLE_TAP_MS / 1000:
        page.wait_for_timeout(DOUBLE_TAP_MS - since * 1000)
    changed = page.evaluate("() => Date.now() - Number(document.documentElement.dataset.swapped || 0)")
    if changed < DOUBLE_TAP_MS:
        page.wait_for_timeout(DOUBLE_TAP_MS - changed)
    page.get_by_role("button", name=label, exact=True).first.click()
    page.last_tap = time.monotonic()


def biggest_texts(page) -> list[str]:
    """The texts set in the largest font within the first screen: what a player sees first."""
    page.evaluate("window.scrollTo(0, 0)")
    return page.evaluate(BIGGEST_TEXT)


def save_screens(page, name: str, full_page: bool = False) -> None:
    """With STARPNP_SCREENSHOTS=<dir>, keep light and dark screenshots of the page (the whole of it with
    `full_page`) there as NAME-light.png and NAME-dark.png (docs/screenshots were made this way)."""
    if folder := os.environ.get("STARPNP_SCREENSHOTS"):
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.screenshot(path=str(Path(folder) / f"{name}-{scheme}.png"), full_page=full_page)
        page.emulate_media(color_scheme="light")


def tap_twice(page, locator, between_ms: int = 80) -> None:
    """A thumb's double tap: two presses at the same spot, the second `between_ms` after the first (the
    first's answer may have arrived and moved the page in between)."""
    box = locator.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.click(x, y)
    page.wait_for_timeout(between_ms)
    page.mouse.click(x, y)


# Stratastar: Ann's turn from her draw phase to her battle phase, the one phase a battle is fought in (four
# Logistics cards keep her four starting fleets supported through the support phase).
STRATASTAR_TO_BATTLE = [{"type": "logistics", "player": "p1", "cards": 4}, *[{"type": "next_phase", "player": "p1"}] * 5]
