"""Store faults in plain words with the file: read-only, full, damaged, locked; from the
library, the CLI (no traceback) and a seat page's order."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest

from hexclass.classroom.combined_arms import EndPhase
from hexclass.classroom.sessions import create_class
from hexclass.classroom.sessions.sqlite_store import SQLiteStore, StoreBusy
from hexclass.classroom.sessions.store import Refusal, StoreError


def _sqlite(tmp_path, **kw):
    return SQLiteStore(tmp_path / "class.db", **kw)


def test_a_damaged_file_names_itself(tmp_path):
    bad = tmp_path / "class.db"
    bad.write_bytes(b"this is not a database, it is a shopping list\n" * 100)
    with pytest.raises(StoreError) as err:
        SQLiteStore(bad)
    assert str(bad) in str(err.value) and "damaged or is not a hexclass store" in str(err.value)


def test_a_read_only_store_says_so_and_changes_nothing(tmp_path):
    s = _sqlite(tmp_path)
    made = create_class(s, teams=1, seed=3)
    s._conn.execute("PRAGMA query_only = ON")  # what a read-only file gives (root ignores chmod)
    with pytest.raises(StoreError, match="is read-only") as err:
        create_class(s, teams=1, seed=4)
    assert str(s.path) in str(err.value)
    with pytest.raises(StoreError, match="is read-only"):
        s.submit(made.teams[0].game_id, 0, "support", EndPhase("support"))
    other = s.reader()
    assert len(other.classes()) == 1 and other.version(made.teams[0].game_id) == 0
    other.close()
    s.close()


def test_a_full_disk_says_so_and_changes_nothing(tmp_path):
    s = _sqlite(tmp_path)
    pages = s._conn.execute("PRAGMA page_count").fetchone()[0]
    s._conn.execute(f"PRAGMA max_page_count = {pages}")  # SQLITE_FULL, as on a full disk
    made = 0
    with pytest.raises(StoreError, match="the disk is full") as err:
        for made in range(1, 200):  # noqa: B007 - the count made before the disk filled
            create_class(s, teams=6, seed=4)
    assert str(s.path) in str(err.value)
    other = s.reader()
    assert len(other.classes()) == made - 1  # the class that did not fit left nothing
    other.close()
    s.close()


def test_a_locked_store_is_busy_for_orders_and_plain_for_everything_else(tmp_path):
    s = _sqlite(tmp_path, busy_timeout=0.2)
    made = create_class(s, teams=1, seed=3)
    game = made.teams[0].game_id
    hog = sqlite3.connect(s.path, timeout=0.1, isolation_level=None)
    hog.execute("BEGIN EXCLUSIVE")
    try:
        r = s.submit(game, 0, "support", EndPhase("support"))
        assert not r.ok and r.kind is Refusal.BUSY
        with pytest.raises(StoreBusy, match="stayed locked by another process"):
            create_class(s, teams=1, seed=4)
    finally:
        hog.execute("ROLLBACK")
        hog.close()
    assert s.submit(game, 0, "support", EndPhase("support")).ok
    s.close()


def _cli(*args, **kw):
    return subprocess.run(
        [sys.executable, "-m", "hexclass.classroom.cli", "class", *args],
        capture_output=True,
        text=True,
        timeout=120,
        **kw,
    )


def test_class_new_on_a_locked_store_ends_in_a_sentence_not_a_traceback(tmp_path):
    s = _sqlite(tmp_path)
    hog = sqlite3.connect(s.path, timeout=0.1, isolation_level=None)
    hog.execute("BEGIN EXCLUSIVE")
    try:
        out = _cli(
            "new",
            "--teams",
            "1",
            "--store",
            str(s.path),
            env=_env(),  # waits out the 10 s busy timeout, then says so
        )
    finally:
        hog.execute("ROLLBACK")
        hog.close()
        s.close()
    assert out.returncode != 0 and "Traceback" not in out.stderr, out.stderr
    assert str(s.path) in out.stderr


def test_class_new_on_a_damaged_store_ends_in_a_sentence(tmp_path):
    bad = tmp_path / "class.db"
    bad.write_bytes(b"\x00garbage" * 1000)
    out = _cli("new", "--teams", "1", "--store", str(bad), env=_env())
    assert out.returncode != 0 and "Traceback" not in out.stderr
    assert str(bad) in out.stderr and "damaged" in out.stderr


def _env():
    import os

    return dict(os.environ)


def test_a_seat_page_on_a_damaged_store_says_so_without_a_traceback(tmp_path, monkeypatch):
    from hexclass.widgets.coop_seat import seat_page

    bad = tmp_path / "class.db"
    bad.write_bytes(b"\x00garbage" * 1000)
    monkeypatch.setenv("HEXCLASS_STORE", str(bad))
    page = seat_page("A" * 32)
    assert "cannot be used" in page.value and "damaged" in page.value and str(bad) in page.value


def test_the_new_class_form_on_a_read_only_store_says_so(tmp_path):
    from hexclass.widgets.coop_console import NewClassForm

    s = _sqlite(tmp_path)
    s._conn.execute("PRAGMA query_only = ON")
    form = NewClassForm(s, "http://127.0.0.1:8866")
    form.create_button.click()
    assert "No class was created" in form.notice.value and "read-only" in form.notice.value
    s.close()


# --- the PostgreSQL store: the same plain words, with the (masked) URL ------------------------


def _with_option(url: str, option: str) -> str:
    """``url`` with one more server setting in libpq's ``options`` (space separated)."""
    return url + "%20-c" + option.replace("=", "%3D")


def test_a_read_only_postgresql_store_says_so_and_changes_nothing(pg_url):
    from hexclass.classroom.sessions.pg_store import PostgresStore

    s = PostgresStore(pg_url)
    made = create_class(s, teams=1, seed=3)
    game = made.teams[0].game_id
    ro = PostgresStore(_with_option(pg_url, "default_transaction_read_only=on"))
    try:
        with pytest.raises(StoreError, match="is read-only") as err:
            create_class(ro, teams=1, seed=4)
        assert "postgresql://" in str(err.value) and "ReadOnlySqlTransaction" in str(err.value)
        with pytest.raises(StoreError, match="is read-only"):
            ro.submit(game, 0, "support", EndPhase("support"))
        assert len(s.classes()) == 1 and s.version(game) == 0  # nothing half-written
        assert ro.version(game) == 0  # and reading still works
    finally:
        ro.close()
        s.close()


def test_a_missing_postgresql_database_is_named(pg_server):
    from hexclass.classroom.sessions.pg_store import PostgresStore, StoreUnavailable

    with pytest.raises(StoreUnavailable, match='database "no_such_class" does not exist'):
        PostgresStore(pg_server.url("no_such_class"))


def test_class_new_on_a_read_only_postgresql_store_ends_in_a_sentence(pg_url):
    url = _with_option(pg_url, "default_transaction_read_only=on")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "hexclass.classroom.cli",
            "class",
            "new",
            "--teams",
            "1",
            "--store",
            url,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode != 0 and "Traceback" not in run.stderr, run.stderr
    assert "is read-only" in run.stderr and "nothing was changed" in run.stderr
