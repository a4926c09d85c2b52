"""Path data read two ways gives one drawing (issue #51, speed).

The path reader has a quick way for the data icon sets write (numbers parted by spaces, commas, minus signs
or a second decimal point) and a careful, token-by-token way for everything else, which also reads up to an
error and names it. The same path written minified (the quick way) and written out with exponents (which only
the careful way reads) must give the same commands, and the same error where one is added.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from starpnp.generator.look.svgpath import NumberBeyondLimit, path_commands
from starpnp_test_support import examples

ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}
# numbers as icon files write them: small, signed, up to three decimals, some below 1 (".5", "-.25")
NUMBER = st.integers(-99999, 99999).map(lambda n: n / 1000) | st.integers(-400, 400).map(float)
FLAG = st.sampled_from([0.0, 1.0])


@st.composite
def commands(draw) -> list[tuple[str, list[float]]]:
    """A path: a move, then any commands, each once or repeated, relative or absolute."""
    out = []
    for index in range(draw(st.integers(1, 8))):
        letter = "M" if index == 0 else draw(st.sampled_from(sorted(ARITY)))
        letter = letter.lower() if draw(st.booleans()) else letter
        repeats = 1 if letter in "Zz" else draw(st.integers(1, 3))
        numbers = []
        for _ in range(repeats):
            if letter in "Aa":
                numbers += [abs(draw(NUMBER)), abs(draw(NUMBER)), draw(NUMBER), draw(FLAG), draw(FLAG),
                            draw(NUMBER), draw(NUMBER)]
            else:
                numbers += [draw(NUMBER) for _ in range(ARITY[letter.upper()])]
        out.append((letter, numbers))
    return out


def _short(value: float) -> str:
    """A number as a minifier writes it: no trailing zeros, no leading zero before the point."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return text.replace("0.", ".", 1) if text.lstrip("-").startswith("0.") else text


def minified(path: list[tuple[str, list[float]]]) -> str:
    """Written as svgo writes: no space before a minus sign or before a second decimal point."""
    out = []
    for letter, numbers in path:
        out.append(letter)
        previous = ""
        for value in numbers:
            text = _short(value)
            joins = text.startswith("-") or (text.startswith(".") and "." in previous)
            out.append(text if joins or not previous else " " + text)
            previous = text
    return "".join(out)


def spelled_out(path: list[tuple[str, list[float]]]) -> str:
    """Written with commas, spaces and an exponent on every number but arc flags (as flags are written)."""
    return "\n".join(f"{letter} " + ", ".join(f"{v:.3f}e0" if (letter not in "Aa" or i % 7 not in (3, 4)) else
                                               f"{v:.0f}" for i, v in enumerate(numbers))
                     for letter, numbers in path)


def read(d: str) -> tuple:
    """What the reader gives: (commands, error or None), or the refusal of a number past the limit."""
    try:
        return path_commands(d)
    except NumberBeyondLimit as exc:
        return ("refused", str(exc))


@settings(max_examples=examples(60), deadline=None)
@given(path=commands(), error=st.sampled_from(["", " #", " L 5", " Z 3", " A 1 1 0 2 0 5 5", " 1e999"]))
def test_a_path_minified_or_spelled_out_draws_the_same_up_to_the_same_error(path, error):
    quick, careful = read(minified(path) + error), read(spelled_out(path) + error)
    assert quick == careful
    assert (quick[1] is None) == (error == "")


def test_a_path_written_both_ways_by_hand():
    drawn = path_commands("m10-20c.5.5-1.25.5 1 2s3,4 5,6a5 5 0 0 1 10 0z")
    assert drawn == path_commands("m 1e1 -2e1 c 0.5 0.5 -1.25 0.5 1 2 s 3 4 5 6 a 5 5 0 0 1 1e1 0 z")
    assert drawn[0][:2] == (("M", 10.0, -20.0), ("C", 10.5, -19.5, 8.75, -19.5, 11.0, -18.0))
