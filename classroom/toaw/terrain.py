"""Terrain, hex features and hexside features used by the TOAW supply model.

The manual excerpt (TOAW 9.1.7) names the terrain that matters to supply but its movement
cost chart (TOAW 11.9) is not part of the excerpt. The motorized costs below are therefore
hexclass's own choice, recorded in ``docs/notes-toaw.md``: clear going costs 1 MP so that
distances on open ground read as hex counts (which is what the manual's worked example of
a 14-MP trace needs), and rougher ground costs more. Everything the text *does* state is
encoded as data here and cited:

* which terrain blocks a line of communication off a road (badlands, dunes) and which
  a land unit cannot enter at all (TOAW 9.1.7, "Lines of Communication");
* which terrain forms the old rules' fully supplied net (urban, with roads, airfields and
  anchorages) and normal net (open, cropland) (TOAW 9.1.7.2);
* which terrain cuts a unit's resupply by a third (marsh, flooded marsh, mountain)
  (TOAW 9.1.7.2, "Local Terrain Effects");
* that flooded marsh, badlands and dunes are out of reach of the virtual supply unit
  (TOAW 9.1.7.3).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, IntFlag


class Terrain(IntEnum):
    """The terrain of a hex (one per hex; roads and rails are separate features)."""

    OPEN = 0
    CROPLAND = 1
    URBAN = 2
    DENSE_URBAN = 3
    LIGHT_WOODS = 4
    FOREST = 5
    JUNGLE = 6
    HILLS = 7
    MOUNTAIN = 8
    MARSH = 9
    FLOODED_MARSH = 10
    BADLANDS = 11
    DUNES = 12
    WATER = 13


class Feature(IntFlag):
    """Man-made features of a hex; several may be present at once."""

    NONE = 0
    ROAD = 1
    IMPROVED_ROAD = 2  # counts as a road as well
    RAIL = 4
    AIRFIELD = 8
    ANCHORAGE = 16


class HexsideFeature(IntEnum):
    """Hexside features that matter to the new supply trace (TOAW 9.1.7.3)."""

    MAJOR_RIVER = 1
    MAJOR_ESCARPMENT = 2


class OldNet(IntEnum):
    """Which old-rules trace a terrain type may carry (TOAW 9.1.7.2)."""

    NONE = 0
    FULL = 1  # urban locations extend the fully supplied net
    NORMAL = 2  # open and cropland locations carry normal supply


@dataclass(frozen=True, slots=True)
class TerrainRule:
    """What one terrain type means to supply.

    ``motorized_mp`` is the cost for the virtual supply unit to enter the hex off-road,
    or None if it cannot (hexclass's chosen values; see the module docstring).
    ``land`` says whether a normal land unit can enter it at all. ``road_only_loc``
    marks terrain that blocks a line of communication unless the hex has a road.
    ``resupply_cut`` marks terrain whose units lose a third of their resupply.
    """

    motorized_mp: float | None
    land: bool = True
    road_only_loc: bool = False
    old_net: OldNet = OldNet.NONE
    resupply_cut: bool = False


TERRAIN_RULES: dict[Terrain, TerrainRule] = {
    Terrain.OPEN: TerrainRule(1.0, old_net=OldNet.NORMAL),
    Terrain.CROPLAND: TerrainRule(1.0, old_net=OldNet.NORMAL),
    Terrain.URBAN: TerrainRule(1.0, old_net=OldNet.FULL),
    Terrain.DENSE_URBAN: TerrainRule(2.0, old_net=OldNet.FULL),
    Terrain.LIGHT_WOODS: TerrainRule(2.0),
    Terrain.FOREST: TerrainRule(3.0),
    Terrain.JUNGLE: TerrainRule(4.0),
    Terrain.HILLS: TerrainRule(2.0),
    Terrain.MOUNTAIN: TerrainRule(4.0, resupply_cut=True),
    Terrain.MARSH: TerrainRule(3.0, resupply_cut=True),
    Terrain.FLOODED_MARSH: TerrainRule(None, resupply_cut=True),
    Terrain.BADLANDS: TerrainRule(None, road_only_loc=True),
    Terrain.DUNES: TerrainRule(None, road_only_loc=True),
    Terrain.WATER: TerrainRule(None, land=False),
}

# Chosen values (not in the excerpt): moving along a road from one road hex to the next
# costs the motorized supply unit half a movement point; mud doubles the cost of entering
# a hex unless the move runs along an improved road.
ROAD_MP = 0.5
MUD_FACTOR = 2.0

# Single-character codes for ASCII test maps and scenario files.
TERRAIN_CHARS: dict[str, Terrain] = {
    ".": Terrain.OPEN,
    "c": Terrain.CROPLAND,
    "u": Terrain.URBAN,
    "U": Terrain.DENSE_URBAN,
    "w": Terrain.LIGHT_WOODS,
    "f": Terrain.FOREST,
    "j": Terrain.JUNGLE,
    "h": Terrain.HILLS,
    "m": Terrain.MOUNTAIN,
    "s": Terrain.MARSH,
    "S": Terrain.FLOODED_MARSH,
    "b": Terrain.BADLANDS,
    "d": Terrain.DUNES,
    "~": Terrain.WATER,
}

FEATURE_CHARS: dict[str, Feature] = {
    ".": Feature.NONE,
    "r": Feature.ROAD,
    "i": Feature.IMPROVED_ROAD,
    "R": Feature.RAIL,
    "x": Feature.ROAD | Feature.RAIL,
    "a": Feature.AIRFIELD,
    "n": Feature.ANCHORAGE,
}


def terrain_rule(terrain: Terrain | int) -> TerrainRule:
    return TERRAIN_RULES[Terrain(terrain)]
