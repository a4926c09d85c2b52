"""Helpers for the rules tests that go through the app: new tables, events over the JSON API, and the
panel check that renders every seat and posts every form it shows. The `client` fixture is in conftest.py."""
from __future__ import annotations

from html.parser import HTMLParser

from companion_test_helpers import sit

from starpnp.companion.rules import get_rules

PUBLIC_URL = "http://table.test"
PLAYERS = [{"name": "Ann", "color": "red"}, {"name": "Bo", "color": "blue"}]
TRANSPORT = {"csrf_token", "player", "type", "confirm"}


class EventForms(HTMLParser):
    """Every form posting to an events URL, with the value each of its fields sends by default."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self.number_limits: list[tuple[str, str, str | None, str | None]] = []  # (type, field, min, max)
        self._form: dict | None = None
        self._select: str | None = None
        self._option: str | None = None  # the select whose value is the next option's text

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and attrs.get("action", "").endswith("/events"):
            self._form = {"action": attrs["action"], "fields": {}}
        elif self._form is None:
            return
        elif tag == "input" and attrs.get("name"):
            self._form["fields"][attrs["name"]] = attrs.get("value", "")
            if attrs.get("type") == "number":
                self.number_limits.append((self._form["fields"].get("type"), attrs["name"], attrs.get("min"),
                                           attrs.get("max")))
        elif tag == "select":
            self._select = attrs["name"]
        elif tag == "option" and self._select:
            self._option = None
            if self._select not in self._form["fields"] or "selected" in attrs:  # the option a browser sends
                value = attrs.get("value")
                self._form["fields"][self._select] = value or ""
                self._option = None if value is not None else self._select  # no value: the text is sent

    def handle_data(self, data):
        if self._form is not None and self._option:
            self._form["fields"][self._option] = data.strip()
            self._option = None

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "form" and self._form is not None:
            self.forms.append(self._form)
            self._form = None


def event_forms(html: str) -> list[dict]:
    parser = EventForms()
    parser.feed(html)
    return parser.forms


def number_limits(html: str) -> list[tuple[str, str, str | None, str | None]]:
    """(event type, field, min, max) of every number input in the page's event forms."""
    parser = EventForms()
    parser.feed(html)
    return parser.number_limits


def new_table(client, game: str, events: list[dict], options: dict | None = None) -> dict:
    table = client.post("/api/tables", json={"game": game, "players": PLAYERS, "options": options or {}}).get_json()
    for event in events:
        response = client.post(f"/api/tables/{table['code']}/events", json=event)
        assert response.status_code == 201, (event, response.get_json())
    return table


def check_panel(client, game: str, table: dict) -> int:
    """Render for both seats and the spectator; post every form a seat sees. Returns the forms posted."""
    rules, code = get_rules(game), table["code"]
    watch = local(table["watch_url"])
    assert client.get(watch).status_code == 200
    posted = 0
    for seat in ("p1", "p2"):
        page = client.get(sit(client, code, seat))
        assert page.status_code == 200
        html = page.get_data(as_text=True)
        for kind, name, low, high in number_limits(html):  # a form offers only what the server accepts
            doc = next(f for f in rules.event_type(kind).field_docs if f.name == name)
            assert low == (None if doc.minimum is None else str(doc.minimum)), name
            assert (high is None) == (doc.maximum is None), name
            assert high is None or doc.minimum is None or doc.minimum <= int(high) <= doc.maximum, name
        for form in event_forms(html):
            fields = form["fields"]
            declared = set(rules.event_type(fields["type"]).fields.model_fields)
            assert set(fields) - TRANSPORT <= declared, (fields["type"], set(fields) - TRANSPORT - declared)
            answer = client.post(form["action"], data=fields)
            assert answer.status_code in (303, 422), (fields, answer.status_code)
            assert client.get(f"/t/{code}/play").status_code == 200
            posted += 1
    return posted


def ev(kind, player="p1", **payload):
    return {"type": kind, "player": player, **payload}


def local(url: str) -> str:
    """A link the app made (join or watch URL) as a path for the test client."""
    return url.removeprefix(PUBLIC_URL)


def post_events(client, table: dict, events: list[dict]) -> list:
    """Post each event to the table's JSON API; returns the responses, refused ones included."""
    return [client.post(f"/api/tables/{table['code']}/events", json=event) for event in events]


def derived(client, table: dict) -> dict:
    return client.get(f"/api/tables/{table['code']}").get_json()["derived"]


def check_pages_render(client, table: dict) -> None:
    """The table page renders the panel for a spectator and for a seated player."""
    for page in (local(table["watch_url"]), sit(client, table["code"], "p2")):
        html = client.get(page).get_data(as_text=True)
        assert 'data-player="p1"' in html, page
