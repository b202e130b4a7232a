"""On PostgreSQL, seat kernels connect as a role that cannot read a sealed column
(classroom/sessions/pg_roles.py), and their seat still follows and plays."""

from __future__ import annotations

import os
import threading

import pytest

from hexclass.classroom.sessions import create_class, open_seat
from hexclass.classroom.sessions.hidden import Referee

from .helpers import first_enter

psycopg = pytest.importorskip("psycopg")

SEED = 7_344_421_904_117_735_113


@pytest.fixture
def keyed(pg_url):
    from hexclass.classroom.sessions.pg_store import PostgresStore

    store = PostgresStore(pg_url)
    yield store
    store.close()


@pytest.fixture
def referee(pg_url):
    from hexclass.classroom.sessions.pg_store import PostgresStore

    store = PostgresStore(pg_url)
    stop = threading.Event()
    thread = threading.Thread(target=Referee(store).run, args=(stop, 0.005), daemon=True)
    thread.start()
    yield
    stop.set()
    thread.join(10)
    store.close()


def _refused(conn, statement: str) -> bool:
    """Whether PostgreSQL refuses ``statement`` for lack of a privilege."""
    try:
        conn.execute(statement)
    except psycopg.errors.InsufficientPrivilege:
        conn.rollback()
        return True
    conn.rollback()
    return False


def test_the_seat_role_reads_no_sealed_column_and_writes_only_a_seats_rows(pg_url, keyed):
    from hexclass.classroom.sessions import pg_roles

    made = create_class(keyed, teams=1, seed=SEED)
    g = made.teams[0].game_id
    url = pg_roles.ensure_seat_role(pg_url)
    assert pg_roles.ensure_seat_role(pg_url) == url  # made again at every start: the same
    with psycopg.connect(pg_url) as conn:
        schema = conn.execute("SELECT current_schema()").fetchone()[0]
    role = pg_roles.seat_role(pg_url, schema)
    assert f"{role}:" in url
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT current_user").fetchone()[0] == role
        # the tables themselves: every sealed column refused
        for table, columns in pg_roles.SEALED_COLUMNS.items():
            for column in columns:
                assert _refused(conn, f"SELECT {column} FROM {schema}.{table}"), column
        assert _refused(conn, f"SELECT * FROM {schema}.games")
        assert _refused(conn, "SELECT data FROM instructor_log")
        assert _refused(conn, "SELECT probe FROM store_key")
        # ... and the views the store's queries read: the same rows, the sealed columns NULL
        row = conn.execute("SELECT seed, seed_sealed, team FROM games WHERE id = %s", (g,))
        assert row.fetchone() == (None, None, 1)
        sealed = conn.execute("SELECT token_sealed FROM seats").fetchall()
        assert sealed and {r[0] for r in sealed} == {None}
        assert conn.execute("SELECT instructor_sealed FROM classes").fetchall() == [(None,)]
        conn.rollback()
        # writes a seat does not make
        for statement in (
            f"INSERT INTO actions (game_id, version, seat, action, turn, phase, at) "
            f"VALUES ({g}, 1, 'D', '{{}}', 1, 'x', 0)",
            f"UPDATE games SET status = 'ended' WHERE id = {g}",
            "UPDATE classes SET paused = true",
            "UPDATE seats SET token = 'x'",
            f"INSERT INTO hidden_views (game_id, audience, version, state) VALUES ({g}, 'x', 9, '')",
            "UPDATE hidden_orders SET status = 'accepted'",
            f"DELETE FROM messages WHERE game_id = {g}",
        ):
            assert _refused(conn, statement), statement
    with psycopg.connect(pg_url) as conn:  # the server's own role reads them all
        assert conn.execute("SELECT seed_sealed FROM games").fetchone()[0] is not None


def test_a_seat_kernel_connected_as_the_seat_role_follows_and_plays(pg_url, keyed, referee):
    from hexclass.classroom.sessions import pg_roles
    from hexclass.classroom.sessions.pg_store import PostgresStore

    made = create_class(keyed, teams=1, seed=SEED)
    g = made.teams[0].game_id
    tokens = {s.seat: s.token for s in made.teams[0].seats}
    kernel = PostgresStore(pg_roles.ensure_seat_role(pg_url), key=None)
    try:
        seat = open_seat(kernel, tokens["D"])  # the token's hash, read through the view
        follower = seat.follower()
        enter = first_enter(follower.state, "D")
        result = seat.submit(follower.version, enter)
        assert result.ok and result.version == 1
        assert seat.say("hello from the seat role").ok
        assert kernel.set_ready(g, "D").ok and kernel.heartbeat(g, "D", "page-1").ok
        assert kernel.hold_seat(g, "D", "page-1").ok
        kernel.request_turn(g, "D", "may I?")  # a missing privilege would raise StoreError
        kernel.close_request(g, "D")
        assert keyed.version(g) == 1 and keyed.messages(g)[-1].text == "hello from the seat role"
        assert kernel.game(g).seed is None
    finally:
        kernel.close()


def test_keyless_kernels_get_the_seat_roles_url(monkeypatch):
    from hexclass.classroom import server

    served = "postgresql://srv:pw@db.school/class"
    monkeypatch.setitem(server._SEAT_STORE, served, "postgresql://seat:pw2@db.school/class")
    env = {"HEXCLASS_STORE": served, "HEXCLASS_KEY_FILE": "/k", "PGPASSWORD": "pw"}
    seat = server.kernel_env({**env, "SCRIPT_NAME": "/voila/render/classroom/pages/seat.ipynb"})
    pool = server.kernel_env({**env, "VOILA_PREHEAT": "True"})
    teacher = server.kernel_env(
        {**env, "SCRIPT_NAME": "/voila/render/classroom/pages/instructor.ipynb"}
    )
    assert (
        seat["HEXCLASS_STORE"] == pool["HEXCLASS_STORE"] == "postgresql://seat:pw2@db.school/class"
    )
    assert teacher["HEXCLASS_STORE"] == served and teacher["PGPASSWORD"] == "pw"
    assert "PGPASSWORD" not in seat and "PGPASSWORD" not in pool
    monkeypatch.setenv("HEXCLASS_STORE", served)
    monkeypatch.setenv("HEXCLASS_KEY_FILE", "/srv/k.key")
    hidden = server.key_files()
    assert "/srv/k.key" in hidden and os.path.expanduser("~/.pgpass") in hidden


def test_the_servers_command_line_carries_no_postgresql_password():
    """Any process, a seat kernel too, can read another's command line (/proc/<pid>/cmdline)."""
    from hexclass.classroom.serve import voila_command

    cmd = voila_command(8866, "127.0.0.1", store="postgresql://srv:s3cret@db.school/class")
    assert not [arg for arg in cmd if "s3cret" in arg]
    on_file = voila_command(8866, "127.0.0.1", store="/srv/class.db")
    assert "--HexclassKernelManager.store_path=/srv/class.db" in on_file
