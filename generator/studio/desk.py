"""What the studio shows of one game folder: its distinct faces in data order, each drawn only when the page
asks for it and drawn again only when what shapes it changed.

Every load gives each face a tile: an id by its place (component, side, n-th distinct face of that side), and
a version, the digest of everything that shapes it (see SceneCache.key). The page keeps a tile whose version
did not change and asks again for the others; a load that fails keeps the last good tiles and says why.
"""
from __future__ import annotations

import csv
import html
import io
import os
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from ..data.yamlio import DataError, DataErrors
from ..look.layouts.base import FaceContext
from ..look.loader import load_game
from ..look.render import SceneCache
from ..data.model import Game, PieceSpec, ResolvedComponent
from ..look.layouts import LAYOUTS_FOLDER
from ..sheets.svg import scene_to_svg
from ...web.push import Changes
from .writes import digest

PUSHED = "desk"  # the one thing a studio's streams watch: its version

BLEED = 3.0  # mm: the studio draws every face as a default build does
SAFE = 3.0  # mm inside the trim: the safe zone the overlay shows
MOST_ROW = 2000  # characters of a data row the large view shows
KEPT_FACES = 600  # drawn faces kept (an LRU): what a screen or two of scrolling shows, not the whole set
KEPT_VERSIONS = 200  # versions an edit may be made on: a page further behind reloads
DATA_SUFFIXES = (".yaml", ".yml", ".csv", ".tsv")  # the files an edit writes (and a layout file)


@dataclass
class Tile:
    """One distinct face as the page lists it."""

    id: str
    version: str
    component: str
    component_name: str
    side: str
    names: list[str]
    count: int
    sources: list[str]
    width: float
    height: float
    pieces: list[tuple[ResolvedComponent, PieceSpec]] = field(repr=False, default_factory=list)

    def summary(self) -> dict:
        return {"id": self.id, "version": self.version, "component": self.component,
                "component_name": self.component_name, "side": self.side, "names": self.names[:6],
                "more_names": max(0, len(self.names) - 6), "count": self.count, "sources": self.sources[:6],
                "width": self.width + 2 * BLEED, "height": self.height + 2 * BLEED, "layout": self.layout}

    @property
    def shows(self) -> tuple:
        """What the face is, as the news tells faces added and gone apart: its component, side and drawing (a
        back shared by every card is no face added when a card is)."""
        return self.component, self.side, self.version.split(".")[0]

    @property
    def layout(self) -> str:
        """The layout the face is drawn with: the page counts the pieces a moved box of it reaches."""
        _, piece = self.pieces[0]
        return (piece.front if self.side == "front" else piece.back).params.layout


@dataclass
class Settings:
    options: frozenset[str] = frozenset()
    write_ins: bool = False
    ink: str = "full"


class Desk:
    """The faces of one folder as of its last good load, the error of its last load if it failed, and a
    version number that grows with every load (pushed to the open pages as it grows)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.settings = Settings()
        self.game: Game | None = None
        self.tiles: list[Tile] = []
        self.by_id: dict[str, Tile] = {}
        self.error: str | None = None
        self.version = 0
        self.drawn = 0  # faces drawn since start: the bench counts how many a change redraws
        # (version, ids changed, whether the list of ids changed, faces added, faces gone), the last 50 loads
        self.history: list[tuple[int, set[str], bool, list[str], list[str]]] = []
        self.faces: OrderedDict[str, dict] = OrderedDict()  # tile version -> drawn face, the last KEPT_FACES
        self.revisions: dict[str, int] = {}  # digest -> times an icon or image it shows changed
        self.changes = Changes()  # the pages' live-update streams hear each new version here
        self.lock = threading.RLock()
        self.cache = SceneCache(BLEED, folder)
        self.digests: dict[int, dict[Path, str]] = {}  # version -> each data file's digest then
        self.quiet: dict[Path, tuple[int, int] | None] = {}  # files as the studio wrote them: no save to follow
        self.writing = threading.Lock()  # held while the studio writes: the follower looks before or after

    # -- loading -------------------------------------------------------------------------------------

    def read(self) -> Game:
        """The folder's game as the studio's switches show it (raises the loader's errors)."""
        settings = self.settings
        return load_game(self.folder, settings.options, settings.write_ins, items=False)

    def load(self, assets_changed: bool = False) -> None:
        """Read the folder again. `assets_changed`: an icon or an image changed, which no digest holds, so
        the faces kept are drawn again, and only those that now look different get a new version."""
        try:
            game = self.read()
        except (DataErrors, DataError, OSError, ValueError) as exc:
            self.fail(one_line(exc))
            return
        self.take(game, assets_changed)

    def take(self, game: Game, assets_changed: bool = False) -> None:
        """Show `game`, loaded from this folder: a new version, whose changed faces the pages ask for."""
        settings = self.settings
        with self.lock:
            self.cache = SceneCache(BLEED, self.folder, ink=settings.ink)
            tiles = self._tiles(game)
            if assets_changed:
                self._redraw_kept(tiles)
            old = {tile.id: tile for tile in self.tiles}
            changed = {t.id for t in tiles if t.id not in old or old[t.id].summary() != t.summary()}
            ids = {t.id for t in tiles}
            # faces told apart by what they show, not by place (a card added at the top moves every id along)
            before, after = {t.shows for t in self.tiles}, {t.shows for t in tiles}
            added = [t.id for t in tiles if t.shows not in before] if ids != set(old) else []
            gone = [f"{t.component_name}, {t.side}: {', '.join(t.names[:3])}" for t in self.tiles
                    if t.shows not in after] if ids != set(old) else []
            reshaped = [t.id for t in tiles] != [t.id for t in self.tiles]
            self.game, self.tiles, self.by_id, self.error = game, tiles, {t.id: t for t in tiles}, None
            self._bump(changed, reshaped, added, gone)

    def switch(self, folder: Path) -> None:
        """Show another folder (an overrides folder just made of the game shown)."""
        with self.lock:
            self.folder = folder
            self.faces.clear()
        self.load()

    def fail(self, message: str) -> None:
        """Show `message` in the page's banner; the last good faces stay."""
        with self.lock:
            self.error = message
            self._bump(set(), False, [], [])

    def _bump(self, changed: set[str], reshaped: bool, added: list[str], gone: list[str]) -> None:
        """A new version: which tiles changed, whether the list itself did, and the faces added and gone;
        and the digest of each file an edit may write, as of this version (an edit made on it is refused
        when its file's digest differs now)."""
        with self.lock:
            self.version += 1
            self.digests[self.version] = file_digests(self.folder)
            for old in [v for v in self.digests if v <= self.version - KEPT_VERSIONS]:
                del self.digests[old]
            added_names = [f"{t.component_name}, {t.side}: {', '.join(t.names[:3])}"
                           for t in map(self.by_id.get, added) if t]
            self.history.append((self.version, changed, reshaped, added_names, gone))
            del self.history[:-50]
        self.changes.publish(PUSHED, self.version)

    def _tiles(self, game: Game) -> list[Tile]:
        """The distinct faces of every component, fronts then backs, each once with its copies counted."""
        tiles: list[Tile] = []
        for comp in game.components:
            spec = comp.spec
            for side in ("front", "back"):
                by_key: dict[bytes, Tile] = {}
                for piece in comp.pieces:
                    face = piece.front if side == "front" else piece.back
                    if face is None:
                        continue
                    key = self.cache.key(comp, piece, side)
                    tile = by_key.get(key)
                    if tile is None:
                        digest = key.hex()
                        version = f"{digest}.{self.revisions[digest]}" if digest in self.revisions else digest
                        tile = Tile(f"{spec.id}.{side}.{len(by_key) + 1}", version, spec.id, spec.name, side, [],
                                    0, [], *spec.size)
                        by_key[key] = tile
                        tiles.append(tile)
                    name = piece.name + (f" ({piece.color})" if piece.color else "")
                    if name not in tile.names:
                        tile.names.append(name)
                    tile.count += piece.count
                    source = where_from(face.origin)
                    if source not in tile.sources:
                        tile.sources.append(source)
                    tile.pieces.append((comp, piece))
        return tiles

    # -- waiting and drawing -------------------------------------------------------------------------

    def news(self, since: int) -> dict:
        """What the page needs to catch up from version `since`: every tile when it is too far behind or the
        list itself changed, else only the tiles that changed; and the faces added and gone since."""
        with self.lock:
            pieces = sum(c.quantity for c in self.game.components) if self.game else 0  # as the build counts
            state = {"version": self.version, "error": self.error, "drawn": self.drawn,
                     "pieces": pieces, "distinct": len(self.tiles)}
            later = [entry for entry in self.history if entry[0] > since]
            state["added"] = [name for entry in later for name in entry[3]] if since > 0 else []
            state["gone"] = [name for entry in later for name in entry[4]] if since > 0 else []
            if 0 < since == self.version:
                return {**state, "full": False, "tiles": []}
            if since <= 0 or not later or later[0][0] != since + 1 or any(entry[2] for entry in later):
                return {**state, "full": True, "tiles": [t.summary() for t in self.tiles]}
            changed = set().union(*(entry[1] for entry in later))
            return {**state, "full": False, "tiles": [t.summary() for t in self.tiles if t.id in changed]}

    def face(self, tile_id: str) -> dict | None:
        """A tile's face as the page draws it: the SVG, its overlay (trim, bleed, safe zone, warnings) and
        the warnings; None for an id the last good load does not have."""
        with self.lock:
            tile = self.by_id.get(tile_id)
            if tile is None:
                return None
            kept = self.faces.get(tile.version)
            if kept is not None:
                self.faces.move_to_end(tile.version)
            else:
                kept = self._keep(tile, self._draw(tile))
            return {**kept, "id": tile.id, "version": tile.version}  # a row added before it moves its id

    def row(self, tile_id: str) -> str | None:
        """The line of its file a tile's first piece was written on (a spreadsheet's row, a YAML item), as
        written; None for an unknown id."""
        with self.lock:
            tile = self.by_id.get(tile_id)
            if tile is None:
                return None
            _, piece = tile.pieces[0]
            origin = (piece.front if tile.side == "front" else piece.back).origin
        table, number = origin.table, origin.item.line
        if table is not None and table.kind == "workbook":
            return sheet_row(table.label, number)
        if table is not None and table.kind == "published":  # no file here: the sheet lies on the web
            return None
        path = Path(origin.file)
        try:
            with open(path, encoding="utf-8-sig", errors="replace") as file:
                for line_number, text in enumerate(file, start=1):
                    if line_number == number:
                        return text.rstrip("\n")[:MOST_ROW]
        except OSError:
            return None
        return None

    def _draw(self, tile: Tile) -> dict:
        comp, piece = tile.pieces[0]
        try:
            scene, ctx = self.cache.sketch(comp, piece, tile.side)
        except DataErrors as exc:  # a face past a budget: shown on its tile in one line, as check says it
            return {"svg": "", "overlay": "", "warnings": [short(exc.errors[0])], "fields": fields_of(piece, tile.side),
                    "boxes": []}
        self.drawn += 1
        face = piece.front if tile.side == "front" else piece.back
        places = face.drawing.places(ctx, face.params) if face.drawing.places else {}
        return {"svg": scoped(scene_to_svg(scene), tile.version[:12]), "overlay": overlay(scene, ctx),
                "warnings": [short(w) for w in ctx.warnings], "fields": fields_of(piece, tile.side),
                "boxes": [{"name": name, **place} for name, place in places.items()]}

    def _keep(self, tile: Tile, drawn: dict) -> dict:
        self.faces[tile.version] = drawn
        while len(self.faces) > KEPT_FACES:
            self.faces.popitem(last=False)
        return drawn

    def _redraw_kept(self, tiles: list[Tile]) -> None:
        """Draw again the faces kept (those the page has shown lately); a face that now looks different gets
        a new revision, so its tile's version changes and the page asks for it. The others stay as they are."""
        kept, self.faces = self.faces, OrderedDict()
        for tile in tiles:
            old = kept.get(tile.version)
            if old is None:
                continue
            fresh = self._draw(tile)
            if fresh != old:
                digest = tile.version.split(".")[0]
                self.revisions[digest] = self.revisions.get(digest, 0) + 1
                tile.version = f"{digest}.{self.revisions[digest]}"
            self._keep(tile, fresh)


def one_line(exc: Exception) -> str:
    """A load's refusal as the banner (and an edit's 400) says it: the first problem, and how many more."""
    if isinstance(exc, DataErrors):
        more = len(exc.errors) - 1
        return exc.errors[0] + (f" (and {more} more)" if more > 0 else "")
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def file_digests(folder: Path) -> dict[Path, str]:
    """Each data and layout file of the folder by its digest (what an edit compares against)."""
    found: dict[Path, str] = {}
    for place in (folder, folder / LAYOUTS_FOLDER):
        try:
            paths = [p for p in place.iterdir() if p.suffix.lower() in DATA_SUFFIXES and p.is_file()]
        except OSError:
            continue
        for path in paths:
            try:
                found[path.resolve()] = digest(path.read_bytes())
            except OSError:
                continue
    return found


def sheet_row(table: str, number: int) -> str | None:
    """Row `number` of a workbook's sheet (`table` is `FILE:SHEET`) as its CSV export writes it: each cell as the
    sheet shows it, a formula by its value (saved or computed), so the large view shows what the face read."""
    from ..data.workbook import read_workbook

    file, _, sheet = table.rpartition(":")
    try:
        _, records = read_workbook(Path(file), sheet)
    except DataError:
        return None
    if not 0 < number <= len(records):
        return None
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow(records[number - 1])
    return out.getvalue()[:MOST_ROW]


def where_from(origin) -> str:
    """`cards.csv:7` or `chits.yaml:12`: the file (a workbook's with its sheet) and line a piece was written on."""
    table = origin.table
    file = os.path.basename(table.label if table is not None else origin.file)  # no Path made
    return f"{file}:{origin.item.line}"


def scoped(svg: str, prefix: str) -> str:
    """The SVG with its ids made unique on a page that holds hundreds of faces inline."""
    svg = re.sub(r'<\?xml[^>]*\?>', "", svg)
    return re.sub(r'(id="|url\(#)clip', rf"\g<1>f{prefix}-clip", svg)


def short(warning: str) -> str:
    """A warning as the face shows it: without the file, component, piece and side the face already says."""
    for side in (": front: ", ": back: "):
        if side in warning:
            return warning.split(side, 1)[1]
    return warning


def overlay(scene, ctx: FaceContext) -> str:
    """An SVG over the face: trim, bleed and safe-zone lines (the page shows those asked for) and a numbered
    box round each part of the face a warning is about."""
    b, w, h = scene.bleed, scene.width, scene.height
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="overlay" viewBox="{-b:g} {-b:g} {w + 2 * b:g} '
             f'{h + 2 * b:g}" aria-hidden="true">',
             f'<rect class="bleed-line" x="{-b:g}" y="{-b:g}" width="{w + 2 * b:g}" height="{h + 2 * b:g}"/>']
    if scene.shape == "round":
        parts.append(f'<circle class="trim-line" cx="{w / 2:g}" cy="{h / 2:g}" r="{min(w, h) / 2:g}"/>')
        parts.append(f'<circle class="safe-line" cx="{w / 2:g}" cy="{h / 2:g}" r="{max(0, min(w, h) / 2 - SAFE):g}"/>')
    else:
        r = scene.corner_radius
        parts.append(f'<rect class="trim-line" x="0" y="0" width="{w:g}" height="{h:g}" rx="{r:g}"/>')
        parts.append(f'<rect class="safe-line" x="{SAFE:g}" y="{SAFE:g}" width="{max(0, w - 2 * SAFE):g}" '
                     f'height="{max(0, h - 2 * SAFE):g}"/>')
    for number, warning in enumerate(ctx.warnings, start=1):
        x, y, pw, ph = ctx.places.get(warning, (0.5, 0.5, w - 1, min(h - 1, 6)))
        parts.append(f'<g class="mark"><title>{html.escape(short(warning))}</title>'
                     f'<rect x="{x:.2f}" y="{y:.2f}" width="{max(pw, 1):.2f}" height="{max(ph, 1):.2f}"/>'
                     f'<circle cx="{x:.2f}" cy="{y:.2f}" r="2.2"/>'
                     f'<text x="{x:.2f}" y="{y + 1:.2f}">{number}</text></g>')
    parts.append("</svg>")
    return "".join(parts)


def fields_of(piece: PieceSpec, side: str) -> list[tuple[str, str]]:
    """The fields the data gave this face, as the large view lists them (its copies are the tile's count)."""
    face = piece.front if side == "front" else piece.back
    params = face.params
    return [(name, str(getattr(params, name))) for name in type(params).model_fields if name in params.model_fields_set]
