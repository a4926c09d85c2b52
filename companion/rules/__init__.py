"""Registry of the games the companion knows, by id."""
from __future__ import annotations

import importlib

from .base import EventType, Fields, GameRules, RuleError, Seat, Whole

# One module per game; each defines RULES: GameRules. Add a game by adding its module name here.
GAME_MODULES: tuple[str, ...] = ("generic", "stratastar", "stars_inc", "starship_catan", "handful_of_stars")


def all_rules() -> dict[str, GameRules]:
    rules = (importlib.import_module(f"{__name__}.{name}").RULES for name in GAME_MODULES)
    return {r.id: r for r in rules}


def get_rules(game_id: str) -> GameRules | None:
    return all_rules().get(game_id)


__all__ = ["EventType", "Fields", "GameRules", "RuleError", "Seat", "Whole", "GAME_MODULES", "all_rules", "get_rules"]
