"""Reading the text out of scenes, as it will print."""
from __future__ import annotations

from starpnp.generator.scene import Group, Text


def printed_texts(elements, scale=1.0):
    """(line, size in pt as printed) for every line of text, through nested scaled groups (icons)."""
    for e in elements:
        if isinstance(e, Group):
            yield from printed_texts(e.children, scale * e.scale)
        elif isinstance(e, Text):
            for line in e.lines:
                yield line.text, e.size * scale
