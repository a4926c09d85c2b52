"""Shared fixtures: a real companion server, Chromium via Playwright, and two phones on one table.

When CI is set, a missing tool (chromium) FAILS the test instead of skipping it.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

def _load(name: str, relative: str):
    """A helper file under a unique module name, importable from any test directory."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).resolve().parent / relative)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


_support = _load("starpnp_test_support", "support.py")
require_tool = _support.require_tool
_support.register_profiles()  # every hypothesis test: derandomized with a fixed budget unless asked for "long"
_helpers = _load("companion_test_helpers", "companion/helpers.py")
ServerProcess, _create_table = _helpers.ServerProcess, _helpers.create_table
_shared_builds = _load("starpnp_shared_builds", "shared_builds.py")
_load("starpnp_pdf_probe", "generator/pdf_probe.py")  # reads back what a PDF draws, from any test directory

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 360, "height": 740}


# The files that take a worker a minute or more (measured on a loaded 2-core machine, longest first): run first,
# so that under `--dist loadfile` neither worker is left finishing one of them while the other waits. The rest
# follow as xdist would order them itself (most tests first), which put files of a few long tests last: the
# 400-variant fuzzer ended a whole run on its own. `make test` passes --no-loadscope-reorder to keep this order.
LONG_FILES = ["tests/generator/test_ink_roles.py", "tests/generator/test_fuzz.py", "tests/companion/test_browser.py",
              "tests/generator/test_duplex_whole_file.py", "tests/generator/test_board_seams.py",
              "tests/companion/test_browser_push.py", "tests/companion/test_browser_table_feel.py",
              "tests/generator/test_fuzz_properties.py", "tests/studio/test_studio_app.py",
              "tests/companion/test_browser_offline.py", "tests/games/test_nothing_printed_over.py",
              "tests/generator/test_designer_workbook.py"]


def pytest_collection_modifyitems(items):
    """The long files first (LONG_FILES), then the others, most tests first; each file's tests in their order."""
    files = [item.nodeid.split("::")[0] for item in items]
    counts = {name: files.count(name) for name in set(files)}
    order = {name: (LONG_FILES.index(name), 0) if name in LONG_FILES else (len(LONG_FILES), -counts[name])
             for name in counts}
    items[:] = [item for _, item in sorted(zip(files, items), key=lambda pair: order[pair[0]])]


@pytest.fixture(scope="session")
def shared_builds(tmp_path_factory):
    """shared_builds.build(folder, options): one build per game and options for the whole session (see
    tests/shared_builds.py); when the session ends, no test may have changed a shared build's files."""
    builds = _shared_builds.SharedBuilds(_shared_builds.session_root(tmp_path_factory.getbasetemp()))
    yield builds
    changed = builds.changed_files()
    assert not changed, "a test changed a shared build's files (copy them to change them):\n" + "\n".join(changed)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """Base URL of a real companion server (starpnp serve) shared by the session."""
    server = ServerProcess(tmp_path_factory.mktemp("companion-data")).start()
    yield server.base_url
    server.stop()


@pytest.fixture
def create_table():
    """create_table(base_url, game, players, options) -> the API's table JSON (code, url, ...)."""
    return _create_table


@pytest.fixture(scope="session")
def browser():
    require_tool(CHROMIUM, "chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def two_phones(browser):
    """Two separate 360x740 browser contexts (two phones), each with one page."""
    contexts = [browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True) for _ in range(2)]
    pages = [c.new_page() for c in contexts]
    yield pages
    for context in contexts:
        context.close()
