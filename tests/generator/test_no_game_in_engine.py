"""The engine knows no game: no file under generator/ or starpnp/ names one of ours, by id or by name (each
game's looks live in its own folder under components/). Built-in layouts and icons are checked too."""
from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPONENTS = ROOT / "components"


def game_words() -> list[str]:
    """Every game's id, name, and the name's distinctive words (`Catan`, `Handful`)."""
    words = []
    for game_file in sorted(COMPONENTS.glob("*/game.yaml")):
        info = yaml.safe_load(game_file.read_text(encoding="utf-8"))
        words += [info["id"], info["name"]]
        words += [w for w in re.findall(r"[A-Za-z]+", info["name"]) if len(w) > 4 and w.lower() != "stars"]
    return words


def test_the_words_cover_all_four_games():
    words = game_words()
    assert {"stratastar", "stars_inc", "starship_catan", "handful_of_stars", "Catan", "Handful"} <= set(words)


def test_no_engine_file_names_a_game():
    pattern = re.compile("|".join(re.escape(w) for w in game_words()), re.IGNORECASE)
    found = []
    for folder in ("generator", "starpnp"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".yaml", ".svg", ".md", ".txt", ".csv"):
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    if pattern.search(line):
                        found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}")
    assert found == []
