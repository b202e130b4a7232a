"""The Combat Effects Table of *Battle of Cherbourg* (Cherbourg 5.1.1, 5.1.5, 5.1.6).

Twelve odds columns from 1-4 to 9-1, read with the sum of two dice. The table pairs the
rolls symmetrically: 2 and 12 share a row, 3 and 11, 4 and 10, 5 and 9, 6 and 8, and 7
has a row of its own. Each cell is one outcome written as a defender part and an
attacker part ("DVB ARB": the defence holds with a loss, the attack falls back with a
loss); IMP and EMP stand alone. This reading, and the rounding of ratios below 1-1, are
recorded in docs/rules-notes.md ("Cherbourg: the combat table").

>>> COLUMNS[odds_column(11, 4)]        # Cherbourg 5.1.1: 11/4 = 2.75, fraction dropped
'2-1'
>>> str(lookup(odds_column(6, 6), 7))
'DVI ARB'
>>> win_chance(COLUMNS.index("3-1"))
Fraction(1, 3)
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from .errors import CherbourgInputError

COLUMNS: tuple[str, ...] = tuple(f"1-{n}" for n in (4, 3, 2)) + tuple(
    f"{n}-1" for n in range(1, 10)
)
ONE_TO_ONE = COLUMNS.index("1-1")

# The rows of the table, one tuple of totals per row, top to bottom (Cherbourg tables).
ROWS: tuple[tuple[int, ...], ...] = ((2, 12), (3, 11), (4, 10), (5, 9), (6, 8), (7,))
# The printed table stored column by column: for each odds column, its cells from the
# 2/12 row down to the 7 row.
_BY_COLUMN: dict[str, str] = {
    "1-4": "DVB ARB|DVI ARI|DVI ARB|DVB AE|DVI AE|DVI AE",
    "1-3": "DVB ARI|DVB ARB|DVI ARI|DVI ARB|DVB AE|DVI AE",
    "1-2": "IMP|DVB ARI|DVB ARB|DVI ARI|DVI ARB|DVB AE",
    "1-1": "DRI AVB|IMP|DVB ARI|DVB ARB|DVI ARI|DVI ARB",
    "2-1": "DRB AVB|DRI AVB|IMP|DVB ARI|DVB ARB|DVI ARI",
    "3-1": "DRI AVI|DRB AVB|DRI AVB|IMP|DVB ARI|DVB ARB",
    "4-1": "DRB AVI|DRI AVI|DRB AVB|DRI AVB|IMP|DVB ARI",
    "5-1": "EMP|DRB AVI|DRI AVI|DRB AVB|DRI AVB|IMP",
    "6-1": "EMP|DE AVB|DRB AVI|DRI AVI|DRB AVB|DRI AVB",
    "7-1": "EMP|DE AVB|DE AVB|DRB AVI|DRI AVI|DRB AVB",
    "8-1": "EMP|DE AVI|DE AVB|DE AVB|DRB AVI|DRI AVI",
    "9-1": "EMP|DE AVI|DE AVI|DE AVB|DE AVB|DRB AVI",
}


class Part(Enum):
    """One half of a result, with its meaning (Cherbourg 5.1.6)."""

    DE = "one defender eliminated, the others retreat"
    DRB = "all defenders retreat one hex, one of them takes a casualty"
    DRI = "all defenders retreat one hex, unharmed"
    DVB = "the defence holds, one defender takes a casualty"
    DVI = "the defence holds unharmed"
    AVI = "the attack wins unharmed and may advance"
    AVB = "the attack wins, one attacker takes a casualty, and may advance"
    ARI = "all attackers retreat one hex, unharmed"
    ARB = "all attackers retreat one hex, one of them takes a casualty"
    AE = "all attackers retreat one hex and one of them is eliminated"
    EMP = "bloodbath: the defender gives up units, the attacker loses at least as many points"
    IMP = "stalemate: nobody moves"


@dataclass(frozen=True)
class Result:
    """One cell of the table: the defender's part and the attacker's part."""

    parts: tuple[Part, ...]

    def __str__(self) -> str:
        return " ".join(p.name for p in self.parts)

    @property
    def code(self) -> str:
        return str(self)

    def has(self, name: str) -> bool:
        return any(p.name == name for p in self.parts)

    @property
    def defender_retreats(self) -> bool:
        """The defenders leave the hex (DE, DRB, DRI, and the survivors of EMP)."""
        return any(p in (Part.DE, Part.DRB, Part.DRI, Part.EMP) for p in self.parts)

    @property
    def attacker_wins(self) -> bool:
        """The hex is cleared and the attacker may advance (AVI, AVB; Cherbourg 5.2)."""
        return any(p in (Part.AVI, Part.AVB) for p in self.parts)

    @property
    def attacker_retreats(self) -> bool:
        return any(p in (Part.ARI, Part.ARB, Part.AE) for p in self.parts)

    @property
    def defender_losses(self) -> int:
        """Casualty steps the defender takes: a casualty is one, an elimination two."""
        return sum({Part.DE: 2, Part.DRB: 1, Part.DVB: 1}.get(p, 0) for p in self.parts)

    @property
    def attacker_losses(self) -> int:
        return sum({Part.AE: 2, Part.ARB: 1, Part.AVB: 1}.get(p, 0) for p in self.parts)

    def explain(self) -> str:
        return "; ".join(p.value for p in self.parts)


def parse_result(code: str) -> Result:
    """'DVB ARB' -> Result; refuses a code the table does not use."""
    try:
        parts = tuple(Part[name] for name in code.split())
    except KeyError:
        raise CherbourgInputError(
            f"{code!r} is not a Cherbourg combat result (Cherbourg 5.1.6)"
        ) from None
    if not parts:
        raise CherbourgInputError("an empty combat result")
    return Result(parts)


TABLE: dict[int, tuple[Result, ...]] = {}
for _i, _rolls in enumerate(ROWS):
    _row = tuple(parse_result(_BY_COLUMN[c].split("|")[_i]) for c in COLUMNS)
    for _roll in _rolls:
        TABLE[_roll] = _row


def odds_column(attack: int, defence: int) -> int:
    """The column index for attack against defence points (Cherbourg 5.1.1).

    At or above 1-1 the ratio attack/defence loses its fraction (11/4 reads 2-1). Below
    1-1 the same rounding against the attacker gives 1-n with n = defence/attack rounded
    up (3 against 7 is 1-3). Ratios past the ends use the end columns.
    """
    for name, value in (("attack", attack), ("defence", defence)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise CherbourgInputError(
                f"{name} points must be a whole number of 0 or more, got {value!r}"
            )
    if attack == 0:
        raise CherbourgInputError("an attack needs at least 1 attack point (Cherbourg 5.1.1)")
    if defence == 0:
        raise CherbourgInputError("the defender needs at least 1 defence point (Cherbourg 5.1.1)")
    if attack >= defence:
        return min(ONE_TO_ONE + attack // defence - 1, len(COLUMNS) - 1)
    n = math.ceil(defence / attack)
    return max(ONE_TO_ONE - (n - 1), 0)


def shift(column: int, right: int) -> int:
    """Move ``right`` columns (negative: left), staying on the table (Cherbourg 5.1.2-5.1.4)."""
    return min(max(column + right, 0), len(COLUMNS) - 1)


def column_index(name: str) -> int:
    try:
        return COLUMNS.index(name)
    except ValueError:
        raise CherbourgInputError(
            f"{name!r} is not a column; the table has {', '.join(COLUMNS)}"
        ) from None


def check_roll(roll: int) -> int:
    if not isinstance(roll, int) or not 2 <= roll <= 12:
        raise CherbourgInputError(f"two dice make 2 to 12 (Cherbourg 5.1.5), got {roll!r}")
    return roll


def lookup(column: int, roll: int) -> Result:
    """The result at a column and a two-dice total (Cherbourg 5.1.5)."""
    if not 0 <= column < len(COLUMNS):
        raise CherbourgInputError(f"column index must be 0 to {len(COLUMNS) - 1}, got {column}")
    return TABLE[check_roll(roll)][column]


def two_dice_ways() -> Counter[int]:
    """How many of the 36 ways two dice can fall give each total."""
    return Counter(a + b for a in range(1, 7) for b in range(1, 7))


def distribution(column: int) -> dict[str, Fraction]:
    """Exact chance of each result in a column, over the 36 ways two dice fall."""
    out: Counter[str] = Counter()
    for roll, ways in two_dice_ways().items():
        out[lookup(column, roll).code] += ways
    return {code: Fraction(n, 36) for code, n in sorted(out.items(), key=lambda kv: -kv[1])}


def chance(column: int, test) -> Fraction:
    """Chance that ``test(result)`` holds in a column."""
    return sum(
        (Fraction(w, 36) for roll, w in two_dice_ways().items() if test(lookup(column, roll))),
        Fraction(0),
    )


def win_chance(column: int) -> Fraction:
    """Chance the attacker wins (AVI or AVB) in a column."""
    return chance(column, lambda r: r.attacker_wins)


def dislodge_chance(column: int) -> Fraction:
    """Chance the defenders leave the hex (retreat, elimination, bloodbath)."""
    return chance(column, lambda r: r.defender_retreats)


def expected_losses(column: int) -> tuple[Fraction, Fraction]:
    """Mean casualty steps (attacker, defender) in a column, EMP and IMP counting 0."""
    att = sum(
        (Fraction(w, 36) * lookup(column, r).attacker_losses for r, w in two_dice_ways().items()),
        Fraction(0),
    )
    dfn = sum(
        (Fraction(w, 36) * lookup(column, r).defender_losses for r, w in two_dice_ways().items()),
        Fraction(0),
    )
    return att, dfn
