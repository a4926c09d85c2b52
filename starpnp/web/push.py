"""Server push: every phone at a table hears of a change as it is stored, over server-sent events.

A stream says only "table changed, now at version N" (public: no seat's state); the page then fetches its
own fragment the way a poll does, so what each phone may read is decided in one place (the live views).
Why SSE and not WebSockets: the phone never sends on this channel (taps stay plain POSTs, which work
without JavaScript and are queued and retried), EventSource reconnects by itself, it is plain HTTP through
any proxy and needs no new server or dependency; htmx's SSE extension is not needed for a single event
that starts a fetch companion.js already makes.

Within one process, `Changes` wakes the streams of a table when the store commits. Several processes on
one PostgreSQL database hear of each other's writes through LISTEN/NOTIFY: the write sends NOTIFY in its
own transaction (delivered at commit, so never before the event is readable) and each process runs one
listening connection that wakes its own streams.
"""
from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from typing import Callable, Iterator

CHANNEL = "starpnp_changes"  # the PostgreSQL NOTIFY channel; payload "<table code> <version>"
HEARTBEAT_SECONDS = 15  # a comment line this often when idle: a proxy keeps the stream open
GONE_CHECK_SECONDS = 1.0  # how often an idle stream asks whether its phone has gone: its slot is freed by then
RETRY_MS = 1000  # EventSource's wait before it reconnects after a dropped stream
# For waitress (both servers): read ahead on a connection while its request runs, so a phone that closed its
# stream is seen at the stream's next check (GONE_CHECK_SECONDS). Without it the closed socket was found only
# when a write failed: the first write after the close still succeeds, so a slot stayed taken for two or three
# heartbeats.
WAITRESS_OPTIONS = {"channel_request_lookahead": 1}

log = logging.getLogger(__name__)


class _Table:
    __slots__ = ("changed", "count", "version", "watchers")

    def __init__(self):
        self.changed = threading.Condition()
        self.count = 0  # changes seen since the first watcher came
        self.version: int | None = None
        self.watchers = 0


class Changes:
    """Tables' change counters, one condition per watched table: a write wakes only that table's streams."""

    def __init__(self):
        self._lock = threading.Lock()
        self._tables: dict[str, _Table] = {}
        self.closed = False  # the server is stopping: every stream ends (a thread each, which it waits for)

    def publish(self, code: str, version: int | None = None) -> None:
        """Table `code` changed (to `version`, when known; None: its seats changed)."""
        table = self._tables.get(code)
        if table is None:  # nobody is watching it in this process
            return
        with table.changed:
            table.count += 1
            if version is not None and (table.version is None or version > table.version):
                table.version = version
            table.changed.notify_all()

    def close(self) -> None:
        self.closed = True
        self.publish_all()

    def publish_all(self) -> None:
        """Wake every watched table (after a lost NOTIFY connection: something may have been missed)."""
        for code in list(self._tables):
            self.publish(code)

    @contextmanager
    def watching(self, code: str) -> Iterator["Watch"]:
        with self._lock:
            table = self._tables.setdefault(code, _Table())
            table.watchers += 1
        try:
            yield Watch(table, self)
        finally:
            with self._lock:
                table.watchers -= 1
                if not table.watchers:
                    del self._tables[code]


class Watch:
    def __init__(self, table: _Table, changes: Changes):
        self._table = table
        self._changes = changes
        self.seen = table.count

    @property
    def closed(self) -> bool:
        return self._changes.closed

    def wait(self, timeout: float) -> tuple[bool, int | None]:
        """Block until the table changes after the last call (or `timeout`): (changed, newest version known)."""
        table = self._table
        with table.changed:
            table.changed.wait_for(lambda: table.count != self.seen, timeout)
            changed, self.seen = table.count != self.seen, table.count
            return changed, table.version


class Slots:
    """At most `size` streams open at once in this process; over that a phone polls instead (each stream
    holds one of the server's threads, and the rest must stay free for taps)."""

    def __init__(self, size: int):
        self._free = threading.BoundedSemaphore(size) if size > 0 else None

    def take(self) -> bool:
        return self._free is not None and self._free.acquire(blocking=False)

    def give_back(self) -> None:
        if self._free is not None:
            self._free.release()


def client_gone(environ: dict) -> Callable[[], bool]:
    """Whether the phone has closed its end of the stream (waitress tells, with WAITRESS_OPTIONS; other
    servers find out when a write fails)."""
    return environ.get("waitress.client_disconnected") or (lambda: False)


def stream(watch: Watch, version: int, heartbeat: float = HEARTBEAT_SECONDS,
           gone: Callable[[], bool] = lambda: False) -> Iterator[str]:
    """The event-stream text: the version at once, then one event per change, a comment line each `heartbeat`
    while idle. It ends when the server stops or the phone is `gone`, asked every GONE_CHECK_SECONDS, so a
    dropped stream frees its slot within about a second whatever the heartbeat."""
    yield f"retry: {RETRY_MS}\nevent: changed\ndata: {version}\n\n"
    step, idle = min(GONE_CHECK_SECONDS, heartbeat), 0.0
    while True:
        changed, known = watch.wait(step)
        if watch.closed or gone():
            return
        idle = 0.0 if changed else idle + step
        if not changed:
            if idle >= heartbeat:
                idle = 0.0
                yield ": idle\n\n"
        elif known is None or known <= version:  # the seats changed, or an older note arrived late
            yield f"event: seats\ndata: {version}\n\n"
        else:
            version = known
            yield f"event: changed\ndata: {version}\n\n"


def listen_postgres(conninfo: str, changes: Changes, stop: threading.Event) -> threading.Thread:
    """A daemon thread that LISTENs on `conninfo` and publishes every NOTIFY into `changes`; it reconnects
    after a lost connection (waking every watched table, since notes may have been missed meanwhile)."""

    def run() -> None:
        import psycopg

        wait = 0.5
        while not stop.is_set():
            try:
                with psycopg.connect(conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    changes.publish_all()
                    wait = 0.5
                    while not stop.is_set():
                        for note in conn.notifies(timeout=1.0):
                            code, _, version = note.payload.partition(" ")
                            changes.publish(code, int(version) if version.isdigit() else None)
            except Exception as error:  # the database restarted or went away: try again, quietly
                log.warning("push: PostgreSQL LISTEN connection lost (%s); retrying", str(error).splitlines()[0])
                stop.wait(wait)
                wait = min(wait * 2, 10.0)

    thread = threading.Thread(target=run, name="starpnp-listen", daemon=True)
    thread.start()
    return thread

