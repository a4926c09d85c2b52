"""`starpnp build DIR --watch`: rebuild whenever a data or art file in the folder changes."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from .data.overrides import OVERRIDES_FILE

Snapshot = dict[Path, tuple[int, int]]


def snapshot(folders: list[Path]) -> Snapshot:
    """Modification time and size of every visible file under the folders."""
    files: Snapshot = {}
    for folder in folders:
        for path in folder.rglob("*"):
            if path.is_file() and not any(part.startswith(".") for part in path.relative_to(folder).parts):
                stat = path.stat()
                files[path] = (stat.st_mtime_ns, stat.st_size)
    return files


def only_data_changed(before: Snapshot, after: Snapshot) -> bool:
    """True when every changed file is data (YAML, or a spreadsheet of items): drawn faces whose data did
    not change can be reused."""
    changed = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
    data = (".yaml", ".yml", ".csv", ".tsv", ".xlsx", ".ods")
    return all(p.suffix.lower() in data or p.name == OVERRIDES_FILE for p in changed)


def watch(folders: list[Path], rebuild: Callable[[dict], list[str]], echo: Callable[[str], None],
          interval: float = 0.2) -> None:
    """Build now, then again after each change, until interrupted; faces are redrawn only when needed.
    `rebuild` returns its error lines (already shown): a build that failed is not said to be rebuilt."""
    memo: dict = {}
    seen = snapshot(folders)
    rebuild(memo)
    echo(f"watching {', '.join(map(str, folders))} (Ctrl-C to stop)")
    try:
        while True:
            time.sleep(interval)
            now = snapshot(folders)
            if now == seen:
                continue
            if not only_data_changed(seen, now):
                memo.clear()  # an image changed: faces that show it must be drawn again
            seen = now
            start = time.perf_counter()
            errors = rebuild(memo)
            if errors:
                problems = "1 problem" if len(errors) == 1 else f"{len(errors)} problems"
                echo(f"not rebuilt: {problems} (above); fix and save again")
            else:
                echo(f"rebuilt in {time.perf_counter() - start:.2f} s")
    except KeyboardInterrupt:
        echo("stopped watching")
