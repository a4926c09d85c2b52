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
    assert len(text.splitlines()) < 500  # a page to read (a line a box too), not a schema of thousands of lines


def test_layouts_of_a_game_folder_include_its_own(tmp_path):
    new_game("Harbour Lights", tmp_path / "harbour")
    text = run("layouts", "--game", tmp_path / "harbour").stdout
    assert "  deck_card: Harbour Lights's card" in text
    bad = run("layouts", "--game", tmp_path / "nowhere")
    assert bad.returncode == 2 and "no such game or folder" in bad.stderr


def test_layouts_lists_each_layouts_boxes_by_name_with_kind_and_the_fields_they_read(tmp_path):
    """What a designer re-pointing the art box needs, without opening our card.yaml: its boxes' names, and
    which fields each reads, through the layout's lets too (the title band moves aside for a cost disc)."""
    new_game("Harbour Lights", tmp_path / "harbour")
    text = run("layouts", "--game", tmp_path / "harbour").stdout
    card = text.split("\n  card: ", 1)[1].split("\n  card_back: ", 1)[0]
    boxes = card.split("\n    boxes:\n", 1)[1].splitlines()
    assert "      art: image, reads art, art_fit" in boxes
    assert "      icon: icon, reads color, icon, art" in boxes
    assert "      title: text, reads title, color, cost, value" in boxes
    assert "      panel: rect" in boxes
    deck_card = text.split("\n  deck_card: ", 1)[1].split("\n  ", 1)[1]
    assert "\n    boxes:\n      background: background, reads color\n" in "\n  " + deck_card
