"""The API documentation keeps up with the rules: each game's event table is the one its event declarations
produce, field by field (name, kind, range, default, meaning), its numbers table is its game.yaml `rules:`,
and every derived field is named.

After changing an event declaration or a rule number, `STARPNP_WRITE_DOCS=1 pytest tests/rules/test_docs.py`
rewrites the tables (and fails once, so the change is seen); the prose around them is the docs' own.
"""
import os
import re
from pathlib import Path

import pytest

from starpnp.companion.rules import all_rules
from starpnp.companion.rules.base import FieldDoc, GameRules
from starpnp.generator.look.loader import builtin_games, our_game

DOCS = Path(__file__).resolve().parents[2] / "docs"
PLAYERS = [{"id": "p1", "name": "Ann", "color": "red"}, {"id": "p2", "name": "Bo", "color": "blue"}]
BEGIN = "<!-- event table: made from the event declarations by tests/rules/test_docs.py -->"
END = "<!-- end of event table -->"
NUMBERS_BEGIN = "<!-- numbers table: made from the game's game.yaml rules by tests/rules/test_docs.py -->"
NUMBERS_END = "<!-- end of numbers table -->"


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
    rows = ["| type | fields | what it does | for another seat |", "|---|---|---|---|"]
    for event_type in rules.event_types:
        fields = "<br>".join(describe(f) for f in event_type.field_docs) or "—"
        others = ("for the seat whose turn it is, after asking (`confirm: yes`): logged as \"Ann for Ben\""
                  if event_type.asks else "yes: logged as \"Ann for Ben\"" if event_type.for_others else "no")
        rows.append(f"| `{event_type.name}` | {fields} | {event_type.help} | {others} |")
    return "\n".join([BEGIN, *rows, END])


def numbers_table(game: str) -> str:
    def shown(value) -> str:
        if isinstance(value, dict):
            return ", ".join(f"{k}: {v}" for k, v in value.items())
        return ", ".join(map(str, value)) if isinstance(value, list) else str(value)

    rows = ["| number | value | what it is |", "|---|---|---|"]
    rows += [f"| `{name}` | {shown(rule.value)} | {rule.means} |" for name, rule in our_game(game).rules.items()]
    return "\n".join([NUMBERS_BEGIN, *rows, NUMBERS_END])


def check_block(page: Path, begin: str, end: str, want: str) -> None:
    text = page.read_text()
    block = re.search(re.escape(begin) + r".*?" + re.escape(end), text, re.S)
    assert block, f"{page}: no table between the markers {begin}"
    if block.group(0) != want and os.environ.get("STARPNP_WRITE_DOCS") == "1":
        page.write_text(text.replace(block.group(0), want))
    assert block.group(0) == want, f"{page}: table out of date; STARPNP_WRITE_DOCS=1 rewrites it"


@pytest.mark.parametrize("game", sorted(all_rules()))
def test_the_event_table_is_the_declarations(game):
    check_block(page_for(game), BEGIN, END, event_table(all_rules()[game]))


@pytest.mark.parametrize("game", builtin_games())
def test_the_numbers_table_is_game_yaml(game):
    check_block(page_for(game), NUMBERS_BEGIN, NUMBERS_END, numbers_table(game))


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
