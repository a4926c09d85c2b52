"""Read back what a PDF page really draws: where each piece lands, and the page's own lines.

A piece is a form XObject (a face placed more than once) or a /Piece marked-content section whose first
rectangle is its bleed box (a face placed once, drawn in place).

Walks the page content stream with pypdf, tracking the transformation matrix, so tests measure the file
that was written rather than trusting the imposition code that wrote it.
"""
from __future__ import annotations

import math
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream

MM = 72 / 25.4


def scene_pdf(scene) -> bytes:
    """One scene drawn by the PDF backend on a page of its own bleed size."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from starpnp.generator.sheets.pdf import draw_scene
    from starpnp.generator.look.units import PT_PER_MM

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(scene.outer_width * PT_PER_MM, scene.outer_height * PT_PER_MM))
    draw_scene(c, scene)
    c.showPage()
    c.save()
    return buf.getvalue()


def render(pdf_path: Path, page: int, tmp_path: Path, dpi: float = 40) -> Image.Image:
    """The page as pixels, drawn by poppler's pdftoppm (an independent PDF reader), which must not complain."""
    from starpnp_test_support import require_tool

    prefix = tmp_path / f"p{page}"
    run = subprocess.run([require_tool("pdftoppm", "poppler-utils"), "-r", str(dpi), "-png", "-singlefile",
                          "-f", str(page), "-l", str(page), str(pdf_path), str(prefix)], capture_output=True, text=True)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    return Image.open(f"{prefix}.png").convert("RGB")


@dataclass(frozen=True)
class Box:
    """A rectangle in millimetres, y measured down from the page top."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    @property
    def center(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2

    def inset(self, d: float) -> "Box":
        return Box(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)


@dataclass(frozen=True)
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float

    @property
    def vertical(self) -> bool:
        return abs(self.x1 - self.x2) < 1e-6

    @property
    def horizontal(self) -> bool:
        return abs(self.y1 - self.y2) < 1e-6


def multiply(m, n):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def apply(m, x, y):
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


@dataclass
class PageDrawing:
    forms: list[Box]  # each placed piece's bleed box, as it lands on the page (a form or a marked /Piece)
    lines: list[Segment]  # stroked straight segments drawn by the page itself (not inside pieces)
    height: float
    scales: list[float] = field(default_factory=list)  # each form's placed size over its own size
    turns: list[int] = field(default_factory=list)  # each piece's turn on the page, degrees clockwise
    fills: list[list[tuple[float, float]]] = field(default_factory=list)  # filled straight-edged shapes
    clips: list[Box | None] = field(default_factory=list)  # the page's clipping rectangle round each form, if any

    @property
    def pieces(self) -> list[Box]:
        """Forms placed at actual size: pieces to cut out (a scaled-down form is a picture, e.g. a map)."""
        return [box for box, scale in zip(self.forms, self.scales) if abs(scale - 1) < 1e-3]


# A content stream's tokens as ReportLab writes them: a literal string (its parentheses escaped), a hex string, an
# array or dictionary bracket, a name, a number, an operator; whitespace and comments between them.
_TOKEN = re.compile(rb"""\s+|%[^\r\n]*|(\((?:\\.|[^\\()])*\))|(<[0-9A-Fa-f\s]*>)|(<<|>>|\[|\])|(/[^\s()<>\[\]{}/%]*)
                        |([+-]?(?:\d+\.?\d*|\.\d+))|([^\s()<>\[\]{}/%]+)""", re.S | re.X)


def operations(data: bytes) -> list[tuple[list, bytes]] | None:
    """The stream's (operands, operator) pairs, as pypdf's ContentStream.operations gives the ones read_page
    uses (numbers as floats, names as text; strings, arrays and dictionaries only skipped over), in a tenth
    of its time: a whole set's pages are read in seconds. None for what it does not read (an inline image, a
    string it cannot end), which pypdf then reads."""
    found, operands, depth, at = [], [], 0, 0
    while at < len(data):
        token = _TOKEN.match(data, at)
        if token is None:
            return None
        at = token.end()
        literal, hexa, bracket, name, number, operator = token.groups()
        if bracket is not None:
            depth += 1 if bracket in (b"<<", b"[") else -1
            if depth == 0:
                operands.append(bracket)  # the array or dictionary, as one operand
        elif depth:
            continue
        elif literal is not None or hexa is not None:
            operands.append(literal or hexa)
        elif name is not None:
            operands.append(name.decode("latin-1"))
        elif number is not None:
            operands.append(float(number))
        elif operator is not None:
            if operator in (b"BI", b"ID", b"EI") or operator in (b"true", b"false", b"null"):
                return None
            found.append((operands, operator))
            operands = []
    return found


def read_page(reader: PdfReader, index: int) -> PageDrawing:
    page = reader.pages[index]
    height = float(page.mediabox.height) / MM
    xobjects = page["/Resources"].get("/XObject", {})
    data = page.get_contents().get_data()
    steps = operations(data)
    if steps is None:
        steps = ContentStream(page.get_contents(), reader).operations
    ctm = (1, 0, 0, 1, 0, 0)
    stack = []
    path: list[list[tuple[float, float]]] = []
    forms: list[Box] = []
    scales: list[float] = []
    turns: list[int] = []
    fills: list[list[tuple[float, float]]] = []
    lines: list[Segment] = []
    clips: list[Box | None] = []
    clip: Box | None = None  # the page's own clipping rectangle in force (a tile's window)
    rect: Box | None = None  # the last rectangle the page's own path drew

    def to_mm(x, y):
        px, py = apply(ctm, x, y)
        return px / MM, height - py / MM

    def place(x0, y0, x1, y1):
        """A piece whose own box (in its own units, points) runs from (x0, y0) to (x1, y1)."""
        corners = [to_mm(x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        forms.append(Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
        scales.append(max(forms[-1].w, forms[-1].h) / (max(x1 - x0, y1 - y0) / MM))
        # a piece's own y runs down the page (its matrix flips y): turned clockwise, its x runs down the page too
        turns.append(round(math.degrees(math.atan2(-ctm[1], ctm[0]))) % 360)
        clips.append(clip)

    piece_opens = False  # inside a /Piece section, before its bleed box
    marked: list[bool] = []  # open marked-content sections: whether each is a /Piece

    for operands, op in steps:
        if op == b"q":
            stack.append((ctm, clip))
        elif op == b"Q":
            ctm, clip = stack.pop()
        elif op == b"cm":
            ctm = multiply(tuple(float(v) for v in operands), ctm)
        elif op in (b"BMC", b"BDC"):
            marked.append(operands[0] == "/Piece")
            piece_opens = marked[-1]
        elif op == b"EMC":
            marked.pop()
        elif op == b"re" and piece_opens:
            x, y, w, h = (float(v) for v in operands)
            place(x, y, x + w, y + h)
            piece_opens = False
        elif any(marked):  # what a piece draws (art forms included) is not the page's own, as inside a form
            continue
        elif op == b"Do":
            place(*(float(v) for v in xobjects[operands[0]].get_object()["/BBox"]))
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            (x0, y0), (x1, y1) = to_mm(x, y), to_mm(x + w, y + h)
            rect = Box(min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0))
        elif op in (b"W", b"W*"):
            clip = rect
        elif op == b"m":
            path.append([to_mm(*map(float, operands))])
        elif op == b"l":
            path[-1].append(to_mm(*map(float, operands)))
        elif op in (b"S", b"s"):
            for points in path:
                lines.extend(Segment(*a, *b) for a, b in zip(points, points[1:]))
            path = []
        elif op in (b"f", b"F", b"f*"):
            fills.extend(points for points in path if len(points) > 2)
            path = []
        elif op in (b"n", b"B", b"B*", b"b", b"b*"):
            path = []  # clipping paths and outlined fills are not lines
    return PageDrawing(forms, lines, height, scales, turns, fills, clips)


def resources_of(reader: PdfReader):
    """Every resource dictionary in the file: each page's, and each form's inside them, once."""
    seen: set[int] = set()
    todo = [page.get("/Resources") for page in reader.pages]
    while todo:
        resources = todo.pop()
        if resources is None:
            continue
        resources = resources.get_object()
        yield resources
        for ref in resources.get("/XObject", {}).values():
            xobj = ref.get_object()
            if "/Resources" in xobj and ref.idnum not in seen:
                seen.add(ref.idnum)
                todo.append(xobj["/Resources"])


def fonts_of(reader: PdfReader) -> list:
    """Every font dictionary used anywhere, once each."""
    fonts = {ref.idnum: ref.get_object() for res in resources_of(reader) for ref in res.get("/Font", {}).values()}
    return list(fonts.values())


def images_of(reader: PdfReader) -> list:
    """Every image XObject drawn anywhere, once each."""
    return list({ref.idnum: ref.get_object() for res in resources_of(reader)
                 for ref in res.get("/XObject", {}).values()
                 if ref.get_object().get("/Subtype") == "/Image"}.values())
