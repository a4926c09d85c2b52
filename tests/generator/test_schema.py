"""`starpnp schema` describes exactly what the loader accepts: every YAML file we ship validates against it with a
standard JSON Schema validator, and a key the loader would refuse (a typo in a face, an item, a back, a
`with_option` change) the schema refuses too. The loader names file, line and the nearest valid key."""
from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from cli_runner import replace, run
from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.data.yamlio import DataErrors

COMPONENTS = Path(__file__).resolve().parents[2] / "components"
FILES = sorted(COMPONENTS.glob("*/*.yaml"))


@pytest.fixture(scope="module")
def schemas() -> dict[str, Draft202012Validator]:
    """The game.yaml schema, and each game's component schema (its own layout files' fields included);
    "components" is Stratastar's, whose cards the mutation tests change."""
    out = {}
    games = sorted({path.parent.name for path in FILES})
    for what, args in [("game", ("game",))] + [(game, ("components", "--game", game)) for game in games]:
        result = run("schema", *args)
        assert result.returncode == 0, result.stderr
        schema = json.loads(result.stdout)
        Draft202012Validator.check_schema(schema)
        out[what] = Draft202012Validator(schema)
    out["components"] = out["stratastar"]
    return out


def test_every_shipped_yaml_file_validates_against_the_schema(schemas):
    assert len(FILES) >= 20
    errors = []
    for path in FILES:
        validator = schemas["game" if path.name == "game.yaml" else path.parent.name]
        for error in validator.iter_errors(yaml.safe_load(path.read_text(encoding="utf-8"))):
            errors.append(f"{path.relative_to(COMPONENTS)}: {'/'.join(map(str, error.absolute_path))}: "
                          f"{error.message[:200]}")
    assert errors == [], f"{len(errors)} errors:\n" + "\n".join(errors[:40])


CARDS = yaml.safe_load((COMPONENTS / "stratastar" / "cards.yaml").read_text(encoding="utf-8"))


def mutated(change) -> dict:
    data = copy.deepcopy(CARDS)
    change(data["components"][0])
    return data


@pytest.mark.parametrize("where, change", [
    ("front", lambda c: c["front"].update(titel="x")),
    ("item", lambda c: c["items"][0].update(titel="x")),
    ("back", lambda c: c["back"].update(colr="x")),
    ("item back", lambda c: c["items"][0].update(back={"colr": "x"})),
    ("with_option", lambda c: c["items"][0].update(with_option={"power": {"titel": "x"}})),
    ("layout", lambda c: c["front"].update(layout="cardd")),
    ("size", lambda c: c.update(size="pokr")),
    ("a required field no item gives", lambda c: c["items"].append({"count": 1})),
    ("a column mapped to no field name", lambda c: c.update(items="cards.xlsx", columns={"picture": "the art"})),
    ("ignore as one word", lambda c: c.update(items="cards.xlsx", ignore="base")),
])
def test_the_schema_refuses_what_the_loader_refuses(schemas, where, change):
    assert list(schemas["components"].iter_errors(mutated(change))), where


@pytest.mark.parametrize("where, change", [
    ("our edition's value", lambda c: c["items"][0].update(text={"ours": "Our words."})),
    ("a rule number as a count", lambda c: c["items"][0].update(count="{rules.fleet_chits}")),
    ("a size in mm", lambda c: c.update(size="63x88")),
    ("a size as a pair", lambda c: c.update(size=[63, 88])),
    ("a square size", lambda c: c.update(size=70)),
    ("a spreadsheet's columns mapped and ignored", lambda c: c.update(
        items="cards.xlsx", columns={"picture": "art", "Card name": "title", "Back": "back.title"}, ignore=["base"])),
])
def test_the_schema_takes_what_the_loader_takes(schemas, where, change):
    assert list(schemas["components"].iter_errors(mutated(change))) == [], where


@pytest.mark.parametrize("old, new, expected", [
    ("front: {layout: starred_card, color: blue}", "front: {layout: starred_card, colour: blue}",
     "cards.yaml:6: components[0].front.colour: unknown field; did you mean 'color'?"),
    ("{count: 3, title: Attack, icon: attack,", "{count: 3, title: Attack, icno: attack,",
     "cards.yaml:9: components[0].items[0].icno: unknown field; did you mean 'icon'?"),
    ("back: {layout: card_back, title: Mini}", "back: {layout: card_back, title: Mini, subtitel: x}",
     "cards.yaml:7: components[0].back.subtitel: unknown field; did you mean 'subtitle'?"),
])
def test_an_unknown_key_names_file_line_and_the_nearest_valid_key(game, old, new, expected):
    replace(game / "cards.yaml", old, new)
    with pytest.raises(DataErrors) as caught:
        load_game(game)
    assert [line.split("/")[-1] for line in caught.value.errors] == [expected]


def test_an_unknown_key_inside_a_board_region_is_named_as_written(tmp_path):
    """Pydantic puts a union member's tag in the path (`regions[0].grid.cells`): the message uses the file's."""
    folder = tmp_path / "stratastar"
    shutil.copytree(find_game("stratastar"), folder)
    cell = "{col: 0, row: 0, icon: homeworld"
    text = (folder / "board.yaml").read_text(encoding="utf-8")
    replace(folder / "board.yaml", cell, cell.replace("row", "rwo"))
    with pytest.raises(DataErrors) as caught:
        load_game(folder)
    line = text[:text.index(cell)].count("\n") + 1
    assert f"board.yaml:{line}: components[0].front.regions[0].cells[0].rwo: unknown field; did you mean 'row'?" \
        in [error.split("/")[-1] for error in caught.value.errors]


def test_the_schema_components_readme_names_for_the_tracker_lists_its_keys():
    """components/README sends a designer to a schema for `tracker:`'s keys: that schema must hold them."""
    import re

    text = (Path(__file__).resolve().parents[2] / "components" / "README.md").read_text(encoding="utf-8")
    tracker = text[text.index("**A designer's game on the phones**"):]
    [named] = re.findall(r"`starpnp schema (\w+)` lists every key", tracker[:400])
    result = run("schema", named)
    assert result.returncode == 0, result.stderr
    schema = json.dumps(json.loads(result.stdout))
    assert all(f'"{key}"' in schema for key in ("tracker", "counters", "shared", "tie_break", "steps"))
