"""--ink low keeps meaning: pieces of one component that differ in the rich look still differ in grey.

Each component's faces are rendered at 150 dpi, rich in colour and low-ink in grey. Two faces that differ
in the rich look (a colour, an icon, a number) must differ visibly in the low-ink grey too: by 1.2 mm² of
strong change (a bold 2 mm glyph), or, where the rich look itself differs only by a smaller mark, by a third
of what the colour showed. A printer in black and white, or a player who cannot tell red from green, must
still tell them apart.
"""
from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass, replace

import pytest
from PIL import Image, ImageChops, ImageFilter

from starpnp.generator.exports.face_files import render_faces
from starpnp.generator.look import fonts
from starpnp.generator.look.render import faces
from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.look.render import SceneCache
from starpnp.generator.data.palette import PLAYER_COLORS
from starpnp.generator.look.ink import (BADGE_SHARE, HATCH_WIDTH, IDENTITY, LARGE, Printed, apply, area, flatten,
                                        group_matrix, hex_of, is_fill, line_grounds, line_points, outline,
                                        outline_grounds, rgb, shape_grounds, then)
from starpnp.generator.look.layouts.base import contrast_ratio
from starpnp.generator.look.scene import Circle, Group, Hatching, Line, Path, Polygon, Rect, Text

GAMES = ["handful_of_stars", "starship_catan", "stars_inc", "stratastar"]
DPI = 150
PIXEL_MM2 = (25.4 / DPI) ** 2
VISIBLE_MM2 = 1.2  # about a bold 2 mm glyph's worth of changed ink
STRONG = 64  # of 255 grey levels: a change a reader sees at a glance


def pictures(scenes: list, mode: str) -> list[Image.Image]:
    """Each scene rendered at DPI in `mode` (the lot written as one PDF)."""
    return [image.convert(mode) for image in render_faces(scenes, DPI)]


def changed_mm2(a: Image.Image, b: Image.Image, least: int) -> float:
    """How much of the face changes by more than `least` in any channel (rich) or in grey (low)."""
    difference = ImageChops.difference(a, b)
    if difference.mode == "RGB":  # the largest change of the three channels
        red, green, blue = difference.split()
        difference = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    return sum(difference.histogram()[least + 1:]) * PIXEL_MM2


@pytest.mark.parametrize("game", GAMES)
def test_pieces_with_different_roles_differ_in_low_ink_grey(game):
    folder = find_game(game)
    loaded = load_game(folder)
    rich, low = faces(loaded, SceneCache(3.0, folder)), faces(loaded, SceneCache(3.0, folder, ink="low"))
    sides: dict[tuple[str, str], list] = {}
    for a, b in zip(rich, low):
        for side in ("front", "back"):
            if getattr(a, side) is not None:
                sides.setdefault((a.component, side), []).append((a.stem, getattr(a, side), getattr(b, side)))
    alike = []
    compared = 0
    for (component, side), entries in sides.items():
        coloured = pictures([scene for _, scene, _ in entries], "RGB")
        grey = pictures([scene for _, _, scene in entries], "L")
        for i, j in itertools.combinations(range(len(entries)), 2):
            if coloured[i].size != coloured[j].size:
                continue
            in_colour = changed_mm2(coloured[i], coloured[j], 24)
            if in_colour < 0.5:  # the same role: alike in the rich look too (an option's unused star)
                continue
            compared += 1
            in_grey = changed_mm2(grey[i], grey[j], STRONG)
            if in_grey < min(VISIBLE_MM2, in_colour / 3):
                alike.append(f"{component} {side}: {entries[i][0]} and {entries[j][0]} differ by "
                             f"{in_grey:.2f} mm² in low-ink grey ({in_colour:.2f} mm² in colour)")
    assert compared > 10
    assert not alike, "\n".join(alike)


# -- player pieces in low ink: dark marks, told apart in grey ------------------------------------------------

SMALL_PIECES = ("chit", "token", "marker", "tile", "standee", "die")  # pieces, not cards, boards or aids


def contains(shape, m, x: float, y: float) -> bool:
    """The clip shape, placed by m, holds the point (tested as ink's Printed tests a filled shape)."""
    from dataclasses import replace

    from starpnp.generator.look.ink import Printed
    from starpnp.generator.look.scene import Style

    return Printed([(replace(shape, style=Style(fill="#000000")), m)]).at(x, y) == "#000000"


def drawn(elements, m=IDENTITY, clips=()):
    """(element, matrix, clips) in drawing order, through groups, with the clip shapes around each element;
    an icon (a scaled group) comes as one entry (the group itself) before its parts."""
    for e in elements:
        if isinstance(e, Group):
            inner = then(m, group_matrix(e))
            inner_clips = clips + (((e.clip, inner),) if e.clip is not None else ())
            if e.scale != 1:
                yield e, m, clips
            yield from drawn(e.children, inner, inner_clips)
        else:
            yield e, m, clips


def grounds_at(points, fills: Printed, lines, shapes) -> set[str]:
    """What is printed under these points: the fills drawn before, and any line drawn before (hatching) that
    crosses their box where its clip shows it and no later fill covers it."""
    grounds = fills.grounds(points)
    xs, ys = [x for x, _ in points], [y for _, y in points]
    box = (min(xs), min(ys), max(xs), max(ys))
    middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    for (x1, y1, x2, y2), color, clips, order in lines:
        if crosses((x1, y1, x2, y2), box) and all(contains(s, cm, *middle) for s, cm in clips) \
                and not any(later > order and contains(s, sm, *middle) for later, s, sm in shapes):
            grounds.add(color)
    return grounds


def crosses(segment, box) -> bool:
    """A straight segment passes through the box (sampled finely: hatching lines are long and thin apart)."""
    x1, y1, x2, y2 = segment
    steps = max(2, int(math.hypot(x2 - x1, y2 - y1) / 0.2))
    return any(box[0] <= x1 + (x2 - x1) * t / steps <= box[2] and box[1] <= y1 + (y2 - y1) * t / steps <= box[3]
               for t in range(steps + 1))


def icon_color(icon: Group, m) -> str | None:
    """An icon's main ink: its largest filled part, or its first stroke when it has no fill."""
    parts = list(flatten(icon.children, then(m, group_matrix(icon))))
    filled = [(area(e, pm), e.style.fill) for e, pm in parts if is_fill(e) and e.style.opacity >= 1]
    if filled:
        return max(filled)[1]
    return next((e.style.stroke for e, _ in parts if getattr(e, "style", None) is not None and e.style.stroke), None)


def player_faces(game: str):
    folder = find_game(game)
    loaded = load_game(folder)
    cache = SceneCache(3.0, folder, ink="low")
    for comp in loaded.components:
        for piece in comp.pieces:
            if piece.color in PLAYER_COLORS:
                for side in ("front", "back") if piece.back else ("front",):
                    yield comp, piece, side, cache.face(comp, piece, side)


def dark_marks_problems(scene, where: str) -> list[str]:
    problems = []
    fills, lines, shapes = Printed(), [], []
    for order, (e, m, clips) in enumerate(drawn(scene.elements)):
        if isinstance(e, Group):  # an icon: its main ink against what it stands on
            color = icon_color(e, m)
            size = 100 * e.scale
            points = [apply(then(m, group_matrix(e)), 100 * fx, 100 * fy)
                      for fx, fy in ((0.5, 0.5), (0.2, 0.2), (0.8, 0.2), (0.2, 0.8), (0.8, 0.8))]
            grounds = grounds_at(points, fills, lines, shapes)
            if color and size > 1.0 and min(contrast_ratio(color, g) for g in grounds) < DARK:
                problems.append(f"{where}: an icon in {color} on {sorted(grounds)}")
        elif isinstance(e, Text) and e.lines:
            points = [p for line in e.lines for p in line_points(e, line, m)]
            grounds = grounds_at(points, fills, lines, shapes)
            if min(contrast_ratio(e.color, g) for g in grounds) < DARK:
                problems.append(f"{where}: {e.lines[0].text!r} in {e.color} on {sorted(grounds)}")
            if e.size * math.sqrt(abs(m[0] * m[3] - m[1] * m[2])) < LEAST_PT - 1e-6:
                problems.append(f"{where}: {e.lines[0].text!r} at {e.size:g} pt")
        elif isinstance(e, Line) and e.style.stroke:
            lines.append(((*apply(m, e.x1, e.y1), *apply(m, e.x2, e.y2)), e.style.stroke, clips, order))
        elif is_fill(e):
            fills.add(e, m)
            if area(e, m) > 4:  # large enough to hide the hatching under a mark
                shapes.append((order, e, m))
    return problems


DARK = 4.5  # WCAG AA: icons, labels and marks on player pieces against their ground, in grey
LABEL = 5.0  # labels in low ink: 4.5 and a margin for a glyph's thin strokes (ink.MARK_CONTRAST)
LEAST_PT = 7.0  # the smallest text on a piece printed in low ink


@pytest.mark.parametrize("game", GAMES)
def test_player_pieces_keep_dark_icons_and_labels_in_low_ink(game):
    """Every player piece of every colour (chits, tokens, tiles, standees: what players tell apart on the table),
    as --ink low prints it: each label and each icon reads at 4.5:1 or more in grey against the paper, tint or
    hatching it stands on, and no text on a piece is under 7 pt."""
    problems, checked, colours = [], 0, set()
    for comp, piece, side, scene in player_faces(game):
        if comp.spec.kind not in SMALL_PIECES:  # cards and boards: read in hand or on the table, not told apart
            continue
        where = f"{comp.spec.id} {piece.name} {piece.color} {side}"
        problems += dark_marks_problems(scene, where)
        checked += 1
        colours.add(piece.color)
    assert checked >= 4 and len(colours) >= 2
    assert not problems, "\n".join(problems[:30])


@pytest.mark.parametrize("game", GAMES)
def test_player_pieces_differ_in_grey_by_more_than_a_mark(game):
    """Two pieces alike but for the player colour (chits, tokens, tiles, standees) differ in low-ink grey by a
    second cue, not only by a small shape: a pattern spread over the face (at least SECOND_CUE of it changes
    strongly) or the player's name or letter printed on both."""
    by_piece: dict[tuple, list] = {}
    for comp, piece, side, scene in player_faces(game):
        if comp.spec.kind in SMALL_PIECES:  # on the table, where players tell their pieces apart
            by_piece.setdefault((comp.spec.id, piece.name, side), []).append((piece.color, scene))
    alike, compared = [], 0
    for (component, name, side), entries in by_piece.items():
        if (game, component, name) in SAME_FOR_EVERY_PLAYER:
            continue
        grey = [(colour, image, scene) for (colour, scene), image in
                zip(entries, pictures([scene for _, scene in entries], "L"))]
        for (ca, a, scene), (cb, b, other) in itertools.combinations(grey, 2):
            if ca == cb or a.size != b.size:
                continue
            compared += 1
            face = scene.outer_width * scene.outer_height
            changed = changed_mm2(a, b, STRONG)
            if not (names_its_player(scene, ca) and names_its_player(other, cb)) and changed < SECOND_CUE * face:
                alike.append(f"{component} {name} {side}: {ca} and {cb} differ over {changed:.1f} mm² of "
                             f"{face:.0f} in grey")
    assert compared > 3
    assert not alike, "\n".join(alike)


SECOND_CUE = 0.03  # of the face: a 3 mm mark on a 44 × 63 mm module is under 1 %
# Pieces the rulebook gives every player alike, in one colour: not told apart by a player colour at all.
SAME_FOR_EVERY_PLAYER = {
    ("starship_catan", "resource_arrows", "Pink resource arrow"),  # "6 per player, 1 of them pink"
}


def names_its_player(scene, colour: str) -> bool:
    """The piece prints its player's name (or letter) as a word of its own: a cue no grey can hide."""
    player = PLAYER_COLORS[colour]
    words = {w for line, _ in printed_lines(scene.elements) for w in line.replace("·", " ").split()}
    return player.name in words or player.letter in words


def printed_lines(elements, scale=1.0):
    for e in elements:
        if isinstance(e, Group):
            yield from printed_lines(e.children, scale * e.scale)
        elif isinstance(e, Text):
            for line in e.lines:
                yield line.text, e.size * scale


def test_habitable_and_uninhabitable_system_tiles_differ_by_their_rims_in_grey():
    """The rulebook tells the two kinds of system tile apart by the rim's colour: in low-ink grey the rims
    still differ, by their grey or by their line."""
    folder = find_game("handful_of_stars")
    loaded = load_game(folder)
    cache = SceneCache(3.0, folder, ink="low")

    def rim(component: str):
        comp = next(c for c in loaded.components if c.spec.id == component)
        scene = cache.face(comp, comp.pieces[0], "front")
        rings = [(e.r * math.hypot(m[0], m[1]), e.style) for e, m in flatten(scene.elements)
                 if isinstance(e, Circle) and e.style.stroke and not e.style.fill and e.style.stroke_width > 1]
        return max(rings, key=lambda ring: ring[0])[1]

    habitable, uninhabitable = rim("habitable_tiles"), rim("uninhabitable_tiles")
    assert contrast_ratio(habitable.stroke, uninhabitable.stroke) >= 1.5 or habitable.dash != uninhabitable.dash


# -- the same, measured on the rendered pixels ------------------------------------------------------------------

INK_MM2 = 0.1  # a few pixels of a 7 pt glyph's stroke: what a mark must print at 4.5:1, not one stray pixel
MARKS_DPI = 300  # a 0.25 mm line covers whole pixels here; at 150 dpi every pixel of it is part paper
MARK_PIXEL_MM2 = (25.4 / MARKS_DPI) ** 2


def grey_contrast(a: int, b: int) -> float:
    return contrast_ratio(f"#{a:02x}{a:02x}{a:02x}", f"#{b:02x}{b:02x}{b:02x}")


@functools.cache
def by_contrast(ground: int) -> list[int]:
    """The 256 greys, the one that stands out most on `ground` first."""
    return sorted(range(256), key=lambda g: -grey_contrast(g, ground))


def marks_of(scene) -> list[tuple[object, str, tuple[int, int, int, int]]]:
    """Every mark of the face, with what names it and its box in pixels at DPI (x0, y0, x1, y1), the face's
    bleed included: each label line's text, each icon (larger than 1 mm) as one mark and each of its inner
    details (see icon_details), each line or outline (a ring, a rim, a track's line) and each small filled
    shape (a symbol, a disc) drawn outside icons. Not marks: the large fills (grounds and tints, under LARGE
    mm²) and the hatching that stands for a ground's colour in low ink (a ground, thin and light by design),
    and anything half transparent."""
    px = MARKS_DPI / 25.4

    def box(corners):
        xs, ys = [(x + scene.bleed) * px for x, _ in corners], [(y + scene.bleed) * px for _, y in corners]
        return (max(0, math.floor(min(xs))), max(0, math.floor(min(ys))), math.ceil(max(xs)), math.ceil(max(ys)))

    marks = []
    for e, m, hatching in mark_elements(scene.elements):
        if isinstance(e, Group):
            inner = then(m, group_matrix(e))
            marks.append((e, f"an icon (main ink {icon_color(e, m)})",
                          box([apply(inner, x, y) for x in (0, 100) for y in (0, 100)])))
        elif isinstance(e, IconDetail):
            inks = ", ".join(f"{how} {c}" for how, c in (("filled", e.part.style.fill), ("lined", e.part.style.stroke))
                             if c)
            marks.append((e.part, f"an icon's {type(e.part).__name__.lower()} {inks} on {e.on}",
                          box(shape_corners(e.part, e.m))))
        elif isinstance(e, Text) and e.lines:
            corners = []
            for line in e.lines:
                width = fonts.text_width_mm(line.text, e.font, e.size)
                left = line.x - {"left": 0.0, "center": 0.5, "right": 1.0}[e.align] * width
                top, bottom = line.y - fonts.ascent_mm(e.font, e.size), line.y + fonts.descent_mm(e.font, e.size)
                corners += [apply(m, x, y) for x in (left, left + width) for y in (top, bottom)]
            marks.append((e, repr(e.lines[0].text), box(corners)))
        elif hatching or not isinstance(e, (Line, Rect, Circle, Polygon, Path)) or e.style.opacity < 1:
            continue  # low ink's hatching, art, and what is half transparent
        elif not is_fill(e) or area(e, m) < LARGE:  # a line or outline, or a small shape
            inks = ", ".join(f"{how} {c}" for how, c in (("filled", e.style.fill), ("lined", e.style.stroke)) if c)
            marks.append((e, f"a {type(e).__name__.lower()} {inks}", box(shape_corners(e, m))))
    return marks


def mark_elements(elements, m=IDENTITY, hatching=False):
    """(element, matrix, whether it is low ink's hatching) in drawing order, through groups; an icon (a
    scaled group larger than 1 mm) comes whole, then its lines and outlines on their own."""
    for e in elements:
        if isinstance(e, Group):
            if e.scale != 1 and 100 * e.scale > 1.0:
                yield e, m, hatching
                yield from ((part, pm, hatching) for part, pm in drawn_lines(e, m))
                yield from ((detail, m, hatching) for detail in icon_details(e, m))
            elif e.scale == 1:
                pattern = e.clip is not None and bool(e.children) and all(
                    isinstance(c, Line) and c.style.stroke_width == HATCH_WIDTH for c in e.children)
                yield from mark_elements(e.children, then(m, group_matrix(e)), hatching or pattern)
        else:
            yield e, m, hatching


def drawn_lines(icon: Group, m):
    """The icon's lines and outlines that stand on the face, not on the icon's own fills (a stargate's rings
    round its dark centre, a wormhole's spiral; not a window drawn on a ship's hull, nor a hairline under
    0.25 mm wide or 1 mm long, a detail of the icon measured with it): marks of their own."""
    body = Printed()
    for part, pm in flatten(icon.children, then(m, group_matrix(icon))):
        if is_fill(part):
            body.add(part, pm)
        elif isinstance(part, (Line, Rect, Circle, Polygon, Path)) and part.style.stroke:
            behind = line_grounds if isinstance(part, Line) else outline_grounds
            corners = shape_corners(part, pm)
            long = max(max(x for x, _ in corners) - min(x for x, _ in corners),
                       max(y for _, y in corners) - min(y for _, y in corners)) > 1.0
            wide = part.style.stroke_width * math.hypot(pm[0], pm[1]) >= 0.25
            if long and wide and behind(part, pm, body) == {"#FFFFFF"}:
                yield part, pm


@dataclass(frozen=True)
class IconDetail:
    """A part of an icon drawn on the icon's own fills, in a colour of its own: `on`, the colours under it."""

    part: object
    m: tuple
    on: str


DETAIL_LEAST = 0.5  # mm across: smaller parts of an icon are its texture, measured with it


def icon_details(icon: Group, m):
    """The icon's parts that lie wholly on its own earlier fills in another colour than theirs: an arrow's
    notch, an alien's eyes, a gear's inner outline, a flask's liquid and its bubbles, a resource symbol's
    cut lines. Each is a meaning of its own the icon's main ink does not measure (a blue notch on what low ink
    made a dark arrow read 1.03:1 while the arrow read well). Not a hairline under 0.25 mm, nor a part under
    DETAIL_LEAST across or of less than three times INK_MM2 (the icon's texture: at 300 dpi its edge pixels
    are most of it)."""
    body = Printed()
    for part, pm in flatten(icon.children, then(m, group_matrix(icon))):
        if not isinstance(part, (Line, Rect, Circle, Polygon, Path)) or part.style.opacity < 1:
            continue
        filled = is_fill(part)
        colour = part.style.fill if filled else part.style.stroke
        if colour and body.parts:
            corners = shape_corners(part, pm)
            across = max(max(x for x, _ in corners) - min(x for x, _ in corners),
                          max(y for _, y in corners) - min(y for _, y in corners))
            wide = filled or part.style.stroke_width * math.hypot(pm[0], pm[1]) >= 0.25
            under = (shape_grounds if filled else line_grounds if isinstance(part, Line) else outline_grounds)(
                part, pm, body)
            big = not filled or area(part, pm) >= 3 * INK_MM2  # smaller, no pixel of it prints its full colour
            if across >= DETAIL_LEAST and wide and big and "#FFFFFF" not in under and hex_of(rgb(colour)) not in under:
                yield IconDetail(part, pm, ", ".join(sorted(under)))
        if filled:
            body.add(part, pm)


def shape_corners(e, m) -> list[tuple[float, float]]:
    """The corners of a line's or shape's box, its stroke's half width around it, placed by m."""
    if isinstance(e, Line):
        points = [(e.x1, e.y1), (e.x2, e.y2)]
    elif isinstance(e, Circle):
        points = [(e.cx - e.r, e.cy - e.r), (e.cx + e.r, e.cy + e.r)]
    elif isinstance(e, Path):
        points = [cmd[i:i + 2] for cmd in e.commands for i in range(1, len(cmd), 2)]
    else:
        points = outline(e)
    half = e.style.stroke_width / 2 if e.style.stroke else 0.0
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return [apply(m, x, y) for x in (min(xs) - half, max(xs) + half) for y in (min(ys) - half, max(ys) + half)]


def without(elements, gone: set[int]):
    """The elements with those (by id) left out, through groups."""
    kept = []
    for e in elements:
        if id(e) in gone:
            continue
        kept.append(replace(e, children=without(e.children, gone)) if isinstance(e, Group) else e)
    return tuple(kept)


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


AROUND_MM = 1.0  # what a mark stands on: the face within this of its ink


def ground_grey(bare: Image.Image, changed: Image.Image, box) -> int:
    """The dominant grey of the face without the mark, within AROUND_MM of the pixels the mark changes in its
    box: the paper round a ring (not the disc it rings), the tint beside a fold line (not the edge it lies
    on), the ground between a label's letters."""
    reach = math.ceil(AROUND_MM / 25.4 * MARKS_DPI)
    x0, y0 = max(0, box[0] - reach), max(0, box[1] - reach)
    around = (x0, y0, min(bare.width, box[2] + reach), min(bare.height, box[3] + reach))
    ink = Image.new("L", (around[2] - x0, around[3] - y0))
    ink.paste(changed.crop(box), (box[0] - x0, box[1] - y0))
    near = ink.filter(ImageFilter.BoxBlur(reach)).point(lambda v: 255 if v else 0)
    if not near.getbbox():  # the mark changes nothing: its box is all there is
        near = None
    ground = bare.crop(around).histogram(mask=near)
    return max(range(256), key=ground.__getitem__)


def under_grey(bare: Image.Image, changed: Image.Image, box) -> int:
    """The dominant grey of the face without the mark, under the pixels the mark changes: what it is drawn on."""
    under = bare.crop(box).histogram(mask=changed.crop(box))
    return max(range(256), key=under.__getitem__)


def rendered_contrasts(scene) -> list[tuple[str, float, float]]:
    """Each mark's contrast as rendered in grey: the face is rendered as printed and again without the mark
    (marks whose boxes do not meet are left out together, so a face takes a few renders); inside the mark's
    box, its ink is the pixels it changes, its ground the dominant grey of the face without it around that
    ink (ground_grey), and its contrast the one that INK_MM2 of its ink reaches against that ground (1 when it
    prints less ink)."""
    marks = marks_of(scene)
    icon_parts = {id(part) for e, _, _ in marks if isinstance(e, Group) for part, _ in flatten(e.children)}
    details = {id(e) for e, name, _ in marks if name.startswith("an icon's ")}
    batches: list[list] = []
    for mark in marks:
        detail = id(mark[0]) in details  # an icon's details are removed apart from the marks round them
        batch = next((b for b in batches if (id(b[0][0]) in details) == detail
                      and not any(overlap(mark[2], other[2]) for other in b)), None)
        if batch is None:
            batches.append([mark])
        else:
            batch.append(mark)
    enough = math.ceil(INK_MM2 / MARK_PIXEL_MM2)
    out = []
    bares = [replace(scene, elements=without(scene.elements, {id(mark[0]) for mark in batch})) for batch in batches]
    rendered = (image.convert("L") for image in render_faces([scene, *bares], MARKS_DPI))
    face = next(rendered)
    for batch, bare in zip(batches, rendered):
        changed = ImageChops.difference(face, bare).point(lambda v: 255 if v > 2 else 0)
        for e, name, box in batch:
            # an icon's detail stands on the icon (what its own pixels hide), not on what lies round the icon
            dominant = under_grey(bare, changed, box) if id(e) in details else ground_grey(bare, changed, box)
            ink = face.crop(box).histogram(mask=changed.crop(box))  # how many changed pixels print each grey
            if id(e) in icon_parts and sum(ink) < enough:
                continue  # an icon's line its own later parts cover: the icon's ink, measured with the icon
            reached, ratio = 0, 1.0
            for grey in by_contrast(dominant):
                reached += ink[grey]
                if reached >= enough:
                    ratio = grey_contrast(grey, dominant)
                    break
            out.append((f"{name} on grey {dominant}", ratio, LABEL if isinstance(e, Text) else DARK))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_mark_of_every_face_prints_dark_in_low_ink_pixels(game):
    """Every distinct low-ink face of the game, player-coloured or not (pieces, tiles, tracks, boards, player
    boards, cards), rendered at MARKS_DPI and converted to grey: each label, icon, ring, rim, line and symbol
    (marks_of says what is a mark), and each icon's inner detail against the icon under it, reaches 4.5:1
    against its ground, each label 5:1 (rendered_contrasts says how it is measured). The Stratastar stargate
    rings, Handful's star-base rings and wormhole symbol measured 2.9-3.4 before lines and outlines were
    darkened to MARK_CONTRAST; a blue fleet arrow's notch 1.15, an alien's eyes 1.08, a resource symbol's cut
    lines 1.43 and grey labels 4.54 before icons' details and labels were."""
    folder = find_game(game)
    cache = SceneCache(3.0, folder, ink="low")
    problems, seen, kinds = [], set(), set()
    for comp in load_game(folder).components:
        for piece in comp.pieces:
            for side in ("front", "back") if piece.back else ("front",):
                scene = cache.face(comp, piece, side)
                if scene in seen:
                    continue
                seen.add(scene)
                kinds.add((comp.spec.kind, piece.color in PLAYER_COLORS))
                problems += [f"{comp.spec.id} {piece.name} {piece.color} {side}: {name} at {ratio:.2f}:1"
                             for name, ratio, least in rendered_contrasts(scene) if ratio < least]
    assert len(seen) >= 20 and any(player for _, player in kinds) and len(kinds) >= 4, kinds
    assert not problems, "\n".join(problems[:30])


def hatched_badges(scene) -> list[str]:
    """Each fill under a quarter of the face (a badge, not a ground, nor half a standee's) that low ink hatched
    and that a later text or icon stands on."""
    placed = []  # (hatching's clip, its matrix, drawing order)
    found = []
    order = 0

    def walk(elements, m):
        nonlocal order
        for e in elements:
            order += 1
            if isinstance(e, Hatching):
                if area(e.clip, m) < BADGE_SHARE * scene.outer_width * scene.outer_height:
                    placed.append((e.clip, m))
                continue
            if isinstance(e, Group) and e.scale != 1:  # an icon: where its middle stands
                point, name = apply(then(m, group_matrix(e)), 50, 50), f"an icon (main ink {icon_color(e, m)})"
            elif isinstance(e, Text) and e.lines:
                point, name = apply(m, e.lines[0].x, e.lines[0].y - e.size * 0.12), repr(e.lines[0].text)
            elif isinstance(e, Group):
                walk(e.children, then(m, group_matrix(e)))
                continue
            else:
                continue
            found.extend(f"{name} on the hatching of a {type(clip).__name__.lower()} {clip.style.fill}"
                         for clip, cm in placed if contains(clip, cm, *point))

    walk(scene.elements, IDENTITY)
    return found


@pytest.mark.parametrize("game", GAMES)
def test_no_hatching_runs_under_a_symbol_or_a_badge_in_low_ink(game):
    """Low ink's hatching stands for a fill's colour: on a face's ground it is a pattern its label and icon are
    made to read on, but a small fill a text or an icon stands on (a badge: the resource pills of Handful's
    development counters, with a symbol and a number; Starship Catan's cost boxes) stays a plain tint, so no
    line runs across them."""
    folder = find_game(game)
    cache = SceneCache(3.0, folder, ink="low")
    problems, seen = [], set()
    for comp in load_game(folder).components:
        for piece in comp.pieces:
            for side in ("front", "back") if piece.back else ("front",):
                scene = cache.face(comp, piece, side)
                if scene not in seen:
                    seen.add(scene)
                    problems += [f"{comp.spec.id} {piece.name} {side}: {p}" for p in hatched_badges(scene)]
    assert not problems, "\n".join(dict.fromkeys(problems))
