"""Database tables and the ordered migrations that create and evolve them.

`schema_version` records which migrations ran; `migrate` applies the missing ones in order inside one
write transaction, so two servers starting at once cannot both run a migration.
"""
from __future__ import annotations

from typing import Callable

from sqlalchemy import (Column, Float, ForeignKey, Integer, MetaData, String, Table, Text,
                        UniqueConstraint, func, inspect, select)
from sqlalchemy.engine import Connection

metadata = MetaData()

schema_version = Table(
    "schema_version", metadata,
    Column("version", Integer, primary_key=True),
    Column("applied_at", Float, nullable=False),
)

settings = Table(
    "settings", metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

tables = Table(
    "tables", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(16), nullable=False, unique=True),        # players' join code, canonical form
    Column("watch_code", String(16), nullable=False, unique=True),  # spectators' read-only code
    Column("game", String(40), nullable=False),
    Column("players", Text, nullable=False),   # JSON seat list
    Column("options", Text, nullable=False),   # JSON
    Column("version", Integer, nullable=False, default=0),  # = seq of the newest event
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("group_key", String(64), nullable=True),  # keyed hash of the group code given at creation (plays)
)

events = Table(
    "events", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", Integer, ForeignKey("tables.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("type", String(40), nullable=False),
    Column("player", String(16), nullable=False),
    Column("payload", Text, nullable=False),  # JSON: the event minus type and player
    Column("undoes", Integer, nullable=True),  # for undo events: the seq they take back
    Column("created_at", Float, nullable=False),
    Column("actor", String(16), nullable=True),  # who tapped, when a seat acted for another ("Ann for Ben")
    UniqueConstraint("table_id", "seq", name="uq_events_table_seq"),
)


# A phone names each tap (client_id); a repeat of a named tap (a retry after a lost answer) finds its event
# here instead of appending it twice. Not created by _v1_initial: it came later.
taps = Table(
    "taps", metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), nullable=False),
    Column("client_id", String(64), nullable=False),
    Column("seq", Integer, nullable=False),
    UniqueConstraint("table_id", "client_id", name="uq_taps_table_client"),
)


# A phone holds a seat: joining gives it a token (kept here only as its SHA-256), which its taps carry.
# Re-joining a seat from a new phone adds a row, so the history can say who sat down where and when.
# One phone holds a seat at a time: a token whose seat was taken on another phone, or given up from its own,
# is kept with `ended` saying which ("taken", "released"), so that phone can be told why it stopped.
# The host role is a seat too (player "host", v7): it is asked for, let go and given the same way.
# A request (a row "waiting") carries its number at the table (the id an approver grants), the short code its
# phone shows and the phone's browser, so the approver knows which phone it gives the seat to; a row that was
# given its seat says by whom, and `since` is the table's version when it began to hold it: the seat's sealed
# entries up to then are another phone's secret. `with_seat`: for the host role, the seat its phone plays.
# Since v9: `seen_at`, when its phone last made a request (the host's phone counts as there while it is recent),
# and `device`, the phone that asked (a browser's or a token's id, hashed): it may not approve its own request.
seats = Table(
    "seats", metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("player", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("ended", String(8), nullable=True),
    Column("number", Integer, nullable=True),
    Column("shown_code", String(4), nullable=True),
    Column("agent", String(80), nullable=True),
    Column("since", Integer, nullable=False, server_default="0"),
    Column("given_by", String(40), nullable=True),
    Column("given_at", Float, nullable=True),
    Column("with_seat", String(16), nullable=True),
    Column("seen_at", Float, nullable=True),
    Column("device", String(64), nullable=True),
    UniqueConstraint("table_id", "token_hash", name="uq_seats_table_token"),
)
SEAT_REQUEST_COLUMNS = ("number INTEGER", "shown_code VARCHAR(4)", "agent VARCHAR(80)", "since INTEGER NOT NULL DEFAULT 0",
                        "given_by VARCHAR(40)", "given_at FLOAT", "with_seat VARCHAR(16)")


PRESENCE_COLUMNS = ("seen_at FLOAT", "device VARCHAR(64)")

# While the host's phone is silent, a request is given by the approvals of other seated players (v9): one row
# per approving seat, until there are enough (storage.APPROVALS_NEEDED).
seat_approvals = Table(
    "seat_approvals", metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), nullable=False),
    Column("number", Integer, nullable=False),  # the request's number (seats.number)
    Column("player", String(16), nullable=False),  # the approving seat
    Column("at", Float, nullable=False),
    UniqueConstraint("table_id", "number", "player", name="uq_seat_approvals"),
)


# The table's host until v7, which made the host role a seat (player "host") and dropped this table.
hosts = Table(
    "hosts", metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), nullable=False),
    Column("token_hash", String(64), nullable=False),
    UniqueConstraint("table_id", "token_hash", name="uq_hosts_table_token"),
)


# One row per finished table, and one per seat of it, written in the transaction of the event that ended it
# (and removed by the undo that takes that event back): the statistics across tables are counted from these
# by the database, not from 10,000 logs. `group_key` is the keyed hash of the table's group code
# (tables.group_key): names are shown only to those who know the code.
plays = Table(
    "plays", metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("group_key", String(64), nullable=True),
    Column("player_count", Integer, nullable=False),
    Column("started_at", Float, nullable=False),   # the table's first event
    Column("finished_at", Float, nullable=False),  # the event that ended it
    Column("minutes", Float, nullable=False),
    Column("length", Integer, nullable=False),     # rounds or turns (the game's length_unit)
    Column("ending", String(80), nullable=False),  # how it ended, without names
    Column("tie", String(80), nullable=True),      # None; "shared"; or what broke it ("planets", "a tie round")
    Column("margin", Float, nullable=True),        # the winner's score less the best other's; 0 if shared
)

play_seats = Table(
    "play_seats", metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), nullable=False),
    Column("game", String(40), nullable=False),
    Column("player_count", Integer, nullable=False),
    Column("position", Integer, nullable=False),  # 1: played first
    Column("name", String(40), nullable=False),
    Column("score", Integer, nullable=False),
    Column("place", Integer, nullable=False),
    Column("won", Integer, nullable=False),  # 1 for a sole winner (a shared victory is no seat's win)
    UniqueConstraint("table_id", "position", name="uq_play_seats_table_position"),
)


def _v1_initial(conn: Connection) -> None:
    for table in (settings, tables, events):
        table.create(conn)


def _v2_recent_tables_index(conn: Connection) -> None:
    # plain DDL: an Index object would attach itself to `tables` and be created again by _v1_initial
    conn.exec_driver_sql("CREATE INDEX ix_tables_updated_at ON tables (updated_at)")


def _v3_taps(conn: Connection) -> None:
    taps.create(conn)


def _v4_seats(conn: Connection) -> None:
    seats.create(conn)
    if "actor" not in {column["name"] for column in inspect(conn).get_columns("events")}:  # made before v4
        conn.exec_driver_sql("ALTER TABLE events ADD COLUMN actor VARCHAR(16)")


def _v5_seat_ended(conn: Connection) -> None:
    # v4 creates `seats` from today's declaration, this column included; a database that ran v4 before lacks it
    if "ended" not in {column["name"] for column in inspect(conn).get_columns("seats")}:
        conn.exec_driver_sql("ALTER TABLE seats ADD COLUMN ended VARCHAR(8)")


def _v6_hosts(conn: Connection) -> None:
    hosts.create(conn)


def _v7_seat_requests(conn: Connection) -> None:
    """Requests with ids, codes and browsers; the host role a seat like the others (so it passes the same way)."""
    have = {column["name"] for column in inspect(conn).get_columns("seats")}
    for declaration in SEAT_REQUEST_COLUMNS:
        if declaration.split()[0] not in have:  # v4 on a new database made `seats` with them
            conn.exec_driver_sql(f"ALTER TABLE seats ADD COLUMN {declaration}")
    conn.exec_driver_sql("INSERT INTO seats (table_id, token_hash, player, created_at) "
                         "SELECT table_id, token_hash, 'host', 0 FROM hosts")
    conn.exec_driver_sql("DROP TABLE hosts")


def _v8_plays(conn: Connection) -> None:
    # plays of tables finished before this version are recorded by the store once it runs (it has the rules)
    plays.create(conn)
    play_seats.create(conn)
    conn.exec_driver_sql("CREATE INDEX ix_plays_game_finished ON plays (game, finished_at)")
    conn.exec_driver_sql("CREATE INDEX ix_play_seats_game ON play_seats (game, player_count, position, won, score)")
    conn.exec_driver_sql("CREATE INDEX ix_plays_group ON plays (group_key, game)")
    if "group_key" not in {column["name"] for column in inspect(conn).get_columns("tables")}:
        conn.exec_driver_sql("ALTER TABLE tables ADD COLUMN group_key VARCHAR(64)")
    conn.exec_driver_sql("CREATE INDEX ix_tables_game ON tables (game)")
    conn.exec_driver_sql("CREATE INDEX ix_tables_group ON tables (group_key)")


def _v9_host_presence(conn: Connection) -> None:
    """When each phone was last seen and which phone asked, four-digit request codes, and approvals."""
    have = {column["name"] for column in inspect(conn).get_columns("seats")}
    for declaration in PRESENCE_COLUMNS:
        if declaration.split()[0] not in have:  # v4 on a new database made `seats` with them
            conn.exec_driver_sql(f"ALTER TABLE seats ADD COLUMN {declaration}")
    if conn.dialect.name == "postgresql":  # SQLite does not hold a VARCHAR to its length
        conn.exec_driver_sql("ALTER TABLE seats ALTER COLUMN shown_code TYPE VARCHAR(4)")
    seat_approvals.create(conn)


MIGRATIONS: tuple[Callable[[Connection], None], ...] = (_v1_initial, _v2_recent_tables_index, _v3_taps, _v4_seats,
                                                        _v5_seat_ended, _v6_hosts, _v7_seat_requests, _v8_plays,
                                                        _v9_host_presence)


def current_version(conn: Connection) -> int:
    return conn.execute(select(func.coalesce(func.max(schema_version.c.version), 0))).scalar_one()


def migrate(conn: Connection, now: float) -> int:
    """Run every migration not yet recorded on `conn` (already inside a write transaction), in order; return the
    new version. Each is looked up by its own number, not after the highest one recorded: a database that
    recorded a later one first (two branches each adding one) still gets the earlier."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7274)")  # serialise concurrent start-ups
    schema_version.create(conn, checkfirst=True)
    recorded = set(conn.execute(select(schema_version.c.version)).scalars())
    for number, migration in enumerate(MIGRATIONS, start=1):
        if number not in recorded:
            migration(conn)
            conn.execute(schema_version.insert().values(version=number, applied_at=now))
    return len(MIGRATIONS)
