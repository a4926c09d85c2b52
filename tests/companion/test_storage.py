"""The store on a real SQLite file and on PostgreSQL: migrations, appends, undo, replay and the state cache."""
import gc
import threading

import pytest
from sqlalchemy import select

from starpnp.companion import schema, storage
from starpnp.companion.rules import RuleError, all_rules
from starpnp.companion.storage import Conflict, NotFound, Store, make_engine

PLAYERS = [{"id": "p1", "name": "Ann", "color": "red"}, {"id": "p2", "name": "Ben", "color": "blue"}]


def new_store(url):
    """A store on the database at `url`; each call is another server process's view of it."""
    return Store(make_engine(url), all_rules())


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """Every test that takes this runs twice: on a fresh SQLite file and on a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'db.sqlite3'}"
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def store(database_url):
    return new_store(database_url)


def add(store, code, player, delta, target=None):
    event = {"type": "add", "player": player, "delta": delta}
    if target:
        event["target"] = target
    return store.append(code, event)


def scores(snap):
    return {pid: c["Score"] for pid, c in snap.state["counters"].items()}


def test_migrations_run_once_and_record_their_version(database_url):
    store = new_store(database_url)
    new_store(database_url)  # a second start finds nothing to do
    with store.engine.connect() as conn:
        versions = conn.execute(select(schema.schema_version.c.version)).scalars().all()
    assert versions == list(range(1, len(schema.MIGRATIONS) + 1))


def test_a_migration_left_out_while_a_later_one_ran_runs_at_the_next_start(tmp_path):
    """Two branches each added a migration; a database that ran the later one first still gets the earlier:
    `migrate` runs every number not recorded, not only those past the highest."""
    from sqlalchemy import create_engine, inspect

    url = f"sqlite:///{tmp_path / 'gap.sqlite3'}"
    engine = create_engine(url)
    left_out = schema.MIGRATIONS.index(schema._v8_plays) + 1
    with engine.begin() as conn:
        schema.schema_version.create(conn)
        for number, migration in enumerate(schema.MIGRATIONS, start=1):
            if number != left_out:
                migration(conn)
                conn.execute(schema.schema_version.insert().values(version=number, applied_at=0))
    engine.dispose()
    store = new_store(url)
    with store.engine.connect() as conn:
        versions = conn.execute(select(schema.schema_version.c.version).order_by(schema.schema_version.c.version))
        assert versions.scalars().all() == list(range(1, len(schema.MIGRATIONS) + 1))
        assert "plays" in inspect(conn).get_table_names()


def test_sqlite_runs_in_wal_mode(tmp_path):
    with sqlite_store(tmp_path).engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"


def test_appends_get_consecutive_seq_and_state_follows(store):
    code = store.create_table("generic", PLAYERS, {}).table.code
    seqs = [add(store, code, "p1", 2)[0], add(store, code, "p2", 5)[0], add(store, code, "p1", -1)[0]]
    assert seqs == [1, 2, 3]
    snap = store.snapshot(code)
    assert snap.table.version == 3 and scores(snap) == {"p1": 1, "p2": 5}
    assert [e.seq for e in store.events(snap.table)] == [1, 2, 3]


def test_a_refused_event_leaves_the_log_unchanged(store):
    code = store.create_table("generic", PLAYERS, {}).table.code
    add(store, code, "p1", 1)
    with pytest.raises(RuleError) as error:
        store.append(code, {"type": "add", "player": "p1", "delta": "many"})
    assert error.value.field == "delta"
    assert store.snapshot(code).table.version == 1


def test_undo_takes_back_the_players_own_last_action_only(store):
    code = store.create_table("generic", PLAYERS, {}).table.code
    add(store, code, "p1", 3)
    add(store, code, "p1", 4)
    add(store, code, "p2", 10)
    seq, undone, snap, _ = store.undo(code, "p1")
    assert (seq, undone) == (4, 2)
    assert scores(snap) == {"p1": 3, "p2": 10}
    _, undone, snap, _ = store.undo(code, "p1")
    assert undone == 1 and scores(snap) == {"p1": 0, "p2": 10}
    with pytest.raises(Conflict, match="nothing to undo"):
        store.undo(code, "p1")
    types = [e.type for e in store.events(snap.table)]
    assert types == ["add", "add", "add", "undo", "undo"]  # history is never rewritten


def test_state_is_the_same_after_a_restart_without_the_cache(database_url):
    store = new_store(database_url)
    code = store.create_table("generic", PLAYERS, {}).table.code
    for delta in (1, 2, 3):
        add(store, code, "p2", delta)
    store.undo(code, "p2")
    assert scores(new_store(database_url).snapshot(code)) == scores(store.snapshot(code)) == {"p1": 0, "p2": 3}


def test_the_cache_catches_up_with_writes_from_another_process(database_url):
    first, second = new_store(database_url), new_store(database_url)
    code = first.create_table("generic", PLAYERS, {}).table.code
    add(first, code, "p1", 1)
    assert scores(second.snapshot(code))["p1"] == 1
    add(first, code, "p1", 1)
    first.undo(code, "p1")
    add(second, code, "p1", 5)
    assert scores(first.snapshot(code))["p1"] == 6


def test_a_snapshot_never_shows_events_newer_than_its_version(database_url, monkeypatch):
    """Another process appends between a reader's look at the table row and its read of the log: the
    snapshot's state must still be the state at the version it reports, and be cached as that."""
    reader, writer = new_store(database_url), new_store(database_url)
    code = writer.create_table("generic", PLAYERS, {}).table.code
    add(writer, code, "p1", 1)
    read_row = reader._table_by

    def row_then_another_write(conn, condition):
        table = read_row(conn, condition)
        monkeypatch.setattr(reader, "_table_by", read_row)  # once
        add(writer, code, "p1", 10)
        return table

    monkeypatch.setattr(reader, "_table_by", row_then_another_write)
    snap = reader.snapshot(code)
    assert (snap.table.version, scores(snap)["p1"]) in {(1, 1), (2, 11)}
    assert (reader.snapshot(code).table.version, scores(reader.snapshot(code))["p1"]) == (2, 11)


def test_stores_on_postgresql_never_keep_rows_in_memory_even_as_sole_writer(postgres_url):
    """`starpnp serve` asks every store to be the sole writer; on PostgreSQL, where several servers share the
    database, none may answer from memory: each sees the others' writes at once."""
    first, second = (Store(make_engine(postgres_url), all_rules(), sole_writer=True) for _ in range(2))
    code = first.create_table("generic", PLAYERS, {}).table.code
    assert second.version(code) == 0
    add(second, code, "p2", 4)
    assert first.version(code) == 1 and add(first, code, "p1", 1)[0] == 2
    assert second.version(code) == 2 and scores(second.snapshot(code)) == {"p1": 1, "p2": 4}


def test_unknown_codes_are_not_found(store):
    with pytest.raises(NotFound):
        store.snapshot("00000000")
    assert store.version("00000000") is None


def test_parallel_appends_are_atomic(store):
    code = store.create_table("generic", PLAYERS, {}).table.code

    def tap(player):
        for _ in range(50):
            add(store, code, player, 1)

    threads = [threading.Thread(target=tap, args=(p,)) for p in ("p1", "p2", "p1", "p2")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    snap = store.snapshot(code)
    assert scores(snap) == {"p1": 100, "p2": 100}
    assert [e.seq for e in store.events(snap.table)] == list(range(1, 201))


def test_the_secret_key_is_made_once_and_kept(database_url):
    assert new_store(database_url).secret_key() == new_store(database_url).secret_key()


def test_two_servers_starting_at_once_on_postgresql_share_one_secret_key(postgres_url, monkeypatch):
    """Both find no key and make one; the second to store it takes the first's (CSRF tokens signed by one
    process must pass in the other)."""
    first, second = new_store(postgres_url), new_store(postgres_url)
    make_key = storage.secrets.token_urlsafe
    keys = []

    def meanwhile_the_other_starts(size):
        monkeypatch.setattr(storage.secrets, "token_urlsafe", make_key)
        keys.append(first.secret_key())
        return make_key(size)

    monkeypatch.setattr(storage.secrets, "token_urlsafe", meanwhile_the_other_starts)
    assert second.secret_key() == keys[0] == first.secret_key()


def test_a_tap_retried_while_its_first_send_holds_the_table_is_stored_once(postgres_url):
    """The retry waits for the table's row lock while the first send writes the event and its tap; once
    it has the lock it must find that tap (a later statement), not append the event again."""
    first, second = new_store(postgres_url), new_store(postgres_url)
    code = first.create_table("generic", PLAYERS, {}).table.code
    results = []
    retry = threading.Thread(target=lambda: results.append(
        second.append(code, {"type": "add", "player": "p1", "delta": 1}, "tap-0042-abcd")))
    with first.engine.connect() as conn, conn.begin():
        table = first._locked_table(conn, code)
        retry.start()
        waiting = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        while conn.exec_driver_sql(waiting).scalar() == 0:
            assert retry.is_alive(), "the retry did not wait for the lock"
        first._insert(conn, table, "add", "p1", {"delta": 1}, None, "tap-0042-abcd")
    retry.join(30)
    assert [(seq, repeated) for seq, _, repeated in results] == [(1, True)]
    assert scores(second.snapshot(code)) == {"p1": 1, "p2": 0}


def sqlite_store(tmp_path, sole_writer=False):
    """Sole writers exist on SQLite only (what `starpnp serve` uses), so these ignore the test URL."""
    return Store(make_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}"), all_rules(), sole_writer=sole_writer)


def sole_writer_store(tmp_path):
    return sqlite_store(tmp_path, sole_writer=True)


def test_a_sole_writer_locks_the_file_so_a_second_one_cannot_start(tmp_path):
    first = sole_writer_store(tmp_path)
    with pytest.raises(Conflict, match="another starpnp server is using this data directory"):
        sole_writer_store(tmp_path)
    sqlite_store(tmp_path)  # a store that is not the sole writer (a test, a script) may still open it
    del first
    gc.collect()  # the lock goes with the store (and with the process, kill -9 included)
    sole_writer_store(tmp_path)


def test_a_sole_writer_answers_versions_from_memory_and_they_match_the_database(tmp_path):
    writer = sole_writer_store(tmp_path)
    reader = sqlite_store(tmp_path)  # reads the file itself, never the writer's memory
    code = writer.create_table("generic", PLAYERS, {}).table.code
    assert writer.version(code) == reader.version(code) == 0
    threads = [threading.Thread(target=lambda p=p: [add(writer, code, p, 1) for _ in range(25)])
               for p in ("p1", "p2", "p1", "p2")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    writer.undo(code, "p1")
    assert writer.version(code) == reader.version(code) == 101
    assert scores(reader.snapshot(code)) == scores(writer.snapshot(code)) == {"p1": 49, "p2": 50}
    assert [e.seq for e in reader.events(reader.table(code))] == list(range(1, 102))
    assert writer.version("0000AAAA") is None


def test_a_sole_writer_started_on_an_existing_file_reads_versions_from_it(tmp_path):
    code = sqlite_store(tmp_path).create_table("generic", PLAYERS, {}).table.code
    add(sqlite_store(tmp_path), code, "p1", 3)
    writer = sole_writer_store(tmp_path)
    assert writer.version(code) == 1
    assert add(writer, code, "p2", 1)[0] == 2
    assert sqlite_store(tmp_path).version(code) == 2


def test_a_repeated_tap_is_stored_once_and_answered_with_its_first_seq(store):
    """A phone retries a tap whose answer was lost: the same client_id, so nothing is appended twice."""
    code = store.create_table("generic", PLAYERS, {}).table.code
    tap = {"type": "add", "player": "p1", "delta": 2}
    first = store.append(code, dict(tap), "tap-0001-abcd")
    again = store.append(code, dict(tap), "tap-0001-abcd")
    assert (first[0], first[2]) == (1, False) and (again[0], again[2]) == (1, True)
    assert len(store.events(store.table(code))) == 1 and scores(again[1]) == {"p1": 2, "p2": 0}
    assert store.append(code, dict(tap), "tap-0002-abcd")[0] == 2  # another tap, another event
    undo = store.undo(code, "p1", "undo-0003-abcd")
    assert store.undo(code, "p1", "undo-0003-abcd")[:2] == undo[:2] and undo[1] == 2
    assert scores(store.snapshot(code)) == {"p1": 2, "p2": 0}


def test_two_phones_sending_the_same_tap_at_once_store_it_once(store):
    code = store.create_table("generic", PLAYERS, {}).table.code
    results = []

    def send():
        results.append(store.append(code, {"type": "add", "player": "p1", "delta": 1}, "same-tap-xyz"))

    threads = [threading.Thread(target=send) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(r[2] for r in results) == [False] + [True] * 7 and {r[0] for r in results} == {1}
    assert scores(store.snapshot(code)) == {"p1": 1, "p2": 0}


def test_a_table_hosted_before_v7_keeps_its_host_and_seats(tmp_path):
    """v7 made the host role a seat: a database made by v6, its host token in `hosts` and a seat held, starts
    with the same host (its token still answers requests) and the same seat holder, reading all it sealed."""
    import hashlib
    import time

    from sqlalchemy import create_engine, insert

    url = f"sqlite:///{tmp_path / 'v6.sqlite3'}"
    engine = create_engine(url)
    with engine.begin() as conn:
        schema.schema_version.create(conn)
        for number, migration in enumerate(schema.MIGRATIONS[:6], start=1):
            migration(conn)
            conn.execute(schema.schema_version.insert().values(version=number, applied_at=0))
        table_id = conn.execute(insert(schema.tables).values(
            code="7K2MQX4P", watch_code="7K2MQX4Q", game="generic", players='[{"id": "p1", "name": "Ann", '
            '"color": "red"}, {"id": "p2", "name": "Ben", "color": "blue"}]', options="{}", version=0,
            created_at=0, updated_at=0)).inserted_primary_key[0]
        digest = lambda token: hashlib.sha256(token.encode()).hexdigest()  # noqa: E731
        conn.exec_driver_sql("INSERT INTO hosts (table_id, token_hash) VALUES (?, ?)", (table_id, digest("host-1")))
        conn.exec_driver_sql("INSERT INTO seats (table_id, token_hash, player, created_at) VALUES (?, ?, ?, ?)",
                             (table_id, digest("ann-1"), "p1", time.time()))
    engine.dispose()
    store = new_store(url)
    assert store.is_host("7K2MQX4P", "host-1") and store.holding("7K2MQX4P", "ann-1") == ("p1", None, 0)
    token, asked = store.join("7K2MQX4P", "p1", take_over=True)
    assert store.grant("7K2MQX4P", "p1", asked.number, host="host-1").request == asked
    assert store.seat("7K2MQX4P", token) == "p1" and store.seat("7K2MQX4P", "ann-1") is None
