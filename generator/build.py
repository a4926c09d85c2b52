"""One game folder in, its PDF, SVG files and manifest out."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .exports import PRESETS, faces, write_pngs, write_single_pdf, write_svgs
from .imposition import Settings, Sheet, fits_on_page, impose
from .loader import load_game
from .model import Game, ResolvedComponent
from .pdfdoc import ContentsRow, PdfDocument, contents_pages, page_ranges
from .render import SceneCache
from .scene import Scene

FORMATS = ("pdf", "svg", "png", "pdf-single")
DEFAULT_FORMATS = ("pdf", "svg")
Run = list[tuple[Scene, Scene | None, str]]
SHARES_SHEETS = ("chit", "token", "marker")


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


def make_runs(game: Game, cache: SceneCache, settings: Settings) -> list[Run]:
    """Copies of every piece in data order, one run of sheets per component.

    Only counters (chits, tokens, markers) of the same size and sidedness share sheets with their
    neighbours, as on a punchboard; a deck, tiles or a board always starts its own sheet, so it can be
    printed alone from the pages the contents list gives.
    """
    runs: list[Run] = []
    key_of_last = None
    for comp in game.components:
        sides = comp.double_sided and settings.duplex != "off"
        entries: Run = []
        for piece in comp.pieces:
            front = cache.face(comp, piece, "front")
            back = cache.face(comp, piece, "back") if sides and piece.back else None
            entries.extend([(front, back, comp.spec.id)] * piece.count)
        if not entries:
            continue
        first = entries[0][0]
        key = (first.outer_width, first.outer_height, sides) if comp.spec.kind in SHARES_SHEETS else None
        if not fits_on_page(first, settings):
            runs.extend([[entry] for entry in entries])
            key_of_last = None
        elif key is not None and key == key_of_last:
            runs[-1].extend(entries)
        else:
            runs.append(entries)
            key_of_last = key
    return runs


def footer_notes(sheets: list[Sheet], duplex: str) -> list[str]:
    notes = []
    for i, sheet in enumerate(sheets):
        if sheet.role == "back":
            notes.append(f" Back of the previous sheet: duplex, flip on the {duplex} edge.")
        elif sheet.role == "front" and i + 1 < len(sheets) and sheets[i + 1].role == "back":
            notes.append(f" Its backs follow: print duplex, flip on the {duplex} edge.")
        else:
            notes.append("")
    return notes


def component_pages(game: Game, sheets: list[Sheet], first_page: int) -> dict[str, list[int]]:
    pages: dict[str, list[int]] = {c.spec.id: [] for c in game.components}
    for number, sheet in enumerate(sheets, first_page):
        for comp_id in sheet.components:
            pages[comp_id].append(number)
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


def build_game(folder: Path, options: BuildOptions, step: Callable[[str], None] = lambda _: None,
               memo: dict | None = None) -> BuildResult:
    """Build one game folder; `memo` carries drawn faces from an earlier build (see SceneCache)."""
    game = load_game(folder, options.options, options.write_ins)
    settings = options.settings
    result = BuildResult(game.info.id, game.info.name, unspecified=game.unspecified, ours=game.ours,
                         overrides=game.overrides, edition=game.edition)
    step("drawing faces")
    cache = SceneCache(settings.bleed, folder, memo)
    all_faces = faces(game, cache)  # every face drawn once, so warnings cover every format
    runs = make_runs(game, cache, settings)
    result.warnings = list(cache.warnings) + preset_warnings(game, options.preset)
    if options.strict and result.warnings:
        raise BuildFailed("\n".join(result.warnings))
    step("imposing sheets")
    sheets = impose(runs, settings)
    n_contents = contents_pages(len(game.components))
    pages = component_pages(game, sheets, n_contents + 1)
    result.pieces = sum(c.quantity for c in game.components)
    result.pages = n_contents + len(sheets)
    out = result.folder = options.out / game.info.id
    out.mkdir(parents=True, exist_ok=True)
    if "pdf" in options.formats:
        step("writing PDF")
        path = out / f"{game.info.id}-{settings.paper}{'-write-ins' if options.write_ins else ''}.pdf"
        doc = PdfDocument(str(path), settings, game.info.name, {c.spec.id: c.spec.name for c in game.components})
        rows = [ContentsRow(c.spec.name, c.spec.kind.replace("_", " "), c.quantity,
                            f"{c.spec.size[0]:g} × {c.spec.size[1]:g}", "2" if c.double_sided else "1",
                            page_ranges(pages[c.spec.id])) for c in game.components]
        doc.contents(rows, game.info.about, game.info.print_notes, len(game.unspecified))
        for sheet, note in zip(sheets, footer_notes(sheets, settings.duplex)):
            doc.sheet(sheet, note)
        doc.save()
        result.files.append(path)
    if "svg" in options.formats:
        step("writing SVG")
        result.files.extend(write_svgs(all_faces, out))
    if "png" in options.formats:
        step("writing PNG")
        result.files.extend(write_pngs(all_faces, out, options.dpi))
    if "pdf-single" in options.formats:
        step("writing one page per face")
        result.files.extend(write_single_pdf(all_faces, out, game.info.id))
    path = out / "manifest.json"
    path.write_text(json.dumps(manifest(game, settings, pages, result), indent=2, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    result.files.append(path)
    return result
