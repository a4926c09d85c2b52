"""Layouts are found by name without importing every game's modules up front."""
from __future__ import annotations

import subprocess
import sys

from conftest import MINI

PROBE = f"""
import sys
from starpnp.generator.build import BuildOptions, build_game
from starpnp.generator.layouts import LAYOUTS
from pathlib import Path
import tempfile
build_game(Path({str(MINI)!r}), BuildOptions(out=Path(tempfile.mkdtemp()), formats=("pdf",)))
loaded = sorted(m for m in sys.modules if m.startswith("starpnp.generator.layouts."))
print(",".join(loaded))
print("stars_inc_board" in LAYOUTS, len(LAYOUTS) > 10)
"""


def test_a_build_imports_only_the_layouts_it_draws_yet_every_name_is_known():
    result = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    loaded, known = result.stdout.strip().splitlines()
    assert set(loaded.split(",")) == {"starpnp.generator.layouts.base", "starpnp.generator.layouts.board", "starpnp.generator.layouts.card",
                                      "starpnp.generator.layouts.chit"}
    assert known == "True True"


def test_every_indexed_name_really_is_registered_by_its_module():
    from starpnp.generator.layouts import LAYOUTS, load_all

    load_all()
    for name in LAYOUTS.index():
        assert dict.__contains__(LAYOUTS, name), name
