"""How alike our drawing of an icon file is to Chromium's drawing of the same file.

Each drawing is made black on white at PX pixels a side, the file's viewBox fitted and centred into the
square the same way by both (as an <img> draws it, as our layouts place an icon), so the pixels are compared
where they stand: one stray pixel of one renderer moves nothing else (cropping each drawing to its own ink
and scaling the two to one size did: a tapering tip a paler grey in PDFium than in Chromium shifted every
thin stroke). Its ink is every pixel at least half dark (where both renderers put an edge, whatever their
anti-aliasing, and a 50 % grey however each rounds it); the likeness is the share of ink pixels the two have
in common (shared / either). Used by the icon fixtures test (tests/generator/test_icons_like_a_browser.py)
and the bench of public icon sets (bench/icon_sets.py), so both measure the same way.
"""
from __future__ import annotations

import base64
import io

import numpy as np
from PIL import Image

from starpnp.generator.look.icons import Icon
from starpnp.generator.look.ink import low_ink
from starpnp.generator.look.scene import Scene
from starpnp.generator.look.units import PT_PER_MM
from starpnp.generator.sheets.svg import scene_to_svg

PX = 192  # pixels a side each icon is drawn at
SIZE_MM = 8.0  # an icon's size on a face: small enough that --ink low keeps its fills (see ink.LARGE)
INK, PAPER = "#000000", "#FFFFFF"
ALIKE = 0.9
GRID = 10  # icons a row on the Chromium page
# PDFium fills every pixel an edge touches, a pixel more than Chromium's anti-aliased edge on each side:
# drawn this many times larger and averaged down, the edge is where Chromium puts it
SUPERSAMPLE = 4


def icon_scene(icon: Icon, low: bool = False) -> Scene:
    """The icon alone on a face of its size, black on white, as the build draws it (--ink low: after low_ink)."""
    scene = Scene(SIZE_MM, SIZE_MM, 0.0, (icon.draw(0, 0, SIZE_MM, INK, PAPER),), label=icon.name)
    return low_ink(scene) if low else scene


def ink(image: Image.Image) -> np.ndarray:
    """Pixels at least half dark: a 50 % grey, 127.5, is 127 in Chromium and 128 in PDFium (Tabler's
    opacity=".5" arcs), the same half rounded two ways, ink in both."""
    return np.asarray(image.convert("L")) <= 128


def likeness(a: Image.Image, b: Image.Image) -> float:
    """Shared ink over either's ink, pixel for pixel (1.0: both blank)."""
    first, second = ink(a), ink(b)
    either = (first | second).sum()
    return float((first & second).sum() / either) if either else 1.0


def pdf_drawings(scenes: list[Scene]) -> list[Image.Image]:
    """Each scene drawn by our PDF backend on a page of its own, rasterised by PDFium."""
    import pypdfium2
    from reportlab.pdfgen.canvas import Canvas

    from starpnp.generator.sheets.pdf import draw_scene

    buffer = io.BytesIO()
    c = Canvas(buffer)
    for scene in scenes:
        c.setPageSize((scene.outer_width * PT_PER_MM, scene.outer_height * PT_PER_MM))
        c.saveState()
        draw_scene(c, scene)
        c.restoreState()
        c.showPage()
    c.save()
    document = pypdfium2.PdfDocument(buffer.getvalue())
    scale = SUPERSAMPLE * PX / (SIZE_MM * PT_PER_MM)
    big = SUPERSAMPLE * PX
    try:
        # PDFium rounds the page's size up: its one pixel more (a blank row and column) is cut off
        return [document[i].render(scale=scale).to_pil().convert("RGB").crop((0, 0, big, big))
                .resize((PX, PX), Image.BOX) for i in range(len(scenes))]
    finally:
        document.close()


def browser_drawings(page, svgs: list[bytes]) -> list[Image.Image]:
    """Each SVG file as Chromium draws it in an <img> PX pixels a side: one page, one screenshot per GRID rows."""
    out: list[Image.Image] = []
    batch = GRID * GRID
    for start in range(0, len(svgs), batch):
        part = svgs[start:start + batch]
        cells = "".join(f'<img src="data:image/svg+xml;base64,{base64.b64encode(svg).decode()}" '
                        f'width="{PX}" height="{PX}">' for svg in part)
        page.set_viewport_size({"width": GRID * PX, "height": max(1, -(-len(part) // GRID)) * PX})
        page.set_content(f"<style>body{{margin:0;background:#fff;line-height:0;width:{GRID * PX}px}}"
                         f"img{{display:inline-block;vertical-align:top}}</style>{cells}")
        page.wait_for_function("Array.from(document.images).every(i => i.complete)")
        shot = Image.open(io.BytesIO(page.screenshot(full_page=True))).convert("RGB")
        for i in range(len(part)):
            x, y = (i % GRID) * PX, (i // GRID) * PX
            out.append(shot.crop((x, y, x + PX, y + PX)))
    return out


def our_drawings(page, icons: list[Icon], low: bool = False,
                 with_svg: bool = True) -> tuple[list[Image.Image], list[Image.Image] | None]:
    """(PDF drawings, SVG drawings or None) of the icons by our two backends."""
    scenes = [icon_scene(icon, low) for icon in icons]
    svg = browser_drawings(page, [scene_to_svg(s).encode() for s in scenes]) if with_svg else None
    return pdf_drawings(scenes), svg
