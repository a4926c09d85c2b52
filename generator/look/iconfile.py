"""An icon file, read: the small part of SVG our icons are drawn in, turned into scene elements.

The subset (anything else is refused, naming the file):
  elements    svg (with viewBox), g, rect, circle, ellipse, line, polygon, polyline, path, text,
              defs/clipPath (one rect, circle or polygon, used by a g's clip-path), title, desc, metadata
  path data   M L H V C S Q T A Z, absolute or relative
  transform   translate, rotate (about the origin or a point), uniform scale, on g only
  style       fill, stroke, stroke-width, stroke-dasharray, opacity, font-family/-weight/-style/-size,
              text-anchor: as attributes or in style="…"; fill and stroke and the stroke's looks inherit
  colours     see COLOURS below: black and white stand for the ink and the paper the icon is printed with
Colours are kept as roles (INK, PAPER, a mix of the two, or a fixed colour) until an icon is drawn.
"""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path as FilePath

from .geometry import ellipse_commands
from .scene import Circle, Element, Group, Line, Path, Polygon, Rect, Style, Text, TextLine
from .units import PT_PER_MM
from ..data.limits import MAX_FILE_BYTES, MAX_SVG_DEPTH, MAX_SVG_NUMBER
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
SHAPES = {"rect", "circle", "ellipse", "line", "polygon", "polyline", "path", "text"}
IGNORED = {"title", "desc", "metadata"}
INHERITED = ("fill", "stroke", "stroke-width", "stroke-dasharray", "font-family", "font-weight", "font-style",
             "font-size", "text-anchor")
STYLE_PROPERTIES = set(INHERITED) | {"opacity"}
# Properties outside the subset that Inkscape and friends write with their default value: harmless.
DEFAULTS = {"fill-opacity": "1", "stroke-opacity": "1", "fill-rule": "nonzero", "stroke-linecap": "butt",
            "stroke-linejoin": "miter", "stroke-miterlimit": "4", "stroke-dashoffset": "0", "visibility": "visible",
            "display": "inline", "font-variant": "normal", "font-stretch": "normal"}
GEOMETRY = {"rect": {"x", "y", "width", "height", "rx", "ry"}, "circle": {"cx", "cy", "r"},
            "ellipse": {"cx", "cy", "rx", "ry"}, "line": {"x1", "y1", "x2", "y2"}, "polygon": {"points"},
            "polyline": {"points"}, "path": {"d"}, "text": {"x", "y"}, "g": {"transform", "clip-path"},
            "svg": {"viewBox", "width", "height", "version", "preserveAspectRatio"}, "clipPath": {"clipPathUnits"}}
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
FONT_NAMES = {("normal", "normal"): "Lato-Regular", ("bold", "normal"): "Lato-Bold",
              ("normal", "italic"): "Lato-Italic", ("900", "normal"): "Lato-Black"}


class IconFileError(DataError):
    """An icon file that is not valid SVG or steps outside the subset."""


class _Reader:
    def __init__(self, file: FilePath):
        self.file = file
        self.clips: dict[str, Rect | Circle | Polygon] = {}

    def fail(self, message: str) -> IconFileError:
        return IconFileError(f"{self.file}: {message} (icons use a small part of SVG; see components/README.md)")

    # -- attributes ---------------------------------------------------------------------------------

    def properties(self, node: ET.Element, tag: str) -> dict[str, str]:
        """The node's own presentation properties (attributes and style="…"), unknown ones refused."""
        own: dict[str, str] = {}
        declared = [(k, v) for k, v in node.attrib.items() if not k.startswith("{")]
        for declaration in node.attrib.get("style", "").split(";"):
            if declaration.strip():
                key, _, value = declaration.partition(":")
                declared.append((key.strip(), value.strip()))
        for key, value in declared:
            if key in ("style", "id", "class") or key.startswith(("data-", "aria-")) or key in GEOMETRY.get(tag, ()):
                continue
            if key == "opacity" and tag in ("g", "svg") and value.strip() != "1":
                raise self.fail(f"<{tag}> opacity: give each shape inside its own opacity")
            if key in STYLE_PROPERTIES:
                own[key] = value
            elif DEFAULTS.get(key) != value.strip():
                raise self.fail(f"<{tag}> {key}={value!r} is outside the subset")
        return own

    def number(self, node: ET.Element, tag: str, name: str, default: float | None = None) -> float:
        raw = node.attrib.get(name)
        if raw is None:
            if default is None:
                raise self.fail(f"<{tag}> needs {name}")
            return default
        value = self.parse_number(raw.removesuffix("px"), f"<{tag}> {name}")
        if value < 0 and name in ("width", "height", "r", "rx", "ry"):
            raise self.fail(f"<{tag}> {name}={raw!r} is negative")
        return value

    def parse_number(self, raw: str, what: str) -> float:
        try:
            value = float(raw)
        except ValueError:
            raise self.fail(f"{what}={raw!r} is not a number (no units other than px)") from None
        if not abs(value) <= MAX_SVG_NUMBER:  # infinite, NaN or beyond any page (ReportLab writes up to 1e20)
            raise self.fail(f"{what}={raw[:20]!r} is beyond ±{MAX_SVG_NUMBER:,}")
        return value

    def numbers(self, raw: str, what: str) -> list[float]:
        if NUMBER.sub("", raw).replace(",", "").strip():
            raise self.fail(f"{what}={raw[:40]!r} holds something other than numbers")
        return [self.parse_number(v, what) for v in NUMBER.findall(raw)]

    def colour(self, value: str | None, what: str) -> str | None:
        """A colour role: INK, PAPER, MIX+share, a fixed "#rrggbb", or None for none."""
        value = "black" if value is None else value.strip()
        low = value.lower()
        if low == "none":
            return None
        if low in ("currentcolor", "black", "#000", "#000000"):
            return INK
        if low in ("white", "#fff", "#ffffff"):
            return PAPER
        grey = re.fullmatch(r"rgb\(\s*([\d.]+)%\s*,\s*([\d.]+)%\s*,\s*([\d.]+)%\s*\)", low)
        if grey:
            shares = {float(v) for v in grey.groups()}
            if len(shares) == 1 and 0 <= (share := shares.pop()) <= 100:
                return f"{MIX}{share / 100:g}"
            if max(float(v) for v in grey.groups()) <= 100:
                return "#" + "".join(f"{round(float(v) * 2.55):02X}" for v in grey.groups())
        if re.fullmatch(r"#[0-9a-f]{6}", low):
            return f"{MIX}{int(low[1:3], 16) / 255:g}" if low[1:3] == low[3:5] == low[5:7] else value.upper()
        if re.fullmatch(r"#[0-9a-f]{3}", low):
            return self.colour("#" + "".join(ch * 2 for ch in low[1:]), what)
        raise self.fail(f"{what}={value!r}: colours are currentColor, black, white, none, "
                        f"#rgb, #rrggbb or rgb(P%,P%,P%)")

    def style(self, props: dict[str, str], tag: str) -> Style:
        stroke = self.colour(props.get("stroke", "none"), f"<{tag}> stroke")
        width = self.parse_number(props.get("stroke-width", "1").removesuffix("px"), f"<{tag}> stroke-width")
        dash_raw = props.get("stroke-dasharray", "none")
        dash = () if dash_raw.strip() == "none" else tuple(self.numbers(dash_raw, f"<{tag}> stroke-dasharray"))
        opacity = self.parse_number(props.get("opacity", "1"), f"<{tag}> opacity")
        fill = self.colour(props.get("fill"), f"<{tag}> fill")
        opacity = min(1.0, max(0.0, opacity))
        if stroke is None:
            return Style(fill=fill, opacity=opacity)
        return Style(fill=fill, stroke=stroke, stroke_width=width, dash=dash, opacity=opacity)

    # -- elements -----------------------------------------------------------------------------------

    def children(self, node: ET.Element, inherited: dict[str, str], depth: int = 1) -> tuple[Element, ...]:
        if depth > MAX_SVG_DEPTH:
            raise self.fail(f"elements nested more than {MAX_SVG_DEPTH} deep")
        out = []
        for child in node:
            element = self.element(child, inherited, depth)
            if element is not None:
                out.append(element)
        return tuple(out)

    def tag(self, node: ET.Element) -> str:
        if not isinstance(node.tag, str) or not node.tag.startswith(SVG_NS):
            name = node.tag.split("}")[-1] if isinstance(node.tag, str) else "?"
            raise self.fail(f"<{name}> is not in the SVG namespace (the root needs "
                            f'xmlns="{SVG_NS[1:-1]}")' if name == "svg" else f"<{name}> is not an SVG element")
        return node.tag[len(SVG_NS):]

    def element(self, node: ET.Element, inherited: dict[str, str], depth: int = 1) -> Element | None:
        tag = self.tag(node)
        if tag in IGNORED:
            return None
        if tag == "defs":
            for child in node:
                self.clip_path(child)
            return None
        if tag != "g" and tag not in SHAPES:
            raise self.fail(f"<{tag}> is outside the subset")
        if tag != "g" and "transform" in node.attrib:
            raise self.fail(f"<{tag}> transform: put the shape in a <g transform=…>")
        own = self.properties(node, tag)
        props = {**{k: v for k, v in inherited.items() if k in INHERITED}, **own}
        if tag == "g":
            return self.group(node, props, depth)
        if tag == "text":
            return self.text(node, props)
        style = self.style(props, tag)
        n = lambda name, default=None: self.number(node, tag, name, default)  # noqa: E731
        if tag == "rect":
            rx, ry = node.attrib.get("rx"), node.attrib.get("ry")
            radius = n("rx" if rx is not None else "ry", 0.0)
            if rx is not None and ry is not None and n("rx") != n("ry"):
                raise self.fail("<rect> rx and ry differ: only round corners are drawn")
            return Rect(n("x", 0.0), n("y", 0.0), n("width"), n("height"), style, radius)
        if tag == "circle":
            return Circle(n("cx", 0.0), n("cy", 0.0), n("r"), style)
        if tag == "ellipse":
            return Path(ellipse_commands(n("cx", 0.0), n("cy", 0.0), n("rx"), n("ry")), style)
        if tag == "line":
            return Line(n("x1", 0.0), n("y1", 0.0), n("x2", 0.0), n("y2", 0.0), style)
        if tag in ("polygon", "polyline"):
            values = self.numbers(node.attrib.get("points", ""), f"<{tag}> points")
            if len(values) < 4 or len(values) % 2:
                raise self.fail(f"<{tag}> points needs at least two x,y pairs")
            points = tuple(zip(values[::2], values[1::2]))
            if tag == "polygon":
                return Polygon(points, style)
            return Path((("M", *points[0]), *(("L", x, y) for x, y in points[1:])), style)
        return Path(self.path_data(node.attrib.get("d", "")), style)

    def text(self, node: ET.Element, props: dict[str, str]) -> Text:
        if len(node):
            raise self.fail("<text> holds other elements (tspan): write one plain line per <text>")
        family = props.get("font-family", "Lato").split(",")[0].strip().strip("'\"")
        weight = props.get("font-weight", "normal").replace("400", "normal").replace("700", "bold")
        slant = props.get("font-style", "normal")
        font = FONT_NAMES.get((weight, slant))
        if family != "Lato" or font is None:
            raise self.fail(f"<text> font {family} {weight} {slant}: icons print in Lato (normal, bold, 900 or italic)")
        size = self.parse_number(props.get("font-size", "16").removesuffix("px"), "<text> font-size")
        align = {"start": "left", "middle": "center", "end": "right"}.get(props.get("text-anchor", "start"))
        if align is None:
            raise self.fail(f"<text> text-anchor={props['text-anchor']!r}: start, middle or end")
        colour = self.colour(props.get("fill"), "<text> fill")
        line = TextLine(self.number(node, "text", "x", 0.0), self.number(node, "text", "y", 0.0), " ".join((node.text or "").split()))
        return Text((line,), font, size * PT_PER_MM, colour or INK, align)

    def group(self, node: ET.Element, props: dict[str, str], depth: int) -> Element:
        children = self.children(node, props, depth + 1)
        clip = None
        if "clip-path" in node.attrib:
            ref = re.fullmatch(r"url\(#([^)]+)\)", node.attrib["clip-path"].strip())
            if not ref or ref[1] not in self.clips:
                raise self.fail(f"<g> clip-path={node.attrib['clip-path']!r}: no such <clipPath> in <defs> before it")
            clip = self.clips[ref[1]]
        steps = self.transform(node.attrib.get("transform", ""))
        # translate, rotate, scale in that order is one Group; any other order nests one Group per step
        dx = dy = rotate = 0.0
        scale = 1.0
        order = [kind for kind, _ in steps]
        if order in ([], ["t"], ["r"], ["s"], ["t", "r"], ["t", "s"], ["r", "s"], ["t", "r", "s"]):
            for kind, value in steps:
                if kind == "t":
                    dx, dy = value
                elif kind == "r":
                    rotate = value
                else:
                    scale = value
            return Group(children, clip, dx, dy, rotate, scale)
        group = Group(children, clip)
        for kind, value in reversed(steps):
            group = Group((group,), dx=value[0] if kind == "t" else 0.0, dy=value[1] if kind == "t" else 0.0,
                          rotate=value if kind == "r" else 0.0, scale=value if kind == "s" else 1.0)
        return group

    def transform(self, raw: str) -> list[tuple[str, object]]:
        """[("t", (dx, dy)) | ("r", degrees) | ("s", factor)], rotations about a point unfolded."""
        if not re.fullmatch(r"(\s*\w+\s*\([^)]*\)\s*,?)*\s*", raw):
            raise self.fail(f"transform={raw[:40]!r} is not a list of translate, rotate and scale")
        steps: list[tuple[str, object]] = []
        for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", raw):
            values = self.numbers(args, f"transform {name}")
            if name == "translate" and len(values) in (1, 2):
                steps.append(("t", (values[0], values[1] if len(values) == 2 else 0.0)))
            elif name == "rotate" and len(values) == 1:
                steps.append(("r", values[0]))
            elif name == "rotate" and len(values) == 3:
                a, cx, cy = values
                steps += [("t", (cx, cy)), ("r", a), ("t", (-cx, -cy))]
            elif name == "scale" and (len(values) == 1 or (len(values) == 2 and values[0] == values[1])):
                steps.append(("s", values[0]))
            else:
                raise self.fail(f"transform {name}({args.strip()}) is outside the subset "
                                f"(translate, rotate, uniform scale)")
        return steps

    def clip_path(self, node: ET.Element) -> None:
        tag = self.tag(node)
        if tag in IGNORED:
            return
        if tag != "clipPath":
            raise self.fail(f"<defs> holds <{tag}>: only <clipPath> is drawn")
        shapes = [self.element(child, {"fill": "black"}) for child in node if self.tag(child) not in IGNORED]
        if len(shapes) != 1 or not isinstance(shapes[0], (Rect, Circle, Polygon)):
            raise self.fail("<clipPath> must hold one rect, circle or polygon")
        self.clips[node.attrib.get("id", "")] = replace(shapes[0], style=Style())  # only its outline counts

    def path_data(self, d: str) -> tuple[tuple, ...]:
        """SVG path data as absolute M, L, C and Z commands."""
        tokens = re.findall(r"[A-Za-z]|" + NUMBER.pattern, d)
        if not tokens:
            raise self.fail("<path> has no path data (d)")
        if re.sub(r"[A-Za-z]|" + NUMBER.pattern + r"|[\s,]", "", d):
            raise self.fail(f"<path> d={d[:40]!r} is not path data")
        out: list[tuple] = []
        x = y = start_x = start_y = 0.0
        cubic: tuple[float, float] | None = None  # the last C/S second control point, which S mirrors
        quad: tuple[float, float] | None = None  # the last Q/T control point, which T mirrors
        index, command = 0, ""
        known = {"M", "L", "H", "V", "C", "S", "Q", "T", "A", "Z"}

        def take(count: int) -> list[float]:
            nonlocal index
            values = tokens[index:index + count]
            if len(values) < count or any(v.isalpha() for v in values):
                raise self.fail(f"<path> d: {command} needs {count} numbers")
            index += count
            return [self.parse_number(v, f"<path> d: {command}") for v in values]

        def mirrored(point: tuple[float, float] | None) -> tuple[float, float]:
            return (2 * x - point[0], 2 * y - point[1]) if point else (x, y)

        while index < len(tokens):
            if tokens[index].isalpha():
                command = tokens[index]
                index += 1
                if command.upper() not in known:
                    raise self.fail(f"<path> d: command {command} is outside the subset (M L H V C S Q T A Z)")
            elif not command:
                raise self.fail("<path> d must start with M")
            upper = command.upper()
            ox, oy = (x, y) if command.islower() else (0.0, 0.0)
            next_cubic = next_quad = None
            if upper == "Z":
                out.append(("Z",))
                x, y = start_x, start_y
            elif upper == "M":
                px, py = take(2)
                x, y = start_x, start_y = ox + px, oy + py
                out.append(("M", x, y))
                command = "l" if command.islower() else "L"  # further pairs are lines
            elif upper == "A":
                rx, ry, turn, large, sweep, px, py = take(7)
                if large not in (0, 1) or sweep not in (0, 1):
                    raise self.fail("<path> d: an arc's flags are 0 or 1, each written apart")
                out.extend(arc_curves(x, y, rx, ry, turn, bool(large), bool(sweep), ox + px, oy + py))
                x, y = ox + px, oy + py
            elif upper in ("L", "H", "V"):
                x = ox + take(1)[0] if upper != "V" else x
                y = oy + take(1)[0] if upper != "H" else y
                out.append(("L", x, y))
            else:
                if upper == "C":
                    x1, y1, x2, y2, px, py = take(6)
                    c1, c2 = (ox + x1, oy + y1), (ox + x2, oy + y2)
                elif upper == "S":
                    x2, y2, px, py = take(4)
                    c1, c2 = mirrored(cubic), (ox + x2, oy + y2)
                else:  # quadratic: raised to the cubic of the same shape
                    if upper == "Q":
                        qx, qy, px, py = take(4)
                        q = (ox + qx, oy + qy)
                    else:
                        px, py = take(2)
                        q = mirrored(quad)
                    c1 = (x + 2 / 3 * (q[0] - x), y + 2 / 3 * (q[1] - y))
                    end = (ox + px, oy + py)
                    c2 = (end[0] + 2 / 3 * (q[0] - end[0]), end[1] + 2 / 3 * (q[1] - end[1]))
                    next_quad = q
                if upper in ("C", "S"):
                    next_cubic = c2
                x, y = ox + px, oy + py
                out.append(("C", *c1, *c2, x, y))
            cubic, quad = next_cubic, next_quad
            if out[0][0] != "M":
                raise self.fail("<path> d must start with M")
        return tuple(out)


def arc_curves(x1: float, y1: float, rx: float, ry: float, turn_deg: float, large: bool, sweep: bool,
               x2: float, y2: float) -> list[tuple]:
    """An SVG elliptical arc (path command A) as cubic curves of a quarter turn at most (SVG 1.1, F.6.5)."""
    if (x1, y1) == (x2, y2):
        return []
    rx, ry = abs(rx), abs(ry)
    if rx < 1e-9 or ry < 1e-9:  # no radius (or one whose square is no number): a straight line, as SVG says
        return [("L", x2, y2)]
    cos, sin = math.cos(math.radians(turn_deg)), math.sin(math.radians(turn_deg))
    hx, hy = (x1 - x2) / 2, (y1 - y2) / 2
    x1p, y1p = cos * hx + sin * hy, -sin * hx + cos * hy
    grow = x1p ** 2 / rx ** 2 + y1p ** 2 / ry ** 2
    if grow > 1:  # radii too small to reach: scaled up just enough, as SVG does
        rx, ry = rx * math.sqrt(grow), ry * math.sqrt(grow)
    square = (rx * ry) ** 2 - (rx * y1p) ** 2 - (ry * x1p) ** 2
    factor = math.sqrt(max(0.0, square / ((rx * y1p) ** 2 + (ry * x1p) ** 2)))
    factor = -factor if large == sweep else factor
    cxp, cyp = factor * rx * y1p / ry, -factor * ry * x1p / rx
    cx, cy = cos * cxp - sin * cyp + (x1 + x2) / 2, sin * cxp + cos * cyp + (y1 + y2) / 2
    start = math.atan2((y1p - cyp) / ry, (x1p - cxp) / rx)
    sweep_angle = math.atan2((-y1p - cyp) / ry, (-x1p - cxp) / rx) - start
    if sweep and sweep_angle < 0:
        sweep_angle += 2 * math.pi
    elif not sweep and sweep_angle > 0:
        sweep_angle -= 2 * math.pi
    count = max(1, math.ceil(abs(sweep_angle) / (math.pi / 2) - 1e-9))
    step = sweep_angle / count
    k = 4 / 3 * math.tan(step / 4)

    def point(u: float, v: float) -> tuple[float, float]:
        return cx + rx * u * cos - ry * v * sin, cy + rx * u * sin + ry * v * cos

    curves = []
    for i in range(count):
        a, b = start + i * step, start + (i + 1) * step
        c1 = point(math.cos(a) - k * math.sin(a), math.sin(a) + k * math.cos(a))
        c2 = point(math.cos(b) + k * math.sin(b), math.sin(b) - k * math.cos(b))
        end = (x2, y2) if i == count - 1 else point(math.cos(b), math.sin(b))
        curves.append(("C", *c1, *c2, *end))
    return curves


def read_icon_file(file: FilePath) -> tuple[tuple[float, float, float, float], tuple[Element, ...]]:
    """(viewBox, elements with colour roles) of one icon file; IconFileError names the file."""
    reader = _Reader(file)
    try:
        if file.stat().st_size > MAX_FILE_BYTES:
            raise reader.fail(f"larger than {MAX_FILE_BYTES // 1024 // 1024} MiB")
        root = ET.fromstring(file.read_bytes())
    except OSError as exc:
        raise reader.fail(f"cannot be read: {exc.strerror or exc}") from None
    except ET.ParseError as exc:
        raise IconFileError(f"{file}: not valid SVG: {exc}") from None
    if reader.tag(root) != "svg":
        raise reader.fail(f"the root element is <{reader.tag(root)}>, not <svg>")
    box = reader.numbers(root.attrib.get("viewBox", ""), "<svg> viewBox")
    if len(box) != 4 or box[2] <= 0 or box[3] <= 0:
        raise reader.fail("<svg> needs a viewBox of four numbers with a positive width and height")
    props = reader.properties(root, "svg")
    return (box[0], box[1], box[2], box[3]), reader.children(root, props)


def recolour(element: Element, ink: str, paper: str) -> Element:
    """A copy of an icon's element with its colour roles made real colours."""
    if isinstance(element, Group):
        return replace(element, children=tuple(recolour(child, ink, paper) for child in element.children))
    if isinstance(element, Text):
        return replace(element, color=real_colour(element.color, ink, paper))
    style = element.style
    return replace(element, style=replace(style, fill=real_colour(style.fill, ink, paper),
                                          stroke=real_colour(style.stroke, ink, paper)))


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
