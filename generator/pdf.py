"""ReportLab backend: draws scenes as vector PDF with embedded font subsets.

The page gets one transform to millimetres with y pointing down, so scenes are drawn with the same
numbers the SVG backend writes.
"""
from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache

from reportlab.lib.colors import Color, toColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from . import fonts
from .images import cover_or_contain
from .palette import resolve
from .scene import Circle, Element, Group, Image, Line, Path, Polygon, Rect, Scene, Style, Text
from .units import PT_PER_MM


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


def _apply_style(c: Canvas, style: Style) -> tuple[int, int]:
    if style.fill:
        c.setFillColor(color(style.fill))
    if style.stroke:
        c.setStrokeColor(color(style.stroke))
        c.setLineWidth(style.stroke_width)
        c.setDash(list(style.dash) if style.dash else [])
    if style.opacity != 1.0:
        c.setFillAlpha(style.opacity)
        c.setStrokeAlpha(style.opacity)
    return (1 if style.stroke else 0), (1 if style.fill else 0)


def _shape_path(c: Canvas, shape: Rect | Circle | Polygon | Path):
    p = c.beginPath()
    if isinstance(shape, Rect):
        if shape.radius > 0:
            p.roundRect(shape.x, shape.y, shape.w, shape.h, shape.radius)
        else:
            p.rect(shape.x, shape.y, shape.w, shape.h)
    elif isinstance(shape, Circle):
        p.circle(shape.cx, shape.cy, shape.r)
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
            if element.clip is not None:
                c.clipPath(_shape_path(c, element.clip), stroke=0, fill=0)
            for child in element.children:
                draw_element(c, child)
    elif isinstance(element, (Rect, Circle, Polygon, Path, Line)):
        # A shape sets every state it paints with (fill, or stroke colour, width and dash), so only a
        # translucent one needs its state saved and restored: most faces are hundreds of plain shapes.
        translucent = element.style.opacity != 1.0
        if translucent:
            c.saveState()
        stroke, fill = _apply_style(c, element.style)
        if isinstance(element, Line):
            c.line(element.x1, element.y1, element.x2, element.y2)
        else:
            c.drawPath(_shape_path(c, element), stroke=stroke, fill=fill)
        if translucent:
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
