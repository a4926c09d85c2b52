"""`starpnp layouts`: every box kind with the keys it takes, every layout's fields with type and default,
and a board's regions, from the models the loader validates with."""
from __future__ import annotations

from cli_runner import run
from starpnp.generator.customise import new_game
from starpnp.generator.look.layouts.layoutfile import BOX_KINDS, NEEDS, TAKES, BoxSpec


def test_every_kind_takes_keys_the_loader_knows_and_needs_are_among_them():
    assert set(TAKES) == set(BOX_KINDS)
    for kind, keys in TAKES.items():
        assert set(keys) <= set(BoxSpec.model_fields), kind
        assert set(NEEDS.get(kind, ())) <= set(keys), kind
        assert all(BoxSpec.model_fields[key].description for key in keys), kind


def test_layouts_lists_kinds_keys_fields_and_regions(tmp_path):
    result = run("layouts")
    assert result.returncode == 0, result.stderr
    text = result.stdout
    for kind in BOX_KINDS:
        assert f"\n  {kind}:\n" in text
    assert "    max_lines (optional): the most lines the text wraps to" in text
    assert "    title (text, required): the card's name, in the title band" in text
    assert "    art_fit (one of cover, contain, default 'cover')" in text
    assert "  track:\n" in text and "    per_row (whole number or null, optional): wrap after" in text
    assert len(text.splitlines()) < 400  # a page to read, not a schema of thousands of lines


def test_layouts_of_a_game_folder_include_its_own(tmp_path):
    new_game("Harbour Lights", tmp_path / "harbour")
    text = run("layouts", "--game", tmp_path / "harbour").stdout
    assert "  deck_card: Harbour Lights's card" in text
    bad = run("layouts", "--game", tmp_path / "nowhere")
    assert bad.returncode == 2 and "no such game or folder" in bad.stderr
