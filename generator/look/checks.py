"""What `starpnp check` finds beyond the shape of the data, each with file and line: every face is drawn (and
nothing written) for the warnings a build would give — missing art, text that does not fit its box even at
its least size, a `{name}` that is neither an icon nor a rule number — and, in full and low ink alike, a text
printed over another element (generator.look.overlaps). (An icon file that is not SVG is an error of the
loader's, generator.look.icons.icon_problems.)"""
from __future__ import annotations

from pathlib import Path

from ..data.model import Game
from .overlaps import overlaps
from .render import SceneCache, faces


def face_warnings(game: Game, folder: Path, drawn: SceneCache | None = None) -> list[str]:
    """The warnings drawing every face gives, as a default build draws them (`drawn`: the cache to draw them
    in, which overlap_warnings may read after)."""
    cache = drawn or SceneCache(3.0, folder)
    faces(game, cache)
    return cache.warnings


def overlap_warnings(game: Game, folder: Path, full: SceneCache) -> list[str]:
    """'<face>: "<words>" runs into <element> (<ink>)' for each text printed over another element's ink, in
    full and in low ink (low ink outlines large fills, so an edge hidden in full ink can show there). `full`:
    the cache face_warnings drew the full-ink faces in, not drawn a second time."""
    inks: dict[str, list[str]] = {}
    for ink, cache in (("full", full), ("low", SceneCache(3.0, folder, ink="low"))):
        seen: set[int] = set()
        for face in faces(game, cache):
            for scene in (face.front, face.back):
                if scene is not None and id(scene) not in seen:
                    seen.add(id(scene))
                    for problem in overlaps(scene):
                        inks.setdefault(f"{scene.label}: {problem}", []).append(ink)
    return [f"{problem} ({' and '.join(found)} ink)" for problem, found in inks.items()]


def check_warnings(game: Game, folder: Path) -> list[str]:
    """What `check` finds by drawing: face_warnings, then overlap_warnings, the full-ink faces drawn once for
    both (a large game's faces take seconds to draw)."""
    drawn = SceneCache(3.0, folder)
    return [*face_warnings(game, folder, drawn), *overlap_warnings(game, folder, drawn)]
