"""Unit types and counters of *Battle of Cherbourg* (Cherbourg 2.2.1, 7.0).

A counter has attack, defence and movement powers; artillery also has a range. A unit
that has taken a casualty is flipped: its attack and defence are halved, rounding up,
and its movement is untouched; a second casualty removes it (Cherbourg 7.0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import Enum

from .errors import CherbourgInputError


class UnitType(Enum):
    """The unit types of Cherbourg 2.2.1, with what each means to the other rules.

    ``motorised`` picks the MTZ movement column of the terrain table and the two-hex
    advance (Cherbourg 5.2); ``armour`` triggers the bocage penalty (Cherbourg 5.1.2);
    the vulnerability pair is (air strike, artillery) from the Vulnerability Table.
    """

    INFANTRY = "infantry"
    MOTORISED_INFANTRY = "motorised infantry"
    PARATROOPERS = "paratroopers"
    NAVAL_INFANTRY = "naval infantry"
    ARMOUR = "armour"
    MECHANISED_CAVALRY = "mechanised cavalry"
    TANK_DESTROYERS = "tank destroyers"
    MACHINE_GUNS = "machine guns"
    ARTILLERY = "artillery"
    ANTI_AIRCRAFT = "anti-aircraft artillery"
    ANTI_TANK = "anti-tank artillery"
    COASTAL_ARTILLERY = "coastal artillery"
    ENGINEERS = "engineers"
    RANGERS = "rangers"
    ROCKET_LAUNCHERS = "rocket launchers"
    MORTARS = "mortars"
    MECHANISED_ARTILLERY = "mechanised artillery"
    NAVAL_SUPPORT = "naval support"

    @property
    def armour(self) -> bool:
        """Armour and mechanised cavalry make bocage worth 4 columns (Cherbourg 5.1.2)."""
        return self in (UnitType.ARMOUR, UnitType.MECHANISED_CAVALRY)

    @property
    def motorised(self) -> bool:
        """Pays the MTZ movement costs and may advance two hexes (Cherbourg 5.2)."""
        return self in (
            UnitType.ARMOUR,
            UnitType.MECHANISED_CAVALRY,
            UnitType.MOTORISED_INFANTRY,
            UnitType.TANK_DESTROYERS,
            UnitType.MECHANISED_ARTILLERY,
        )

    @property
    def artillery(self) -> bool:
        """Fires without engaging, never advances after combat (Cherbourg 5.2, 8.0)."""
        return self in (
            UnitType.ARTILLERY,
            UnitType.ROCKET_LAUNCHERS,
            UnitType.MORTARS,
            UnitType.COASTAL_ARTILLERY,
            UnitType.MECHANISED_ARTILLERY,
            UnitType.NAVAL_SUPPORT,
        )

    @property
    def vulnerability(self) -> tuple[int, int]:
        """(air strike, artillery) index from the Vulnerability Table (Cherbourg 6.2, 8.0).

        The table names five groups; the other types are placed in the nearest group, as
        recorded in docs/rules-notes.md ("Cherbourg: vulnerability of unlisted types").
        """
        return VULNERABILITY[self]


_INF, _ARM, _ART = (1, 2), (2, 1), (2, 2)
VULNERABILITY: dict[UnitType, tuple[int, int]] = {
    UnitType.INFANTRY: _INF,
    UnitType.ENGINEERS: _INF,
    UnitType.MOTORISED_INFANTRY: _INF,
    UnitType.PARATROOPERS: _INF,  # interpreted: foot infantry
    UnitType.NAVAL_INFANTRY: _INF,  # interpreted
    UnitType.RANGERS: _INF,  # interpreted
    UnitType.MACHINE_GUNS: _INF,  # interpreted
    UnitType.ARMOUR: _ARM,
    UnitType.MECHANISED_CAVALRY: _ARM,
    UnitType.TANK_DESTROYERS: _ARM,
    UnitType.ARTILLERY: _ART,
    UnitType.MORTARS: _ART,
    UnitType.ROCKET_LAUNCHERS: _ART,
    UnitType.ANTI_AIRCRAFT: _ART,  # interpreted: towed guns
    UnitType.ANTI_TANK: _ART,  # interpreted
    UnitType.COASTAL_ARTILLERY: _ART,  # interpreted
    UnitType.MECHANISED_ARTILLERY: (2, 1),
    UnitType.NAVAL_SUPPORT: (4, 4),  # its defence power serves as its index (Cherbourg 9.0)
}


@dataclass(frozen=True)
class Unit:
    """One counter. ``regiment`` and ``division`` feed the command-unit shift (5.1.4)."""

    name: str
    kind: UnitType
    attack: int
    defence: int
    movement: int
    side: str = "US"
    range: int = 0
    regiment: str = ""
    division: str = ""
    damaged: bool = False

    def __post_init__(self) -> None:
        for field in ("attack", "defence", "movement", "range"):
            value = getattr(self, field)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise CherbourgInputError(
                    f"{self.name}: {field} must be a whole number of 0 or more, got {value!r}"
                )

    @property
    def attack_power(self) -> int:
        """Attack power now: halved and rounded up once damaged (Cherbourg 7.0)."""
        return math.ceil(self.attack / 2) if self.damaged else self.attack

    @property
    def defence_power(self) -> int:
        """Defence power now: halved and rounded up once damaged (Cherbourg 7.0)."""
        return math.ceil(self.defence / 2) if self.damaged else self.defence


def take_casualty(unit: Unit) -> Unit | None:
    """A casualty flips a fresh unit; a flipped unit is eliminated (None) (Cherbourg 7.0)."""
    return None if unit.damaged else replace(unit, damaged=True)


def infantry(name: str = "US infantry bn", attack: int = 4, defence: int = 4, **kw) -> Unit:
    """A foot battalion (the 4-4-6 of the Cherbourg 4.0 example by default)."""
    kw.setdefault("movement", 6)
    return Unit(name, UnitType.INFANTRY, attack, defence, **kw)
