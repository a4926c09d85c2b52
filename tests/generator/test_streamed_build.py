"""A PDF-only build draws each face as its sheet is written, not all of them first: it writes the same file,
with the same warnings in the same order, as a build that draws every face before writing anything."""
from __future__ import annotations

import json

from cli_runner import replace
from starpnp.generator.build import BuildOptions, build_game, json_text
from starpnp.generator.sheets.imposition import Settings
from starpnp.generator.look.render import SceneCache


def two_warnings(game) -> None:
    """Missing art on one card and text too long on another: two faces that warn, in data order."""
    replace(game / "cards.yaml", "{count: 3, title: Attack,", "{count: 3, title: Attack, art: art/nope.png,")
    replace(game / "cards.yaml", "text: Fight a neighbour.", 'text: "' + "Fight a neighbour. " * 40 + '"')


def test_a_pdf_only_build_writes_what_a_build_drawing_every_face_first_writes(game, tmp_path):
    two_warnings(game)
    for duplex in ("long", "off"):
        settings = Settings(duplex=duplex)
        streamed = build_game(game, BuildOptions(settings=settings, formats=("pdf",), out=tmp_path / "a"))
        drawn_first = build_game(game, BuildOptions(settings=settings, formats=("pdf", "svg"), out=tmp_path / "b"))
        assert len(streamed.warnings) >= 2 and streamed.warnings == drawn_first.warnings
        assert "image file not found" in streamed.warnings[0] and "does not fit" in " ".join(streamed.warnings)
        pdf = [f for f in streamed.files if f.suffix == ".pdf"][0]
        assert pdf.read_bytes() == (tmp_path / "b" / "mini" / pdf.name).read_bytes()
        manifest = json.loads((tmp_path / "a" / "mini" / "manifest.json").read_text())
        assert manifest["warnings"] == streamed.warnings


def test_a_pdf_only_build_draws_no_face_before_its_sheets_are_written(game, tmp_path, monkeypatch):
    drawn: list[str] = []
    draw = SceneCache._draw

    def counted(self, component, piece, face, side):
        drawn.append(f"{component.spec.kind}: {piece.name} {piece.color} {side}")
        return draw(self, component, piece, face, side)

    monkeypatch.setattr(SceneCache, "_draw", counted)
    seen: dict[str, list[str]] = {}
    build_game(game, BuildOptions(formats=("pdf",), out=tmp_path), lambda what, *_: seen.setdefault(what, list(drawn)))
    # only a board tiled over pages is drawn before its sheets: its seams go where its drawing allows
    assert [face.split(":")[0] for face in seen["writing PDF"]] == ["board"]
    assert len(drawn) == len(set(drawn)) > 5 and any(face.startswith("card:") for face in drawn)


def test_manifest_text_reads_back_as_the_data():
    data = {"game": "x", "n": 1, "components": [{"id": "a", "pieces": [{"name": "é", "count": 2}]}], "empty": {},
            "variants": {"x-a4": {"components": [{"id": "a"}], "list": [1, 2]}}, "none": None}
    text = json_text(data)
    assert json.loads(text) == data and "é" in text
    assert text.splitlines()[1] == '  "game": "x",'  # one key to a line at the top


def test_a_build_loads_the_same_pieces_without_keeping_the_item_models(game):
    from starpnp.generator.look.loader import load_game

    full, lean = load_game(game), load_game(game, items=False)
    assert all(c.spec.items for c in full.components) and not any(c.spec.items for c in lean.components)
    assert [c.spec.model_dump(exclude={"items"}) for c in full.components] == \
        [c.spec.model_dump(exclude={"items"}) for c in lean.components]
    for whole, light in zip(full.components, lean.components):
        assert [(p.name, p.count, p.color) for p in whole.pieces] == [(p.name, p.count, p.color) for p in light.pieces]
        for a, b in zip(whole.pieces, light.pieces):
            for side in ("front", "back"):
                x, y = getattr(a, side), getattr(b, side)
                assert (x is None) == (y is None)
                if x is not None:  # the same values, and every field's line where its warning would name it
                    assert x.params == y.params and dict(x.origin) == dict(y.origin) and x.origin[""] > 0
