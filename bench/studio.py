"""The studio in a real browser (Chromium through Playwright): `.venv/bin/python bench/studio.py [latency|edit|boxes|cardlist|first]`.

latency: a 500-card CSV deck whose cards all differ; the page is open at the top; each round saves one cell
(the text of a card on screen) and measures from just before the write to the moment that face's new drawing
is in the page's DOM (a MutationObserver's clock, the same machine's). It also counts the faces the server drew
and the page repainted for each save: one is the target.
first: a deck of 8,500 cards that all differ; the seconds from asking for the page to every face on the first
screen drawn, then the page scrolled to the end a screen at a time (STUDIO_SCROLL_STEPS=N: in N steps), with
the browser's JS heap, its DOM node count and the server's resident memory along the way (flat is the target).
edit: the studio's own write-back (issue #40): the same 500-card deck; the page sends 20 edits of a card's text
(`POST /edit` with its token, as its editor does) and each is timed from the request leaving the page to that
face's new drawing in its DOM, the file written between; then 20 more while `starpnp build stratastar` runs
beside it, again and again, on the same two cores.
boxes: layout mode's box added (issue #48), on the same 500-card deck: 10 text boxes with a fixed value, then 10
reading a new field (the layout declares it and deck.csv's header gains its column), each timed from the request
leaving the page to the face's new drawing in its DOM (20 text edits first, as `edit` times them, to compare).
cardlist: the card list's changes (issue #48) on the same 500-card deck: a card added, copied, deleted, moved
and the counts of all 500 set at once, 20 times each (each undone by the next), timed from the request leaving
the page to the page showing that version with every face on screen drawn; then again while `starpnp build
stratastar` runs beside it.
covered: what check's covered-box test costs: every face of an 850-card distinct deck drawn with it and
without it, in turn, CPU seconds (best of 5 each).
"""
from __future__ import annotations

import csv
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from deck_game import distinct_cards  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ROUNDS = 25


def write_csv_game(folder: Path, count: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text("id: benchstudio\nname: Bench Studio\nplayers: {min: 2, max: 4}\n"
                                      "colors: [red]\n")
    (folder / "deck.yaml").write_text("components:\n  - id: deck\n    name: Deck\n    kind: card\n    size: poker\n"
                                      "    front: {layout: card}\n    items: deck.csv\n")
    with open(folder / "deck.csv", "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["count", "title", "color", "text"])
        for title, color, text in distinct_cards(count):
            writer.writerow([1, title, f"#{color}", text])
    return folder


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_studio(folder: Path, out: Path) -> tuple[subprocess.Popen, str, float]:
    port = free_port()
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "starpnp", "studio", str(folder), "--port", str(port), "--out",
                             str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
        except OSError:
            if proc.poll() is not None:
                raise SystemExit("the studio did not start")
            time.sleep(0.02)
    return proc, f"http://127.0.0.1:{port}/", time.perf_counter() - started


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def drawn_so_far(url: str) -> int:
    with urllib.request.urlopen(url + "news?since=0") as answer:
        return json.load(answer)["drawn"]


# Wrapped in an object: Playwright would otherwise wait for the promise before the file is even written.
WATCH = """(id) => ({shown: new Promise((resolve) => {
  const tile = document.querySelector(`[data-id="${id}"]`);
  const before = Number(tile.dataset.paints);
  new MutationObserver((_, observer) => {
    if (Number(tile.dataset.paints) > before) { observer.disconnect(); resolve(Date.now()); }
  }).observe(tile, {attributes: true, attributeFilter: ["data-paints"]});
})})"""
PAINTS = "() => [...document.querySelectorAll('.tile')].reduce((n, t) => n + Number(t.dataset.paints), 0)"
ALL_DRAWN = """() => { const tiles = [...document.querySelectorAll('.tile')];
  const shown = tiles.filter((t) => { const r = t.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; });
  return shown.length > 0 && shown.every((t) => t.querySelector('.face svg')); }"""


@contextmanager
def open_deck500(browser, work: Path):
    """The studio on the 500-card CSV deck, its page open at the top with every face on screen drawn:
    (the folder, the studio's address, the page)."""
    folder = write_csv_game(work / "deck500", 500)
    proc, url, _ = start_studio(folder, work / "out")
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url)
        page.wait_for_function(ALL_DRAWN, timeout=30000)
        yield folder, url, page
    finally:
        proc.terminate()
        proc.wait(10)


def latency(browser, work: Path) -> None:
    with open_deck500(browser, work) as (folder, url, page):
        rows = (folder / "deck.csv").read_text(encoding="utf-8").splitlines(keepends=True)
        seconds, server_draws, repaints = [], [], []
        for round_ in range(ROUNDS):
            card = round_ % 5  # the first screen's cards
            face = f"deck.front.{card + 1}"
            waiting = page.evaluate_handle(WATCH, face)
            drawn, painted = drawn_so_far(url), page.evaluate(PAINTS)
            rows[card + 1] = rows[card + 1].replace("in its phase", f"in phase {round_}", 1) if round_ < 5 else \
                rows[card + 1].replace(f"in phase {round_ - 5}", f"in phase {round_}", 1)
            start = time.time()
            (folder / "deck.csv").write_text("".join(rows), encoding="utf-8")
            shown = page.evaluate("(w) => w.shown", waiting)
            seconds.append(shown / 1000 - start)
            page.wait_for_timeout(300)  # let any other (wrong) redraw land before counting
            server_draws.append(drawn_so_far(url) - drawn)
            repaints.append(page.evaluate(PAINTS) - painted)
        seconds.sort()
        print(f"latency, 500-card CSV deck, {ROUNDS} saves of one cell: median {statistics.median(seconds):.3f} s, "
              f"worst {seconds[-1]:.3f} s, best {seconds[0]:.3f} s")
        print(f"faces drawn by the server per save: {sorted(set(server_draws))}; faces repainted in the page per "
              f"save: {sorted(set(repaints))}")


# The page's own edit request: with its token, on the version it last heard of; the clock starts as it leaves.
EDIT = """async ([id, text, version]) => {
  const token = document.querySelector('meta[name="studio-token"]').content;
  const started = Date.now();
  const answer = await fetch('edit', {method: 'POST', body: JSON.stringify({id, set: {text}, version}),
    headers: {'Content-Type': 'application/json', 'X-Studio-Token': token}});
  return {started, status: answer.status, body: await answer.json()};
}"""
EDITS = 20


def version_now(url: str) -> int:
    with urllib.request.urlopen(url + "news?since=0") as answer:
        return json.load(answer)["version"]


def edit_rounds(page, url: str, folder: Path, label: str, offset: int) -> None:
    seconds = []
    for round_ in range(EDITS):
        face = f"deck.front.{round_ % 5 + 1}"
        waiting = page.evaluate_handle(WATCH, face)
        text = f"Edited in the studio, round {offset + round_}."
        sent = page.evaluate(EDIT, [face, text, version_now(url)])
        if sent["status"] != 200:
            raise SystemExit(f"edit refused: {sent}")
        shown = page.evaluate("(w) => w.shown", waiting)
        if text not in (folder / "deck.csv").read_text(encoding="utf-8"):
            raise SystemExit("the edit is not in the file")
        seconds.append((shown - sent["started"]) / 1000)
    seconds.sort()
    print(f"edit → file → face in the DOM, {label}, {EDITS} edits: median {statistics.median(seconds):.3f} s, "
          f"worst {seconds[-1]:.3f} s, best {seconds[0]:.3f} s")


ADD_BOX = """async ([id, box, version]) => {
  const token = document.querySelector('meta[name="studio-token"]').content;
  const started = Date.now();
  const answer = await fetch('boxes/add', {method: 'POST', body: JSON.stringify({id, ...box, version}),
    headers: {'Content-Type': 'application/json', 'X-Studio-Token': token}});
  return {started, status: answer.status, body: await answer.json()};
}"""


def settled(page, url: str) -> None:
    """The page caught up with the folder and painting nothing more: a round's clock starts on a quiet page,
    not while the last round's other faces still arrive."""
    page.wait_for_function("(v) => Number(document.body.dataset.version) >= v", arg=version_now(url))
    paints = page.evaluate(PAINTS)
    while True:
        time.sleep(1.0)  # longer than a batch of faces takes to arrive, even on a busy machine
        now = page.evaluate(PAINTS)
        if now == paints:
            return
        paints = now


def box_latency(browser, work: Path) -> None:
    with open_deck500(browser, work) as (folder, url, page):
        edit_rounds(page, url, folder, "a text edit beside them, on the same machine as it is now", 0)
        for label, reads in (("a fixed value", "value"), ("a new field (a CSV column)", "field")):
            seconds = []
            for round_ in range(10):
                face = f"deck.front.{round_ % 5 + 1}"
                name = f"{reads}_{round_}"
                box = {"kind": "text", "name": name, "x": 8, "y": 10 + round_ * 6, "w": 40, "h": 5,
                       reads: name if reads == "field" else f"Fixed words {round_}"}
                settled(page, url)
                waiting = page.evaluate_handle(WATCH, face)
                sent = page.evaluate(ADD_BOX, [face, box, version_now(url)])
                if sent["status"] != 200:
                    raise SystemExit(f"box refused: {sent}")
                shown = page.evaluate("(w) => w.shown", waiting)
                seconds.append((shown - sent["started"]) / 1000)
            seconds.sort()
            print(f"box added → file → face in the DOM, {label}, 10 boxes: median {statistics.median(seconds):.3f} s, "
                  f"worst {seconds[-1]:.3f} s, best {seconds[0]:.3f} s")


def edit_latency(browser, work: Path) -> None:
    with open_deck500(browser, work) as (folder, url, page):
        edit_rounds(page, url, folder, "machine otherwise idle", 0)
        with build_beside(work):
            edit_rounds(page, url, folder, "while stratastar builds beside it", EDITS)


# The card list's own request (cardlist.py), as its buttons send it; the clock runs from the request leaving the
# page until the page has heard of the version it wrote and every face on screen shows its new drawing.
LIST_CHANGE = """async ([action, fields]) => {
  const token = document.querySelector('meta[name="studio-token"]').content;
  const news = await (await fetch('news?since=0')).json();
  const started = performance.now();
  const answer = await fetch('cards/' + action, {method: 'POST', headers: {'Content-Type': 'application/json',
    'X-Studio-Token': token}, body: JSON.stringify({component: 'deck', version: news.version, ...fields})});
  const body = await answer.json();
  if (!answer.ok) return {status: answer.status, body};
  catchUp();
  for (;;) {
    const shown = [...tiles.values()].filter((tile) => tile.near);
    if (version >= body.version && !asking && shown.length && shown.every((tile) => tile.drawn === tile.summary.version)) break;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return {status: answer.status, body, seconds: (performance.now() - started) / 1000};
}"""
LIST_ROUNDS = 20


def list_rounds(page, folder: Path, label: str) -> None:
    """Each list operation LIST_ROUNDS times on the 500-card deck, each followed by the one that puts the deck
    back (an added card deleted, a moved one moved back, all counts set back to 1), every one timed."""
    times: dict[str, list[float]] = {name: [] for name in ("add", "copy", "delete", "move", "bulk 500 counts")}

    def timed(name: str, action: str, fields: dict) -> None:
        done = page.evaluate(LIST_CHANGE, [action, fields])
        if done["status"] != 200:
            raise SystemExit(f"{action} refused: {done}")
        times[name].append(done["seconds"])

    before = (folder / "deck.csv").read_bytes()
    for round_ in range(LIST_ROUNDS):
        timed("add", "add", {"at": 0})
        timed("delete", "delete", {"rows": [0]})
        timed("copy", "copy", {"rows": [round_ % 5]})
        timed("delete", "delete", {"rows": [round_ % 5 + 1]})
        timed("move", "move", {"row": 0, "to": 3})
        timed("move", "move", {"row": 3, "to": 0})
        timed("bulk 500 counts", "set", {"rows": list(range(500)), "column": "count", "value": "2"})
        timed("bulk 500 counts", "set", {"rows": list(range(500)), "column": "count", "value": "1"})
    if (folder / "deck.csv").read_bytes() != before:
        raise SystemExit("the deck is not back as it was")
    for name, seconds in times.items():
        seconds.sort()
        print(f"card list {name}, {label}, {len(seconds)} changes: median {statistics.median(seconds):.3f} s, "
              f"worst {seconds[-1]:.3f} s, best {seconds[0]:.3f} s")


def list_latency(browser, work: Path) -> None:
    """The list's changes, beside a face edit's in the same session (the same machine, as busy): on a shared
    machine the edit's figure says how busy it was."""
    with open_deck500(browser, work) as (folder, url, page):
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        edit_rounds(page, url, folder, "for comparison", 0)
        list_rounds(page, folder, "no build beside it")
        with build_beside(work):
            list_rounds(page, folder, "while stratastar builds beside it")
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


@contextmanager
def build_beside(work: Path):
    """`starpnp build stratastar` again and again beside the block, on the same two cores."""
    import threading

    stop, builds = threading.Event(), []

    def run() -> None:
        while not stop.is_set():
            builds.append(subprocess.run([sys.executable, "-m", "starpnp", "build", "stratastar", "-q", "--out",
                                          str(work / "other")], capture_output=True).returncode)

    beside = threading.Thread(target=run)
    beside.start()
    time.sleep(1.0)  # the build under way: loading, drawing and writing pages
    try:
        yield
    finally:
        stop.set()
        beside.join()
        print(f"builds of stratastar run beside it: {len(builds)} (exit codes {sorted(set(builds))})")


def first_screen(browser, work: Path, steps: int | None) -> None:
    folder = write_csv_game(work / "deck8500", 8500)
    proc, url, started = start_studio(folder, work / "out")
    try:
        print(f"8,500 distinct cards: studio listening after {started:.2f} s (loads the folder first)")
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        client = page.context.new_cdp_session(page)
        start = time.perf_counter()
        page.goto(url)
        page.wait_for_function(ALL_DRAWN, timeout=60000, polling=50)
        print(f"first screen drawn {time.perf_counter() - start:.2f} s after asking for the page")
        height = page.evaluate("document.documentElement.scrollHeight")
        steps = steps or round(height / page.evaluate("innerHeight"))  # a screen at a time: every face is drawn
        print(f"  scrolling {height} px in {steps} steps")
        for step in range(steps + 1):
            page.evaluate(f"window.scrollTo(0, {height * step / steps})")
            page.wait_for_function(ALL_DRAWN, timeout=60000, polling=50)
            if step % max(1, steps // 10) == 0 or step == steps:
                client.send("HeapProfiler.collectGarbage")
                heap = page.evaluate("performance.memory.usedJSHeapSize") / 2 ** 20
                nodes = page.evaluate("document.getElementsByTagName('*').length")
                print(f"  scrolled {100 * step / steps:5.1f} %: JS heap {heap:6.1f} MiB, DOM {nodes} elements, "
                      f"server RSS {rss_mib(proc.pid):6.1f} MiB, faces drawn {drawn_so_far(url)}")
    finally:
        proc.terminate()
        proc.wait(10)


def covered(work: Path) -> None:
    from deck_game import deck, write_deck_game

    import starpnp.generator.look.layouts.layoutfile as layoutfile
    from starpnp.generator.look.loader import load_game
    from starpnp.generator.look.render import SceneCache, faces

    folder = write_deck_game(work / "distinct850", deck("distinct850"))
    game = load_game(folder)
    check = layoutfile.warn_hidden_text
    best = {"with": [], "without": []}
    for _ in range(5):
        for label, test in (("with", check), ("without", lambda ctx, drawn: None)):
            layoutfile.warn_hidden_text = test
            start = time.process_time()
            faces(game, SceneCache(3.0, folder))
            best[label].append(time.process_time() - start)
    layoutfile.warn_hidden_text = check
    print(f"850 distinct faces drawn: {min(best['without']):.3f} s without the covered-box test, "
          f"{min(best['with']):.3f} s with it")


def main() -> None:
    which = sys.argv[1:] or ["latency", "first"]
    if "covered" in which:
        with tempfile.TemporaryDirectory() as tmp:
            covered(Path(tmp))
        which = [w for w in which if w != "covered"]
        if not which:
            return
    from playwright.sync_api import sync_playwright

    steps = int(os.environ.get("STUDIO_SCROLL_STEPS", "0")) or None
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--enable-precise-memory-info"])
        if "latency" in which:
            latency(browser, Path(tmp))
        if "edit" in which:
            edit_latency(browser, Path(tmp))
        if "boxes" in which:
            box_latency(browser, Path(tmp))
        if "cardlist" in which:
            list_latency(browser, Path(tmp))
        if "first" in which:
            first_screen(browser, Path(tmp), steps)
        browser.close()


if __name__ == "__main__":
    main()
