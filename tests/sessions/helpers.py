"""Small helpers shared by the co-op tests."""

from __future__ import annotations

import contextlib
import sqlite3

from hexclass.classroom.combined_arms import EndPhase, Enter, legal_actions
from hexclass.classroom.sessions.store import initial_state


def first_enter(state, seat: str) -> Enter:
    """A legal Enter for ``seat`` in the move phase."""
    return next(a for a in legal_actions(state, seat) if isinstance(a, Enter))


def play(store, game_id: int, seat: str, action):
    """Submit at the current version and insist it is accepted."""
    r = store.submit(game_id, store.version(game_id), seat, action)
    assert r.ok, r
    return r


def to_fire_phase(store, game_id: int) -> None:
    play(store, game_id, "support", EndPhase("support"))


def replayed(store, game_id: int):
    """The game rebuilt from its spec and the logged actions alone (no store cache)."""
    from hexclass.classroom.combined_arms import apply

    state = initial_state(store.game(game_id))
    for step in store.actions(game_id):
        apply(state, step.action)
    return state


@contextlib.contextmanager
def raw_connection(location: str):
    """A plain driver connection to a store's data (a file path or a postgresql:// URL),
    in autocommit mode, to try what the store itself never does."""
    if location.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(location, autocommit=True) as conn:
            yield conn
    else:
        conn = sqlite3.connect(location, isolation_level=None)
        try:
            yield conn
        finally:
            conn.close()


def notifications_delivered(store, timeout: float = 30.0) -> None:
    """Wait until a PostgreSQL store's listener has taken in every NOTIFY sent so far.

    A store bumps its own commits at once and the NOTIFY of the same commit arrives later
    (late on a busy machine), so a test that counts reads must let those arrive first. A
    sentinel is sent on the same channel; PostgreSQL delivers a channel in commit order, so
    once the listener has seen the sentinel it has seen everything before it. SQLite has no
    listener: nothing to wait for."""
    backend = getattr(store, "_backend", None)
    if backend is None or not backend.listen:
        return
    with backend._cond:
        epoch = backend.epoch
    from hexclass.classroom.sessions.pg_store import CHANNEL

    with store._conn(transaction=False) as conn:
        conn.execute(f"NOTIFY {CHANNEL}, 'sentinel'")  # no game in it: the listener bumps epoch
    with backend._cond:
        assert backend._cond.wait_for(lambda: backend.epoch > epoch, timeout), "no NOTIFY came"
