"""Why an action is refused (a rule section and a plain sentence, never a bare False), and
why a roll is modified (each modifier with its reason and rule)."""

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


@dataclass(frozen=True, slots=True)
class Modifier:
    """One die roll modifier, its reason and rule: ``-1 range 1 (CA p.22 die roll modifier chart)``."""

    value: int
    reason: str
    rule: str

    def __str__(self) -> str:
        return f"{self.value:+d} {self.reason} ({self.rule})"
