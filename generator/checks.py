"""What `starpnp check` finds beyond the shape of the data, each with file and line: every face is drawn (and
nothing written) for the warnings a build would give — missing art, text that does not fit its box even at
its least size, a `{name}` that is neither an icon nor a rule number — and every icon file is read as SVG."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from .exports import faces
from .loader import find_game
from .model import Game
from .overrides import source_folders
from .render import SceneCache

ICON_FOLDER = "icons"  # a game folder's own icons: icons/<name>.svg
SVG_ROOT = "{http://www.w3.org/2000/svg}svg"


def face_warnings(game: Game, folder: Path) -> list[str]:
    """The warnings drawing every face gives, as a default build draws them."""
    cache = SceneCache(3.0, folder)
    faces(game, cache)
    return cache.warnings


def icon_file_problems(folder: Path) -> list[str]:
    """`file:line: message` for each icon file of the game (and of the game it extends) that is not an SVG."""
    problems = []
    for source in source_folders(folder, find_game):
        for path in sorted((source / ICON_FOLDER).glob("*.svg")):
            try:
                root = ET.parse(path).getroot()
            except ET.ParseError as exc:
                problems.append(f"{path}:{exc.position[0]}: icon is not valid SVG: {str(exc).split(':')[0]}")
                continue
            if root.tag != SVG_ROOT:
                problems.append(f"{path}:1: icon is not valid SVG: its root is <{root.tag.split('}')[-1]}>, "
                                f"not <svg> in the SVG namespace")
    return problems
