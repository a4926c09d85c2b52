"""The studio's changes to a game folder: a face's fields edited, a box moved, an image dropped on a face,
undo and redo, and Customise (an overrides folder for one of our games).

Every change is made on the page's version of the folder: a file that changed on disk since (saved in an
editor) refuses it (Stale), so a newer file is never overwritten. The game is loaded with the change in
memory first (yamlio.pending): a value the loader refuses is never written, and the page gets the loader's
own line. That load is then the one the desk shows, so an edit loads the game once.
"""
from __future__ import annotations

import io
import os
import re
import warnings
import shlex
import threading
from pathlib import Path
from typing import Any

from pydantic_core import to_jsonable_python

from ..data.errors import DataError, DataErrors
from ..data.inside import replace_whole
from ..data.origin import ITEM
from ..data.yamlio import pending
from ..look.layouts import layouts_for
from ..look.layouts.layoutfile import outside_face
from ..look.loader import layout_folders
from .artfit import PRINT_DPI, Box, fitted
from .desk import BLEED, Desk, Tile, one_line, where_from
from .edits import (ART_FIELDS, BUILTIN, SCALAR_KINDS, ReadOnly, Sources, Target, kind_of, layout_source, shown,
                    typed)
from . import rows, yamltext
from .writes import NEW_FILE_MODE, Changed, Journal, current, digest

ART_FOLDER = "art"
MOST_ART_BYTES = 20 * 1024 * 1024  # an image dropped on a face: what a phone's photo is
ART_TYPES = {"PNG": ".png", "JPEG": ".jpg"}  # what Pillow must find in a raster image
SMALLEST_BOX = 0.5  # mm: a box dragged smaller is a slip of the hand
MOST_FOLDER_DEPTH = 64  # a folder Customise makes: deeper is a pasted slip, and mkdir would recurse
SAME_MM = 0.005  # mm: a key sent within this of where the box is drawn was not moved
MOST_MM = 10_000  # mm either way: a place past 10 m is no place on a face (and 10**400 no float)
NOT_FIELDS = ("layout",)  # a face's fields the page does not offer (its layout is changed in the file)


class Refused(DataError):
    """A change not made: a value the loader refuses, or one written elsewhere (`readonly`); `answer`: what
    else the page is told, to ask the person and send the change again (docs/studio-api.md)."""

    def __init__(self, message: str, readonly: bool = False, **answer: Any):
        super().__init__(message)
        self.readonly, self.answer = readonly, answer


class NoFace(LookupError):
    """A face id the desk does not have (the folder changed since the page listed it)."""


class Stale(Exception):
    """The file changed on disk since the version the change was made on."""


class WriteBack:
    """The changes a page asks for, one at a time, each to the file its value came from, with the steps to
    undo and redo them; and what the page is told about where each value of a face comes from."""

    def __init__(self, desk: Desk):
        self.desk = desk
        self.sources = Sources(desk.folder)
        self.journal = Journal(desk.folder)
        self.lock = threading.Lock()  # one change at a time: each is checked against the files as they are

    # -- what the page is told ------------------------------------------------------------------------

    def folder_info(self) -> dict:
        game = self.desk.game
        builtin = self.sources.builtin
        return {"path": str(self.desk.folder.resolve()), "name": game.info.name if game else self.desk.folder.name,
                "writable": not builtin, "why": BUILTIN if builtin else None, "builtin": builtin,
                "overrides": self.sources.overrides, "build": build_line(self.desk.folder)}

    def steps(self) -> dict:
        """The step Undo and Redo would take, and the tab each was made in (the page says whose it is)."""
        done, undone = self.journal.done, self.journal.undone
        return {"undo": done[-1].label if done else None, "redo": undone[-1].label if undone else None,
                "undo_tab": done[-1].tab if done else None, "redo_tab": undone[-1].tab if undone else None}

    def describe(self, tile_id: str, boxes: list[dict]) -> dict | None:
        """What a person may change on a face and where each value comes from (docs/studio-api.md)."""
        tile = self.desk.by_id.get(tile_id)
        if tile is None:
            return None
        comp, piece = tile.pieces[0]
        params = (piece.front if tile.side == "front" else piece.back).params
        fields = [self._field(tile, "count", face_count(tile), "integer", None)]
        for name, info in type(params).model_fields.items():
            if name not in NOT_FIELDS:
                kind, choices = kind_of(info)
                fields.append(self._field(tile, name, getattr(params, name), kind, choices))
        art_name = next(name for name in ART_FIELDS if name in type(params).model_fields)
        art = next(entry for entry in fields if entry["name"] == art_name)
        layout = {"name": params.layout, "file": f"layouts/{params.layout}.yaml", "writable": not self.sources.builtin,
                  "why": BUILTIN if self.sources.builtin else None}
        width, height = comp.spec.size
        return {"fields": fields, "art": {**art, "field": art_name}, "layout": layout, "boxes": boxes,
                "size": {"w": width, "h": height, "bleed": BLEED}, "items": len(tile.sources)}

    def _field(self, tile: Tile, name: str, value: Any, kind: str | None, choices: list | None) -> dict:
        entry: dict[str, Any] = {"name": name, "kind": kind or "data", "value": to_jsonable_python(value)}
        if choices:
            entry["choices"] = choices
        origin = origins(tile)[0]
        try:
            if kind not in SCALAR_KINDS:
                raise ReadOnly(f"a list or table of values: change it in {where_from(origin)}")
            targets = self.targets(tile, name)
            where = targets[0].where(self.desk.folder)
            several = self.several(tile) if name != "count" else None
            if several is not None:  # the page asks: all of them, or one card split out as an item of its own
                entry["several"] = several
            if len(targets) > 1:  # all of them: written in each (the count's line says which items, once)
                where += f" and {len(targets) - 1} more"
            if self.sources.overrides:  # a player's copy: words, the file and line kept for the designer
                entry.update(writable=True, where="your copy's changes", detail=where)
            else:
                entry.update(writable=True, where=where)
        except (ReadOnly, DataError) as exc:
            entry.update(writable=False, where=where_from(origin), why=str(exc))
        return entry

    def targets(self, tile: Tile, name: str) -> list[Target]:
        """Where a change of `name` on this face is written: in each item the face stands for (they are alike
        on it, and stay so), as their load recorded. A count is each item's own: a face of several items takes
        none (one line says why)."""
        if self.sources.builtin:
            raise ReadOnly(BUILTIN)
        found = origins(tile)
        if name == "count" and len(found) > 1:
            raise ReadOnly(f"this face is {alike(tile)}, written apart and alike on the card, each with its own "
                           f"count: change one where it is written ({where_from(found[0])})")
        places = {(p.file, p.line, p.path, p.column) for p in (origin.where(name) for origin in found)}
        if len(found) > 1 and len(places) == 1:  # one value they all take (the component's: a common back)
            return [self.sources.shared(found[0], name)]
        return [self.sources.target(origin, name) for origin in found]

    def values(self, tile_id: str, names: list[str]) -> dict:
        """The face's values of these fields as the folder now has them (what a refused edit is shown)."""
        tile = self.desk.by_id.get(tile_id)
        if tile is None:
            return {}
        comp, piece = tile.pieces[0]
        params = (piece.front if tile.side == "front" else piece.back).params
        return {name: to_jsonable_python(face_count(tile) if name == "count" else getattr(params, name, None))
                for name in names}

    # -- changes ---------------------------------------------------------------------------------------

    def edit(self, tile_id: str, values: dict, version: int, tab: str = "", cards: str | None = None) -> int:
        """Each field of `values` set on the face's items; on a face standing for several items alike, `cards`
        says which: `all` (each item takes it) or `one` (one card, split out as an item of its own); not
        said, the page is asked (a 400 with `several`)."""
        with self.lock:
            tile = self._tile(tile_id)
            comp, piece = tile.pieces[0]
            params = (piece.front if tile.side == "front" else piece.back).params
            fields = type(params).model_fields
            changes: list[tuple[Target, Any]] = []
            wanted: dict[str, Any] = {}
            for name, value in values.items():
                if name != "count" and (name not in fields or name in NOT_FIELDS):
                    raise Refused(f"set.{name}: this face has no such field; its fields: count, "
                                  f"{', '.join(f for f in fields if f not in NOT_FIELDS)}")
                kind = "integer" if name == "count" else kind_of(fields[name])[0]
                if kind not in SCALAR_KINDS:
                    raise Refused(f"set.{name}: a list or table of values: change it in its file", readonly=True)
                if not isinstance(value, (str, int, float, bool)):
                    raise Refused(f"set.{name}: expected text, a number or true/false")
                if isinstance(value, str) and not value.isprintable() and unwritable(value):
                    raise Refused(f"set.{name}: {unwritable(value)}")
                value = wanted[name] = typed(value, kind)
                if name == "count" and isinstance(value, int) and not isinstance(value, bool):
                    value = origins(tile)[0].written_count(value)
                changes += [(target, value) for target in self._target(lambda: self.targets(tile, name))]
            if self._which_cards(tile, cards, any(name != "count" for name in values)) == "one":
                label, texts, targets = self._one_card(tile, wanted)
                return self._commit(label, texts, version, tab=tab, values=targets)
            texts = self._written(changes)
            label = f"{', '.join(values)} of {piece.name} ({shown(changes[0][0].file, self.desk.folder)})"
            return self._commit(label, texts, version, tab=tab, values=[t for t, _ in changes])

    def several(self, tile: Tile) -> dict | None:
        """The question an edit of a face standing for several items alike asks, or None for one item."""
        found = origins(tile)
        if len(found) < 2:
            return None
        cards = sum(count for _, count in items_of(tile))
        return {"cards": cards, "items": len(found),
                "question": f"This face is {cards} cards, written as {len(found)} items alike ({alike(tile)}): "
                            f"change all {cards}, or only one card, split out as an item of its own?"}

    def _which_cards(self, tile: Tile, cards: str | None, asks: bool = True) -> str:
        """`all` or `one`: which of a face's cards a change of a value (`asks`: not its count) is made on. A
        face standing for several items alike says which as `cards`; not said, the page is asked (a 400
        carrying `several`). A face of one item: all."""
        several = self.several(tile) if asks else None
        if several is None:
            return "all"
        if cards not in ("all", "one"):
            raise Refused(f"cards: {several['question']} (send cards: all or one)", several=several)
        return cards

    def _one_card(self, tile: Tile, values: dict[str, Any]) -> tuple[str, dict[Path, str], list[Target]]:
        """One card of a face standing for several items alike takes `values`: an item of one card takes them
        alone; else the first item is copied right after itself in its file's style, the copy a count of 1
        with the values, the item one card fewer. The step's label, the file's text so, and the values' places
        (nothing written yet)."""
        if self.sources.overrides:
            raise Refused("cards: your copy names the game's cards, it does not split them: Duplicate the card in "
                          "the card list and change the copy", readonly=True)
        items = items_of(tile)
        alone = next((origin for origin, count in items if count == 1), None)
        if alone is not None:
            changes = [(self._target(lambda: self.sources.target(alone, name)), value) for name, value in values.items()]
            file = changes[0][0].file
            texts = self._written(changes)
        else:
            origin, count = items[0]
            changes = [(self._target(lambda: self.sources.target(origin, name)), None) for name in values]
            file, texts = self._split_text(origin, count, values)
        label = f"{', '.join(values)} of one {tile.pieces[0][1].name} card, an item of its own ({shown(file, self.desk.folder)})"
        return label, texts, [target for target, _ in changes]

    def _split_text(self, origin, count: int, values: dict[str, Any]) -> tuple[Path, dict[Path, str]]:
        """The file of the item with its copy of one card after it, holding `values`, and its count less one."""
        for name in ("count", *values):
            where = origin.where(name)
            if where.how.startswith("option") or name == "count" and where.how != ITEM:
                raise Refused(f"cards: {name} of this card is not the item's own ({where.shown(self.desk.folder)}); "
                              f"split the item in its file", readonly=True)
        table = origin.table
        file = Path(origin.file)
        text, label = self.sources.text(file), shown(file, self.desk.folder)
        try:
            if table is not None:
                lines: list[int] = []
                rows.csv_pieces(text, table.delimiter, label, lines)
                at = lines.index(origin.item.line)
                text = rows.csv_copy(text, table.delimiter, [at], label)
                for name, value in {**values, "count": 1}.items():
                    text = rows.csv_set(text, table.delimiter, [at + 1], table.column(".".join(origin.own(name))),
                                        value, label)
                text = rows.csv_set(text, table.delimiter, [at], table.column("count"), count - 1, label)
            else:
                listed = ("components", origin.item.component.index, "items")
                at = origin.item.index
                text = rows.yaml_copy(text, listed, [at], label)
                for name, value in {**values, "count": 1}.items():
                    text = yamltext.set_value(text, listed + (at + 1, *origin.own(name)), value, label)
                text = yamltext.set_value(text, listed + (at, "count"), count - 1, label)
        except (DataError, ValueError) as exc:
            raise Refused(f"cards: {one_line(exc)}") from None
        return file, {file: text}

    def move(self, tile_id: str, box: str, place: dict, version: int, tab: str = "") -> int:
        with self.lock:
            tile = self._tile(tile_id)
            comp, piece = tile.pieces[0]
            face = piece.front if tile.side == "front" else piece.back
            drawn = self.desk.face(tile_id) or {}
            movable = [b["name"] for b in drawn.get("boxes", []) if b["movable"]]
            if box not in movable:
                raise Refused(f"box: {box!r} is not a box this face places by x, y, w and h; "
                              f"these are: {', '.join(movable) or 'none'}")
            drawn_box = next(b for b in drawn["boxes"] if b["name"] == box)
            numbers, moved = {}, {}
            for key in ("x", "y", "w", "h"):
                value = place.get(key)
                if isinstance(value, bool) or not isinstance(value, (int, float)) or not abs(value) < MOST_MM:
                    raise Refused(f"{key}: expected a number of mm (less than {MOST_MM:g} either way)")
                given = round(float(value), 2)  # the person's millimetres, without a float's noise
                numbers[key] = int(given) if given.is_integer() else given
                if abs(given - drawn_box[key]) >= SAME_MM:
                    moved[key] = numbers[key]
            if not moved:
                return self.desk.version  # dropped where it was: nothing to write, no step to undo
            targets = self._target(lambda: self.sources.layout_targets(face.origin, face.params.layout, box))
            file = shown(targets[0].file, self.desk.folder)
            width, height = comp.spec.size
            self._on_face(file, box, numbers, width, height)
            chosen = [(target, moved[key]) for key, target in zip(("x", "y", "w", "h"), targets) if key in moved]
            followed = {target.path[-1]: held for target, _ in chosen
                        if (held := self.sources.expression(target)) is not None}
            if followed and place.get("numbers") is not True:
                raise Refused(f"{file}: boxes.{box}: {', '.join(f'{k} follows {v}' for k, v in followed.items())}; "
                              f"moving it sets a number there instead (send numbers: true), or leave it where it is",
                              expressions=followed)  # the page asks: keep it following, or set the number
            texts = self._written(chosen)
            said = self.box_sources(face, box, targets)
            came = placed_from({key: said[key] for key in moved if key in said and said[key][1]})
            return self._commit(f"{box} box of {face.params.layout}: {', '.join(moved)} ({file}"
                                f"{f'; {came}' if came else ''})", texts, version, tab=tab,
                                values=[t for t, _ in chosen])

    def box_sources(self, face, box: str, targets: list[Target] | None = None,
                    record: dict[str, dict] | None = None) -> dict[str, tuple[str, bool]]:
        """Where the face's box takes each of x, y, w and h from, as the page says it, and whether it comes
        from a file a move does not write (it writes over it): where a move writes it, when written there
        (`layouts/deck_card.yaml:9`), else the layout file the load merged it from (`the builtin layout `card`
        via extends`). A key no file writes (a badge's place) is left out. `record`: the layout's
        box_origins, when the caller has them for all its boxes."""
        layout = face.params.layout
        found = (self.box_origins(layout) if record is None else record).get(box, {})
        if targets is None:
            try:
                targets = self.sources.layout_targets(face.origin, layout, box)
            except (ReadOnly, DataError):  # one of our games: where the load found each is all there is
                targets = []
        said = {}
        for key, target in zip(("x", "y", "w", "h"), targets or [None] * 4):
            if target is not None and not target.new:
                said[key] = (target.where(self.desk.folder), False)
            elif key in found:  # written elsewhere: a move writes over it in the face's own file
                said[key] = (layout_source(found[key], self.desk.folder), bool(targets) or found[key].how == "extends")
        return said

    def box_origins(self, layout: str) -> dict[str, dict]:
        """Where each key of each box of `layout` is written, as the game's load merges its files."""
        try:
            return layouts_for(layout_folders(self.desk.folder)).box_origins(layout)
        except (DataError, OSError):  # a layout file not read as it is now: where it came from goes untold
            return {}

    @staticmethod
    def _on_face(file: str, box: str, n: dict, width: float, height: float) -> None:
        """A box stays on the face, its bleed included (check's own line), and is not dragged to nothing."""
        for size in ("w", "h"):
            if n[size] < SMALLEST_BOX:
                raise Refused(f"{file}: boxes.{box}.{size}: {n[size]:g} mm; a box is at least {SMALLEST_BOX:g} mm")
        problem = outside_face(box, n["x"], n["y"], n["w"], n["h"], width, height, BLEED)
        if problem:
            raise Refused(f"{file}: {problem}")

    def art(self, tile_id: str, filename: str, data: bytes, version: int, tab: str = "",
            cards: str | None = None) -> int:
        """An image dropped on a face, kept in art/ and named by the face's items; on a face standing for
        several items alike, `cards` says which of its cards take it, as an edit's does."""
        with self.lock:
            tile = self._tile(tile_id)
            comp, piece = tile.pieces[0]
            params = (piece.front if tile.side == "front" else piece.back).params
            field = next(name for name in ART_FIELDS if name in type(params).model_fields)
            suffix = image_suffix(filename, data)
            targets = self._target(lambda: self.targets(tile, field))
            one = self._which_cards(tile, cards) == "one"
            scaled = ""
            if suffix != ".svg":
                kept = fitted(data, self._art_box(tile, field, f"{ART_FOLDER}/{filename}"))
                data = kept.data
                if kept.scaled:
                    scaled = f" (kept at {kept.size[0]} × {kept.size[1]} pixels, what its box shows at {PRINT_DPI} dpi)"
            image = self._art_file(filename, suffix, data)
            named = f"{ART_FOLDER}/{image.name}"
            if one:
                label, texts, targets = self._one_card(tile, {field: named})
            else:
                texts, label = self._written([(target, named) for target in targets]), f"{field} of {piece.name}"
            self._fresh(texts, version)
            made = self.journal.now(image) is None
            if made:
                replace_whole(image, data, NEW_FILE_MODE, inside=self.desk.folder, make_folders=True)
            try:
                return self._commit(f"{label}: {image.name}{scaled}", texts, version,
                                    made=[image] if made else [], tab=tab, values=targets)
            except BaseException:
                if made:
                    replace_whole(image, None, inside=self.desk.folder)
                raise

    def _art_box(self, tile: Tile, field: str, path: str) -> Box | None:
        """The largest box the face draws a picture in once `field` names one (the layout's own account of its
        boxes), or None when it draws none."""
        comp, piece = tile.pieces[0]
        face = piece.front if tile.side == "front" else piece.back
        if not face.drawing.places:
            return None
        try:
            _, ctx = self.desk.cache.sketch(comp, piece, tile.side)
        except DataErrors:
            return None
        places = face.drawing.places(ctx, face.params.model_copy(update={field: path}))
        pictures = [place for place in places.values() if place.get("kind") == "image" and min(place["w"], place["h"]) > 0]
        if not pictures:
            return None
        largest = max(pictures, key=lambda place: place["w"] * place["h"])
        return Box(largest["w"], largest["h"], largest.get("fit", "cover"))

    def _art_file(self, filename: str, suffix: str, data: bytes) -> Path:
        """art/NAME: the name kept but made safe; the same image already in art/ (by any name) is used again,
        and a name another image holds gets -2, -3, …"""
        same = self._same_art(data)
        if same is not None:
            return same
        stem = re.sub(r"[^A-Za-z0-9_-]+", "-", Path(filename.replace("\\", "/")).stem).strip("-")[:60] or "art"
        folder = self.desk.folder / ART_FOLDER
        for number in range(1, 1000):
            path = folder / f"{stem}{'' if number == 1 else f'-{number}'}{suffix}"
            held = self.journal.now(path)  # never read through a link: one in art/ may lead anywhere
            if held is None or held == data:
                return path
        raise Refused(f"{ART_FOLDER}/: too many images named {stem}")

    def _same_art(self, data: bytes) -> Path | None:
        """The image in art/ holding exactly `data` (a real file, never one through a link), or None."""
        folder = self.desk.folder / ART_FOLDER
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError:
            return None
        for entry in entries:
            if entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_size == len(data) \
                    and self.journal.now(folder / entry.name) == data:
                return folder / entry.name
        return None

    def undo(self, tab: str = "") -> dict:
        return self._step(self.journal.undo, "undo", tab)

    def redo(self, tab: str = "") -> dict:
        return self._step(self.journal.redo, "redo", tab)

    def _step(self, step, name: str, tab: str) -> dict:
        """Undo or redo, and what it took back or did again, and whose step that was (this tab's or another's)."""
        with self.lock:
            with self.desk.writing:
                try:
                    done = step()
                except Changed as exc:
                    raise Stale(str(exc)) from None
                if done is None:
                    raise Refused(f"nothing to {name}")
                self._quiet(done.files)
                self.desk.load()
            self.journal.log(self.desk.version, tab, done.values)
            return {"version": self.desk.version, "undone" if name == "undo" else "redone": done.label,
                    "whose": "this tab's" if done.tab == tab else "another tab's"}

    def customise(self, folder: str) -> dict:
        """An overrides folder of the built-in game shown, at `folder`, and the studio showing it."""
        from ..customise import init_folder

        with self.lock:
            if not self.sources.builtin:
                raise Refused("customise: only one of starpnp's own games is customised; this folder is yours")
            if not isinstance(folder, str) or not folder.strip():
                raise Refused("folder: expected the path of a new or empty folder")
            try:  # a NUL, 2,000 levels, ~nosuchuser: each a path that names no folder
                path = Path(folder.strip()).expanduser().resolve()
                path.stat()
            except FileNotFoundError:
                pass  # a new folder: Customise makes it
            except (ValueError, OSError, RuntimeError) as exc:
                reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else one_line(exc)
                raise Refused(f"folder: not a folder this computer can make ({reason[:80]})") from None
            if len(path.parts) > MOST_FOLDER_DEPTH:
                raise Refused(f"folder: {len(path.parts)} folders deep; choose one at most {MOST_FOLDER_DEPTH} deep")
            if path.is_relative_to(self.desk.folder.resolve().parent):
                raise Refused(f"folder: {path} lies inside starpnp's own games; choose a folder of yours")
            try:
                init_folder(self.desk.folder, path, as_overrides=True)
            except (DataError, DataErrors) as exc:
                raise Refused(f"folder: {one_line(exc)}") from None
            self.desk.switch(path)
            self.sources = Sources(path)
            self.journal = Journal(path)
            return {"version": self.desk.version, "folder": str(path), "build": build_line(path)}

    # -- the steps every change takes ------------------------------------------------------------------

    def _tile(self, tile_id: str) -> Tile:
        tile = self.desk.by_id.get(tile_id)
        if tile is None:
            raise NoFace(tile_id)
        return tile

    @staticmethod
    def _target(find):
        try:
            return find()
        except ReadOnly as exc:
            raise Refused(str(exc), readonly=True) from None

    def _written(self, changes: list[tuple[Target, Any]]) -> dict[Path, str]:
        try:
            return self.sources.written(changes)
        except DataError as exc:  # a file the studio cannot change in place (not YAML, a quote left open)
            raise Refused(str(exc)) from None

    def _fresh(self, texts: dict[Path, str], version: int) -> None:
        at = self.desk.digests.get(version)
        if at is None:
            raise Stale(f"version {version}: the page is too far behind the folder; reload it")
        for path in texts:
            now = digest(current(path))
            if now != at.get(path.resolve()) and now != self.journal.ours.get(path.resolve()):
                raise Stale(f"{shown(path, self.desk.folder)} changed on disk since the page's version "
                            f"{version} (saved in an editor?); nothing was written")

    def _commit(self, label: str, texts: dict[Path, str], version: int, made: list[Path] = (), tab: str = "",
                values: list[Target] = ()) -> int:
        data = {path: text.encode("utf-8") for path, text in texts.items()}
        held = {path: self.journal.now(path) for path in texts}  # NotInside: a link on the way
        keys = frozenset(target.key for target in values)
        other = self.journal.changed_since(version, tab, keys)
        if other is not None:
            raise Stale(f"{other} was changed in another tab since this page's version {version}; nothing was "
                        f"written")
        self._fresh(texts, version)
        try:
            with pending(texts):
                game = self.desk.read()
        except (DataErrors, DataError, OSError, ValueError) as exc:
            raise Refused(one_line(exc)) from None
        if not made and all(held[path] == written for path, written in data.items()):
            return self.desk.version  # a value set to what the file holds (a field left again): no step to undo
        with self.desk.writing:  # the follower loads before this, or after it sees these files as written
            step = self.journal.write(label, data, made, tab, keys)
            self._quiet(step.files)
            self.desk.take(game)
            self.journal.log(self.desk.version, tab, keys)
        return self.desk.version

    def _quiet(self, files) -> None:
        """The files as the studio left them: the follower need not load them again."""
        for path in files:
            try:
                info = path.stat()
                self.desk.quiet[path.resolve()] = (info.st_mtime_ns, info.st_size)
            except FileNotFoundError:
                self.desk.quiet[path.resolve()] = None


def placed_from(said: dict[str, tuple[str, bool]]) -> str:
    """`x and y from the builtin layout `card` via extends; w in layouts/deck_card.yaml:9`: keys by where."""
    by_place: dict[tuple[str, bool], list[str]] = {}
    for key, place in said.items():
        by_place.setdefault(place, []).append(key)
    return "; ".join(f"{together(keys)} {'from' if inherited else 'in'} {place}"
                     for (place, inherited), keys in by_place.items())


def together(words: list[str]) -> str:
    """`x, y and w`."""
    return f"{', '.join(words[:-1])} and {words[-1]}" if len(words) > 1 else words[0]


def origins(tile: Tile) -> list:
    """Where each item a face stands for was written (data/origin.py): one for each item, however many player
    colours it is made in."""
    return [origin for origin, _ in items_of(tile)]


def items_of(tile: Tile) -> list[tuple[Any, int]]:
    """Each item a face stands for (where it was written) and how many of the face's cards it makes."""
    found: dict = {}
    for _, piece in tile.pieces:
        origin = piece.front.origin if tile.side == "front" else piece.back.origin
        found.setdefault(origin.item, (origin, piece.count))
    return list(found.values())


def alike(tile: Tile) -> str:
    """`16 Attack and 4 Attack again`: the items a face stands for, as the page names them."""
    return together([f"{piece.count} {piece.name}" for _, piece in tile.pieces])


def face_count(tile: Tile) -> int:
    """The count a person sees on a front: every item it stands for (a back: its first item's)."""
    return tile.count if tile.side == "front" else tile.pieces[0][1].count


def unwritable(text: str) -> str | None:
    """Why `text` cannot be written as a person's text (a lone surrogate, which no UTF-8 file holds), or None."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"not text: a lone surrogate (U+{ord(text[exc.start]):04X}) at character {exc.start + 1}"
    return None


def too_big(size: int | None) -> str:
    """An image over the upload limit, in one line a person acts on."""
    held = f"{size / 1024 / 1024:.1f} MiB; " if size else ""
    return (f"file: {held}a picture is at most {MOST_ART_BYTES // 1024 // 1024} MiB: save it smaller (as a JPEG, "
            f"or scaled to the card's size at 600 dpi) and drop it again")


def too_many_pixels(said: str) -> str:
    """Pillow's decompression-bomb refusal (its warning is taken as one too: art past MAX_IMAGE_PIXELS), with
    the numbers, as one line."""
    from PIL import Image

    found = re.search(r"\((\d+) pixels\)", said)
    held = f"{int(found.group(1)) / 1e6:.0f} million, " if found else ""
    return (f"file: too many pixels: {held}where a picture holds at most {Image.MAX_IMAGE_PIXELS / 1e6:.0f} "
            f"million; scale it down and drop it again")


def build_line(folder: Path) -> str:
    """The command that prints the folder, as a person pastes it into a shell."""
    return f"starpnp build {shlex.quote(str(folder.resolve()))}"


def image_suffix(filename: str, data: bytes) -> str:
    """The file name's suffix an image dropped on a face is saved with, once it is found to be a PNG or
    JPEG (Pillow opens and verifies it) or an SVG (an <svg> root); anything else is refused."""
    if filename.lower().endswith(".svg") or data.lstrip()[:5] in (b"<?xml", b"<svg "):
        from xml.etree import ElementTree

        try:
            root = ElementTree.fromstring(data)
        except ElementTree.ParseError:
            raise Refused("file: not an SVG image (its XML does not read)") from None
        if root.tag.rsplit("}", 1)[-1] != "svg":
            raise Refused("file: not an SVG image")
        return ".svg"
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                found = image.format
                image.verify()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise Refused(too_many_pixels(str(exc))) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise Refused("file: not a PNG, JPEG or SVG image") from None
    if found not in ART_TYPES:
        raise Refused(f"file: a {found} image; art is PNG, JPEG or SVG")
    return ART_TYPES[found]
