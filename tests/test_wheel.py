"""starpnp as a user installs it: a wheel (not editable) in a fresh virtual environment, run from a folder
outside the repository, so nothing can be found relative to the source tree."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion_test_helpers import REPO, ServerProcess, create_table, request

pytestmark = pytest.mark.server


def run(cmd: list, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    result = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{cmd}: exit {result.returncode}\n{result.stderr[-2000:]}"
    assert "Traceback" not in result.stderr
    return result


def declared_dependencies(wheel: Path) -> list:
    """The distributions the wheel's metadata requires (its extras left out), and theirs, all the way down: as
    installed in the venv running the tests."""
    import email
    import importlib.metadata
    import zipfile

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    with zipfile.ZipFile(wheel) as archive:
        metadata = next(name for name in archive.namelist() if name.endswith(".dist-info/METADATA"))
        wanted = email.message_from_bytes(archive.read(metadata)).get_all("Requires-Dist") or []
    found: dict[str, importlib.metadata.Distribution] = {}
    while wanted:
        requirement = Requirement(wanted.pop())
        name = canonicalize_name(requirement.name)
        if name in found or (requirement.marker and not requirement.marker.evaluate({"extra": ""})):
            continue
        found[name] = importlib.metadata.distribution(requirement.name)
        wanted += found[name].requires or []
    return list(found.values())


def only_declared(dependencies: list, folder: Path) -> Path:
    """`folder` holding links to the dependencies' installed files (packages, modules, metadata) and nothing
    else, for a fresh venv to import them from: what the wheel does not declare stays out of reach."""
    folder.mkdir()
    for dist in dependencies:
        for top in {Path(str(name)).parts[0] for name in dist.files or []} - {"..", "__pycache__"}:
            source = Path(dist.locate_file(top))
            if source.exists() and not (folder / top).exists():
                (folder / top).symlink_to(source)
    return folder


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """(bin folder of a fresh venv holding starpnp installed from its wheel, an empty folder elsewhere).

    The wheel itself is installed by pip. Its dependencies are not downloaded and unpacked again (300 MB, a
    minute): the venv imports them from links to the copies installed for the tests, made only for the ones
    the wheel's metadata declares and theirs, so an import of anything undeclared still fails."""
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"  # the files git sees (not ignored ones): a stale build/ must not reach the wheel
    tracked = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             capture_output=True, check=True).stdout
    for name in filter(None, tracked.decode().split("\0")):
        if (REPO / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, source / name)
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", root / "dist", source], root)
    wheel = next((root / "dist").glob("starpnp-*.whl"))
    run([sys.executable, "-m", "venv", "--without-pip", root / "venv"], root)
    bin_dir = root / "venv" / "bin"
    run([sys.executable, "-m", "pip", "--python", bin_dir / "python", "install", "--quiet", "--no-deps",
         "--disable-pip-version-check", wheel], root)
    site = Path(run([bin_dir / "python", "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                    root).stdout.strip())
    links = only_declared(declared_dependencies(wheel), root / "dependencies")
    (site / "dependencies.pth").write_text(f"{links}\n")
    elsewhere = root / "elsewhere"
    elsewhere.mkdir()
    return bin_dir, elsewhere


def test_the_wheel_holds_one_namespace_with_its_data(installed):
    bin_dir, elsewhere = installed
    found = run([bin_dir / "python", "-c", "import starpnp, starpnp.generator, starpnp.companion; "
                 "print(starpnp.__file__)"], elsewhere).stdout
    assert "site-packages" in found and str(REPO) not in found
    undeclared = subprocess.run([bin_dir / "python", "-c", "import pypdf"], cwd=elsewhere, capture_output=True)
    assert undeclared.returncode == 1  # the tests' own libraries are out of the wheel's reach


def test_list_and_builds_run_from_outside_the_repository(installed):
    bin_dir, elsewhere = installed
    listed = run([bin_dir / "starpnp", "list"], elsewhere).stdout
    assert all(game in listed for game in ("stratastar", "stars_inc", "starship_catan", "handful_of_stars"))
    run([bin_dir / "starpnp", "build", "stratastar"], elsewhere)
    manifest = json.loads((elsewhere / "output" / "stratastar" / "manifest.json").read_text())
    assert manifest["game"] == "stratastar"
    run([bin_dir / "starpnp", "build", "--all", "--format", "pdf"], elsewhere)
    pdfs = sorted(p.parent.name for p in (elsewhere / "output").glob("*/*.pdf"))
    assert pdfs == ["handful_of_stars", "stars_inc", "starship_catan", "stratastar"]


def test_serve_answers_home_a_table_and_print(installed, tmp_path):
    bin_dir, elsewhere = installed
    server = ServerProcess(tmp_path / "data", command=(str(bin_dir / "starpnp"),), cwd=elsewhere).start()
    try:
        assert request("GET", f"{server.base_url}/")[0] == 200
        table = create_table(server.base_url, "stratastar")
        status, page = request("GET", f"{server.base_url}/t/{table['code']}")
        assert status == 200 and "Stratastar" in page
        status, page = request("GET", f"{server.base_url}/print")
        assert status == 200 and "Stars, Inc." in page
        assert request("GET", f"{server.base_url}/static/vendor/htmx-2.0.3.min.js")[0] == 200
    finally:
        server.stop()


def test_a_new_game_starts_and_builds_from_any_folder(installed):
    """`starpnp new` from the installed wheel: the scaffold is package data, and it builds at once, to a
    Tabletop Simulator deck too."""
    bin_dir, elsewhere = installed
    run([bin_dir / "starpnp", "new", "Demo Game", "demo"], elsewhere)
    run([bin_dir / "starpnp", "check", "demo"], elsewhere)
    run([bin_dir / "starpnp", "build", "demo", "--format", "pdf,tts", "--dpi", "72"], elsewhere)
    assert (elsewhere / "output" / "demo_game" / "demo_game-a4.pdf").is_file()
    assert (elsewhere / "output" / "demo_game" / "tts" / "demo_game.json").is_file()


def test_the_studio_serves_its_page_script_fonts_and_faces(installed, tmp_path):
    """`starpnp studio` from the wheel: its page, script, styles and fonts are package data (no internet)."""
    import socket
    import time
    import urllib.request

    from companion_test_helpers import free_port

    bin_dir, elsewhere = installed
    run([bin_dir / "starpnp", "new", "Studio Game", "studio-game"], elsewhere)
    port = free_port()
    proc = subprocess.Popen([bin_dir / "starpnp", "studio", "studio-game", "--port", str(port)], cwd=elsewhere,
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline
                time.sleep(0.05)
        status, page = request("GET", f"{base}/")
        assert status == 200 and "Studio Game" in page
        for path in ("/studio-static/studio.js", "/studio-static/studio.css", "/companion.css", "/palette.css"):
            assert request("GET", base + path)[0] == 200, path
        with urllib.request.urlopen(f"{base}/fonts/Lato-Black.ttf") as font:
            assert font.status == 200 and len(font.read()) > 10_000
        status, body = request("GET", f"{base}/faces?ids=deck.front.1")
        assert status == 200 and body["faces"][0]["svg"].startswith("<svg")
    finally:
        proc.terminate()
        proc.wait(10)
