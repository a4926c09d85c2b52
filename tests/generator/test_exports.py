"""Print-shop exports (one PNG or PDF page per face), presets, and watch mode."""
from __future__ import annotations

import csv
import signal
import subprocess
import time

import pytest
from PIL import Image
from pypdf import PdfReader

from starpnp_test_support import MINI
from pdf_probe import MM
from cli_runner import STARPNP, replace, run


@pytest.mark.parametrize("dpi, bleed", [(300, 3.0), (150, 0.0), (600, 3.175)])
def test_png_faces_have_the_exact_pixel_size_for_trim_plus_bleed(tmp_path, dpi, bleed):
    result = run("build", MINI, "--out", tmp_path, "--format", "png", "--dpi", dpi, "--bleed", bleed)
    assert result.returncode == 0, result.stderr
    png = tmp_path / "mini" / ("png" if bleed == 3 else f"png-bleed-{bleed:g}mm")  # the folder names its bleed
    for name, (w, h) in {"deck/attack-front.png": (63, 88), "deck/attack-back.png": (63, 88),
                         "fleets/fleet-blue-back.png": (20, 20)}.items():
        with Image.open(png / name) as image:
            assert image.size == (round((w + 2 * bleed) / 25.4 * dpi), round((h + 2 * bleed) / 25.4 * dpi)), name
            assert image.info["dpi"] == pytest.approx((dpi, dpi), abs=0.1)


def test_png_list_pairs_fronts_with_backs_and_counts(tmp_path):
    assert run("build", MINI, "--out", tmp_path, "--format", "png", "--dpi", 72).returncode == 0
    png = tmp_path / "mini" / "png"
    rows = list(csv.DictReader((png / "faces.csv").open()))
    by_front = {row["front"]: row for row in rows}
    assert by_front["deck/attack-front.png"] == {"component": "deck", "count": "3", "front": "deck/attack-front.png",
                                                 "back": "deck/attack-back.png"}
    assert by_front["mat/player-mat-red-front.png"]["back"] == ""  # one-sided pieces have no back
    assert sum(int(row["count"]) for row in rows) == 15
    for row in rows:
        for side in ("front", "back"):
            assert not row[side] or (png / row[side]).is_file()


def test_single_face_pdf_has_one_page_per_face_with_trim_and_bleed_boxes(tmp_path):
    assert run("build", MINI, "--out", tmp_path, "--format", "pdf-single").returncode == 0
    reader = PdfReader(tmp_path / "mini" / "mini-faces.pdf")
    rows = list(csv.DictReader((tmp_path / "mini" / "mini-faces.csv").open()))
    assert len(reader.pages) == sum(1 + bool(row["back"]) for row in rows)
    first = reader.pages[0]  # the Attack card front
    trim = [float(v) / MM for v in first["/TrimBox"]]
    bleed = [float(v) / MM for v in first["/BleedBox"]]
    assert (trim[2] - trim[0], trim[3] - trim[1]) == pytest.approx((63, 88), abs=0.05)
    assert (bleed[2] - bleed[0], bleed[3] - bleed[1]) == pytest.approx((69, 94), abs=0.05)
    assert float(first.mediabox.width) / MM == pytest.approx(69, abs=0.05)


def test_a_preset_sets_bleed_and_formats_and_flags_other_card_sizes(tmp_path):
    result = run("build", MINI, "--out", tmp_path, "--preset", "pod-poker")
    assert result.returncode == 0
    assert "deck: cards are 63 × 88 mm; the pod-poker preset prints 63.5 × 88.9 mm" in result.stdout
    with Image.open(tmp_path / "mini" / "png-pod-poker" / "deck" / "attack-front.png") as image:
        assert image.size == (round((63 + 6.35) / 25.4 * 300), round((88 + 6.35) / 25.4 * 300))
    assert (tmp_path / "mini" / "mini-pod-poker-faces.pdf").is_file() and not (tmp_path / "mini" / "mini-a4.pdf").exists()


def test_the_drivethrucards_preset_gives_each_card_its_back_page_then_its_front(tmp_path):
    """DriveThruCards takes one PDF with each card as back then front, 1/8 in (3.175 mm) bleed; a one-sided
    piece gets a blank back page, so pages keep pairing up."""
    result = run("build", MINI, "--out", tmp_path, "--preset", "drivethrucards", "--format", "pdf-single")
    assert result.returncode == 0, result.stderr
    reader = PdfReader(tmp_path / "mini" / "mini-drivethrucards-faces.pdf")
    rows = list(csv.DictReader((tmp_path / "mini" / "mini-drivethrucards-faces.csv").open()))
    assert len(reader.pages) == 2 * len(rows)
    words = [page.extract_text() for page in reader.pages]
    assert words[0] == "Mini" and words[1].startswith("Attack")  # the deck's common back, then the Attack card
    assert rows[0] == {"component": "deck", "count": "3", "front": "page 2", "back": "page 1"}
    for row in rows:
        front = int(row["front"].removeprefix("page "))
        assert front % 2 == 0 and row["back"] in (f"page {front - 1}", "")
        assert row["back"] or words[front - 2] == ""  # one-sided: a blank page before it
    first = reader.pages[1]
    trim = [float(v) / MM for v in first["/TrimBox"]]
    bleed = [float(v) / MM for v in first["/BleedBox"]]
    assert trim[0] - bleed[0] == pytest.approx(3.175, abs=0.01)
    assert (bleed[2] - bleed[0], bleed[3] - bleed[1]) == pytest.approx((63 + 6.35, 88 + 6.35), abs=0.05)


def wait_for(proc: subprocess.Popen, text: str, timeout: float = 60) -> str:
    """Read the watcher's output until `text` appears (a generous limit: this is not a speed test)."""
    deadline = time.monotonic() + timeout
    seen = ""
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen += line
        if text in line:
            return seen
    raise AssertionError(f"{text!r} never appeared; output so far:\n{seen}")


# The deck as YAML, or as the spreadsheet `export-csv` writes (`items: deck.csv`): either file's change rebuilds.
BAD_COUNT = {"cards.yaml": ("{count: 3,", "{count: -3,", "{count: 4,"), "deck.csv": ("3,Attack", "-3,Attack", "4,Attack")}


@pytest.mark.parametrize("data", sorted(BAD_COUNT))
def test_watch_rebuilds_after_a_change_and_stops_cleanly_on_ctrl_c(game, tmp_path, data):  # noqa: F811
    if data == "deck.csv":
        assert run("export-csv", game, "deck", "--out", game / data).returncode == 0
        cards = (game / "cards.yaml").read_text()  # one component: its items are the end of the file
        (game / "cards.yaml").write_text(cards[:cards.index("    items:\n")] + "    items: deck.csv\n")
    good, bad, fixed = BAD_COUNT[data]
    proc = subprocess.Popen([*STARPNP, "build", str(game), "--out", str(tmp_path / "out"), "--format", "svg",
                             "--watch"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for(proc, "watching")
        svg = tmp_path / "out" / "mini" / "svg" / "deck" / "attack-front.svg"
        assert "Fight a neighbour." in svg.read_text()
        replace(game / data, "Fight a neighbour.", "Strike at dawn.")
        wait_for(proc, "rebuilt in")
        assert "Strike at dawn." in svg.read_text()
        replace(game / data, good, bad)  # bad data: reported, watching goes on, and nothing said rebuilt
        failed = wait_for(proc, "not rebuilt: 1 problem (above); fix and save again")
        assert "count: must be ≥ 0, got -3" in failed and "rebuilt in" not in failed
        replace(game / data, bad, fixed)
        wait_for(proc, "rebuilt in")
    finally:
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "Traceback" not in rest


def test_a_png_build_shows_a_progress_bar_in_a_terminal_and_nothing_otherwise(tmp_path):
    """In a terminal (a pseudo-terminal here) the PNG export fills a bar face by face; piped, it is silent."""
    import os
    import pty

    piped = run("build", MINI, "--out", tmp_path / "piped", "--format", "png", "--dpi", 72)
    assert piped.returncode == 0 and piped.stderr == "" and "━" not in piped.stdout
    leader, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": "100", "TERM": "xterm"}
    proc = subprocess.Popen([*STARPNP, "build", str(MINI), "--out", str(tmp_path / "tty"), "--format", "png",
                             "--dpi", "72"], stdin=follower, stdout=follower, stderr=follower, env=env)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed: the build is over
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert proc.wait(timeout=120) == 0
    text = seen.decode("utf-8", "replace")
    assert "writing PNG" in text and "━" in text  # rich's bar
    faces = len(list(csv.DictReader((tmp_path / "tty" / "mini" / "png" / "faces.csv").open())))
    assert f"{faces}/{faces}" in text  # rich draws the last state before it clears the bar
