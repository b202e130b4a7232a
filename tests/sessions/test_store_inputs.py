"""Malformed input at the store: refused before the write lock, never logged, never
bricking the game for the other processes (issue: a float hex once stopped every replay)."""

from __future__ import annotations

import pytest

from hexclass.classroom.combined_arms import DeclareFire, Enter, Face
from hexclass.classroom.sessions.store import Refusal

BAD = [
    Enter("D", "D1", (-3.0, 0.0)),
    Enter("D", ["D1"], (-3, 0)),
    Face("D", "D1", 2.0),
    DeclareFire("D", (0, 5), ["D1"]),
    {"type": "Enter", "seat": "D", "unit": "D1", "to": [-3.0, 0.0]},
    {"type": "Enter", "seat": "D", "unit": "D1", "to": [-3, 0], "facin": None},
    {"type": "DeclareFire", "seat": "D", "target": [0, 5], "firers": ["D1"], "resolve": "no"},
    {"type": "EndPhase", "seat": ["D"]},
]


@pytest.mark.parametrize("action", BAD, ids=range(len(BAD)))
def test_a_malformed_action_is_refused_and_the_game_still_replays(store, game, action):
    r = store.submit(game, 0, "D", action)
    assert not r.ok and r.kind is Refusal.BAD_ACTION and "malformed action" in r.message
    assert store.version(game) == 0 and store.actions(game) == []
    other = store.reader()  # another process's view: its own connection, no shared cache
    try:
        assert other.state(game).actions == []
        assert other.submit(game, 0, "D", Enter("D", "D1", (-3, 0))).ok
    finally:
        other.close()
    assert store.state(game).units["D1"].hex == (-3, 0)
