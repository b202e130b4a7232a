"""Terrain costs for tactical movement (PBM "Movement Phasing by Unit Type", "Minor
Rivers", "Major Rivers"). The cost table itself is lost with the figures; the costs here
are hexclass's reading, chosen so the source's jungle example works (four forested
hexes and a minor river, then an admin move, all in one turn by infantry), and
recorded in docs/rules-notes.md ("PBM: terrain costs").

``None`` means the unit may not enter; ``ROAD_ONLY`` means vehicles may enter only along a
road or railway (the table's ``**``).

>>> hex_cost("forest", "foot"), hex_cost("forest", "vehicle"), hex_cost("jungle", "foot", "jungle")
(1, 2, 1)
>>> river_cost("foot"), river_cost("vehicle"), river_cost("vehicle", amphibious=True)
(1, 2, 0)
"""

from __future__ import annotations

from .errors import MovementInputError
from .units import FOOT, TOWED, VEHICLE

ROAD_ONLY = "road only"
# terrain: (foot, towed, vehicle)
COSTS: dict[str, tuple] = {
    "clear": (1, 1, 1),
    "village": (1, 1, 1),
    "town": (1, 1, 1),
    "city": (1, 1, 1),
    "forest": (1, 2, 2),
    "hill": (2, 2, 2),
    "jungle": (2, 3, ROAD_ONLY),
    "marsh": (2, ROAD_ONLY, ROAD_ONLY),
    "mountain": (3, ROAD_ONLY, ROAD_ONLY),
    "water": (None, None, None),  # lakes and sea: amphibious only (***)
}
# Elite infantry trained for a terrain pays less there (the table's @).
SPECIALIST = {"jungle": ("jungle", 1), "mountain": ("mountain", 2)}
_CLASS = {FOOT: 0, TOWED: 1, VEHICLE: 2}


def hex_cost(terrain: str, cost_class: str, specialty: str | None = None, amphibious: bool = False):
    """Movement points to enter a hex of ``terrain`` off-road, or None/ROAD_ONLY."""
    try:
        row = COSTS[terrain]
    except KeyError:
        raise MovementInputError(
            f"unknown terrain {terrain!r}; the map knows {', '.join(COSTS)}"
        ) from None
    if terrain == "water":
        return 1 if amphibious else None
    for t, (skill, cost) in SPECIALIST.items():
        if terrain == t and specialty == skill:
            return cost
    return row[_CLASS[cost_class]]


def river_cost(cost_class: str, amphibious: bool = False, specialty: str | None = None) -> int:
    """Extra points to cross a minor river hexside: 1 for infantry, 2 for everyone else,
    0 for amphibious vehicles; commandos, marines and engineers ignore minor rivers."""
    if amphibious or specialty in ("commando", "marine", "engineer"):
        return 0
    return 1 if cost_class == FOOT else 2


ROAD_COST = 1  # along a road or railway every unit pays 1 a hex, whatever the terrain
