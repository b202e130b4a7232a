"""One co-op store over two SQL backends (issue 28, item 1).

The sequences (submit, messages, the queue, the instructor's changes, secrets at rest)
are written once in ``sql_store.SQLStore``; SQLite and PostgreSQL keep only SQL and
connections. ``wait_for_change`` is every store's, so followers call it without asking.
"""

from __future__ import annotations

import threading
import time

from hexclass.classroom.sessions import ClassFollower, GameFollower
from hexclass.classroom.sessions.sql_store import SQLStore
from hexclass.classroom.sessions.sqlite_store import SQLiteStore
from hexclass.classroom.sessions.store import ClassStore

# what a backend may define itself: connections, transactions, the change signal, its schema
BACKEND_ONLY = {
    "change_token",
    "close",
    "connection_state",
    "follower_snapshot",
    "integrity",
    "now",
    "reader",
    "wait_for_change",
}


def _public_interface() -> set[str]:
    names = set()
    for cls in ClassStore.__mro__:
        names |= {n for n in vars(cls) if not n.startswith("_") and callable(vars(cls)[n])}
    return names


def test_the_backends_write_no_sequence_of_their_own():
    from hexclass.classroom.sessions.pg_store import PostgresStore

    interface = _public_interface() | {"hidden", "messages_sent"}
    assert {"submit", "post_message", "create_class", "lookup_token"} <= interface
    for backend in (SQLiteStore, PostgresStore):
        assert issubclass(backend, SQLStore)
        own = {n for n in vars(backend) if n in interface}
        assert own <= BACKEND_ONLY, (backend.__name__, own - BACKEND_ONLY)


def test_every_store_waits_for_a_change_and_says_whether_it_is_pushed(store, store_kind, made):
    assert store.pushes_changes is (store_kind == "postgresql")
    t0 = time.monotonic()
    store.wait_for_change(store.change_token(), 0.05)  # nothing changes: back by the timeout
    assert time.monotonic() - t0 < 5


def test_a_class_follower_waits_on_its_store(store, store_kind, made, new_store):
    cf = ClassFollower(store, made.class_id)
    cf.poll()
    seen = []
    real = cf._reader.wait_for_change
    cf._reader.wait_for_change = lambda token, timeout: seen.append(token) or real(token, timeout)
    woke = threading.Event()

    def wait():
        cf.wait_for_change(60 if store_kind == "postgresql" else 0.05)
        woke.set()

    threading.Thread(target=wait, daemon=True).start()
    other = new_store()
    other.post_message(made.teams[1].game_id, "D", "over here")  # another kernel writes
    assert woke.wait(30), "a pushed change did not wake the class follower"
    assert seen == [cf._token]
    cf.close()


def test_a_game_follower_waits_with_its_token(store, game):
    f = GameFollower(store, game)
    seen = []
    f._reader.wait_for_change = lambda token, timeout: seen.append((token, timeout))
    f.wait_for_change(0.25)
    assert seen == [(f._token, 0.25)]
    f.close()
