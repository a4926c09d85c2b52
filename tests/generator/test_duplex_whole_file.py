"""Print each game's whole file double-sided (long edge) and look at what lands behind every page.

Read from the pages' content only: a page of pieces places faces at actual size, a page of information
(contents, an assembly map) places none, a blank page says so and draws nothing else.
"""
from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from pypdf import PdfReader

from pdf_probe import Box, read_page
from starpnp.generator.build import BuildOptions
from starpnp.generator.sheets.imposition import Settings, impose_grid
from starpnp.generator.look.loader import find_game
from starpnp.generator.sheets.pdf import page_ranges
from starpnp.generator.look.scene import Scene
from starpnp_test_support import pdf_page_texts

GAMES = ["handful_of_stars", "starship_catan", "stars_inc", "stratastar"]
TOL = 0.05


@pytest.fixture(scope="module", params=[("a4", "full"), ("letter", "full"), ("a4", "low"), ("letter", "low")],
                ids=lambda p: "-".join(p))
def built(request, shared_builds):
    paper, ink = request.param
    options = BuildOptions(settings=Settings(paper=paper, ink=ink), formats=("pdf",))
    folders = {game: shared_builds.build(find_game(game), options).folder for game in GAMES}
    suffix = "-ink-low" if ink == "low" else ""
    files = {game: read_file(folders[game] / f"{game}-{paper}{suffix}.pdf") for game in GAMES}
    manifests = {game: json.loads((folders[game] / "manifest.json").read_text()) for game in GAMES}
    return files | {"size": Settings(paper=paper).size, "paper": paper, "manifests": manifests}


@dataclass
class Page:
    kind: str  # pieces | blank | info
    pieces: list[Box]  # bleed boxes of the faces placed at actual size
    text: str
    lines: list  # the page's own stroked lines: crop marks, tile corners, flap seams


def read_file(path: Path) -> list[Page]:
    reader = PdfReader(path)
    texts = pdf_page_texts(path)
    pages = []
    for index in range(len(reader.pages)):
        drawing = read_page(reader, index)
        text = " ".join(texts[index].split())
        if drawing.pieces:
            kind = "pieces"
        elif not drawing.forms and not drawing.lines and "intentionally blank" in text:
            assert len(text.split()) < 20, f"page {index + 1}: a blank page with more than a note on it"
            kind = "blank"
        else:
            assert text, f"page {index + 1} is empty but does not say it is blank"
            kind = "info"
        pages.append(Page(kind, drawing.pieces, text, drawing.lines))
    return pages


def behind(back: Box, fronts: list[Box], size: tuple[float, float], edge: str) -> bool:
    """After a flip on the long (side) or short (top) edge, `back` covers exactly one of the fronts."""
    x = size[0] - back.right if edge == "long" else back.x
    y = size[1] - back.bottom if edge == "short" else back.y
    return any(abs(x - f.x) < TOL and abs(y - f.y) < TOL and abs(back.w - f.w) < TOL
               and abs(back.h - f.h) < TOL for f in fronts)


def check_whole_file_duplex(pages: list[Page], size: tuple[float, float], edge: str, name: str) -> None:
    for i in range(0, len(pages) - 1, 2):  # the printer leaves an odd last page's back blank
        front, back = pages[i], pages[i + 1]
        where = f"{name} pages {i + 1}|{i + 2}"
        if back.kind == "pieces":
            assert front.kind == "pieces", f"{where}: pieces printed behind {front.kind}"
            assert all(behind(b, front.pieces, size, edge) for b in back.pieces), \
                f"{where}: a back is not behind a front"
            assert len(back.pieces) == len(front.pieces), f"{where}: some fronts have no back"
        elif front.kind == "pieces":
            assert back.kind == "blank", f"{where}: {back.kind} printed behind pieces"


@pytest.mark.parametrize("game", GAMES)
def test_whole_file_duplex_puts_only_its_own_backs_or_a_blank_behind_pieces(built, game):
    check_whole_file_duplex(built[game], built["size"], "long", game)


def test_whole_file_duplex_on_the_short_edge(mini_short):
    pages = read_file(mini_short["_out"] / mini_short["file"])
    assert {"pieces", "blank"} <= {page.kind for page in pages}
    check_whole_file_duplex(pages, Settings(paper="letter").size, "short", "mini")


@pytest.mark.parametrize("game", GAMES)
def test_page_one_lists_the_pages_to_print_one_sided_and_the_blanks_to_skip(built, game):
    pages = built[game]
    blanks = [n for n, page in enumerate(pages, 1) if page.kind == "blank"]
    printed = [n for n, page in enumerate(pages, 1) if page.kind != "blank"]
    text = pages[0].text
    assert f"print pages {page_ranges(printed)}" in text.replace("-", "–")
    if blanks:
        assert f"skip the blank pages ({page_ranges(blanks)})" in text.replace("-", "–")


@pytest.mark.parametrize("game", GAMES)
def test_each_sheet_of_pieces_says_what_is_on_its_back(built, game):
    pages = built[game]
    for page, content in enumerate(pages, 1):
        other = page + 1 if page % 2 else page - 1
        if content.kind != "pieces" or other > len(pages):
            continue
        said = re.search(r"Back: page (\d+), blank|Back: page (\d+), these pieces' backs|backs of page (\d+)",
                         content.text)
        assert said, f"{game} page {page}: the footer does not say what is on the back"
        assert int(next(g for g in said.groups() if g)) == other
        assert ("blank" in said[0]) == (pages[other - 1].kind == "blank")


def test_a_one_sided_sheet_of_pieces_is_followed_by_a_blank_page(built):
    """The rule above could pass on a file with no one-sided sheets; each game here has some."""
    for game in GAMES:
        assert "blank" in {page.kind for page in built[game]}, game


def test_fewer_sheets_nine_poker_cards_to_a_sheet(built):
    galaxy = next(c for c in built["manifests"]["stratastar"]["components"] if c["id"] == "galaxy_deck")
    pages = built["stratastar"]
    fronts = [n for n in galaxy["pages"] if n % 2]  # a front is on the face of a sheet, its backs behind
    assert len(fronts) <= 10
    assert sum(len(pages[n - 1].pieces) for n in fronts) >= galaxy["quantity"]
    sheets = sum(-(-len(built[game]) // 2) for game in GAMES)  # whole-file duplex: two pages to a sheet
    # 91 and 93 before blocks of any size shared sheets; 85 and 88 then; 89 and 91 with two cut icon keys
    # (issue #25) in each game; 85 and 88 again with one key printed on page 2, the back of the contents;
    # 87 on Letter once a run's last few cards may take the footer below and join another sheet; 82 and 84
    # once a board's tiles share pages with each other and with one-sided pieces.
    assert sheets <= (82 if built["paper"] == "a4" else 84)


def test_a_runs_last_few_cards_take_the_footer_below_so_they_can_share_a_sheet():
    """On Letter nine poker cards fit only beside a footer up the side; the two left over need not."""
    card = Scene(63, 88, 3.0, ())
    sheets = impose_grid([(card, card, "deck")] * 65, Settings(paper="letter"))  # 7 × 9 + 2 (8 × 8 + 1 turned)
    fronts = [s for s in sheets if s.role == "front"]
    assert [s.footer for s in fronts] == ["left"] * 7 + ["bottom"] and len(fronts[-1].placed) == 2
    assert [len(s.placed) for s in sheets if s.role == "back"] == [9] * 7 + [2]


@pytest.mark.parametrize("game", GAMES)
def test_the_icon_key_prints_once_on_page_2_to_read_there(built, game):
    """The key shares the back of page 1 with the assembly map (or has it to itself): an information page,
    no piece to cut out, so page 1 needs nothing behind it but information; page 1 says where it is."""
    key = next(c for c in built["manifests"][game]["components"] if c["id"] == "icon_key")
    assert key["pages"] == [2] and key["quantity"] == 1
    page = built[game][1]
    assert page.kind == "info" and "icon key" in page.text.lower()
    assert "Icon key: on the back of this page" in built[game][0].text
    assert re.search(r"Icon key( \(our edition\))? player aid 1 90 × 140 1 2\b", built[game][0].text)  # not a card


@pytest.mark.parametrize("game", GAMES)
def test_every_mark_stays_inside_the_margin(built, game):
    """Home printers print nothing in the outer 6 mm: no crop mark, tile corner or seam line may go there."""
    width, height = built["size"]
    margin = Settings().margin
    for number, page in enumerate(built[game], 1):
        for line in page.lines:
            for x, y in ((line.x1, line.y1), (line.x2, line.y2)):
                assert margin - TOL <= x <= width - margin + TOL and margin - TOL <= y <= height - margin + TOL, \
                    f"{game} page {number}: a line reaches ({x:.2f}, {y:.2f}), inside the {margin:g} mm margin"


@pytest.mark.parametrize("game", GAMES)
def test_every_cut_line_has_a_mark_at_both_ends(built, game):
    """Each trim line of a sheet of pieces is marked at both ends, inside the margin (the test above)."""
    bleed = built["manifests"][game]["bleed_mm"]
    width, height = built["size"]
    for number, page in enumerate(built[game], 1):
        # a board tile shows part of a board larger than the page: it is cut on its own corner marks
        trims = [box.inset(bleed) for box in page.pieces
                 if box.x >= 0 and box.y >= 0 and box.right <= width and box.bottom <= height]
        for x in {round(v, 2) for t in trims for v in (t.x, t.right)}:
            marks = [line for line in page.lines if line.vertical and abs(line.x1 - x) < TOL]
            assert len(marks) >= 2, f"{game} page {number}: the cut at x = {x} mm has {len(marks)} marks"
        for y in {round(v, 2) for t in trims for v in (t.y, t.bottom)}:
            marks = [line for line in page.lines if line.horizontal and abs(line.y1 - y) < TOL]
            assert len(marks) >= 2, f"{game} page {number}: the cut at y = {y} mm has {len(marks)} marks"


@pytest.mark.parametrize("game", GAMES)
def test_page_one_speaks_of_this_game_only(built, game):
    """No '(s)' plurals; round or hex pieces are named only when the game has them."""
    text = built[game][0].text
    shapes = {c["shape"] for c in built["manifests"][game]["components"]}
    assert "(s)" not in text
    for shape in ("round", "hex"):
        assert (f"{shape.capitalize()} pieces" in text or f"{shape} pieces" in text) == (shape in shapes)


OLD_METHOD = ("overlap", "tape")  # the way boards went together before: butting tiles repeated the overlap


@pytest.mark.parametrize("game", GAMES)
def test_boards_are_put_together_one_way_on_every_page(built, game):
    """Page 1 and the assembly maps tell one method (flaps glued under the neighbour), no other."""
    for page in built[game]:
        if page.kind != "pieces":
            assert not any(word in page.text.lower() for word in OLD_METHOD), page.text[:300]


# what page 1 must say once only: each names one step or tool
ONCE = (r"craft knife", r"assembly map", r"(thin|their) outline", r"glued? under", r"duplex")


@pytest.mark.parametrize("game", GAMES)
def test_page_one_says_each_step_once(built, game):
    """What to gather and how to print and make it name each tool and step once: no game note repeats the
    generic steps (Handful said how round pieces are cut and how its board goes together twice, Stars, Inc.
    listed the craft knife twice), and no two items share a run of five words."""
    text = " ".join(built[game][0].text.split("Contents")[0].split())
    for topic in ONCE:
        found = re.findall(topic, text, re.IGNORECASE)
        assert len(found) <= 1, f"{game}: page 1 says {topic!r} {len(found)} times"
    items = [item for item in re.split(r"(?:•|\b\d+\.) ", text)[1:] if item.strip()]
    assert len(items) >= 8
    runs = [{tuple(words[i:i + 5]) for i in range(len(words) - 4)}
            for words in ([w.strip(".,;:()").lower() for w in item.split()] for item in items)]
    for i, j in itertools.combinations(range(len(items)), 2):
        shared = runs[i] & runs[j]
        assert not shared, f"{game}: {items[i][:60]!r} and {items[j][:60]!r} both say {' '.join(min(shared))!r}"


@pytest.mark.parametrize("game", GAMES)
def test_page_one_speaks_to_players(built, game):
    """What to gather, how to print (re-feeding included), the contents; no command line or file name, which
    the manifest keeps for whoever builds the set."""
    text = built[game][0].text
    sheets = -(-len(built[game]) // 2)
    paper = {"a4": "A4", "letter": "Letter"}[built["paper"]]
    assert "What you need" in text and f"{sheets} sheets of {paper} paper" in text
    assert "How to print" in text and "Contents" in text
    assert "turn it over from left to right" in text and "top edge" in text  # re-feeding for the backs
    assert not re.search(r"--[a-z]|docs/|\.md\b|manifest\.json|starpnp", text), text
    build = built["manifests"][game]["build"]
    assert build["command"].startswith(f"starpnp build {game}")
    if game == "stars_inc":
        assert "glue" in text.lower() and "craft knife" in text.lower() and "planet ring" in text.lower()
