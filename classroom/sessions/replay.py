"""Step through a finished (or running) team game, action by action.

A :class:`GameReplay` reads the log once and keeps a copy of the state every
``every`` versions, so jumping to any version replays at most ``every`` actions.

>>> import tempfile, os
>>> from classroom.combined_arms import EndPhase
>>> from classroom.sessions import create_class, open_store
>>> store = open_store(os.path.join(tempfile.mkdtemp(), "c.db"))
>>> made = create_class(store, teams=1, seed=3)
>>> g = made.teams[0].game_id
>>> store.submit(g, 0, "support", EndPhase("support")).version
1
>>> r = GameReplay(store, g)
>>> len(r), r.state_at(0).phase, r.state_at(1).phase
(1, 'friendly_move', 'friendly_fire')
>>> sorted(r.views_at(1))
['D', 'E', 'F', 'armour', 'support']
>>> store.close()
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from classroom.combined_arms.engine import apply
from classroom.combined_arms.state import GameState

from .store import GameInfo, GameStore, LoggedAction, initial_state
from .views import seat_view


class GameReplay:
    """A team game's log with random access to the state after any action."""

    def __init__(self, store: GameStore, game_id: int, every: int = 25) -> None:
        info = store.game(game_id)
        if info is None:
            raise KeyError(f"there is no game {game_id}")
        self.info: GameInfo = info
        self.steps: list[LoggedAction] = store.actions(game_id)
        self.every = max(1, every)
        self._checkpoints: dict[int, GameState] = {0: initial_state(info)}

    def __len__(self) -> int:
        return len(self.steps)

    def state_at(self, version: int) -> GameState:
        """A fresh copy of the state after ``version`` actions (0: the start)."""
        if not 0 <= version <= len(self.steps):
            raise ValueError(f"version: expected 0 to {len(self.steps)}, got {version}")
        base = max(v for v in self._checkpoints if v <= version)
        state = self._checkpoints[base].copy()
        for v in range(base, version):
            apply(state, self.steps[v].action)
            if (v + 1) % self.every == 0 and (v + 1) not in self._checkpoints:
                self._checkpoints[v + 1] = state.copy()
        return state

    def walk(self) -> Iterator[tuple[LoggedAction | None, GameState]]:
        """``(step, state)`` from the start (step None) to the end, one live state.

        The same state object is yielded each time, already changed by ``step``; copy
        it to keep one.
        """
        state = initial_state(self.info)
        yield None, state
        for step in self.steps:
            apply(state, step.action)
            yield step, state

    def views_at(self, version: int) -> dict[str, dict[str, Any]]:
        """Every seat's view after ``version`` actions."""
        state = self.state_at(version)
        return {s: seat_view(state, s, self.info.layout) for s in self.info.layout.names}

    def describe(self, version: int) -> str:
        """A one-line caption for step ``version`` ("v12 turn 2 D: Move ...")."""
        if version == 0:
            return "the start"
        step = self.steps[version - 1]
        return f"v{step.version} turn {step.turn} {step.seat}: {step.action}"


__all__ = ["GameReplay"]
