"""Fixtures for the co-op store tests, run against both stores.

``store`` is a fresh SQLite file, then a fresh PostgreSQL schema on the session's
server (``pg_server`` in tests/conftest.py); ``new_store()`` opens another handle on
the same data (as another kernel would), optionally with a test clock.
"""

from __future__ import annotations

import pytest

from hexclass.classroom.sessions import create_class
from hexclass.classroom.sessions.sqlite_store import SQLiteStore

STORES = ("sqlite", "postgresql")


@pytest.fixture(autouse=True)
def store_key_file(tmp_path_factory, monkeypatch):
    """The stores' key (sealed.py) in a file of the test's own, not in ~/.hexclass."""
    path = tmp_path_factory.mktemp("key") / "store.key"
    monkeypatch.setenv("HEXCLASS_KEY_FILE", str(path))
    monkeypatch.delenv("HEXCLASS_KEY", raising=False)
    monkeypatch.delenv("HEXCLASS_KEYLESS", raising=False)
    return path


@pytest.fixture(params=STORES)
def store_kind(request) -> str:
    return request.param


@pytest.fixture
def store_location(request, store_kind, tmp_path) -> str:
    """Where the test's store lives: a file path or a postgresql:// URL."""
    if store_kind == "sqlite":
        return str(tmp_path / "class.db")
    return request.getfixturevalue("pg_url")


@pytest.fixture
def new_store(store_kind, store_location):
    """Open (another) store handle on the test's data; all are closed at the end."""
    opened = []

    def make(clock=None):
        if store_kind == "sqlite":
            s = SQLiteStore(store_location, clock=clock)
        else:
            from hexclass.classroom.sessions.pg_store import PostgresStore

            s = PostgresStore(store_location, clock=clock)
        opened.append(s)
        return s

    yield make
    for s in opened:
        s.close()


@pytest.fixture
def store(new_store):
    return new_store()


@pytest.fixture
def made(store):
    """One class of two teams on seed 7, five seats each."""
    return create_class(store, teams=2, seed=7)


@pytest.fixture
def game(made):
    """Team 1's game id."""
    return made.teams[0].game_id
