"""Naive pure-Python supply fields: heapq Dijkstra and deque BFS over dicts of hexes.

The baseline the speed benchmark (``benchmarks/toaw_supply.py``) compares against, and
an independent oracle for the tests: it re-states the rules of TOAW 9.1.7 hex by hex
from the map's lookups, without numpy arrays, scipy graphs or the fast module's
helpers, and must give the same numbers as :func:`hexclass.classroom.toaw.supply_field`.
Returns plain dicts ``{hex: fraction}`` holding only supplied hexes.
"""

from __future__ import annotations

import heapq
from collections import deque

from hexclass.classroom import hexgrid
from hexclass.classroom.toaw.hexmap import HexMap
from hexclass.classroom.toaw.situation import Situation, SupplySettings
from hexclass.classroom.toaw.terrain import (
    MUD_FACTOR,
    ROAD_MP,
    TERRAIN_RULES,
    Feature,
    HexsideFeature,
    OldNet,
    Terrain,
)

Hex = tuple[int, int]


class World:
    """Pure-Python lookups for one map + situation."""

    def __init__(self, m: HexMap, sit: Situation) -> None:
        self.m, self.sit = m, sit
        self.hexes = list(m.hexes())
        self.terrain = {h: m.terrain_at(h) for h in self.hexes}
        self.feat = {h: m.features_at(h) for h in self.hexes}
        self.nbrs = {h: m.neighbours(h) for h in self.hexes}
        friendly = sit.friendly_units | sit.supply_units
        near_enemy = {n for e in sit.enemy_units for n in hexgrid.neighbours(e)}
        self.enemy_block = set(sit.enemy_units) | (near_enemy - friendly)
        self.blocked = set()
        for h in self.hexes:
            rule = TERRAIN_RULES[self.terrain[h]]
            if (
                h in sit.enemy_units
                or not rule.land
                or (h in near_enemy and h not in friendly)
                or (rule.road_only_loc and not self.road(h))
            ):
                self.blocked.add(h)
        self.sources = {
            s.hex: float(s.strength)
            for s in sit.sources
            if s.hex not in self.blocked and s.hex not in sit.enemy_controlled
        }

    def road(self, h: Hex) -> bool:
        return bool(self.feat[h] & (Feature.ROAD | Feature.IMPROVED_ROAD))

    def improved(self, h: Hex) -> bool:
        return bool(self.feat[h] & Feature.IMPROVED_ROAD)

    def rail_ok(self, h: Hex) -> bool:
        return (
            bool(self.feat[h] & Feature.RAIL)
            and h not in self.sit.damaged_rail
            and h not in self.sit.enemy_controlled
            and h not in self.blocked
        )

    def cost(self, a: Hex, b: Hex, divisor: int) -> float | None:
        """MPs for the virtual supply unit to step from a into b (TOAW 9.1.7.3)."""
        if a in self.blocked or b in self.blocked:
            return None
        road_link = self.road(a) and self.road(b)
        improved_link = self.improved(a) and self.improved(b)
        side = self.m.hexsides.get(frozenset((a, b)))
        if side is not None:
            if not road_link:
                return None
            if (
                side == HexsideFeature.MAJOR_RIVER
                and frozenset((a, b)) in self.sit.destroyed_bridges
            ):
                return None
        c = ROAD_MP if road_link else TERRAIN_RULES[self.terrain[b]].motorized_mp
        if c is None:
            return None
        if b in self.sit.muddy and not improved_link:
            c *= MUD_FACTOR
        if not improved_link:
            c *= divisor
        return c

    def rail_points(self) -> dict[Hex, float]:
        """Supply points after rail broadcast: hex -> strength."""
        points = dict(self.sources)
        members = {h for h in self.hexes if self.rail_ok(h)} | set(self.sources)
        seen: set[Hex] = set()
        for start in members:
            if start in seen:
                continue
            comp, todo = [], [start]
            seen.add(start)
            while todo:
                h = todo.pop()
                comp.append(h)
                for n in self.nbrs[h]:
                    if n in members and n not in seen and (self.rail_ok(h) or self.rail_ok(n)):
                        seen.add(n)
                        todo.append(n)
            best = max((self.sources[h] for h in comp if h in self.sources), default=0.0)
            for h in comp:
                if self.rail_ok(h) and best > points.get(h, 0.0):
                    points[h] = best
        return points


def dijkstra(world: World, starts, divisor: int, limit: float = float("inf")) -> dict[Hex, float]:
    dist: dict[Hex, float] = {}
    heap = [(0.0, h) for h in starts]
    heapq.heapify(heap)
    while heap:
        d, h = heapq.heappop(heap)
        if h in dist:
            continue
        dist[h] = d
        for n in world.nbrs[h]:
            if n in dist:
                continue
            c = world.cost(h, n, divisor)
            if c is not None and d + c <= limit + 1e-9:
                heapq.heappush(heap, (d + c, n))
    return dist


def bfs(world: World, starts, passable, limit: float = float("inf")) -> dict[Hex, int]:
    dist = {h: 0 for h in starts}
    todo = deque(dist)
    while todo:
        h = todo.popleft()
        if dist[h] >= limit:
            continue
        for n in world.nbrs[h]:
            if n not in dist and passable(n):
                dist[n] = dist[h] + 1
                todo.append(n)
    return dist


def new_rules_field(m: HexMap, sit: Situation, settings: SupplySettings) -> dict[Hex, float]:
    """TOAW 9.1.7.3-4, one heapq Dijkstra per distinct source strength."""
    w = World(m, sit)
    r, div = settings.radius, settings.improved_road_divisor
    points = w.rail_points()
    by_strength: dict[float, list[Hex]] = {}
    for h, s in points.items():
        by_strength.setdefault(s, []).append(h)
    runs = {s: dijkstra(w, hs, div) for s, hs in by_strength.items()}
    reached = set().union(*runs.values()) if runs else set()
    units = [u for u in sit.supply_units if u in reached]
    near = dijkstra(w, units, div, limit=r) if units else {}
    value: dict[Hex, float] = {}
    for s, dist in runs.items():
        for h, d in dist.items():
            if h in near:
                d = max(d - r, 0.0)
            if r == 0:
                v = s / 100 * 1.10 * (1.0 if d == 0 else 0.0)
            else:
                v = s / 100 * 1.10 / 1.375 ** (d / r)
            if v > value.get(h, -1.0):
                value[h] = v
    for h in w.hexes:  # quarter rule for terrain the supply unit cannot enter
        rule = TERRAIN_RULES[w.terrain[h]]
        enemy_block = h in w.enemy_block
        barred = (rule.motorized_mp is None and rule.land) or (rule.road_only_loc and not w.road(h))
        if (h in reached and value[h] > 0) or not barred or enemy_block:
            continue
        best = max((value[n] for n in w.nbrs[h] if n in reached), default=None)
        if best is not None:
            value[h] = 0.25 * best
    return value


def old_rules_field(m: HexMap, sit: Situation, settings: SupplySettings) -> dict[Hex, float]:
    """TOAW 9.1.7.2 with deque BFS: full net, normal, limited, minimal."""
    w = World(m, sit)
    r = settings.radius
    open_loc = lambda h: h not in w.blocked  # noqa: E731
    loc = bfs(w, list(w.sources), open_loc)
    units = [u for u in sit.supply_units if u in loc]
    near = bfs(w, units, open_loc, limit=r)
    reach = {h: 2 * r if h in near else r for h in w.hexes}
    friendly = lambda h: h not in sit.enemy_controlled and open_loc(h)  # noqa: E731
    rail_net = set(w.rail_points())

    def carries_full(h: Hex) -> bool:
        t, f = w.terrain[h], w.feat[h]
        return friendly(h) and (
            bool(f & Feature.IMPROVED_ROAD)
            or (bool(f & Feature.ROAD) and h not in sit.muddy)
            or TERRAIN_RULES[t].old_net == OldNet.FULL
            or bool(f & (Feature.AIRFIELD | Feature.ANCHORAGE))
        )

    d_full = bfs(w, list(rail_net), lambda h: carries_full(h) or h in rail_net, limit=2 * r)
    full = {h for h, d in d_full.items() if d <= reach[h]}

    def normal_ok(h: Hex) -> bool:  # open, cropland, or what carries the full net past its radius
        return (
            friendly(h) and TERRAIN_RULES[w.terrain[h]].old_net == OldNet.NORMAL
        ) or carries_full(h)

    normal = set(bfs(w, list(full), lambda h: normal_ok(h) or h in full)) - full
    d_lim = bfs(w, list(full | normal), open_loc, limit=2 * r)
    out = {}
    for h in loc:
        if h in full:
            out[h] = 1.0
        elif h in normal:
            out[h] = 0.75
        elif d_lim.get(h, 10**9) <= reach[h]:
            out[h] = 0.5
        else:
            out[h] = 0.25
    return out


def naive_field(m: HexMap, sit: Situation, settings: SupplySettings) -> dict[Hex, float]:
    if settings.rules.value == "new":
        return new_rules_field(m, sit, settings)
    return old_rules_field(m, sit, settings)


__all__ = ["naive_field", "new_rules_field", "old_rules_field", "Terrain"]
