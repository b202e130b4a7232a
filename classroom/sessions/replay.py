"""Step through a finished (or running) team game, action by action.

A :class:`GameReplay` is a window on the process's :class:`~.live.LiveGame`: the same
log, the same checkpoints (a copy every 25 versions, so any version is at most 25
actions away). It follows the live game: when a follower (the console's) catches the
live game up, the replay grows with it; :meth:`GameReplay.refresh` catches up itself.

>>> import tempfile, os
>>> from hexclass.classroom.combined_arms import EndPhase
>>> from hexclass.classroom.sessions import create_class, open_store
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

from hexclass.classroom.combined_arms.state import GameState

from .live import LiveGame
from .store import GameInfo, GameStore, LoggedAction
from .views import seat_view


class GameReplay:
    """A team game's log with random access to the state after any action."""

    def __init__(self, store: GameStore, game_id: int, live: LiveGame | None = None) -> None:
        info = store.game(game_id)
        if info is None:
            raise KeyError(f"there is no game {game_id}")
        self.store = store
        self.info: GameInfo = info
        self.live = live if live is not None else store.live_game(game_id)

    @property
    def steps(self) -> list[LoggedAction]:
        return self.live.log

    def __len__(self) -> int:
        return len(self.live)

    def refresh(self) -> int:
        """Catch the live game up with the store; returns the number of versions now."""
        self.store.live_game(self.info.id)
        info = self.store.game(self.info.id)
        if info is not None:
            self.info = info
        return len(self)

    def state_at(self, version: int) -> GameState:
        """A fresh copy of the state after ``version`` actions (0: the start)."""
        return self.live.at(version)

    def walk(self) -> Iterator[tuple[LoggedAction | None, GameState]]:
        """``(step, state)`` from the start (step None) to the end, one live state.

        The same state object is yielded each time, already changed by ``step``; copy
        it to keep one.
        """
        return self.live.walk()

    def views_at(self, version: int) -> dict[str, dict[str, Any]]:
        """Every seat's view after ``version`` actions."""
        state = self.state_at(version)
        if state.options.enemy_player:  # CA p.7: each seat as it saw the game
            from hexclass.classroom.combined_arms.public import seat_copy

            return {
                s: seat_view(seat_copy(state, s), s, self.info.layout)
                for s in self.info.layout.names
            }
        return {s: seat_view(state, s, self.info.layout) for s in self.info.layout.names}

    def describe(self, version: int) -> str:
        """A one-line caption for step ``version`` ("v12 turn 2 D: Move ...")."""
        if version == 0:
            return "the start"
        step = self.steps[version - 1]
        if type(step.action).__name__ == "EndGameNow":  # logged as the instructor's
            return f"v{step.version} turn {step.turn}: the instructor ends the game here"
        return f"v{step.version} turn {step.turn} {step.seat}: {step.action}"


__all__ = ["GameReplay"]
