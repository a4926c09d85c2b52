"""Shape helpers in millimetres, shared by layouts and icons."""
from __future__ import annotations

import math

KAPPA = 0.5522847498  # Bézier control distance for a quarter ellipse

Matrix = tuple[float, float, float, float, float, float]  # x' = a x + c y + e, y' = b x + d y + f
IDENTITY: Matrix = (1, 0, 0, 1, 0, 0)


def then(m: Matrix, n: Matrix) -> Matrix:
    """n applied first, then m (n is the inner group's transform)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e,
            b * e2 + d * f2 + f)


def regular_polygon(cx: float, cy: float, r: float, sides: int, rotate_deg: float = -90) -> tuple:
    """Vertices of a regular polygon; the default puts a vertex at the top."""
    step = 2 * math.pi / sides
    start = math.radians(rotate_deg)
    return tuple((cx + r * math.cos(start + i * step), cy + r * math.sin(start + i * step)) for i in range(sides))


def star_points(cx: float, cy: float, outer: float, inner: float, points: int = 5) -> tuple:
    step = math.pi / points
    return tuple(
        (cx + (outer if i % 2 == 0 else inner) * math.cos(-math.pi / 2 + i * step),
         cy + (outer if i % 2 == 0 else inner) * math.sin(-math.pi / 2 + i * step))
        for i in range(2 * points)
    )


def hexagon(cx: float, cy: float, r: float, pointy: bool = True) -> tuple:
    """Hexagon with circumradius r: pointy-top by default, flat-top otherwise."""
    return regular_polygon(cx, cy, r, 6, -90 if pointy else 0)


def ellipse_commands(cx: float, cy: float, rx: float, ry: float) -> tuple:
    kx, ky = rx * KAPPA, ry * KAPPA
    return (
        ("M", cx + rx, cy),
        ("C", cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry),
        ("C", cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
        ("C", cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry),
        ("C", cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy),
        ("Z",),
    )


def arc_commands(cx: float, cy: float, r: float, start_deg: float, end_deg: float, segments: int = 8) -> tuple:
    """An open circular arc as cubic Béziers (y down, angles clockwise from +x)."""
    a0, a1 = math.radians(start_deg), math.radians(end_deg)
    step = (a1 - a0) / segments
    k = 4 / 3 * math.tan(step / 4)
    cmds = [("M", cx + r * math.cos(a0), cy + r * math.sin(a0))]
    for i in range(segments):
        s, e = a0 + i * step, a0 + (i + 1) * step
        cmds.append((
            "C",
            cx + r * (math.cos(s) - k * math.sin(s)), cy + r * (math.sin(s) + k * math.cos(s)),
            cx + r * (math.cos(e) + k * math.sin(e)), cy + r * (math.sin(e) - k * math.cos(e)),
            cx + r * math.cos(e), cy + r * math.sin(e),
        ))
    return tuple(cmds)
