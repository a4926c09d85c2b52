"""Print-shop exports: every distinct face as its own PNG or PDF page, with a list pairing fronts and backs.

Print-on-demand services want one image (or page) per card face, bleed included, plus how many of each
to make; sheets with crop marks are for home printers.
"""
from __future__ import annotations

import csv
import io
import threading
from pathlib import Path
from typing import Callable, Iterator

from reportlab.pdfgen.canvas import Canvas

from ..look import fonts
from ..sheets.pdf import draw_scene
from ..look.render import Face
from ..look.scene import Scene
from ..look.units import PT_PER_MM

# Print-on-demand card presets: trim, bleed and safe zone (mm) as common services publish them.
PRESETS: dict[str, dict] = {
    "pod-poker": {"trim": (63.5, 88.9), "bleed": 3.175, "safe": 3.175, "dpi": 300,
                  "help": "2.5 x 3.5 in poker cards, 1/8 in bleed (most US print-on-demand shops)"},
    "pod-bridge": {"trim": (57.15, 88.9), "bleed": 3.175, "safe": 3.175, "dpi": 300,
                   "help": "2.25 x 3.5 in bridge cards, 1/8 in bleed"},
    "pod-mini": {"trim": (44.45, 63.5), "bleed": 3.175, "safe": 3.175, "dpi": 300,
                 "help": "1.75 x 2.5 in mini cards, 1/8 in bleed"},
    "pod-tarot": {"trim": (69.85, 120.65), "bleed": 3.175, "safe": 3.175, "dpi": 300,
                  "help": "2.75 x 4.75 in tarot cards, 1/8 in bleed"},
    "eu-poker": {"trim": (63.0, 88.0), "bleed": 3.0, "safe": 3.0, "dpi": 300,
                 "help": "63 x 88 mm cards, 3 mm bleed (European card printers)"},
    # DriveThruCards' card templates: 1/8 in bleed, and an uploaded PDF gives each card's back before its front.
    "drivethrucards": {"trim": (63.5, 88.9), "bleed": 3.175, "safe": 3.175, "dpi": 300, "back_first": True,
                       "help": "DriveThruCards poker cards, 1/8 in bleed, each card's back page before its front"},
}


def face_pdf(scenes: list[Scene], target) -> None:
    """One page per scene, sized to its bleed box, with TrimBox and BleedBox set."""
    first = scenes[0]
    c = Canvas(target, pagesize=(first.outer_width * PT_PER_MM, first.outer_height * PT_PER_MM), invariant=1,
               pageCompression=1, initialFontName=fonts.register("Lato-Regular"))
    for scene in scenes:
        ow, oh, b = (v * PT_PER_MM for v in (scene.outer_width, scene.outer_height, scene.bleed))
        c.setPageSize((ow, oh))
        c.setBleedBox((0, 0, round(ow, 3), round(oh, 3)))
        c.setTrimBox((round(b, 3), round(b, 3), round(ow - b, 3), round(oh - b, 3)))
        draw_scene(c, scene)
        c.showPage()
    c.save()


def write_faces_list(path: Path, rows: list[tuple[str, int, str, str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["component", "count", "front", "back"])
        writer.writerows(rows)


def write_svgs(all_faces: list[Face], out: Path) -> list[Path]:
    """<out>/<component>/<piece>[-colour]-front.svg and -back.svg, bleed included."""
    from ..sheets.svg import scene_to_svg  # only builds that ask for SVG pay for svgwrite

    written = []
    for face in all_faces:
        for side, scene in (("front", face.front), ("back", face.back)):
            if scene is not None:
                path = out / face.component / f"{face.stem}-{side}.svg"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(scene_to_svg(scene), encoding="utf-8")
                written.append(path)
    return written


# PDFium (pypdfium2) must never run in two threads at once: the companion serves /print from several
# threads, and two first-time previews at once crashed the whole server. Every use holds this lock.
PDFIUM = threading.Lock()


def render_face(scene: Scene, dpi: float):
    """The face as a PIL image at `dpi`, bleed included, exactly as many pixels as its size in mm asks."""
    (image,) = render_faces([scene], dpi)
    return image


def render_faces(scenes: list[Scene], dpi: float) -> Iterator:
    """Each face as render_face draws it, one at a time, the lot written as one PDF: its fonts are subset and
    the file compressed once, where a PDF per face pays for both every time."""
    import pypdfium2  # only PNG exports pay for PDFium

    buf = io.BytesIO()
    face_pdf(scenes, buf)
    with PDFIUM:
        document = pypdfium2.PdfDocument(buf.getvalue())
    try:
        for n, scene in enumerate(scenes):
            size = (round(scene.outer_width / 25.4 * dpi), round(scene.outer_height / 25.4 * dpi))
            with PDFIUM:
                page = document[n]
                image = page.render(scale=dpi / 72).to_pil().crop((0, 0, *size))  # PDFium rounds up; we round
                page.close()
            yield image
    finally:
        with PDFIUM:
            document.close()


def write_pngs(all_faces: list[Face], out: Path, dpi: int,
               progress: Callable[[int, int], None] = lambda done, total: None) -> list[Path]:
    """<out>/<component>/<piece>[-colour]-front.png and -back.png at `dpi`, bleed included, plus faces.csv;
    `progress(faces done, faces)` after each face, as rasterising hundreds of faces takes a while."""
    written, rows = [], []
    images = render_faces([scene for face in all_faces for scene in (face.front, face.back) if scene is not None], dpi)
    for done, face in enumerate(all_faces, 1):
        folder = out / face.component
        folder.mkdir(parents=True, exist_ok=True)
        names = []
        for side, scene in (("front", face.front), ("back", face.back)):
            if scene is None:
                names.append("")
                continue
            path = folder / f"{face.stem}-{side}.png"
            next(images).save(path, dpi=(dpi, dpi))
            written.append(path)
            names.append(str(path.relative_to(out)))
        rows.append((face.component, face.count, *names))
        progress(done, len(all_faces))
    list_path = out / "faces.csv"
    write_faces_list(list_path, rows)
    return [*written, list_path]


def write_single_pdf(all_faces: list[Face], out: Path, name: str, back_first: bool = False) -> list[Path]:
    """<name>-faces.pdf: each distinct face on its own page (front, then its back), plus <name>-faces.csv.

    `back_first` (a shop that takes each card as back then front) puts every back before its front, and a blank
    page before a one-sided face, so the pages keep pairing up however many faces have no back."""
    pages, rows = [], []
    for face in all_faces:
        if back_first:
            back = face.back or Scene(face.front.width, face.front.height, face.front.bleed, ())
            pages.extend((back, face.front))
            rows.append((face.component, face.count, f"page {len(pages)}",
                         f"page {len(pages) - 1}" if face.back is not None else ""))
            continue
        front_page = len(pages) + 1
        pages.append(face.front)
        back_page = ""
        if face.back is not None:
            pages.append(face.back)
            back_page = f"page {len(pages)}"
        rows.append((face.component, face.count, f"page {front_page}", back_page))
    path = out / f"{name}-faces.pdf"
    face_pdf(pages, str(path))
    list_path = out / f"{name}-faces.csv"
    write_faces_list(list_path, rows)
    return [path, list_path]
