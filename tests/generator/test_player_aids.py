"""Player aids print on the page after the contents at actual size, beside an assembly map that shrinks for
them, or on a page of their own; an aid that fits on neither is printed as a piece."""
from __future__ import annotations

import pytest

from starpnp.generator.sheets.imposition import (MAP_LEAST, Settings, content_area, footer_band, impose, lay_aids,
                                          map_area, paginate)
from starpnp.generator.sheets.pdf import PdfDocument, PrintGuide
from starpnp.generator.look.scene import Scene

TOL = 1e-6


def overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] - TOL and b[0] < a[0] + a[2] - TOL and a[1] < b[1] + b[3] - TOL \
        and b[1] < a[1] + a[3] - TOL


def inside(a, area) -> bool:
    return area[0] - TOL <= a[0] and a[0] + a[2] <= area[0] + area[2] + TOL and area[1] - TOL <= a[1] \
        and a[1] + a[3] <= area[1] + area[3] + TOL


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("board", [(566, 546), (230, 306), (463, 463)])
def test_an_aid_beside_a_map_keeps_its_size_and_the_map_at_least_half_its_own(paper, board):
    settings = Settings(paper=paper)
    area = map_area(settings)
    key = Scene(90, 140, 3.0, ())
    picture, (aid,) = lay_aids([(key, "key")], area, board)
    trim = aid.clip
    assert sorted(trim[2:]) == [90, 140]  # actual size, no bleed shown: it is read, not cut
    assert aid.trim_box == pytest.approx(trim)
    assert inside(trim, area) and inside(picture, area) and not overlap(trim, picture)
    assert not overlap(trim, footer_band("bottom", settings))
    alone = min(area[2] / board[0], area[3] / board[1])
    assert picture[2] / board[0] == pytest.approx(picture[3] / board[1])  # not stretched
    assert picture[2] / board[0] >= MAP_LEAST * alone


def test_aids_too_large_for_a_map_page_take_a_page_of_their_own_and_then_none():
    settings = Settings()
    two = [(Scene(90, 140, 3.0, ()), "key")] * 2
    assert lay_aids(two, map_area(settings), (566, 546)) is None  # the map would shrink below half
    _, placed = lay_aids(two, content_area(settings))
    assert len(placed) == 2 and not overlap(placed[0].clip, placed[1].clip)
    assert lay_aids([(Scene(200, 280, 3.0, ()), "poster")], content_area(settings)) is None


def test_the_aid_page_backs_the_contents_and_an_aid_that_fits_nowhere_is_cut_out():
    settings = Settings()
    key, card = Scene(90, 140, 3.0, ()), Scene(63, 88, 3.0, ())
    sheets = paginate(impose([[(card, card, "deck")]], settings, [(key, "key")]), 1, "long")
    assert [s.role for s in sheets[:3]] == ["aid", "front", "back"]  # page 2: where the blank was
    assert sheets[0].page == 2 and sheets[0].components == ["key"] and not sheets[0].placed
    poster = Scene(200, 200, 3.0, ())  # wider than the printable page: tiled, as any piece that size
    sheets = impose([[(card, card, "deck")]], settings, [(poster, "poster")])
    assert "aid" not in [s.role for s in sheets] and "poster" in {c for s in sheets for c in s.components}


def test_page_one_says_where_the_aid_is_read(tmp_path):
    doc = PdfDocument(str(tmp_path / "aid.pdf"), Settings(), "A game", {})
    for duplex, said in (("long", "on the back of this page"), ("off", "on page 2: keep that sheet")):
        steps = doc.print_steps(PrintGuide(duplex, "1–2", "", False, aids=[("Icon key", 2)]))
        assert any(step.startswith(f"Icon key: {said}") for step in steps), (duplex, steps)
