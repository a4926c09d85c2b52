"""`starpnp init` and `starpnp new`: a user's own copy (or overrides) of one of our games, or a new game of
their own from the scaffold folder, ready to edit."""
from __future__ import annotations

import re
import shutil
import string
from pathlib import Path
from typing import Any

import yaml
from pydantic_core import to_jsonable_python

from .data.inside import replace_whole
from .data.overrides import OVERRIDES_FILE, folder_id, item_key
from .data.yamlio import DataError
from .look.render import slug
from ..resources import components_dir

COPY_README = """# {name}, your version

These files are a copy of starpnp's data for {name}. Change counts, names, colours, texts and art here,
then build:

    starpnp check {folder}
    starpnp build {folder}

- `game.yaml`: the game's name, players and colours; every other `*.yaml` file lists components.
- Art: put an image (PNG, JPEG or SVG) next to these files and name it on a card, e.g. `art: art/attack.png`.
  A missing image prints a placeholder and a warning; `--strict` turns warnings into errors.
- Fields marked `unspecified` are not given by the rulebook: write in what your copy of the game says.
- `starpnp schema layouts` lists every field a card, chit or board face accepts.
"""

OVERRIDES_TEMPLATE = """# Changes to starpnp's {name}: only what you write here differs from our data, and
# `starpnp build {folder}` lists every change it made. Components are named by id, items by name.
# Remove the "#" in front of a line (and of the lines above it that it sits under) to make it count.
extends: {game}
#game: {{name: {name} (our table)}}
components:
#  {example_component}:
#    front: {{color: purple}}
#    items:
#      {example_item}: {{count: 3}}
"""

EDITION_HEADER = """
# Our edition: values the rulebook leaves open, designed by us (docs/editions/{game}.md). To print your own
# copy's values instead, remove the "#" of an item's line and of the lines it sits under, and write yours
# over ours (a component already uncommented above keeps its one line: add the item under it).
"""


def edition_values(game) -> dict[str, dict[str, dict[str, Any]]]:
    """{component id: {what: {field: our value}}} for every field printing our edition's value, in the shape
    an overrides file writes it: `what` is "items.<name>" for a listed item, or "front"/"back" for a
    component that is one piece."""
    resolved = {component.spec.id: component for component in game.components}
    named = {cid: {item_key(i.model_dump()) for i in component.spec.items} for cid, component in resolved.items()}
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for entry in game.edition:
        component, item, path = entry.split(": ", 2)
        side, _, field_path = path.partition(".")
        field = re.split(r"[.\[]", field_path, maxsplit=1)[0]
        piece = next(p for p in resolved[component].pieces if p.name == item)
        value = to_jsonable_python(getattr(getattr(piece, side).params, field))
        what = f"items.{item}" if item in named[component] else side  # an unnamed item: the component's own fields
        found.setdefault(component, {}).setdefault(what, {})[field] = value
    return found


def edition_block(game, game_id: str) -> str:
    values = edition_values(game)
    if not values:
        return ""
    flow = dict(default_flow_style=True, width=10**6, allow_unicode=True, sort_keys=False)
    lines = [EDITION_HEADER.format(game=game_id).rstrip("\n")]
    for component, parts in values.items():
        lines.append(f"#  {component}:")
        items = {what.removeprefix("items."): fields for what, fields in parts.items() if what.startswith("items.")}
        lines += [f"#    {side}: " + yaml.safe_dump(fields, **flow).strip() for side, fields in parts.items()
                  if not side.startswith("items.")]
        if items:
            lines.append("#    items:")
            lines += [f"#      {item}: " + yaml.safe_dump(fields, **flow).strip() for item, fields in items.items()]
    return "\n".join(lines) + "\n"


def init_folder(game_folder: Path, folder: Path, as_overrides: bool) -> list[Path]:
    from .look.loader import load_game  # the game must load before we copy it

    game = load_game(game_folder)
    if folder.exists() and any(folder.iterdir()):
        raise DataError(f"{folder}: folder exists and is not empty; choose a new folder")
    folder.mkdir(parents=True, exist_ok=True)
    name = game.info.name
    if as_overrides:
        # the example names an item the overrides can find by name: the first component with one
        first = next((c for c in game.components if any(item_key(i.model_dump()) for i in c.spec.items)),
                     game.components[0])
        example_item = next((item_key(i.model_dump()) for i in first.spec.items if item_key(i.model_dump())), None)
        path = folder / OVERRIDES_FILE
        ours = game_folder.resolve().parent == components_dir().resolve()
        extends = game_folder.name if ours else str(game_folder.resolve())
        text = OVERRIDES_TEMPLATE.format(name=name, folder=folder, game=extends, example_component=first.spec.id,
                                         example_item=example_item) + edition_block(game, game_folder.name)
        replace_whole(path, text.encode("utf-8"), 0o644, inside=folder)  # never through a link put there meanwhile
        return [path]
    written = []
    for source in sorted(game_folder.iterdir()):
        target = folder / source.name
        if source.is_dir():
            shutil.copytree(source, target)
        else:
            shutil.copy2(source, target)
        written.append(target)
    game_file = folder / "game.yaml"
    game_file.write_text(re.sub(r"(?m)^id: .*$", f"id: {folder_id(folder)}", game_file.read_text(encoding="utf-8"),
                                count=1), encoding="utf-8")
    readme = folder / "README.md"
    readme.write_text(COPY_README.format(name=name, folder=folder), encoding="utf-8")
    return [*written, readme]


SCAFFOLD = Path(__file__).parent / "scaffold"


def new_game(name: str, folder: Path) -> list[Path]:
    """A new game folder that builds at once: every file of the scaffold with the game's name filled in."""
    name = " ".join(name.split())
    if not name or len(name) > 60 or any(ch in name for ch in "\"\\{}:#"):
        raise DataError(f"{name[:60]!r}: a game name needs 1 to 60 characters, without quotes, braces, : or #")
    if folder.exists() and any(folder.iterdir()):
        raise DataError(f"{folder}: folder exists and is not empty; choose a new folder")
    folder.mkdir(parents=True, exist_ok=True)
    game_id = slug(name, "_", "my_game")
    if not game_id[0].isalpha():
        game_id = f"game_{game_id}"
    values = {"name": name, "upper_name": name.upper(), "id": game_id, "folder": str(folder)}
    written = []
    for source in sorted(p for p in SCAFFOLD.rglob("*") if p.is_file()):
        target = folder / source.relative_to(SCAFFOLD)
        target.parent.mkdir(exist_ok=True)
        target.write_text(string.Template(source.read_text(encoding="utf-8")).substitute(values), encoding="utf-8")
        written.append(target)
    return written
