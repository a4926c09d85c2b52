"""Faces to scenes: runs a piece's layout once per distinct face and remembers the result."""
from __future__ import annotations

import math
import re
import time
import unicodedata
from dataclasses import dataclass
from hashlib import blake2b
from pathlib import Path

from .ink import low_ink
from .gamefonts import game_fonts
from .layouts.base import FaceContext
from .loader import find_game, icon_folders
from ..data.errors import DataError, DataErrors
from ..data.limits import MAX_DRAWING_SECONDS, MAX_FACE_SECONDS
from ..data.model import FaceSpec, Game, PieceSpec, ResolvedComponent
from ..data.overrides import source_folders
from ..data.palette import PLAYER_COLORS
from .scene import Scene

DEFAULT_CORNER = {"card": 3.0}


class SceneCache:
    """One scene per (component, piece, side): copies share it, and so does the PDF form it becomes."""

    def __init__(self, bleed: float, base_dir: Path, memo: dict | None = None, ink: str = "full",
                 deadline: float = math.inf):
        self.bleed = bleed
        self.deadline = deadline  # time.monotonic() past which drawing is refused (a build on demand)
        self.ink = ink  # "low": every face comes out as --ink low prints it, in every format
        self.base_dir = base_dir
        self.art_folders = tuple(source_folders(base_dir, find_game))  # art must lie inside the game's folders
        self.icon_folders = icon_folders(base_dir)
        self.fonts = game_fonts(self.icon_folders)  # the loader has told any bad font file already
        self.scenes: dict[tuple, Scene] = {}
        self.warnings: list[str] = []
        # Scenes by everything that shapes them; --watch keeps it between builds to redraw only what changed.
        self.memo = {} if memo is None else memo
        self.outlines: dict[tuple, Scene] = {}  # faces imposed before they are drawn (see outline)
        self.to_draw: dict[int, tuple] = {}
        self.contents: dict[tuple, bytes] = {}  # (component, piece, side) -> what shapes its face, made once
        self.face_warnings: dict[tuple, tuple[str, ...]] = {}
        self.cpu_spent = 0.0  # CPU seconds drawing faces took so far: at most MAX_DRAWING_SECONDS

    def _content(self, component: ResolvedComponent, piece: PieceSpec, side: str, named: bool = True) -> bytes:
        """Everything that shapes a face, as a 128-bit digest (a set of thousands of faces holds one key per
        face): two pieces alike in all of it share one scene. `named`: the piece's name too, which only the
        scene's label and its warnings show."""
        face: FaceSpec = piece.front if side == "front" else piece.back
        spec = component.spec
        name = piece.name if named else None
        shape = (spec.id, spec.name, spec.kind, spec.size, spec.shape, spec.corner_radius, name, piece.color,
                 side, self.bleed, self.ink, face.drawing.key, tuple(self.fonts.values()))
        return blake2b(f"{shape!r}{face.params.model_dump_json()}".encode(), digest_size=16).digest()

    def face(self, component: ResolvedComponent, piece: PieceSpec, side: str) -> Scene:
        key = (component.spec.id, id(piece), side)  # two items may share a name, never a PieceSpec
        if key not in self.scenes:
            face: FaceSpec = piece.front if side == "front" else piece.back
            content = self._content(component, piece, side)
            if content not in self.memo:
                self.memo[content] = self._draw(component, piece, face, side)
            scene, warnings = self.memo[content]
            for warning in warnings:
                if warning not in self.warnings:
                    self.warnings.append(warning)
            self.scenes[key] = scene
        return self.scenes[key]

    def outline(self, component: ResolvedComponent, piece: PieceSpec, side: str) -> Scene:
        """The face's size, bleed and cut shape, with nothing drawn yet: enough to impose it. `drawn` draws it
        when its sheet is written, so a build holds one sheet's faces at a time, not the whole set's. Pieces
        alike in everything share one outline, as they share one scene."""
        key = (component.spec.id, id(piece), side)
        content = self.contents.get(key) or self.contents.setdefault(key, self._content(component, piece, side))
        if content not in self.outlines:
            spec = component.spec
            radius = spec.corner_radius if spec.corner_radius is not None else DEFAULT_CORNER.get(spec.kind, 0.0)
            outline = Scene(*spec.size, self.bleed, (), spec.shape, radius)
            self.outlines[content] = outline
            self.to_draw[id(outline)] = (component, piece, side, content)
        return self.outlines[content]

    def drawn(self, scene: Scene) -> Scene:
        """The face an outline stands for, drawn now and not kept (any other scene as it is)."""
        if id(scene) not in self.to_draw:
            return scene
        component, piece, side, content = self.to_draw[id(scene)]
        face = piece.front if side == "front" else piece.back
        drawn, warnings = self._draw(component, piece, face, side)
        self.face_warnings[content] = tuple(warnings)  # most faces: the one empty tuple
        return drawn

    def warnings_in_order(self, components: tuple[ResolvedComponent, ...]) -> list[str]:
        """The warnings of every face as `face` would have collected them (data order, a piece's back before
        its front, each once), drawing any face that no sheet placed."""
        out: dict[str, None] = {}  # in order, each once
        for comp in components:
            for piece in comp.pieces:
                for side in ("back", "front") if piece.back else ("front",):
                    outline = self.outline(comp, piece, side)
                    content = self.to_draw[id(outline)][3]
                    if content in self.memo:  # drawn whole before imposing (a board tiled over pages)
                        warnings = self.memo[content][1]
                    else:
                        if content not in self.face_warnings:
                            self.drawn(outline)
                        warnings = self.face_warnings[content]
                    out.update(dict.fromkeys(warnings))
        return list(out)

    def forget(self) -> None:
        """Let go of every scene, outline and face warning kept: a build that has written its sheets and
        gathered its warnings needs none of them (thousands of pieces: megabytes)."""
        for kept in (self.scenes, self.outlines, self.to_draw, self.contents, self.face_warnings):
            kept.clear()

    def key(self, component: ResolvedComponent, piece: PieceSpec, side: str) -> bytes:
        """What the face looks like, as a digest: two faces with one key look alike, whatever their pieces are
        called (the studio shows them once, and redraws a face only when its key changes)."""
        return self._content(component, piece, side, named=False)

    def sketch(self, component: ResolvedComponent, piece: PieceSpec, side: str) -> tuple[Scene, FaceContext]:
        """The face drawn now and not kept, with the context that drew it: its warnings and the part of the
        face each is about (the studio marks them on the face)."""
        return self._sketch(component, piece, piece.front if side == "front" else piece.back, side)

    def _draw(self, component: ResolvedComponent, piece: PieceSpec, face: FaceSpec, side: str) -> tuple[Scene, list]:
        scene, ctx = self._sketch(component, piece, face, side)
        return scene, ctx.warnings

    def _sketch(self, component: ResolvedComponent, piece: PieceSpec, face: FaceSpec,
                side: str) -> tuple[Scene, FaceContext]:
        spec = component.spec
        w, h = spec.size
        radius = spec.corner_radius if spec.corner_radius is not None else DEFAULT_CORNER.get(spec.kind, 0.0)
        color = PLAYER_COLORS[piece.color] if piece.color else None
        where = f"{Path(component.source).name}: {spec.id}: {piece.name}" + (f" ({piece.color})" if color else "")
        ctx = FaceContext(w, h, self.bleed, spec.shape, radius, color, self.base_dir, f"{where}: {side}",
                          self.art_folders, face.params.background_art, face.params.background_fit,
                          icon_folders=self.icon_folders, origin=face.origin, deadline=self.deadline,
                          fonts=self.fonts)
        started = time.thread_time()  # the clock costs a microsecond or two: read twice a face
        left = MAX_DRAWING_SECONDS - self.cpu_spent
        ctx.cpu_deadline, ctx.deadline_is_builds = started + min(MAX_FACE_SECONDS, left), left < MAX_FACE_SECONDS
        try:
            ctx.on_time(started)
            elements = face.drawing.draw(ctx, face.params)
        except DataError as exc:  # a value past a limit: the data's fault, refused like any other
            raise DataErrors([str(exc)]) from None
        finally:
            self.cpu_spent += time.thread_time() - started
        label = f"{spec.name}: {piece.name}" + (f" ({piece.color})" if color else "") + f", {side}"
        scene = Scene(w, h, self.bleed, tuple(elements), spec.shape, radius, label)
        return (low_ink(scene) if self.ink == "low" else scene), ctx


@dataclass(frozen=True)
class Face:
    component: str
    stem: str  # file name without side and extension; front and back share it
    count: int
    front: Scene
    back: Scene | None
    name: str = ""  # the piece's name, as a person reads it


def slug(text: str, joiner: str = "-", empty: str = "piece") -> str:
    """A name as a file name: accented letters as their plain letters (`Ünïcode` → `unicode`, `Œuvre` →
    `oeuvre`), anything else but letters and digits as one `joiner`."""
    plain = unicodedata.normalize("NFKD", text.lower().translate(LIGATURES)).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", joiner, plain).strip(joiner) or empty


LIGATURES = str.maketrans({"æ": "ae", "œ": "oe", "ß": "ss", "ø": "o", "đ": "d", "ł": "l", "þ": "th", "ð": "d"})


def faces(game: Game, cache: SceneCache) -> list[Face]:
    """Every distinct face pair in data order, each with a file stem unique within its component."""
    out = []
    for comp in game.components:
        taken: set[str] = set()
        for piece in comp.pieces:
            base = slug(piece.name) + (f"-{piece.color}" if piece.color else "")
            stem, n = base, 1
            while stem in taken:
                n += 1
                stem = f"{base}-{n}"
            taken.add(stem)
            back = cache.face(comp, piece, "back") if piece.back else None
            name = piece.name + (f" ({piece.color})" if piece.color else "")
            out.append(Face(comp.spec.id, stem, piece.count, cache.face(comp, piece, "front"), back, name))
    return out
