"""Air strikes and artillery bombardment of *Battle of Cherbourg* (Cherbourg 6.2, 8.0, 9.0).

The power committed (air points, or the summed attack of the guns) is multiplied by the
target hex's summed vulnerability; the product picks a column of the Bombing Table,
which terrain moves to the left like a ground combat (rivers do not protect against
guns). Two dice then give DB, one defender takes a casualty, or DI, no effect.

>>> from .units import Unit, UnitType, infantry
>>> tank = Unit("Pz", UnitType.ARMOUR, 3, 3, 8, side="DE")
>>> targets = [infantry("i1"), infantry("i2"), infantry("i3"), tank]
>>> strike = bombardment(6, targets, AIR, ["clear"])    # Cherbourg 6.2 example
>>> strike.value, strike.column_name
(30, '25-48')
>>> bombardment(6, targets, AIR, ["grove"]).column_name
'1-24'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from hexclass.classroom.dice import Dice

from .combat import check_air_strike
from .crt import check_roll, two_dice_ways
from .errors import CherbourgInputError
from .terrain import terrain_shift
from .units import Unit

AIR, ARTILLERY = "air", "artillery"
# Lower bounds of the Bombing Table's columns: 1-24, 25-48, 49-72, 73-96, 97 and up.
BOUNDS = (1, 25, 49, 73, 97)
BOMB_COLUMNS = ("1-24", "25-48", "49-72", "73-96", "97+")
# Row by row as printed (rolls 2/12, 3/11, 4/10, 5/9, 6/8, 7): DB from this column on.
_FIRST_DB = {2: 0, 12: 0, 3: 1, 11: 1, 4: 2, 10: 2, 5: 3, 9: 3, 6: 4, 8: 4, 7: 5}


def vulnerability(targets: Iterable[Unit], kind: str) -> int:
    """Summed vulnerability index of a target hex for air or artillery (Cherbourg 6.2, 8.0)."""
    if kind not in (AIR, ARTILLERY):
        raise CherbourgInputError(f"bombardment is by {AIR!r} or {ARTILLERY!r}, got {kind!r}")
    total = sum(u.kind.vulnerability[0 if kind == AIR else 1] for u in targets)
    if total == 0:
        raise CherbourgInputError("there is nothing to bombard in the target hex")
    return total


def bomb_column(value: int) -> int:
    """Column index for power x vulnerability (Cherbourg Bombing Table)."""
    if value < 1:
        raise CherbourgInputError(f"a bombardment needs a value of 1 or more, got {value}")
    return max(i for i, lo in enumerate(BOUNDS) if value >= lo)


def bomb_result(column: int, roll: int) -> str:
    """'DB' (one defender takes a casualty) or 'DI' (no effect)."""
    return "DB" if column >= _FIRST_DB[check_roll(roll)] else "DI"


def casualty_chance(column: int) -> Fraction:
    return sum(
        (Fraction(w, 36) for r, w in two_dice_ways().items() if bomb_result(column, r) == "DB"),
        Fraction(0),
    )


@dataclass(frozen=True)
class Bombardment:
    power: int
    vulnerability: int
    value: int
    left: int
    column: int

    @property
    def column_name(self) -> str:
        return BOMB_COLUMNS[self.column]

    @property
    def chance(self) -> Fraction:
        return casualty_chance(self.column)


def bombardment(
    power: int, targets: Sequence[Unit], kind: str, terrain: Sequence[str]
) -> Bombardment:
    """Value, terrain shift and column of an air strike or a bombardment."""
    if kind == AIR:
        check_air_strike(power)
    elif not isinstance(power, int) or power < 1:
        raise CherbourgInputError(f"bombarding guns need 1 or more attack points, got {power!r}")
    vuln = vulnerability(targets, kind)
    # Rivers do not shelter a hex from the guns (Cherbourg 8.0); they do from aircraft.
    cover = [t for t in terrain if not (kind == ARTILLERY and t == "river")]
    left = terrain_shift(cover)
    value = power * vuln
    # Shifting left of the first column stays on it, as on the combat table.
    return Bombardment(power, vuln, value, left, max(bomb_column(value) - left, 0))


def artillery_power(guns: Sequence[Unit]) -> int:
    """Summed attack of the guns committed (Cherbourg 8.0); only artillery may bombard."""
    for g in guns:
        if not g.kind.artillery:
            raise CherbourgInputError(
                f"{g.name} is not artillery and cannot bombard (Cherbourg 8.0)"
            )
    return sum(g.attack_power for g in guns)


def roll_bombardment(b: Bombardment, dice: Dice) -> tuple[tuple[int, int], str]:
    pair = (dice.d6(), dice.d6())
    return pair, bomb_result(b.column, sum(pair))
