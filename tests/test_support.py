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
