"""Stratastar, our edition (issue #11): the rulebook gives every number the set prints, so `starpnp build
stratastar` reports no unspecified field; docs/editions/stratastar.md lists every choice of ours in the data
with the value the data holds, and covers every rule number of game.yaml.
Rulebook: /work/shared/seeds/001_*.txt."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from starpnp.generator.cli import main
from starpnp.generator.look.loader import find_game, load_game

GAME = "stratastar"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "editions" / "stratastar.md"


@pytest.fixture(scope="module")
def game():
    return load_game(find_game(GAME))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """`starpnp build stratastar` as a user runs it (PDF only, strict): (its report, manifest.json)."""
    out = tmp_path_factory.mktemp("ss-edition")
    result = CliRunner().invoke(main, ["build", GAME, "--format", "pdf", "--out", str(out), "--strict"])
    assert result.exit_code == 0, result.output
    return result.output, json.loads((out / GAME / "manifest.json").read_text())


def section(title: str) -> str:
    return DOCS.read_text().split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def table_rows(text: str) -> list[list[str]]:
    """The body rows of the markdown tables in `text`, as lists of cells."""
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in text.splitlines()
            if line.startswith("| ")]
    return [row for row in rows if not set(row[0]) <= {"-"}][1:]


def data_value(game, entry: str) -> str | None:
    """What the data holds for a build-report entry, as the doc writes it: a size or a count (None otherwise)."""
    comp_id, *piece, field = entry.split(": ")
    comp = next(c for c in game.components if c.spec.id == comp_id)
    if field == "size":
        return "{:g} × {:g} mm".format(*comp.spec.size)
    if field == "count":
        return str(next(p for p in comp.pieces if p.name == piece[0]).count)
    return None


def test_the_build_reports_no_unspecified_field(built):
    report, manifest = built
    assert manifest["unspecified"] == [] and manifest["warnings"] == []
    assert "unspecified" not in report and "warning" not in report
    assert "values are our own choice, not the publisher's" in report  # the list the docs explain
    assert manifest["ours"]


def test_the_docs_list_every_choice_of_ours_with_its_value(game, built):
    _, manifest = built
    rows = table_rows(section("Every choice of ours"))
    assert sorted(row[0] for row in rows) == sorted(manifest["ours"] + manifest["edition"])
    for choice, value, why in rows:
        assert len(why.split()) >= 5, choice  # a reason, not a placeholder
        if data_value(game, choice) is not None:
            assert value == data_value(game, choice), choice


def test_the_docs_name_every_rule_number_with_its_value(game):
    fixed = section("What the rulebook fixes (we print it as it says)")
    for name, number in game.info.rules.items():
        assert f"`{name}`" in fixed, name
        if isinstance(number.value, int):
            assert re.search(rf"`{name}` {number.value}\b", fixed), name
