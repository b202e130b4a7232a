"""What only the PostgreSQL store has: opening by URL, the CLI on a URL, migrating a SQLite
class file, pushed changes, the schema guard. The shared behaviour is in the other test
files, which run against both stores (``store`` fixture in conftest.py)."""

import json
import os
import subprocess
import sys
import threading
import time

import psycopg
import pytest

from hexclass.classroom.combined_arms import EndPhase, legal_actions
from hexclass.classroom.sessions import (
    GameFollower,
    SQLiteStore,
    create_class,
    open_console,
    open_store,
)
from hexclass.classroom.sessions.locate import describe, for_children, is_postgres, sqlite_path
from hexclass.classroom.sessions.migrate import MigrationError, migrate
from hexclass.classroom.sessions.pg_store import PostgresStore, masked_url
from hexclass.classroom.sessions.store import StoreError

from .helpers import first_enter, notifications_delivered, play, replayed
from .test_cli import ROOT, hexclass


def test_locations_pick_the_store_by_their_form(tmp_path, pg_url):
    assert is_postgres(pg_url) and not is_postgres(str(tmp_path / "c.db"))
    assert sqlite_path(f"sqlite:///{tmp_path}/a.db") == tmp_path / "a.db"
    assert sqlite_path("sqlite:///rel/a.db").is_absolute() is False
    with pytest.raises(ValueError, match="sqlite:///path"):
        sqlite_path("sqlite:/x.db")
    with open_store(pg_url) as s:
        assert isinstance(s, PostgresStore)
    with open_store(f"sqlite:///{tmp_path}/b.db") as s:
        assert isinstance(s, SQLiteStore) and s.path == tmp_path / "b.db"
    assert for_children(pg_url) == pg_url  # kernels get the URL as it is
    url = "postgresql://teacher:s3cret@db.school:5432/hexclass"
    assert describe(url) == masked_url(url) == "postgresql://teacher:***@db.school:5432/hexclass"


# The store waits POOL_TIMEOUT (10 s) for a connection before it gives up: right for a
# server restarting, but these tests would wait it out twice; they give up after 1 s.
SHORT_POOL_TIMEOUT = 1.0
QUICK_CLI = (
    "import sys; import hexclass.classroom.sessions.pg_store as p; "
    f"p.POOL_TIMEOUT = {SHORT_POOL_TIMEOUT}; "
    "from hexclass.classroom.cli import main; sys.exit(main(sys.argv[1:]))"
)


def hexclass_quick(*args):
    """``hexclass ARGS`` as :func:`.test_cli.hexclass` runs it, with the short pool timeout."""
    env = dict(os.environ)
    env.pop("HEXCLASS_STORE", None)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [sys.executable, "-c", QUICK_CLI, *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=180)


def test_an_unreachable_server_is_a_clear_error(tmp_path, monkeypatch):
    from hexclass.classroom.sessions import pg_store

    monkeypatch.setattr(pg_store, "POOL_TIMEOUT", SHORT_POOL_TIMEOUT)
    url = f"postgresql:///nowhere?host={tmp_path}&connect_timeout=1"
    t0 = time.monotonic()
    with pytest.raises(ConnectionError, match="cannot connect to PostgreSQL"):
        PostgresStore(url)
    assert time.monotonic() - t0 < 30
    out = hexclass_quick("class", "new", "--teams", "1", "--store", url)
    assert out.returncode == 2 and "--store: cannot open" in out.stderr
    assert "Traceback" not in out.stderr


def test_class_new_and_links_on_a_url_from_the_option_and_the_environment(pg_url):
    out = hexclass("class", "new", "--teams", "2", "--store", pg_url, "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["store"] == pg_url
    again = hexclass("class", "links", "--class", str(data["class_id"]), "--json", env_store=pg_url)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["teams"] == data["teams"]
    with PostgresStore(pg_url) as store:
        console = open_console(store, data["instructor"]["token"])
        assert [g.team for g in console.games()] == [1, 2]
    missing = hexclass("class", "links", "--class", "99", env_store=pg_url)
    assert missing.returncode == 2 and "there is no class 99" in missing.stderr


def _played_sqlite_class(path):
    """A SQLite class with actions, messages, a queue, ready flags and instructor entries."""
    with SQLiteStore(path) as s:
        made = create_class(s, teams=3, different_seeds=True)
        other = create_class(s, teams=1, seats=6)
        g1, g2 = made.teams[0].game_id, made.teams[1].game_id
        for seat in ("D", "E", "armour"):
            play(s, g1, seat, first_enter(s.state(g1), seat))
        play(s, g1, "support", EndPhase("support"))
        for _ in range(3):
            state = s.state(g2)
            seat = next(x for x in ("D", "E", "F") if legal_actions(state, x))
            play(s, g2, seat, legal_actions(state, seat)[0])
        s.post_message(g1, "D", "D1 in the wood")
        s.post_message(g1, "instructor", "good")
        r = s.request_turn(g2, "E", "E2 next")
        s.decide_request(g2, "support", r.value, True)
        s.request_turn(g2, "F")
        s.set_ready(g2, "D")
        s.heartbeat(g1, "E", "tab")
        s.set_game_status(made.teams[2].game_id, "paused")
        s.set_class_paused(other.class_id, True)
        return made, other


def test_migrate_copies_every_row_and_replays_identically(tmp_path, pg_url):
    db = tmp_path / "class.db"
    made, other = _played_sqlite_class(db)
    out = hexclass("class", "migrate", "--from", str(db), "--to", pg_url)
    assert out.returncode == 0, out.stderr
    assert "4 games replayed identically (7 actions)" in out.stdout
    with SQLiteStore(db) as a, PostgresStore(pg_url) as b:
        for c in (made, other):
            assert b.tokens(c.class_id) == a.tokens(c.class_id)
        g1 = made.teams[0].game_id
        assert b.state(g1).snapshot() == a.state(g1).snapshot() == replayed(b, g1).snapshot()
        assert [m.text for m in b.messages(g1)] == ["D1 in the wood", "good"]
        # the games go on in PostgreSQL, with new ids after the copied ones
        assert b.post_message(g1, "E", "next").value.id > a.messages(g1)[-1].id
        play(b, g1, "support", EndPhase("support"))
        assert b.version(g1) == a.version(g1) + 1
        new = create_class(b, teams=1)
        assert new.class_id > other.class_id and new.teams[0].game_id > g1
    # a second copy into the same database is refused, and changes nothing
    again = hexclass("class", "migrate", "--from", str(db), "--to", pg_url)
    assert again.returncode == 2 and "already has class" in again.stderr
    with PostgresStore(pg_url) as b:
        assert len(b.classes()) == 3


def test_migrate_refuses_bad_input_without_a_traceback(tmp_path, pg_url):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database" * 100)
    for args, words in (
        (("--from", str(tmp_path / "none.db"), "--to", pg_url), "there is no file"),
        (("--from", str(junk), "--to", pg_url), "not a hexclass class file"),
        (("--from", str(junk), "--to", str(tmp_path / "x.db")), "expected a postgresql:// URL"),
    ):
        out = hexclass("class", "migrate", *args)
        assert out.returncode == 2 and words in out.stderr, out.stderr
        assert "Traceback" not in out.stderr
    assert junk.read_bytes() == b"not a database" * 100


def test_migrate_checks_the_copy_and_rolls_back_a_difference(tmp_path, pg_url, monkeypatch):
    db = tmp_path / "class.db"
    _played_sqlite_class(db)
    from hexclass.classroom.sessions import migrate as m

    real = m._copy

    def corrupting_copy(target, rows):
        rows["actions"][0] = (*rows["actions"][0][:3], '{"type": "EndPhase", "seat": "D"}',
                              *rows["actions"][0][4:])  # fmt: skip
        real(target, rows)

    monkeypatch.setattr(m, "_copy", corrupting_copy)
    with pytest.raises(MigrationError, match="differs between the two stores"):
        migrate(db, pg_url)


def test_the_log_refuses_truncate_too(pg_url):
    with PostgresStore(pg_url) as store:
        game = create_class(store, teams=1).teams[0].game_id
        play(store, game, "support", EndPhase("support"))
        with (
            psycopg.connect(pg_url, autocommit=True) as raw,
            pytest.raises(psycopg.errors.RaiseException, match="append-only"),
        ):
            raw.execute("TRUNCATE actions CASCADE")
        assert store.version(game) == 1 and store.integrity() == []


def test_a_newer_schema_is_refused(pg_url):
    PostgresStore(pg_url).close()
    with psycopg.connect(pg_url, autocommit=True) as raw:
        raw.execute("UPDATE hexclass_schema SET version = 99")
    with pytest.raises(StoreError, match="schema version 99 is newer"):
        PostgresStore(pg_url)


def test_a_change_from_another_process_is_pushed_not_polled(pg_url):
    """The follower's token moves when the NOTIFY arrives; no query is made while idle."""
    import subprocess
    import sys

    with PostgresStore(pg_url) as store:
        made = create_class(store, teams=1)
        g = made.teams[0].game_id
        f = GameFollower(store, g, presence_every=3600)
        notifications_delivered(store)  # the class's own NOTIFYs must not be what wakes it
        token = f._reader.change_token()
        calls = []
        real = f._reader._read
        f._reader._read = lambda *a, **k: calls.append(a) or real(*a, **k)
        woke = threading.Event()

        def wait():
            f._reader.wait_for_change(token, 120)
            woke.set()

        threading.Thread(target=wait, daemon=True).start()
        code = (
            "import sys; from hexclass.classroom.sessions.pg_store import PostgresStore;"
            "from hexclass.classroom.combined_arms import EndPhase;"
            "s = PostgresStore(sys.argv[1]); print(s.submit(int(sys.argv[2]), 0, 'support',"
            " EndPhase('support')).ok); s.close()"
        )
        out = subprocess.run(
            [sys.executable, "-c", code, pg_url, str(g)],
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert out.stdout.strip() == "True", out.stderr
        assert woke.wait(60), "the NOTIFY never woke the follower"
        assert calls == []  # nothing was polled while waiting
        u = f.poll()
        assert u.board_changed and f.version == 1
        f.close()
