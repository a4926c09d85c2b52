"""A property-based fuzzer (hypothesis) over copies of real game folders: whatever one to three mutations
do to types, sizes, colours, paths, encodings, YAML structure, SVG art, spreadsheet cells, workbook card lists
(cells, sheets, damaged or bomb files), layout files and their expressions, icon files, the game's own font files
or links out of the folder, or what multiplies work (lists shared within lists, chains of lets, repeats of boxes
drawing thousands each, card lists claiming millions of columns or rows), `starpnp check` and `build`

- end with exit status 0 or 2 and one short line per problem, never a traceback;
- never run past HANG_SECONDS, nor past MEMORY_CAP more memory (a soft address-space limit while they run);
- never open a file outside the game folder, the output folder and what starpnp itself ships (a secret file
  beside the folder, reachable by `..`, an absolute path or a link, is never read);
- never print an environment variable's value (MARKER, planted in the environment) on any output.

`make test` runs the "ci" profile: a fixed, derandomized set of examples (seconds, same every run). By hand:

    HYPOTHESIS_PROFILE=long FUZZ_EXAMPLES=5000 .venv/bin/pytest -q tests/generator/test_fuzz_properties.py \
        --hypothesis-show-statistics

runs random examples for as long as that takes (hypothesis keeps a failure in .hypothesis/ and replays it
first next time).
"""
from __future__ import annotations

import csv
import io
import mimetypes
import os
import resource
import shutil
import signal
import sys
import tempfile
import zipfile
from contextlib import contextmanager
from pathlib import Path

import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

import starpnp
from starpnp_test_support import MINI
from starpnp.generator.cli import main
from starpnp.resources import components_dir
from starpnp_test_support import PROFILE as PROFILE_NAME, examples

# No shrinking: an example is a folder built twice, so shrinking one takes many minutes; a failure names the
# mutations that led to it instead, which is enough to write its test.
# The "ci" and "long" profiles are the suite's (tests/support.py); this test narrows them.
PROFILE = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", examples(60, long=2000))),
                   suppress_health_check=list(HealthCheck),
                   phases=[Phase.explicit, Phase.generate] if PROFILE_NAME == "ci" else
                   [Phase.explicit, Phase.reuse, Phase.generate])

HANG_SECONDS = 60  # a hang detector, not a speed test: an example takes about a second
MEMORY_CAP = 1536 * 1024 * 1024  # bytes of address space a run may add (the blow-ups of issue #33 took gigabytes)
MARKER = "starpnp-fuzz-marker-5e1d"  # an environment variable's value, to be found on no output
os.environ["STARPNP_FUZZ_MARKER"] = MARKER
SOURCES = {"mini": MINI, "stratastar": components_dir() / "stratastar"}
SECRET = "secret.png"  # beside the game folder, never to be read
ABSOLUTE = "<absolute path of the secret>"

# ---- what a mutation puts in ----------------------------------------------------------------------------

NUMBERS = st.one_of(st.integers(-10**20, 10**20), st.floats(allow_nan=True, allow_infinity=True),
                    st.sampled_from([0, -1, 0.001, 4.9, 5, 2000, 2001, 10_000, 10_001, 1e308, -0.0]))
COLOURS = st.sampled_from(["#FFF", "#fff", "#FFFF", "#12345G", "#1A2B3C", "#", "red", "space", "blurple",
                           "rgb(1,2,3)", "transparent", "#F0A", "ink"])
SIZES = st.sampled_from(["poker", "tarot", "0x0", "1e9x1", "63×88", "5 x 5", "-1x5", "4.9x4.9", "2000x2000",
                         "10 x 10 mm", [0, 0], [1e308, 1], [5, 5], [63, 88, 1], "nan"])
PATHS = st.sampled_from(["../" + SECRET, ABSOLUTE, "out.png", "up/" + SECRET, "loop.png", "art.svg", "raster.png",
                         "folder.png", "a\0b.png", "x" * 300 + ".png", "nothere.png", "art.txt", "/dev/zero.png",
                         "art/../../" + SECRET, "~/" + SECRET, "file:///etc/hostname", ""])
TEXTS = st.one_of(st.text(max_size=40), st.sampled_from([
    "{rules.nothing}", "{rules.", "unspecified", "{ours: 3}", "\u202eevil", "x" * 3000, "\t", "\r\n", "%s%n",
    "<script>", "=cmd|' /C calc'!A0"]))
VALUES = st.one_of(NUMBERS, COLOURS, SIZES, PATHS, TEXTS, st.booleans(), st.none(),
                   st.lists(st.one_of(st.integers(-5, 50), st.text(max_size=5)), max_size=4),
                   st.dictionaries(st.text(max_size=8), st.one_of(st.integers(-5, 50), st.text(max_size=5)),
                                   max_size=3),
                   st.fixed_dictionaries({"ours": NUMBERS}))
# Values of the same kind, within what validation lets through, at its edges: they reach the layouts.
NEAR_NUMBERS = st.one_of(st.sampled_from([0, -0.0, 0.0001, 0.01, 1, 5, 9999.9, -9999.9, 10_000]),
                         st.floats(-10_000, 10_000), st.integers(-10_000, 10_000))
NEAR_TEXTS = st.one_of(st.text(max_size=200), st.sampled_from([
    "", " ", "W" * 400, "\u202eevil", "\U0001F680" * 30, "\u6f22\u5b57" * 40, "a\nb\n" * 50, "\u00ad" * 20,
    "{rules.worlds_to_win}", "unspecified", "**bold** _em_"]))
ART_FIELDS = st.sampled_from(["art", "background_art"])
SVG_NUMBERS = st.one_of(st.floats(allow_nan=True, allow_infinity=True).map(repr), st.integers(-10**40, 10**40).map(str),
                        st.sampled_from(["0", "-5", "1e30", "1e-30", "100%", "10mm", "", "abc", "1e999", " 7 "]))


@st.composite
def svgs(draw) -> str:
    """SVG art of every sort: sizes and viewBoxes sane or absurd, shapes with any numbers, links out."""
    root = {name: draw(SVG_NUMBERS) for name in draw(st.sets(st.sampled_from(["width", "height"])))}
    if draw(st.booleans()):
        root["viewBox"] = " ".join(draw(st.lists(SVG_NUMBERS, min_size=3, max_size=5)))
    shapes = []
    for _ in range(draw(st.integers(0, 3))):
        tag = draw(st.sampled_from(["rect", "circle", "path", "image", "use", "text", "g"]))
        attrs = {name: draw(SVG_NUMBERS) for name in draw(st.sets(st.sampled_from(
            ["x", "y", "width", "height", "r", "cx", "stroke-width", "font-size", "transform", "d"]), max_size=4))}
        if tag == "path":
            attrs["d"] = f"M0 0 L{draw(SVG_NUMBERS)} {draw(SVG_NUMBERS)} Z"
        if tag in ("image", "use"):
            attrs["href"] = draw(st.sampled_from(["../" + SECRET, "file:///etc/hostname", "#a", "data:,x",
                                                   "raster.png"]))
        shapes.append(f"<{tag} " + " ".join(f'{k}="{v}"' for k, v in attrs.items()) + (">7</text>" if tag == "text"
                                                                                          else "/>"))
    text = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            + " ".join(f'{k}="{v}"' for k, v in root.items()) + ">" + "".join(shapes) + "</svg>")
    return text[:draw(st.integers(0, len(text)))] if draw(st.integers(0, 9)) == 0 else text  # sometimes cut


# ---- mutations ------------------------------------------------------------------------------------------

def nodes(value, path=()):
    """Every (path, value) in parsed YAML, for a mutation to aim at."""
    yield path, value
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in items:
        yield from nodes(child, path + (key,))


def faces(data) -> list:
    """The face mappings (a component's front or back, or an item) of parsed component data."""
    found = []
    components = data.get("components") if isinstance(data, dict) else None
    for comp in components if isinstance(components, list) else []:
        if isinstance(comp, dict):
            found += [comp[side] for side in ("front", "back") if isinstance(comp.get(side), dict)]
            items = comp.get("items")
            found += [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []
    return found


def yaml_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.yaml"))


def parsed(path: Path):
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError, ValueError):
        return None


SECRET_PATH = ""  # the example's secret file, for ABSOLUTE


def placed(value):
    """`value` with ABSOLUTE made the example's own secret path."""
    if value == ABSOLUTE:
        return SECRET_PATH
    if isinstance(value, dict):
        return {k: placed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [placed(v) for v in value]
    return value


def dump(path: Path, data) -> None:
    path.write_text(yaml.safe_dump(placed(data), allow_unicode=True, sort_keys=False), encoding="utf-8")


def replace_value(draw, folder: Path) -> str:
    path = draw(st.sampled_from(yaml_files(folder)))
    data = parsed(path)
    spots = [p for p, _ in nodes(data) if p]
    if not spots:
        return "nothing to replace"
    where = draw(st.sampled_from(spots))
    parent = data
    for key in where[:-1]:
        parent = parent[key]
    action = draw(st.sampled_from(["set", "set", "delete", "add key", *["near"] * 6]))
    old = parent[where[-1]]
    if action == "near" and isinstance(old, list) and old:
        parent[where[-1]] = old * draw(st.sampled_from([0, 2, 50]))
    elif action == "near" and isinstance(old, (int, float)) and not isinstance(old, bool):
        parent[where[-1]] = draw(NEAR_NUMBERS)
    elif action == "near" and isinstance(old, str):
        parent[where[-1]] = draw(NEAR_TEXTS)
    elif action == "delete":
        del parent[where[-1]]
    elif action == "add key" and isinstance(parent, dict):
        parent[draw(st.text(min_size=1, max_size=12))] = draw(VALUES)
    elif action != "near":
        parent[where[-1]] = draw(VALUES)
    dump(path, data)
    return f"{action} {path.name}:{'.'.join(map(str, where))[:80]}"


def set_art(draw, folder: Path) -> str:
    """Point a face at art (the SVG, raster file or hostile path the example made)."""
    path = draw(st.sampled_from([p for p in yaml_files(folder) if p.name != "game.yaml"] or yaml_files(folder)))
    data = parsed(path)
    targets = faces(data)
    if not targets:
        return "no face for art"
    face = draw(st.sampled_from(targets))
    field, value = draw(ART_FIELDS), draw(PATHS)
    face[field] = value
    dump(path, data)
    return f"art {path.name}: {field}={value[:40]!r}"


def edit_text(draw, folder: Path) -> str:
    """Lines deleted, doubled, cut or re-indented, characters and YAML syntax put anywhere."""
    path = draw(st.sampled_from(yaml_files(folder)))
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines() or [""]
    i = draw(st.integers(0, len(lines) - 1))
    kind = draw(st.sampled_from(["delete", "double", "cut", "indent", "insert", "yaml"]))
    if kind == "delete":
        del lines[i]
    elif kind == "double":
        lines.insert(i, lines[i])
    elif kind == "cut":
        lines[i] = lines[i][:draw(st.integers(0, len(lines[i])))]
    elif kind == "indent":
        lines[i] = draw(st.sampled_from([" ", "  ", "\t", "      "])) * draw(st.integers(0, 3)) + lines[i].lstrip()
    else:
        piece = draw(st.text(max_size=20)) if kind == "insert" else draw(st.sampled_from(
            ["&a ", "*a", "!!python/object/apply:os.system ['true']", "<<: *nothere", "? [a]\n: 1", "---\n",
             "!!binary AAAA", "{", "]", "'", '"\\x', "%YAML 9.9\n", "!<tag:yaml.org,2002:int> x", "- - - -"]))
        at = draw(st.integers(0, len(lines[i])))
        lines[i] = lines[i][:at] + piece + lines[i][at:]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return f"text {kind} {path.name}:{i + 1}"


def re_encode(draw, folder: Path) -> str:
    path = draw(st.sampled_from(yaml_files(folder)))
    text = path.read_text(encoding="utf-8", errors="replace")
    kind = draw(st.sampled_from(["utf-16", "utf-8-sig", "latin-1", "bytes", "empty", "nul"]))
    if kind == "bytes":
        data = text.encode()
        at = draw(st.integers(0, len(data)))
        path.write_bytes(data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:])
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "nul":
        path.write_bytes(text.encode().replace(b"\n", b"\n\0", 1))
    else:
        path.write_bytes((text + "# caf\u00e9\n").encode(kind, errors="replace"))
    return f"encoding {kind} {path.name}"


def as_overrides(draw, folder: Path) -> str:
    """The folder becomes an overrides folder of one of our games (or of something hostile)."""
    for path in yaml_files(folder):
        path.unlink()
    extends = draw(st.one_of(st.sampled_from(["stratastar", "stars_inc", "..", "../game", "/", "/etc", ABSOLUTE,
                                              "x" * 5000, "a\0b", "", "handful_of_stars"]), st.text(max_size=20)))
    changes = {"components": {draw(st.sampled_from(["galaxy_deck", "map_chits", "nothing"])): {
        "items": {draw(st.sampled_from(["Attack", "World", "Nope"])): {draw(st.sampled_from(
            ["count", "color", "title", "art", "size"])): draw(VALUES)}}}}}
    if draw(st.booleans()):
        changes["game"] = {draw(st.sampled_from(["name", "colors", "players", "id"])): draw(VALUES)}
    dump(folder / "overrides.yaml", {"extends": extends, **changes})
    return f"overrides extends {extends[:40]!r}"


# ---- the surfaces of issue #33: spreadsheet cells, layout files and expressions, icon files, links out ----------

BOMB = ("[&a [x,x,x,x,x,x,x,x,x], &b [*a,*a,*a,*a,*a,*a,*a,*a,*a], &c [*b,*b,*b,*b,*b,*b,*b,*b,*b], "
        "&d [*c,*c,*c,*c,*c,*c,*c,*c,*c], &e [*d,*d,*d,*d,*d,*d,*d,*d,*d], [*e,*e,*e,*e,*e,*e,*e,*e,*e]]")
CELLS = st.one_of(st.text(max_size=30), NUMBERS.map(str), st.sampled_from([
    "[" * 5000 + "]" * 5000, "{" * 3000, "[" * 61 + "]" * 61, BOMB, "[&a x, *a, *a]", "[*nope]", "{a: 1, a: 2}",
    "!!python/object/apply:os.system ['true']", "[!!binary AAAA]", "x" * 20_000, "[1e308, .nan, .inf]", "{? [a]: 1}",
    "{rules.nothing}", "[{title: x}]", "{energy}", "=cmd|' /C calc'!A0", "[\x00]", "{a: [b, {c: [d]}]}"]))
EXPRESSIONS = st.one_of(NUMBERS.map(repr), st.sampled_from([
    "column([upper], '__globals__')", "column(column([min], '__globals__'), 'os')", "w.__class__", "quoted(min)",
    "__import__('os').environ", "title.upper()", "[c for c in 'ab']", "(lambda: 1)()", "str(w, encoding='x')",
    "'x' * 10000000000", "[0] * 100000000", "1e308 * 10", "-1e308 * 10", "0 * 1e308 * 10", "steps(0, 1, 100000000)",
    "entries(1000000000)", "polygon_points(1, 1, 1, 10000000)", "star_points(1, 1, 1, 1, 10000000)",
    "'%999999999d' % 1", "round(5, -1000000000)", "(1, 2)[5]", "1 / 0", "[] + 1", "item.x", "entries(3)[0].y",
    " + ".join(["w"] * 1500), "(" * 300 + "1" + ")" * 300, "-" * 1990 + "1", "not " * 490 + "1", "1 if 1 else",
    "b'x'", "1j", "...", "str([entries(10000)] * 10000)", "upper(str(steps(0, 1, 10000)))",
    "text_width('x' * 10000, 'Lato-Regular', 1e9)", "mix('#000000', '#FFFFFF', 1e300)", "hypot(1e308, 1e308)",
    "cos(1e308)", "atan2(0, 0)", "widest(entries(10000), 'Nope', 9)", "len(w)", "position([], 1)", "min()",
    "max(entries(0))", "entries({'a': 1})", "column(entries(5), 0)", "w % 0", "h // 0.0", "w" * 3000,
    "{w:999999999}", "{w:.999f}", "{'x' * 99999}", "'\\N{BOX DRAWINGS LIGHT VERTICAL}' * 10000",
    "len(str([[[0] * 10000] * 10000] * 10000))", "[[0] * 10000] * 10000 == [[0] * 10000] * 10000",
    "7 in [[0] * 10000] * 10000", "[[0] * 9000] * 9 + [[0] * 9000] * 9", "str(10 ** 3)",
    "123456789012345 * 123456789012345 * 123456789012345", "star_points(1, 1, 1, 1, -5)", "polygon_points(1, 1, 1, 0)",
    "upper(str(column(entries(10000), 0)))"]))
LAYOUT_KEYS = st.sampled_from(["x", "y", "w", "h", "text", "repeat", "when", "points", "size", "fill", "r", "cx",
                               "commands", "dx", "rotate", "scale"])


def layout_files(folder: Path) -> list[Path]:
    if (folder / "layouts").is_symlink():  # an earlier mutation linked it out: a folder of its own again
        (folder / "layouts").unlink()
    (folder / "layouts").mkdir(exist_ok=True)
    found = sorted((folder / "layouts").glob("*.yaml"))
    if not found:  # the game's own copy of one of ours, to mutate
        from starpnp.generator.look.layouts import builtin_layouts
        found = [folder / "layouts" / "card.yaml"]
        shutil.copy(builtin_layouts() / "card.yaml", found[0])
    return found


def edit_layout(draw, folder: Path) -> str:
    """A layout file's box, let or check given a hostile expression, a repeat, an extends chain or a shape."""
    path = draw(st.sampled_from(layout_files(folder)))
    data = parsed(path)
    if not isinstance(data, dict):
        return "layout not a mapping"
    kind = draw(st.sampled_from(["box", "box", "box", "let", "check", "extends", "nested repeat", "new box", "field"]))
    expression = draw(EXPRESSIONS)
    boxes = data.get("boxes") if isinstance(data.get("boxes"), dict) else data.setdefault("boxes", {})
    names = [name for name, box in boxes.items() if isinstance(box, dict)]
    if kind == "box" and names:
        key = draw(LAYOUT_KEYS)
        boxes[draw(st.sampled_from(names))][key] = "{" + expression + "}" if key == "text" else expression
    elif kind == "let":
        lets = data.get("let") if isinstance(data.get("let"), dict) else data.setdefault("let", {})
        lets[draw(st.sampled_from(["zz", "_x", "__builtins__", "w", "min", *lets]))] = draw(
            st.one_of(st.just(expression), VALUES))
    elif kind == "field":
        fields = data.get("fields") if isinstance(data.get("fields"), dict) else data.setdefault("fields", {})
        fields[draw(st.sampled_from(["__class__", "_x", "model_config", "model_fields", "copy", "1a", "a b", "layout",
                                     "w", "item"]))] = draw(st.one_of(VALUES, st.fixed_dictionaries(
                                         {"type": st.sampled_from(["text", "list", "number", "nope"])})))
    elif kind == "check":
        data.setdefault("checks", []).append({"when": expression, "warn": "{" + expression + "}"})
    elif kind == "extends":
        depth = draw(st.sampled_from([1, 19, 21, 300]))
        for n in range(depth):
            dump(folder / "layouts" / f"chain{n}.yaml", {"extends": f"chain{n + 1}" if n < depth - 1 else path.stem})
        data["extends"] = draw(st.sampled_from([path.stem, "chain0", "nothere", "../../secret"]))
    elif kind == "nested repeat":
        boxes["blow"] = {"kind": "group", "repeat": draw(st.sampled_from(["entries(10000)", "steps(0, 1, 400)"])),
                         "boxes": {"inner": {"kind": "rect", "repeat": "entries(10000)", "x": 1, "y": 1, "w": 1,
                                             "h": 1}}}
    else:
        boxes["odd"] = {"kind": draw(st.sampled_from(["polygon", "path", "text", "warn", "rect"])), "points": expression,
                        "commands": expression, "text": "{" + expression + "}", "x": 1, "y": 1, "w": 5, "h": 5}
    dump(path, data)
    return f"layout {kind} {path.name}: {expression[:60]!r}"


# ---- the work-amplifying inputs of issue #41: values shared within values, chains, repeats, wide sheets -------

AMPLIFIERS = st.sampled_from(["shared lists", "let chain +", "let chain *", "repeat × points", "repeat × commands",
                              "repeat × text", "face let fails", "check fails"])


def amplify(draw, folder: Path) -> str:
    """A layout file given what multiplies work while every single value stays small: lists held many times
    within lists, lets each doubling or squaring the last, a repeat of boxes each drawing thousands of corners,
    commands or characters, a face-level let or check that cannot be computed."""
    path = draw(st.sampled_from(layout_files(folder)))
    data = parsed(path)
    if not isinstance(data, dict):
        return "layout not a mapping"
    kind = draw(AMPLIFIERS)
    boxes = data.get("boxes") if isinstance(data.get("boxes"), dict) else data.setdefault("boxes", {})
    lets = data.get("let") if isinstance(data.get("let"), dict) else data.setdefault("let", {})
    repeat = draw(st.sampled_from(["entries(10000)", "entries(300)", "steps(0, 1, 99)"]))
    if kind == "shared lists":
        depth = draw(st.integers(1, 6))
        lets["s0"] = "[0] * 100"
        for n in range(1, depth):
            lets[f"s{n}"] = f"[s{n - 1}] * 100"
        boxes["shared"] = {"kind": "text", "x": 1, "y": 1, "w": 5, "h": 5, "text": "{len(str(s%d))}" % (depth - 1)}
    elif kind.startswith("let chain"):
        operator, start = (" + ", draw(st.sampled_from(["'x' * 100", "[0] * 100", "[[0] * 10] * 10"]))) \
            if kind.endswith("+") else (" * ", draw(st.sampled_from(["1000", "1000.5", "99999"])))
        lets["c0"] = start
        for n in range(1, 40):
            lets[f"c{n}"] = f"c{n - 1}{operator}c{n - 1}"
        boxes["chain"] = {"kind": "text", "x": 1, "y": 1, "w": 5, "h": 5, "text": "{len(str(c39))}"}
    elif kind.startswith("repeat ×"):
        many = draw(st.sampled_from([10, 3000, 10000]))
        boxes["flood"] = {"kind": "polygon", "repeat": repeat, "points": f"polygon_points(5, 5, 4, {many})",
                          "fill": "#000000"} if kind.endswith("points") else {
            "kind": "path", "repeat": repeat, "commands": f"[['M', 0, 0]] + [['L', 1, 1]] * {many - 1}",
            "stroke": "#000000"} if kind.endswith("commands") else {
            "kind": "text", "repeat": repeat, "x": 1, "y": 1, "w": 30, "h": 30, "text": "{str(index) * %d}" % many}
    elif kind == "face let fails":
        lets[draw(st.sampled_from(["zz", *lets]))] = draw(st.sampled_from(["1 / 0", "[][1]", "'a' + 1"]))
    else:
        data.setdefault("checks", []).append({"when": draw(st.sampled_from(["1 / 0", "[][1]"])), "warn": "x"})
    dump(path, data)
    return f"amplify {kind} {path.name}"


ODS_HEAD = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content '
            'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
            'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
            'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>'
            '<table:table table:name="Cards">')


def wide_sheet(draw, folder: Path) -> str:
    """A component's items made a card list of many columns or rows (a CSV) or one repeating a cell or a row
    thousands of millions of times (an .ods): counts a small file can claim."""
    listed = with_items(folder)
    if listed is None:
        return "no items for a card list"
    path, data, found = listed
    component = draw(st.sampled_from(found))
    kind = draw(st.sampled_from(["csv columns", "csv rows", "ods cell", "ods blank cells", "ods rows"]))
    count = draw(st.sampled_from([999, 1001, 50_000, 100_000_000, 1_000_000_000]))
    if kind == "csv columns":
        columns = min(count, 50_000)
        (folder / "cards.csv").write_text("count," + ",".join(f"c{n}" for n in range(columns)) + "\n1"
                                          + ",x" * columns + "\n", encoding="utf-8")
        name = "cards.csv"
    elif kind == "csv rows":
        (folder / "cards.csv").write_text("count\n" + "1\n" * min(count, 200_000), encoding="utf-8")
        name = "cards.csv"
    else:
        cell = '<table:table-cell table:number-columns-repeated="%d"%s' % (
            count, "/>" if kind == "ods blank cells" else "><text:p>1</text:p></table:table-cell>")
        row = ('<table:table-row table:number-rows-repeated="%d">' % count if kind == "ods rows" else
               "<table:table-row>") + (cell if kind != "ods rows" else "") + \
            "<table:table-cell><text:p>1</text:p></table:table-cell></table:table-row>"
        header = "<table:table-row><table:table-cell><text:p>count</text:p></table:table-cell></table:table-row>"
        with zipfile.ZipFile(folder / "cards.ods", "w") as archive:
            archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
            archive.writestr("content.xml", ODS_HEAD + header + row + "</table:table></office:spreadsheet>"
                                            "</office:body></office:document-content>")
        name = "cards.ods"
    component["items"] = name
    dump(path, data)
    return f"wide sheet {kind} {count:,}"


def with_items(folder: Path) -> tuple[Path, dict, list[dict]] | None:
    """The first data file with components that list items: (its path, its data, those components)."""
    for path in yaml_files(folder):
        data = parsed(path)
        components = data.get("components") if isinstance(data, dict) else None
        found = [c for c in components if isinstance(c, dict) and isinstance(c.get("items"), list) and c["items"]] \
            if isinstance(components, list) else []
        if found:
            return path, data, found
    return None


def table_cells(draw, folder: Path) -> str:
    """A component's items moved to a spreadsheet, one of its cells made hostile."""
    from starpnp.generator.data.spreadsheet import items_as_table

    listed = with_items(folder)
    if listed is None:
        return "no items for a spreadsheet"
    path, data, found = listed
    component = draw(st.sampled_from(found))
    try:
        text = items_as_table([item for item in component["items"] if isinstance(item, dict)] or [{"count": 1}])
    except (TypeError, ValueError):
        return "items no spreadsheet holds"
    rows = text.splitlines()
    header = rows[0].split(",")
    column = draw(st.integers(0, len(header)))
    cell = draw(CELLS)
    quoted = '"' + cell.replace('"', '""') + '"'
    row = draw(st.integers(1, max(1, len(rows) - 1)))
    cells = (rows[row].split(",") if row < len(rows) else []) + [""] * len(header)
    cells[min(column, len(header) - 1)] = quoted
    rows[row:row + 1] = [",".join(cells[:len(header)])]
    (path.parent / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    component["items"] = "cards.csv"
    dump(path, data)
    return f"cell {column} of row {row + 1}: {cell[:40]!r}"


ICON_BODIES = st.one_of(st.sampled_from([
    "<g>" * 50_000 + "</g>" * 50_000, "<g>" * 41 + "<rect width='1' height='1'/>" + "</g>" * 41,
    "<g>" * 39 + "<rect width='1' height='1'/>" + "</g>" * 39, '<path d="M0 0 L1e308 5 Z"/>',
    '<g transform="scale(1e30)"><rect width="1" height="1"/></g>', '<g transform="scale(0)"><circle r="1"/></g>',
    '<path d="M0 0 A 1e-300 1e-300 0 1 1 5 5 Z"/>', '<image href="../../secret.png" width="1" height="1"/>',
    '<text x="1" y="1">{rules.x}</text>', '<circle r="-1"/>', "", "<svg/>", "&lol;",
    '<!DOCTYPE s [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
    '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>']),
    st.builds(lambda a, b, c: f'<g transform="translate({a}) rotate({b})"><path d="M0 0 L{c} {a} Z"/></g>',
              SVG_NUMBERS, SVG_NUMBERS, SVG_NUMBERS))


def edit_icon(draw, folder: Path) -> str:
    """An icon the game draws (or a new one) replaced by a hostile file."""
    from starpnp.generator.look.icons import icon_names

    name = draw(st.sampled_from(sorted(icon_names(folder))[:40] + ["new_icon"]))
    body = draw(ICON_BODIES)
    (folder / "icons").mkdir(exist_ok=True)
    root = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
    svg = body + root + "&d;</svg>" if body.startswith("<!DOCTYPE") else f"{root}{body}</svg>"  # an entity bomb
    (folder / "icons" / f"{name}.svg").write_text(svg, encoding="utf-8")
    return f"icon {name}: {body[:50]!r}"


def link_out(draw, folder: Path) -> str:
    """A file the game reads made a link to the secret beside the folder (or its folder of layouts to the
    folder the secret is in)."""
    secret = Path(SECRET_PATH)
    where = draw(st.sampled_from(["cards.csv", "icons/attack.svg", "layouts/linked.yaml", "data.yaml", "game.yaml",
                                  "layouts"]))
    link = folder / where
    if link.is_dir() and not link.is_symlink():
        shutil.rmtree(link)
    elif link.is_symlink() or link.exists():
        link.unlink()
    link.parent.mkdir(exist_ok=True)
    link.symlink_to(secret.parent if where == "layouts" else secret)
    if where == "cards.csv":
        for path in yaml_files(folder):
            data = parsed(path)
            components = data.get("components") if isinstance(data, dict) else None
            for component in components if isinstance(components, list) else []:
                if isinstance(component, dict) and "items" in component:
                    component["items"] = "cards.csv"
                    dump(path, data)
                    return "cards.csv links out"
    return f"{where} links out"


# ---- the inputs of issue #36: workbook card lists and a game's own fonts -------------------------------

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
WORKBOOK_CELLS = st.one_of(CELLS, st.sampled_from([
    "=1/0", "=A1", "=SUM(A1:XFD1048576)", "=HYPERLINK(\"file:///etc/hostname\")", "=INDIRECT(\"Z99\")", 10**300,
    -10**20, 1e308, float("inf"), float("nan"), True, "\x0b" * 10, "#REF!", "x" * 32_000]))


def workbook_cells(draw, folder: Path) -> str:
    """A component's items moved to an .xlsx workbook (openpyxl) or the fixture .ods, then made hostile: a
    cell, the sheet named, or the file's bytes (cut, garbage, not a zip, a zip that unpacks to a lot)."""
    import openpyxl
    from openpyxl.utils.exceptions import IllegalCharacterError

    from starpnp.generator.data.spreadsheet import items_as_table

    listed = with_items(folder)
    if listed is None:
        return "no items for a workbook"
    path, data, found = listed
    component = draw(st.sampled_from(found))
    kind = draw(st.sampled_from(["cell", "cell", "cell", "sheet", "cut", "garbage", "not a zip", "bomb", "ods"]))
    name = "cards.ods" if kind == "ods" else "cards.xlsx"
    workbook = folder / name
    if kind == "ods":
        shutil.copy(FIXTURES / "workbooks" / "parcels.ods", workbook)
    else:
        try:
            table = items_as_table([item for item in component["items"] if isinstance(item, dict)] or [{"count": 1}])
        except (TypeError, ValueError):
            return "items no workbook holds"
        rows = list(csv.reader(io.StringIO(table)))
        book = openpyxl.Workbook()
        book.active.title = "Cards"
        for row in rows:
            book.active.append(row)
        cell = draw(WORKBOOK_CELLS)
        if kind == "cell":
            try:
                book.active.cell(draw(st.integers(1, len(rows) + 1)), draw(st.integers(1, len(rows[0]) + 1)), cell)
            except IllegalCharacterError:  # what no spreadsheet program saves
                cell = "illegal"
        book.save(workbook)
    sheet = draw(st.sampled_from([None, "Cards", "Nope", "", "../Cards", "x" * 300]))
    component["items"] = {"file": name, "sheet": sheet} if sheet is not None else name
    dump(path, data)
    body = workbook.read_bytes()
    if kind == "cut":
        workbook.write_bytes(body[:draw(st.integers(0, len(body)))])
    elif kind == "garbage":
        at = draw(st.integers(0, len(body)))
        workbook.write_bytes(body[:at] + draw(st.binary(min_size=1, max_size=64)) + body[at + 64:])
    elif kind == "not a zip":
        workbook.write_bytes(draw(st.sampled_from([b"", b"title,count\nA,1\n", b"\x89PNG\r\n\x1a\n", b"PK\x03\x04"])))
    elif kind == "bomb":
        with zipfile.ZipFile(workbook, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("[Content_Types].xml", b"<Types/>")
            archive.writestr(draw(st.sampled_from(["xl/worksheets/sheet1.xml", "content.xml"])),
                             b"\0" * draw(st.sampled_from([17 * 1024 * 1024, 64 * 1024 * 1024])))
    return f"workbook {kind} {name} sheet={str(sheet)[:20]!r}" + (f" cell {str(cell)[:30]!r}" if kind == "cell" else "")


FONT_BODIES = st.sampled_from(["TomsonTalks.ttf", "ComicNeue-Regular.otf", "cut", "garbage", "empty", "text",
                               "link out", "folder", "missing"])


def game_font(draw, folder: Path) -> str:
    """A layout box given `font:` naming a face of the game's fonts/, whose file may be a real font, cut,
    garbage, empty, a folder, a link out of the game's folder, or not there at all."""
    fonts = folder / "fonts"
    if fonts.is_symlink():
        fonts.unlink()
    fonts.mkdir(exist_ok=True)
    kind = draw(FONT_BODIES)
    target = fonts / draw(st.sampled_from(["Face.ttf", "Face.otf", "TomsonTalks.ttf", "odd.TTF"]))
    if target.is_symlink() or target.is_file():
        target.unlink()
    real = (FIXTURES / "fonts" / "TomsonTalks.ttf").read_bytes()
    if kind.endswith(("ttf", "otf")):
        shutil.copy(FIXTURES / "fonts" / kind, target)
    elif kind == "cut":
        target.write_bytes(real[:draw(st.integers(0, len(real)))])
    elif kind == "garbage":
        at = draw(st.integers(0, len(real)))
        target.write_bytes(real[:at] + draw(st.binary(min_size=1, max_size=256)) + real[at + 256:])
    elif kind == "empty":
        target.write_bytes(draw(st.sampled_from([b"", b"OTTO", b"\0\1\0\0", b"true"])))
    elif kind == "text":
        target.write_text("not a font", encoding="utf-8")
    elif kind == "link out":
        target.symlink_to(draw(st.sampled_from([SECRET_PATH, str(FIXTURES / "fonts" / "TomsonTalks.ttf")])))
    elif kind == "folder" and not target.exists():
        target.mkdir()
    path = draw(st.sampled_from(layout_files(folder)))
    data = parsed(path)
    boxes = data.get("boxes") if isinstance(data, dict) else None
    names = [name for name, box in boxes.items() if isinstance(box, dict)] if isinstance(boxes, dict) else []
    font = draw(st.sampled_from(["Tomson Talks", "tomson-talks Bold", "Comic Neue", "Face", "Nope", "../secret",
                                 "", "x" * 500, "Lato-Black"]))
    if names:
        boxes[draw(st.sampled_from(names))]["font"] = font
        dump(path, data)
    return f"font {kind} {target.name}, font: {font[:30]!r}"


MUTATIONS = [replace_value, replace_value, set_art, set_art, edit_text, re_encode, as_overrides,
             edit_layout, edit_layout, edit_layout, table_cells, table_cells, edit_icon, edit_icon, link_out,
             workbook_cells, workbook_cells, game_font, game_font, amplify, amplify, wide_sheet]


def make_folder(root: Path, source: str, svg: str, raster: str) -> Path:
    """A copy of a real game folder, with art files and links to aim mutations at, and a secret beside it."""
    (root / SECRET).write_bytes(b"\x89PNG\r\n\x1a\nthe secret")
    folder = root / "game"
    shutil.copytree(SOURCES[source], folder)
    (folder / "art.svg").write_text(svg, encoding="utf-8")
    if raster == "png":
        from PIL import Image
        Image.new("RGB", (3, 2), "#336699").save(folder / "raster.png")
    else:
        (folder / "raster.png").write_bytes(b"" if raster == "empty" else b"not a png")
    (folder / "out.png").symlink_to(root / SECRET)
    (folder / "up").symlink_to(root)
    (folder / "loop.png").symlink_to("loop.png")
    (folder / "folder.png").mkdir()
    (folder / "art.txt").write_text("text")
    return folder


# ---- watching what happens ------------------------------------------------------------------------------

OPENED: list[str] | None = None  # while recording, every path Python opens


def _audit(event: str, args: tuple) -> None:
    if OPENED is not None and event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        OPENED.append(os.fsdecode(args[0]))


sys.addaudithook(_audit)  # audit hooks cannot be removed: it records only between start and stop
SHIPPED = [Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), Path(starpnp.__file__).resolve().parents[1],
           *(Path(name) for name in mimetypes.knownfiles)]  # the system's MIME table, read once for SVG exports


@contextmanager
def recording():
    global OPENED
    OPENED = []
    try:
        yield OPENED
    finally:
        OPENED = None


@contextmanager
def memory_capped():
    """At most MEMORY_CAP more bytes of address space for what runs inside (a soft limit, raised again after)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as statm:
        used = int(statm.read().split()[0]) * resource.getpagesize()
    cap = used + MEMORY_CAP if hard == resource.RLIM_INFINITY else min(hard, used + MEMORY_CAP)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def marked(out: Path) -> list[str]:
    """The output files holding the environment's marker (PDF pages are compressed: their SVG twins say)."""
    return [str(path) for path in out.rglob("*") if path.is_file() and MARKER.encode() in path.read_bytes()]


def hang(signum, frame):
    raise TimeoutError(f"still running after {HANG_SECONDS} s")


def problems(result, opened: list[str], allowed: list[Path], secret: Path) -> list[str]:
    found = []
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        found.append(f"{type(result.exception).__name__}: {str(result.exception)[:300]}")
    if result.exit_code not in (0, 2):
        found.append(f"exit status {result.exit_code}: {result.output[-300:]}")
    if "Traceback" in result.output:
        found.append("a traceback on the output")
    if MARKER in result.output or MARKER in result.stderr:
        found.append("an environment variable's value on the output")
    if result.exit_code == 2 and not result.stderr.strip():
        found.append("exit status 2 and nothing said")
    found += [f"an error line of {len(line)} characters" for line in result.stderr.splitlines() if len(line) > 600]
    for name in opened:
        try:
            where = Path(name).resolve()
        except (OSError, RuntimeError, ValueError):
            where = Path(os.path.abspath(name))
        if where == secret or not any(where.is_relative_to(root) for root in allowed):
            found.append(f"opened {name[:200]}")
    return found


@PROFILE
@given(data=st.data())
def test_no_mutation_of_a_game_folder_crashes_hangs_or_reads_outside_it(data):
    global SECRET_PATH
    source = data.draw(st.sampled_from(sorted(SOURCES)), "source")
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        SECRET_PATH = str(root / SECRET)
        folder = make_folder(root, source, data.draw(svgs(), "art.svg"),
                             data.draw(st.sampled_from(["png", "text", "empty"]), "raster.png"))
        done = [mutation(data.draw, folder) for mutation in data.draw(
            st.lists(st.sampled_from(MUTATIONS), min_size=1, max_size=3), "mutations")]
        formats = data.draw(st.sampled_from(["pdf", "pdf", "pdf,svg"]), "formats")
        out = root / "out"
        allowed = [folder, out, *SHIPPED]
        failures = []
        said = {}
        previous = signal.signal(signal.SIGALRM, hang)
        try:
            for command in (["check", str(folder)],
                            ["build", str(folder), "--format", formats, "--out", str(out), "--yes"]):
                with memory_capped(), recording() as opened:
                    signal.alarm(HANG_SECONDS)
                    try:
                        result = runner.invoke(main, command)
                    finally:
                        signal.alarm(0)
                event(f"{command[0]} exit status {result.exit_code}")  # --hypothesis-show-statistics counts them
                said[command[0]] = (result.exit_code, set(result.stderr.splitlines()))
                failures += [f"{command[0]}: {p}" for p in problems(result, opened, allowed, root / SECRET)]
            failures += [f"the marker in {name}" for name in marked(out)]
            if said["build"][0] == 2 and not said["build"][1] <= said["check"][1]:  # check says what build will
                failures.append(f"build refused what check did not: {sorted(said['build'][1] - said['check'][1])[:2]}")
        finally:
            signal.signal(signal.SIGALRM, previous)
        assert failures == [], f"{source} after {done}:\n" + "\n".join(failures[:10])


def test_the_fuzzer_sees_a_read_outside_the_folder_and_a_crash(tmp_path):
    """The watcher itself: a file opened beside the folder and an exception are both reported."""
    folder = make_folder(tmp_path, "mini", "<svg/>", "png")
    secret = tmp_path / SECRET

    class Crashed:
        exception, exit_code, output, stderr = ValueError("boom"), 1, "Traceback", ""

    with recording() as opened:
        (folder / "up" / SECRET).read_bytes()
    found = problems(Crashed, opened, [folder], secret)
    assert f"opened {folder / 'up' / SECRET}" in found and "ValueError: boom" in found
    assert "exit status 1: Traceback" in found and "a traceback on the output" in found
