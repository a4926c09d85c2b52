"""The games the companion knows, by id: the games of starpnp.components (each with its module here, named
by its id), plus generic counters for any other game. Found the one way the generator finds them."""
from __future__ import annotations

import importlib
from functools import cache

from ...generator.look.loader import builtin_games
from .base import EventType, Fields, GameRules, RuleError, Seat, Whole


@cache
def all_rules() -> dict[str, GameRules]:
    modules = (importlib.import_module(f"{__name__}.{game_id}") for game_id in ("generic", *builtin_games()))
    return {module.RULES.id: module.RULES for module in modules}


def get_rules(game_id: str) -> GameRules | None:
    return all_rules().get(game_id)


__all__ = ["EventType", "Fields", "GameRules", "RuleError", "Seat", "Whole", "all_rules", "get_rules"]
