"""The link between a page and its game: a typed handle and a structured verdict.

A page talks to one game handle: the solitaire :class:`~hexclass.widgets.ca_controller.LocalGame`,
a co-op seat's :class:`~hexclass.widgets.coop_seat.SharedGame`, an enemy-player seat's
:class:`~hexclass.widgets.hidden_seat.HeldGame` over the referee's
:class:`~hexclass.classroom.sessions.hidden.HiddenGame`, the defender's
:class:`~hexclass.classroom.combined_arms.defender_game.DefenderGame`. What it may ask is
:class:`GameHandle`; what an order gets back is a :class:`Verdict` (the engine's type,
re-exported here): accepted, or refused with the sentence to show, the store's kind of
refusal and the rule that said no (CA p.7 and the like). The page reads those fields; it
never searches a message's text for meaning.

>>> v = Verdict.refused("paused by the instructor", kind="paused")
>>> bool(v), v.kind
(False, 'paused')
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from hexclass.classroom.combined_arms.reasons import Verdict


@runtime_checkable
class GameHandle(Protocol):
    """What a page may ask of the game it shows."""

    @property
    def state(self) -> Any:
        """The game state the board draws (the engine's ``GameState``)."""

    def check(self, action: Any) -> Verdict:
        """Would the game refuse ``action`` now? Nothing is sent."""

    def submit(self, action: Any) -> Verdict:
        """Send ``action``: accepted, or refused with the reason and rule."""


__all__ = ["GameHandle", "Verdict"]
