"""Cohesion: Disorganization and Reorganization Points (CNA 6.2x).

A Cohesion Level of 0 is a unit's normal state; each Disorganization Point (DP) lowers
it by one and each Reorganization Point (RP) raises it by one, at once (CNA 6.22,
6.23). The level never rises above +10 (CNA 6.23); at -26 or below the unit has
collapsed (CNA 6.26). Levels carry over from stage to stage (CNA 6.16).

>>> apply_disorganization(-1, 3)
-4
>>> apply_reorganization(-3, 5)
2
>>> rest_recovery(-1)
0
>>> combine_cohesion([CohesionGroup("a", Size.BRIGADE, cohesion=c) for c in (-4, -1, 3)]).level
-1
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from hexclass.classroom.cna.capability import Size
from hexclass.classroom.cna.errors import CNAInputError, require_int

MAX_COHESION = 10  # CNA 6.23
COLLAPSE_LEVEL = -26  # CNA 6.26
REST_RPS = 5  # CNA 6.24 (1)
REST_CEILING = 0  # CNA 6.24 (1): resting never lifts a unit above 0
ASSAULT_WIN_RPS = 3  # CNA 6.24 (2)
HEAVY_LOSS_DPS = 3  # CNA 6.21
HEAVY_LOSS_SHARE = Fraction(3, 10)  # CNA 6.21: losses of 30% or more in one close assault


def require_level(level: object, what: str = "a Cohesion Level") -> int:
    """A whole-number Cohesion Level no higher than +10 (CNA 6.23)."""
    value = require_int(level, what)
    if value > MAX_COHESION:
        raise CNAInputError(f"{what} can be at most +{MAX_COHESION} (CNA 6.23), got {value}")
    return value


def apply_disorganization(level: int, dps: int) -> int:
    """Lower the level by ``dps``; there is no floor (CNA 6.22, 6.26 note)."""
    return require_level(level) - require_int(dps, "a number of DPs", minimum=0)


def apply_reorganization(level: int, rps: int) -> int:
    """Raise the level by ``rps``, never past +10 (CNA 6.23)."""
    return min(MAX_COHESION, require_level(level) + require_int(rps, "a number of RPs", minimum=0))


def rest_recovery(level: int) -> int:
    """Level after a stage with no CPs spent: 5 RPs, but never above 0 (CNA 6.24 (1)).

    A unit already at 0 or better keeps its level; resting never lowers it.
    """
    lvl = require_level(level)
    return lvl if lvl >= REST_CEILING else min(REST_CEILING, lvl + REST_RPS)


def has_heavy_losses(strength_before: int, strength_lost: int) -> bool:
    """Losses of 30% or more of TOE Strength in one close assault (CNA 6.21)."""
    before = require_int(strength_before, "the TOE Strength before the assault", minimum=1)
    lost = require_int(strength_lost, "the TOE Strength lost", minimum=0)
    if lost > before:
        raise CNAInputError(f"a unit cannot lose {lost} TOE Strength Points out of {before}")
    return Fraction(lost, before) >= HEAVY_LOSS_SHARE


def is_collapsed(level: int) -> bool:
    """At -26 or worse a unit can neither move, attack nor defend (CNA 6.26, 8.17)."""
    return require_int(level, "a Cohesion Level") <= COLLAPSE_LEVEL


def surrenders(level: int, enemy_combat_unit_adjacent: bool) -> bool:
    """A collapsed unit surrenders when an enemy combat unit moves next to it (CNA 6.26)."""
    return is_collapsed(level) and bool(enemy_combat_unit_adjacent)


def round_half_up(value: Fraction) -> int:
    """Nearest whole number, halves rounded upwards (towards +10); see docs/notes-cna.md."""
    return math.floor(value + Fraction(1, 2))


# --- several units in one close assault, and parent formations (CNA 6.27-6.29) ---------


@dataclass(frozen=True)
class CohesionGroup:
    """A unit with its own Cohesion Level, or a parent formation built of members.

    A formation's level is worked out from its members (CNA 6.28), so a group has either
    ``cohesion`` (a single unit) or ``members`` (a formation), never both.
    """

    name: str
    size: Size
    cohesion: int | None = None
    members: tuple[CohesionGroup, ...] = ()
    stacking_points: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.size, Size):
            raise CNAInputError(f"expected a Size for {self.name!r}, got {self.size!r}")
        if self.stacking_points is not None:
            require_int(self.stacking_points, f"the Stacking Points of {self.name}", minimum=0)
        if (self.cohesion is None) == (not self.members):
            raise CNAInputError(
                f"{self.name!r} needs either its own Cohesion Level or member units, not "
                f"{'both' if self.members else 'neither'}"
            )
        if self.cohesion is not None:
            require_level(self.cohesion, f"the Cohesion Level of {self.name}")
        for m in self.members:
            if not isinstance(m, CohesionGroup):
                raise CNAInputError(f"members of {self.name!r} must be CohesionGroups, got {m!r}")


@dataclass(frozen=True)
class CombinedCohesion:
    """The level used for a battle, and how it was found."""

    level: int
    prevailing: tuple[str, ...]
    average: Fraction
    rule: str = "CNA 6.27"

    def explain(self) -> str:
        names = ", ".join(self.prevailing)
        if len(self.prevailing) == 1:
            return f"{names} is the largest unit; its level {self.level} prevails ({self.rule})"
        return (
            f"largest units {names} average {float(self.average):+.2f}, "
            f"rounded to {self.level} ({self.rule})"
        )


def _largeness(groups: list[CohesionGroup]) -> list[int]:
    """Size measure for 'largest': Stacking Points if all have them, else size class."""
    known = [g.stacking_points is not None for g in groups]
    if all(known):
        return [g.stacking_points for g in groups]  # type: ignore[misc]
    if any(known):
        raise CNAInputError(
            "give Stacking Points for all the units or for none of them, so their sizes "
            "can be compared (CNA 6.27)"
        )
    return [int(g.size) for g in groups]


def group_level(group: CohesionGroup) -> int:
    """A unit's own level, or a formation's level from its members (CNA 6.28)."""
    if group.cohesion is not None:
        return group.cohesion
    return combine_cohesion(group.members).level


def combine_cohesion(groups: Iterable[CohesionGroup]) -> CombinedCohesion:
    """The level for units fighting together: the largest prevail; several largest are
    averaged and rounded to the nearest whole number (CNA 6.27). Formations among them
    are first given their own level from their members (CNA 6.28)."""
    units = list(groups)
    if not units:
        raise CNAInputError("expected at least one unit to combine Cohesion Levels")
    for g in units:
        if not isinstance(g, CohesionGroup):
            raise CNAInputError(f"expected CohesionGroups, got {g!r}")
    sizes = _largeness(units)
    top = max(sizes)
    largest = [g for g, s in zip(units, sizes, strict=True) if s == top]
    average = Fraction(sum(group_level(g) for g in largest), len(largest))
    rule = "CNA 6.28" if any(g.members for g in largest) else "CNA 6.27"
    return CombinedCohesion(round_half_up(average), tuple(g.name for g in largest), average, rule)
