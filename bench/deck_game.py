"""The benchmark deck as starpnp data: poker cards, coloured frame, title, two text lines.

Two shapes: the 85-card deck of five designs (20 Attack, 20 Move, ...), where most cards repeat a face, and
a deck of N cards that all differ (own title and own text), as real decks do.
"""
from __future__ import annotations

from pathlib import Path

KINDS = [("Attack", "C62828", 20), ("Move", "1565C0", 20), ("Build", "2E7D32", 20), ("Trade", "F9A825", 20),
         ("Research", "6A1B9A", 5)]
TEXT = "Play this card in its phase. Discard it after use."


def cards(copies: int = 1) -> list[tuple[str, str, str]]:
    """(title, colour, text) of every card: 85, or 85 × copies for the scaling run."""
    return [(name, color, TEXT) for name, color, n in KINDS for _ in range(n * copies)]


def distinct_cards(count: int) -> list[tuple[str, str, str]]:
    """(title, colour, text) of `count` cards that all differ in title and text."""
    return [(f"{KINDS[i % 5][0]} {i + 1}", KINDS[i % 5][1], f"Play card {i + 1} in its phase. Discard it after "
             f"use, then draw {i % 3 + 1}.") for i in range(count)]


def deck(spec: str) -> list[tuple[str, str, str]]:
    """A deck by name: `deck` (85 cards), `deck850` (the same ten times over), `distinct85`, `distinct850`..."""
    if spec.startswith("distinct"):
        return distinct_cards(int(spec.removeprefix("distinct")))
    return cards(int(spec.removeprefix("deck") or 85) // 85)


def write_deck_game(folder: Path, deck: list[tuple[str, str, str]]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text("id: benchdeck\nname: Bench Deck\nplayers: {min: 2, max: 4}\ncolors: [red]\n")
    runs: list[list] = []  # consecutive equal cards become one item with a count
    for card in deck:
        if runs and runs[-1][0] == card:
            runs[-1][1] += 1
        else:
            runs.append([card, 1])
    items = "\n".join(f"      - {{count: {n}, title: '{title}', color: '#{color}', text: '{text}'}}"
                      for (title, color, text), n in runs)
    (folder / "deck.yaml").write_text(
        "components:\n  - id: deck\n    name: Deck\n    kind: card\n    size: poker\n"
        "    front: {layout: card}\n    items:\n" + items + "\n")
    return folder
