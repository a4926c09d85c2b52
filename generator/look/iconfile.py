"""An icon file, read as a browser reads it, turned into scene elements both backends draw alike.

Drawn (components/README.md says the same for designers):
  elements    svg (a viewBox, or width and height), g, a, rect, circle, ellipse, line, polygon, polyline, path,
              text (one line), use of an element or a symbol by id in the same file, defs, symbol, clipPath,
              style; title, desc, metadata and other programs' own elements are skipped
  properties  fill, stroke and their -opacity, fill-rule, clip-rule, stroke-width, -linecap, -linejoin,
              -miterlimit, -dasharray, -dashoffset, opacity, display, visibility, clip-path, the font's: as
              attributes, in style="…" or from a <style> sheet (types, ids, classes), inherited as CSS does
  transform   on any element: matrix, translate, scale, rotate, skewX, skewY (a stroke scaled with it)
  colours     see COLOURS below: black and white stand for the ink and the paper the icon is printed with
Outside (one line naming the element, the file refused): filters, masks, gradients and patterns, markers,
embedded images and other documents, references to other files. A path whose data has an error is drawn up
to it with a warning, as SVG says. Colours are kept as roles (INK, PAPER, a mix of the two, or a fixed
colour) until an icon is drawn.
"""
from __future__ import annotations

import math
import os
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path as FilePath

from .geometry import IDENTITY, KAPPA, Matrix, ellipse_commands, then
from .scene import Circle, Element, Group, Line, Path, Polygon, Rect, Style, Text, TextLine
from .svgpath import NUMBER, NumberBeyondLimit, path_commands
from .svgstyle import Rule, StyleSheetError, cascade, declarations, parse_sheet
from .units import PT_PER_MM
from ..data.limits import MAX_FILE_BYTES, MAX_SVG_DEPTH, MAX_SVG_ELEMENTS, MAX_SVG_NUMBER, over
from ..data.yamlio import DataError

COLOURS = """one icon file prints in any ink on any paper:
  currentColor, black, #000, #000000, or no fill at all   the ink the layout passes
  white, #fff, #ffffff                                     the paper (what the icon sits on: cut-outs)
  a grey, rgb(P%,P%,P%) or #vvvvvv                         ink mixed toward paper by P% (a flat tint)
  none                                                     nothing
  any other colour                                         printed as written"""

INK = "ink"
PAPER = "paper"
MIX = "mix:"  # MIX + share of paper, e.g. "mix:0.5"

SVG_NS = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
SHAPES = frozenset({"rect", "circle", "ellipse", "line", "polygon", "polyline", "path"})
CONTAINERS = frozenset({"g", "a", "svg"})
# never drawn where they stand: read when something refers to them, or not at all
SKIPPED = frozenset({"title", "desc", "metadata", "defs", "symbol", "clipPath", "style", "linearGradient",
                     "radialGradient", "pattern", "marker", "mask", "filter", "script", "view", "animate",
                     "animateTransform", "animateMotion", "set", "font", "font-face"})
OUTSIDE = frozenset({"image", "foreignObject", "switch", "video", "audio", "iframe", "canvas", "textPath"})
PROPERTIES = frozenset({
    "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap",
    "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "opacity", "clip-path",
    "clip-rule", "display", "visibility", "font-family", "font-weight", "font-style", "font-size", "text-anchor",
    "filter", "mask", "marker", "marker-start", "marker-mid", "marker-end"})
NOT_INHERITED = frozenset({"opacity", "clip-path", "display", "filter", "mask"})
INHERITED = PROPERTIES - NOT_INHERITED
# properties naming something outside what is drawn when they are not "none"
OUTSIDE_PROPERTIES = {"filter": "filters", "mask": "masks", "marker": "markers", "marker-start": "markers",
                      "marker-mid": "markers", "marker-end": "markers"}
LENGTH_UNITS = {"": 1.0, "px": 1.0, "pt": 4 / 3, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0}
NUMBER_RE = re.compile(NUMBER)
LENGTH = re.compile(r"\s*(" + NUMBER + r")\s*([a-z]*)\s*")
TRANSFORM = re.compile(r"\s*([A-Za-z]+)\s*\(([^)]*)\)\s*,?")
FONT_NAMES = {("normal", "normal"): "Lato-Regular", ("bold", "normal"): "Lato-Bold",
              ("normal", "italic"): "Lato-Italic", ("900", "normal"): "Lato-Black"}


STYLES_KEPT = 4096  # different paints remembered (an icon set uses a few); past it the memory starts afresh
STYLE_KEPT_CHARACTERS = 256  # the most characters of property values a remembered paint holds: a few MiB in all
_STYLES: dict[tuple, Style] = {}
_RECOLOURED: dict[tuple[Style, str, str], Style] = {}


class IconFileError(DataError):
    """An icon file that is not valid SVG or uses what is outside what we draw."""


@dataclass(frozen=True)
class IconDrawing:
    """One icon file, read: its viewBox, its elements with colour roles, and the warnings reading it gave."""

    view_box: tuple[float, float, float, float]
    elements: tuple[Element, ...]
    warnings: tuple[str, ...] = ()


class _Reader:
    def __init__(self, file: FilePath, root: ET.Element):
        self.file = file
        self.ids: dict[str, ET.Element] = {}
        sheets: list[Rule] = []
        for node in root.iter():
            if "id" in node.attrib:
                self.ids.setdefault(node.attrib["id"], node)
            if node.tag == SVG_NS + "style" and node.attrib.get("type", "text/css").strip() in ("text/css", ""):
                try:
                    sheets += parse_sheet(node.text or "", len(sheets))
                except StyleSheetError as exc:
                    raise self.fail(f"<style>: {exc}") from None
        self.rules = cascade(sheets)
        self.clips: dict[str, Path | None] = {}
        self.expanding: set[str] = set()  # ids a <use> is drawing now: one that comes back refers to itself
        self.count = 0
        self.warnings: list[str] = []
        self.viewport = (100.0, 100.0)

    def fail(self, message: str) -> IconFileError:
        return IconFileError(f"{self.file}: {message} (what icons may use: see components/README.md)")

    # -- properties ---------------------------------------------------------------------------------

    def computed(self, node: ET.Element, tag: str, parent: dict[str, str]) -> dict[str, str]:
        """The node's properties as CSS computes them: inherited ones from its parent, then its presentation
        attributes, the style sheet's rules in cascade order, and its style="…", each over the one before."""
        own = {k: v for k, v in node.attrib.items() if k in PROPERTIES}
        if self.rules:
            classes = frozenset(node.attrib.get("class", "").split())
            node_id = node.attrib.get("id")
            for rule in self.rules:
                if rule.matches(tag, node_id, classes):
                    own.update((k, v) for k, v in rule.declarations if k in PROPERTIES)
        if "style" in node.attrib:
            own.update((k, v) for k, v in declarations(node.attrib["style"]) if k in PROPERTIES)
        props = {k: v for k, v in parent.items() if k in INHERITED}
        for key, value in own.items():
            value = value.strip()
            if value == "inherit":
                if key in parent:
                    props[key] = parent[key]
            else:
                props[key] = value
        for key in OUTSIDE_PROPERTIES.keys() & props.keys():  # mostly none: one set operation
            if props[key] != "none":
                raise self.fail(f"<{tag}> {key}={props[key][:40]!r}: {OUTSIDE_PROPERTIES[key]} are outside what is drawn")
        return props

    def parse_number(self, raw: str, what: str) -> float:
        try:
            value = float(raw)
        except ValueError:
            raise self.fail(f"{what}={raw[:40]!r} is not a number") from None
        if not abs(value) <= MAX_SVG_NUMBER:  # infinite, NaN or beyond any page (ReportLab writes up to 1e20)
            raise self.fail(f"{what}={raw[:20]!r} is beyond ±{MAX_SVG_NUMBER:,}")
        return value

    def length(self, raw: str, what: str) -> float:
        """A length in the icon's units (px): a number, or one with an absolute unit."""
        match = LENGTH.fullmatch(raw)
        if not match or match[2] not in LENGTH_UNITS:
            raise self.fail(f"{what}={raw[:40]!r} is not a length (a number, or px, pt, mm, cm or in)")
        return self.parse_number(match[1], what) * LENGTH_UNITS[match[2]]

    def number(self, node: ET.Element, tag: str, name: str, default: float | None = None) -> float:
        raw = node.attrib.get(name)
        if raw is None:
            if default is None:
                raise self.fail(f"<{tag}> needs {name}")
            return default
        value = self.length(raw, f"<{tag}> {name}")
        if value < 0 and name in ("width", "height", "r", "rx", "ry"):
            raise self.fail(f"<{tag}> {name}={raw!r} is negative")
        return value

    def numbers(self, raw: str, what: str) -> list[float]:
        if NUMBER_RE.sub("", raw).replace(",", "").strip():
            raise self.fail(f"{what}={raw[:40]!r} holds something other than numbers")
        return [self.parse_number(v, what) for v in NUMBER_RE.findall(raw)]

    def fraction(self, raw: str, what: str) -> float:
        raw = raw.strip()
        value = self.parse_number(raw[:-1], what) / 100 if raw.endswith("%") else self.parse_number(raw, what)
        return min(1.0, max(0.0, value))

    def colour(self, value: str | None, what: str) -> str | None:
        """A colour role: INK, PAPER, MIX+share, a fixed "#RRGGBB", or None for none."""
        return _colour_role("black" if value is None else value.strip().lower(), lambda: self.fail(
            f"{what}={value[:40]!r}: gradients and patterns are outside what is drawn" if "url(" in value else
            f"{what}={value[:40]!r} is not a colour (currentColor, a name, #rgb, #rrggbb or rgb(…))"))

    def style(self, props: dict[str, str], tag: str, alpha: float) -> Style:
        """The paint these properties give; the same properties give the same Style, found once (an icon set's
        files mostly say fill="currentColor" and nothing more). Only what is drawn is kept: a bad value is
        read again, and named with its file, each time."""
        key = (*props.items(), alpha)
        style = _STYLES.get(key)
        if style is None:
            # a long value (a dash list) is read again each time
            style = _kept(_STYLES, key, self._new_style(props, tag, alpha),
                          sum(map(len, props.values())) <= STYLE_KEPT_CHARACTERS)
        return style

    def _new_style(self, props: dict[str, str], tag: str, alpha: float) -> Style:
        fill = self.colour(props.get("fill"), f"<{tag}> fill")
        stroke = self.colour(props.get("stroke", "none"), f"<{tag}> stroke")
        width = self.length(props.get("stroke-width", "1"), f"<{tag}> stroke-width")
        if width <= 0:
            stroke = None
        rule = props.get("fill-rule", "nonzero")
        common = dict(fill=fill, opacity=alpha, fill_rule="evenodd" if rule == "evenodd" else "nonzero",
                      fill_opacity=self.fraction(props.get("fill-opacity", "1"), f"<{tag}> fill-opacity"))
        if stroke is None:
            return Style(**common)
        dash: tuple[float, ...] = ()
        if props.get("stroke-dasharray", "none").strip() != "none":
            dash = tuple(self.length(v, f"<{tag}> stroke-dasharray")
                         for v in re.split(r"[\s,]+", props["stroke-dasharray"].strip()))
            dash = () if any(v < 0 for v in dash) or not sum(dash) else dash * (len(dash) % 2 + 1)
        cap, join = props.get("stroke-linecap", "butt"), props.get("stroke-linejoin", "miter")
        return Style(**common, stroke=stroke, stroke_width=width, dash=dash,
                     stroke_opacity=self.fraction(props.get("stroke-opacity", "1"), f"<{tag}> stroke-opacity"),
                     cap=cap if cap in ("round", "square") else "butt",
                     join=join if join in ("round", "bevel") else "miter",
                     miter_limit=max(1.0, self.parse_number(props.get("stroke-miterlimit", "4"),
                                                            f"<{tag}> stroke-miterlimit")),
                     dash_offset=self.length(props.get("stroke-dashoffset", "0"), f"<{tag}> stroke-dashoffset"))

    # -- elements -----------------------------------------------------------------------------------

    def tag(self, node: ET.Element) -> str | None:
        """The SVG element's name; None for another program's own (Inkscape's, a comment)."""
        if not isinstance(node.tag, str) or not node.tag.startswith(SVG_NS):
            return None
        return node.tag[len(SVG_NS):]

    def children(self, node: ET.Element, props: dict[str, str], alpha: float, depth: int) -> tuple[Element, ...]:
        if depth > MAX_SVG_DEPTH:
            raise self.fail(f"elements nested more than {MAX_SVG_DEPTH} deep (a <use> one more)")
        out = []
        for child in node:
            element = self.element(child, props, alpha, depth)
            if element is not None:
                out.append(element)
        return tuple(out)

    def element(self, node: ET.Element, parent: dict[str, str], alpha: float, depth: int) -> Element | None:
        tag = self.tag(node)
        if tag is None or tag in SKIPPED:
            return None
        if tag in OUTSIDE:
            raise self.fail(f"<{tag}> is outside what is drawn")
        if tag not in SHAPES and tag not in CONTAINERS and tag not in ("use", "text"):
            return None  # an element SVG does not know draws nothing in a browser either
        self.count += 1
        if self.count > MAX_SVG_ELEMENTS:
            raise IconFileError(str(over(str(self.file), "elements drawn (each <use> counting what it draws)",
                                         self.count, MAX_SVG_ELEMENTS)))
        props = self.computed(node, tag, parent)
        if props.get("display") == "none":
            return None
        alpha *= self.fraction(props.get("opacity", "1"), f"<{tag}> opacity")
        if tag in CONTAINERS:
            drawn: Element | None = Group(self.children(node, props, alpha, depth + 1))
            if tag == "svg":  # an svg inside the icon: its own viewport
                drawn = self.viewport_group(node, drawn.children, self.number(node, tag, "width", 0.0) or None,
                                            self.number(node, tag, "height", 0.0) or None)
        elif tag == "use":
            drawn = self.use(node, props, alpha, depth)
        elif props.get("visibility", "visible") != "visible":
            return None
        elif tag == "text":
            drawn = self.text(node, props)
        else:
            style = self.style(props, tag, alpha)
            if style.fill is None and style.stroke is None:
                return None
            drawn = self.shape(node, tag, style)
        if drawn is None:
            return None
        return self.placed(node, tag, drawn, props, depth)

    def placed(self, node: ET.Element, tag: str, drawn: Element, props: dict[str, str], depth: int) -> Element | None:
        """The element under its own transform and clip-path."""
        matrix = self.transform(node.attrib["transform"]) if "transform" in node.attrib and tag != "svg" else None
        clip = None
        if props.get("clip-path", "none") != "none":
            clip = self.clip_path(props["clip-path"], tag, depth)
            if clip is None:  # an empty clip path hides the element
                return None
        if matrix is None and clip is None:
            return drawn
        if isinstance(drawn, Group) and drawn.matrix is None and drawn.clip is None and not drawn.dx and not drawn.dy:
            return replace(drawn, matrix=matrix, clip=clip)
        return Group((drawn,), clip=clip, matrix=matrix)

    def shape(self, node: ET.Element, tag: str, style: Style) -> Element | None:
        """A basic shape or path in this style; None when it has no size (SVG draws nothing then)."""
        n = lambda name, default=None: self.number(node, tag, name, default)  # noqa: E731
        if tag == "rect":
            w, h = n("width", 0.0), n("height", 0.0)
            rx, ry = node.attrib.get("rx"), node.attrib.get("ry")
            rx_v = n("rx") if rx is not None else None
            ry_v = n("ry") if ry is not None else None
            rx_v = ry_v if rx_v is None else rx_v
            ry_v = rx_v if ry_v is None else ry_v
            rx_v, ry_v = min(rx_v or 0.0, w / 2), min(ry_v or 0.0, h / 2)
            if w <= 0 or h <= 0:
                return None
            x, y = n("x", 0.0), n("y", 0.0)
            if rx_v != ry_v and rx_v > 0 and ry_v > 0:
                return Path(rounded_rect(x, y, w, h, rx_v, ry_v), style)
            return Rect(x, y, w, h, style, rx_v if rx_v > 0 and ry_v > 0 else 0.0)
        if tag == "circle":
            r = n("r", 0.0)
            return Circle(n("cx", 0.0), n("cy", 0.0), r, style) if r > 0 else None
        if tag == "ellipse":
            rx, ry = n("rx", 0.0), n("ry", 0.0)
            return Path(ellipse_commands(n("cx", 0.0), n("cy", 0.0), rx, ry), style) if rx > 0 and ry > 0 else None
        if tag == "line":
            return Line(n("x1", 0.0), n("y1", 0.0), n("x2", 0.0), n("y2", 0.0), replace(style, fill=None)) \
                if style.stroke else None
        if tag in ("polygon", "polyline"):
            values = self.numbers(node.attrib.get("points", ""), f"<{tag}> points")
            points = tuple(zip(values[::2], values[1::2]))  # an odd number out is dropped, as SVG says
            if len(points) < 2:
                return None
            if tag == "polygon":
                return Polygon(points, style)
            return Path((("M", *points[0]), *(("L", x, y) for x, y in points[1:])), style)
        try:
            commands, error = path_commands(node.attrib.get("d", ""))
        except NumberBeyondLimit as exc:
            raise self.fail(f"<path> d: {exc}") from None
        if error:
            name = f'<path id="{node.attrib["id"]}">' if "id" in node.attrib else "<path>"
            self.warnings.append(f"{self.file}: {name} d: {error}; drawn up to there, as a browser does")
        return Path(commands, style) if len(commands) > 1 else None

    def text(self, node: ET.Element, props: dict[str, str]) -> Text | None:
        if len(node):
            raise self.fail("<tspan> (in a <text>) is outside what is drawn: write one plain line per <text>")
        family = props.get("font-family", "Lato").split(",")[0].strip().strip("'\"")
        weight = props.get("font-weight", "normal").replace("400", "normal").replace("700", "bold")
        slant = props.get("font-style", "normal")
        font = FONT_NAMES.get((weight, slant))
        if family != "Lato" or font is None:
            raise self.fail(f"<text> font {family} {weight} {slant}: icons print in Lato (normal, bold, 900 or italic)")
        size = self.length(props.get("font-size", "16"), "<text> font-size")
        align = {"start": "left", "middle": "center", "end": "right"}.get(props.get("text-anchor", "start"))
        if align is None:
            raise self.fail(f"<text> text-anchor={props['text-anchor']!r}: start, middle or end")
        colour = self.colour(props.get("fill"), "<text> fill")
        words = " ".join((node.text or "").split())
        if colour is None or not words:
            return None
        line = TextLine(self.number(node, "text", "x", 0.0), self.number(node, "text", "y", 0.0), words)
        return Text((line,), font, size * PT_PER_MM, colour, align)

    def use(self, node: ET.Element, props: dict[str, str], alpha: float, depth: int) -> Element | None:
        """What a <use> points at, drawn where it stands and inheriting from it."""
        ref = (node.attrib.get("href") or node.attrib.get(XLINK_HREF) or "").strip()
        if not ref:
            return None
        if not ref.startswith("#"):
            raise self.fail(f"<use> href={ref[:60]!r}: a reference to another file is outside what is drawn")
        target = self.ids.get(ref[1:])
        if target is None:
            self.warnings.append(f"{self.file}: <use> href={ref[:60]!r}: no element has that id; nothing drawn")
            return None
        if ref[1:] in self.expanding:
            raise self.fail(f"<use> href={ref[:60]!r} refers to itself, through what it draws")
        self.expanding.add(ref[1:])
        try:
            if self.tag(target) == "symbol":
                symbol_props = self.computed(target, "symbol", props)
                children = self.children(target, symbol_props, alpha, depth + 1)
                width = self.number(node, "use", "width", 0.0) or self.number(target, "symbol", "width", 0.0)
                height = self.number(node, "use", "height", 0.0) or self.number(target, "symbol", "height", 0.0)
                drawn = self.viewport_group(target, children, width or None, height or None)
            else:
                drawn = self.element(target, props, alpha, depth + 1)
        finally:
            self.expanding.discard(ref[1:])
        x, y = self.number(node, "use", "x", 0.0), self.number(node, "use", "y", 0.0)
        if drawn is None or (x, y) == (0, 0):
            return drawn
        return Group((drawn,), matrix=(1.0, 0.0, 0.0, 1.0, x, y))

    def viewport_group(self, node: ET.Element, children: tuple[Element, ...], width: float | None,
                       height: float | None) -> Group:
        """Children of a symbol or inner svg, their viewBox fitted and centred into width x height (the
        outer viewport's size where not given), as SVG's default preserveAspectRatio does."""
        x, y = self.number(node, "svg", "x", 0.0), self.number(node, "svg", "y", 0.0)
        width, height = width or self.viewport[0], height or self.viewport[1]
        box = self.numbers(node.attrib.get("viewBox", ""), "viewBox")
        if len(box) != 4 or box[2] <= 0 or box[3] <= 0:
            return Group(children, matrix=(1.0, 0.0, 0.0, 1.0, x, y))
        scale = min(width / box[2], height / box[3])
        if node.attrib.get("preserveAspectRatio", "").strip() == "none":
            sx, sy = width / box[2], height / box[3]
        else:
            sx = sy = scale
        dx = x + (width - box[2] * sx) / 2 - box[0] * sx
        dy = y + (height - box[3] * sy) / 2 - box[1] * sy
        return Group(children, matrix=(sx, 0.0, 0.0, sy, dx, dy))

    def transform(self, raw: str) -> Matrix | None:
        """SVG's transform list as one matrix (None for none)."""
        if not raw.strip() or raw.strip() == "none":
            return None
        end = 0
        m = IDENTITY
        for match in TRANSFORM.finditer(raw):
            if match.start() != end:
                break
            end = match.end()
            name, values = match[1], self.numbers(match[2], f"transform {match[1]}")
            step = _transform_step(name, values)
            if step is None:
                raise self.fail(f"transform {name}({match[2].strip()[:40]}) is not an SVG transform")
            m = then(m, step)
        if end != len(raw) and raw[end:].strip():
            raise self.fail(f"transform={raw[:40]!r} is not a list of SVG transforms")
        return m

    def clip_path(self, raw: str, tag: str, depth: int) -> Path | None:
        """The outline a clip-path="url(#id)" names, as one path in the clipped element's units."""
        ref = re.fullmatch(r"url\(\s*['\"]?#([^)'\"]+)['\"]?\s*\)", raw.strip())
        if not ref:
            raise self.fail(f"<{tag}> clip-path={raw[:40]!r}: only url(#id) of a <clipPath> is drawn")
        if ref[1] in self.clips:
            return self.clips[ref[1]]
        node = self.ids.get(ref[1])
        if node is None or self.tag(node) != "clipPath":
            raise self.fail(f"<{tag}> clip-path={raw[:40]!r}: no <clipPath> has that id")
        if node.attrib.get("clipPathUnits", "userSpaceOnUse") != "userSpaceOnUse":
            raise self.fail("<clipPath> clipPathUnits=objectBoundingBox is outside what is drawn")
        self.clips[ref[1]] = None  # a clip path that clips itself clips to nothing
        commands: list[tuple] = []
        rule = "nonzero"
        outer = self.transform(node.attrib.get("transform", "")) or IDENTITY
        for child in node:
            child_tag = self.tag(child)
            if child_tag is None or child_tag in SKIPPED:
                continue
            if child_tag not in SHAPES and child_tag != "use":
                raise self.fail(f"<clipPath> holds <{child_tag}>: only shapes clip")
            props = self.computed(child, child_tag, {})
            if props.get("display") == "none":
                continue
            shape_node, shape_tag, m = child, child_tag, outer
            if child_tag == "use":  # a clip path's <use> names a shape
                ref_id = (child.attrib.get("href") or child.attrib.get(XLINK_HREF) or "").lstrip("#")
                shape_node = self.ids.get(ref_id)
                shape_tag = self.tag(shape_node) if shape_node is not None else None
                if shape_tag not in SHAPES:
                    continue
                m = then(m, (1.0, 0.0, 0.0, 1.0, self.number(child, "use", "x", 0.0),
                                 self.number(child, "use", "y", 0.0)))
                props = self.computed(shape_node, shape_tag, props)
            own = self.transform(shape_node.attrib.get("transform", ""))
            shape = self.shape(shape_node, shape_tag, Style(fill="#000000"))
            if shape is not None:
                commands += transformed(outline_commands(shape), then(m, own) if own else m)
                rule = "evenodd" if props.get("clip-rule") == "evenodd" else "nonzero"
        clip = Path(tuple(commands), Style(fill_rule=rule)) if commands else None
        self.clips[ref[1]] = clip
        return clip


def _transform_step(name: str, v: list[float]) -> Matrix | None:
    if name == "matrix" and len(v) == 6:
        return tuple(v)  # type: ignore[return-value]
    if name == "translate" and len(v) in (1, 2):
        return (1.0, 0.0, 0.0, 1.0, v[0], v[1] if len(v) == 2 else 0.0)
    if name == "scale" and len(v) in (1, 2):
        return (v[0], 0.0, 0.0, v[1] if len(v) == 2 else v[0], 0.0, 0.0)
    if name == "rotate" and len(v) in (1, 3):
        cos, sin = math.cos(math.radians(v[0])), math.sin(math.radians(v[0]))
        if len(v) == 1:
            return (cos, sin, -sin, cos, 0.0, 0.0)
        cx, cy = v[1], v[2]
        return (cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy)
    if name == "skewX" and len(v) == 1:
        return (1.0, 0.0, math.tan(math.radians(v[0])), 1.0, 0.0, 0.0)
    if name == "skewY" and len(v) == 1:
        return (1.0, math.tan(math.radians(v[0])), 0.0, 1.0, 0.0, 0.0)
    return None


def rounded_rect(x: float, y: float, w: float, h: float, rx: float, ry: float) -> tuple[tuple, ...]:
    """A rectangle with elliptical corners (rx ≠ ry), as path commands."""
    kx, ky = rx * KAPPA, ry * KAPPA
    return (("M", x + rx, y), ("L", x + w - rx, y), ("C", x + w - rx + kx, y, x + w, y + ry - ky, x + w, y + ry),
            ("L", x + w, y + h - ry), ("C", x + w, y + h - ry + ky, x + w - rx + kx, y + h, x + w - rx, y + h),
            ("L", x + rx, y + h), ("C", x + rx - kx, y + h, x, y + h - ry + ky, x, y + h - ry),
            ("L", x, y + ry), ("C", x, y + ry - ky, x + rx - kx, y, x + rx, y), ("Z",))


def outline_commands(shape: Element) -> tuple[tuple, ...]:
    """A shape's outline as path commands (a clip path joins its shapes' outlines into one)."""
    if isinstance(shape, Path):
        return shape.commands
    if isinstance(shape, Circle):
        return ellipse_commands(shape.cx, shape.cy, shape.r, shape.r)
    if isinstance(shape, Rect):
        x, y, w, h, r = shape.x, shape.y, shape.w, shape.h, shape.radius
        if r > 0:
            return rounded_rect(x, y, w, h, r, r)
        return (("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("Z",))
    if isinstance(shape, Polygon):
        return (("M", *shape.points[0]), *(("L", px, py) for px, py in shape.points[1:]), ("Z",))
    return ()


def transformed(commands: tuple[tuple, ...], m: Matrix) -> list[tuple]:
    if m == IDENTITY:
        return list(commands)
    a, b, c, d, e, f = m
    out = []
    for cmd in commands:
        values = cmd[1:]
        points = [(a * values[i] + c * values[i + 1] + e, b * values[i] + d * values[i + 1] + f)
                  for i in range(0, len(values), 2)]
        out.append((cmd[0], *(v for point in points for v in point)))
    return out


@lru_cache(maxsize=1)
def _named_colours() -> dict[str, str]:
    from reportlab.lib.colors import getAllNamedColors

    return {name.lower(): "#" + colour.hexval()[2:].upper() for name, colour in getAllNamedColors().items()}


def _colour_role(value: str, failure) -> str | None:
    if value in ("none", "transparent"):
        return None
    if value in ("currentcolor", "black", "#000", "#000000"):
        return INK
    if value in ("white", "#fff", "#ffffff"):
        return PAPER
    if value.startswith("url("):
        raise failure()
    channels = None
    if re.fullmatch(r"#[0-9a-f]{6}", value):
        channels = tuple(int(value[i:i + 2], 16) for i in (1, 3, 5))
    elif re.fullmatch(r"#[0-9a-f]{3}", value):
        channels = tuple(int(ch * 2, 16) for ch in value[1:])
    elif (rgb := re.fullmatch(r"rgb\(\s*([^,\s]+)\s*[,\s]\s*([^,\s]+)\s*[,\s]\s*([^,\s)]+)\s*\)", value)):
        try:
            channels = tuple(round(min(100.0, float(v[:-1])) * 2.55) if v.endswith("%") else min(255, round(float(v)))
                             for v in rgb.groups())
        except ValueError:
            raise failure() from None
        percent = {v[:-1] for v in rgb.groups() if v.endswith("%")}
        if len(percent) == 1 and all(v.endswith("%") for v in rgb.groups()):
            return f"{MIX}{float(percent.pop()) / 100:g}"
    elif value in _named_colours():
        return _colour_role(_named_colours()[value].lower(), failure)
    if channels is None:
        raise failure()
    if channels[0] == channels[1] == channels[2]:
        return f"{MIX}{channels[0] / 255:g}"
    return "#" + "".join(f"{max(0, v):02X}" for v in channels)


def read_icon_file(file: FilePath) -> IconDrawing:
    """One icon file drawn as scene elements with colour roles; IconFileError names the file."""
    try:
        with open(file, "rb", buffering=0) as stream:  # the open file's size: no second lookup of its name
            if os.fstat(stream.fileno()).st_size > MAX_FILE_BYTES:
                raise IconFileError(f"{file}: larger than {MAX_FILE_BYTES // 1024 // 1024} MiB")
            data = stream.readall()
    except OSError as exc:
        raise IconFileError(f"{file}: cannot be read: {exc.strerror or exc}") from None
    return read_icon(data, file)


def read_icon(data: bytes, file: FilePath) -> IconDrawing:
    """An icon's SVG text, read as the file `file` (which every message names)."""
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise IconFileError(f"{file}: not valid SVG: {exc}") from None
    reader = _Reader(file, root)
    name = root.tag.split("}")[-1] if isinstance(root.tag, str) else "?"
    if reader.tag(root) != "svg":
        raise reader.fail(f"the root element <{name}> is not an SVG root (it needs "
                          f'xmlns="{SVG_NS[1:-1]}")' if name == "svg" else f"the root element is <{name}>, not <svg>")
    box = reader.numbers(root.attrib.get("viewBox", ""), "<svg> viewBox")
    if not box and "width" in root.attrib and "height" in root.attrib:
        box = [0.0, 0.0, reader.number(root, "svg", "width"), reader.number(root, "svg", "height")]
    if len(box) != 4 or box[2] <= 0 or box[3] <= 0:
        raise reader.fail("<svg> needs a viewBox of four numbers, or a width and height, of positive size")
    reader.viewport = (box[2], box[3])
    props = reader.computed(root, "svg", {})
    if props.get("display") == "none":
        return IconDrawing((box[0], box[1], box[2], box[3]), (), tuple(reader.warnings))
    alpha = reader.fraction(props.get("opacity", "1"), "<svg> opacity")
    elements = reader.children(root, props, alpha, 1)
    if props.get("clip-path", "none") != "none" or "transform" in root.attrib:
        matrix = reader.transform(root.attrib.get("transform", ""))
        clip = reader.clip_path(props["clip-path"], "svg", 1) if props.get("clip-path", "none") != "none" else None
        elements = (Group(elements, clip=clip, matrix=matrix),)
    return IconDrawing((box[0], box[1], box[2], box[3]), elements, tuple(reader.warnings))


def recolour(element: Element, ink: str, paper: str) -> Element:
    """A copy of an icon's element with its colour roles made real colours."""
    if isinstance(element, Group):
        return replace(element, children=tuple(recolour(child, ink, paper) for child in element.children))
    if isinstance(element, Text):
        return replace(element, color=real_colour(element.color, ink, paper))
    return replace(element, style=_recoloured(element.style, ink, paper))


def _recoloured(style: Style, ink: str, paper: str) -> Style:
    """A style with its colour roles made real colours, made once per style and inks: the icons of a set share
    a few styles (Reader.style), so 2,000 icons in one ink make a few."""
    key = (style, ink, paper)
    coloured = _RECOLOURED.get(key)
    if coloured is None:
        coloured = _kept(_RECOLOURED, key, replace(style, fill=real_colour(style.fill, ink, paper),
                                                   stroke=real_colour(style.stroke, ink, paper)),
                         len(style.dash) <= 16)  # a long dash list is not kept
    return coloured


def _kept(memory: dict, key: tuple, value: Style, keep: bool) -> Style:
    """`value`, remembered under `key` when `keep`: a memory of at most STYLES_KEPT styles, which starts
    afresh when full (a folder's icons cannot grow it)."""
    if keep:
        if len(memory) >= STYLES_KEPT:
            memory.clear()
        memory[key] = value
    return value


def real_colour(role: str | None, ink: str, paper: str) -> str | None:
    if role == INK:
        return ink
    if role == PAPER:
        return paper
    if role is not None and role.startswith(MIX):
        return blend(ink, paper, float(role[len(MIX):]))
    return role


def blend(ink: str, paper: str, share: float) -> str:
    """A flat tint between ink and paper: no transparency, so every PDF viewer draws it the same."""
    a, b = ink.lstrip("#"), paper.lstrip("#")
    if len(a) != 6 or len(b) != 6:
        return ink
    return "#" + "".join(f"{round(int(a[i:i + 2], 16) * (1 - share) + int(b[i:i + 2], 16) * share):02X}"
                         for i in (0, 2, 4))
