"""The one `starpnp` command: list, check, new, init, schema, export-csv, build, serve, stats.

Every expected failure (bad data, bad option, a port in use) ends as one line on stderr and a non-zero
exit status; a traceback is a bug.
"""
from __future__ import annotations

import gc
import json
import math
import sys
from contextlib import contextmanager
from pathlib import Path

import click

from .build import (FORMATS, LARGE_PAGES, BuildFailed, BuildOptions, BuildResult, build_game, past_ceiling,
                    too_large)
from .exports.face_files import PRESETS
from .sheets.imposition import PAPERS, Settings
from .look.loader import builtin_games, find_game, load_game
from .data.limits import clipped
from .data.yamlio import DataError, DataErrors

EXIT_DATA = 2


def fail(lines: list[str], status: int = EXIT_DATA) -> None:
    for line in lines:
        click.echo(clipped(line), err=True)  # one line, however long what it quotes
    sys.exit(status)


def games_from(names: tuple[str, ...], all_games: bool) -> list[Path]:
    if all_games or not names:
        if names:
            raise click.UsageError("give game names or --all, not both")
        if not all_games:
            raise click.UsageError("name a game or folder, or pass --all")
        return [find_game(name) for name in builtin_games()]
    return [find_game(name) for name in names]


SERVERS = ("serve", "studio")  # they read nothing outside the folders they are given


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="starpnp")
@click.pass_context
def main(context: click.Context) -> None:
    """Print-and-play sets and a table companion for four space board games."""
    if context.invoked_subcommand not in SERVERS:
        from .data.overrides import allow_bases_outside

        allow_bases_outside()  # the folder named here may extend a game beside it, with a warning


@main.command("list")
def list_games() -> None:
    """List our games, their players and components."""
    for name in builtin_games():
        try:
            game = load_game(find_game(name))
        except (DataError, DataErrors) as exc:
            click.echo(f"{name:<18} (does not load: {str(exc).splitlines()[0]})")
            continue
        players = game.info.players
        seats = f"{players.min}" if players.min == players.max else f"{players.min}-{players.max}"
        pieces = sum(c.quantity for c in game.components)
        click.echo(f"{name:<18} {game.info.name:<22} {seats:>3} players  "
                   f"{len(game.components)} components, {pieces} pieces")
        for opt, spec in sorted(game.info.options.items()):
            click.echo(f"{'':<18}   option {opt}: {spec.help}")


@main.command()
@click.argument("games", nargs=-1)
@click.option("--all", "all_games", is_flag=True, help="Check every game under components/.")
@click.option("--strict", is_flag=True, help="Warnings count as errors (exit status 2).")
def check(games: tuple[str, ...], all_games: bool, strict: bool) -> None:
    """Validate game data and draw every face (writing nothing); one line per problem with file and line.

    Errors (data the build refuses) exit with status 2; warnings (missing art, text that does not fit, an
    unknown {placeholder}, an icon file that is not SVG, a text printed over another element in full or low
    ink) are listed and, with --strict, do the same."""
    from .look.checks import check_warnings

    errors: list[str] = []
    try:
        folders = games_from(games, all_games or not games)
    except DataError as exc:
        fail([str(exc)])
    for folder in folders:
        try:
            game = load_game(folder)
            if ceiling := past_ceiling(game, Settings(), folder):
                raise DataErrors([ceiling])
            # every face drawn, as a build draws it, and again in low ink for texts over other elements
            warnings = [*game.warnings, *check_warnings(game, folder)]
        except DataErrors as exc:
            errors.extend(exc.errors)
            continue
        noted = f", {len(warnings)} warning{'s' if len(warnings) != 1 else ''}" if warnings else ""
        click.echo(f"{folder}: ok ({len(game.components)} components, "
                   f"{sum(c.quantity for c in game.components)} pieces, {len(game.unspecified)} unspecified{noted})")
        for warning in warnings:
            click.echo(f"  warning: {warning}")
        if strict:
            errors.extend(warnings)
        large = too_large(game, Settings())
        if large:
            click.echo(f"  warning: {large}; build asks for --yes")
    if errors:
        fail(errors)


def checked(folder: Path) -> None:
    """What `check` does to a folder, for `serve`: it loads and every face draws, or DataErrors."""
    from .look.checks import face_warnings

    face_warnings(load_game(folder), folder)


@main.command()
@click.argument("game")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--overrides", "as_overrides", is_flag=True,
              help="Write only an overrides.yaml that extends the game, instead of a full copy.")
def init(game: str, folder: Path, as_overrides: bool) -> None:
    """Start your own version of GAME in FOLDER, to edit and build with `starpnp build FOLDER`."""
    from .customise import init_folder

    try:
        written = init_folder(find_game(game), folder, as_overrides)
    except DataError as exc:
        fail([str(exc)])
    files, them = ("file", "it") if len(written) == 1 else ("files", "them")
    click.echo(f"{folder}: {len(written)} {files} written; edit {them}, then run: starpnp build {folder}")


@main.command()
@click.argument("game")
@click.option("--hand", "hand_of", metavar="COMPONENT", help="A fan of COMPONENT's cards, as a player holds them.")
@click.option("--showcase", "showcase_of", metavar="COMPONENT",
              help="A row of COMPONENT's cards in perspective with their reflection.")
@click.option("--width", type=click.IntRange(100, 8000), default=1600, show_default=True, help="Pixels wide.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="PNG file to write [default: output/<game>/pictures/<component>-<kind>.png].")
def picture(game: str, hand_of: str | None, showcase_of: str | None, width: int, out: Path | None) -> None:
    """A PNG of a deck for a rulebook or a store page, drawn from the same faces as the print files."""
    from .exports.pictures import picture as draw
    from .look.render import SceneCache, faces

    if (hand_of is None) == (showcase_of is None):
        raise click.UsageError("give one of --hand COMPONENT or --showcase COMPONENT")
    kind, component = ("hand", hand_of) if hand_of else ("showcase", showcase_of)
    try:
        folder = find_game(game)
        loaded = load_game(folder, items=False)
    except DataError as exc:
        fail([str(exc)])
    except DataErrors as exc:
        fail(exc.errors)
    known = [c.spec.id for c in loaded.components]
    if component not in known:
        fail([f"{folder}: no component {component!r}; its components: {', '.join(known)}"])
    target = out or Path("output") / loaded.info.id / "pictures" / f"{component}-{kind}.png"
    try:
        written = draw(faces(loaded, SceneCache(0.0, folder)), component, kind, width, target)
    except OSError as exc:
        fail([f"{target}: cannot write: {exc.strerror or exc}"])
    click.echo(f"{written}")


@main.command()
@click.argument("name")
@click.argument("folder", type=click.Path(path_type=Path))
def new(name: str, folder: Path) -> None:
    """Start a new game NAME of your own in FOLDER: a deck from a spreadsheet, counters, a board and a
    phone tracker, ready to build with `starpnp build FOLDER`."""
    from .customise import new_game

    try:
        written = new_game(name, folder)
    except DataError as exc:
        fail([str(exc)])
    except OSError as exc:
        fail([f"{folder}: cannot write: {exc.strerror or exc}"])
    click.echo(f"{folder}: {len(written)} files written (README.md says what each is for); "
               f"next: starpnp build {folder}")


@main.command()
@click.argument("what", type=click.Choice(["game", "components", "layouts", "layout-file"]), default="components")
@click.option("--game", "game_name", metavar="GAME", help="With layouts: include this game folder's own layouts.")
def schema(what: str, game_name: str | None) -> None:
    """Print a JSON Schema for game.yaml, component files, layout fields or layout files (for editor autocomplete)."""
    from .data.overrides import source_folders
    from .look.schema import schema_for

    try:
        folders = tuple(reversed(source_folders(find_game(game_name), find_game))) if game_name else ()
        click.echo(json.dumps(schema_for(what, folders), indent=2))
    except DataError as exc:
        fail([str(exc)])


@main.command()
@click.option("--game", "game_name", metavar="GAME", help="Include this game folder's own layouts.")
def layouts(game_name: str | None) -> None:
    """List the box kinds of a layout file, every layout's fields and a board's regions: each key with its type,
    default and what it does."""
    from .data.overrides import source_folders
    from .look.reference import reference

    try:
        folders = tuple(reversed(source_folders(find_game(game_name), find_game))) if game_name else ()
        click.echo(reference(folders), nl=False)
    except DataError as exc:
        fail([str(exc)])


@main.command("export-csv")
@click.argument("game")
@click.argument("component")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file instead of the screen.")
def export_csv(game: str, component: str, out: Path | None) -> None:
    """Write COMPONENT's items as a spreadsheet (CSV) to start from; use it with `items: FILE.csv`."""
    from .data.spreadsheet import component_items, items_as_table

    try:
        items = component_items(find_game(game), component)
    except DataError as exc:
        fail([str(exc)])
    text = items_as_table(items)
    if out is None:
        click.echo(text, nl=False)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail([f"{out}: cannot write: {exc.strerror or exc}"])
    click.echo(f"{out}: {len(items)} items written; in the component write: items: {out.name}")


class Millimetres(click.FloatRange):
    """A length in mm within a range; NaN passes click's own range check, so it is refused here."""

    name = "mm"

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a number of millimetres", param, ctx)
        return number


def tts_base(value: str | None) -> str | None:
    """--tts-url: an http(s) or file address with no spaces or control characters, kept as given."""
    if value is None:
        return None
    if not value.startswith(("https://", "http://", "file:///")) or any(ord(c) <= 32 for c in value):
        raise click.BadParameter(f"{value[:80]!r}: give an address such as https://example.org/my-game-tts "
                                 f"or file:///home/me/my-game-tts")
    return value


def parse_formats(value: str) -> tuple[str, ...]:
    formats = tuple(f.strip() for f in value.split(",") if f.strip())
    bad = [f for f in formats if f not in FORMATS]
    if bad or not formats:
        raise click.BadParameter(f"expected a comma list of {', '.join(FORMATS)}, got {value!r}")
    return formats


def report(result: BuildResult, quiet: bool) -> None:
    click.echo(f"{result.name}: {result.pieces} pieces on {result.pages} pages, {len(result.files)} files "
               f"-> {result.folder}")
    if quiet:
        return
    if result.overrides:
        layouts = any(entry.startswith("layouts/") for entry in result.overrides)
        click.echo(f"  {len(result.overrides)} changes from overrides.yaml{' and layouts/' if layouts else ''}:")
        for entry in result.overrides:
            click.echo(f"    - {entry}")
    for warning in result.warnings:
        click.echo(f"  warning: {warning}")
    if result.unspecified:
        click.echo(f"  {len(result.unspecified)} fields the rulebook leaves unspecified (printed as write-in areas):")
        for entry in by_piece(result.unspecified):
            click.echo(f"    - {entry}")
    if result.edition:
        click.echo(f"  {len(result.edition)} values are our edition's, where the rulebook is silent "
                   f"(--write-ins prints blanks instead):")
        for entry in by_piece(result.edition):
            click.echo(f"    - {entry}")
    if result.ours:
        click.echo(f"  {len(result.ours)} values are our own choice, not the publisher's:")
        for entry in by_piece(result.ours):
            click.echo(f"    - {entry}")


def by_piece(entries: tuple[str, ...]) -> list[str]:
    """'component: piece: field' entries as one line per piece, 'component: piece: field, field', in order:
    a write-in card then reads as one line, not one per box (manifest.json keeps one entry per field)."""
    grouped: dict[str, list[str]] = {}
    for entry in entries:
        piece, _, field = entry.rpartition(": ")
        fields = grouped.setdefault(piece or field, [])
        if piece and field not in fields:
            fields.append(field)
    return [f"{piece}: {', '.join(fields)}" if fields else piece for piece, fields in grouped.items()]


@main.command()
@click.argument("games", nargs=-1)
@click.option("--all", "all_games", is_flag=True, help="Build every game under components/.")
@click.option("--paper", type=click.Choice(sorted(PAPERS), case_sensitive=False), default="a4", show_default=True,
              help="Paper size (any case: A4 and a4 are the same).")
@click.option("--format", "formats", default="pdf,svg", show_default=True, callback=lambda c, p, v: parse_formats(v),
              help=f"Comma list of outputs: {', '.join(FORMATS)}.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"), show_default=True)
@click.option("--bleed", type=Millimetres(0, 10), default=3.0, show_default=True, help="Bleed in mm.")
@click.option("--margin", type=Millimetres(3, 30), default=6.0, show_default=True,
              help="Unprintable page margin in mm.")
@click.option("--no-crop-marks", is_flag=True)
@click.option("--duplex", type=click.Choice(["long", "short", "off"]), default="long", show_default=True,
              help="How the printer flips sheets for double-sided pieces; off prints fronts only.")
@click.option("--ink", type=click.Choice(["full", "low"]), default="full", show_default=True,
              help="low: every face on a light ground, large fills as pale tints (every format; names end in -ink-low).")
@click.option("--option", "game_options", multiple=True, help="Turn on a game option (see `starpnp list`).")
@click.option("--strict", is_flag=True, help="Fail on any warning (text that does not fit, missing art).")
@click.option("--write-ins", is_flag=True,
              help="Print clean write-in areas where our edition fills in what the rulebook leaves out, for "
                   "owners who copy their own game's values (file name ends in -write-ins).")
@click.option("--quiet", "-q", is_flag=True, help="Only one summary line per game.")
@click.option("--dpi", type=click.IntRange(72, 1200), default=300, show_default=True, help="Resolution for png.")
@click.option("--preset", type=click.Choice(sorted(PRESETS)), default=None,
              help="Print-on-demand card preset: sets bleed and dpi, exports png,pdf-single unless --format is "
                   "given, and warns about cards of another size.")
@click.option("--watch", is_flag=True, help="Rebuild one game folder each time a file in it changes.")
@click.option("--yes", "large", is_flag=True, help=f"Build even a set of more than {LARGE_PAGES} pages.")
@click.option("--tts-url", metavar="BASE", default=None, callback=lambda c, p, v: tts_base(v),
              help="Tabletop Simulator images at BASE/<file> (https://… where you host the tts folder, or "
                   "file:///… on this computer) instead of names relative to the folder.")
@click.option("--refresh", is_flag=True, help="Fetch published sheets (items: https://…) again; fail rather than "
                                                "use the copy kept from an earlier build.")
@click.pass_context
def build(ctx, games, all_games, paper, formats, out, bleed, margin, no_crop_marks, duplex, ink, game_options,
          strict, write_ins, quiet, dpi, preset, watch, large, tts_url, refresh):
    """Build print-ready PDF/SVG sheets and manifest.json for games or game folders."""
    try:
        folders = games_from(games, all_games)
    except DataError as exc:
        fail([str(exc)])
    if preset:
        chosen = PRESETS[preset]
        given = lambda name: ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE  # noqa: E731
        bleed = bleed if given("bleed") else chosen["bleed"]
        dpi = dpi if given("dpi") else chosen["dpi"]
        formats = formats if given("formats") else ("png", "pdf-single")
    settings = Settings(paper=paper, margin=margin, bleed=bleed, crop_marks=not no_crop_marks, duplex=duplex, ink=ink)
    options = BuildOptions(settings=settings, formats=formats, out=out, options=frozenset(game_options),
                           strict=strict, write_ins=write_ins, dpi=dpi, preset=preset, large=large,
                           tts_url=tts_url, refresh=refresh)
    if watch:
        if len(folders) != 1:
            raise click.UsageError("--watch follows exactly one game folder")
        from .data.overrides import source_folders
        from .watch import watch as follow

        folder = folders[0]
        follow(source_folders(folder, find_game), lambda memo: build_and_report(folder, options, quiet, memo),
               click.echo)
        return
    errors = [line for folder in folders for line in build_and_report(folder, options, quiet)]
    if errors:
        fail(errors)


@contextmanager
def cycle_collector_paused():
    """A build makes hundreds of thousands of short-lived objects and next to no reference cycles, so the
    cyclic garbage collector only rescans them: pausing it saves about a sixth of a large build's CPU
    (BENCHMARKS.md) and no memory."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def build_and_report(folder: Path, options: BuildOptions, quiet: bool, memo: dict | None = None) -> list[str]:
    """Build one folder and print its report; returns its error lines (printed later, or now when watching)."""
    try:
        with cycle_collector_paused():
            result = build_with_progress(folder, options, quiet, memo)
    except DataErrors as exc:
        errors = exc.errors
    except BuildFailed as exc:
        errors = [f"{folder}: --strict: {line}" for line in str(exc).splitlines()]
    except OSError as exc:
        name = str(exc.filename or options.out)
        shown = name if len(name) <= 200 else name[:197] + "..."
        if Path(name).resolve().is_relative_to(options.out.resolve()):
            fail([f"{shown}: cannot write: {exc.strerror or exc}"], 1)
        fail([f"{shown}: cannot read: {exc.strerror or exc}"])  # an input the checks let through: still the data's fault
    else:
        report(result, quiet)
        return []
    if memo is not None:  # watching: show the problem and keep going
        for line in errors:
            click.echo(line, err=True)
    return errors


def build_with_progress(folder: Path, options: BuildOptions, quiet: bool, memo: dict | None) -> BuildResult:
    if quiet or not sys.stderr.isatty():
        return build_game(folder, options, memo=memo)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), transient=True, console=Console(stderr=True)) as progress:
        task = progress.add_task(folder.name, total=None)

        def step(text: str, done: int | None = None, total: int | None = None) -> None:
            """A counted step (PNG faces) fills the bar; the others leave it pulsing."""
            progress.update(task, description=f"{folder.name}: {text}", completed=done or 0, total=total)

        return build_game(folder, options, step, memo)


@main.command()
@click.option("--host", default="0.0.0.0", show_default=True)
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option("--data", "data_dir", type=click.Path(file_okay=False), default=None,
              help="Folder for the table database (default: $STARPNP_DATA or the current folder).")
@click.option("--database-url", envvar="STARPNP_DATABASE_URL", default=None, metavar="URL",
              help="Keep the tables in this PostgreSQL database (postgresql://user:password@host/name) instead "
                   "of SQLite in the data folder; several servers may share it (default: $STARPNP_DATABASE_URL).")
@click.option("--public-url", envvar="STARPNP_PUBLIC_URL", default=None, metavar="URL",
              help="The address phones use, for join links and QR codes, e.g. https://tables.example.org behind a "
                   "load balancer (default: this machine's address and --port).")
@click.option("--print-folder", "print_folders", multiple=True, type=click.Path(file_okay=False),
              help="A game folder of your own to offer on the /print page too (repeatable).")
@click.option("--game-folder", "game_folders", multiple=True, type=click.Path(file_okay=False),
              help="A game folder of your own whose game.yaml declares a tracker: the create form offers it, and "
                   "/print prints it (repeatable).")
@click.option("--https", "https", is_flag=True,
              help="Serve over HTTPS with a certificate made for this data folder, so phones may keep their "
                   "screens on through the Wake Lock API (each phone asks once whether to trust it).")
@click.option("--push-streams", type=click.IntRange(0, 10_000), default=400, show_default=True,
              help="Phones this server keeps a push connection open to (a thread each); more phones poll every 2 s, "
                   "and 0 makes every phone poll.")
def serve(host: str, port: int, data_dir: str | None, database_url: str | None, public_url: str | None,
          print_folders: tuple[str, ...], game_folders: tuple[str, ...], https: bool, push_streams: int) -> None:
    """Run the table companion for phones on this network (and /print for PDFs)."""
    from starpnp.companion.rules.declared import rules_from_folder
    from starpnp.companion.serve import run
    from .data.overrides import source_folders

    for folder in print_folders:
        try:
            source_folders(find_game(folder), find_game, strict=True)
        except DataError as exc:
            fail([f"--print-folder: {exc}"])
        except DataErrors as exc:
            fail([f"--print-folder: {exc.errors[0]}"])
    taken = set(builtin_games())
    for folder in game_folders:
        try:
            checked(find_game(folder))
            game_id = rules_from_folder(find_game(folder)).id
        except DataError as exc:
            fail([f"--game-folder: {exc}"])
        except DataErrors as exc:
            fail([f"--game-folder: {exc.errors[0]}"])
        if game_id in taken:
            fail([f"--game-folder: {folder}: id {game_id!r} is already another game's; give game.yaml its own id"])
        taken.add(game_id)
    run(host, port, data_dir, {"PRINT_FOLDERS": [*print_folders, *game_folders], "GAME_FOLDERS": list(game_folders),
                               "DATABASE_URL": database_url, "PUBLIC_URL": public_url, "PUSH_STREAMS": push_streams},
        https)


@main.command()
@click.argument("game")
@click.option("--data", "data_dir", type=click.Path(file_okay=False), default=None,
              help="The folder `starpnp serve --data` keeps its tables in (default: $STARPNP_DATA or the current "
                   "folder).")
@click.option("--database-url", envvar="STARPNP_DATABASE_URL", default=None, metavar="URL",
              help="Read the tables of this PostgreSQL database instead (default: $STARPNP_DATABASE_URL).")
@click.option("--format", "form", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True,
              help="table: for reading; csv: every finished play, a row per player; json: as /api/stats/GAME.")
@click.option("--group", metavar="CODE", default=None,
              help="Only the plays of tables created with this group code, with their names (the CSV's too).")
@click.option("--import", "import_file", type=click.File("r", encoding="utf-8-sig"), default=None, metavar="CSV",
              help="First add the plays of this plays.csv (exported with a group code from another server) to "
                   "GAME's statistics here, under its group code; a bad or duplicate row adds none.")
def stats(game: str, data_dir: str | None, database_url: str | None, form: str, group: str | None,
          import_file) -> None:
    """What the finished tables of GAME say: seat balance, lengths, scores, endings and ties. GAME is one of
    ours or the folder of a game whose game.yaml declares a tracker (its playtests served with --game-folder).
    With --import, a group moving servers brings its history along."""
    import os

    from starpnp.companion.inputs import parse_group
    from starpnp.companion.rules import all_rules
    from starpnp.companion.rules.declared import rules_from_folder
    from starpnp.companion.stats_import import import_plays
    from starpnp.companion.stats_views import report
    from starpnp.companion.storage import Store, StoreError, database_url as url_of, make_engine

    folder = Path(data_dir or os.environ.get("STARPNP_DATA") or ".")
    if not database_url and not (folder / "companion.sqlite3").is_file():
        fail([f"--data: {clipped(str(folder))} holds no companion.sqlite3 (the folder `starpnp serve --data` "
              f"keeps its tables in)"])
    try:
        rules = all_rules().get(game) or rules_from_folder(find_game(game))
        group = parse_group(group)
        store = Store(make_engine(url_of(folder, database_url), pool_size=1), {**all_rules(), rules.id: rules})
        if import_file is not None:
            try:
                text = import_file.read()
            except UnicodeDecodeError:
                fail([f"--import: {import_file.name} is not UTF-8 text (a plays.csv from a statistics page is)"])
            plays = import_plays(store, rules, text, import_file.name)
            click.echo(f"imported {len(plays)} plays of {rules.name} "
                       f"({', '.join(sorted({'group ' + p.group for p in plays}))})", err=True)
        text = report(store, rules, form, group)
    except DataError as exc:
        fail([str(exc)])
    except DataErrors as exc:
        fail([exc.errors[0]])
    except StoreError as exc:
        fail([exc.message])
    click.echo(text, nl=not text.endswith("\n"))


@main.command()
@click.argument("folder", default=".")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (this computer only).")
@click.option("--port", type=click.IntRange(1, 65535), default=8040, show_default=True)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"), show_default=True,
              help="Where the page's build buttons and proof sheets write.")
def studio(folder: str, host: str, port: int, out: Path) -> None:
    """Show every face of the game in FOLDER in the browser, redrawn each time you save a file it reads."""
    from .studio.serve import run

    try:
        run(find_game(folder), host, port, out)
    except DataError as exc:
        fail([str(exc)])


if __name__ == "__main__":
    main()
