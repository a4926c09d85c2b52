"""The overlap check (generator.look.overlaps) on small scenes whose answer is plain to see, and `starpnp check`
naming the face and the two boxes of a designer's game where a text runs over a line."""
from __future__ import annotations

import shutil

from starpnp.generator.look.overlaps import overlaps
from starpnp.generator.look.scene import (Circle, Group, Hatching, Line, Rect, RichText, Scene, Style, Text,
                                          TextLine)

from starpnp_test_support import MINI
from cli_runner import run

INK = Style(stroke="#000000", stroke_width=0.4)


def face(*elements) -> Scene:
    return Scene(60, 40, 0, elements, label="Test: piece, front")


def words(text: str, x: float = 10, y: float = 20, align: str = "left", size: float = 10) -> Text:
    return Text((TextLine(x, y, text),), "Lato-Regular", size, "#000000", align)


def test_a_line_struck_through_a_word_is_found_and_one_just_below_its_baseline_is_not():
    assert overlaps(face(words("Boosters"), Line(5, 18, 50, 18, INK))) == \
        ['"Boosters" runs into a line from (5.0, 18.0) mm to (50.0, 18.0) mm']
    assert overlaps(face(words("Boosters"), Line(5, 20.6, 50, 20.6, INK))) == []


def test_a_descender_reaches_below_the_baseline_only_where_it_is():
    under_p = Line(10.5, 20.4, 12, 20.4, INK)  # across the "p" of "pond", below its baseline
    under_d = Line(17, 20.4, 19, 20.4, INK)  # as low, under its "d"
    assert overlaps(face(words("pond"), under_p)) and not overlaps(face(words("pond"), under_d))


def test_a_label_on_its_own_badge_is_meant_and_a_box_edge_through_it_is_not():
    badge = Rect(5, 12, 40, 12, Style(fill="#FFD54F", stroke="#000000"))
    assert overlaps(face(badge, words("On its badge"))) == []
    half = Rect(5, 18.5, 40, 12, Style(fill="#FFD54F"))  # the box's top edge runs through the words
    assert overlaps(face(half, words("Half on"))) == ['"Half on" runs into a box at (5.0, 18.5) mm']
    assert overlaps(face(Circle(14, 17, 6, Style(stroke="#000000")), words("He", x=14, align="center"))) == []


def test_what_a_badge_hides_under_its_letter_does_not_count_and_what_is_drawn_over_it_does():
    lane = Line(0, 17, 60, 17, Style(stroke="#7986CB", stroke_width=1.5))
    badge = Circle(12, 17, 3, Style(fill="#FFFFFF"))
    letter = words("B", x=12, align="center", y=19)
    assert overlaps(face(lane, badge, letter)) == []
    assert len(overlaps(face(badge, letter, lane))) == 1


def test_two_texts_on_one_another_are_found_once_and_a_text_turned_a_quarter_as_exactly_as_upright():
    assert overlaps(face(words("Set-up: sector cards"), words("Friend card", x=20, y=22))) == \
        ['"Set-up: sector cards" runs into "Friend card"']
    turned = Group((words("Hangar", x=0, y=0),), dx=30, dy=5, rotate=90)  # reads downwards from (30, 5)
    assert overlaps(face(turned, Line(25, 10, 40, 10, INK)))  # across it
    assert not overlaps(face(turned, Line(20, 10, 26, 10, INK)))  # stops short of its ink


def test_hatching_and_a_rich_text_s_own_icons_are_not_counted():
    hatching = Hatching((Line(0, 0, 60, 40, INK),), clip=Rect(0, 0, 60, 40, Style(fill="#FFFFFF")))
    assert overlaps(face(hatching, words("On a hatched ground", y=14))) == []
    icon = Group((Circle(2, -1.2, 1.5, Style(fill="#000000")),), dx=30, dy=20)
    assert overlaps(face(RichText((words("Pay"), icon)))) == []


def test_check_names_the_face_and_the_two_boxes(tmp_path):
    game = tmp_path / "mini"
    shutil.copytree(MINI, game)
    layout = game / "layouts" / "starred_card.yaml"  # the deck's fronts: a rule through their titles
    layout.write_text(layout.read_text() + '  strike: {kind: line, x1: 0, y1: 9, x2: w, y2: 9, stroke: "#000000"}\n')
    result = run("check", game)
    assert result.returncode == 0, result.stderr
    assert 'warning: Deck: Attack, front: "Attack" runs into a line from (0.0, 9.0) mm to (63.0, 9.0) mm ' \
           "(full and low ink)" in result.stdout, result.stdout
    assert "Deck: Attack, back" not in result.stdout
