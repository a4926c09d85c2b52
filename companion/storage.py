"""The event store: tables and their append-only logs, through SQLAlchemy Core.

SQLite (WAL) by default, PostgreSQL when given a postgresql URL — same code. Appends are atomic per
table: SQLite takes the write lock up front (BEGIN IMMEDIATE), PostgreSQL locks the table's row, so
concurrent taps get consecutive seq numbers and none is lost. State is replayed from the log and cached
per table and version.

Several server processes may share one PostgreSQL database, which is then their only shared state: a
cached state is used only for the version just read from the database, and table rows are kept in memory
only by a sole SQLite writer, under its exclusive lock on the file.
"""
from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from collections import OrderedDict, namedtuple
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from sqlalchemy import (Integer, String, bindparam, create_engine, delete, event as sa_event, func, insert,
                        literal_column, select, update)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from . import codes, schema
from ..web.push import CHANNEL, Changes
from .replay import UNDO, LoggedEvent, apply_strict, replay, state_without, undo_target
from .rules import GameRules, RuleError
from .sealed import Reader, stands
from .stats import Play, Tallies, group_key, legacy_group_key, margin, play_record

EVENT_COLUMNS = (schema.events.c.seq, schema.events.c.type, schema.events.c.player,
                 schema.events.c.payload, schema.events.c.undoes, schema.events.c.created_at, schema.events.c.actor)


class StoreError(Exception):
    """A request the store refuses; `status` is the HTTP status the views answer with."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotFound(StoreError):
    status = 404


class WrongCode(NotFound):
    """No table (or group) has the code asked for: a guess, which throttle.py counts (no other 404 is)."""


class Conflict(StoreError):
    status = 409


class ServerFull(StoreError):
    status = 503


class SeatHeld(Conflict):
    """Another phone holds the seat: the new one must confirm it asks for it."""


class TooManyRequests(StoreError):
    status = 429


class NotHost(StoreError):
    """A request only the table's host (the phone that created it) may make."""

    status = 403


TAKEN, RELEASED = "taken", "released"  # how a seat token ended (seats.ended)
WAITING, REFUSED = "waiting", "refused"  # a token asking for a held seat: not yet given it, or turned down
PASSED = "passed"  # a token that asked for a seat another asking phone was given
LAPSED = "lapsed"  # a request nobody answered within REQUEST_LAPSES_AFTER
HOST = "host"  # the host role, held and passed as a seat is (player ids are p1, p2...)


HOST_SILENT_AFTER = 120.0  # seconds unseen after which the host's phone is silent: the others may approve
REQUEST_LAPSES_AFTER = 600.0  # seconds an unanswered request waits
MOST_REQUESTS = 3  # requests waiting for one seat at once
SEEN_NOTED_EVERY = 15.0  # seconds between two writes of one phone's last request (far below HOST_SILENT_AFTER)

STATES_IN_MEMORY = 256  # tables whose derived state stays in memory
ROWS_IN_MEMORY = 4096  # tables whose row (code, version) a sole writer keeps in memory


@dataclass(frozen=True)
class TableInfo:
    id: int
    code: str
    watch_code: str
    game: str
    players: list[dict]
    options: dict
    version: int
    created_at: float
    updated_at: float
    group_key: str | None = None  # the keyed hash of the group code it was created with (stats.py)

    @property
    def display_code(self) -> str:
        return codes.display(self.code)

    def player(self, player_id: str) -> dict | None:
        return next((p for p in self.players if p["id"] == player_id), None)


@dataclass(frozen=True)
class Snapshot:
    table: TableInfo
    state: dict


def database_url(data_dir: Path, url: str | None) -> str:
    """The database: `url` when given (PostgreSQL, say), else a SQLite file in the data folder.

    A plain postgresql:// (or postgres://) URL means psycopg 3, the driver the `postgres` extra installs;
    SQLAlchemy would otherwise look for psycopg2."""
    if url:
        scheme, sep, rest = url.partition("://")
        return f"postgresql+psycopg://{rest}" if sep and scheme in ("postgresql", "postgres") else url
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{data_dir.resolve() / 'companion.sqlite3'}"


def make_engine(url: str, pool_size: int = 8, sqlite_synchronous: str = "NORMAL") -> Engine:
    if not url.startswith("sqlite"):
        try:
            engine = create_engine(url, pool_size=pool_size, pool_pre_ping=True)
        except ModuleNotFoundError as error:
            raise StoreError(f"{url.partition('://')[0]} needs the Python package {error.name}: "
                             f"pip install 'starpnp[postgres]'") from None
        if engine.dialect.name == "postgresql" and engine.dialect.driver == "psycopg":
            _begin_explicitly(engine, lambda dbapi_conn: setattr(dbapi_conn, "autocommit", True), "BEGIN")
        return engine
    engine = create_engine(url, pool_size=pool_size, max_overflow=pool_size,
                           connect_args={"check_same_thread": False, "timeout": 30})

    def _configure(dbapi_conn):
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
        for pragma in ("journal_mode=WAL", f"synchronous={sqlite_synchronous}", "busy_timeout=30000",
                       "foreign_keys=ON"):
            dbapi_conn.execute(f"PRAGMA {pragma}")

    _begin_explicitly(engine, _configure, "BEGIN IMMEDIATE")
    return engine


def _begin_explicitly(engine: Engine, no_implicit_transactions: Callable[[Any], None], begin_write: str) -> None:
    """Connections in the driver's autocommit mode, and BEGIN sent by us when a transaction starts.

    SQLite: a write says BEGIN IMMEDIATE, taking the write lock up front. psycopg: a lone read (a poll's
    version) is one round trip, not BEGIN, SELECT, ROLLBACK — and that ROLLBACK would also make psycopg drop
    every statement it had prepared on the connection."""
    sa_event.listen(engine, "connect", lambda dbapi_conn, _record: no_implicit_transactions(dbapi_conn))

    @sa_event.listens_for(engine, "begin")
    def _begin(conn: Connection):  # straight to the driver: this runs on every write
        conn.connection.driver_connection.execute(begin_write if conn.get_execution_options().get("write")
                                                  else "BEGIN")


class _Prepared:
    """A statement compiled once for the engine's dialect and run on the DBAPI cursor of the current
    connection (inside its transaction): the hot paths, every poll and every event, skip SQLAlchemy's
    per-call statement building, caching and result wrapping."""

    def __init__(self, statement, dialect):
        compiled = statement.compile(dialect=dialect)
        self.sql = str(compiled)
        self._order = compiled.positiontup if compiled.positional else None
        self._names = tuple(compiled.binds)

    def run(self, conn: Connection, **values: Any):
        """Execute on `conn`'s DBAPI connection with those of `values` the statement names; returns the
        cursor (rows are plain tuples)."""
        if self._order is not None:
            params: Any = tuple(values[name] for name in self._order)
        else:
            params = {name: values[name] for name in self._names}
        cursor = conn.connection.cursor()
        cursor.execute(self.sql, params)
        return cursor


def _lock_exclusively(engine: Engine):
    """Hold an exclusive lock beside the SQLite file for this process's lifetime (the kernel drops it
    when the process dies, kill -9 included), so a second server on the same data cannot start."""
    try:
        import fcntl
    except ImportError:  # Windows: no lock, so versions are read from the database as usual
        return None
    if engine.dialect.name != "sqlite" or not engine.url.database:
        return None
    lock_file = open(f"{engine.url.database}.lock", "a+")
    try:
        fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock_file.close()
        raise Conflict(f"{Path(engine.url.database).parent}: another starpnp server is using this data "
                       "directory; stop it or pass another --data") from None
    return lock_file


TableRow = namedtuple("TableRow", [c.name for c in schema.tables.columns])


def _found(row) -> TableInfo:
    if row is None:
        raise WrongCode("no table with this code")
    return _row_to_table(row)


def _row_to_table(row) -> TableInfo:
    return TableInfo(id=row.id, code=row.code, watch_code=row.watch_code, game=row.game,
                     players=json.loads(row.players), options=json.loads(row.options), version=row.version,
                     created_at=row.created_at, updated_at=row.updated_at, group_key=row.group_key)


def _row_to_event(row) -> LoggedEvent:
    return LoggedEvent(seq=row.seq, type=row.type, player=row.player, payload=json.loads(row.payload),
                       undoes=row.undoes, created_at=row.created_at, actor=row.actor)


def _token_hash(token: str) -> str:
    """Seat tokens are stored only as their SHA-256: a copy of the database seats nobody."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Seating:
    """A phone sat down at a seat, or was given it (the history lists them: every hand-over is visible)."""

    player: str  # a seat, or HOST
    at: float
    given_by: str | None  # who gave it when it was asked for: the seat itself (its phone let go), another, HOST
    shown_code: str | None  # the code the new phone showed its approver


@dataclass(frozen=True)
class SeatRequest:
    """A phone asking for a held seat: `number` is its id at the table, `shown_code` what it shows ("show
    this: 417") so the approver knows which phone it gives the seat to, `agent` its browser."""

    number: int
    player: str
    shown_code: str
    asked: float
    agent: str

    device: str = ""  # the asking phone (seats.device): none of its seats approves it
    approvals: tuple[str, ...] = ()  # the seats that approved it so far (while the host's phone is silent)

    def as_json(self) -> dict:
        return {"id": self.number, "player": self.player, "code": self.shown_code, "asked": self.asked,
                "agent": self.agent, "approvals": list(self.approvals)}


@dataclass(frozen=True)
class Answerer:
    """Who answers a request, and how (Store.answerer): "holder" (the seat's own phone) and "host" decide
    alone; an "approver" (another seated player, while the host's phone is silent) adds an approval."""

    kind: str
    seat: str  # as the log names them: a seat id, or HOST
    device: str  # the answering phone


@dataclass(frozen=True)
class Answer:
    """What an answer did: `given` when the seat changed hands; else, for an approval, how many there are of
    the `needed`."""

    request: SeatRequest
    approvals: tuple[str, ...]
    needed: int
    given: bool


def approvals_needed(table: TableInfo) -> int:
    """Approvals that give a seat while the host's phone is silent: two other players where there are three or
    more seats, so no one player gives a seat away alone; at a table of two, the other one."""
    return 2 if len(table.players) >= 3 else 1


def seat_name(table: TableInfo, player: str) -> str:
    return "the host role" if player == HOST else f"{table.player(player)['name']}'s seat"


class Store:
    def __init__(self, engine: Engine, rules: dict[str, GameRules], sole_writer: bool = False,
                 max_tables: int = 10_000):
        """`sole_writer`: this process is the only one writing the database (`starpnp serve` on SQLite,
        which holds an exclusive lock on it), so each table's row, whose only changing column is its
        version, can be kept in memory: polls need no query at all and a write one fewer; and writes,
        serialised by the write lock anyway, share one connection kept open. It holds only where the lock
        is taken: on PostgreSQL, which several processes may share, the flag changes nothing."""
        self.engine = engine
        self.rules = rules
        # Who is told of each commit: the streams of this process; on PostgreSQL those of every process,
        # through NOTIFY sent in the write's own transaction (push.listen_postgres hears it).
        self.changes = Changes()
        self._notifies = engine.dialect.name == "postgresql"
        self._lock_file = _lock_exclusively(engine) if sole_writer else None
        self.max_tables = max_tables
        # Both kept for the tables in play, the least recently used forgotten first: an idle table costs
        # nothing but its rows on disk, and is read again when someone comes back to it.
        self._tables: OrderedDict[str, TableInfo] | None = OrderedDict() if self._lock_file else None
        self._write_conn = self.engine.connect().execution_options(write=True) if self._lock_file else None
        self._cache: OrderedDict[int, tuple[int, dict]] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._group_secret: str | None = None
        self.clock: Callable[[], float] = time.time  # seats' times (a test moves it on to make a phone silent)
        self._seen: OrderedDict[str, float] = OrderedDict()  # token hash -> when its last request was written
        # re-entrant: append and undo keep holding it after their commit to note the new version
        self._write_lock = threading.RLock() if engine.dialect.name == "sqlite" else nullcontext()
        t, e, dialect = schema.tables, schema.events, engine.dialect
        self._version_query = _Prepared(select(t.c.version).where(t.c.code == bindparam("p_code")), dialect)
        s = schema.seats
        self._seat_query = _Prepared(select(s.c.player, s.c.ended, s.c.since, s.c.created_at).join(t, t.c.id == s.c.table_id).where(
            t.c.code == bindparam("p_code"), s.c.token_hash == bindparam("p_token_hash")), dialect)
        # The row alone: on PostgreSQL a statement that waited for this lock returns the row as the other
        # writer committed it but reads all else as it was before the wait, so the tap seen before is read next.
        self._lock_table = _Prepared(select(t).where(t.c.code == bindparam("p_code")).with_for_update(), dialect)
        # An event's writes: insert it, bump the version, note its tap if named. On SQLite each statement is a
        # call in this process; on PostgreSQL each is a round trip with the table's row locked, so there they
        # are one statement (data-modifying CTEs, which SQLite lacks).
        new_event = insert(e).values(
            table_id=bindparam("p_table"), seq=bindparam("p_seq"), type=bindparam("p_type"),
            player=bindparam("p_player"), payload=bindparam("p_payload"), undoes=bindparam("p_undoes"),
            created_at=bindparam("p_now"), actor=bindparam("p_actor"))
        bump_version = update(t).where(t.c.id == bindparam("p_table")).values(
            version=bindparam("p_seq"), updated_at=bindparam("p_now"))
        if dialect.name == "postgresql":
            bump_version = bump_version.returning(func.pg_notify(literal_column(f"'{CHANNEL}'"),
                                                                  bindparam("p_note", type_=String)))
            named_tap = insert(schema.taps).from_select(["table_id", "client_id", "seq"], select(
                bindparam("p_table", type_=Integer), bindparam("p_client", type_=String),
                bindparam("p_seq", type_=Integer)).where(bindparam("p_client", type_=String).is_not(None)))
            self._event_writes = [_Prepared(bump_version.add_cte(new_event.cte("new_event"))
                                            .add_cte(named_tap.cte("named_tap")), dialect)]
            self._tap_write = None
        else:
            self._event_writes = [_Prepared(new_event, dialect), _Prepared(bump_version, dialect)]
            self._tap_write = _Prepared(insert(schema.taps).values(
                table_id=bindparam("p_table"), client_id=bindparam("p_client"), seq=bindparam("p_seq")), dialect)
        if engine.dialect.name == "sqlite":
            self._check_integrity()
        with self._writing() as conn:
            schema.migrate(conn, time.time())
            self._record_old_plays(conn)
        # As sole writer, the hashes of the seat tokens that ended (taken over, given up) are known here: a
        # poll asks whether its phone still holds its seat without a query, as it asks the version.
        self._ended: set[str] | None = None
        self._asked: set[str] | None = None  # as sole writer: the codes of tables where a phone asks for a seat
        if self._lock_file:
            with self._reading() as conn:
                self._ended = set(conn.execute(select(schema.seats.c.token_hash)
                                               .where(schema.seats.c.ended.in_((TAKEN, RELEASED, REFUSED, PASSED)))).scalars())
                self._asked = set(conn.execute(select(schema.tables.c.code).join(
                    schema.seats, schema.seats.c.table_id == schema.tables.c.id).where(
                    schema.seats.c.ended == WAITING)).scalars())

    def _check_integrity(self) -> None:
        """Refuse to start on a damaged SQLite file (a disk that filled or failed mid-write) with one line,
        rather than answer every request with an error for ever."""
        with self.engine.connect() as conn:
            found = [row[0] for row in conn.exec_driver_sql("PRAGMA quick_check").fetchall()]
        if found != ["ok"]:
            raise StoreError(f"{self.engine.url.database}: the database is damaged ({found[0][:80]}); keep a copy, "
                             f"then try `sqlite3 companion.sqlite3 .recover` or start with an empty data folder")

    # -- transactions ------------------------------------------------------------------------------
    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A write transaction (BEGIN IMMEDIATE on SQLite).

        On SQLite, threads of this process also queue on a lock first: waiting in SQLite's busy handler
        means sleeping in growing steps, which under load costs more than the writes themselves.
        """
        with self._write_lock:
            if self._write_conn is not None:  # sole writer: one connection for every write, kept open
                with self._write_conn.begin():
                    yield self._write_conn
                return
            with self.engine.connect() as conn:
                conn.execution_options(write=True)
                with conn.begin():
                    yield conn

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        with self.engine.connect() as conn, conn.begin():
            yield conn

    # -- settings ------------------------------------------------------------------------------------
    def secret_key(self) -> str:
        """The app's signing key, made once and kept in the database so CSRF tokens survive restarts and
        every server process on the database signs alike."""
        s = schema.settings
        try:
            with self._writing() as conn:
                value = conn.execute(select(s.c.value).where(s.c.key == "secret_key")).scalar()
                if value is None:
                    value = secrets.token_urlsafe(32)
                    conn.execute(insert(s).values(key="secret_key", value=value))
                return value
        except IntegrityError:  # another server, starting at the same moment, stored its key first: use that
            with self._reading() as conn:
                return conn.execute(select(s.c.value).where(s.c.key == "secret_key")).scalar_one()

    # -- tables --------------------------------------------------------------------------------------
    def create_table(self, game: str, players: list[dict], options: dict, group_key: str | None = None) -> Snapshot:
        rules = self.rules[game]
        try:
            state = rules.initial_state(players, options)
        except RuleError as error:  # a bad option for this game: refuse before anything is stored
            raise StoreError(f"{error.field}: {error.message}") from None
        now = time.time()
        with self._reading() as conn:
            count = conn.execute(select(func.count()).select_from(schema.tables)).scalar_one()
        if count >= self.max_tables:
            raise ServerFull(f"this server already holds {count} tables, its limit; ask its host to remove old "
                             f"ones or to raise MAX_TABLES")
        for _ in range(5):  # a code collision at 40 bits is rare; retry with fresh codes
            try:
                with self._writing() as conn:
                    table_id = conn.execute(insert(schema.tables).values(
                        code=codes.new_code(), watch_code=codes.new_code(), game=game,
                        players=json.dumps(players), options=json.dumps(options), version=0, group_key=group_key,
                        created_at=now, updated_at=now)).inserted_primary_key[0]
                    table = self._table_by(conn, schema.tables.c.id == table_id)
                break
            except IntegrityError:
                continue
        else:
            raise Conflict("could not find a free join code; try again")
        self._remember(table.id, 0, state)
        self._note(table)
        return Snapshot(table, state)

    def table(self, code: str) -> TableInfo:
        with self._reading() as conn:
            return self._note(self._table_by(conn, schema.tables.c.code == code))

    def table_by_watch_code(self, watch_code: str) -> TableInfo:
        with self._reading() as conn:
            return self._table_by(conn, schema.tables.c.watch_code == watch_code)

    def version(self, code: str) -> int | None:
        """The table's version alone: the question every poll asks. As sole writer the answer comes from
        memory; otherwise from one precompiled SELECT."""
        if self._tables is not None:
            known = self._tables.get(code)
            if known is not None:
                return known.version
            try:
                return self.table(code).version
            except NotFound:
                return None
        with self.engine.connect() as conn:
            row = self._version_query.run(conn, p_code=code).fetchone()
        return row[0] if row else None

    def _note(self, table: TableInfo) -> TableInfo:
        """Remember a table's row as sole writer; the newest version wins whichever thread comes first."""
        if self._tables is not None:
            with self._cache_lock:
                known = self._tables.get(table.code)
                if known is None or known.version < table.version:
                    self._tables[table.code] = table
                self._tables.move_to_end(table.code)
                while len(self._tables) > ROWS_IN_MEMORY:
                    self._tables.popitem(last=False)
        return table

    def _table_by(self, conn: Connection, condition) -> TableInfo:
        return _found(conn.execute(select(schema.tables).where(condition)).first())

    def _locked_table(self, conn: Connection, code: str) -> TableInfo:
        """The table, row-locked for this write transaction (PostgreSQL; SQLite holds the file lock).

        As sole writer, holding the write lock, the remembered row is the stored one."""
        if self._tables is not None and code in self._tables:
            return self._tables[code]
        row = self._lock_table.run(conn, p_code=code).fetchone()
        return _found(row and TableRow(*row))

    # -- seats ---------------------------------------------------------------------------------------
    # One phone holds a seat at a time; the host role is a seat too (HOST), asked for, let go and given the
    # same way. A phone asking for a held seat is a request (a row "waiting"): it holds nothing until the
    # holding phone lets go, or it is given the seat as `answerer` says, by its number. While the host's phone
    # is there (seen within HOST_SILENT_AFTER), only it and the seat's own phone answer; once it is silent,
    # the other seated players approve, APPROVALS_NEEDED of them, never the asking phone through a seat of its own.
    def join(self, code: str, player: str, take_over: bool = False, agent: str | None = None,
             device: str | None = None) -> tuple[str, SeatRequest | None]:
        """Seat a phone at `player`'s seat: (a new token for it, its request when it waits). A seat held
        elsewhere is refused (SeatHeld) unless `take_over`, which asks for it: the token waits, holding
        nothing (no private state is readable with it), until the holding phone lets go or it is given the
        seat (`grant`), turned down (`refuse`) or the request lapses (REQUEST_LAPSES_AFTER); at most
        MOST_REQUESTS wait for one seat (TooManyRequests). `agent`: the asking phone's browser; `device`: a
        secret naming the phone (a browser's id, or a token it holds here), so it cannot approve itself."""
        token = secrets.token_urlsafe(24)
        s = schema.seats
        with self._writing() as conn:
            table = self._locked_table(conn, code)
            if player != HOST and table.player(player) is None:
                raise NotFound(f"player: no seat {player[:20]!r} at this table")
            here, now = s.c.table_id == table.id, self.clock()
            conn.execute(update(s).where(here & (s.c.ended == WAITING) & (s.c.created_at < now - REQUEST_LAPSES_AFTER))
                         .values(ended=LAPSED))
            waits = conn.execute(select(s.c.token_hash).where(
                here & (s.c.player == player) & s.c.ended.is_(None))).first() is not None
            if waits and not take_over:
                raise SeatHeld(f"player: {seat_name(table, player)} is held by another phone; ask for it: that "
                               f"phone lets go, or the table's host approves")
            showing = set(conn.execute(select(s.c.shown_code).where(here & (s.c.ended == WAITING)
                                                                    & (s.c.player == player))).scalars())
            if waits and len(showing) >= MOST_REQUESTS:
                raise TooManyRequests(f"player: {MOST_REQUESTS} phones already ask for {seat_name(table, player)}; "
                                      f"wait for an answer (a request lapses after "
                                      f"{REQUEST_LAPSES_AFTER / 60:.0f} minutes)")
            number = conn.execute(select(func.coalesce(func.max(s.c.number), 0)).where(here)).scalar_one() + 1
            shown = None
            if waits:
                showing = set(conn.execute(select(s.c.shown_code).where(here & (s.c.ended == WAITING))).scalars())
                shown = next(c for c in iter(lambda: f"{secrets.randbelow(9000) + 1000}", None) if c not in showing)
            phone = self._device(conn, table, device or token)
            conn.execute(insert(s).values(table_id=table.id, token_hash=_token_hash(token), player=player,
                                          created_at=now, ended=WAITING if waits else None, number=number,
                                          shown_code=shown, agent=(agent or "")[:80] or None, since=table.version,
                                          seen_at=now, device=phone))
            self._seats_changed(conn, code)
        if waits and self._asked is not None:
            self._asked.add(code)
        self._seats_told(code)
        return token, SeatRequest(number, player, shown, now, agent or "", phone) if waits else None

    def _device(self, conn: Connection, table: TableInfo, secret: str) -> str:
        """The stored name of the phone `secret` names: that of the seat row when it is a token of this table,
        else its hash."""
        s = schema.seats
        digest = _token_hash(secret)
        known = conn.execute(select(func.coalesce(s.c.device, s.c.token_hash)).where(
            s.c.table_id == table.id, s.c.token_hash == digest)).scalar()
        return known or digest

    def asked(self, code: str) -> bool:
        """Whether a phone asks for a seat at this table: a poll then shows it though no event came. As sole
        writer the answer comes from memory, as version() does."""
        if self._asked is not None:
            return code in self._asked
        return bool(self.requests(code))

    def create_hosted_table(self, game: str, players: list[dict], options: dict,
                            group_key: str | None = None, device: str | None = None) -> tuple[Snapshot, str]:
        """A new table and its host token: the phone that keeps it holds the host role (approves giving held
        seats to new phones)."""
        snap = self.create_table(game, players, options, group_key)
        token, _ = self.join(snap.table.code, HOST, device=device)
        return snap, token

    def is_host(self, code: str, token: str | None) -> bool:
        return bool(token) and self.seat(code, token) == HOST

    def host_sits(self, code: str, host_token: str, player: str) -> None:
        """The host's phone plays `player`'s seat (the history and the seat's page say so)."""
        s = schema.seats
        with self._writing() as conn:
            table = self._locked_table(conn, code)
            conn.execute(update(s).where(s.c.table_id == table.id, s.c.token_hash == _token_hash(host_token),
                                         s.c.player == HOST, s.c.ended.is_(None)).values(with_seat=player))

    def seen(self, code: str, token: str) -> None:
        """The phone holding `token` made a request (a tap, a poll, its push stream): note when, at most every
        SEEN_NOTED_EVERY seconds per token, so a poll every two seconds costs no write."""
        digest, now = _token_hash(token), self.clock()
        with self._cache_lock:
            if now - self._seen.get(digest, float("-inf")) < SEEN_NOTED_EVERY:
                return
            self._seen[digest] = now
            self._seen.move_to_end(digest)
            while len(self._seen) > ROWS_IN_MEMORY:
                self._seen.popitem(last=False)
        s, t = schema.seats, schema.tables
        with self._writing() as conn:
            conn.execute(update(s).where(s.c.token_hash == digest, s.c.ended.is_(None),
                                         s.c.table_id == select(t.c.id).where(t.c.code == code).scalar_subquery())
                         .values(seen_at=now))

    def host_alive(self, code: str) -> bool:
        """Whether the host's phone was seen within HOST_SILENT_AFTER (it made the table, was given the role,
        or made a request since): only then does it answer for every seat alone."""
        s, t = schema.seats, schema.tables
        with self.engine.connect() as conn:
            row = conn.execute(select(s.c.seen_at, s.c.given_at, s.c.created_at).join(t, t.c.id == s.c.table_id)
                               .where(t.c.code == code, s.c.player == HOST, s.c.ended.is_(None))).first()
        return row is not None and self.clock() - max(value or 0 for value in row) < HOST_SILENT_AFTER

    def requests(self, code: str, player: str | None = None) -> list[SeatRequest]:
        """The phones asking for a held seat at this table (for `player`'s seat only, when given), oldest
        first, each with the seats that approved it so far; a request older than REQUEST_LAPSES_AFTER has
        lapsed."""
        s, t, a = schema.seats, schema.tables, schema.seat_approvals
        query = select(s.c.number, s.c.player, s.c.shown_code, s.c.created_at, s.c.agent,
                       func.coalesce(s.c.device, s.c.token_hash).label("device")).join(
            t, t.c.id == s.c.table_id).where(t.c.code == code, s.c.ended == WAITING,
                                             s.c.created_at >= self.clock() - REQUEST_LAPSES_AFTER)
        if player is not None:
            query = query.where(s.c.player == player)
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(s.c.created_at, s.c.number)).all()
            approved: dict[int, list[str]] = {}
            if rows:
                for number, seat in conn.execute(select(a.c.number, a.c.player).join(t, t.c.id == a.c.table_id)
                                                 .where(t.c.code == code).order_by(a.c.at)):
                    approved.setdefault(number, []).append(seat)
        return [SeatRequest(r.number, r.player, r.shown_code, r.created_at, r.agent or "", r.device,
                            tuple(approved.get(r.number, ()))) for r in rows]

    def my_request(self, code: str, token: str) -> SeatRequest | None:
        """The request `token` is, while it waits."""
        s, t = schema.seats, schema.tables
        with self.engine.connect() as conn:
            number = conn.execute(select(s.c.number).join(t, t.c.id == s.c.table_id).where(
                t.c.code == code, s.c.token_hash == _token_hash(token), s.c.ended == WAITING)).scalar()
        return next((r for r in self.requests(code) if r.number == number), None) if number else None

    def answerer(self, code: str, player: str, *, host: str | None = None, seat: str | None = None) -> Answerer:
        """Who answers a request for `player`'s seat (or the host role), and how. Alone: the phone holding that
        seat (`seat`, its token), or the table's host (`host`, or the host role's token as `seat`). While the
        host's phone is silent (host_alive), another seated player approves: it takes APPROVALS_NEEDED of them.
        NotHost (403) for anyone else: nobody answers for their own seat but the phone holding it."""
        mine, device = self._phone(code, seat) if seat else (None, "")
        if mine == player:
            return Answerer("holder", player, device)
        if mine == HOST or self.is_host(code, host):
            return Answerer("host", HOST, device if mine == HOST else self._phone(code, host)[1])
        if mine is not None and not self.host_alive(code):
            return Answerer("approver", mine, device)
        raise NotHost("host: only the phone holding this seat, or the table's host, answers a request for it "
                      f"(once the host's phone has been silent {HOST_SILENT_AFTER / 60:.0f} minutes, "
                      "other seated players approve)")

    def _phone(self, code: str, token: str) -> tuple[str | None, str]:
        """The seat `token` holds here (None: none) and the phone it is on (seats.device)."""
        s, t = schema.seats, schema.tables
        with self.engine.connect() as conn:
            row = conn.execute(select(s.c.player, func.coalesce(s.c.device, s.c.token_hash)).join(
                t, t.c.id == s.c.table_id).where(t.c.code == code, s.c.token_hash == _token_hash(token),
                                                  s.c.ended.is_(None))).first()
        return (row[0], row[1]) if row else (None, _token_hash(token))

    def grant(self, code: str, player: str, number: int | None = None, *, host: str | None = None,
              seat: str | None = None) -> Answer | None:
        """Give `player`'s seat to the request numbered `number` (None: the only one; BadRequest when several
        ask), answered as `answerer` says: at once by the seat's phone or the host, by the last approval
        needed otherwise. The holding phone's token ends ("taken"), the others asking are told the seat went
        to another phone; who gave it is kept for the history. None if nobody asks."""
        return self._answer(code, player, number, self.answerer(code, player, host=host, seat=seat), grant=True)

    def refuse(self, code: str, player: str, number: int | None = None, *, host: str | None = None,
               seat: str | None = None) -> Answer | None:
        """Turn down the request numbered `number` for `player`'s seat (None: every one)."""
        return self._answer(code, player, number, self.answerer(code, player, host=host, seat=seat), grant=False)

    def _answer(self, code: str, player: str, number: int | None, who: Answerer, grant: bool) -> Answer | None:
        asking = self.requests(code, player)
        chosen = [r for r in asking if number is None or r.number == number]
        if not chosen:
            if asking:
                raise NotFound(f"request: no request {number} for this seat (asking: "
                               f"{', '.join(str(r.number) for r in asking)})")
            return None
        if grant and len(chosen) > 1:
            raise StoreError(f"request: {len(chosen)} phones ask for this seat; give it to one by its number "
                             f"({', '.join(str(r.number) for r in chosen)}), the one whose code the new phone shows")
        if who.kind == "approver" and grant and chosen[0].device == who.device:
            raise NotHost("request: this phone asked for it; another player approves")
        s, a = schema.seats, schema.seat_approvals
        with self._writing() as conn:
            table = self._locked_table(conn, code)
            needed = approvals_needed(table) if who.kind == "approver" else 1
            here = (s.c.table_id == table.id) & (s.c.player == player)
            numbered = {r[0]: r[1] for r in conn.execute(select(s.c.number, s.c.token_hash).where(
                here & (s.c.ended == WAITING)))}
            if any(r.number not in numbered for r in chosen):  # answered meanwhile by another approver
                return None
            ended: list[str] = []
            told: list[str] = []
            approvals: tuple[str, ...] = ()
            if grant and who.kind == "approver":
                if who.seat not in chosen[0].approvals:
                    conn.execute(insert(a).values(table_id=table.id, number=chosen[0].number, player=who.seat,
                                                  at=self.clock()))
                approvals = tuple(conn.execute(select(a.c.player).where(
                    a.c.table_id == table.id, a.c.number == chosen[0].number).order_by(a.c.at)).scalars())
            given = grant and (who.kind != "approver" or len(approvals) >= needed)
            if given:
                ended = conn.execute(select(s.c.token_hash).where(here & s.c.ended.is_(None))).scalars().all()
                conn.execute(update(s).where(here & s.c.ended.is_(None)).values(ended=TAKEN))
                conn.execute(update(s).where(here & (s.c.number == chosen[0].number)).values(
                    ended=None, since=table.version, given_by=",".join(approvals) or who.seat,
                    given_at=self.clock()))
                told = [h for n, h in numbered.items() if n != chosen[0].number]
                conn.execute(update(s).where(here & s.c.token_hash.in_(told)).values(ended=PASSED))
            elif not grant:
                told = [numbered[r.number] for r in chosen]
                conn.execute(update(s).where(here & s.c.token_hash.in_(told)).values(ended=REFUSED))
            self._seats_changed(conn, code)
        self._note_ended([*ended, *told])
        self._note_asked(code)
        self._seats_told(code)
        return Answer(chosen[0], approvals, needed, given)

    def _note_asked(self, code: str) -> None:
        """As sole writer, after a request was answered: whether any phone still asks at this table."""
        if self._asked is not None and not self.requests(code):
            self._asked.discard(code)

    def release(self, code: str, token: str) -> str | None:
        """Give up the seat `token` holds (from its own phone): the seat is free again, or goes to the phone
        asking for it when one does (when several do, an approver chooses). Returns the seat."""
        s = schema.seats
        with self._writing() as conn:
            table = self._table_by(conn, schema.tables.c.code == code)
            mine = (s.c.table_id == table.id) & (s.c.token_hash == _token_hash(token)) & s.c.ended.is_(None)
            player = conn.execute(select(s.c.player).where(mine)).scalar()
            conn.execute(update(s).where(mine).values(ended=RELEASED))
            here = (s.c.table_id == table.id) & (s.c.player == player)
            asking = conn.execute(select(s.c.token_hash).where(
                here & (s.c.ended == WAITING) & (s.c.created_at >= self.clock() - REQUEST_LAPSES_AFTER))
            ).scalars().all() if player else []
            if len(asking) == 1:  # the phone asking for this seat: letting go gives it the seat
                conn.execute(update(s).where(here & (s.c.token_hash == asking[0])).values(
                    ended=None, since=table.version, given_by=player, given_at=self.clock()))
            self._seats_changed(conn, code)
        self._note_asked(code)
        self._note_ended([_token_hash(token)] if player else [])
        self._seats_told(code)
        return player

    def last_handover(self, code: str) -> float | None:
        """When a seat or the host role last changed hands here (a request given), if ever."""
        s, t = schema.seats, schema.tables
        with self.engine.connect() as conn:
            return conn.execute(select(func.max(s.c.given_at)).join(t, t.c.id == s.c.table_id)
                                .where(t.c.code == code)).scalar()

    def _seats_changed(self, conn: Connection, code: str) -> None:
        """On PostgreSQL, tell every process (at commit) that a table's seats changed."""
        if self._notifies:
            conn.execute(select(func.pg_notify(CHANNEL, code)))

    def _seats_told(self, code: str) -> None:
        """After the commit, wake this process's streams of the table (PostgreSQL's NOTIFY does it there)."""
        if not self._notifies:
            self.changes.publish(code)

    def _note_ended(self, token_hashes: list[str]) -> None:
        """Remember, as sole writer, tokens whose seat ended (after their transaction committed)."""
        if self._ended is not None:
            self._ended.update(token_hashes)

    def seat_ended(self, code: str, token: str) -> bool:
        """Whether `token` held a seat here that was since taken over or given up: the question every poll of
        a seated phone asks. As sole writer the answer comes from memory; otherwise from one SELECT."""
        if self._ended is not None:
            return _token_hash(token) in self._ended
        return self.seat_and_end(code, token)[1] is not None

    def seat(self, code: str, token: str) -> str | None:
        """The seat a token holds at this table, or None (unknown token, one from another table, or one
        whose seat was taken on another phone or given up)."""
        player, ended = self.seat_and_end(code, token)
        return None if ended else player

    def seat_and_end(self, code: str, token: str) -> tuple[str | None, str | None]:
        """The seat a token was given at this table and how it ended (None while it holds it: TAKEN,
        RELEASED...); (None, None) for a token this table never gave."""
        return self.holding(code, token)[:2]

    def holding(self, code: str, token: str) -> tuple[str | None, str | None, int]:
        """seat_and_end, and the table's version when the token began to hold its seat (its reader's `since`)."""
        with self.engine.connect() as conn:  # every write asks: one precompiled SELECT, as version() does
            row = self._seat_query.run(conn, p_code=code, p_token_hash=_token_hash(token)).fetchone()
        if row is None:
            return None, None, 0
        player, ended, since, asked = row
        if ended == WAITING and asked < self.clock() - REQUEST_LAPSES_AFTER:
            ended = LAPSED
        return player, ended, since or 0

    def seatings(self, table: TableInfo) -> list[Seating]:
        """Every phone that held a seat or the host role here, in order, with who gave it when it was
        asked for: the history's record of hand-overs."""
        s = schema.seats
        with self._reading() as conn:
            rows = conn.execute(select(s.c.player, s.c.created_at, s.c.given_by, s.c.given_at, s.c.shown_code).where(
                s.c.table_id == table.id, s.c.ended.is_(None) | s.c.ended.in_((TAKEN, RELEASED)))
                .order_by(func.coalesce(s.c.given_at, s.c.created_at))).all()
        return [Seating(row.player, row.given_at or row.created_at, row.given_by, row.shown_code)
                for row in rows if row.created_at]  # the host rows moved from v6 have no time: not shown

    # -- events --------------------------------------------------------------------------------------
    def snapshot(self, code: str) -> Snapshot:
        with self._reading() as conn:
            table = self._table_by(conn, schema.tables.c.code == code)
            return Snapshot(table, self._state(conn, table))

    def events(self, table: TableInfo, since: int = 0) -> list[LoggedEvent]:
        """The log after `since`, up to `table`'s version (later events are for whoever reads it later)."""
        with self._reading() as conn:
            return self._events(conn, table.id, since, until=table.version)

    def append(self, code: str, event: dict[str, Any] | Callable[[TableInfo], dict[str, Any]],
               client_id: str | None = None, actor: str | None = None) -> tuple[int | None, Snapshot, bool]:
        """Validate an event against the current state and append it; RuleError leaves the log unchanged.
        Returns (seq, snapshot, repeated); seq is None when the event sets a value to what it already is
        (EventType.sets): nothing is written.

        `event` may be a function of the table that builds the event (checking players, fields...), so
        looking the table up and appending take one transaction. A `client_id` the table has seen before
        is a repeat of that tap (its answer was lost): nothing is appended, and its seq is returned.
        `actor` is the seat that tapped, when it acted for the event's player ("Ann for Ben").
        """
        with self._write_lock:
            with self._writing() as conn:
                table = self._locked_table(conn, code)
                seen = self._tap(conn, table, client_id)
                if seen is not None:
                    return seen, Snapshot(table, self._state(conn, table)), True
                if callable(event):
                    event = event(table)
                before = self._state(conn, table)
                rules = self.rules[table.game]
                state = rules.apply(before, event)
                if state == before and rules.event_type(event["type"]).sets:
                    return None, Snapshot(table, before), False
                payload = {k: v for k, v in event.items() if k not in ("type", "player")}
                actor = actor if actor != event["player"] else None
                seq = self._insert(conn, table, event["type"], event["player"], payload, None, client_id, actor)
                self._record_play(conn, table, before, state)
            return seq, self._committed(table, seq, state), False

    def _tap(self, conn: Connection, table: TableInfo, client_id: str | None) -> int | None:
        """The seq of the event a named tap already made at this table, or None."""
        if client_id is None:
            return None
        t = schema.taps
        return conn.execute(select(t.c.seq).where(t.c.table_id == table.id, t.c.client_id == client_id)).scalar()

    def undo(self, code: str, player: str, client_id: str | None = None,
             since: int = 0) -> tuple[int, int, Snapshot, bool]:
        """Take back `player`'s own newest action, from the phone that holds the seat since table version
        `since` (an entry it did not seal stays); returns (undo seq, undone seq, snapshot, repeated) — a
        repeated `client_id` answers with the undo it already made, as append does."""
        with self._write_lock:
            with self._writing() as conn:
                table = self._locked_table(conn, code)
                log = self._events(conn, table.id)
                seen = self._tap(conn, table, client_id)
                if seen is not None:
                    undone = next((e.undoes for e in log if e.seq == seen), None)
                    return seen, undone, Snapshot(table, self._state(conn, table)), True
                target = undo_target(log, player)
                if target is None:
                    raise Conflict(f"player: {player} has nothing to undo")
                rules = self.rules[table.game]
                why = stands(rules, table.players, table.options, log, target, Reader(player, since))
                if why:
                    raise Conflict(f"player: {why}")
                try:
                    state = state_without(self.rules[table.game], table.players, table.options, log,
                                          target.seq)
                except RuleError as error:
                    raise Conflict(error.message) from None
                seq = self._insert(conn, table, UNDO, player, {}, target.seq, client_id)
                self._record_play(conn, table, self._state(conn, table), state)
            return seq, target.seq, self._committed(table, seq, state), False

    def _insert(self, conn: Connection, table: TableInfo, type_: str, player: str, payload: dict,
                undoes: int | None, client_id: str | None = None, actor: str | None = None) -> int:
        seq, now = table.version + 1, time.time()
        values = dict(p_table=table.id, p_seq=seq, p_type=type_, p_player=player, p_payload=json.dumps(payload),
                      p_undoes=undoes, p_now=now, p_client=client_id, p_actor=actor, p_note=f"{table.code} {seq}")
        for statement in self._event_writes:
            statement.run(conn, **values)
        if client_id is not None and self._tap_write is not None:
            self._tap_write.run(conn, **values)
        return seq

    def _committed(self, table: TableInfo, seq: int, state: dict) -> Snapshot:
        """After the commit, still under the write lock: remember the new version and state."""
        self._remember(table.id, seq, state)
        snapshot = Snapshot(self._note(TableInfo(**{**table.__dict__, "version": seq})), state)
        if not self._notifies:  # PostgreSQL's NOTIFY, sent with the write, reaches this process too
            self.changes.publish(table.code, seq)
        return snapshot

    def _events(self, conn: Connection, table_id: int, since: int = 0, until: int | None = None) -> list[LoggedEvent]:
        """Events after `since`, up to `until` when given. A state must stop at the version it is kept
        under: PostgreSQL reads (READ COMMITTED) see events another process committed after the table row
        was read, in the same transaction."""
        e = schema.events
        query = select(*EVENT_COLUMNS).where(e.c.table_id == table_id, e.c.seq > since)
        if until is not None:
            query = query.where(e.c.seq <= until)
        return [_row_to_event(r) for r in conn.execute(query.order_by(e.c.seq)).all()]

    # -- finished plays (stats.py) -------------------------------------------------------------------
    def _record_play(self, conn: Connection, table: TableInfo, before: dict, after: dict) -> None:
        """Keep the table's rows of `plays` and `play_seats` true to its log, in the write's own transaction: the
        event that ends the game writes them, an undo that takes that event back removes them. The statistics
        then count those rows instead of replaying every log."""
        rules = self.rules[table.game]
        ended = rules.ending(after)
        if ended is None and rules.ending(before) is None:
            return
        p, ps, e = schema.plays, schema.play_seats, schema.events
        conn.execute(delete(ps).where(ps.c.table_id == table.id))
        conn.execute(delete(p).where(p.c.table_id == table.id))
        if ended is not None:
            started, finished = conn.execute(select(func.min(e.c.created_at), func.max(e.c.created_at))
                                             .where(e.c.table_id == table.id)).one()
            play, seats = play_record(rules, table.players, after)
            # the stored key, not memory's: a group found by its old key (find_group) was given a new one
            stored_key = select(schema.tables.c.group_key).where(schema.tables.c.id == table.id).scalar_subquery()
            conn.execute(insert(p).values(table_id=table.id, game=table.game, group_key=stored_key,
                                          started_at=started, finished_at=finished,
                                          minutes=round((finished - started) / 60, 1), **play))
            conn.execute(insert(ps), [{**seat, "table_id": table.id, "game": table.game,
                                       "player_count": play["player_count"]} for seat in seats])

    def add_plays(self, rules: GameRules, plays: list[tuple[str, Play]]) -> None:
        """Plays finished on another server (stats_import.py), each with its group's key, in one transaction:
        each gets a table row of its own (no events: nothing to replay, its code told to no one), so that it
        counts as a finished table of its group like the plays of this server."""
        t, p, ps = schema.tables, schema.plays, schema.play_seats
        try:
            with self._writing() as conn:
                for key, play in plays:
                    started = play.finished_at - play.minutes * 60
                    players = [{"id": f"p{n}", "name": seat["name"]} for n, seat in enumerate(play.seats, start=1)]
                    table_id = conn.execute(insert(t).values(
                        code=codes.new_code(), watch_code=codes.new_code(), game=rules.id,
                        players=json.dumps(players), options="{}", version=0, group_key=key, created_at=started,
                        updated_at=play.finished_at)).inserted_primary_key[0]
                    conn.execute(insert(p).values(
                        table_id=table_id, game=rules.id, group_key=key, player_count=play.player_count,
                        started_at=started, finished_at=play.finished_at, minutes=play.minutes, length=play.length,
                        ending=play.ending, tie=play.tie, margin=margin(play.seats, play.tie)))
                    conn.execute(insert(ps), [{**seat, "won": int(seat["won"]), "position": position,
                                               "table_id": table_id, "game": rules.id,
                                               "player_count": play.player_count}
                                              for position, seat in enumerate(play.seats, start=1)])
        except IntegrityError:  # two fresh codes alike: at 40 bits, once in a lifetime
            raise Conflict("could not find free table codes for the plays; nothing was added, try again") from None

    def _record_old_plays(self, conn: Connection) -> None:
        """Once per game, on the first start that knows it since `plays` came: record its tables that had
        already ended (each replayed once). A designer's game served later is recorded when it is first served."""
        s, t = schema.settings, schema.tables
        done = set(conn.execute(select(s.c.key).where(s.c.key.like("plays_recorded:%"))).scalars())
        for game, rules in self.rules.items():
            if f"plays_recorded:{game}" in done:
                continue
            for row in conn.execute(select(t).where(t.c.game == game, t.c.version > 0)).all():
                table = _row_to_table(row)
                start = rules.initial_state(table.players, table.options)
                self._record_play(conn, table, start, replay(rules, table.players, table.options,
                                                              self._events(conn, table.id)))
            conn.execute(insert(s).values(key=f"plays_recorded:{game}", value="yes"))

    def tallies(self, game: str, group_key: str | None = None) -> Tallies:
        """What the statistics count of `game`'s finished tables (of one group, with its key), counted by the
        database on the indexes of `plays` and `play_seats`; only the numbers whose median is wanted come back
        one by one."""
        p, ps, t = schema.plays, schema.play_seats, schema.tables
        of_plays = [] if group_key is None else [p.c.group_key == group_key]
        of_seats = [] if group_key is None else [ps.c.table_id.in_(
            select(p.c.table_id).where(p.c.game == game, p.c.group_key == group_key))]
        of_tables = [] if group_key is None else [t.c.group_key == group_key]
        with self._reading() as conn:
            def counted(column, *where, table=p) -> dict:
                return dict(conn.execute(select(column, func.count()).where(
                    table.c.game == game, *where, *(of_plays if table is p else of_seats)).group_by(column)).all())

            seats = conn.execute(select(ps.c.player_count, ps.c.position, func.count(), func.sum(ps.c.won))
                                 .where(ps.c.game == game, *of_seats).group_by(ps.c.player_count, ps.c.position)).all()
            tables = conn.execute(select(func.count()).where(t.c.game == game, *of_tables)).scalar_one()
            by_players = counted(p.c.player_count)
            return Tallies(
                unfinished=tables - sum(by_players.values()), by_players=by_players,
                seats={(count, position): (n, int(wins)) for count, position, n, wins in seats},
                lengths=counted(p.c.length), minutes=counted(p.c.minutes),
                margins=counted(p.c.margin, p.c.margin.is_not(None)), scores=counted(ps.c.score, table=ps),
                winner_scores=counted(ps.c.score, ps.c.won == 1, table=ps), endings=counted(p.c.ending),
                ties=counted(p.c.tie, p.c.tie.is_not(None)))

    @staticmethod
    def _of(query, group_key: str | None, table_codes: list[str] | None):
        """`query` (over plays joined to tables) narrowed to one group, or to the tables of the join codes given
        (a phone's own: none given, none found)."""
        p, t = schema.plays, schema.tables
        if group_key is not None:
            query = query.where(p.c.group_key == group_key)
        if table_codes is not None:
            query = query.where(t.c.code.in_(list(table_codes)))
        return query

    def plays(self, game: str, group_key: str | None = None, table_codes: list[str] | None = None) -> list[Play]:
        """The finished tables of `game`, oldest first, with their seats: all of them, or those of one group, or
        of the join codes given."""
        p, ps, t = schema.plays, schema.play_seats, schema.tables
        chosen = self._of(select(p.c.table_id).join(t, t.c.id == p.c.table_id).where(p.c.game == game),
                          group_key, table_codes)
        order = (p.c.finished_at, p.c.table_id)
        query = (select(p.c.table_id, p.c.player_count, p.c.finished_at, p.c.minutes, p.c.length,
                        p.c.ending, p.c.tie, ps.c.name, ps.c.score, ps.c.place, ps.c.won)
                 .join(ps, ps.c.table_id == p.c.table_id).where(p.c.table_id.in_(chosen.subquery().select()))
                 .order_by(*order, ps.c.position))
        with self._reading() as conn:
            rows = conn.execute(query).all()
        found: dict[int, Play] = {}
        for row in rows:
            play = found.get(row.table_id)
            if play is None:
                play = found[row.table_id] = Play(
                    player_count=row.player_count, finished_at=row.finished_at,
                    minutes=row.minutes, length=row.length, ending=row.ending, tie=row.tie, seats=[])
            play.seats.append({"name": row.name, "score": row.score, "place": row.place, "won": bool(row.won)})
        return list(found.values())

    def group_key(self, code: str) -> str:
        """The stored form of a group code (stats.group_key), keyed with this database's secret."""
        return group_key(self._group_secret_key(), code)

    def _group_secret_key(self) -> str:
        if self._group_secret is None:
            self._group_secret = self.secret_key()
        return self._group_secret

    def find_group(self, code: str) -> str | None:
        """The key of the group `code` names, if a table was created with it. A group made before punctuation
        was ignored is found by its code as then typed, and its rows take today's key, so any spelling finds it
        from then on."""
        t, p = schema.tables, schema.plays
        key, legacy = self.group_key(code), legacy_group_key(self._group_secret_key(), code)
        with self._reading() as conn:
            found = set(conn.execute(select(t.c.group_key).where(t.c.group_key.in_([key, legacy]))
                                     .group_by(t.c.group_key)).scalars())
        if legacy in found and legacy != key:
            with self._writing() as conn:
                conn.execute(update(t).where(t.c.group_key == legacy).values(group_key=key))
                conn.execute(update(p).where(p.c.group_key == legacy).values(group_key=key))
        return key if found else None

    # -- state cache ---------------------------------------------------------------------------------
    def _state(self, conn: Connection, table: TableInfo) -> dict:
        """The table's state at its version: cached, advanced by the newest events, or fully replayed."""
        rules = self.rules[table.game]
        with self._cache_lock:
            cached = self._cache.get(table.id)
        if cached and cached[0] == table.version:
            return cached[1]
        if cached and cached[0] < table.version:
            newer = self._events(conn, table.id, since=cached[0], until=table.version)
            if all(e.type != UNDO for e in newer):
                try:
                    state = apply_strict(rules, cached[1], newer)
                    self._remember(table.id, table.version, state)
                    return state
                except RuleError:
                    pass  # fall back to the full replay, which skips what no longer applies
        state = replay(rules, table.players, table.options, self._events(conn, table.id, until=table.version))
        self._remember(table.id, table.version, state)
        return state

    def _remember(self, table_id: int, version: int, state: dict) -> None:
        with self._cache_lock:
            cached = self._cache.get(table_id)
            if cached is None or cached[0] <= version:
                self._cache[table_id] = (version, state)
            self._cache.move_to_end(table_id)
            while len(self._cache) > STATES_IN_MEMORY:
                self._cache.popitem(last=False)
