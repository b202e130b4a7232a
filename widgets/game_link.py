"""The link between a page's board and its game: a typed handle and a structured verdict.

A page's controller (:class:`~hexclass.widgets.ca_controller.GameController`) talks to one game
handle: the solitaire :class:`~hexclass.widgets.ca_controller.LocalGame`, a co-op seat's
:class:`~hexclass.widgets.coop_seat.SharedGame`, an enemy player's hidden game. What it may ask
is :class:`GameHandle`; what an order gets back is a :class:`Verdict`: accepted, or
refused with the sentence to show, the store's kind of refusal and the rule that said
no (CA p.7 and the like). The page reads those fields; it never searches a message's
text for meaning.

Handles written before this module still answer ``None`` (accepted) or the reason as
text; :meth:`Verdict.of` reads either.

>>> Verdict.of(None).accepted, Verdict.of("out of range").reason
(True, 'out of range')
>>> bool(Verdict.refused("paused by the instructor", kind="paused"))
False
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class Verdict:
    """What a game handle said to one order."""

    accepted: bool
    reason: str = ""  # refused: the sentence for the message line
    kind: str | None = None  # refused by a store: its Refusal kind ("stale", "paused", ...)
    rule: str | None = None  # the rule section that said no, when one did

    def __bool__(self) -> bool:
        return self.accepted

    @classmethod
    def ok(cls) -> Verdict:
        return cls(True)

    @classmethod
    def refused(cls, reason: str, kind: str | None = None, rule: str | None = None) -> Verdict:
        return cls(False, str(reason), kind, rule)

    @classmethod
    def of(cls, answer: Verdict | str | None) -> Verdict:
        """A handle's answer as a verdict (``None``: accepted; text: the refusal's reason)."""
        if isinstance(answer, Verdict):
            return answer
        if answer is None:
            return cls.ok()
        return cls.refused(str(answer), rule=getattr(answer, "rule", None))


@runtime_checkable
class GameHandle(Protocol):
    """What a page's controller may ask of the game it shows."""

    @property
    def state(self) -> Any:
        """The game state the board draws (the engine's ``GameState``)."""

    def check(self, action: Any) -> str | None:
        """Would the engine refuse ``action`` now? Its reason, or None (nothing is sent)."""

    def submit(self, action: Any) -> Verdict | str | None:
        """Send ``action``; a :class:`Verdict` (older handles: None or the reason)."""


__all__ = ["GameHandle", "Verdict"]
