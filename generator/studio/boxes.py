"""Layout mode's own changes to a face's layout, beyond a move: a box added (a text, a picture or an icon that
reads a field or shows a fixed value), a box the game's layout added deleted, a text box's font, a picture's
fit and focus. Each is one step of the studio's journal, written as a person would write it: the game's
layout file (`layouts/NAME.yaml`, made to extend ours when the game has none) gains or loses only the lines
of that box, in the file's own style; a new field gets its column in the items' CSV (the header only) or its
key in the item's YAML, where the person gives this card a value.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from ..data.errors import DataError
from ..data.yamlio import load_yaml
from ..look.fonts import FONT_FILES, GAME_FACES
from ..look.gamefonts import game_fonts
from ..look.layouts import LAYOUTS_FOLDER, layouts_for
from ..look.layouts.layoutfile import FACE_NAMES, FOCUS_SUFFIX, ICON_NAME
from ..look.loader import icon_folders, layout_folders
from ..data.origin import Origin
from .edits import Target, kind_of, shown, typed
from .writeback import Refused, WriteBack, placed_from
from . import yamltext

KINDS = ("text", "image", "icon")  # what a box added from the page draws
NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")  # a new box's or field's name, as our layouts name theirs
NOT_FIELD_NAMES = {*FACE_NAMES, "layout", "count", "name", "item", "index"}
FIELD_TYPES = {"text": {"type": "text", "default": ""}, "image": {"type": "file"}, "icon": {"type": "icon"}}
FITS = ("cover", "contain")


class LayoutBoxes:
    """The layout of the face a page shows, changed box by box through the write-back's one journal."""

    def __init__(self, writeback: WriteBack):
        self.wb = writeback

    @property
    def folder(self) -> Path:
        return self.wb.desk.folder

    # -- what the page is told ------------------------------------------------------------------------

    def info(self, tile_id: str) -> dict:
        """The face's boxes as layout mode offers them (kind; whether the game's own layout added it, so it
        may be deleted; a text's font, a picture's fit and focus), and the fonts a text box may take."""
        _, piece, side, layout = self._face(tile_id)
        face = piece.front if side == "front" else piece.back
        merged = self._merged(layout)
        own = self._own_boxes(layout)
        record = self.wb.box_origins(layout)
        boxes = {}
        for name, box in merged.items():
            if not isinstance(box, dict):
                continue
            boxes[name] = {"kind": box.get("kind"), "own": name in own, "font": box.get("font"),
                           "fit": box.get("fit"), "focus": box.get("focus"),
                           "card_focus": getattr(face.params, name + FOCUS_SUFFIX, None),
                           "from": placed_from(self.wb.box_sources(face, name, record=record)) or None}
        fields = sorted(type(face.params).model_fields)
        return {"layout": layout, "file": f"{LAYOUTS_FOLDER}/{layout}.yaml", "boxes": boxes, "fonts": self.fonts(),
                "fields": [name for name in fields if name not in NOT_FIELD_NAMES]}

    def fonts(self) -> list[str]:
        """Ours, then the game's own (fonts/*.ttf) by family and style, as a layout's `font:` names them."""
        found = game_fonts(icon_folders(self.folder))
        theirs = sorted({f"{GAME_FACES[name].family} {GAME_FACES[name].style}" for name in found.values()})
        return [*FONT_FILES, *theirs]

    # -- changes ---------------------------------------------------------------------------------------

    def add(self, tile_id: str, asked: dict, version: int, tab: str = "") -> int:
        """A new box on the face's layout: `kind` (text, image, icon), `name`, x/y/w/h in mm, and what it
        shows: `field` (a field of the face, or a new one declared in the layout file) with this card's
        `value` when given, or a fixed `value`."""
        with self.wb.lock:
            comp, piece, side, layout = self._face(tile_id)
            kind, name = asked.get("kind"), asked.get("name")
            if kind not in KINDS:
                raise Refused(f"kind: expected one of {', '.join(KINDS)}")
            if not isinstance(name, str) or not NAME.fullmatch(name):
                raise Refused("name: a box's name is lowercase letters, digits and _, a letter first (title_2)")
            if name in self._merged(layout):
                raise Refused(f"name: the layout {layout} already has a box {name}; choose another name")
            place = {key: number(asked.get(key), key) for key in ("x", "y", "w", "h")}
            width, height = comp.spec.size
            file = self._layout_file(layout)
            self.wb._on_face(shown(file, self.folder), name, place, width, height)
            face = piece.front if side == "front" else piece.back
            params, origin = face.params, face.origin
            field, value = asked.get("field"), asked.get("value")
            if value is not None and not isinstance(value, (str, int, float)) or isinstance(value, bool):
                raise Refused("value: expected text or a number")
            value = None if value is None or value == "" else str(value)
            changes: list[tuple[Target, Any]] = []
            box: dict[str, Any] = {"kind": kind}
            if field not in (None, ""):
                if not isinstance(field, str) or not NAME.fullmatch(field) or field in NOT_FIELD_NAMES:
                    raise Refused(f"field: a field's name is lowercase letters, digits and _, a letter first, and "
                                  f"none of {', '.join(sorted(NOT_FIELD_NAMES))}")
                key, reads = {"text": ("text", f"{{{field}}}"), "image": ("src", field), "icon": ("icon", field)}[kind]
                box.update({"when": field, key: reads})  # drawn where this card gives the field a value
                if field not in type(params).model_fields:
                    changes += [(self._key(file, ("fields", field, key)), spec)
                                for key, spec in FIELD_TYPES[kind].items()]
                    changes += self._new_column(origin, field, value)
                elif value is not None:  # a field the layout has: this card's value, typed as the field is
                    changes += self._value(origin, field, typed(value, kind_of(type(params).model_fields[field])[0]))
            elif value is None:
                raise Refused("value: a box shows a field or a fixed value; give one")
            else:
                box.update(fixed(kind, value))
            box.update(place)
            changes[:0] = [(self._key(file, ("boxes", name, key)), item) for key, item in box.items()]
            texts = self.wb._written(changes)
            what = f"field {field}" if field else repr(value)
            return self.wb._commit(f"new {kind} box {name} ({what}) on {layout} ({shown(file, self.folder)})", texts,
                                   version, tab=tab, values=[target for target, _ in changes])

    def delete(self, tile_id: str, box: str, version: int, tab: str = "") -> int:
        """The box taken out of the game's layout file, its lines and nothing else; a box of ours (or of the
        game this folder customises) is refused in one line."""
        with self.wb.lock:
            *_, layout = self._face(tile_id)
            if not isinstance(box, str) or box not in self._merged(layout):
                raise Refused(f"box: the layout {layout} has no box {str(box)[:40]!r}")
            if box not in self._own_boxes(layout):
                raise Refused(f"box: {box} is a box of the layout {layout} as {self._whose()}, not one this game's "
                              f"layout file added, so it is not deleted here", readonly=True)
            file = self._layout_file(layout)
            text = self.wb.sources.text(file)
            changed = without_key(text, ("boxes", box), shown(file, self.folder))
            target = Target(file, 1, ("boxes", box))
            return self.wb._commit(f"box {box} deleted from {layout} ({shown(file, self.folder)})", {file: changed},
                                   version, tab=tab, values=[target])

    def style(self, tile_id: str, box: str, asked: dict, version: int, tab: str = "", card: bool = False) -> int:
        """A box's `font` (a text), or `fit` and `focus` (a picture), written where its x, y, w and h are; with
        `card`, a picture's focus for this card alone (its item's BOX_focus, over the box's)."""
        if card:
            return self._card_focus(tile_id, box, asked, version, tab)
        with self.wb.lock:
            comp, piece, side, layout = self._face(tile_id)
            drawn = (self._merged(layout).get(box) or {}) if isinstance(box, str) else {}
            kind = drawn.get("kind")
            if kind is None:
                raise Refused(f"box: the layout {layout} has no box {str(box)[:40]!r}")
            wanted: dict[str, Any] = {}
            for key, value in asked.items():
                if key == "font" and kind in ("text", "badge"):
                    if value not in self.fonts():
                        raise Refused(f"font: expected one of {', '.join(self.fonts())}")
                    wanted[key] = value
                elif key == "fit" and kind == "image":
                    if value not in FITS:
                        raise Refused("fit: expected cover or contain")
                    wanted[key] = value
                elif key == "focus" and kind == "image":
                    wanted[key] = fractions(value)
                else:
                    raise Refused(f"{key}: a {kind} box's style here is "
                                  f"{'font' if kind in ('text', 'badge') else 'fit and focus' if kind == 'image' else 'not changed'}")
            if not wanted:
                raise Refused("expected font, fit or focus")
            origin = (piece.front if side == "front" else piece.back).origin
            first = self.wb._target(lambda: self.wb.sources.layout_targets(origin, layout, box))[0]
            changes = []
            for key, value in wanted.items():
                target = self._key(first.file, first.path[:-1] + (key,))
                held = drawn.get("fit")  # as the layouts write it, ours included
                if key == "fit" and isinstance(held, str) and held not in FITS:
                    raise Refused(f"fit: the box's fit follows {held}; change {held} in the face's fields")
                written = None if target.new else yamltext.find(self.wb.sources.tree(target.file), target.path)
                if key == "focus" and isinstance(written, yaml.SequenceNode) and len(written.value) == 2:
                    changes += [(self._key(target.file, target.path + (i,)), n) for i, n in enumerate(value)]
                else:  # each number of a focus written as [x, y] is changed in place
                    changes.append((target, value))
            texts = self.wb._written(changes)
            said = ", ".join(f"{key} {value}" for key, value in wanted.items())
            return self.wb._commit(f"{box} box of {layout}: {said} ({shown(first.file, self.folder)})", texts,
                                   version, tab=tab, values=[target for target, _ in changes])

    def _card_focus(self, tile_id: str, box: str, asked: dict, version: int, tab: str) -> int:
        """A picture's focus for the face's card alone: its item's `BOX_focus` (each item of a face standing
        for several alike), which the layout draws over the box's own focus."""
        with self.wb.lock:
            _, piece, _, layout = self._face(tile_id)
            if not isinstance(box, str) or (self._merged(layout).get(box) or {}).get("kind") != "image":
                raise Refused(f"box: the layout {layout} has no picture box {str(box)[:40]!r}")
            if set(asked) != {"focus"}:
                raise Refused("set: a card's own style is its picture's focus alone ({focus: [0.5, 0.3]})")
            focus = fractions(asked["focus"])
            tile = self.wb._tile(tile_id)
            changes = [(target, focus) for target in self.wb._target(lambda: self.wb.targets(tile, box + FOCUS_SUFFIX))]
            texts = self.wb._written(changes)
            return self.wb._commit(f"{box} focus of {piece.name} alone: {focus[0]:g}, {focus[1]:g} "
                                   f"({shown(changes[0][0].file, self.folder)})", texts, version, tab=tab,
                                   values=[target for target, _ in changes])

    # -- where -----------------------------------------------------------------------------------------

    def _face(self, tile_id: str):
        tile = self.wb._tile(tile_id)
        if self.wb.sources.builtin:
            raise Refused(self.wb.folder_info()["why"], readonly=True)
        comp, piece = tile.pieces[0]
        face = piece.front if tile.side == "front" else piece.back
        return comp, piece, tile.side, face.params.layout

    def _merged(self, layout: str) -> dict:
        """The layout's boxes as drawn: every file it extends merged in."""
        return layouts_for(layout_folders(self.folder)).written(layout).get("boxes") or {}

    def _whose(self) -> str:
        return "the game this folder customises writes it" if self.wb.sources.overrides else "starpnp ships it"

    def _own_boxes(self, layout: str) -> set[str]:
        """The boxes this folder's own layout file adds (written there with a kind, and not a box of the
        layouts it extends)."""
        file = self._layout_file(layout)
        try:
            raw = load_yaml(file, self.folder) if file.is_file() else {}
        except DataError:
            return set()
        written = raw.get("boxes") if isinstance(raw, dict) else None
        if not isinstance(written, dict):
            return set()
        below = layouts_for(icon_folders(self.folder)[1:])
        theirs = set(below.written(layout).get("boxes") or {}) if layout in below else set()
        return {name for name, box in written.items() if isinstance(box, dict) and "kind" in box} - theirs

    def _layout_file(self, layout: str) -> Path:
        return self.folder / LAYOUTS_FOLDER / f"{layout}.yaml"

    def _key(self, file: Path, path: tuple) -> Target:
        return self.wb.sources._key_target(file, path)

    def _value(self, origin: Origin, field: str, value: Any) -> list[tuple[Target, Any]]:
        """This card's value of a field the layout has: its cell, or its column when the CSV has none yet."""
        table = origin.table
        if not self.wb.sources.overrides and table is not None and table.kind == "csv" \
                and self._column(origin, field) not in table.header:
            return self._new_column(origin, field, value)
        return [(self.wb._target(lambda: self.wb.sources.target(origin, field)), value)]

    @staticmethod
    def _column(origin: Origin, field: str) -> str:
        """The column a field of the face is read from (`back.title` on a back; `columns:` may map it)."""
        return origin.table.column(".".join(origin.own(field)))

    def _new_column(self, origin: Origin, field: str, value: Any) -> list[tuple[Target, Any]]:
        """A new field's place where the items are: a CSV gains the column in its header (and this row its
        cell when given a value); a YAML item, or an overrides file, its key when given a value."""
        table = origin.table
        if table is None or self.wb.sources.overrides:
            return [] if value is None else [(self.wb._target(lambda: self.wb.sources.target(origin, field)), value)]
        column = self._column(origin, field)
        if table.kind != "csv":  # a workbook's sheet or a published sheet, which the studio does not write
            if value is None:
                return []
            elsewhere = f"the sheet published at {table.label[:60]}" if table.kind == "published" else \
                f"{shown(Path(table.file), self.folder)}, sheet {table.sheet}"
            raise Refused(f"value: {elsewhere}: add a column {column} there and give this card its value",
                          readonly=True)
        file = Path(table.file)
        if column in table.header:
            raise Refused(f"field: {shown(file, self.folder)} already has a column {column}, which the "
                          f"layout does not declare; declare it in {LAYOUTS_FOLDER}/ or name another field")
        index = len(table.header)
        header = Target(file, header_line(self.wb.sources.text(file)), column=column, index=index,
                        delimiter=table.delimiter)
        changes: list[tuple[Target, Any]] = [(header, column)]
        if value is not None:
            changes.append((Target(file, origin.item.line, column=column, index=index, delimiter=table.delimiter),
                            value))
        return changes


def fractions(value: Any) -> list[float]:
    """A picture's focus as sent: two fractions from 0 to 1, across and down, to 0.01."""
    if not (isinstance(value, list) and len(value) == 2 and all(type(n) in (int, float) and 0 <= n <= 1 for n in value)):
        raise Refused("focus: expected two fractions from 0 to 1, across and down ([0.5, 0.3])")
    return [round(float(n), 2) for n in value]


def number(value: Any, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not abs(value) < 10_000:
        raise Refused(f"{key}: expected a number of mm")
    given = round(float(value), 2)
    return int(given) if given.is_integer() else given


def fixed(kind: str, value: str) -> dict:
    """A box's keys for a value that is the same on every face: words, a picture's file or an icon's name."""
    if kind == "text":
        if "{" in value or "}" in value:
            raise Refused("value: a fixed text may not hold { or }, which name a field; choose a field instead")
        return {"text": value}
    if kind == "icon":
        if not ICON_NAME.fullmatch(value):
            raise Refused("value: an icon's name is letters, digits, _ and -")
        return {"icon": value}
    if any(c in value for c in "'\\\n"):
        raise Refused("value: a picture's file name may not hold ', \\ or a line break")
    return {"src": f"'{value}'"}  # an expression: the file's name as a quoted string


def header_line(text: str) -> int:
    """The line a CSV's header begins on (its first line that is not blank)."""
    for number_, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        if line.strip():
            return number_
    return 1


def without_key(text: str, path: tuple, where: str) -> str:
    """`text` with the key at `path` (its last part a key of a mapping) taken out: its lines in a block
    mapping (its comments on them included), or `, key: value` in a flow mapping; read back, the file must
    hold what it did less that key."""
    root = yamltext.compose(text, where)
    parent = yamltext.find(root, path[:-1])
    if not isinstance(parent, yaml.MappingNode):
        raise Refused(f"{where}: {'.'.join(map(str, path))}: not found")
    entries = [(k, v) for k, v in parent.value if isinstance(k, yaml.ScalarNode) and k.value == path[-1]]
    if not entries:
        raise Refused(f"{where}: {'.'.join(map(str, path))}: not found")
    key, value = entries[0]
    at = parent.value.index(entries[0])
    if parent.flow_style:
        if at > 0:
            start, end = parent.value[at - 1][1].end_mark.index, value.end_mark.index
        elif len(parent.value) > 1:
            start, end = key.start_mark.index, parent.value[1][0].start_mark.index
        else:
            start, end = key.start_mark.index, value.end_mark.index
    else:
        start = text.rfind("\n", 0, key.start_mark.index) + 1
        end = yamltext._line_end(text, yamltext._last_scalar(value).end_mark.index)
    changed = text[:start] + text[end:]
    before, after = yaml.load(text, Loader=yaml.CSafeLoader), yaml.load(changed, Loader=yaml.CSafeLoader)
    held = before
    for part in path[:-1]:
        held = held[part]
    del held[path[-1]]
    if before != emptied(after, path[:-1]):
        raise Refused(f"{where}: {'.'.join(map(str, path))}: the studio cannot take this out without changing "
                      f"more of the file; delete it in an editor")
    return changed


def emptied(data: Any, path: tuple) -> Any:
    """`data` with the mapping at `path` read as {} where it is now null (`boxes:` left holding nothing)."""
    holder = data
    for part in path[:-1]:
        holder = holder.get(part) if isinstance(holder, dict) else None
    if isinstance(holder, dict) and path and holder.get(path[-1], {}) is None:
        holder[path[-1]] = {}
    return data
