"""Following a game folder: a save of anything the game reads loads it again (the faces it changed are then
the only ones the page asks for)."""
from __future__ import annotations

import threading
from pathlib import Path

from ..data.overrides import source_folders
from ..look.loader import find_game
from ..watch import Snapshot, only_data_changed, snapshot
from .desk import Desk

INTERVAL = 0.1  # seconds between looks at the folder: a save shows within this, and it costs next to nothing


class Follower:
    """A daemon thread that looks at the game's folders every INTERVAL and loads them after a save."""

    def __init__(self, desk: Desk, ignored: list[Path]):
        self.desk = desk
        self.ignored = ignored  # the output folder, if it lies inside the game's: builds write there
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name="studio-follow", daemon=True)

    def start(self) -> "Follower":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopped.set()

    def _look(self) -> Snapshot:
        try:
            folders = source_folders(self.desk.folder, find_game)
        except Exception:  # an overrides.yaml saved half-way: the load that follows says what is wrong
            folders = [self.desk.folder]
        return {path: stamp for path, stamp in snapshot(folders).items()
                if not any(path.resolve().is_relative_to(out) for out in self.ignored)}

    def _run(self) -> None:
        seen = self._look()
        while not self.stopped.wait(INTERVAL):
            with self.desk.writing:  # a look and its load fall wholly before or after a write of the studio's
                try:
                    now = self._look()
                except OSError:  # a file gone between listing and stat: look again next time
                    continue
                if now == seen:
                    continue
                changed = {path for path in now.keys() | seen.keys() if now.get(path) != seen.get(path)}
                assets = not only_data_changed(seen, now)
                seen = now
                if all(self.desk.quiet.get(path.resolve(), False) == now.get(path) for path in changed):
                    continue  # the studio's own writes: it has shown them already
                try:
                    self.desk.load(assets_changed=assets)
                except Exception as exc:  # noqa: BLE001 - a fault of ours must not stop the page following saves
                    self.desk.fail(f"{self.desk.folder}: could not be read ({type(exc).__name__}: {exc})")
