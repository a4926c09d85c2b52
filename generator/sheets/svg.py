"""svgwrite backend: one scene, one SVG file, same millimetre geometry as the PDF."""
from __future__ import annotations

import base64
import mimetypes
from itertools import count
from pathlib import Path as FilePath

import svgwrite
from PIL import Image as PILImage

from ..look.fonts import GAME_FACES, font_face_css, svg_font, text_width_mm
from ..look.images import cover_or_contain, svg_aspect
from ..look.scene import Circle, Element, Group, Image, Line, Path, Polygon, Rect, RichText, Scene, Style, Text
from ..look.units import PT_PER_MM

ANCHOR = {"left": "start", "center": "middle", "right": "end"}


def n(value: float) -> str:
    """Numbers rounded to a micrometre keep files small and byte-for-byte repeatable."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _style(style: Style) -> dict:
    attrs = {"fill": style.fill or "none"}
    if style.fill and style.fill_rule != "nonzero":
        attrs["fill_rule"] = style.fill_rule
    if style.fill and style.fill_opacity != 1.0:
        attrs["fill_opacity"] = n(style.fill_opacity)
    if style.stroke:
        attrs.update(stroke=style.stroke, stroke_width=n(style.stroke_width))
        if style.dash:
            attrs["stroke_dasharray"] = " ".join(n(d) for d in style.dash)
            if style.dash_offset:
                attrs["stroke_dashoffset"] = n(style.dash_offset)
        if style.cap != "butt":
            attrs["stroke_linecap"] = style.cap
        if style.join != "miter":
            attrs["stroke_linejoin"] = style.join
        if style.miter_limit not in (None, 4.0):  # SVG's own is 4
            attrs["stroke_miterlimit"] = n(style.miter_limit)
        if style.stroke_opacity != 1.0:
            attrs["stroke_opacity"] = n(style.stroke_opacity)
    if style.opacity != 1.0:
        attrs["opacity"] = n(style.opacity)
    return attrs


class SvgWriter:
    def __init__(self, scene: Scene):
        self.scene = scene
        b = scene.bleed
        self.dwg = svgwrite.Drawing(
            size=(f"{n(scene.outer_width)}mm", f"{n(scene.outer_height)}mm"),
            viewBox=f"{n(-b)} {n(-b)} {n(scene.outer_width)} {n(scene.outer_height)}",
            profile="full",
            debug=False,
        )
        self.ids = count(1)
        self.game_faces: set[str] = set()  # a game's own font faces the texts use, carried in the file
        if scene.label:
            self.dwg.set_desc(title=scene.label)

    def shape(self, s: Rect | Circle | Polygon | Path, **attrs):
        d = self.dwg
        if isinstance(s, Path):
            return d.path(d=" ".join(cmd + " ".join(n(a) for a in args) for cmd, *args in s.commands), **attrs)
        if isinstance(s, Rect):
            extra = {"rx": n(s.radius), "ry": n(s.radius)} if s.radius > 0 else {}
            return d.rect((n(s.x), n(s.y)), (n(s.w), n(s.h)), **extra, **attrs)
        if isinstance(s, Circle):
            return d.circle((n(s.cx), n(s.cy)), n(s.r), **attrs)
        return d.polygon([(n(x), n(y)) for x, y in s.points], **attrs)

    def clip(self, shape: Rect | Circle | Polygon | Path) -> str:
        clip_id = f"clip{next(self.ids)}"
        clip_path = self.dwg.defs.add(self.dwg.clipPath(id=clip_id))
        rule = {"clip_rule": "evenodd"} if isinstance(shape, Path) and shape.style.fill_rule == "evenodd" else {}
        clip_path.add(self.shape(shape, **rule))
        return f"url(#{clip_id})"

    def element(self, e: Element):
        d = self.dwg
        if isinstance(e, (Rect, Circle, Polygon, Path)):
            return self.shape(e, **_style(e.style))
        if isinstance(e, Line):
            return d.line((n(e.x1), n(e.y1)), (n(e.x2), n(e.y2)), **_style(e.style))
        if isinstance(e, Text):
            return self.text(e)
        if isinstance(e, RichText):  # its pieces stand side by side: each keeps the width it was placed at
            group = d.g()
            for child in e.children:
                group.add(self.text(child, fixed=True) if isinstance(child, Text) else self.element(child))
            return group
        if isinstance(e, Image):
            return self.image(e)
        if isinstance(e, Group):
            transform = f"translate({n(e.dx)} {n(e.dy)})"
            if e.rotate:
                transform += f" rotate({n(e.rotate)})"
            if e.scale != 1.0:
                transform += f" scale({e.scale:.6g})"  # a factor, not a length: micrometres would be 3 % off an icon
            if e.matrix is not None:
                transform += " matrix(" + " ".join(f"{v:.6g}" for v in e.matrix[:4]) + \
                    f" {n(e.matrix[4])} {n(e.matrix[5])})"
            group = d.g(transform=transform)
            target = group
            if e.clip is not None:
                target = group.add(d.g(clip_path=self.clip(e.clip)))
            for child in e.children:
                target.add(self.element(child))
            return group
        raise TypeError(f"cannot draw {type(e).__name__}")  # pragma: no cover

    def text(self, e: Text, fixed: bool = False):
        """The lines of a text; `fixed`: each as wide as Lato sets it (textLength), so a viewer that falls back
        to another font cannot push one piece of a rich line over the next."""
        d = self.dwg
        family, weight, slant = svg_font(e.font)
        if e.font in GAME_FACES:
            self.game_faces.add(e.font)
        group = d.g(
            font_family=family,
            font_weight=weight,
            font_style=slant,
            font_size=n(e.size / PT_PER_MM),
            fill=e.color,
            text_anchor=ANCHOR[e.align],
        )
        for line in e.lines:
            exact = {"textLength": n(text_width_mm(line.text, e.font, e.size)),
                     "lengthAdjust": "spacingAndGlyphs"} if fixed else {}
            group.add(d.text(line.text, insert=(n(line.x), n(line.y)), **exact))
        return group

    def image(self, e: Image):
        data = FilePath(e.path).read_bytes()
        mime = mimetypes.guess_type(e.path)[0] or "image/png"
        aspect = svg_aspect(e.path) if mime == "image/svg+xml" and e.focus != (0.5, 0.5) else None
        if aspect is not None:  # off-centre: placed as the PDF places it, from the art's own proportions
            iw, ih = aspect, 1.0
        elif mime == "image/svg+xml":
            iw, ih = e.w, e.h  # SVG art scales itself; preserveAspectRatio does the fitting
        else:
            with PILImage.open(e.path) as pil:
                iw, ih = pil.size
        x, y, w, h = cover_or_contain(e, iw, ih)
        group = self.dwg.g(clip_path=self.clip(Rect(e.x, e.y, e.w, e.h, Style())))
        href = f"data:{mime};base64,{base64.b64encode(data).decode()}"
        aspect = "xMidYMid slice" if e.fit == "cover" else "xMidYMid meet"
        group.add(self.dwg.image(href, insert=(n(x), n(y)), size=(n(w), n(h)), preserveAspectRatio=aspect))
        return group

    def render(self) -> str:
        b = self.scene.bleed
        root = self.dwg.g(clip_path=self.clip(Rect(-b, -b, self.scene.outer_width, self.scene.outer_height, Style())))
        for e in self.scene.elements:
            root.add(self.element(e))
        self.dwg.add(root)
        if self.game_faces:
            self.dwg.defs.add(self.dwg.style("\n".join(font_face_css(f) for f in sorted(self.game_faces))))
        return self.dwg.tostring()


def scene_to_svg(scene: Scene) -> str:
    return SvgWriter(scene).render()
