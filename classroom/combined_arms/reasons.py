"""Why an action is refused (a rule section and a plain sentence, never a bare False), what
a game said to an order (:class:`Verdict`), and why a roll is modified (each modifier with
its reason and rule)."""

from __future__ import annotations

from dataclasses import dataclass

BOARD = 'CA "The Playing Board"'
UNITS = 'CA "The Units"'
SEQUENCE = 'CA "Sequence of Play"'
VICTORY = 'CA "Victory"'
MOVEMENT = 'CA "Movement"'
FIRE = 'CA "Fire Attacks"'
ENEMY_FIRE = 'CA "Enemy Fire"'
MORTARS = 'CA "Mortars"'
DECISIONS = 'CA "Enemy Decisions"'
COOP = 'CA p.7 "Co-operative Team Play"'
VARIANT = 'CA p.7 "Enemy Player Variant"'
CHART = "CA p.22 die roll modifier chart"
ACTION_FORM = "action format"  # not a rule: the action is malformed (see validate.py)


@dataclass(frozen=True, slots=True)
class Illegal:
    """The reason an action may not be taken now.

    >>> str(Illegal(MOVEMENT, "armour may not enter woods"))
    'CA "Movement": armour may not enter woods'
    """

    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


class IllegalAction(ValueError):
    """Raised by ``apply`` for an action the rules forbid; the state is left untouched."""

    def __init__(self, reason: Illegal, action=None) -> None:
        super().__init__(str(reason))
        self.reason = reason
        self.action = action


@dataclass(frozen=True)
class Verdict:
    """What a game said to one order: accepted, or refused with the sentence to show.

    Every handle a page sends orders through answers one (``widgets/game_link.py``):
    ``rule`` is the section that said no, taken from the engine's :class:`Illegal` or the
    store's refusal, never read back out of ``reason``; ``kind`` is the store's kind of
    refusal (``"stale"``, ``"paused"``, ...) when a store refused.

    >>> no = Verdict.judge(Illegal(MOVEMENT, "armour may not enter woods"))
    >>> bool(no), no.rule, no.reason
    (False, 'CA "Movement"', 'CA "Movement": armour may not enter woods')
    >>> bool(Verdict.judge(None))
    True
    """

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
        return cls(False, str(reason), kind, rule or None)

    @classmethod
    def judge(cls, why: Illegal | None) -> Verdict:
        """The engine's answer (``check``/``try_apply``: None or an :class:`Illegal`)."""
        return cls.ok() if why is None else cls.refused(str(why), rule=why.rule)


@dataclass(frozen=True, slots=True)
class Modifier:
    """One die roll modifier, its reason and rule: ``-1 range 1 (CA p.22 die roll modifier chart)``."""

    value: int
    reason: str
    rule: str

    def __str__(self) -> str:
        return f"{self.value:+d} {self.reason} ({self.rule})"
