"""Layouts are found by name without importing every game's modules up front."""
from __future__ import annotations

import subprocess
import sys

from conftest import MINI

PROBE = f"""
import sys
from starpnp.generator.build import BuildOptions, build_game
from starpnp.generator.layouts import layouts_for
from pathlib import Path
import tempfile
build_game(Path({str(MINI)!r}), BuildOptions(out=Path(tempfile.mkdtemp()), formats=("pdf",)))
loaded = sorted(m for m in sys.modules if m.startswith("starpnp.generator.layouts."))
print(",".join(loaded))
LAYOUTS = layouts_for()
print("board" in LAYOUTS, "icon_key" in LAYOUTS)
"""


def test_a_build_imports_only_the_layouts_it_draws_yet_every_name_is_known():
    result = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    loaded, known = result.stdout.strip().splitlines()
    assert set(loaded.split(",")) == {"starpnp.generator.layouts.base", "starpnp.generator.layouts.board",
                                      "starpnp.generator.layouts.layoutfile"}
    assert known == "True True"


def test_every_indexed_name_really_is_registered_by_its_module():
    from starpnp.generator.layouts import PYTHON_LAYOUTS, REGISTERED, load_all

    load_all()
    assert set(REGISTERED) == set(PYTHON_LAYOUTS)  # each module registers exactly the names listed for it
    for name, module in PYTHON_LAYOUTS.items():
        assert REGISTERED[name].draw.__module__ == f"starpnp.generator.layouts.{module}", name
