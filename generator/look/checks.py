"""What `starpnp check` finds beyond the shape of the data, each with file and line: every face is drawn (and
nothing written) for the warnings a build would give — missing art, text that does not fit its box even at
its least size, a `{name}` that is neither an icon nor a rule number. (An icon file that is not SVG is an
error of the loader's, generator.look.icons.icon_problems.)"""
from __future__ import annotations

from pathlib import Path

from ..data.model import Game
from .render import SceneCache, faces


def face_warnings(game: Game, folder: Path) -> list[str]:
    """The warnings drawing every face gives, as a default build draws them."""
    cache = SceneCache(3.0, folder)
    faces(game, cache)
    return cache.warnings
