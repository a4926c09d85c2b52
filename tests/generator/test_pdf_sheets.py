"""Measure the written PDF: trim sizes, crop marks, mirrored backs, tiling, page boxes, fonts."""
from __future__ import annotations

import pytest
from pypdf import PdfReader

from pdf_probe import MM, fonts_of, read_page, render
from starpnp.generator.sheets.imposition import MARK_OFFSET

TOL = 0.05  # mm


def pdf_of(manifest: dict) -> PdfReader:
    return PdfReader(manifest["_out"] / manifest["file"])


def component(manifest: dict, cid: str) -> dict:
    return next(c for c in manifest["components"] if c["id"] == cid)


def sides(comp: dict) -> tuple[list[int], list[int]]:
    """Front and back page numbers: a double-sided run alternates front sheet, back sheet."""
    pages = comp["pages"]
    return (pages[0::2], pages[1::2]) if comp["double_sided"] else (pages, [])


def trims(reader: PdfReader, page: int, bleed: float):
    return [box.inset(bleed) for box in read_page(reader, page - 1).forms]


def own_trims(reader: PdfReader, page: int, comp: dict):
    """The trims on the page of the component's size (another component's block may share the sheet)."""
    want = sorted(comp["trim_mm"])
    return [t for t in trims(reader, page, comp["bleed_mm"]) if sorted((t.w, t.h)) == pytest.approx(want, abs=TOL)]


GRID_COMPONENTS = ["deck", "fleets", "mat"]


@pytest.mark.parametrize("cid", GRID_COMPONENTS)
def test_every_piece_is_cut_to_its_data_size(mini, cid):
    """Every piece on the component's sheets has the size of a component the manifest puts there (blocks of
    several sizes may share a sheet), and this component's pieces are all there."""
    reader, comp = pdf_of(mini), component(mini, cid)
    want = sorted(comp["trim_mm"])
    placed = 0
    for page in sides(comp)[0]:
        sizes = [sorted(c["trim_mm"]) for c in mini["components"] if page in c["pages"]]
        for trim in trims(reader, page, comp["bleed_mm"]):
            size = sorted((trim.w, trim.h))
            assert any(size == pytest.approx(other, abs=TOL) for other in sizes), f"page {page}: {size}"
            placed += size == pytest.approx(want, abs=TOL)
    assert placed == comp["quantity"]


@pytest.mark.parametrize("cid", ["deck", "fleets"])
def test_crop_marks_sit_on_trim_lines_outside_every_piece(mini, cid):
    reader, comp = pdf_of(mini), component(mini, cid)
    for page in comp["pages"]:
        drawing = read_page(reader, page - 1)
        bleed_boxes = drawing.forms
        trim_boxes = [b.inset(comp["bleed_mm"]) for b in bleed_boxes]
        xs = {round(v, 2) for t in trim_boxes for v in (t.x, t.right)}
        ys = {round(v, 2) for t in trim_boxes for v in (t.y, t.bottom)}
        marks = drawing.lines
        assert marks, f"page {page} has no crop marks"
        for m in marks:
            assert m.vertical or m.horizontal
            if m.vertical:
                assert min(abs(m.x1 - x) for x in xs) < TOL
            else:
                assert min(abs(m.y1 - y) for y in ys) < TOL
            for box in trim_boxes:  # a mark never enters a piece (it may run over the bleed, which is cut away)
                lo_x, hi_x = sorted((m.x1, m.x2))
                lo_y, hi_y = sorted((m.y1, m.y2))
                near = MARK_OFFSET - TOL
                overlaps = (lo_x < box.right + near and hi_x > box.x - near
                            and lo_y < box.bottom + near and hi_y > box.y - near)
                assert not overlaps, f"page {page}: mark {m} comes within {near} mm of a piece at {box}"
        marked_x = {round(m.x1, 2) for m in marks if m.vertical}
        marked_y = {round(m.y1, 2) for m in marks if m.horizontal}
        assert all(min(abs(x - mx) for mx in marked_x) < TOL for x in xs), "a vertical trim line has no mark"
        assert all(min(abs(y - my) for my in marked_y) < TOL for y in ys), "a horizontal trim line has no mark"


def test_neighbouring_cards_share_one_cut_and_the_bleed_stays_outside_the_block(mini, tmp_path):
    reader, comp = pdf_of(mini), component(mini, "deck")
    page = comp["pages"][0]
    cuts = own_trims(reader, page, comp)
    assert len(cuts) > 2
    xs = sorted({round(t.x, 1) for t in cuts} | {round(t.right, 1) for t in cuts})
    columns = len({round(t.x, 1) for t in cuts})
    assert len(xs) == columns + 1  # each inner cut is the right edge of one card and the left edge of the next
    # rendered, the block's outside edge carries the cards' frame colour into the bleed; between two cards
    # the cut line shows the next card's own edge, not a strip of bleed
    img = render(mini["_out"] / "mini-a4.pdf", page, tmp_path, dpi=100)
    left = min(t.x for t in cuts)
    top = min(t.y for t in cuts)
    inside = img.getpixel((round((left + 1) / 25.4 * 100), round((top + 20) / 25.4 * 100)))
    bleed = img.getpixel((round((left - 1.5) / 25.4 * 100), round((top + 20) / 25.4 * 100)))
    assert max(abs(a - b) for a, b in zip(inside, bleed)) < 30 and inside != (255, 255, 255)


def centres(reader, page, bleed):
    return sorted((round(t.center[0], 2), round(t.center[1], 2)) for t in trims(reader, page, bleed))


def same_points(found, expected) -> bool:
    return len(found) == len(expected) and all(
        abs(a[0] - b[0]) < TOL and abs(a[1] - b[1]) < TOL for a, b in zip(sorted(found), sorted(expected)))


@pytest.mark.parametrize("cid", ["deck", "fleets"])
def test_backs_mirror_fronts_for_a_long_edge_flip(mini, cid):
    reader, comp = pdf_of(mini), component(mini, cid)
    width = float(reader.pages[0].mediabox.width) / MM
    fronts, backs = sides(comp)
    assert len(fronts) == len(backs) >= 1
    for front, back in zip(fronts, backs):
        expected = sorted((round(width - x, 2), y) for x, y in centres(reader, front, comp["bleed_mm"]))
        assert same_points(centres(reader, back, comp["bleed_mm"]), expected)


def test_backs_mirror_fronts_for_a_short_edge_flip(mini_short):
    reader, comp = pdf_of(mini_short), component(mini_short, "deck")
    height = float(reader.pages[0].mediabox.height) / MM
    fronts, backs = sides(comp)
    for front, back in zip(fronts, backs):
        expected = sorted((x, round(height - y, 2)) for x, y in centres(reader, front, comp["bleed_mm"]))
        assert same_points(centres(reader, back, comp["bleed_mm"]), expected)


def test_letter_paper_is_letter_sized(mini_short):
    page = pdf_of(mini_short).pages[0]
    assert float(page.mediabox.width) / MM == pytest.approx(215.9, abs=TOL)
    assert float(page.mediabox.height) / MM == pytest.approx(279.4, abs=TOL)


def test_a_page_holding_one_piece_carries_trim_and_bleed_boxes(mini):
    reader, comp = pdf_of(mini), component(mini, "mat")
    w, h = comp["trim_mm"]
    b = comp["bleed_mm"]
    for page in comp["pages"]:
        pdf_page = reader.pages[page - 1]
        trim = [float(v) / MM for v in pdf_page["/TrimBox"]]
        bleed = [float(v) / MM for v in pdf_page["/BleedBox"]]
        assert (trim[2] - trim[0], trim[3] - trim[1]) == pytest.approx((w, h), abs=TOL)
        assert (bleed[2] - bleed[0], bleed[3] - bleed[1]) == pytest.approx((w + 2 * b, h + 2 * b), abs=TOL)
        placed = read_page(reader, page - 1).forms[0].inset(b)
        height = float(pdf_page.mediabox.height) / MM
        assert (trim[0], height - trim[3]) == pytest.approx((placed.x, placed.y), abs=TOL)
    deck_page = component(mini, "deck")["pages"][0]
    assert "/TrimBox" not in reader.pages[deck_page - 1]  # many pieces: no single trim box


def test_a_board_larger_than_the_paper_is_tiled_with_flaps_and_a_map(mini):
    reader, comp = pdf_of(mini), component(mini, "board")
    pages = comp["pages"]
    # an assembly map and 2 × 2 tiles for a 300 mm board on A4: the short row's two tiles share a page
    assert len(pages) == 4
    assert "assembly" in reader.pages[pages[0] - 1].extract_text().lower()
    windows = []
    for page in pages[1:]:
        drawing = read_page(reader, page - 1)
        for placed, window in zip(drawing.forms, drawing.clips):  # each tile's board shows through its window
            # the window is cut on corner marks along its edges
            xs = {round(m.x1, 2) for m in drawing.lines if m.vertical}
            ys = {round(m.y1, 2) for m in drawing.lines if m.horizontal}
            assert {round(window.x, 2), round(window.right, 2)} <= xs
            assert {round(window.y, 2), round(window.bottom, 2)} <= ys
            # window edges in board coordinates: page position minus where the board's corner landed
            windows.append((window.x - placed.x, window.right - placed.x, window.y - placed.y,
                            window.bottom - placed.y))
    assert len(windows) == 4
    windows.sort(key=lambda w: (round(w[2]), w[0]))  # board order: A1, A2, B1, B2
    left, right = windows[0], windows[1]
    top, bottom = windows[0], windows[2]
    assert left[1] - right[0] >= 10 - TOL  # the right tile's flap goes under the left one
    assert top[3] - bottom[2] >= 10 - TOL  # the lower tile's flap goes under the upper one
    # together the windows cover the whole board, bleed included
    outer = comp["trim_mm"][0] + 2 * comp["bleed_mm"]
    assert min(w[0] for w in windows) <= TOL and max(w[1] for w in windows) >= outer - TOL


def test_every_font_is_embedded_as_a_subset(mini):
    fonts = fonts_of(pdf_of(mini))
    assert fonts
    for font in fonts:
        assert "+" in font["/BaseFont"], f"{font['/BaseFont']} is not a subset"
        descriptor = font["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor, f"{font['/BaseFont']} is not embedded"


@pytest.mark.parametrize("build", ["mini", "mini_short", "mini_one_sided"])
def test_every_sheet_has_a_footer_numbering_sheets_of_paper(build, request):
    """"sheet 3 of 8" counts sheets of paper: two pages to a sheet printed double-sided, one without."""
    manifest = request.getfixturevalue(build)
    reader = pdf_of(manifest)
    pages = len(reader.pages)
    per_sheet = 1 if manifest["duplex"] == "off" else 2
    numbered = 0
    for index, page in enumerate(reader.pages):
        text = " ".join(page.extract_text().split())
        if "intentionally blank" in text or index == 0:
            continue
        assert "Mini Test Game" in text and "100%" in text
        assert f"sheet {index // per_sheet + 1} of {-(-pages // per_sheet)}" in text, f"page {index + 1}: {text[:200]}"
        numbered += 1
    assert numbered >= 4


def test_contents_page_lists_every_component_with_its_pages(mini):
    text = pdf_of(mini).pages[0].extract_text()
    for comp in mini["components"]:
        assert comp["name"] in text
    deck = component(mini, "deck")["pages"]
    assert f"{deck[0]}–{deck[-1]}" in text and deck == list(range(deck[0], deck[-1] + 1))


def test_each_back_lands_behind_its_own_front(mini, tmp_path):
    """Per-colour chits: after a long-edge flip, the red back must sit behind the red front."""
    reader, comp = pdf_of(mini), component(mini, "fleets")
    pdf_path = mini["_out"] / "mini-a4.pdf"
    dpi = 40
    front_page, back_page = comp["pages"][:2]
    front_img, back_img = render(pdf_path, front_page, tmp_path, dpi), render(pdf_path, back_page, tmp_path, dpi)
    width = float(reader.pages[0].mediabox.width) / MM

    def colour(img, box):
        """The piece's dominant colour: the most frequent pixel inside its trim box."""
        left, top, right, bottom = (round(v / 25.4 * dpi) for v in box)
        return max(img.crop((left, top, right, bottom)).getcolors(4096))[1]

    seen = set()
    for trim in own_trims(reader, front_page, comp):
        front = colour(front_img, (trim.x, trim.y, trim.right, trim.bottom))
        back = colour(back_img, (width - trim.right, trim.y, width - trim.x, trim.bottom))
        assert max(abs(a - b) for a, b in zip(front, back)) < 40, f"front {front} but back {back} at {trim}"
        seen.add(front)
    assert len(seen) == 2  # both player colours were on the sheet


def test_a_face_placed_many_times_is_one_form_and_a_face_placed_once_is_drawn_in_place(mini):
    """Attack (3 copies) and Move (2) are forms placed by reference; Mystery (1 copy) costs no form object."""
    from pypdf.generic import ContentStream

    reader, comp = pdf_of(mini), component(mini, "deck")
    page = reader.pages[sides(comp)[0][0] - 1]
    operations = ContentStream(page.get_contents(), reader).operations
    placed_forms = [operands[0] for operands, op in operations if op == b"Do"]
    in_place = [operands[0] for operands, op in operations if op == b"BMC"]
    # Attack 3 and Move 2; the six Fleets that share the sheet are 3 red and 3 blue
    assert sorted(placed_forms.count(name) for name in set(placed_forms)) == [2, 3, 3, 3]
    assert in_place == ["/Piece"]
    assert len(own_trims(reader, sides(comp)[0][0], comp)) == 6
