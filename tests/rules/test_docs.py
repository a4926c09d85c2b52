"""The API documentation keeps up with the rules: each game's event table is the one its event declarations
produce, field by field (name, kind, range, default, meaning), and every derived field is named.

After changing an event declaration, `STARPNP_WRITE_DOCS=1 pytest tests/rules/test_docs.py` rewrites the
tables (and fails once, so the change is seen); the prose around them is the docs' own.
"""
import os
import re
from pathlib import Path

import pytest

from starpnp.companion.rules import all_rules
from starpnp.companion.rules.base import FieldDoc, GameRules

DOCS = Path(__file__).resolve().parents[2] / "docs"
PLAYERS = [{"id": "p1", "name": "Ann", "color": "red"}, {"id": "p2", "name": "Bo", "color": "blue"}]
BEGIN = "<!-- event table: made from the event declarations by tests/rules/test_docs.py -->"
END = "<!-- end of event table -->"


def page_for(game: str) -> Path:
    page = DOCS / "rules" / f"{game}.md"
    return page if page.exists() else DOCS / "companion-api.md"


def describe(field: FieldDoc) -> str:
    kind = {"one of": "one of " + ", ".join(f"`{c}`" for c in field.choices), "player": "player id",
            "text": "text"}.get(field.kind, field.kind)
    if field.kind == "whole number" and (field.minimum is not None or field.maximum is not None):
        kind += f" {field.minimum}…{field.maximum}"
    if field.required:
        when = "required"
    elif field.default is None:
        when = "optional"
    else:
        when = f"default `{field.default}`" if field.default != "" else "optional"
    return f"`{field.name}`: {kind}, {when} — {field.help}"


def event_table(rules: GameRules) -> str:
    rows = ["| type | fields | what it does |", "|---|---|---|"]
    for event_type in rules.event_types:
        fields = "<br>".join(describe(f) for f in event_type.field_docs) or "—"
        rows.append(f"| `{event_type.name}` | {fields} | {event_type.help} |")
    return "\n".join([BEGIN, *rows, END])


@pytest.mark.parametrize("game", sorted(all_rules()))
def test_the_event_table_is_the_declarations(game):
    page = page_for(game)
    text = page.read_text()
    block = re.search(re.escape(BEGIN) + r".*?" + re.escape(END), text, re.S)
    assert block, f"{page}: no event table between the markers"
    want = event_table(all_rules()[game])
    if block.group(0) != want and os.environ.get("STARPNP_WRITE_DOCS") == "1":
        page.write_text(text.replace(block.group(0), want))
    assert block.group(0) == want, f"{page}: event table out of date; STARPNP_WRITE_DOCS=1 rewrites it"


@pytest.mark.parametrize("game", sorted(all_rules()))
def test_every_derived_field_is_documented(game):
    rules, text = all_rules()[game], page_for(game).read_text()
    derived = rules.derive(rules.initial_state(PLAYERS, {}))
    assert [key for key in derived if key not in text] == []
    seat = next(iter(derived.get("players", {}).values()), {})
    assert [key for key in seat if key not in text] == []
    assert "/api/tables/" in text  # the worked example posts events to a table


def test_the_api_page_links_every_game_page():
    api = (DOCS / "companion-api.md").read_text()
    for page in (DOCS / "rules").glob("*.md"):
        assert f"(rules/{page.name})" in api
