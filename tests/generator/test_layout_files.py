"""Layout files: a game folder's own layout extends a built-in one by name, a component changes boxes inline,
and only the boxes changed move on the printed face (measured in the PDF)."""
from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from cli_runner import run
from starpnp.generator.look.fonts import text_width_mm
from starpnp.generator.look.layouts import LayoutError, layouts_for

MM = 72 / 25.4
CARD = "{count: 1, title: Zed, icon: attack, type: Ship, text: Fight once.}"
MOVED = {"panel": {"y": "panel_top + 4"}, "title": {"y": "inset + 1"}}


def face_game(folder: Path, components: str) -> Path:
    folder.mkdir()
    (folder / "game.yaml").write_text("id: faces\nname: Faces\nplayers: {min: 1, max: 2}\ncolors: [red]\n")
    (folder / "cards.yaml").write_text("components:\n" + components)
    return folder


def component(cid: str, front: str) -> str:
    return f"  - {{id: {cid}, name: {cid}, kind: card, size: poker, front: {front}, items: [{CARD}]}}\n"


def drawn(page) -> dict[str, list[tuple]]:
    """What a face page draws, by sort: each shape's and each letter's box in mm (y down), rounded to 0.01."""
    def box(obj) -> tuple:
        return tuple(round(v / MM, 2) for v in (obj["x0"], obj["top"], obj["x1"], obj["bottom"]))

    return {"shapes": sorted(box(o) for o in page.rects + page.curves + page.lines),
            "letters": sorted((o["text"],) + box(o) for o in page.chars)}


@pytest.fixture(scope="module")
def faces(tmp_path_factory) -> list:
    root = tmp_path_factory.mktemp("layout-files")
    game = face_game(root / "faces", component("a_plain", "{layout: card}") + component("b_moved", "{layout: moved_card}")
                     + component("c_inline", "{layout: card, boxes: {panel: {y: panel_top + 4}, title: {y: inset + 1}}}"))
    (game / "layouts").mkdir()
    (game / "layouts" / "moved_card.yaml").write_text(
        "extends: card\nboxes:\n  panel: {y: panel_top + 4}\n  title: {y: inset + 1}\n")
    result = run("build", game, "--out", root / "out", "--format", "pdf-single")
    assert result.returncode == 0, result.stderr
    with pdfplumber.open(root / "out" / "faces" / "faces-faces.pdf") as pdf:
        return [drawn(page) for page in pdf.pages]


def moved(before: list[tuple], after: list[tuple]) -> list[tuple]:
    return sorted(set(before) ^ set(after))


def test_a_game_layout_extending_card_moves_only_the_two_boxes_it_overrides(faces):
    plain, extended, _ = faces
    letters = moved(plain["letters"], extended["letters"])
    assert "".join(entry[0] for entry in sorted(letters, key=lambda e: e[1])) == "ZZeedd"  # the title only
    title_before = sorted((e for e in letters if e in plain["letters"]), key=lambda e: e[1])
    title_after = sorted((e for e in letters if e in extended["letters"]), key=lambda e: e[1])
    assert [(a[1] - b[1], round(a[2] - b[2], 2)) for a, b in zip(title_after, title_before)] == [(0, 1.0)] * 3
    shapes = moved(plain["shapes"], extended["shapes"])
    panel_before = [s for s in shapes if s in plain["shapes"]]
    panel_after = [s for s in shapes if s in extended["shapes"]]
    assert len(panel_before) == len(panel_after) == 1  # the white panel, and no other shape
    assert round(panel_after[0][1] - panel_before[0][1], 2) == 4.0
    assert round(panel_after[0][3] - panel_before[0][3], 2) == 4.0


def test_boxes_changed_inline_on_a_component_draw_what_the_layout_file_draws(faces):
    _, extended, inline = faces
    assert inline == extended


def test_a_layout_file_problem_names_the_file_line_and_key(tmp_path):
    game = face_game(tmp_path / "faces", component("a", "{layout: broken}"))
    (game / "layouts").mkdir()
    (game / "layouts" / "broken.yaml").write_text("extends: card\nboxes:\n  title: {y: insett + 1}\n")
    result = run("build", game, "--out", tmp_path / "out", "--format", "pdf")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "broken.yaml:3: boxes.title.y: unknown name 'insett'" in result.stderr and "did you mean inset" in result.stderr


def test_a_games_layouts_are_found_after_the_built_in_ones(tmp_path):
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "card.yaml").write_text("extends: card\nfields:\n  motto: {type: text, default: ''}\n")
    own, builtin = layouts_for((tmp_path,))["card"], layouts_for()["card"]
    assert "motto" in own.params.model_fields and "motto" not in builtin.params.model_fields
    assert set(builtin.params.model_fields) <= set(own.params.model_fields)
    assert "star" not in builtin.params.model_fields  # Stratastar's star lives in its own folder


def test_the_schema_knows_a_games_own_layouts_and_the_layout_file_format():
    import json

    own = json.loads(run("schema", "layouts", "--game", "stratastar").stdout)
    builtin = json.loads(run("schema", "layouts").stdout)
    names = {s["properties"]["layout"]["const"] for s in own["oneOf"]}
    assert {"galaxy_card", "stratastar_aid", "card"} <= names
    assert "galaxy_card" not in {s["properties"]["layout"]["const"] for s in builtin["oneOf"]}
    aid = next(s for s in own["oneOf"] if s["properties"]["layout"]["const"] == "stratastar_aid")
    assert aid["additionalProperties"] is False and "entries" in aid["required"]
    layout_file = json.loads(run("schema", "layout-file").stdout)
    assert set(layout_file["properties"]) == {"description", "extends", "fields", "let", "checks", "boxes"}


def test_checks_warn_and_a_box_that_cannot_be_drawn_is_named_not_a_traceback(tmp_path):
    game = face_game(tmp_path / "faces", component("a", "{layout: sized}"))
    (game / "layouts").mkdir()
    (game / "layouts" / "sized.yaml").write_text(
        "extends: card\n"
        "fields:\n  motto: {type: text, description: a line under the title}\n"
        "checks:\n  - {when: w < 70, warn: 'width: {w:g} mm is narrow for {title}'}\n"
        "boxes:\n  motto: {kind: text, text: '{motto}', x: ax, y: 1 + motto, w: aw, h: 4}\n")
    result = run("build", game, "--out", tmp_path / "out", "--format", "pdf")
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert "width: 63 mm is narrow for Zed" in result.stdout
    assert "box motto: not drawn:" in result.stdout
    strict = run("build", game, "--out", tmp_path / "out2", "--format", "pdf", "--strict")
    assert strict.returncode == 2


def test_any_text_box_turns_into_a_write_in_area_for_an_unspecified_value(tmp_path):
    game = face_game(tmp_path / "faces", component("a", "{layout: card}").replace("type: Ship", "type: unspecified"))
    result = run("build", game, "--out", tmp_path / "out", "--format", "pdf-single")
    assert result.returncode == 0, result.stderr
    with pdfplumber.open(tmp_path / "out" / "faces" / "faces-faces.pdf") as pdf:
        text = pdf.pages[0].extract_text()
    assert "write in: type" in text and "UNSPECIFIED" not in text


def test_a_player_board_section_counts_its_slots_or_lists_them_and_warns_when_they_overflow(tmp_path):
    game = face_game(tmp_path / "faces", "  - {id: mat, name: Mat, kind: board, size: [120, 80], front: {layout: "
                     "player_board, title: Mat, sections: [{x: 5, y: 17, w: 50, h: 40, title: Tiny, slots: 4}, "
                     "{x: 60, y: 17, w: 55, h: 40, title: Named, slot_size: 15, slots: [{label: Here}]}]}, items: [{count: 1}]}\n")
    result = run("build", game, "--out", tmp_path / "out", "--format", "pdf-single")
    assert result.returncode == 0, result.stderr
    assert "sections: slots of 'Tiny' do not fit the section" in result.stdout
    assert "'Named'" not in result.stdout
    with pdfplumber.open(tmp_path / "out" / "faces" / "faces-faces.pdf") as pdf:
        page = pdf.pages[0]
        dashed = [r for r in page.rects + page.curves if r.get("dash") and r["dash"][0]]
        assert "Here" in page.extract_text()
    assert len(dashed) == 5  # four counted slots and one named one, all dashed (none filled)


@pytest.mark.parametrize("files, front, message", [
    ({"a.yaml": "extends: b\n", "b.yaml": "extends: a\n"}, "{layout: a}", "extends: goes round in a circle"),
    ({"a.yaml": "extends: nowhere\n"}, "{layout: a}", "extends: no layout file named 'nowhere'"),
    ({}, "{layout: card, boxes: {titel: {h: 12}}}", "boxes.titel: card has no such box"),
    ({"a.yaml": "extends: card\nboxes:\n  title: {fonts: Lato-Bold}\n"}, "{layout: a}", "boxes.title.fonts: unknown key; did you mean 'font'"),
    ({"a.yaml": "fields:\n  n: {type: nubmer}\n"}, "{layout: a}", "unknown field type 'nubmer'; did you mean 'number'?"),
    ({"a.yaml": "boxes:\n  b: {kind: rect, x: 1, y: 1, w: 2}\n"}, "{layout: a}", "boxes.b: a rect box needs h"),
    ({"a.yaml": "boxes:\n  b: {kind: rect, x: __import__('os'), y: 1, w: 2, h: 2}\n"}, "{layout: a}", "boxes.b.x: unknown function"),
    ({"a.yaml": "boxes:\n  b: {kind: rect, x: w.__class__, y: 1, w: 2, h: 2}\n"}, "{layout: a}", "'__class__' is not allowed"),
    ({"a.yaml": "boxes:\n  b: {kind: rect, x: 9 ** 9, y: 1, w: 2, h: 2}\n"}, "{layout: a}", "** and << are not allowed"),
])
def test_a_bad_layout_file_is_one_clear_line(tmp_path, files, front, message):
    game = face_game(tmp_path / "faces", component("a", front))
    (game / "layouts").mkdir()
    for name, text in files.items():
        (game / "layouts" / name).write_text(text)
    result = run("build", game, "--out", tmp_path / "out", "--format", "pdf")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert message in result.stderr, result.stderr


LINED = {  # a layout file's problem -> (its line, what the message says after `file:LINE: `)
    "boxes:\n  title: {kind: text, text: x, x: 1, y: 1, w: 2,\n    h: 3, hh: 4}\n":
        (3, "boxes.title.hh: unknown key; did you mean 'h'?"),
    "let:\n  a: 1\nboxes:\n  title:\n    kind: text\n    text: x\n    x: 1\n    y: 1\n    w: 2\n    h: 3 +\n":
        (10, "boxes.title.h: not an expression: '3 +'"),
    "boxes:\n  a: {kind: rect, x: 1, y: 1, w: 1, h: 1}\n  title: {kind: txt, text: x}\n":
        (3, "boxes.title.kind: unknown box kind 'txt'; did you mean 'text'?"),
    "boxes:\n  a: {kind: rect, x: 1, y: 1, w: 1, h: 1}\n  title: 5\n": (3, "boxes.title: expected a mapping of keys, got 5"),
    "fields:\n  a: {type: number,\n      min: abc}\n": (3, "fields.a.min: Input should be a valid number"),
    "fields:\n  a: {type: text}\n  b: {type: nubmer}\n": (3, "fields.b.type: unknown field type 'nubmer'"),
    "boxes:\n\n  title: {kind: text}\n": (3, "boxes.title: a text box needs text, x, y, w, h"),
    "boxes:\n  title:\n    x: 1\n": (2, "boxes.title.kind: required (one of group,"),
    "checks:\n  - {when: w, warn: x}\n  - {when: zz, warn: x}\n": (3, "checks[1].when: unknown name 'zz'"),
    "let:\n  a: 1\n  b: a +* 2\n": (3, "let.b: not an expression"),
    "boxes:\n  g:\n    kind: group\n    boxes:\n      c: {kind: rect, x: 1, y: 1, w: 1, h: q}\n":
        (5, "boxes.g.boxes.c.h: unknown name 'q'"),
    "extends: card\nboxes:\n  title: {h: 12}\n  panel:\n    y: zz\n": (5, "boxes.panel.y: unknown name 'zz'"),
    "fields:\n  a: {type: text}\n  b:\n    type: list of text\n    pattern: '^(?!x)'\n":
        (5, "fields.b.pattern: not a regular expression we read: error: look-around"),
    "fields:\n  a:\n    type: number\n    pattern: '^1$'\n": (4, "fields.a.pattern: a pattern is for text"),
    "fields:\n  a:\n    type: [x, y]\n    pattern: '^1$'\n": (4, "fields.a.pattern: a pattern is for text"),
}


@pytest.mark.parametrize("text", LINED)
def test_a_layout_file_problem_reads_file_line_keys_and_message(tmp_path, text):
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "own.yaml").write_text(text)
    line, message = LINED[text]
    with pytest.raises(LayoutError) as caught:
        layouts_for((tmp_path,))["own"]
    assert str(caught.value).startswith(f"{tmp_path / 'layouts' / 'own.yaml'}:{line}: {message}"), caught.value


def test_a_problem_a_layout_inherits_is_named_in_the_file_that_wrote_it(tmp_path):
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "base.yaml").write_text(
        "extends: card\nboxes:\n  title: {h: 12}\n  stamp:\n    kind: rect\n    x: 1\n    y: 1\n    w: ww\n    h: 2\n")
    (tmp_path / "layouts" / "child.yaml").write_text("extends: base\nboxes:\n  stamp: {h: 3}\n")
    with pytest.raises(LayoutError) as caught:
        layouts_for((tmp_path,))["child"]
    assert str(caught.value).startswith(f"{tmp_path / 'layouts' / 'base.yaml'}:8: boxes.stamp.w: unknown name 'ww'")


def test_a_problem_in_boxes_changed_inline_names_the_components_own_line(tmp_path):
    game = face_game(tmp_path / "faces", "  - id: a\n    name: a\n    kind: card\n    size: poker\n"
                                         "    front:\n      layout: card\n      boxes:\n        title:\n"
                                         f"          h: zz\n    items: [{CARD}]\n")
    result = run("check", game)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "cards.yaml:10: components[0].front.boxes.title.h: unknown name 'zz'" in result.stderr, result.stderr


TALLY = """fields:
  score: {type: integer or unspecified}
  marks: {type: list of icon or unspecified, default: unspecified}
  lines: {type: table, default: {}}
let:
  label_w: "widest(column(entries(lines), 0), 'Lato-Bold', 8) + 2"
boxes:
  lines:
    kind: group
    repeat: entries(lines)
    boxes:
      frame: {kind: rect, x: 5, y: 10 + index * 8, w: label_w, h: 6, stroke: "#000000"}
      label: {kind: text, text: "{item[0]}", x: 5, y: 10 + index * 8, w: label_w, h: 6, font: Lato-Bold, size: 8}
      value: {kind: text, text: "{item[1]}", x: 7 + label_w, y: 10 + index * 8, w: 30, h: 6, size: 8}
  score: {kind: text, text: "{score}", x: 5, y: 40, w: 40, h: 10}
  marks: {kind: icon, when: not unspecified(marks), repeat: marks, icon: item, x: 5 + index * 8, y: 55, size: 6}
"""


def test_fields_may_be_a_table_a_list_of_a_type_or_either_of_two_and_boxes_size_to_their_words(tmp_path):
    tally = "{layout: tally, lines: {Speed: fast, Cargo hold: '4'}, score: unspecified, marks: [attack, attack]}"
    line = "  - {{id: a, name: a, kind: card, size: poker, front: {}, items: [{{count: 1}}]}}\n"
    game = face_game(tmp_path / "faces", line.format(tally))
    (game / "layouts").mkdir()
    (game / "layouts" / "tally.yaml").write_text(TALLY)
    result = run("build", game, "--out", tmp_path / "out", "--format", "pdf-single")
    assert result.returncode == 0, result.stderr
    with pdfplumber.open(tmp_path / "out" / "faces" / "faces-faces.pdf") as pdf:
        page = pdf.pages[0]
        text = page.extract_text()
        frames = sorted(round((r["x1"] - r["x0"]) / MM, 2) for r in page.rects if r["stroking_color"] == (0, 0, 0))
    widest = max(text_width_mm(label, "Lato-Bold", 8) for label in ("Speed", "Cargo hold"))
    assert frames == [round(widest + 2, 2)] * 2  # both frames as wide as the wider label
    assert text.index("Speed") < text.index("Cargo hold") and "write in: score" in text
    for right, wrong, field in (("score: unspecified", "score: seven", "score"),
                                ("marks: [attack, attack]", "marks: [attack, nonsense]", "nonsense")):
        (game / "cards.yaml").write_text("components:\n" + line.format(tally.replace(right, wrong)))
        failed = run("build", game, "--out", tmp_path / "bad", "--format", "pdf")
        assert failed.returncode == 2 and field in failed.stderr and "Traceback" not in failed.stderr


def test_an_amounts_box_sets_each_number_before_its_symbols_disc_and_warns_on_an_unknown_symbol(tmp_path):
    game = face_game(tmp_path / "faces", component("a", "{layout: priced, price: {cost: 12 H + free}}")
                     + component("b", "{layout: priced, price: {cost: 3 Q}}"))
    (game / "layouts").mkdir()
    (game / "layouts" / "priced.yaml").write_text(
        "extends: card\n"
        "fields:\n  price: {type: object, items: {cost: {type: text, required: true}}}\n"
        "boxes:\n  price: {kind: amounts, text: '{price.cost}', x: 10, y: 40, h: 6, color: '#1A1A1A',\n"
        "         symbols: \"[['H', 'hydrogen', '#ECEFF1', '#1A1A1A']]\"}\n")
    result = run("build", game, "--out", tmp_path / "out", "--format", "pdf-single")
    assert result.returncode == 0, result.stderr
    assert "price: '3 Q': write amounts as 'N symbol' joined by '+', symbols H" in result.stdout
    trim = 3.0  # the face's trim corner on its single page, past the bleed
    with pdfplumber.open(tmp_path / "out" / "faces" / "faces-faces.pdf") as pdf:
        page = pdf.pages[0]
        row = [o for o in page.chars if trim + 40 <= o["top"] / MM and o["bottom"] / MM <= trim + 46]
        discs = [o for o in page.curves + page.rects if trim + 40 <= o["top"] / MM and o["bottom"] / MM <= trim + 46]
    twelve = [o for o in row if o["text"] in "12"]
    free = [o for o in row if o["text"] in "fre"]
    assert "".join(o["text"] for o in twelve) == "12" and "".join(o["text"] for o in free) == "free"
    disc = max(discs, key=lambda o: o["x1"] - o["x0"])  # the hydrogen disc, centred on the row's middle
    left, right = disc["x0"] / MM, disc["x1"] / MM
    assert abs((disc["top"] + disc["bottom"]) / 2 / MM - (trim + 43)) < 0.05
    assert abs(twelve[0]["x0"] / MM - (trim + 10)) < 0.5 and max(o["x1"] for o in twelve) / MM <= left
    assert min(o["x0"] for o in free) / MM >= right


def icon_box_faces(tmp_path: Path, icon: str, extra_field: str = "") -> tuple[list, list[str]]:
    """The elements of a card whose layout adds an icon box with `icon: <icon>`, and its warnings."""
    from starpnp.generator.look.loader import load_game
    from starpnp.generator.look.render import SceneCache

    tmp_path.mkdir()
    game = face_game(tmp_path / "faces", component("a", "{layout: badged}"))
    (game / "layouts").mkdir()
    (game / "layouts" / "badged.yaml").write_text(
        f"extends: card\nfields:\n  {extra_field or 'unused: {type: text, default: x}'}\n"
        f"boxes:\n  badge_icon: {{kind: icon, icon: {icon}, x: 2, y: 2, size: 8}}\n")
    loaded = load_game(game)
    [comp] = loaded.components
    scene, ctx = SceneCache(0, game).sketch(comp, comp.pieces[0], "front")
    return list(scene.elements), ctx.warnings


def test_an_icon_box_takes_an_icon_name_as_written(tmp_path):
    """`icon: move` names the icon, as `text:` gives text; the quoted expression our layouts wrote before
    (`"'move'"`) draws the very same, and the name of a field or let still reads that field."""
    named, warnings = icon_box_faces(tmp_path / "a", "move")
    quoted, _ = icon_box_faces(tmp_path / "b", "\"'move'\"")
    other, _ = icon_box_faces(tmp_path / "c", "attack")
    assert warnings == [] and named == quoted and named != other
    by_field, _ = icon_box_faces(tmp_path / "d", "move", "move: {type: icon, default: attack}")
    assert by_field == other


def test_an_unknown_icon_name_is_a_warning_with_the_nearest_names(tmp_path):
    _, warnings = icon_box_faces(tmp_path / "a", "atack")
    assert warnings == ["cards.yaml:2: a: Zed: front: box badge_icon: not drawn: unknown icon 'atack'; did you mean attack?"]


def test_a_word_meant_as_a_colour_says_what_a_colour_is(tmp_path):
    game = face_game(tmp_path / "faces", component("a", "{layout: ringed}"))
    (game / "layouts").mkdir()
    (game / "layouts" / "ringed.yaml").write_text(
        "extends: card\nboxes:\n  ring: {kind: circle, cx: 5, cy: 5, r: 2, fill: gren}\n")
    result = run("check", game)
    assert result.returncode == 2 and result.stderr.strip() == (
        f"{game / 'layouts' / 'ringed.yaml'}:3: boxes.ring.fill: 'gren' is no colour, field or let name; did you "
        f"mean green, grey? a colour is #RRGGBB or a palette name (ink, paper, space, grey, light, red, blue, green, "
        f"yellow, purple, white)")
