"""`starpnp picture`: a deck fanned as a hand, or standing in a row with its reflection, as a PNG at the width
asked, drawn from the same faces the print files hold."""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from cli_runner import one_line, run

COURIERS = Path(__file__).resolve().parent.parent / "fixtures" / "couriers"
TEAL = (0x00, 0x69, 0x5C)  # the parcel deck's colour (cards.yaml)


def near(pixel, colour, slack=12) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(pixel, colour))


@pytest.mark.parametrize("kind", ["hand", "showcase"])
def test_a_picture_is_a_png_of_the_asked_width_showing_the_deck(tmp_path, kind):
    out = tmp_path / f"{kind}.png"
    result = run("picture", COURIERS, f"--{kind}", "parcels", "--width", 600, "--out", out)
    assert result.returncode == 0, result.stderr
    with Image.open(out) as image:
        assert image.format == "PNG" and image.mode == "RGBA" and image.width == 600
        alpha = image.getchannel("A")
        assert alpha.getextrema() == (0, 255)  # a transparent ground around opaque cards
        colours = image.convert("RGB").getcolors(1 << 20)
        teal = sum(count for count, rgb in colours if near(rgb, TEAL))
        assert teal > image.width * image.height * 0.08  # the deck's teal frames fill a good part of it
        opaque_rows = lambda x: [y for y in range(image.height) if alpha.getpixel((x, y)) == 255]  # noqa: E731
        left = next(x for x in range(image.width) if opaque_rows(x))
        if kind == "showcase":  # the lowest part is the reflection: see-through, fading, never opaque
            low = alpha.crop((0, image.height * 9 // 10, image.width, image.height))
            assert 0 < low.getextrema()[1] < 128
            # in perspective, turned toward the middle: the first card's inner edge is the farther, shorter one
            right = next(x for x in range(left, image.width) if not opaque_rows(x)) - 1
            assert len(opaque_rows(right - 3)) < len(opaque_rows(left + 3)) * 0.93
            # a margin all round: the outer cards stand clear of the picture's edges, not cut by them
            assert left >= 5 and image.width - 1 - max(x for x in range(image.width) if opaque_rows(x)) >= 5
            edge = [alpha.getpixel((x, y)) for x in range(image.width) for y in (0, 1, 2, 3, 4)] + [
                alpha.getpixel((x, y)) for y in range(image.height) for x in (0, 1, 2, 3, 4, image.width - 1)]
            assert max(edge) < 8  # see-through (the resampling leaves a faint fringe)
        else:  # fanned about a point below the cards: the outer card sits lower than the middle one
            assert min(opaque_rows(left + 2)) > min(opaque_rows(image.width // 2)) + image.height // 10


def test_a_picture_names_one_component_that_exists(tmp_path):
    one_line(run("picture", COURIERS, "--hand", "dice"), "no component 'dice'", "parcels")
    both = run("picture", COURIERS, "--hand", "parcels", "--showcase", "parcels")
    assert both.returncode == 2 and "one of --hand" in both.stderr
