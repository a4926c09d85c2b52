"""Faces to scenes: runs a piece's layout once per distinct face and remembers the result."""
from __future__ import annotations

from pathlib import Path

from .layouts import load_all
from .layouts.base import FaceContext
from .model import FaceSpec, PieceSpec, ResolvedComponent
from .palette import PLAYER_COLORS
from .scene import Scene

DEFAULT_CORNER = {"card": 3.0}


class SceneCache:
    """One scene per (component, piece, side): copies share it, and so does the PDF form it becomes."""

    def __init__(self, bleed: float, base_dir: Path):
        self.bleed = bleed
        self.base_dir = base_dir
        self.layouts = load_all()
        self.scenes: dict[tuple, Scene] = {}
        self.warnings: list[str] = []

    def face(self, component: ResolvedComponent, piece: PieceSpec, side: str) -> Scene:
        key = (component.spec.id, piece.name, piece.color, side)
        if key not in self.scenes:
            face: FaceSpec = piece.front if side == "front" else piece.back
            self.scenes[key] = self._draw(component, piece, face, side)
        return self.scenes[key]

    def _draw(self, component: ResolvedComponent, piece: PieceSpec, face: FaceSpec, side: str) -> Scene:
        spec = component.spec
        w, h = spec.size
        radius = spec.corner_radius if spec.corner_radius is not None else DEFAULT_CORNER.get(spec.kind, 0.0)
        color = PLAYER_COLORS[piece.color] if piece.color else None
        where = f"{Path(component.source).name}: {spec.id}: {piece.name}" + (f" ({piece.color})" if color else "")
        ctx = FaceContext(w, h, self.bleed, spec.shape, radius, color, self.base_dir, f"{where}: {side}",
                          face.params.background_art, face.params.background_fit)
        elements = self.layouts[face.layout].draw(ctx, face.params)
        for warning in ctx.warnings:
            if warning not in self.warnings:
                self.warnings.append(warning)
        label = f"{spec.name}: {piece.name}" + (f" ({piece.color})" if color else "") + f", {side}"
        return Scene(w, h, self.bleed, tuple(elements), spec.shape, radius, label)
