"""Initiative: who chooses to move first or last in each Operations Stage (CNA 7.0).

At the start of each Game-Turn both players roll one die and add their side's
Initiative Rating; the higher total wins and ties are rolled again (CNA 7.14). The
winner keeps the Initiative for all three Operations Stages of that Game-Turn and, in
each stage's Initiative Declaration Phase, chooses to be Player A (moving first) or
Player B (moving last) (CNA 7.11, 7.12, 7.16).

All randomness comes from a generator passed in by the caller: either a
:class:`hexclass.classroom.dice.Dice` (anything with ``d6()``) or a seeded ``random.Random``
(anything with ``randint``). Same seed, same result.

>>> import random
>>> result = determine_initiative({Side.AXIS: 1, Side.COMMONWEALTH: 3}, random.Random(5))
>>> result == determine_initiative({Side.AXIS: 1, Side.COMMONWEALTH: 3}, random.Random(5))
True
>>> initiative_from_rolls({Side.AXIS: 1, Side.COMMONWEALTH: 3}, [(4, 1)]).winner
<Side.AXIS: 'Axis'>
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from hexclass.classroom.cna.errors import CNAInputError, require_int

OPERATIONS_STAGES_PER_TURN = 3  # CNA 5.1
MAX_REROLLS = 1000  # a fair die ties this often with probability far below 1e-700


class Side(Enum):
    AXIS = "Axis"
    COMMONWEALTH = "Commonwealth"

    @property
    def other(self) -> Side:
        return Side.COMMONWEALTH if self is Side.AXIS else Side.AXIS


class Role(Enum):
    """Player A moves first in an Operations Stage, Player B last (CNA 7.16)."""

    A = "A"
    B = "B"

    @property
    def other(self) -> Role:
        return Role.B if self is Role.A else Role.A


def _require_side(side: object) -> Side:
    if not isinstance(side, Side):
        raise CNAInputError(f"expected Side.AXIS or Side.COMMONWEALTH, got {side!r}")
    return side


def _require_role(role: object) -> Role:
    if not isinstance(role, Role):
        raise CNAInputError(f"expected Role.A or Role.B, got {role!r}")
    return role


def _require_die(value: object, what: str) -> int:
    require_int(value, what)
    if not 1 <= value <= 6:  # type: ignore[operator]
        raise CNAInputError(f"{what} must be a die face from 1 to 6, got {value}")
    return value  # type: ignore[return-value]


def roll_d6(dice: Any) -> int:
    """One roll of a six-sided die from ``dice`` (a ``Dice`` or a ``random.Random``)."""
    if hasattr(dice, "d6"):
        face = dice.d6()
    elif hasattr(dice, "randint"):
        face = dice.randint(1, 6)
    else:
        raise CNAInputError(
            "expected a seeded die source with d6() (hexclass.classroom.dice.Dice) or "
            f"randint() (random.Random), got {type(dice).__name__}"
        )
    return _require_die(face, "a die roll")


def _require_ratings(ratings: Mapping[Side, int]) -> dict[Side, int]:
    if not isinstance(ratings, Mapping) or set(ratings) != set(Side):
        raise CNAInputError(
            "expected one Initiative Rating for each side, "
            f"e.g. {{Side.AXIS: 1, Side.COMMONWEALTH: 3}}, got {ratings!r}"
        )
    return {
        side: require_int(ratings[side], f"the {side.value} Initiative Rating") for side in Side
    }


@dataclass(frozen=True)
class InitiativeRound:
    """One pair of rolls: each side's die and total (die + rating)."""

    axis_die: int
    commonwealth_die: int
    axis_total: int
    commonwealth_total: int

    @property
    def tied(self) -> bool:
        return self.axis_total == self.commonwealth_total


@dataclass(frozen=True)
class InitiativeResult:
    """The winner and every round rolled to find them (ties first, the decider last)."""

    ratings: tuple[tuple[Side, int], ...]
    rounds: tuple[InitiativeRound, ...]
    winner: Side
    rule: str = "CNA 7.14"

    def explain(self) -> list[str]:
        lines = []
        for n, r in enumerate(self.rounds, 1):
            verdict = "tie, roll again" if r.tied else f"{self.winner.value} wins"
            lines.append(
                f"round {n}: Axis {r.axis_die} + rating = {r.axis_total}, "
                f"Commonwealth {r.commonwealth_die} + rating = {r.commonwealth_total}: "
                f"{verdict} ({self.rule})"
            )
        return lines


def initiative_round(ratings: Mapping[Side, int], axis_die: int, cw_die: int) -> InitiativeRound:
    """Add each side's rating to its die (CNA 7.14)."""
    rates = _require_ratings(ratings)
    a = _require_die(axis_die, "the Axis die")
    c = _require_die(cw_die, "the Commonwealth die")
    return InitiativeRound(a, c, a + rates[Side.AXIS], c + rates[Side.COMMONWEALTH])


def initiative_from_rolls(
    ratings: Mapping[Side, int], rolls: Iterable[tuple[int, int]]
) -> InitiativeResult:
    """Decide the Initiative from given (Axis die, Commonwealth die) pairs (CNA 7.14).

    Every pair but the last must be a tie (ties are rolled again); the last must not.
    """
    rates = _require_ratings(ratings)
    rounds = tuple(initiative_round(rates, a, c) for a, c in rolls)
    if not rounds:
        raise CNAInputError("expected at least one pair of initiative rolls")
    if any(not r.tied for r in rounds[:-1]):
        raise CNAInputError("only the last pair of initiative rolls may be untied (CNA 7.14)")
    last = rounds[-1]
    if last.tied:
        raise CNAInputError(
            "the last pair of initiative rolls is a tie; ties roll again (CNA 7.14)"
        )
    winner = Side.AXIS if last.axis_total > last.commonwealth_total else Side.COMMONWEALTH
    return InitiativeResult(tuple(rates.items()), rounds, winner)


def determine_initiative(ratings: Mapping[Side, int], dice: Any) -> InitiativeResult:
    """Roll for the Initiative with a seeded die source, re-rolling ties (CNA 7.14)."""
    rates = _require_ratings(ratings)
    rolls: list[tuple[int, int]] = []
    for _ in range(MAX_REROLLS):
        pair = (roll_d6(dice), roll_d6(dice))
        rolls.append(pair)
        if not initiative_round(rates, *pair).tied:
            return initiative_from_rolls(rates, rolls)
    raise CNAInputError(f"the die source tied {MAX_REROLLS} times running; is it a real die?")


def sides_for_roles(initiative_holder: Side, holder_role: Role) -> dict[Role, Side]:
    """Which side is Player A and which Player B once the holder has chosen (CNA 7.11, 7.16)."""
    holder = _require_side(initiative_holder)
    role = _require_role(holder_role)
    return {role: holder, role.other: holder.other}


@dataclass(frozen=True)
class InitiativeDeclarations:
    """The holder's choice of A or B for each of the turn's Operations Stages (CNA 7.12)."""

    holder: Side
    roles: tuple[Role, ...]

    def __post_init__(self) -> None:
        _require_side(self.holder)
        if len(self.roles) != OPERATIONS_STAGES_PER_TURN:
            raise CNAInputError(
                f"expected {OPERATIONS_STAGES_PER_TURN} choices of A or B, got {len(self.roles)}"
            )
        for role in self.roles:
            _require_role(role)

    def player(self, stage: int, role: Role) -> Side:
        """The side playing ``role`` in Operations Stage ``stage`` (1, 2 or 3)."""
        require_int(stage, "an Operations Stage number", minimum=1)
        if stage > OPERATIONS_STAGES_PER_TURN:
            raise CNAInputError(f"an Operations Stage number must be 1 to 3, got {stage}")
        return sides_for_roles(self.holder, self.roles[stage - 1])[_require_role(role)]

    def phasing_order(self) -> list[tuple[int, Role, Side]]:
        """(stage, role, side) for the six player portions of the turn, in play order."""
        return [(s, r, self.player(s, r)) for s in (1, 2, 3) for r in (Role.A, Role.B)]

    def back_to_back(self) -> list[tuple[Side, int]]:
        """(side, stage) where ``side`` moves last in ``stage`` and first in the next one.

        Such a side gets two portions in a row (the example in CNA 7.12).
        """
        return [
            (self.player(s, Role.B), s)
            for s in (1, 2)
            if self.player(s, Role.B) is self.player(s + 1, Role.A)
        ]
