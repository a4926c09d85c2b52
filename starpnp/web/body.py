"""One way to read a JSON request body, for both servers: a mapping, or one line saying what is wrong.

Flask's `get_json(silent=True)` answers None for a body that is not JSON, but lets a RecursionError through
for one nested deeper than Python recurses (100,000 brackets fit in 256 KiB), and gives whatever JSON value
was sent (`[1]`, `"x"`): each was a 500 somewhere. Here each is a ValueError of one line."""
from __future__ import annotations

from flask import Request


def json_object(request: Request) -> dict:
    """The body's JSON object; ValueError for no JSON, JSON nested too deep, or JSON that is not an object."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # json.loads recurses once per level
        raise ValueError("JSON nested too deep") from None
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object")
    return data
