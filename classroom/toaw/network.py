"""Lines of communication and the graphs supply is traced over (TOAW 9.1.7, 9.1.7.3).

Two kinds of graph are built from a map and a situation, both as scipy CSR matrices
whose nodes are the map's hexes in row order:

* the **LOC graph**: every step between two hexes that a line of communication may use
  (TOAW 9.1.7, "Lines of Communication"); the old rules count steps on it;
* the **motorized graph**: the moves of the new rules' virtual supply unit, weighted by
  the movement points it pays to enter each hex (TOAW 9.1.7.3).

Shortest paths are left to :mod:`scipy.sparse.csgraph`. The scalar helpers
(:func:`block_reason`, :func:`motorized_entry_cost`) state the same rules hex by hex for
explanations and for the pure-Python reference in the benchmarks; the tests check that
the vectorised graphs agree with them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from hexclass.classroom import hexgrid
from hexclass.classroom.hexgrid import Hex

from .hexmap import HexMap, neighbour_table
from .situation import Situation, SupplySettings
from .terrain import (
    MUD_FACTOR,
    ROAD_MP,
    TERRAIN_RULES,
    Feature,
    HexsideFeature,
    Terrain,
)


class Block(IntEnum):
    """Why a line of communication may not pass through a hex (TOAW 9.1.7)."""

    NONE = 0
    ENEMY_UNIT = 1  # the hex holds an enemy unit
    IMPASSABLE = 2  # a normal land unit cannot enter the terrain
    ENEMY_ADJACENT = 3  # next to an enemy unit and not held by a friendly unit
    OFF_ROAD = 4  # badlands or dunes without a road

    def describe(self) -> str:
        return _BLOCK_TEXT[self]


_BLOCK_TEXT = {
    Block.NONE: "open to lines of communication",
    Block.ENEMY_UNIT: "an enemy unit stands here (TOAW 9.1.7)",
    Block.IMPASSABLE: "land units cannot enter this terrain (TOAW 9.1.7)",
    Block.ENEMY_ADJACENT: "next to an enemy unit with no friendly unit here (TOAW 9.1.7)",
    Block.OFF_ROAD: "badlands or dunes without a road (TOAW 9.1.7)",
}

# terrain-indexed lookup arrays (uint8 terrain code -> property)
_LAND = np.array([TERRAIN_RULES[t].land for t in Terrain])
_ROAD_ONLY = np.array([TERRAIN_RULES[t].road_only_loc for t in Terrain])
_MOT_MP = np.array(
    [
        np.inf if TERRAIN_RULES[t].motorized_mp is None else TERRAIN_RULES[t].motorized_mp
        for t in Terrain
    ]
)
_ROADISH = int(Feature.ROAD | Feature.IMPROVED_ROAD)


def _mask(hexmap: HexMap, hexes) -> np.ndarray:
    m = np.zeros(hexmap.size, dtype=bool)
    if hexes:
        m[[hexmap.index(h) for h in hexes]] = True
    return m


@dataclass(frozen=True, eq=False)
class Network:
    """Per-hex facts about one map + situation, flattened in node order."""

    hexmap: HexMap
    situation: Situation
    block: np.ndarray  # Block code per node
    friendly_control: np.ndarray  # bool
    muddy: np.ndarray  # bool
    road: np.ndarray  # bool: road or improved road
    improved: np.ndarray  # bool
    rail_ok: np.ndarray  # bool: undamaged, friendly-controlled, unblocked rail hex
    source_strength: np.ndarray  # float: strength of an active source, 0 elsewhere

    @property
    def loc_ok(self) -> np.ndarray:
        return self.block == Block.NONE


def build_network(hexmap: HexMap, situation: Situation) -> Network:
    """Work out, for every hex, whether lines of communication may pass it and why not."""
    situation.check_against(hexmap)
    terrain = hexmap.terrain.ravel()
    features = hexmap.features.ravel()
    road = (features & _ROADISH) != 0
    enemy = _mask(hexmap, situation.enemy_units)
    friendly = _mask(hexmap, situation.friendly_hexes)
    table = hexmap.neighbour_table()
    near_enemy = np.zeros(hexmap.size, dtype=bool)
    enemy_idx = np.flatnonzero(enemy)
    if enemy_idx.size:
        nb = table[enemy_idx].ravel()
        near_enemy[nb[nb >= 0]] = True
    # TOAW 9.1.7: the four ways a hex can block a line of communication
    block = np.zeros(hexmap.size, dtype=np.uint8)
    block[_ROAD_ONLY[terrain] & ~road] = Block.OFF_ROAD
    block[near_enemy & ~friendly] = Block.ENEMY_ADJACENT
    block[~_LAND[terrain]] = Block.IMPASSABLE
    block[enemy] = Block.ENEMY_UNIT
    control = ~_mask(hexmap, situation.enemy_controlled)
    loc_ok = block == Block.NONE
    rail_ok = (
        ((features & Feature.RAIL) != 0) & ~_mask(hexmap, situation.damaged_rail) & control & loc_ok
    )
    strength = np.zeros(hexmap.size)
    for s in situation.sources:
        i = hexmap.index(s.hex)
        if loc_ok[i] and control[i]:  # a friendly-controlled, unblocked supply point
            strength[i] = s.strength
    for a in (block, control, rail_ok, strength, road):
        a.flags.writeable = False
    return Network(
        hexmap=hexmap,
        situation=situation,
        block=block,
        friendly_control=control,
        muddy=_mask(hexmap, situation.muddy),
        road=road,
        improved=(features & Feature.IMPROVED_ROAD) != 0,
        rail_ok=rail_ok,
        source_strength=strength,
    )


# --- graphs --------------------------------------------------------------------------------


def _csr(n: int, src: np.ndarray, dst: np.ndarray, weight: np.ndarray) -> csr_matrix:
    """CSR matrix from edges already sorted by source node."""
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
    return csr_matrix((weight, dst, indptr), shape=(n, n))


def _edge_arrays(hexmap: HexMap) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All on-map directed steps as (src, dst, slot) with slot = src * 6 + direction."""
    return _edges_for_size(hexmap.width, hexmap.height)


@lru_cache(maxsize=8)
def _edges_for_size(width: int, height: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    flat = neighbour_table(width, height).ravel()
    slot = np.flatnonzero(flat >= 0)
    out = (slot // 6, flat[slot], slot)
    for a in out:
        a.flags.writeable = False
    return out


def subgraph(
    hexmap: HexMap, nodes: np.ndarray, weight: float = 1.0, edge_ok: np.ndarray | None = None
) -> csr_matrix:
    """Unit-weight graph of steps between two hexes of ``nodes`` (a bool mask).

    ``edge_ok``, if given, is a bool array over the neighbour-table slots (node*6 + dir)
    further restricting which steps exist.
    """
    src, dst, slot = _edge_arrays(hexmap)
    keep = nodes[src] & nodes[dst]
    if edge_ok is not None:
        keep &= edge_ok[slot]
    return _csr(hexmap.size, src[keep], dst[keep], np.full(int(keep.sum()), weight))


def loc_graph(net: Network) -> csr_matrix:
    """Steps a line of communication may take: both hexes open to LOCs (TOAW 9.1.7)."""
    return subgraph(net.hexmap, net.loc_ok)


def _hexside_slots(net: Network, link_road: np.ndarray) -> np.ndarray:
    """Bool over slots: False where a hexside feature stops the supply unit (TOAW 9.1.7.3).

    A major escarpment blocks unless a road crosses it; a major river can be crossed only
    by a road bridge that has not been destroyed. (Ferries are not modelled.)
    """
    hexmap = net.hexmap
    ok = np.ones(hexmap.size * 6, dtype=bool)
    for side, feature in hexmap.hexsides.items():
        a, b = tuple(side)
        for x, y in ((a, b), (b, a)):
            s = hexmap.index(x) * 6 + hexgrid.direction_to(x, y)
            crossing = bool(link_road[s])
            if feature == HexsideFeature.MAJOR_RIVER:
                crossing = crossing and side not in net.situation.destroyed_bridges
            ok[s] = crossing
    return ok


def motorized_graph(net: Network, settings: SupplySettings) -> csr_matrix:
    """The virtual supply unit's moves, weighted by MPs to enter the hex (TOAW 9.1.7.3)."""
    hexmap = net.hexmap
    src, dst, slot = _edge_arrays(hexmap)
    road_link = np.zeros(hexmap.size * 6, dtype=bool)
    road_link[slot] = net.road[src] & net.road[dst]
    improved_link = net.improved[src] & net.improved[dst]
    terrain = hexmap.terrain.ravel()
    cost = np.where(road_link[slot], ROAD_MP, _MOT_MP[terrain[dst]])
    cost = np.where(net.muddy[dst] & ~improved_link, cost * MUD_FACTOR, cost)
    cost = np.where(improved_link, cost, cost * settings.improved_road_divisor)
    keep = net.loc_ok[src] & net.loc_ok[dst] & np.isfinite(cost)
    if hexmap.hexsides:
        keep &= _hexside_slots(net, road_link)[slot]
    return _csr(hexmap.size, src[keep], dst[keep], cost[keep])


def motorized_entry_cost(net: Network, settings: SupplySettings, a: Hex, b: Hex) -> float | None:
    """MPs the virtual supply unit pays to step from ``a`` into adjacent ``b``, or None.

    The same rule as :func:`motorized_graph`, one step at a time (TOAW 9.1.7.3).
    """
    hexmap = net.hexmap
    ia, ib = hexmap.index(a), hexmap.index(b)
    direction = hexgrid.direction_to(a, b)
    if direction is None or not (net.loc_ok[ia] and net.loc_ok[ib]):
        return None
    road_link = bool(net.road[ia] and net.road[ib])
    improved_link = bool(net.improved[ia] and net.improved[ib])
    side = hexmap.hexside_at(a, b)
    if side is not None and not road_link:
        return None
    if side == HexsideFeature.MAJOR_RIVER and frozenset((a, b)) in net.situation.destroyed_bridges:
        return None
    cost = ROAD_MP if road_link else TERRAIN_RULES[hexmap.terrain_at(b)].motorized_mp
    if cost is None:
        return None
    if net.muddy[ib] and not improved_link:
        cost *= MUD_FACTOR
    if not improved_link:
        cost *= settings.improved_road_divisor
    return float(cost)


def block_reason(net: Network, h: Hex) -> Block:
    return Block(int(net.block[net.hexmap.index(h)]))


# --- rail lines ------------------------------------------------------------------------------


def rail_broadcast(net: Network) -> tuple[np.ndarray, np.ndarray]:
    """Strength each hex takes as a supply point, and the source it came from.

    An unbroken rail line (undamaged, friendly-controlled, unblocked rail hexes) that
    touches an active supply point turns every hex on it into a supply point of the
    strongest source it touches (TOAW 9.1.7.3). Sources keep their own strength. The
    second array holds the node of the originating source (-1 where none).
    """
    hexmap = net.hexmap
    strength = net.source_strength.copy()
    origin = np.where(strength > 0, np.arange(hexmap.size), -1)
    members = net.rail_ok | (strength > 0)
    src, dst, slot = _edge_arrays(hexmap)
    keep = members[src] & members[dst] & (net.rail_ok[src] | net.rail_ok[dst])
    graph = _csr(hexmap.size, src[keep], dst[keep], np.ones(int(keep.sum())))
    n_comp, label = connected_components(graph, directed=False)
    src_nodes = np.flatnonzero(net.source_strength > 0)
    if src_nodes.size == 0:
        return strength, origin
    best_strength = np.zeros(n_comp)
    np.maximum.at(best_strength, label[src_nodes], net.source_strength[src_nodes])
    strongest = src_nodes[net.source_strength[src_nodes] == best_strength[label[src_nodes]]]
    best_origin = np.full(n_comp, -1)
    best_origin[label[strongest]] = strongest  # any one of equally strong sources will do
    line_strength = np.where(net.rail_ok, best_strength[label], 0.0)
    raise_to = line_strength > strength
    strength[raise_to] = line_strength[raise_to]
    origin[raise_to] = best_origin[label[raise_to]]
    return strength, origin
