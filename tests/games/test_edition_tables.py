"""The cost-benefit tables in docs/editions/ are what bench/edition_tables.py computes from the data today, and
no row lies outside its group's band without a reason."""
from __future__ import annotations

import importlib.util
import sys
from dataclasses import replace
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "edition_tables.py"


@pytest.fixture(scope="module")
def tables():
    spec = importlib.util.spec_from_file_location("edition_tables", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game", ["stratastar", "stars_inc", "starship_catan", "handful_of_stars"])
def test_the_docs_table_is_what_the_data_gives(tables, game):
    old, new = tables.rewritten(game)
    assert old == new, f"docs/editions/{game}.md is stale: run .venv/bin/python bench/edition_tables.py"
    rows, _ = tables.table(game)
    assert len(rows) >= 9 and all(r.value > 0 and r.how for r in rows)


@pytest.mark.parametrize("game", ["stratastar", "stars_inc", "starship_catan", "handful_of_stars"])
def test_no_row_is_out_of_band_without_a_reason(tables, game):
    assert tables.out_of_band(game) == []
    rows, medians = tables.table(game)
    for row in rows:
        if abs(tables.deviation(row, medians)) > tables.BAND + 1e-9:
            assert len(tables.REASONS[game][row.item].split()) >= 6, row.item  # a reason, not a placeholder


def test_a_row_out_of_band_without_its_reason_is_caught(tables, monkeypatch):
    monkeypatch.setitem(tables.REASONS, "stratastar", {})
    assert "stratastar: abilities: Warfleet (+50%)" in tables.out_of_band("stratastar")


def test_the_tables_follow_the_data(tables, monkeypatch):
    """A cost changed in the data changes the table: the rows are read, not written by hand."""
    rows, _ = tables.table("handful_of_stars")
    before = next(r for r in rows if r.item == "Dreadnoughts")
    real = tables.pieces

    def dearer(game, component):
        found = real(game, component)
        return [replace(p, front=replace(p.front, params=p.front.params.model_copy(
            update={"cost": p.front.params.cost + 3}))) if p.name == "Dreadnoughts" else p for p in found]

    monkeypatch.setattr(tables, "pieces", dearer)
    after = next(r for r in tables.table("handful_of_stars")[0] if r.item == "Dreadnoughts")
    assert (after.cost, after.ratio) == (before.cost + 3, before.value / (before.cost + 3))
    assert any("Dreadnoughts" in line for line in tables.out_of_band("handful_of_stars"))
