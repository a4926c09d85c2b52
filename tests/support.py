"""What every test folder shares: the rule that a missing tool skips locally but fails in CI, and the
example budget of the property tests (hypothesis).

Loaded by tests/conftest.py as the module `starpnp_test_support`, so any test can import it.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

# The small test game most generator tests build: here, under a name no other folder's conftest.py shadows
# (two workers importing tests in different orders once found tests/studio/conftest.py as `conftest`).
MINI = Path(__file__).resolve().parent / "fixtures" / "mini"


def require_tool(name: str, install_hint: str = "") -> str:
    """The tool's path (a command on PATH or a file). When it is missing: skip locally, but fail when CI is
    set, because CI installs every tool and must run every test."""
    path = name if Path(name).exists() else shutil.which(name)
    if path:
        return path
    missing(f"{name} is not installed" + (f" (Debian: {install_hint})" if install_hint else ""))


def missing(message: str) -> None:
    """Skip the test for want of `message`'s tool, or fail it when CI is set."""
    if os.environ.get("CI"):
        pytest.fail(f"{message}; CI is set, so this fails instead of skipping")
    pytest.skip(message)


# Property tests (hypothesis) run under one of two profiles, chosen by HYPOTHESIS_PROFILE (tests/conftest.py
# loads it): "ci", the default and what `make test` runs, draws a fixed, derandomized set of examples (the same
# every run, so CI never fails by chance); "long" draws new random examples, `examples()` times as many, and
# keeps failures in .hypothesis/ to replay them first next time. README.md, "Property tests", says how.
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
LONG_FACTOR = int(os.environ.get("LONG_FACTOR", 50))


def register_profiles() -> None:
    from hypothesis import settings

    settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
    settings.register_profile("long", deadline=None, print_blob=True, max_examples=examples(100))
    settings.load_profile(PROFILE)


def examples(ci: int, long: int | None = None) -> int:
    """A property test's example budget: `ci` under the ci profile, `long` (default LONG_FACTOR times `ci`)
    under the long one."""
    return ci if PROFILE == "ci" else long or ci * LONG_FACTOR


def pdf_page_texts(pdf: Path) -> list[str]:
    """Every page's text, read by PDFium: a second for one of our sets, where pypdf takes a minute (the same
    words, in another order on some pages)."""
    import pypdfium2

    from starpnp.generator.exports.face_files import PDFIUM

    with PDFIUM:
        document = pypdfium2.PdfDocument(str(pdf))
        return [page.get_textpage().get_text_range() for page in document]


def axe_script() -> str:
    """axe-core's script, installed by `make test` into the venv (`.venv/js`, from the npm registry, never
    committed). Missing: skip locally, fail in CI."""
    import sys

    path = Path(sys.prefix) / "js" / "node_modules" / "axe-core" / "axe.min.js"
    if not path.exists():
        missing(f"axe-core is not installed at {path} (make test installs it with npm)")
    return path.read_text(encoding="utf-8")


def axe_violations(page, impacts: tuple[str, ...] = ("serious", "critical"), rules: tuple[str, ...] = ()) -> list[str]:
    """What axe-core finds wrong on the page as it stands, at the given impacts: one line per rule and node
    ("rule-id: target — help"), empty when the page is clean. Injected into the live page so the check sees
    what a browser shows (scripts run, styles applied, dark mode if the page is in it). `rules`: only these
    (all when empty) — a page checked whole in light mode needs only its colours checked again in dark."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_script())
    options = {"resultTypes": ["violations"], **({"runOnly": list(rules)} if rules else {})}
    result = page.evaluate("async (options) => await window.axe.run(document, options)", options)
    return [
        f"{violation['id']}: {' '.join(map(str, node['target']))} — {violation['help']}"
        for violation in result["violations"] if violation.get("impact") in impacts
        for node in violation["nodes"]
    ]


def folder_digest(folder: Path) -> str:
    """Every file under `folder`, names and bytes, as one digest: a folder a test must leave as it was."""
    import hashlib

    whole = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            whole.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
    return whole.hexdigest()
