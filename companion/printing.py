"""The print page: pick a game, paper, bleed, duplex, ink and options on any device and download the PDF.

PDFs are built on demand by the generator and cached by the hash of their inputs (generator.ondemand),
so the second phone asking for the same set gets it at once. Games are ours plus any folders the server
was given (`starpnp serve --print-folder DIR`).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, abort, current_app, render_template, request, send_file

from starpnp.generator.sheets.imposition import PAPERS, Settings
from starpnp.generator.look.loader import builtin_games, find_game, load_game
from starpnp.generator.ondemand import Busy, printed
from starpnp.generator.data.yamlio import DataError, DataErrors

from .errors import error_response

bp = Blueprint("printing", __name__)

DUPLEX = ("long", "short", "off")
INKS = ("full", "low")  # rich colours, or every face on a light ground (`starpnp build --ink low`)
BLEEDS = ("0", "3")  # mm: none, or the usual 3 mm; what the form offers


class BadParameter(ValueError):
    """A query parameter the print page cannot use; the message names it (answered with 400)."""


@dataclass(frozen=True)
class PrintableGame:
    id: str
    name: str
    folder: Path
    players: str
    components: int
    pieces: int
    options: dict  # option name -> help


def print_folders() -> list[Path]:
    configured = current_app.config.get("PRINT_FOLDERS") or []
    from_env = [p for p in os.environ.get("STARPNP_PRINT_FOLDERS", "").split(os.pathsep) if p]
    return [find_game(name) for name in builtin_games()] + [Path(p) for p in [*configured, *from_env]]


def data_stamp(folder: Path) -> tuple:
    """Names and modification times of a folder's YAML files: loading is redone only when they change."""
    return tuple((p.name, p.stat().st_mtime_ns) for p in sorted(folder.glob("*.yaml")))


@lru_cache(maxsize=64)
def describe(folder: Path, stamp: tuple) -> PrintableGame | None:
    try:
        game = load_game(folder)
    except (DataError, DataErrors):
        return None  # a folder that does not load is left off the list; `starpnp check` explains why
    info = game.info
    players = str(info.players.min) if info.players.min == info.players.max else f"{info.players.min}–{info.players.max}"
    return PrintableGame(info.id, info.name, folder, players,
                         len(game.components), sum(c.quantity for c in game.components),
                         {name: opt.help for name, opt in info.options.items()})


def printable_games() -> dict[str, PrintableGame]:
    found = (describe(folder, data_stamp(folder)) for folder in print_folders())
    return {game.id: game for game in found if game is not None}


def parse_settings(args, game: PrintableGame) -> tuple[Settings, frozenset[str]]:
    paper = args.get("paper", "a4").lower()
    if paper not in PAPERS:
        raise BadParameter(f"paper: expected one of {', '.join(PAPERS)}, got {paper[:20]!r}")
    bleed = args.get("bleed", "3")
    if bleed not in BLEEDS:  # only what the form offers: every other value would be a new build to keep
        raise BadParameter(f"bleed: expected one of {', '.join(BLEEDS)} (mm), got {bleed[:20]!r}")
    bleed = float(bleed)
    duplex = args.get("duplex", "long")
    if duplex not in DUPLEX:
        raise BadParameter(f"duplex: expected one of {', '.join(DUPLEX)}, got {duplex[:20]!r}")
    ink = args.get("ink", "full")
    if ink not in INKS:
        raise BadParameter(f"ink: expected one of {', '.join(INKS)}, got {ink[:20]!r}")
    options = frozenset(args.getlist("option"))
    unknown = sorted(options - set(game.options))
    if unknown:
        raise BadParameter(f"option: {game.name} has no option {unknown[0][:40]!r}")
    return Settings(paper=paper, bleed=bleed, duplex=duplex, ink=ink), options


def game_or_404(game_id: str) -> PrintableGame:
    game = printable_games().get(game_id)
    if game is None:
        abort(404, description=f"game: no printable game {game_id[:40]!r}")
    return game


def cache_dir() -> Path:
    return current_app.config["DATA_DIR"] / "print-cache"


def build_for(game: PrintableGame):
    settings, options = parse_settings(request.args, game)
    return printed(game.folder, settings, options, cache_dir()), settings


@bp.errorhandler(BadParameter)
def bad_parameter(error: BadParameter):
    return error_response(400, str(error))


@bp.errorhandler(Busy)
def busy(error: Busy):
    body, status = error_response(503, str(error))
    return body, status, {"Retry-After": "60"}


@bp.errorhandler(DataErrors)
def bad_data(error: DataErrors):
    return error_response(422, f"this game's data does not load: {error.errors[0]}")


@bp.get("/print")
def index():
    return render_template("companion/print.html", games=printable_games(), game=None)


@bp.get("/print/<game_id>")
def game_page(game_id: str):
    game = game_or_404(game_id)
    settings, options = parse_settings(request.args, game)
    return render_template("companion/print.html", games=None, game=game, settings=settings, options=options,
                           papers=PAPERS, duplex_modes=DUPLEX, query=request.query_string.decode())


@bp.get("/print/<game_id>/preview.png")
def preview(game_id: str):
    result, _ = build_for(game_or_404(game_id))
    return send_file(result.preview, mimetype="image/png", max_age=3600)


@bp.get("/print/<game_id>/download")
def download(game_id: str):
    result, _ = build_for(game_or_404(game_id))
    return send_file(result.pdf, mimetype="application/pdf", as_attachment=True, download_name=result.pdf.name)
