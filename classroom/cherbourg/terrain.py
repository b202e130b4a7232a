"""The terrain table of *Battle of Cherbourg*: movement costs and combat column shifts.

Costs per hex for non-motorised and motorised units, and how many columns a defender in
that terrain moves the combat to the left (Table of Effects of Terrain; Cherbourg 4.0,
5.1.2). ``None`` is a hex the unit may not enter.

>>> path_cost(["clear", "bocage", "river", "grove"], motorised=False)   # Cherbourg 4.0
6.0
>>> terrain_shift(["village", "river"])          # the largest, not the sum (5.1.2)
2
>>> terrain_shift(["bocage"], attacker_has_armour=True)
4
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import CherbourgInputError


@dataclass(frozen=True)
class TerrainEffect:
    name: str
    foot: float | None  # movement points, non-motorised (None: forbidden)
    motorised: float | None  # movement points, motorised (None: forbidden)
    columns: int  # columns to the left for a defender here


TERRAIN: dict[str, TerrainEffect] = {
    t.name: t
    for t in (
        TerrainEffect("clear", 1, 1, 0),
        TerrainEffect("grove", 2, 3, 1),
        TerrainEffect("rough", 2, 2, 2),
        TerrainEffect("road", 1, 0.5, 0),
        TerrainEffect("trail", 1, 1, 0),
        TerrainEffect("bocage", 2, 3, 2),
        TerrainEffect("fortification", None, None, 3),
        TerrainEffect("river", 1, 2, 2),
        TerrainEffect("city", 1, 1, 2),
        TerrainEffect("village", 1, 1, 1),
        TerrainEffect("airfield", 1, 1, 1),
        TerrainEffect("swamp", 2, None, 1),
        TerrainEffect("sea", None, None, 0),
    )
}
BOCAGE_ARMOUR_EXTRA = 2  # bocage is worth 4 columns against armour (Cherbourg 5.1.2)


def terrain(name: str) -> TerrainEffect:
    try:
        return TERRAIN[name]
    except KeyError:
        raise CherbourgInputError(
            f"unknown terrain {name!r}; the terrain table has {', '.join(TERRAIN)}"
        ) from None


def movement_cost(name: str, motorised: bool) -> float | None:
    """Movement points to enter a hex of this terrain (Cherbourg 4.0 and its table).

    Fortification hexes carry no movement figure in the table; they are read as costing
    what the hex's other terrain costs (see docs/rules-notes.md), so they are refused
    here on their own.
    """
    t = terrain(name)
    return t.motorised if motorised else t.foot


def path_cost(hexes: Iterable[str], motorised: bool) -> float:
    """Total cost of entering each terrain in turn; refuses forbidden terrain (Cherbourg 4.0)."""
    total = 0.0
    for name in hexes:
        cost = movement_cost(name, motorised)
        if cost is None:
            kind = "motorised" if motorised else "non-motorised"
            raise CherbourgInputError(f"{name} may not be entered by {kind} units (Cherbourg 4.0)")
        total += cost
    return total


def terrain_shift(features: Iterable[str], attacker_has_armour: bool = False) -> int:
    """Columns to the left for the defender's hex (Cherbourg 5.1.2).

    Only the single most protective terrain in the hex counts; bocage rises from 2 to 4
    columns when the attack includes armour or mechanised cavalry.
    """
    best = 0
    for name in features:
        cols = terrain(name).columns
        if name == "bocage" and attacker_has_armour:
            cols += BOCAGE_ARMOUR_EXTRA
        best = max(best, cols)
    return best


def dominant_ground(mine: Iterable[str], theirs: Iterable[str], axis_in_fort: bool = False) -> bool:
    """True if my hex gives more columns in combat than the enemy's (Cherbourg 4.1.2).

    A unit on dominant ground need neither attack nor break contact. German and Russian
    units in a fortification are always on dominant ground (``axis_in_fort``).
    """
    if axis_in_fort:
        return True
    return terrain_shift(mine) > terrain_shift(theirs)
