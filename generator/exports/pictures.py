"""`starpnp picture`: pictures of a deck for a rulebook or a store page, drawn from the same faces as the
print files: `hand`, the cards fanned as a player holds them, and `showcase`, a row of cards standing in
perspective on a glossy table with their reflection. PNG with a transparent ground, at the width asked.
"""
from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

from ..look.render import Face
from ..look.scene import Scene
from .face_files import render_face

MAX_CARDS = 7  # a hand or a row shows at most this many distinct cards, in data order
KINDS = ("hand", "showcase")


def card_image(scene: Scene, width_px: int) -> Image.Image:
    """The face cut to its trim with rounded corners, `width_px` wide, RGBA."""
    dpi = min(1200.0, max(72.0, width_px / scene.width * 25.4))
    px_per_mm = dpi / 25.4
    image = render_face(scene, dpi).convert("RGBA")
    b = round(scene.bleed * px_per_mm)
    image = image.crop((b, b, b + round(scene.width * px_per_mm), b + round(scene.height * px_per_mm)))
    image = image.resize((width_px, round(width_px * scene.height / scene.width)), Image.Resampling.LANCZOS)
    mask = Image.new("L", image.size, 0)
    radius = round(scene.corner_radius * width_px / scene.width)
    shape = ImageDraw.Draw(mask)
    if scene.shape == "round":
        shape.ellipse((0, 0, image.width - 1, image.height - 1), fill=255)
    else:
        shape.rounded_rectangle((0, 0, image.width - 1, image.height - 1), radius=radius, fill=255)
    image.putalpha(mask)
    return image


def shadow_of(image: Image.Image, blur: int) -> Image.Image:
    shadow = Image.new("RGBA", image.size, (0, 0, 0, 0))
    shadow.putalpha(image.getchannel("A").point(lambda a: a * 0.45))
    return shadow.filter(ImageFilter.GaussianBlur(blur))


def hand(cards: list[Image.Image]) -> Image.Image:
    """The cards fanned about a point below their middle, the first on the left, each overlapping the last:
    each card turned about its own centre, that centre then swung about the common point."""
    w, h = cards[0].size
    spread = min(60.0, 12.0 * (len(cards) - 1))  # degrees from the first card to the last
    reach = h * 1.6 - h / 2  # from the fan's pivot up to a card's centre
    blur = max(2, w // 40)
    placed = []
    for i, card in enumerate(cards):
        turn = spread / 2 - (spread * i / (len(cards) - 1) if len(cards) > 1 else 0)  # counter-clockwise, degrees
        turned = card.rotate(turn, resample=Image.Resampling.BICUBIC, expand=True)
        radians = math.radians(turn)
        cx, cy = -reach * math.sin(radians), -reach * math.cos(radians)  # (0, -reach) turned as the card
        placed.append((turned, round(cx - turned.width / 2), round(cy - turned.height / 2)))
    left = min(x for _, x, _ in placed) - 2 * blur
    top = min(y for _, _, y in placed) - 2 * blur
    right = max(x + image.width for image, x, _ in placed) + 3 * blur
    bottom = max(y + image.height for image, _, y in placed) + 3 * blur
    canvas = Image.new("RGBA", (right - left, bottom - top), (0, 0, 0, 0))
    for image, x, y in placed:
        canvas.alpha_composite(shadow_of(image, blur), (x - left + blur, y - top + blur))
        canvas.alpha_composite(image, (x - left, y - top))
    return canvas.crop(canvas.getbbox())


def _perspective_coefficients(to: list[tuple[float, float]], frm: list[tuple[float, float]]) -> list[float]:
    """The 8 numbers Pillow's PERSPECTIVE transform wants: each output corner `to` maps to input `frm`."""
    rows, rhs = [], []
    for (x, y), (u, v) in zip(to, frm):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs += [u, v]
    return _solve(rows, rhs)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting, for the 8 × 8 system above."""
    n = len(b)
    m = [row[:] + [value] for row, value in zip(a, b)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col:
                factor = m[r][col] / m[col][col]
                m[r] = [x - factor * y for x, y in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] for i in range(n)]


def _tilted(card: Image.Image, turn: float) -> Image.Image:
    """The card turned about its upright axis by `turn` (-1..1): the far edge shorter, the card narrower."""
    w, h = card.size
    narrow = 1 - 0.25 * abs(turn)
    shrink = 0.12 * abs(turn) * h  # how much shorter the far edge is, top and bottom together
    out_w = round(w * narrow)
    far_left = turn > 0
    corners = [(0, shrink / 2 if far_left else 0), (out_w, 0 if far_left else shrink / 2),
               (out_w, h - (0 if far_left else shrink / 2)), (0, h - (shrink / 2 if far_left else 0))]
    source = [(0, 0), (w, 0), (w, h), (0, h)]
    return card.transform((out_w, h), Image.Transform.PERSPECTIVE, _perspective_coefficients(corners, source),
                          Image.Resampling.BICUBIC)


def showcase(cards: list[Image.Image]) -> Image.Image:
    """The cards in a row, each turned a little toward the middle, standing on a reflection that fades out."""
    w, h = cards[0].size
    n = len(cards)
    gap = w // 10
    tilted = [_tilted(card, (i - (n - 1) / 2) / max(1, (n - 1) / 2)) if n > 1 else card
              for i, card in enumerate(cards)]
    reflection_h = h // 3
    canvas = Image.new("RGBA", (sum(t.width for t in tilted) + gap * (n + 1), h + reflection_h + gap),
                       (0, 0, 0, 0))
    fade = Image.linear_gradient("L").resize((1, reflection_h)).point(lambda a: (255 - a) * 0.35)
    x = gap
    for card in tilted:
        canvas.alpha_composite(card, (x, gap // 2))
        mirrored = card.transpose(Image.Transpose.FLIP_TOP_BOTTOM).crop((0, 0, card.width, reflection_h))
        alpha = Image.composite(fade.resize(mirrored.size), Image.new("L", mirrored.size, 0),
                                mirrored.getchannel("A"))
        mirrored.putalpha(alpha)
        canvas.alpha_composite(mirrored, (x, gap // 2 + h + 2))
        x += card.width + gap
    left, top, right, bottom = canvas.getbbox()
    margin = gap // 2  # a see-through margin all round: the outer cards' edges are not cut by the picture's
    return canvas.crop((left - margin, top - margin, right + margin, bottom + margin))


def picture(all_faces: list[Face], component: str, kind: str, width: int, out: Path) -> Path:
    """A `hand` or `showcase` PNG of `component`'s first distinct fronts, `width` pixels wide, at `out`."""
    fronts = [face.front for face in all_faces if face.component == component and face.count > 0][:MAX_CARDS]
    card_w = max(64, round(width / (len(fronts) * (0.55 if kind == "hand" else 0.9)) * 1.1))
    cards = [card_image(scene, card_w) for scene in fronts]
    drawn = hand(cards) if kind == "hand" else showcase(cards)
    drawn = drawn.resize((width, max(1, round(drawn.height * width / drawn.width))), Image.Resampling.LANCZOS)
    out.parent.mkdir(parents=True, exist_ok=True)
    drawn.save(out)
    return out
