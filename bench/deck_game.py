"""The benchmark deck as starpnp data: 85 poker cards, coloured frame, title, two text lines."""
from __future__ import annotations

from pathlib import Path

KINDS = [("Attack", "C62828", 20), ("Move", "1565C0", 20), ("Build", "2E7D32", 20), ("Trade", "F9A825", 20),
         ("Research", "6A1B9A", 5)]
TEXT = "Play this card in its phase. Discard it after use."


def cards(copies: int = 1) -> list[tuple[str, str]]:
    """(title, colour) of every card: 85, or 85 × copies for the scaling run."""
    return [(name, color) for name, color, n in KINDS for _ in range(n * copies)]


def write_deck_game(folder: Path, copies: int = 1) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text("id: benchdeck\nname: Bench Deck\nplayers: {min: 2, max: 4}\ncolors: [red]\n")
    items = "\n".join(f"      - {{count: {n * copies}, title: {name}, color: '#{color}', text: '{TEXT}'}}"
                      for name, color, n in KINDS)
    (folder / "deck.yaml").write_text(
        "components:\n  - id: deck\n    name: Deck\n    kind: card\n    size: poker\n"
        "    front: {layout: card}\n    items:\n" + items + "\n")
    return folder
