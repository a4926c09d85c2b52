"""The print page: choose paper and options, download a PDF built on demand and cached by its inputs."""
from __future__ import annotations

import html
import re
import io
import shutil
import urllib.request
from pathlib import Path

import pytest
from pypdf import PdfReader

from starpnp.companion import create_app

MINI = Path(__file__).resolve().parent.parent / "fixtures" / "mini"


@pytest.fixture
def client(tmp_path):
    return create_app({"DATA_DIR": str(tmp_path), "PRINT_FOLDERS": [str(MINI)]}).test_client()


def test_the_print_page_lists_the_games_it_was_given(client):
    page = client.get("/print").get_data(as_text=True)
    assert "Mini Test Game" in page and "/print/mini" in page


def test_the_game_page_offers_paper_duplex_and_the_game_options(client):
    page = client.get("/print/mini?paper=letter").get_data(as_text=True)
    assert '<option value="letter" selected>' in page
    assert 'name="option" value="power"' in page
    assert "/print/mini/download?paper=letter" in page


def test_download_gives_the_pdf_for_the_chosen_settings(client, tmp_path):
    response = client.get("/print/mini/download?paper=Letter&bleed=0&duplex=off&option=power")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    # the name says what it holds
    assert "mini-letter-duplex-off-power-bleed-0mm.pdf" in response.headers["Content-Disposition"]
    reader = PdfReader(io.BytesIO(response.data))
    assert float(reader.pages[0].mediabox.width) == pytest.approx(215.9 * 72 / 25.4, abs=0.1)
    # duplex off: no back sheets, so fewer pages than the default build
    default = PdfReader(io.BytesIO(client.get("/print/mini/download").data))
    assert len(reader.pages) < len(default.pages)


def test_low_ink_is_offered_and_gives_its_own_lighter_pdf(client):
    assert 'name="ink"' in client.get("/print/mini").get_data(as_text=True)
    response = client.get("/print/mini/download?ink=low")
    assert response.status_code == 200 and "mini-a4-ink-low.pdf" in response.headers["Content-Disposition"]
    light, rich = (PdfReader(io.BytesIO(data)) for data in (response.data, client.get("/print/mini/download").data))
    assert len(light.pages) == len(rich.pages)
    assert drawn(light) != drawn(rich)


def drawn(reader: PdfReader) -> list[bytes]:
    """What every page draws: its own content and that of each form it places."""
    out = []
    for page in reader.pages:
        out.append(page.get_contents().get_data())
        out += [ref.get_object().get_data() for ref in page["/Resources"].get("/XObject", {}).values()]
    return out


def test_the_same_inputs_are_built_once(client, tmp_path):
    first = client.get("/print/mini/download?paper=a4").data
    cache = tmp_path / "print-cache"
    builds = sorted(p.name for p in cache.iterdir())
    stamp = next(cache.iterdir()).stat().st_mtime_ns
    second = client.get("/print/mini/download?paper=a4").data
    assert first == second
    assert sorted(p.name for p in cache.iterdir()) == builds and len(builds) == 1
    assert next(cache.iterdir()).stat().st_mtime_ns == stamp
    client.get("/print/mini/download?paper=letter")
    assert len(list(cache.iterdir())) == 2


def test_the_preview_is_a_png_of_the_first_sheets(client):
    response = client.get("/print/mini/preview.png?paper=a4")
    assert response.status_code == 200 and response.data[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("query, message", [
    ("paper=a5", "paper: expected one of a4, letter, a3, tabloid, got 'a5'"),
    ("bleed=lots", "bleed: expected one of 0, 3 (mm), got 'lots'"),
    ("bleed=-1", "bleed: expected one of 0, 3 (mm), got '-1'"),
    ("bleed=2.999", "bleed: expected one of 0, 3 (mm), got '2.999'"),
    ("duplex=sideways", "duplex: expected one of long, short, off, got 'sideways'"),
    ("ink=none", "ink: expected one of full, low, got 'none'"),
    ("option=turbo", "option: Mini Test Game has no option 'turbo'"),
])
def test_bad_parameters_get_a_400_naming_them(client, query, message):
    for path in ("/print/mini", "/print/mini/download", "/print/mini/preview.png"):
        response = client.get(f"{path}?{query}")
        assert response.status_code == 400, path
        assert message in html.unescape(response.get_data(as_text=True))


def test_an_unknown_game_is_a_404(client):
    response = client.get("/print/nope/download")
    assert response.status_code == 404
    assert "game: no printable game 'nope'" in html.unescape(response.get_data(as_text=True))


@pytest.mark.browser
def test_a_phone_downloads_the_pdf_from_the_print_page(browser, tmp_path, monkeypatch):
    from companion_test_helpers import ServerProcess

    monkeypatch.setenv("STARPNP_PRINT_FOLDERS", str(MINI))
    server = ServerProcess(tmp_path / "data").start()
    try:
        context = browser.new_context(viewport={"width": 360, "height": 740}, accept_downloads=True)
        page = context.new_page()
        page.goto(f"{server.base_url}/print")
        page.get_by_role("link", name="Print Mini Test Game").click()
        page.wait_for_url("**/print/mini**")
        page.wait_for_selector("html[data-live=ready]", state="attached")  # htmx is listening
        page.select_option("select[name=paper]", "letter")
        page.wait_for_url("**paper=letter**")  # htmx swapped the form and pushed the new address
        with page.expect_download() as info:
            page.locator("#download").click()
        path = info.value.path()
        reader = PdfReader(path)
        expected = PdfReader(io.BytesIO(create_app({"DATA_DIR": str(tmp_path / "check"),
                                                    "PRINT_FOLDERS": [str(MINI)]}).test_client()
                                        .get("/print/mini/download?paper=letter").data))
        assert info.value.suggested_filename == "mini-letter.pdf"
        assert len(reader.pages) == len(expected.pages) == 14  # blank backs keep it duplex-safe
        assert float(reader.pages[1].mediabox.height) == pytest.approx(279.4 * 72 / 25.4, abs=0.1)
        context.close()
    finally:
        server.stop()


@pytest.mark.server
def test_concurrent_first_time_previews_never_bring_the_server_down(tmp_path):
    """Four phones ask for four previews nobody has built yet, six times over: every one is answered and
    the server stays up (PDFium used from two threads at once used to crash it)."""
    from concurrent.futures import ThreadPoolExecutor
    from itertools import product

    from companion_test_helpers import ServerProcess

    def status(url: str) -> int:
        with urllib.request.urlopen(url, timeout=120) as response:
            return response.status if response.read(8) == b"\x89PNG\r\n\x1a\n" else -1

    shutil.copytree(MINI, tmp_path / "mini")
    server = ServerProcess(tmp_path / "data", extra_args=("--print-folder", str(tmp_path / "mini"))).start()
    combos = [f"paper={paper}&bleed={bleed}&duplex={duplex}" + ("&option=power" if power else "")
              for paper, bleed, duplex, power in product(("a4", "letter", "a3", "tabloid"), ("0", "3"),
                                                          ("long", "short", "off"), (False, True))]
    try:
        with ThreadPoolExecutor(4) as pool:
            for round_ in range(6):
                urls = [f"{server.base_url}/print/mini/preview.png?{q}" for q in combos[4 * round_:4 * round_ + 4]]
                statuses = list(pool.map(status, urls))
                assert statuses == [200] * 4, (round_, statuses, server.log())
                assert server.proc.poll() is None
    finally:
        server.stop()


@pytest.mark.server
def test_every_download_works_with_a_relative_data_folder_from_another_directory(tmp_path, monkeypatch):
    """`make serve` passes `--data data`, relative to where it runs: the /print cache lives there too, and a
    game's download link on /print answers with a PDF (it was a 500: the path was read against the package)."""
    from companion_test_helpers import ServerProcess, request

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the relative folder means the same to this test and to the server
    server = ServerProcess(Path("data"), cwd=elsewhere).start()
    try:
        _, index = request("GET", f"{server.base_url}/print")
        games = sorted(set(re.findall(r'href="/print/([a-z_]+)"', index)))
        assert len(games) >= 4, games
        links = {}
        for game in games:
            _, page = request("GET", f"{server.base_url}/print/{game}")
            links[game] = html.unescape(re.search(r'id="download" href="([^"]+)"', page).group(1))
        # Every link is the game's own; one game built through it shows the cache's path is read against the
        # relative folder (the same path for every game: building all four would only repeat it).
        assert all(link.startswith(f"/print/{game}/") for game, link in links.items()), links
        with urllib.request.urlopen(server.base_url + links["starship_catan"], timeout=300) as answer:
            assert answer.headers["Content-Type"] == "application/pdf"
            assert answer.read(5) == b"%PDF-"
        assert len(list((elsewhere / "data" / "print-cache").iterdir())) == 1
    finally:
        server.stop()


def test_a_fixed_player_count_reads_as_one_number(client):
    page = client.get("/print").get_data(as_text=True)
    counts = dict(re.findall(r'<h2><a href="/print/([a-z_]+)">.*?data-players>([^·]+) ·', page, re.S))
    assert counts["starship_catan"] == "2 players" and "–" not in counts["starship_catan"]
    assert all(re.fullmatch(r"\d(–\d)? players", text) for text in counts.values()), counts
