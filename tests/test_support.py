"""Rules of the test suite itself: a missing tool skips a test on a developer's machine and fails it in CI;
test files have names of their own."""
from pathlib import Path

import pytest
from _pytest.outcomes import Failed, Skipped

from starpnp_test_support import require_tool


def test_a_missing_tool_fails_under_ci_and_skips_elsewhere(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(Failed, match="no-such-tool-7k2m is not installed .*CI is set"):
        require_tool("no-such-tool-7k2m", "some-package")
    monkeypatch.delenv("CI")
    with pytest.raises(Skipped, match=r"no-such-tool-7k2m is not installed \(Debian: some-package\)"):
        require_tool("no-such-tool-7k2m", "some-package")


def test_a_present_tool_or_file_is_returned(tmp_path):
    assert require_tool("sh").endswith("/sh")
    assert require_tool(str(tmp_path)) == str(tmp_path)


def test_no_two_test_files_share_a_name():
    """pytest imports test files by their base name from each folder: two of the same name break collection."""
    names = [path.name for path in Path(__file__).parent.rglob("test_*.py")]
    assert sorted(name for name in set(names) if names.count(name) > 1) == []


def test_axe_core_finds_a_serious_fault_and_passes_a_clean_page(browser):
    """The accessibility check the browser tests use is live: a button without a name is a serious finding,
    the same page with a named button has none."""
    from starpnp_test_support import axe_violations

    page = browser.new_page()
    try:
        page.set_content('<!doctype html><html lang="en"><head><title>t</title></head>'
                         '<body><main><h1>t</h1><button></button></main></body></html>')
        assert [line.split(":")[0] for line in axe_violations(page)] == ["button-name"]
        page.set_content('<!doctype html><html lang="en"><head><title>t</title></head>'
                         '<body><main><h1>t</h1><button>Go</button></main></body></html>')
        assert axe_violations(page) == []
    finally:
        page.close()
