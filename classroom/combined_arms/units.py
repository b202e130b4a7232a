"""Your platoons and the enemy's counters (CA "The Units").

You command rifle platoons D1-D3, E1-E3 and F1-F3 (three companies), MMG platoons M1
and M2, and armour platoons A1-A3. Rifle and MMG platoons are both *infantry*. Each
counter is fresh or spent; armour also faces one of its hex's six corners.

The enemy side is a set of posts, one per hex: a platoon counter (potential until a
reveal test makes it real or removes it) and perhaps an ATG counter sharing its
fresh/spent status.
"""

from __future__ import annotations

from dataclasses import dataclass

from hexclass.classroom.hexgrid import Hex

RIFLE = "rifle"
MMG = "mmg"
ARMOUR = "armour"

RIFLE_IDS = ("D1", "D2", "D3", "E1", "E2", "E3", "F1", "F2", "F3")
MMG_IDS = ("M1", "M2")
ARMOUR_IDS = ("A1", "A2", "A3")
ALL_IDS = RIFLE_IDS + MMG_IDS + ARMOUR_IDS
COMPANIES = ("D", "E", "F")


def kind_of(unit_id: str) -> str:
    if unit_id in RIFLE_IDS:
        return RIFLE
    if unit_id in MMG_IDS:
        return MMG
    if unit_id in ARMOUR_IDS:
        return ARMOUR
    raise ValueError(f"{unit_id!r} is not a platoon; expected one of {', '.join(ALL_IDS)}")


# Where a friendly platoon is.
OFF = "off"  # not yet entered (CA "Movement": platoons begin off the board)
BOARD = "board"
WITHDRAWN = "withdrawn"  # moved back off the rear edge, or out of ammo
EXPLOITED = "exploited"  # in the enemy withdrawn box
BROKEN = "broken"


@dataclass(slots=True)
class Platoon:
    """One of your platoons; mutable, owned by a GameState."""

    id: str
    where: str = OFF
    hex: Hex | None = None
    fresh: bool = True
    facing: int | None = None  # armour only: the corner it faces (hexgrid numbering)

    @property
    def kind(self) -> str:
        return kind_of(self.id)

    @property
    def company(self) -> str | None:
        return self.id[0] if self.id in RIFLE_IDS else None

    @property
    def is_rifle(self) -> bool:
        return self.id[0] in "DEF"

    @property
    def is_mmg(self) -> bool:
        return self.id[0] == "M"

    @property
    def is_armour(self) -> bool:
        return self.id[0] == "A"

    @property
    def is_infantry(self) -> bool:
        return self.id[0] != "A"

    @property
    def on_board(self) -> bool:
        return self.where == BOARD


# Enemy counter states.
POTENTIAL = "potential"
REAL = "real"


@dataclass(slots=True)
class EnemyPost:
    """The enemy counters in one hex."""

    hex: Hex
    platoon: str | None = POTENTIAL  # potential, real, or None once removed/broken
    atg: str | None = None  # potential, real, or None
    fresh: bool = True
    atg_removed: bool = False  # ATGs have left this hex (failed test or broken)

    @property
    def revealed(self) -> bool:
        return self.platoon == REAL

    @property
    def empty(self) -> bool:
        return self.platoon is None and self.atg is None
