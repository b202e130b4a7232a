"""Units and their Capability Point Allowance (CNA 6.1x, 8.17).

Every function a unit performs costs Capability Points (CPs). Its CPA is how many it
may spend in one Operations Stage -- counting both players' portions of the stage
(CNA 6.14) -- before it earns Disorganization Points (CNA 6.13, 6.21). Unused CPs are
lost at the end of the stage (CNA 6.16).

>>> rnf = Unit("1st RNF", UnitKind.INFANTRY, cpa=8)
>>> rnf.cpa_for(Function.MOVEMENT), rnf.is_motorized, voluntary_cp_limit(rnf, Function.MOVEMENT)
(8, False, Fraction(12, 1))
>>> rnf.motorized_by(MEDIUM_TRUCK_CPA).cpa_for(Function.MOVEMENT)
20
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import Enum, IntEnum
from fractions import Fraction

from hexclass.classroom.cna.errors import (
    CNAInputError,
    RuleViolation,
    require_cp_amount,
    require_int,
)

GUN_CPA_OUTSIDE_MOVEMENT = 10  # CNA 6.11
NON_MOTORIZED_MAX_CPA = 10  # CNA 6.17, 8.17: units with a CPA of ten or less
MIN_TRUCK_CPA = 20  # CNA 8.53b: a motorized unit has a CPA of at least 20
MEDIUM_TRUCK_CPA = 20  # CNA 6.17 example
VOLUNTARY_LIMIT = Fraction(3, 2)  # CNA 8.17: no more than 50% over the base CPA


class UnitKind(Enum):
    INFANTRY = "infantry"
    ARMOR = "armor"
    RECCE = "recce"
    GUN = "gun"
    ANTI_AIR = "anti-air"
    HQ = "headquarters"
    TRUCK_CONVOY = "truck convoy"
    SQUADRON_GROUND_SUPPORT = "squadron ground support unit"

    @property
    def is_gun_class(self) -> bool:
        return self in (UnitKind.GUN, UnitKind.ANTI_AIR)

    @property
    def is_combat(self) -> bool:
        """Truck Convoys and Squadron Ground Support Units are not combat units (CNA 8.53a)."""
        return self not in (UnitKind.TRUCK_CONVOY, UnitKind.SQUADRON_GROUND_SUPPORT)


class Size(IntEnum):
    """Unit size for pinning (CNA 8.54) and, lacking Stacking Points, for 6.27."""

    COMPANY = 1
    BATTALION = 2
    BRIGADE = 3  # brigades and brigade-equivalents (regiments)
    DIVISION = 4


class Function(Enum):
    """Things a unit spends CPs on (CNA 6.12).

    ``movement``: counts as movement, so a CPA-0 gun has no allowance for it (CNA 6.11);
    ``voluntary``: limited by the 150% cap when done in the unit's own portion (CNA 8.17);
    ``combat``: attacking or defending, barred to a collapsed unit (CNA 6.26);
    ``opponents_portion_only``: happens only while the other player is phasing.
    """

    MOVEMENT = ("movement", True, True, False, False)
    BREAK_OFF = ("breaking off", True, True, False, False)
    ADVANCE = ("advance after combat", True, True, False, False)
    REACTION = ("reaction", True, False, False, True)
    RETREAT_BEFORE_ASSAULT = ("retreat before assault", True, False, False, True)
    RETREAT = ("retreat as a combat result", True, False, False, False)
    CLOSE_ASSAULT = ("close assault", False, True, True, False)
    DEFENCE = ("defending in a close assault", False, False, True, True)
    BARRAGE = ("barrage", False, True, True, False)
    ANTI_ARMOR = ("anti-armor fire", False, True, True, False)
    DETACHMENT = ("detachment", False, True, False, False)
    CONSTRUCTION = ("construction", False, True, False, False)
    LOADING = ("loading", False, True, False, False)
    OTHER = ("other function", False, True, False, False)

    def __init__(
        self,
        label: str,
        movement: bool,
        voluntary: bool,
        combat: bool,
        opponents_portion_only: bool,
    ) -> None:
        self.label = label
        self.movement = movement
        self.voluntary = voluntary
        self.combat = combat
        self.opponents_portion_only = opponents_portion_only


@dataclass(frozen=True)
class Unit:
    """A land unit as its log-sheet box records it.

    ``cpa`` is the CPA listed on the OA sheet; ``truck_cpa`` is set while trucks carry
    the unit (CNA 6.17). ``stacking_points`` measure size for CNA 6.27 when known.
    """

    name: str
    kind: UnitKind
    cpa: int
    size: Size = Size.BATTALION
    stacking_points: int | None = None
    truck_cpa: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise CNAInputError(f"a unit needs a non-empty name, got {self.name!r}")
        if not isinstance(self.kind, UnitKind):
            raise CNAInputError(f"expected a UnitKind for {self.name}, got {self.kind!r}")
        require_int(self.cpa, f"the CPA of {self.name}", minimum=0)
        if not isinstance(self.size, Size):
            raise CNAInputError(f"expected a Size for {self.name}, got {self.size!r}")
        if self.stacking_points is not None:
            require_int(self.stacking_points, f"the Stacking Points of {self.name}", minimum=0)
        if self.truck_cpa is not None:
            check_motorizable(self, self.truck_cpa)

    @property
    def is_motorized(self) -> bool:
        """Motorized means a CPA above ten, whether its own or its trucks' (CNA 8.17, 6.17)."""
        return self.cpa_for(Function.MOVEMENT) > NON_MOTORIZED_MAX_CPA

    def cpa_for(self, function: Function) -> int:
        """The CPA that applies to ``function`` (CNA 6.11, 6.17)."""
        if not isinstance(function, Function):
            raise CNAInputError(f"expected a Function, got {function!r}")
        if self.truck_cpa is not None:
            return self.truck_cpa  # CNA 6.17: carried infantry takes the truck's CPA
        if self.cpa == 0 and self.kind.is_gun_class and not function.movement:
            return GUN_CPA_OUTSIDE_MOVEMENT  # CNA 6.11
        return self.cpa

    @property
    def disorganization_cpa(self) -> int:
        """The CPA that CPs spent are measured against for DPs (CNA 6.21; 6.11: not movement)."""
        return self.cpa_for(Function.OTHER)

    def motorized_by(self, truck_cpa: int) -> Unit:
        """This unit carried by trucks of CPA ``truck_cpa`` (CNA 6.17)."""
        return replace(self, truck_cpa=truck_cpa)

    def dismounted(self) -> Unit:
        return replace(self, truck_cpa=None)


def check_motorizable(unit: Unit, truck_cpa: int) -> None:
    """Only units with a basic CPA of ten or less ride trucks (CNA 6.17)."""
    require_int(truck_cpa, f"the truck CPA carrying {unit.name}", minimum=MIN_TRUCK_CPA)
    if unit.kind is UnitKind.TRUCK_CONVOY:
        raise RuleViolation("CNA 6.17", f"{unit.name} is itself a truck unit")
    if unit.cpa > NON_MOTORIZED_MAX_CPA:
        raise RuleViolation(
            "CNA 6.17",
            f"{unit.name} has a basic CPA of {unit.cpa}; only units of 10 or less are motorized",
        )


def motorized_cpa(basic_cpa: int, truck_cpa: int) -> int:
    """The CPA of an infantry unit riding trucks: the truck's (CNA 6.17)."""
    require_int(basic_cpa, "a basic CPA", minimum=0)
    if basic_cpa > NON_MOTORIZED_MAX_CPA:
        raise RuleViolation(
            "CNA 6.17", f"only units with a basic CPA of 10 or less ride trucks, got {basic_cpa}"
        )
    return require_int(truck_cpa, "a truck CPA", minimum=MIN_TRUCK_CPA)


def formation_cpa(members: Iterable[Unit], function: Function = Function.MOVEMENT) -> int:
    """A parent formation acts at the lowest CPA among its units (CNA 6.15)."""
    units = list(members)
    if not units:
        raise CNAInputError("a parent formation needs at least one unit to have a CPA")
    for u in units:
        if not isinstance(u, Unit):
            raise CNAInputError(f"expected Unit members of the formation, got {u!r}")
    return min(u.cpa_for(function) for u in units)


def slowest_members(members: Iterable[Unit], function: Function = Function.MOVEMENT) -> list[Unit]:
    """The units that set the formation's CPA (CNA 6.15), for explanations."""
    units = list(members)
    low = formation_cpa(units, function)
    return [u for u in units if u.cpa_for(function) == low]


def voluntary_cp_limit(unit: Unit, function: Function) -> Fraction | None:
    """Most CPs a non-motorized unit may have spent after a voluntary expenditure in its
    own portion: 150% of its base CPA (CNA 8.17). None for motorized units (no cap)."""
    if unit.is_motorized:
        return None
    return VOLUNTARY_LIMIT * unit.cpa_for(function)


def overrun(cpa: int, spent: Fraction | int) -> int:
    """Whole CPs spent beyond the CPA: the DPs owed for the stage so far (CNA 6.21)."""
    require_int(cpa, "a CPA", minimum=0)
    amount = require_cp_amount(spent, "CPs spent")
    return max(0, math.floor(amount - cpa))


def remaining_before_disorganization(unit: Unit, spent: Fraction | int) -> Fraction:
    """CPs the unit may still spend this stage without earning DPs (CNA 6.13, 6.14)."""
    return max(Fraction(0), unit.disorganization_cpa - require_cp_amount(spent, "CPs spent"))
