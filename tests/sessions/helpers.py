"""Small helpers shared by the co-op tests."""

from __future__ import annotations

from classroom.combined_arms import EndPhase, Enter, legal_actions
from classroom.sessions.store import initial_state


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
    from classroom.combined_arms import apply

    state = initial_state(store.game(game_id))
    for step in store.actions(game_id):
        apply(state, step.action)
    return state
