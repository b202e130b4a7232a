"""The source's worked examples as small maps (PBM "Admin movement", "Combining Admin and
Tactical Mode"). Hex numbers are chosen so the ones the text quotes come out the same:
the hex south of Hycondea City is 3825, the provincial capital stands in 1328.
"""

from __future__ import annotations

from dataclasses import dataclass

from .hexmap import from_offset
from .units import Mover, UnitType
from .world import Centre, Route, World, paint, rectangle

BLUE, RED = "blue", "red"


@dataclass(frozen=True)
class Scenario:
    key: str
    title: str
    world: World
    units: tuple[Mover, ...]
    note: str


def _road(start, directions):
    from .hexmap import step

    hexes = [start]
    for d in directions:
        hexes.append(step(hexes[-1], d))
    return tuple(hexes)


# --- Diaz, Lozano, Hycondea City ---------------------------------------------------------
DIAZ, LOZANO, HYCONDEA = 505, 506, 501


def diaz_world(lozano_owner: str = BLUE) -> World:
    terrain = rectangle(6, 6)
    diaz_hex = from_offset(4, 5)
    leg1 = _road(diaz_hex, [1, 6, 6])  # Diaz north, then north-west twice: Lozano
    leg2 = _road(leg1[-1], [6, 1, 1])  # on to Hycondea City
    for h in leg1 + leg2:
        terrain[h] = "clear"
    centres = {
        DIAZ: Centre(DIAZ, "Diaz", diaz_hex, BLUE),
        LOZANO: Centre(LOZANO, "Lozano", leg1[-1], lozano_owner),
        HYCONDEA: Centre(HYCONDEA, "Hycondea City", leg2[-1], BLUE),
    }
    terrain[diaz_hex] = terrain[leg1[-1]] = "town"
    terrain[leg2[-1]] = "city"
    routes = (Route(DIAZ, LOZANO, leg1), Route(LOZANO, HYCONDEA, leg2))
    return World(terrain, centres, routes, label_offset=(37, 24))


def diaz(
    orders: str = "506,501",
    kind: UnitType = UnitType.MECHANISED,
    start_north: bool = False,
    lozano_owner: str = BLUE,
) -> Scenario:
    w = diaz_world(lozano_owner)
    start = w.routes[0].hexes[1] if start_north else w.centres[DIAZ].hex
    unit = Mover("convoy", BLUE, kind, start, orders)
    return Scenario(
        "diaz",
        "Diaz to Hycondea City",
        w,
        (unit,),
        "Admin moves go centre to centre: Lozano must be named on the way.",
    )


# --- Tacapulco Town and Estel Village ---------------------------------------------------------
TACAPULCO, ESTEL = 601, 605


def village_world() -> World:
    terrain = rectangle(9, 5)
    start = from_offset(0, 2)
    road = _road(start, [3, 2, 3, 2, 3, 2, 3])  # due east along row 2: seven hexes
    paint(
        terrain,
        [
            from_offset(2, 0),
            from_offset(3, 0),
            from_offset(2, 4),
            from_offset(3, 4),
            from_offset(4, 4),
        ],
        "forest",
    )
    paint(terrain, [from_offset(5, 0), from_offset(6, 0)], "hill")
    terrain[start] = "town"
    terrain[road[-1]] = "village"
    centres = {
        TACAPULCO: Centre(TACAPULCO, "Tacapulco Town", start, BLUE),
        ESTEL: Centre(ESTEL, "Estel Village", road[-1], RED),
    }
    return World(terrain, centres, (Route(TACAPULCO, ESTEL, road),), label_offset=(1, 1))


VILLAGE_ORDERS = {"APC": "3,2,3,2,3,2,3", "Infantry": "0,0,0,0,0,605"}


def village(
    apc: str = VILLAGE_ORDERS["APC"],
    infantry: str = VILLAGE_ORDERS["Infantry"],
    defender_strength: int = 3,
) -> Scenario:
    w = village_world()
    t, e = w.centres[TACAPULCO].hex, w.centres[ESTEL].hex
    units = (
        Mover("APC", BLUE, UnitType.MECHANISED, t, apc, strength=8),
        Mover("Infantry", BLUE, UnitType.INFANTRY, t, infantry, strength=5),
        Mover("Estel garrison", RED, UnitType.INFANTRY, e, "", strength=defender_strength),
    )
    return Scenario(
        "village",
        "The APC and the infantry meet at Estel",
        w,
        units,
        "The APC clears the village by phase 7; the infantry waits, then drives in on phase 12.",
    )


# --- The jungle company ------------------------------------------------------------------------
CAPITAL, RIO = 101, 102


def jungle_world() -> World:
    terrain = rectangle(7, 8, "forest")
    road = tuple(from_offset(1, r) for r in (2, 3, 4, 5, 6))  # Rio village south to the capital
    for h in road:
        terrain[h] = "clear"
    terrain[road[0]], terrain[road[-1]] = "village", "city"
    centres = {
        RIO: Centre(RIO, "Rio Verde", road[0], BLUE),
        CAPITAL: Centre(CAPITAL, "provincial capital", road[-1], BLUE),
    }
    # a minor river bends round the north-east of hex 1425, the company's third hex
    rivers = frozenset(
        frozenset(pair)
        for pair in [((2, 2), (2, 3)), ((3, 2), (2, 3)), ((3, 3), (2, 3)), ((3, 3), (2, 4))]
    )
    return World(
        terrain, centres, (Route(RIO, CAPITAL, road),), minor_rivers=rivers, label_offset=(12, 22)
    )


def jungle(orders: str = "5,5,5,5,101", kind: UnitType = UnitType.INFANTRY) -> Scenario:
    w = jungle_world()
    unit = Mover("jungle company", BLUE, kind, from_offset(5, 2), orders)
    return Scenario(
        "jungle",
        "The company in the jungle",
        w,
        (unit,),
        "Four forest hexes on foot, a minor river, then a drive down the road.",
    )


# --- Pursuit and breakthrough ------------------------------------------------------------------


def pursuit_world() -> World:
    terrain = rectangle(9, 5)
    paint(terrain, [from_offset(c, r) for c in (5, 6) for r in range(5)], "forest")
    paint(terrain, [from_offset(c, r) for c in (7, 8) for r in range(5)], "jungle")
    return World(terrain, label_offset=(1, 1))


def pursuit(tanks: str = "3,2,3,2,3,2,3,2", option: int = 2) -> Scenario:
    """Tanks driving east into a rearguard on open ground, with an anti-tank screen in
    the forest behind it and jungle beyond (PBM "Pursuit", "Breakthrough")."""
    w = pursuit_world()
    units = (
        Mover(
            "Tanks",
            BLUE,
            UnitType.ARMOUR_NORMAL,
            from_offset(0, 2),
            tanks,
            strength=8,
            pursuit=option,
            aggression=6,
        ),
        Mover("Rearguard", RED, UnitType.INFANTRY, from_offset(2, 2), "", strength=3),
        Mover(
            "AT screen", RED, UnitType.INFANTRY, from_offset(6, 2), "", strength=4, anti_tank=True
        ),
    )
    return Scenario(
        "pursuit",
        "Pursuit and breakthrough",
        w,
        units,
        "Set the tanks' pursuit option: 1 stops, 2 chases the rearguard, 3 tries to break through.",
    )


SCENARIOS = {"village": village, "diaz": diaz, "jungle": jungle, "pursuit": pursuit}
