"""--ink low keeps every icon readable whatever SVG it is drawn with: each feature fixture (tests/fixtures/icons/:
evenodd holes, stroke icons with round caps and joins, opacity, class styles, a <use> of a <symbol>, a skewed
group, a path drawn up to an error) printed as a player's chit, in each player colour, reaches 4.5:1 against
its ground in grey at 300 dpi, measured on the rendered pixels as every mark of the four games is
(test_ink_roles.rendered_contrasts: the icon's darkest 0.1 mm² of ink against the dominant grey around it)."""
from __future__ import annotations

import shutil
from pathlib import Path

from starpnp_test_support import MINI
from starpnp.generator.look.loader import load_game
from starpnp.generator.look.render import SceneCache
from test_ink_roles import DARK, rendered_contrasts

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "icons"
NAMES = sorted(file.stem for file in FIXTURES.glob("*.svg"))


def test_every_feature_fixture_printed_in_low_ink_reads_at_4_5_to_1_against_its_ground(tmp_path):
    assert {"evenodd_holes", "round_caps_and_joins", "use_of_symbol", "class_styles", "skewed_group", "opacity",
            "path_with_an_error"} <= set(NAMES)
    game = tmp_path / "mini"
    shutil.copytree(MINI, game)
    shutil.copytree(FIXTURES, game / "icons")
    items = "".join(f"      - {{icon: {name}}}\n" for name in NAMES)
    (game / "chits.yaml").write_text("components:\n  - id: marks\n    name: Marks\n    kind: chit\n    size: 20\n"
                                     "    shape: round\n    per_player: true\n"
                                     "    front: {layout: chit, label: Mark, icon: icon}\n    items:\n" + items)
    (chits,) = [c for c in load_game(game).components if c.spec.id == "marks"]
    cache = SceneCache(0.0, game, ink="low")
    problems, measured = [], set()
    for piece in chits.pieces:
        which = f"{piece.front.params.icon} on {piece.color}"
        icon_marks = [(name, ratio) for name, ratio, _ in rendered_contrasts(cache.face(chits, piece, "front"))
                      if name.startswith("an icon")]
        assert icon_marks, f"{which}: no icon measured"
        measured.add(which)
        problems += [f"{which}: {name} at {ratio:.2f}:1" for name, ratio in icon_marks if ratio < DARK]
    assert len(measured) == len(NAMES) * 2, measured  # every fixture on both of the mini game's colours
    assert not problems, "\n".join(problems)
