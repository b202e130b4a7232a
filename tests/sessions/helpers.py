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
