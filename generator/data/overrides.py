"""A user's folder that changes one of our games instead of copying it.

`overrides.yaml` names the game it `extends` and only the fields it changes, so the user's set keeps up
with our data. Components are matched by id, items by name (or title, or label); mappings merge, every
other value replaces ours. A component's `add:` appends new items (`like: NAME` copies one), `remove:` leaves
items out by name and `order:` puts the named ones first (in that order). Each change is reported, so the
build says what the overrides did.

    extends: base_game
    game: {name: Base Game (our table)}
    components:
      galaxy-deck:
        front: {color: purple}
        items:
          Attack: {count: 24, art: art/attack.png}
        add:
          - {like: Scout, name: Scout 2, title: Far Scout}
        remove: [Research]
        order: [Trade]
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .inside import within
from .model import EDITION
from .yamlio import DataError, DataErrors, LineDict, LineList, dotted, line_of, load_yaml
from ...resources import components_dir

OVERRIDES_FILE = "overrides.yaml"
OUTSIDE = "a game outside this folder"
_bases_outside = False  # whether a game outside the folder may be extended: the command line's choice only


def allow_bases_outside() -> None:
    """For the command line, whose user names the folder and sees what it reads: an overrides folder there may
    extend a game outside it (`extends: ../our-game`), told in one warning line. A server never calls this, so
    a folder it serves (`serve --game-folder`/`--print-folder`, the studio) reads nothing outside itself and
    our games: a stranger's `extends: /home/someone/secret-game` is refused."""
    global _bases_outside
    _bases_outside = True


@dataclass
class Overridden:
    base: Path  # the game folder being extended
    files: dict[Path, Any]  # base file -> its raw data with the overrides applied
    changes: list[str]  # "components.deck.items.Attack.count: 20 -> 24"
    blame: dict[tuple[str, tuple], str]  # (base file, a path in it) -> "overrides.yaml:line: its dotted path"
    warnings: list[str]  # the base lying outside the folder (the command line only builds from it)
    folder: Path  # the overrides folder
    data: LineDict  # its overrides.yaml as loaded
    set_at: dict[tuple[str, tuple], tuple[int, tuple]]  # (base file, path) -> (line, path) of overrides.yaml
    names: dict[tuple[str, tuple], str]  # (base file, an item's path) -> the name overrides.yaml changes it by

    def set_in(self, file: str, component: tuple) -> dict[tuple, tuple[int, tuple]]:
        """What overrides.yaml set in one component of a base file: its path there -> overrides.yaml's line and
        path (the loader records it as where those values came from)."""
        return {path: place for (base, path), place in self.set_at.items()
                if base == file and path[:len(component)] == component}

    def blamed(self, error: str) -> str:
        """An error about a value the user's overrides.yaml put there, pointed at that line of theirs."""
        match = ERROR_LINE.match(error)
        if not match:
            return error
        file, path, rest = match["file"], match["path"], match["rest"]
        blamed = ((dotted(base_path), where) for (base_file, base_path), where in self.blame.items() if base_file == file)
        found = [(base_path, where) for base_path, where in blamed
                 if path == base_path or path.startswith((base_path + ".", base_path + "["))]
        if not found:
            return error
        base_path, where = max(found, key=lambda pair: len(pair[0]))  # the closest: a key changed in an item added
        return f"{where}{path[len(base_path):]}: {rest}"


ERROR_LINE = re.compile(r"^(?P<file>[^:]+):\d+: (?P<path>[^:\s]+): (?P<rest>.*)$", re.S)


def folder_id(folder: Path) -> str:
    """The id a user's set builds under (output/<id>/), taken from its folder so it never overwrites ours."""
    return re.sub(r"[^a-z0-9_-]+", "-", folder.resolve().name.lower()).strip("-") or "my-game"


def item_key(item: Any) -> str | None:
    if isinstance(item, dict):
        for key in ("name", "title", "label"):
            if isinstance(item.get(key), str):
                return item[key]
    return None


def short(value: Any) -> str:
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


class _Merger:
    def __init__(self, source: Path, raw: Any):
        self.source, self.raw = source, raw
        self.changes: list[str] = []
        self.errors: list[str] = []
        self.blame: dict[tuple[str, tuple], str] = {}
        self.set_at: dict[tuple[str, tuple], tuple[int, tuple]] = {}
        self.names: dict[tuple[str, tuple], str] = {}

    def error(self, loc: tuple, message: str) -> None:
        self.errors.append(f"{self.source}:{line_of(self.raw, loc)}: {dotted(loc)}: {message}")

    def merge(self, target: dict, changes: Any, loc: tuple, label: str, base: tuple[str, tuple]) -> None:
        """Apply `changes` (a mapping) onto `target` in place, recording each replaced value and, for error
        messages, where in the user's file it came from (`base`: the base file and the target's location)."""
        if not isinstance(changes, dict):
            self.error(loc, "expected a mapping of fields to change")
            return
        file, at = base
        for key, new in changes.items():
            old = target.get(key)
            if isinstance(old, dict) and isinstance(new, dict) and set(old) != {EDITION}:  # an owner's value
                # replaces our edition's whole, it is not merged into it
                self.merge(old, new, loc + (key,), f"{label}.{key}", (file, at + (key,)))
            elif old != new:
                was = short(old) if key in target else "(unset)"
                target[key] = new
                self.changes.append(f"{label}.{key}: {was} -> {short(new)}")
                line = line_of(self.raw, loc + (key,))
                self.blame[(file, at + (key,))] = f"{self.source}:{line}: {dotted(loc + (key,))}"
                self.set_at[(file, at + (key,))] = (line, loc + (key,))

    def component(self, comp: dict, changes: Any, loc: tuple, base: tuple[str, tuple]) -> None:
        if changes is None:  # a component's line uncommented with nothing under it yet: no change
            return
        if not isinstance(changes, dict):
            self.error(loc, "expected a mapping of fields to change")
            return
        label = f"components.{comp.get('id')}"
        changes = dict(changes)
        items = changes.pop("items", None)
        listed = {key: changes.pop(key) for key in LIST_KEYS if key in changes}
        self.merge(comp, changes, loc, label, base)
        if "add" in listed:
            self.add(comp, listed["add"], loc + ("add",), label, base)
        if items is not None:
            self.items(comp, items, loc, label, base)
        if "remove" in listed or "order" in listed:
            self.arrange(comp, listed.get("remove"), listed.get("order"), loc, label, base)

    def items(self, comp: dict, items: Any, loc: tuple, label: str, base: tuple[str, tuple]) -> None:
        if not isinstance(items, dict):
            self.error(loc + ("items",), "expected item names mapped to the fields to change")
            return
        by_name = {item_key(item): (index, item) for index, item in enumerate(comp.get("items", []))}
        for name, item_changes in items.items():
            if name not in by_name:
                known = ", ".join(sorted(k for k in by_name if k)) or "none"
                self.error(loc + ("items", name), f"no item named {name!r}; items: {known}")
                continue
            index, item = by_name[name]
            self.names[(base[0], base[1] + ("items", index))] = name
            self.merge(item, item_changes, loc + ("items", name), f"{label}.items.{name}",
                       (base[0], base[1] + ("items", index)))

    def add(self, comp: dict, added: Any, loc: tuple, label: str, base: tuple[str, tuple]) -> None:
        """New items after ours: each as a list's item would be written, or `like: NAME` for a copy of that
        item with the fields given changed."""
        if not isinstance(added, list) or not all(isinstance(item, dict) for item in added):
            self.error(loc, "expected a list of new items, each a mapping of its fields (like: NAME copies one)")
            return
        items = comp.setdefault("items", [])
        for number, item in enumerate(added):
            new = {key: value for key, value in item.items() if key != "like"}
            if "like" in item:
                found = [old for old in items if item_key(old) == item["like"]]
                if not found:
                    known = ", ".join(sorted(str(k) for k in map(item_key, items) if k)) or "none"
                    self.error(loc + (number, "like"), f"no item named {item['like']!r}; items: {known}")
                    continue
                new = {**plain(found[0]), **new}
            _append(items, new, line_of(self.raw, loc + (number,)))
            self.written_at(item, loc + (number,), (base[0], base[1] + ("items", len(items) - 1)))
            was = f" (a copy of {item['like']})" if "like" in item else ""
            self.changes.append(f"{label}.items: + {short(item_key(new) or 'an item')}{was}")
            self.blame[(base[0], base[1] + ("items", len(items) - 1))] = (
                f"{self.source}:{line_of(self.raw, loc + (number,))}: {dotted(loc + (number,))}")

    def written_at(self, item: dict, loc: tuple, base: tuple[str, tuple]) -> None:
        """A card `add:` brings is written there, its own place: the item's path is recorded at its entry
        (where a change of a value it has not written yet goes) and each value it gives at its key."""
        self.set_at[base] = (line_of(self.raw, loc), loc)
        for key, value in item.items():
            if key == "like":
                continue
            if isinstance(value, dict):
                self.written_at(value, loc + (key,), (base[0], base[1] + (key,)))
            else:
                self.set_at[(base[0], base[1] + (key,))] = (line_of(self.raw, loc + (key,)), loc + (key,))

    def arrange(self, comp: dict, remove: Any, order: Any, loc: tuple, label: str, base: tuple[str, tuple]) -> None:
        """Items left out by name (`remove:`), and the items named in `order:` first, in that order (the
        others after them as they were); the lines errors are blamed on follow each item to its new place."""
        items = comp.get("items", [])
        names = [item_key(item) for item in items]
        for key, value in (("remove", remove), ("order", order)):
            if value is None:
                continue
            if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
                self.error(loc + (key,), "expected a list of item names")
                return
            unknown = [name for name in value if name not in names]
            if unknown:
                known = ", ".join(sorted(str(n) for n in names if n)) or "none"
                self.error(loc + (key, value.index(unknown[0])), f"no item named {unknown[0]!r}; items: {known}")
                return
        kept = [index for index, name in enumerate(names) if name not in (remove or ())]
        if not kept:
            self.error(loc + ("remove",), "every item would be removed; a component keeps at least one")
            return
        placed = {name: rank for rank, name in enumerate(order or ())}
        kept.sort(key=lambda index: placed.get(names[index], len(placed)))
        for name in remove or ():
            self.changes.append(f"{label}.items: - {short(name)}")
        if order:
            self.changes.append(f"{label}.items: order {', '.join(short(n) for n in order)}, then the others")
        lines = getattr(items, "item_lines", None)
        arranged = LineList(items[index] for index in kept)
        arranged.line = getattr(items, "line", 0)
        arranged.item_lines = [lines[index] if lines else 0 for index in kept]
        comp["items"] = arranged
        moved = {old: new for new, old in enumerate(kept)}
        self.blame = moved_items(self.blame, base, moved)
        self.set_at = moved_items(self.set_at, base, moved)
        self.names = moved_items(self.names, base, moved)


def moved_items(kept: dict, base: tuple[str, tuple], moved: dict[int, int]) -> dict:
    """`kept` (keyed by a base file and a path in it) with each path into an item of the component at `base`
    following the item to its new place, and an item left out gone: what overrides.yaml set or named stays
    the item's it was written for."""
    file, at = base
    items = at + ("items",)
    out = {}
    for (where, path), value in kept.items():
        if where != file or path[:len(items)] != items or len(path) == len(items):
            out[(where, path)] = value
        elif path[len(items)] in moved:
            out[(where, items + (moved[path[len(items)]],) + path[len(items) + 1:])] = value
    return out


LIST_KEYS = ("add", "remove", "order")  # a component's keys in overrides.yaml that change its list of items


def plain(value: Any) -> Any:
    """A copy of loaded YAML without its lines: an item copied by `like:` is no item of the base file's lines."""
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


def _append(items: list, item: dict, line: int) -> None:
    items.append(item)
    if isinstance(items, LineList):
        items.item_lines.append(line)


def _extends(folder: Path, find_game) -> tuple[Path, LineDict, Path, list[str]]:
    """(overrides.yaml, its data, the game folder it extends, a warning when that lies outside the folder and
    the command line allows it), checked."""
    source = folder / OVERRIDES_FILE
    raw = load_yaml(source)
    if not isinstance(raw, LineDict) or "extends" not in raw:
        raise DataErrors([f"{source}:1: extends: required field is missing (the game this folder changes)"])
    unknown = sorted(set(raw) - {"extends", "game", "components"})
    if unknown:
        raise DataErrors([f"{source}:{line_of(raw, (unknown[0],))}: {unknown[0]}: unknown field; "
                          f"known: extends, game, components"])
    extends = str(raw["extends"])
    try:  # a path is relative to the user's folder; otherwise it names one of our games
        base = folder / extends if (folder / extends / "game.yaml").is_file() else find_game(extends)
    except OSError as exc:  # a name too long for the file system, say
        raise DataErrors([f"{source}:{line_of(raw, ('extends',))}: extends: {short(extends)}: not a game "
                          f"or folder ({exc.strerror})"]) from None
    except DataError as exc:
        raise DataErrors([f"{source}:{line_of(raw, ('extends',))}: extends: {exc}"]) from None
    if (base / OVERRIDES_FILE).is_file() and not (base / "game.yaml").is_file():
        raise DataErrors([f"{source}:{line_of(raw, ('extends',))}: extends: {base} extends another game; "
                          f"extend the original instead"])
    if within(base, (folder, components_dir())):
        return source, raw, base, []
    where = f"{source}:{line_of(raw, ('extends',))}: extends: {short(extends)}"
    if not _bases_outside:
        raise DataErrors([f"{where}: {OUTSIDE}; a server reads nothing outside the folders it is given"])
    return source, raw, base, [f"{where}: {OUTSIDE}, read because the command line named this folder (a server "
                               f"refuses it)"]


def source_folders(folder: Path, find_game, strict: bool = False) -> list[Path]:
    """The folders a game's pieces come from: the folder, and for overrides the game it extends (what a
    build watches and what the /print cache hashes). An unreadable overrides file (or one extending a game
    outside the folder where that is refused) counts as no base, or with `strict` raises DataErrors."""
    if not (folder / OVERRIDES_FILE).is_file():
        return [folder]
    try:
        base = _extends(folder, find_game)[2]
    except (DataError, DataErrors):
        if strict:
            raise
        return [folder]
    return [folder] + ([base] if base.resolve() != folder.resolve() else [])


def apply_overrides(folder: Path, find_game) -> Overridden:
    """Read `folder/overrides.yaml` and return the extended game's data with the changes made."""
    source, raw, base, warnings = _extends(folder, find_game)
    files = {path: load_yaml(path) for path in sorted(base.glob("*.yaml"))}
    merger = _Merger(source, raw)
    game = files[base / "game.yaml"]
    if isinstance(game, dict):  # the user's set builds into its own output folder, never over ours
        game["id"] = folder_id(folder)
    if "game" in raw:
        merger.merge(game, raw["game"], ("game",), "game", (str(base / "game.yaml"), ()))
    components = {comp.get("id"): (comp, (str(path), ("components", index))) for path, data in files.items()
                  if isinstance(data, dict)
                  for index, comp in enumerate(data.get("components", [])) if isinstance(comp, dict)}
    wanted = raw.get("components") or {}
    if not isinstance(wanted, dict):
        merger.error(("components",), "expected component ids mapped to the fields to change")
        wanted = {}
    for cid, changes in wanted.items():
        if cid not in components:
            merger.error(("components", cid), f"no component {cid!r} in {base.name}; "
                                              f"components: {', '.join(sorted(map(str, components)))}")
            continue
        comp, where = components[cid]
        merger.component(comp, changes, ("components", cid), where)
    if merger.errors:
        raise DataErrors(merger.errors)
    return Overridden(base, files, merger.changes, merger.blame, warnings, folder, raw, merger.set_at,
                      merger.names)
