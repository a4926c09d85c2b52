"""Layout files: a field may be one type or another, and expressions look entries up by a key and measure
lengths and angles, as a star map of lanes between systems named by id needs (measured in the PDF)."""
from __future__ import annotations

from pathlib import Path

import pdfplumber

from cli_runner import run

MM = 72 / 25.4
MAP = """\
fields:
  tags: {type: list of text or unspecified, default: []}
  systems:
    type: list
    default: []
    items: {id: {type: text, required: true}, x: {type: number, required: true}, y: {type: number, required: true}}
  lanes:
    type: list
    default: []
    items: {a: {type: text, required: true}, b: {type: text, required: true}}
let:
  ids: column(systems, 'id')
boxes:
  tags: {kind: text, repeat: tags, when: not unspecified(tags), text: "#{item}", x: 2, y: 2 + index * 5, w: 30, h: 5}
  blank: {kind: write_in, when: unspecified(tags), label: tags, x: 2, y: 2, w: 40, h: 10}
  lane:
    kind: group
    repeat: lanes
    let:
      one: systems[position(ids, item.a)]
      two: systems[position(ids, item.b)]
    boxes:
      line: {kind: line, x1: one.x, y1: one.y, x2: two.x, y2: two.y, stroke: "#000000", stroke_width: 0.5}
      says: {kind: text, text: "{item.a}{item.b} {hypot(two.x - one.x, two.y - one.y):g} mm at {round(atan2(one.y - two.y, two.x - one.x))} deg",
             x: 5, y: 70 + index * 6, w: 55, h: 5, size: 7}
"""


def map_game(folder: Path, front: str) -> Path:
    folder.mkdir()
    (folder / "game.yaml").write_text("id: maps\nname: Maps\nplayers: {min: 1, max: 2}\ncolors: [red]\n")
    (folder / "layouts").mkdir()
    (folder / "layouts" / "star_map.yaml").write_text(MAP)
    (folder / "maps.yaml").write_text("components:\n  - {id: map, name: Map, kind: card, size: tarot, front: "
                                      f"{{layout: star_map, {front}}}, items: [{{count: 1}}]}}\n")
    return folder


def build(tmp_path: Path, front: str):
    tmp_path.mkdir(exist_ok=True)
    game = map_game(tmp_path / "maps", front)
    result = run("build", game, "--out", tmp_path / "out", "--format", "pdf-single")
    if result.returncode:
        return result, None
    with pdfplumber.open(tmp_path / "out" / "maps" / "maps-faces.pdf") as pdf:
        page = pdf.pages[0]
        return result, (page.extract_text(), [((l["x0"] / MM, l["top"] / MM), (l["x1"] / MM, l["bottom"] / MM))
                                               for l in page.lines if round(l["linewidth"] / MM, 2) == 0.5])


SYSTEMS = "systems: [{id: A, x: 10, y: 40}, {id: B, x: 40, y: 80}, {id: C, x: 50, y: 40}]"


def test_lanes_look_their_systems_up_by_id_and_measure_length_and_angle(tmp_path):
    result, (text, lines) = build(tmp_path, SYSTEMS + ", lanes: [{a: A, b: B}, {a: C, b: A}]")
    assert result.returncode == 0, result.stderr
    assert "AB 50 mm at -53 deg" in text and "CA 40 mm at 180 deg" in text
    assert len(lines) == 2
    ab, ca = sorted(lines, key=lambda line: line[1][1] - line[0][1], reverse=True)
    offset = ab[0][0] - 10  # the page places the card somewhere: the lane A-B fixes where
    assert [round(v - offset, 1) for v in (ab[0][0], ab[1][0], ca[0][0], ca[1][0])] == [10, 40, 10, 50]
    assert round(ab[1][1] - ab[0][1], 1) == 40 and round(ca[1][1] - ca[0][1], 1) == 0


def test_a_lane_to_an_unknown_system_is_a_warning_naming_the_box_and_the_id(tmp_path):
    result, _ = build(tmp_path, SYSTEMS + ", lanes: [{a: A, b: Q}, {a: A, b: C}]")
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert "front: box lane: not drawn: let two: 'Q' is not in list" in result.stdout


def test_a_field_of_either_type_takes_a_list_or_unspecified_and_nothing_else(tmp_path):
    listed, (text, _) = build(tmp_path / "a", "tags: [Action, Reserve]")
    assert listed.returncode == 0 and "#Action" in text and "#Reserve" in text
    blank, (text, _) = build(tmp_path / "b", "tags: unspecified")
    assert blank.returncode == 0 and "write in: tags" in text and "#" not in text
    wrong, _ = build(tmp_path / "c", "tags: 3")
    assert wrong.returncode == 2 and "Traceback" not in wrong.stderr
    assert "front.tags" in wrong.stderr and "maps.yaml" in wrong.stderr
