"""One game folder in, its PDF, SVG files and manifest out."""
from __future__ import annotations

import json
import math
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .exports.face_files import PRESETS, write_pngs, write_single_pdf, write_svgs
from .sheets.imposition import (Settings, Sheet, content_area, fits_on_page, impose, paginate, paper_sheet,
                         plan_grid)
from .look.loader import load_game
from .data.model import Game, ResolvedComponent
from .sheets.pdf import ContentsRow, PdfDocument, PrintGuide, contents_pages, page_ranges, placed_more_than_once
from .look.render import SceneCache, faces
from .look.scene import Scene
from .data.yamlio import DataErrors
from .data.limits import MAX_PAGES, over

FORMATS = ("pdf", "svg", "png", "pdf-single", "tts")
DEFAULT_FORMATS = ("pdf", "svg")
Run = list[tuple[Scene, Scene | None, str]]
COUNTERS = ("chit", "token", "marker")


@dataclass(frozen=True)
class BuildOptions:
    settings: Settings = Settings()
    formats: tuple[str, ...] = DEFAULT_FORMATS
    dpi: int = 300  # for png
    preset: str | None = None  # a print-on-demand preset (exports.PRESETS): warn about cards of another size
    out: Path = Path("output")
    options: frozenset[str] = frozenset()
    strict: bool = False
    write_ins: bool = False  # our edition's values print as write-in areas
    large: bool = False  # --yes: build even past LARGE_PAGES
    tts_url: str | None = None  # --tts-url: where the Tabletop Simulator folder's images will be hosted
    refresh: bool = False  # --refresh: fetch published sheets anew, never settle for the kept copy
    seconds: float | None = None  # drawing stops, refused as bad data, past this many seconds (builds on demand)


@dataclass
class BuildResult:
    game: str
    name: str
    files: list[Path] = field(default_factory=list)
    pieces: int = 0
    pages: int = 0
    warnings: list[str] = field(default_factory=list)
    unspecified: tuple[str, ...] = ()
    ours: tuple[str, ...] = ()
    overrides: tuple[str, ...] = ()
    edition: tuple[str, ...] = ()
    folder: Path | None = None  # where the files went


class BuildFailed(Exception):
    """--strict and there were warnings."""


def preset_warnings(game: Game, preset: str | None) -> list[str]:
    if preset is None:
        return []
    want = PRESETS[preset]["trim"]
    return [f"{c.spec.id}: cards are {c.spec.size[0]:g} × {c.spec.size[1]:g} mm; the {preset} preset prints "
            f"{want[0]:g} × {want[1]:g} mm" for c in game.components
            if c.spec.kind == "card" and any(abs(a - b) > 0.1 for a, b in zip(sorted(c.spec.size), sorted(want)))]


LARGE_PAGES = 500  # a ream of paper: our largest game prints under 100 pages; past this a count is likely a slip


def estimated_pages(game: Game, settings: Settings) -> int:
    """About how many pages a build prints, from sizes and counts alone (nothing drawn, so a count of
    thousands is caught in a moment): each component on sheets of its own, boards as tiles of the page."""
    pages = contents_pages(len(game.components))
    for comp in game.components:
        w, h = comp.spec.size
        grid = plan_grid(Scene(w, h, settings.bleed, (), comp.spec.shape), settings, comp.quantity)
        if grid.per_sheet:
            sheets = math.ceil(comp.quantity / grid.per_sheet)
        else:
            _, _, aw, ah = content_area(settings)
            sheets = comp.quantity * (1 + math.ceil(w / aw) * math.ceil(h / ah))  # an assembly map, then tiles
        pages += sheets * (2 if comp.double_sided and settings.duplex != "off" else 1)
    return pages


def past_ceiling(game: Game, settings: Settings, folder: Path) -> str | None:
    """What check and build refuse, --yes or not: a set past MAX_PAGES pages."""
    pages = estimated_pages(game, settings)
    return str(over(str(folder), f"the set's pages on {settings.paper}", pages, MAX_PAGES)) if pages > MAX_PAGES else None


def too_large(game: Game, settings: Settings) -> str | None:
    """What check warns and build refuses without --yes: a set past LARGE_PAGES pages."""
    pages = estimated_pages(game, settings)
    if pages <= LARGE_PAGES:
        return None
    biggest = max(game.components, key=lambda c: c.quantity)
    return (f"about {pages:,} pages on {settings.paper}, more than {LARGE_PAGES} ({biggest.spec.id} alone has "
            f"{biggest.quantity:,} pieces)")


def make_runs(game: Game, cache: SceneCache, settings: Settings, outlines: bool = False) -> list[Run]:
    """Copies of every piece in data order, grouped into runs of sheets; with `outlines`, faces that fit on a
    sheet are imposed as outlines, drawn only when their sheet is written (see SceneCache.outline).

    Components of the same kind, size, shape and sidedness share one run (counters of every kind count as
    one kind), so a small deck or a few chits fills the gaps of another instead of taking a sheet
    of its own; each back still prints behind its own front. A run keeps the place of its first component.
    Pieces too large for the paper are tiled one by one. Player aids are left out (see `player_aids`).
    """
    runs: list[Run] = []
    run_of: dict[tuple, Run] = {}
    for comp in game.components:
        if is_aid(comp):
            continue
        sides = comp.double_sided and settings.duplex != "off"
        entries: Run = []
        face = cache.outline if outlines else cache.face
        if outlines and comp.pieces and not fits_on_page(cache.outline(comp, comp.pieces[0], "front"), settings):
            face = cache.face  # a piece tiled over pages is cut where its drawing allows: drawn now
        for piece in comp.pieces:
            front = face(comp, piece, "front")
            back = face(comp, piece, "back") if sides and piece.back else None
            entries.extend([(front, back, comp.spec.id)] * piece.count)
        if not entries:
            continue
        first = entries[0][0]
        if not fits_on_page(first, settings):
            runs.extend([[entry] for entry in entries])
            continue
        kind = "counter" if comp.spec.kind in COUNTERS else comp.spec.kind
        key = (kind, first.outer_width, first.outer_height, first.shape, first.corner_radius,
               any(back is not None for _, back, _ in entries))
        if key in run_of:
            run_of[key].extend(entries)
        else:
            run_of[key] = entries
            runs.append(entries)
    return runs


def is_aid(comp: ResolvedComponent) -> bool:
    """A one-sided player aid: read where it prints, on the page after the contents (a two-sided one is a
    piece like any other, cut out to show both sides)."""
    return comp.spec.player_aid and not comp.double_sided


def contents_kind(comp: ResolvedComponent) -> str:
    """What the contents calls a component: a player aid is read on its page, not cut out like its kind."""
    return "player aid" if is_aid(comp) else comp.spec.kind.replace("_", " ")


def player_aids(game: Game, cache: SceneCache) -> list[tuple[Scene, str]]:
    """Every copy of the player aids, for `impose` to print on the page after the contents."""
    return [(cache.face(comp, piece, "front"), comp.spec.id) for comp in game.components if is_aid(comp)
            for piece in comp.pieces for _ in range(piece.count)]


def footer_notes(sheets: list[Sheet], duplex: str) -> list[str]:
    """What each sheet's footer says about its back, from the page order `paginate` made."""
    by_page = {s.page: s for s in sheets}
    flip = f"print double-sided, flipping on the {duplex} edge"
    notes = []
    for sheet in sheets:
        n, other = sheet.back_page, by_page.get(sheet.back_page)
        if not n:
            notes.append(" Nothing is printed on its back." if sheet.pieces else "")
        elif sheet.role == "front" and other is not None and other.role == "back":
            notes.append(f" Back: page {n}, these pieces' backs ({flip}).")
        elif sheet.role == "back":
            notes.append(f" These are the backs of page {n} ({flip}).")
        elif other is not None and other.role == "blank":
            notes.append(f" Back: page {n}, blank (skip it when printing one-sided).")
        else:
            notes.append(f" Back: page {n}, {'the contents' if other is None else 'an assembly map'}.")
    return notes


def print_guide(game: Game, sheets: list[Sheet], n_contents: int, settings: Settings) -> PrintGuide:
    """What page 1 must tell about this game's file: only the steps its pieces need."""
    printed = [s for s in sheets if s.role != "blank"]
    names = {c.spec.id: c.spec.name for c in game.components}
    return PrintGuide(
        duplex=settings.duplex,
        pages=page_ranges(list(range(1, n_contents + 1)) + [s.page for s in printed]),
        blanks=page_ranges([s.page for s in sheets if s.role == "blank"]),
        backs=any(s.role == "back" for s in sheets),
        shapes=sorted({p.scene.shape for s in printed for p in s.placed} - {"rect"}),
        maps=[(s.components[0], s.page, len(set(s.tile_pages))) for s in sheets if s.role == "map"],
        aids=[(names[c], s.page) for s in sheets if s.aids for c in dict.fromkeys(p.component for p in s.aids)],
        unspecified=len(game.unspecified),
        materials=materials(game, [names[s.components[0]] for s in sheets if s.role == "map"],
                            paper_sheet(1, n_contents + len(sheets), settings.duplex)[1], settings),
    )


def component_pages(game: Game, sheets: list[Sheet]) -> dict[str, list[int]]:
    pages: dict[str, list[int]] = {c.spec.id: [] for c in game.components}
    for sheet in sheets:
        for comp_id in sheet.components:
            pages[comp_id].append(sheet.page)
    return pages


def manifest(game: Game, settings: Settings, pages: dict[str, list[int]], result: BuildResult) -> dict:
    def entry(comp: ResolvedComponent) -> dict:
        spec = comp.spec
        return {
            "id": spec.id,
            "kind": spec.kind,
            "name": spec.name,
            "quantity": comp.quantity,
            "trim_mm": list(spec.size),
            "bleed_mm": settings.bleed,
            "shape": spec.shape,
            "double_sided": comp.double_sided,
            "per_player": spec.per_player,
            "pages": pages[spec.id],
            "pieces": [{"name": p.name, "count": p.count, "color": p.color} for p in comp.pieces],
            "unspecified": [u.split(": ", 1)[1] for u in game.unspecified if u.split(": ", 1)[0] == spec.id],
            "edition": [u.split(": ", 1)[1] for u in game.edition if u.split(": ", 1)[0] == spec.id],
        }

    return {
        "game": game.info.id,
        "name": game.info.name,
        "paper": settings.paper,
        "bleed_mm": settings.bleed,
        "margin_mm": settings.margin,
        "duplex": settings.duplex,
        "crop_marks": settings.crop_marks,
        "ink": settings.ink,
        "options": sorted(game.options),
        "pages": result.pages,
        "pieces": result.pieces,
        "components": [entry(c) for c in game.components],
        "unspecified": list(game.unspecified),
        "ours": list(game.ours),
        "edition": list(game.edition),
        "write_ins": game.write_ins,
        "overrides": list(game.overrides),
        "warnings": result.warnings,
    }


def build_game(folder: Path, options: BuildOptions, step: Callable[..., None] = lambda *_: None,
               memo: dict | None = None) -> BuildResult:
    """Build one game folder; `memo` carries drawn faces from an earlier build (see SceneCache). `step(what,
    done, total)` says what it is doing (done and total when it counts, as the PNG export does)."""
    game = load_game(folder, options.options, options.write_ins, items=False, refresh=options.refresh)
    settings = options.settings
    if ceiling := past_ceiling(game, settings, folder):
        raise DataErrors([ceiling])
    large = None if options.large else too_large(game, settings)
    if large:
        raise DataErrors([f"{folder}: {large}; check the counts, or pass --yes to build it anyway"])
    result = BuildResult(game.info.id, game.info.name, unspecified=game.unspecified, ours=game.ours,
                         overrides=game.overrides, edition=game.edition)
    told = [*game.warnings, *preset_warnings(game, options.preset)]  # besides the faces' own warnings
    step("drawing faces")
    cache = SceneCache(settings.bleed, folder, memo, settings.ink,
                       math.inf if options.seconds is None else time.monotonic() + options.seconds)
    # Only the sheets, and nothing to stop for: each face is drawn as its sheet is written and then let go, so
    # memory stays flat however large the set. Otherwise every face is drawn first, so warnings cover every
    # format (and --strict stops before anything is written); --watch keeps the faces for the next build.
    streamed = set(options.formats) <= {"pdf"} and not options.strict and memo is None
    all_faces = [] if streamed else faces(game, cache)
    runs = make_runs(game, cache, settings, outlines=streamed)
    result.warnings = list(cache.warnings) + told
    if options.strict and result.warnings:
        raise BuildFailed("\n".join(result.warnings))
    step("imposing sheets")
    n_contents = contents_pages(len(game.components))
    sheets = paginate(impose(runs, settings, player_aids(game, cache)), n_contents, settings.duplex)
    pages = component_pages(game, sheets)
    result.pieces = sum(c.quantity for c in game.components)
    result.pages = n_contents + len(sheets)
    out = result.folder = options.out / game.info.id
    out.mkdir(parents=True, exist_ok=True)
    name = variant(game, settings, options.preset)
    written: dict[str, dict] = {}  # manifest variant name -> what tells its PDF apart from this build's sheets
    if "pdf" in options.formats:
        step("writing PDF")
        path = out / f"{name}.pdf"
        doc = PdfDocument(str(path), settings, game.info.name, {c.spec.id: c.spec.name for c in game.components},
                          placed_more_than_once(sheets), cache.drawn)
        marked = edition_marks(game)
        rows = [ContentsRow(c.spec.name + marked.get(c.spec.id, ""), contents_kind(c), c.quantity,
                            f"{c.spec.size[0]:g} × {c.spec.size[1]:g}", "2" if c.double_sided else "1",
                            page_ranges(pages[c.spec.id])) for c in game.components]
        about, notes, _ = player_texts(game, marked)
        doc.contents(rows, about, notes, print_guide(game, sheets, n_contents, settings))
        for done, (sheet, note) in enumerate(zip(sheets, footer_notes(sheets, settings.duplex))):
            if done % 20 == 0:
                step(f"writing PDF, page {sheet.page} of {result.pages}")
            doc.sheet(sheet, note)
        if streamed:
            result.warnings = cache.warnings_in_order(game.components) + told
            cache.forget()
        # The sheets, their placements and the faces' outlines go before ReportLab lays out the whole file, and
        # the document once written: none is needed after (thousands of pieces: megabytes less at the peak)
        del sheets, runs
        doc.save()
        del doc
        result.files.append(path)
        written[name] = {"file": path.name, "layout": "sheets"}
    elif streamed:
        result.warnings = cache.warnings_in_order(game.components) + told
    suffix = "".join(f"-{part}" for part in face_variant(game, settings, options.preset))
    if "svg" in options.formats:
        step("writing SVG")
        result.files.extend(write_svgs(all_faces, out / f"svg{suffix}"))
    if "png" in options.formats:
        step("writing PNG")
        result.files.extend(write_pngs(all_faces, out / f"png{suffix}", options.dpi,
                                       lambda done, total: step("writing PNG", done, total)))
    if "pdf-single" in options.formats:
        step("writing one page per face")
        back_first = bool(options.preset and PRESETS[options.preset].get("back_first"))
        single = write_single_pdf(all_faces, out, f"{game.info.id}{suffix}", back_first)
        result.files.extend(single)
        written[single[0].stem] = {"file": single[0].name,
                                   "layout": "one face per page" + (", back first" if back_first else ""),
                                   "pages": sum(1 + (back_first or face.back is not None) for face in all_faces)}
    if "tts" in options.formats:
        from .exports.tts import write_tts  # only Tabletop Simulator exports pay for it

        step("writing Tabletop Simulator objects")
        result.files.extend(write_tts(game, all_faces, out / tts_folder(suffix, options.tts_url), options.dpi,
                                      options.tts_url))
    path = out / "manifest.json"
    this = manifest(game, settings, pages, result)
    this["build"] = {"command": build_command(folder, options), "notes": player_texts(game, edition_marks(game))[2]}
    path.write_text(json_text(with_variants(path, written, this)) + "\n", encoding="utf-8")
    result.files.append(path)
    return result


def json_text(value, depth: int = 0) -> str:
    """JSON laid out for reading down to the third level (a variant's components, one to a line), each part
    beneath that on one line: every part is written by the json module's C encoder, in time linear in the
    manifest (an indented dump runs the pure-Python encoder, seconds for a set of thousands of pieces)."""
    pad = "  " * (depth + 1)
    if isinstance(value, dict) and value and depth < 2:
        return "{\n" + ",\n".join(f"{pad}{json.dumps(str(k), ensure_ascii=False)}: {json_text(v, depth + 1)}"
                                   for k, v in value.items()) + "\n" + "  " * depth + "}"
    if isinstance(value, list) and value and depth < 3 and all(isinstance(v, dict) for v in value):
        return "[\n" + ",\n".join(pad + json_text(v, 3) for v in value) + "\n" + "  " * depth + "]"
    return json.dumps(value, ensure_ascii=False)


def edition_marks(game: Game) -> dict[str, str]:
    """Component id -> the mark its contents row gets when it prints our edition's values (or, built with
    --write-ins, write-in areas in their place): every component with a value marked ours, in a field or in
    its `ours` list (a count, a wording, a tank's size), so page 1 never passes our values off as the
    rulebook's."""
    blanks = {entry.split(": ", 1)[0] for entry in [*game.edition, *game.unspecified]} if game.write_ins else set()
    return {comp: " (write-ins)" if comp in blanks else " (our edition)"
            for comp in (entry.split(": ", 1)[0] for entry in [*game.ours, *game.edition, *game.unspecified])}


def edition_note(game: Game, marked: dict[str, str]) -> list[str]:
    """Page 1's word on the values the rulebook leaves open, naming where they print (and, for whoever builds
    the set, where they are explained: that clause goes to the manifest)."""
    if not marked:
        return []
    if game.write_ins:
        return ["Pieces marked (write-ins) have blank areas where the rulebook gives no value: write in your "
                "own copy's values before play."]
    return ["Pieces marked (our edition) print values the rulebook leaves open, designed by us, not the "
            f"publisher; docs/editions/{game.info.id}.md explains each; build with --write-ins for blank areas "
            "to copy your own game's values into."]


BUILDER_TEXT = re.compile(r"--[a-z]|docs/|\.md\b|manifest\.json|\bstarpnp\b")


def for_players(text: str) -> tuple[str, list[str]]:
    """The text without its clauses for whoever builds the set (command-line options, file names), and those
    clauses: page 1 speaks to players, the manifest to builders."""
    kept, moved = [], []
    for sentence in re.split(r"(?<=[.!?])\s+", text.strip()):
        clauses = sentence.rstrip(".").split("; ")
        players = [c for c in clauses if not BUILDER_TEXT.search(c)]
        moved += [c.strip()[:1].upper() + c.strip()[1:] + "." for c in clauses if BUILDER_TEXT.search(c)]
        if players:
            kept.append("; ".join(players).rstrip(".") + ".")
    return " ".join(kept) if text.strip() else "", moved


def player_texts(game: Game, marked: dict[str, str]) -> tuple[str, list[str], list[str]]:
    """Page 1's about text and notes in players' words, and what was taken out for the builder."""
    about, builder = for_players(game.info.about)
    notes = []
    for note in [*game.info.print_notes, *edition_note(game, marked)]:
        text, moved = for_players(note)
        builder += moved
        if text:
            notes.append(text)
    return about, notes, builder


def materials(game: Game, tiled: list[str], paper_sheets: int, settings: Settings) -> list[str]:
    """What players need besides a printer: the paper this file takes, cutting tools, glue where a board is
    tiled (`tiled`: their names) or a die or standee is folded, and what the game's data adds."""
    kinds = {c.spec.kind for c in game.components}
    paper = {"a4": "A4", "letter": "Letter", "a3": "A3", "tabloid": "Tabloid"}[settings.paper]
    # a game whose own list asks for a craft knife (to cut slots) says so once, there
    knife = any("craft knife" in item.lower() for item in game.info.materials)
    items = [f"{paper_sheets} sheets of {paper} paper (card of 160–250 g/m² makes sturdier pieces, if your printer "
             "takes it).", "Scissors, a ruler and a pencil." if knife else
             "Scissors, a ruler and a pencil; a craft knife and a cutting mat make long straight cuts cleaner."]
    glued = [*(f"the {name.lower()}'s flaps" for name in tiled), *(["the dice"] if "die" in kinds else []),
             *(["the standing pieces"] if "standee" in kinds else [])]
    if glued:
        items.append(f"A glue stick, for {' and '.join(glued)}.")
    return items + list(game.info.materials)


def build_command(folder: Path, options: BuildOptions) -> str:
    """The command line that makes this build again: page 1 leaves it out, the manifest keeps it."""
    default, given = BuildOptions(), options.settings
    parts = ["starpnp", "build", folder.name if folder.parent.name == "components" else str(folder)]
    for flag, value, usual in (("--paper", given.paper, default.settings.paper),
                               ("--margin", f"{given.margin:g}", f"{default.settings.margin:g}"),
                               ("--bleed", f"{given.bleed:g}", f"{default.settings.bleed:g}"),
                               ("--duplex", given.duplex, default.settings.duplex),
                               ("--ink", given.ink, default.settings.ink),
                               ("--format", ",".join(options.formats), ",".join(default.formats)),
                               ("--dpi", str(options.dpi), str(default.dpi))):
        if value != usual:
            parts += [flag, value]
    parts += ["--no-crop-marks"] * (not given.crop_marks) + ["--write-ins"] * options.write_ins
    for option in sorted(options.options):
        parts += ["--option", option]
    return " ".join(parts)


def variant(game: Game, settings: Settings, preset: str | None = None) -> str:
    """A build's file name: the game and all that tells its builds apart (paper, margin, duplex, crop marks,
    game options, write-ins, bleed, low ink), so building Letter after A4, or with any other option, never
    overwrites another build's PDF. Defaults add nothing, so the plain build keeps the short name."""
    return "-".join([game.info.id, settings.paper, *page_variant(settings), *face_variant(game, settings, preset)])


def mm(value: float) -> str:
    return f"{value:g}mm"


def page_variant(settings: Settings) -> list[str]:
    """What changes only how faces sit on the paper."""
    default = Settings()
    return [*([f"margin-{mm(settings.margin)}"] if settings.margin != default.margin else []),
            *([f"duplex-{settings.duplex}"] if settings.duplex != default.duplex else []),
            *(["no-crop-marks"] if not settings.crop_marks else [])]


def tts_folder(suffix: str, url: str | None) -> str:
    """`tts<suffix>`, or `tts<suffix>-url` for a build whose images are named by --tts-url's addresses: one
    folder per option, as the PDFs keep one file each, so hosting a copy never overwrites the folder that
    travels (named by file names alone)."""
    return f"tts{suffix}" + ("-url" if url else "")


def face_variant(game: Game, settings: Settings, preset: str | None = None) -> list[str]:
    """What changes the faces themselves (not the paper): it names the folders and files of the per-face
    exports too, so an SVG build with an option never overwrites the plain one. A preset names its bleed."""
    if preset and settings.bleed == PRESETS[preset]["bleed"]:
        bleed = [preset]
    else:
        bleed = [f"bleed-{mm(settings.bleed)}"] if settings.bleed != Settings().bleed else []
    return [*sorted(game.options), *(["write-ins"] if game.write_ins else []), *bleed,
            *(["ink-low"] if settings.ink == "low" else [])]


def with_variants(path: Path, written: dict[str, dict], this: dict) -> dict:
    """This build's manifest, with `variants`: every PDF in the folder by name (the sheets and the
    one-face-per-page file alike, each replacing its own earlier entry), each its own true manifest. An
    unreadable old manifest is started afresh."""
    try:
        variants = json.loads(path.read_text(encoding="utf-8")).get("variants", {})
    except (OSError, ValueError, AttributeError):
        variants = {}
    if not isinstance(variants, dict):
        variants = {}
    for name, differs in written.items():
        variants[name] = {**this, **differs}
    first = next(iter(written.values()), {})
    return {**this, **({"file": first["file"]} if first else {}), "variants": variants}
