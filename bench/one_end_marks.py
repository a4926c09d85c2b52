"""What marking every cut line at both ends would cost: sheets of paper for the four games, as built and with
no tight grid or tight board tile (room for a mark at both ends of every line), on A4 and Letter at --margin 6
and 10.

    python bench/one_end_marks.py

Prints, per paper and margin, the sheets (double-sided) of each game and in all, and how many pages carry a
grid or tiles marked at one end. The second run swaps the imposition's choice for one that never takes a tight
grid, so it measures the layout the README weighs, not a layout we ship.
"""
from __future__ import annotations

import inspect

from starpnp.generator.build import make_runs, player_aids
from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.look.render import SceneCache
from starpnp.generator.sheets import imposition
from starpnp.generator.sheets.imposition import Settings, impose, paginate
from starpnp.generator.sheets.pdf import contents_pages

GAMES = ["handful_of_stars", "starship_catan", "stars_inc", "stratastar"]


def sheets_of(game_id: str, settings: Settings) -> tuple[int, int]:
    """(sheets of paper, pages with a block or tiles marked at one end) of one game's file."""
    folder = find_game(game_id)
    game = load_game(folder, items=False)
    cache = SceneCache(settings.bleed, folder, ink=settings.ink)
    info = contents_pages(len(game.components))
    sheets = paginate(impose(make_runs(game, cache, settings, outlines=True), settings, player_aids(game, cache)),
                      info, settings.duplex)
    one_ended = sum(1 for s in sheets if s.role == "front" and any(s.tight)) + \
        sum(1 for s in sheets if s.role == "tile" and any(t.tight for t in s.tiles))
    return (info + len(sheets) + 1) // 2, one_ended


def report(label: str) -> None:
    for paper in ("a4", "letter"):
        for margin in (6.0, 10.0):
            counts = [sheets_of(g, Settings(paper=paper, margin=margin)) for g in GAMES]
            print(f"{label:10} {paper:6} --margin {margin:<4g} {sum(n for n, _ in counts):3} sheets "
                  f"{[n for n, _ in counts]}, {sum(t for _, t in counts)} pages marked at one end", flush=True)


def never_tight() -> None:
    """The imposition with room for marks at both ends of every line, whatever it costs."""
    block_area = imposition.block_area
    imposition.block_area = lambda settings, footer, edge, inside, single=False: block_area(settings, footer,
                                                                                             edge, inside)
    source = inspect.getsource(imposition.impose_tiled).replace("for tight in (False, True):", "for tight in (False,):")
    exec(source, imposition.__dict__)


if __name__ == "__main__":
    report("as built")
    never_tight()
    report("both ends")
