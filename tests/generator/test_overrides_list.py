"""overrides.yaml changes a component's list of cards (issue #48): `add:` new items (`like: NAME` copies one),
`remove:` items by name, `order:` the named ones first; the build report lists each, and an error in an added
item is told on the line of overrides.yaml that wrote it."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from starpnp_test_support import MINI
from starpnp.generator.data.errors import DataErrors
from starpnp.generator.look.loader import load_game


def overridden(folder: Path, components: str):
    shutil.copytree(MINI, folder / "mini")  # a game inside the folder: the loader reads nothing outside it
    (folder / "overrides.yaml").write_text(f"extends: mini\ncomponents:\n  deck:\n{components}")
    return load_game(folder)


def deck(game) -> list[tuple[str, int]]:
    comp = next(c for c in game.components if c.spec.id == "deck")
    return [(piece.name, piece.count) for piece in comp.pieces]


def test_cards_are_added_copied_removed_and_ordered_by_name(tmp_path):
    game = overridden(tmp_path / "ours", "    add:\n      - {like: Attack, title: Ambush, count: 2}\n"
                                         "      - {title: Parley, text: Talk first., count: 1}\n"
                                         "    remove: [Mystery]\n    order: [Parley, Ambush]\n"
                                         "    items:\n      Ambush: {count: 4}\n")
    assert deck(game) == [("Parley", 1), ("Ambush", 4), ("Attack", 3), ("Move", 2)]
    ambush = next(c for c in game.components if c.spec.id == "deck").pieces[1]
    assert ambush.front.params.text == "Fight a neighbour."  # the copy's own fields, Attack's for the rest
    assert list(game.overrides) == [
        "components.deck.items: + 'Ambush' (a copy of Attack)", "components.deck.items: + 'Parley'",
        "components.deck.items.Ambush.count: 2 -> 4", "components.deck.items: - 'Mystery'",
        "components.deck.items: order 'Parley', 'Ambush', then the others"]


@pytest.mark.parametrize("components, line", [
    ("    add:\n      - {like: Nothing, title: X}\n",
     "overrides.yaml:5: components.deck.add[0].like: no item named 'Nothing'; items: Attack, Move, Mystery"),
    ("    remove: [Attack, Move, Mystery]\n",
     "overrides.yaml:4: components.deck.remove: every item would be removed; a component keeps at least one"),
    ("    order: [Retreat]\n",
     "overrides.yaml:4: components.deck.order[0]: no item named 'Retreat'; items: Attack, Move, Mystery"),
    ("    order: [Mystery]\n    add:\n      - {title: Parley, count: many}\n",
     "overrides.yaml:6: components.deck.add[0].count: expected a whole number, got 'many'"),
])
def test_a_wrong_list_change_is_told_on_its_own_line(tmp_path, components, line):
    with pytest.raises(DataErrors) as caught:
        overridden(tmp_path / "ours", components)
    assert caught.value.errors[0].endswith(line), caught.value.errors
