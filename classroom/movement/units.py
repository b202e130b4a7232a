"""Unit types and movement allowances of the play-by-mail design (PBM "Movement Allowance").

The allowance belongs to the unit type (how it travels), never to its losses. Terrain
costs depend on a cost class: foot soldiers, towed guns, and vehicles (the lost terrain
table's starred column "includes mechanised units and self-propelled artillery").

>>> UnitType.INFANTRY.allowance, UnitType.MECHANISED.allowance, UnitType.LEADER.allowance
(6, 12, 12)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from hexclass.classroom.hexgrid import Hex

from .errors import MovementInputError

FOOT, TOWED, VEHICLE = "foot", "towed", "vehicle"


class UnitType(Enum):
    """(label, movement allowance, cost class) per type (PBM "Movement Allowance")."""

    INFANTRY = ("Infantry", 6, FOOT)
    ELITE_INFANTRY = ("Elite Infantry", 7, FOOT)
    ARTILLERY = ("Artillery", 6, TOWED)
    SP_ARTILLERY = ("Self Propelled Art", 8, VEHICLE)
    MECHANISED = ("Mechanised", 12, VEHICLE)
    ARMOUR_FAST = ("Armour Fast", 10, VEHICLE)
    ARMOUR_NORMAL = ("Armour Normal", 9, VEHICLE)
    ARMOUR_SLOW = ("Armour Slow", 8, VEHICLE)
    LEADER = ("Leaders", 12, VEHICLE)

    @property
    def label(self) -> str:
        return self.value[0]

    @property
    def allowance(self) -> int:
        return self.value[1]

    @property
    def cost_class(self) -> str:
        return self.value[2]

    @property
    def armoured(self) -> bool:
        """Armour and mechanised units may try a breakthrough (PBM "Breakthrough")."""
        return self in (
            UnitType.MECHANISED,
            UnitType.ARMOUR_FAST,
            UnitType.ARMOUR_NORMAL,
            UnitType.ARMOUR_SLOW,
        )


SPECIALTIES = ("jungle", "mountain", "marine", "commando", "engineer")
PURSUIT_OPTIONS = {1: "don't pursue", 2: "pursue", 3: "breakthrough"}


@dataclass(frozen=True)
class Mover:
    """A unit with its orders for one turn.

    ``orders`` is the movement-instruction list as written on the turn sheet (see
    :func:`~hexclass.classroom.movement.orders.parse_orders`); ``strength`` is a combat score for
    the simplified combat the timing model needs (the design's combat rules are not in
    the source); ``pursuit`` is 1, 2 or 3 (PBM "Pursuit"); ``aggression`` 0-10.
    """

    name: str
    side: str
    kind: UnitType
    hex: Hex
    orders: tuple = ()
    strength: int = 5
    pursuit: int = 1
    aggression: int = 5
    organisation: int = 100
    anti_tank: bool = False
    amphibious: bool = False
    specialty: str | None = None
    double_costs: bool = False

    def __post_init__(self) -> None:
        if self.pursuit not in PURSUIT_OPTIONS:
            raise MovementInputError(
                f'{self.name}: pursuit option must be 1, 2 or 3 (PBM "Pursuit"), got {self.pursuit!r}'
            )
        if self.pursuit == 3 and not self.kind.armoured:
            raise MovementInputError(
                f'{self.name}: only armoured and mechanised units may set breakthrough (3) (PBM "Pursuit")'
            )
        if self.specialty is not None and self.specialty not in SPECIALTIES:
            raise MovementInputError(
                f"{self.name}: specialty must be one of {', '.join(SPECIALTIES)}, got {self.specialty!r}"
            )
        if not 0 <= self.aggression <= 10:
            raise MovementInputError(
                f"{self.name}: aggression factor runs 0 to 10, got {self.aggression!r}"
            )

    @property
    def allowance(self) -> int:
        return self.kind.allowance
