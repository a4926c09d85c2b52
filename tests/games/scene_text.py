"""Reading the text out of scenes, as it will print."""
from __future__ import annotations

from pathlib import Path

from starpnp.generator.look.scene import Group, Text


def printed_texts(elements, scale=1.0):
    """(line, size in pt as printed) for every line of text, through nested scaled groups (icons)."""
    for e in elements:
        if isinstance(e, Group):
            yield from printed_texts(e.children, scale * e.scale)
        elif isinstance(e, Text):
            for line in e.lines:
                yield line.text, e.size * scale


def component_text(game, comp_id: str) -> str:
    """Every line printed on every face of one component, in one string (as a reader sees the pieces)."""
    from starpnp.generator.look.render import SceneCache

    comp = next(c for c in game.components if c.spec.id == comp_id)
    cache = SceneCache(0.0, Path(game.folder))
    faces = [cache.face(comp, piece, side) for piece in comp.pieces
             for side in (("front", "back") if piece.back else ("front",))]
    return " ".join(" ".join(text for text, _ in printed_texts(scene.elements)) for scene in faces)
