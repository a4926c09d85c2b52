"""The API documentation keeps up with the rules: every game's page names each event type and its fields,
each derived field, and walks through one example over the JSON API."""
from pathlib import Path

import pytest

from starpnp.companion.rules import all_rules

DOCS = Path(__file__).resolve().parents[2] / "docs"
PLAYERS = [{"id": "p1", "name": "Ann", "color": "red"}, {"id": "p2", "name": "Bo", "color": "blue"}]


def page_for(game: str) -> str:
    page = DOCS / "rules" / f"{game}.md"
    return (page if page.exists() else DOCS / "companion-api.md").read_text()


@pytest.mark.parametrize("game", sorted(all_rules()))
def test_every_event_type_and_derived_field_is_documented(game):
    rules, text = all_rules()[game], page_for(game)
    assert [e.name for e in rules.event_types if f"`{e.name}`" not in text] == []
    assert [(e.name, f) for e in rules.event_types for f in e.fields if f not in text] == []
    derived = rules.derive(rules.initial_state(PLAYERS, {}))
    assert [key for key in derived if key not in text] == []
    seat = next(iter(derived.get("players", {}).values()), {})
    assert [key for key in seat if key not in text] == []
    assert "/api/tables/" in text  # the worked example posts events to a table


def test_the_api_page_links_every_game_page():
    api = (DOCS / "companion-api.md").read_text()
    for page in (DOCS / "rules").glob("*.md"):
        assert f"(rules/{page.name})" in api
