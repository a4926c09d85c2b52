"""ReportLab backend: the print PDF and the scenes on it, in one module.

A document is a contents page, then every sheet with its crop marks, footer and calibration square. Each
distinct face becomes one PDF form drawn once and placed wherever a copy goes, which keeps files small and
builds fast however many copies a deck has. The page gets one transform to millimetres with y pointing down,
so scenes are drawn with the same numbers the SVG backend writes.
"""
from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

from reportlab import rl_config
from reportlab.lib.colors import Color, toColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO, Canvas

from ..look import fonts
from ..look.images import cover_or_contain
from .imposition import FOOTER_H, Box, Settings, Sheet, Tile, fit_picture, map_area, one_end_note
from ..data.palette import resolve
from ..look.scene import Circle, Element, Group, Image, Line, Path, Polygon, Rect, Scene, Style, Text
from ..look.text import LEADING, PT_TO_MM, fit_text
from ..look.units import PT_PER_MM

# Streams are binary Flate, as PDF writers write them today. ReportLab's default wraps each in ASCII85 as
# well, for mail of the 1990s: a quarter more bytes in every file, and a pass over each stream to write them.
rl_config.useA85 = 0


@contextmanager
def saved(c: Canvas):
    c.saveState()
    try:
        yield c
    finally:
        c.restoreState()


def begin_mm_page(c: Canvas, page_height_mm: float) -> None:
    """Switch the current page's user space to millimetres, origin top-left, y down."""
    c.translate(0, page_height_mm * PT_PER_MM)
    c.scale(PT_PER_MM, -PT_PER_MM)


@lru_cache(maxsize=4096)
def color(value: str) -> Color:
    """A colour string parsed once: ReportLab parses strings afresh on every call (with its safe evaluator),
    and reads #RGB as #000RGB, so a short code is spelled out first."""
    return toColor(resolve(value))


CAPS = {"butt": 0, "round": 1, "square": 2}
JOINS = {"miter": 0, "round": 1, "bevel": 2}


def _apply_style(c: Canvas, style: Style) -> tuple[int, int]:
    if style.fill:
        c.setFillColor(color(style.fill))
    if style.stroke:
        c.setStrokeColor(color(style.stroke))
        c.setLineWidth(style.stroke_width)
        c.setDash(list(style.dash) if style.dash else [], style.dash_offset if style.dash else 0)
        if not style.plain_stroke:
            c.setLineCap(CAPS[style.cap])
            c.setLineJoin(JOINS[style.join])
            if style.miter_limit is not None:
                c.setMiterLimit(style.miter_limit)
    if style.fill_alpha != 1.0:
        c.setFillAlpha(style.fill_alpha)
    if style.opacity * style.stroke_opacity != 1.0:
        c.setStrokeAlpha(style.opacity * style.stroke_opacity)
    return (1 if style.stroke else 0), (1 if style.fill else 0)


def _special(style: Style) -> bool:
    """A shape whose state the next shape would not set again (translucency, an icon's line looks)."""
    return style.fill_alpha != 1.0 or style.opacity * style.stroke_opacity != 1.0 or not style.plain_stroke


def _fill_mode(shape: Element) -> int | None:
    """A path's or polygon's fill rule as SVG gives it (nonzero unless said): ReportLab's own is even-odd, which
    would cut a hole wherever an icon's outline goes round twice the same way."""
    if isinstance(shape, (Path, Polygon)):
        return FILL_EVEN_ODD if shape.style.fill_rule == "evenodd" else FILL_NON_ZERO
    return None


def _shape_path(c: Canvas, shape: Rect | Circle | Polygon | Path):
    p = c.beginPath()
    if isinstance(shape, Rect):
        if shape.radius > 0:
            p.roundRect(shape.x, shape.y, shape.w, shape.h, shape.radius)
        else:
            p.rect(shape.x, shape.y, shape.w, shape.h)
    elif isinstance(shape, Circle):
        p.circle(shape.cx, shape.cy, shape.r)
        p.close()  # a stroked circle joins where it starts, as in SVG, rather than two butt ends meeting
    elif isinstance(shape, Path):
        for cmd, *args in shape.commands:
            {"M": p.moveTo, "L": p.lineTo, "C": p.curveTo, "Z": p.close}[cmd](*args)
    else:
        (x0, y0), *rest = shape.points
        p.moveTo(x0, y0)
        for x, y in rest:
            p.lineTo(x, y)
        p.close()
    return p


def draw_element(c: Canvas, element: Element) -> None:
    if isinstance(element, Text):
        _draw_text(c, element)
    elif isinstance(element, Image):
        _draw_image(c, element)
    elif isinstance(element, Group):
        with saved(c):
            c.translate(element.dx, element.dy)
            if element.rotate:
                c.rotate(element.rotate)
            if element.scale != 1.0:
                c.scale(element.scale, element.scale)
            if element.matrix is not None:
                c.transform(*element.matrix)
            if element.clip is not None:
                c.clipPath(_shape_path(c, element.clip), stroke=0, fill=0, fillMode=_fill_mode(element.clip))
            for child in element.children:
                draw_element(c, child)
    elif isinstance(element, (Rect, Circle, Polygon, Path, Line)):
        # A shape sets every state it paints with (fill, or stroke colour, width and dash), so only a
        # translucent one or one with an icon's line looks needs its state saved and restored: most faces
        # are hundreds of plain shapes.
        special = _special(element.style)
        if special:
            c.saveState()
        stroke, fill = _apply_style(c, element.style)
        if isinstance(element, Line):
            c.line(element.x1, element.y1, element.x2, element.y2)
        else:
            c.drawPath(_shape_path(c, element), stroke=stroke, fill=fill, fillMode=_fill_mode(element))
        if special:
            c.restoreState()
    else:  # pragma: no cover - the Element union is closed
        raise TypeError(f"cannot draw {type(element).__name__}")


def _draw_text(c: Canvas, text: Text) -> None:
    """All lines in one text object (no graphics state to save): each line's matrix places it, flipped
    back upright in our y-down space, and its font runs (symbols from the fallback font) follow on."""
    size_mm = text.size / PT_PER_MM
    shift = {"left": 0.0, "center": 0.5, "right": 1.0}[text.align]
    t = c.beginText()
    t.setFillColor(color(text.color))
    for line in text.lines:
        t.setTextTransform(1, 0, 0, -1, line.x, line.y)
        if shift:
            t.moveCursor(-shift * fonts.text_width_mm(line.text, text.font, text.size), 0)
        for font, piece in fonts.runs(line.text, text.font):
            t.setFont(fonts.register(font), size_mm)
            t.textOut(piece)
    c.drawText(t)


def end_form(c: Canvas, name: str) -> None:
    """c.endForm(), then give the form its resources. ReportLab leaves ExtGState out of a form's resources,
    so anything semi-transparent inside a form would be dropped by PDF readers: such a form gets its own.
    Every other form shares one resource dictionary by reference, written once instead of once per face."""
    c.endForm()
    form = c._doc.idToObject[pdfdoc.xObjectName(name)]
    if form.ExtGState or form.XObjects:
        form.Resources = _resources(form.XObjects, form.ExtGState)
    else:
        shared = c._doc.__dict__.get("_starpnp_resources")
        if shared is None:
            shared = c._doc._starpnp_resources = c._doc.Reference(_resources(None, None))
        form.Resources = shared


def _resources(xobjects, states) -> pdfdoc.PDFResourceDictionary:
    """A form's resource dictionary: the document's fonts, every procedure set, its forms and states."""
    resources = pdfdoc.PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    if xobjects:
        resources.XObject = xobjects
    if states:
        resources.ExtGState = states
    return resources


def _svg_form(c: Canvas, path: str) -> tuple[str, float, float]:
    """An SVG art file as a PDF form, defined on first use: vector art embedded once per file."""
    forms = c.__dict__.setdefault("_starpnp_svg_forms", {})
    if path not in forms:
        from reportlab.graphics import renderPDF
        from svglib.svglib import svg2rlg  # only sets with SVG art pay for svglib

        drawing = svg2rlg(path)
        name = f"SvgArt{len(forms) + 1}"
        c.beginForm(name, 0, 0, drawing.width, drawing.height)
        renderPDF.draw(drawing, c, 0, 0)
        end_form(c, name)
        forms[path] = (name, drawing.width, drawing.height)
    return forms[path]


def _draw_image(c: Canvas, image: Image) -> None:
    """Raster art is stored once per file by ReportLab (keyed by its digest); SVG art via _svg_form."""
    svg = image.path.lower().endswith(".svg")
    if svg:
        name, iw, ih = _svg_form(c, image.path)
    else:
        reader = ImageReader(image.path)
        iw, ih = reader.getSize()
    x, y, w, h = cover_or_contain(image, iw, ih)
    with saved(c):
        c.clipPath(_shape_path(c, Rect(image.x, image.y, image.w, image.h, Style())), stroke=0, fill=0)
        c.translate(x, y + h)
        c.scale(1, -1)
        if svg:
            c.scale(w / iw, h / ih)
            c.doForm(name)
        else:
            c.drawImage(reader, 0, 0, w, h, mask="auto")


def draw_scene(c: Canvas, scene: Scene) -> None:
    """Draw `scene` into the current page or form, sized to its bleed box: origin at the trim's top-left.

    Everything is clipped to the bleed box, so a piece never paints over its neighbours on a sheet.
    """
    begin_mm_page(c, scene.outer_height)
    c.translate(scene.bleed, scene.bleed)
    bleed_box = Rect(-scene.bleed, -scene.bleed, scene.outer_width, scene.outer_height, Style())
    c.clipPath(_shape_path(c, bleed_box), stroke=0, fill=0)
    for element in scene.elements:
        draw_element(c, element)


INK = "#1A1A1A"
MUTED = "#555555"
MARK = Style(stroke="#000000", stroke_width=0.2)
MARK_HALO = Style(stroke="#FFFFFF", stroke_width=0.7)  # keeps a mark visible where it runs over dark bleed
ASSEMBLY = ("Cut every tile on its corner marks. Start with A1. Each next tile has a shaded flap on its left "
            "or top edge: glue it under the tile already laid, with that tile's cut edge on the flap's line and "
            "touching its arrows. Once built, no flap, line or arrow shows.")
# Re-feeding a sheet for its backs on a one-sided printer, for each duplex flip the backs are laid out for.
REFEED = {
    "long": "turn it over from left to right, like the page of a book (its top edge stays at the top); put it "
            "back in the tray so its blank side will be printed, top edge first as before",
    "short": "turn it over from top to bottom, like a wall calendar (its top edge becomes the bottom); put it "
             "back in the tray so its blank side will be printed, the edge that came out last going in first",
}
ROWS_FIRST_PAGE = 24
ROWS_LATER_PAGE = 34


@dataclass(frozen=True)
class ContentsRow:
    name: str
    kind: str
    quantity: int
    size: str
    sides: str
    pages: str


@dataclass(frozen=True)
class PrintGuide:
    """What page 1 tells about printing this file: pages, blanks, shapes to cut, boards to assemble."""

    duplex: str
    pages: str  # every page with something on it, as ranges
    blanks: str  # the blank backs, as ranges
    backs: bool  # some pieces have backs
    shapes: list[str] = field(default_factory=list)  # cut shapes other than rectangles
    maps: list[tuple[str, int, int]] = field(default_factory=list)  # component id, map page, pages of tiles
    unspecified: int = 0
    materials: list[str] = field(default_factory=list)  # what players need besides a printer
    aids: list[tuple[str, int]] = field(default_factory=list)  # player aids to read in place: name, page


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def contents_pages(rows: int) -> int:
    return 1 if rows <= ROWS_FIRST_PAGE else 1 + math.ceil((rows - ROWS_FIRST_PAGE) / ROWS_LATER_PAGE)


def page_ranges(pages: list[int]) -> str:
    """[3, 4, 5, 9] -> '3–5, 9'"""
    out, start = [], None
    for i, p in enumerate(pages):
        if start is None:
            start = p
        if i + 1 == len(pages) or pages[i + 1] != p + 1:
            out.append(f"{start}" if start == p else f"{start}–{p}")
            start = None
    return ", ".join(out)


def placed_more_than_once(sheets: list[Sheet]) -> set[int]:
    """Ids of the scenes the sheets place twice or more: copies of a piece, a board's tiles and its map."""
    seen: set[int] = set()
    again: set[int] = set()
    for sheet in sheets:
        tiles = sheet.tiles if sheet.role == "tile" else sheet.tiles[:1]  # a tile sheet's, or the map's one picture
        for scene in [p.scene for p in sheet.placed] + [t.scene for t in tiles]:
            (again if id(scene) in seen else seen).add(id(scene))
    return again


class PdfDocument:
    def __init__(self, path: str, settings: Settings, title: str, component_names: dict[str, str],
                 reused: set[int] = frozenset(), drawn: Callable[[Scene], Scene] = lambda scene: scene):
        self.settings = settings
        self.width, self.height = settings.size
        self.c = Canvas(path, pagesize=(self.width * PT_PER_MM, self.height * PT_PER_MM), invariant=1,
                        pageCompression=1, initialFontName=fonts.register("Lato-Regular"))  # no base-14 font
        self.c.setTitle(title)
        self.c.setAuthor("starpnp")
        self.c.setCreator("starpnp")
        self.title = title
        self.component_names = component_names
        self.forms: dict[int, str] = {}
        self.reused = reused  # ids of the scenes placed more than once: each becomes a form
        self.drawn = drawn  # the scene to draw for a placed one: an outline's face is drawn only when placed

    # -- pieces ----------------------------------------------------------------------------------

    def form(self, scene: Scene) -> str:
        """The PDF form holding `scene`, drawn on first use."""
        key = id(scene)
        if key not in self.forms:
            name = f"F{len(self.forms) + 1}"
            c = self.c
            ow, oh = scene.outer_width, scene.outer_height
            c.beginForm(name, 0, 0, ow * PT_PER_MM, oh * PT_PER_MM)
            draw_scene(c, self.drawn(scene))
            end_form(c, name)
            self.forms[key] = name
        return self.forms[key]

    def _rect_path(self, x, y, w, h):
        p = self.c.beginPath()
        p.rect(x, y, w, h)
        return p

    def place(self, scene: Scene, x: float, y: float, rotation: int, scale: float = 1.0,
              clip: Box | None = None, piece: bool = True) -> None:
        """Put the scene's bleed box top-left at page (x, y) mm, turned clockwise by `rotation`, showing only
        `clip` of it when given (a piece whose neighbours share its cuts).

        A scene placed more than once is a form, drawn once and placed by reference. A scene placed once is
        drawn in place, clipped to its bleed box as a form would be and marked as a /Piece (so readers such
        as our tests find it), unless it is no `piece` to cut out (a player aid read on its page): a form's
        own object costs more to write than it saves."""
        name = self.form(scene) if id(scene) in self.reused else None
        ow, oh = scene.outer_width * scale, scene.outer_height * scale
        pw, ph = (oh, ow) if rotation % 180 else (ow, oh)
        c = self.c
        with saved(c):
            if clip is not None:
                c.clipPath(self._rect_path(*clip), stroke=0, fill=0)
            c.translate(x + pw / 2, y + ph / 2)
            if rotation:
                c.rotate(rotation)
            c.translate(-ow / 2, -oh / 2 + oh)
            c.scale(scale / PT_PER_MM, -scale / PT_PER_MM)
            if name is not None:
                c.doForm(name)
            else:
                if piece:
                    c.addLiteral("/Piece BMC")
                c.clipPath(self._rect_path(0, 0, scene.outer_width * PT_PER_MM, scene.outer_height * PT_PER_MM),
                           stroke=0, fill=0)
                draw_scene(c, self.drawn(scene))
                if piece:
                    c.addLiteral("EMC")

    # -- pages -----------------------------------------------------------------------------------

    def _new_page(self) -> None:
        begin_mm_page(self.c, self.height)

    def _end_page(self) -> None:
        """Close the page and compress its drawing now, as saving would: ReportLab keeps every page's stream
        as text until the file is written, a few times larger than compressed."""
        c = self.c
        c.showPage()
        page = c._doc.Pages.pages[-1]
        if page.compression and not page.Contents and page.stream:
            stream = pdfdoc.PDFStream(content=pdfdoc.PDFZCompress.encode(page.stream), filters=[])
            stream.dictionary["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName(pdfdoc.PDFZCompress.pdfname)])
            stream.__Comment__ = "page stream"
            page.Contents, page.stream = stream, None

    def text(self, text, x, y, w, h, **style) -> None:
        draw_element(self.c, fit_text(text, x, y, w, h, **style).text)

    def footer(self, sheet: Sheet, duplex_note: str) -> None:
        """Calibration square, what the sheet holds and what is on its back, along the sheet's footer side
        (read from the bottom up when it runs beside the pieces)."""
        m = self.settings.margin
        c = self.c
        with saved(c):
            if sheet.footer in ("left", "right"):
                x = m if sheet.footer == "left" else self.width - m - FOOTER_H
                c.translate(x, self.height - m)
                c.rotate(-90)
                length = self.height - 2 * m
            else:
                c.translate(m, m if sheet.footer == "top" else self.height - m - FOOTER_H)
                length = self.width - 2 * m
            draw_element(c, Rect(0, 0, 10, 10, Style(stroke=INK, stroke_width=0.2)))
            self.text("10 mm", 0, 3, 10, 4, size=6, min_size=6, color=MUTED, align="center", valign="middle")
            names = ", ".join(self.component_names[c] for c in sheet.components)
            role = {"front": "fronts", "back": "backs", "tile": "tile", "map": "assembly map",
                    "aid": "player aid"}[sheet.role]
            if sheet.role == "tile":
                role = f"{role}{'s' if len(sheet.tiles) > 1 else ''} {', '.join(t.label for t in sheet.tiles)}"
            if sheet.role == "map" and sheet.aids:
                role += " and player aid"
            line1 = f"{self.title} · {names} · {role} · sheet {sheet.number} of {sheet.of}"
            line2 = f"Print at 100% (actual size, no scaling): the square must measure 10 mm.{duplex_note}" \
                    f"{one_end_note(sheet)}"
            width = length - 13
            self.text(line1, 13, 0.5, width, 4.5, font="Lato-Bold", size=7.5, min_size=6, color=INK)
            self.text(line2, 13, 5.2, width, 4.5, size=6.5, min_size=6, color=MUTED)

    def blank(self, sheet: Sheet) -> None:
        """A page left blank on purpose: the back of a one-sided sheet, so nothing else prints behind it."""
        self._new_page()
        m = self.settings.margin
        behind = f" (the back of page {sheet.back_page})" if sheet.back_page else ""
        self.text(f"This page is intentionally blank{behind}.", m, self.height - m - 5, self.width - 2 * m, 4,
                  size=6, min_size=6, color=MUTED, align="center")
        self._end_page()

    def _page_boxes(self, sheet: Sheet) -> None:
        """TrimBox/BleedBox in PDF points when the page holds exactly one piece, else none."""
        trim = bleed = None
        if len(sheet.placed) == 1:
            x, y, w, h = sheet.placed[0].trim_box
            b = sheet.placed[0].scene.bleed

            def box(x, y, w, h):  # page y runs down in mm, PDF y runs up in points
                return tuple(round(v * PT_PER_MM, 3) for v in (x, self.height - y - h, x + w, self.height - y))

            trim, bleed = box(x, y, w, h), box(x - b, y - b, w + 2 * b, h + 2 * b)
        self.c.setTrimBox(trim)
        self.c.setBleedBox(bleed)

    def sheet(self, sheet: Sheet, note: str = "") -> None:
        if sheet.role == "blank":
            self.blank(sheet)
            return
        self._new_page()
        self._page_boxes(sheet)
        for placed in sheet.placed:
            self.place(placed.scene, placed.x, placed.y, placed.rotation, clip=placed.clip)
        if sheet.marks:  # all halos, then all marks, each style set once (each mark its own stroke, as two
            for style in (MARK_HALO, MARK):  # marks that meet must not merge into one path)
                _apply_style(self.c, style)
                for x1, y1, x2, y2 in sheet.marks:
                    self.c.line(x1, y1, x2, y2)
        if sheet.role == "tile":
            for tile in sheet.tiles:
                self._tile(tile)
        if sheet.role == "map":
            self._assembly_map(sheet.tiles, sheet.tile_pages, sheet.picture)
        for aid in sheet.aids:
            self.place(aid.scene, aid.x, aid.y, aid.rotation, clip=aid.clip, piece=False)
        self.footer(sheet, note)
        self._end_page()

    def _tile(self, tile: Tile) -> None:
        wx, wy, ww, wh = tile.window
        c = self.c
        with saved(c):
            c.clipPath(self._rect_path(wx, wy, ww, wh), stroke=0, fill=0)
            self.place(tile.scene, wx - tile.board_x, wy - tile.board_y, tile.rotation)
        seam = Style(stroke=INK, stroke_width=0.3)
        for side, (fx, fy, fw, fh), under in tile.flaps:  # hidden once built: shaded, with the seam to meet
            draw_element(c, Rect(fx, fy, fw, fh, Style(fill="#FFFFFF", opacity=0.6)))
            if side == "left":
                draw_element(c, Line(fx + fw - 0.2, fy, fx + fw - 0.2, fy + fh, seam))
            else:
                draw_element(c, Line(fx, fy + fh - 0.2, fx + fw, fy + fh - 0.2, seam))
            with saved(c):
                if side == "left":
                    c.translate(fx, fy + fh)
                    c.rotate(-90)
                    length = fh
                else:
                    c.translate(fx, fy)
                    length = fw
                self.text(f"Flap: glue under {under}, its cut edge on the line", 2, 1, length - 4, 4, size=6,
                          min_size=6, color=INK, align="center")
        for side, tx, ty in tile.targets:  # arrows whose tips the neighbour's cut edge must touch
            if side == "left":
                points = ((tx - 0.2, ty), (tx - 5, ty - 2.5), (tx - 5, ty + 2.5))
            else:
                points = ((tx, ty - 0.2), (tx - 2.5, ty - 5), (tx + 2.5, ty - 5))
            draw_element(c, Polygon(points, Style(fill=INK)))

    def _assembly_map(self, tiles: list[Tile], pages: list[int], picture: Box | None = None) -> None:
        """The board small with each tile's outline, label and page, in `picture` (by default as large as
        fits)."""
        first = tiles[0]
        nx, ny = first.grid
        scene = first.scene
        m = self.settings.margin
        area_w = self.width - 2 * m
        x0, y0, shown, _ = picture or fit_picture(first.board_size, map_area(self.settings))
        scale = shown / first.board_size[0]
        self.text("How to assemble", m, m, area_w, 8, font="Lato-Black", size=14, color=INK)
        on = plural(len(set(pages)), "page")
        self.text(f"This board is {plural(nx * ny, 'tile')}, {plural(ny, 'row')} of {nx}, printed on {on} (each "
                  "tile's page is under its label). " + ASSEMBLY, m, m + 10, area_w, 22, size=9, min_size=7,
                  color=INK)
        self.place(scene, x0, y0, first.rotation, scale)
        for t, page in zip(tiles, pages):
            ox, oy, ow, oh = t.own
            rx, ry = x0 + ox * scale, y0 + oy * scale
            draw_element(self.c, Rect(rx, ry, ow * scale, oh * scale,
                                      Style(stroke="#C62828", stroke_width=0.5, dash=(2, 1))))
            # on a white ground, to read over the board
            draw_element(self.c, Rect(rx + 0.5, ry + 0.5, 13, 11.5, Style(fill="#FFFFFF", opacity=0.85)))
            self.text(t.label, rx + 1, ry + 1, 12, 7, font="Lato-Black", size=12, color="#C62828")
            self.text(f"p. {page}", rx + 1, ry + 7.5, 12, 4, font="Lato-Bold", size=7, min_size=6, color="#C62828")

    def paragraph(self, text: str, y: float, most: float, **style) -> float:
        """Text across the page from y, up to `most` mm tall (shrinking to fit); returns where the next goes."""
        m = self.settings.margin
        fitted = fit_text(text, m, y, self.width - 2 * m, most, **style).text
        draw_element(self.c, fitted)
        return y + len(fitted.lines) * fitted.size * LEADING * PT_TO_MM + 2.0

    def print_steps(self, guide: PrintGuide) -> list[str]:
        """Page 1's instructions, only those this file needs."""
        steps = ["Print at 100% / actual size with no scaling or 'fit to page'; the square on every sheet must "
                 "measure 10 mm."]
        if guide.duplex == "off":
            steps.append("This file is for printing single-sided: pieces' backs are left out.")
        else:
            steps.append(f"Print the whole file double-sided, flipping on the {guide.duplex} edge: "
                         + ("each sheet of fronts has its own backs behind it, and " if guide.backs else "")
                         + "each one-sided sheet of pieces has a blank back.")
            one_sided = f"No double-sided printer? Then print pages {guide.pages}"
            if guide.blanks:
                one_sided += f" and skip the blank pages ({guide.blanks})"
            if guide.backs:
                one_sided += ". After each page of fronts, take the sheet out and " + REFEED[guide.duplex] + (
                    ", then print its page of backs. Try it first with a pencil cross on a spare sheet: it "
                    "shows which side your printer prints on")
            steps.append(one_sided + ".")
        cut = "Cut along the crop marks at the edges of each block: neighbouring pieces share one cut."
        if guide.shapes:
            shapes = " and ".join(guide.shapes)
            cut += f" {shapes.capitalize()} pieces are cut along their thin outline."
        steps.append(cut)
        for comp_id, page, tile_pages in guide.maps:
            steps.append(f"{self.component_names[comp_id]}: {plural(tile_pages, 'page')} of tiles; the assembly map "
                         f"on page {page} shows how they go together.")
        for name, page in guide.aids:
            behind = page == 2 and guide.duplex != "off"  # printed one-sided, page 2 is a sheet of its own
            where = "the back of this page: keep this sheet" if behind else f"page {page}: keep that sheet"
            steps.append(f"{name}: on {where} by the table, to read during play (it is not cut out).")
        if guide.unspecified:
            steps.append(f"{plural(guide.unspecified, 'value')} the rulebook does not give "
                         f"{'prints' if guide.unspecified == 1 else 'print'} as dashed write-in areas: fill them "
                         "in from your own copy of the game.")
        return steps

    def heading(self, text: str, y: float) -> float:
        m = self.settings.margin
        self.text(text, m, y, self.width - 2 * m, 6, font="Lato-Black", size=11, color=INK)
        return y + 6.5

    def contents(self, rows: list[ContentsRow], about: str, notes: list[str], guide: PrintGuide) -> None:
        """Page 1, for the players: what the set is, what else they need, how to print it, what is where."""
        m = self.settings.margin
        w = self.width - 2 * m
        self._new_page()
        self.text(self.title, m, m, w, 14, font="Lato-Black", size=24, color=INK)
        y = m + 15
        if about:
            y = self.paragraph(about, y, 14, size=9, color=MUTED) + 1.0
        if guide.materials:
            y = self.heading("What you need", y)
            for item in guide.materials:
                y = self.paragraph(f"•  {item}", y, 10, size=8.5, min_size=6.5, color=INK) - 0.8
            y += 1.5
        y = self.heading("How to print and make it", y)
        for i, step in enumerate(self.print_steps(guide) + list(notes), 1):
            y = self.paragraph(f"{i}. {step}", y, 20, size=8.5, min_size=6.5, color=INK) - 0.5
        y += 1.5
        y = self.heading("Contents", y)
        widths = [0.36, 0.14, 0.08, 0.16, 0.1, 0.16]
        headings = ["Component", "Kind", "Qty", "Size (mm)", "Sides", "Pages"]
        index = 0
        while True:
            x = m
            for heading, frac in zip(headings, widths):
                self.text(heading, x, y, w * frac - 2, 5, font="Lato-Bold", size=8, color=INK)
                x += w * frac
            y += 6
            draw_element(self.c, Line(m, y - 0.8, m + w, y - 0.8, Style(stroke=INK, stroke_width=0.3)))
            limit = index + (ROWS_FIRST_PAGE if index == 0 else ROWS_LATER_PAGE)
            while index < min(limit, len(rows)):
                row = rows[index]
                x = m
                for value, frac in zip((row.name, row.kind, str(row.quantity), row.size, row.sides, row.pages),
                                       widths):
                    self.text(value, x, y, w * frac - 2, 5, size=8, min_size=6, color=INK, max_lines=1)
                    x += w * frac
                y += 5.6
                index += 1
            if index >= len(rows):
                break
            self._end_page()
            self._new_page()
            y = m
        self._end_page()

    def save(self) -> None:
        self.c.save()
