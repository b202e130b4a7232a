"""Location supply for every hex of a map: TOAW's supply view (TOAW 9.1.7.2-9.1.7.4).

:func:`supply_field` traces supply over a :class:`~hexclass.classroom.toaw.hexmap.HexMap` for a
:class:`~hexclass.classroom.toaw.situation.Situation` under the old or the new rules and returns a
:class:`SupplyField`: numpy arrays (rows x columns) of the fraction of force supply each
hex receives, plus what is needed to explain any one hex on request.

>>> from hexclass.classroom.toaw.hexmap import HexMap
>>> from hexclass.classroom.toaw.situation import Situation, SupplySettings
>>> strip = HexMap.from_ascii(["." * 15])
>>> f = supply_field(strip, Situation().with_source((0, 0)), SupplySettings(radius=5))
>>> round(f.at((0, 0)), 2), round(f.at((14, 0)), 3)
(1.1, 0.451)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components, dijkstra

from hexclass.classroom.hexgrid import Hex

from .curves import (
    BASE,
    OLD_BAND_FRACTIONS,
    OldBand,
    formula_fraction,
    supply_unit_distance,
)
from .explain import HexSupplyExplanation, SupplyStatus, explain_hex
from .hexmap import HexMap
from .network import (
    Block,
    Network,
    build_network,
    loc_graph,
    motorized_graph,
    rail_broadcast,
    subgraph,
)
from .situation import Rules, Situation, SupplySettings
from .terrain import TERRAIN_RULES, Feature, OldNet, Terrain

QUARTER = 0.25  # TOAW 9.1.7.3: share of a neighbour's supply for unreachable terrain
_EPS = 1e-9


_MOTOR_BARRED = np.array(
    [TERRAIN_RULES[t].motorized_mp is None and TERRAIN_RULES[t].land for t in Terrain]
)
_OLD_NET = np.array([int(TERRAIN_RULES[t].old_net) for t in Terrain])
_FULL_FEATURES = int(Feature.AIRFIELD | Feature.ANCHORAGE)


@dataclass(frozen=True, eq=False)
class SupplyField:
    """Location supply of every hex, with the facts behind it.

    Arrays are ``(height, width)``, indexed ``[row, col]`` like the map's:

    * ``fraction``: location supply as a fraction of force supply (0 if unsupplied);
    * ``supplied``: True where a line of communication reaches the hex;
    * ``distance``: new rules, MPs from the winning supply point; old rules, hexes of
      line of communication to the nearest supply point (inf if none);
    * ``effective_distance``: new rules, the distance after the supply-unit rule;
    * ``origin``: node of the supply source whose supply wins (-1 if none);
    * ``point``: node of the supply point the trace starts from (a rail hex when the
      source's strength was broadcast along a railway), -1 if none;
    * ``supply_unit``: node of a supply unit whose reach covers the hex (-1 if none);
    * ``band``: old rules, the :class:`OldBand`; new rules, all NONE;
    * ``quarter_from``: new rules, node of the neighbour a hex unreachable by the
      supply unit draws a quarter of its supply from (-1 otherwise).
    """

    hexmap: HexMap
    situation: Situation
    settings: SupplySettings
    network: Network
    fraction: np.ndarray
    supplied: np.ndarray
    distance: np.ndarray
    effective_distance: np.ndarray
    origin: np.ndarray
    point: np.ndarray
    supply_unit: np.ndarray
    band: np.ndarray
    quarter_from: np.ndarray = field(repr=False)

    @property
    def rules(self) -> Rules:
        return self.settings.rules

    @property
    def level(self) -> np.ndarray:
        """Location supply in the force's supply points (the supply view's number)."""
        return self.fraction * self.settings.force_supply_level

    @property
    def shown_level(self) -> np.ndarray:
        """The whole number the supply view shows (the level rounded down)."""
        return np.floor(self.level + _EPS).astype(int)

    @property
    def overextended(self) -> np.ndarray:
        """Supplied hexes whose shown level is below the threshold (TOAW 9.1.71)."""
        return self.supplied & (self.shown_level < self.settings.overextended_threshold)

    def _rc(self, h: Hex) -> tuple[int, int]:
        i = self.hexmap.index(h)
        return divmod(i, self.hexmap.width)

    def at(self, h: Hex) -> float:
        """Fraction of force supply at ``h``."""
        return float(self.fraction[self._rc(h)])

    def level_at(self, h: Hex) -> float:
        return float(self.level[self._rc(h)])

    def block_at(self, h: Hex) -> Block:
        """Why a line of communication may not pass ``h`` (Block.NONE if it may)."""
        return Block(int(self.network.block[self.hexmap.index(h)]))

    def status_at(self, h: Hex) -> SupplyStatus:
        rc = self._rc(h)
        if not self.supplied[rc]:
            return SupplyStatus.UNSUPPLIED
        if self.overextended[rc]:
            return SupplyStatus.OVEREXTENDED
        return SupplyStatus.SUPPLIED

    def explain(self, h: Hex) -> HexSupplyExplanation:
        """Why ``h`` has the supply it has, for a hover tooltip."""
        return explain_hex(self, h)


def supply_field(
    hexmap: HexMap, situation: Situation, settings: SupplySettings | None = None
) -> SupplyField:
    """Location supply for every hex under ``settings.rules`` (old or new).

    Raises :class:`~hexclass.classroom.toaw.errors.SupplyInputError` for impossible inputs.
    """
    settings = settings or SupplySettings()
    if not isinstance(settings, SupplySettings):
        raise TypeError(f"settings must be a SupplySettings, got {type(settings).__name__}")
    net = build_network(hexmap, situation)
    arrays = _new_rules(net, settings) if settings.rules is Rules.NEW else _old_rules(net, settings)
    shaped = {k: _shaped(v, hexmap) for k, v in arrays.items()}
    return SupplyField(hexmap=hexmap, situation=situation, settings=settings, network=net, **shaped)


def both_rules(hexmap: HexMap, situation: Situation, settings: SupplySettings | None = None):
    """The old-rules and new-rules fields side by side, other settings equal."""
    from dataclasses import replace

    settings = settings or SupplySettings()
    return (
        supply_field(hexmap, situation, replace(settings, rules=Rules.OLD)),
        supply_field(hexmap, situation, replace(settings, rules=Rules.NEW)),
    )


def _shaped(a: np.ndarray, hexmap: HexMap) -> np.ndarray:
    a = a.reshape(hexmap.height, hexmap.width)
    a.flags.writeable = False
    return a


def _empty(n: int) -> dict[str, np.ndarray]:
    return {
        "fraction": np.zeros(n),
        "supplied": np.zeros(n, dtype=bool),
        "distance": np.full(n, np.inf),
        "effective_distance": np.full(n, np.inf),
        "origin": np.full(n, -1),
        "point": np.full(n, -1),
        "supply_unit": np.full(n, -1),
        "band": np.zeros(n, dtype=int),
        "quarter_from": np.full(n, -1),
    }


def _multi_source(graph, nodes: np.ndarray, **kw) -> tuple[np.ndarray, np.ndarray]:
    """Distance from the nearest of ``nodes`` and which one it is (-9999 if none)."""
    n = graph.shape[0]
    if nodes.size == 0:
        return np.full(n, np.inf), np.full(n, -9999)
    dist, _, src = dijkstra(graph, indices=nodes, min_only=True, return_predecessors=True, **kw)
    return dist, src


# --- new rules ---------------------------------------------------------------------------------


def _new_rules(net: Network, settings: SupplySettings) -> dict[str, np.ndarray]:
    """TOAW 9.1.7.3-4: the virtual supply unit's MP distance fed through the formula."""
    n = net.hexmap.size
    radius = settings.radius
    out = _empty(n)
    graph = motorized_graph(net, settings)
    strength, origin = rail_broadcast(net)
    points = np.flatnonzero(strength > 0)
    if points.size == 0:
        return out
    dist, start = _best_points(graph, points, strength, radius)
    reached = np.isfinite(dist)
    near, su_node = _supply_unit_reach(net, graph, reached, radius)
    s_start = np.where(reached, strength[np.maximum(start, 0)], 0.0)
    eff = np.where(near, supply_unit_distance(dist, radius), dist)
    value = np.where(reached, formula_fraction(np.where(reached, eff, 0.0), radius, s_start), 0.0)
    _stronger_under_floor(graph, points, strength, radius, near & reached, dist, eff, start, value)
    out["fraction"] = value
    out["supplied"] = reached
    out["distance"] = dist
    out["effective_distance"] = eff
    out["point"] = np.where(reached, start, -1)
    out["origin"] = np.where(reached, origin[np.maximum(start, 0)], -1)
    out["supply_unit"] = np.where(near & reached, su_node, -1)
    _quarter_rule(net, out)
    return out


def _best_points(graph, points, strength, radius) -> tuple[np.ndarray, np.ndarray]:
    """MP distance to, and node of, the supply point giving each hex the most supply.

    Without the supply-unit rule a point of strength ``s`` at distance ``d`` gives
    ``1.10 * s * 1.375 ** (-d / R)``, which ranks points exactly as
    ``d - R * log_1.375(s)`` does. So one Dijkstra from a virtual node joined to every
    point by an edge of weight ``1 + R * (log_1.375(s_max) - log_1.375(s))`` finds the
    best point for every hex at once (TOAW 9.1.7.4: the best point wins even if further).
    """
    n = graph.shape[0]
    s = strength[points]
    if radius == 0 or np.all(s == s[0]):
        dist, src = _multi_source(graph, points)
        return dist, src
    weight = 1.0 + radius * (np.log(s.max()) - np.log(s)) / np.log(BASE)
    aug = _with_virtual_source(graph, points, weight)
    dist, pred = dijkstra(aug, indices=n, return_predecessors=True)
    root = _roots(pred, n)[:n]
    dist = dist[:n]
    reached = np.isfinite(dist)
    w_at = np.zeros(n + 1)
    w_at[points] = weight
    mp = np.where(reached, np.maximum(dist - w_at[root], 0.0), np.inf)
    return np.round(mp, 9), np.where(reached, root, -9999)


def _with_virtual_source(graph, nodes: np.ndarray, weight: np.ndarray) -> csr_matrix:
    """``graph`` with one extra node (numbered last) and edges from it to ``nodes``."""
    n = graph.shape[0]
    indptr = np.append(graph.indptr, graph.indptr[-1] + nodes.size)
    indices = np.concatenate([graph.indices, nodes])
    data = np.concatenate([graph.data, weight])
    return csr_matrix((data, indices, indptr), shape=(n + 1, n + 1))


def _roots(pred: np.ndarray, virtual: int) -> np.ndarray:
    """Follow Dijkstra predecessors back to the first node after the virtual source."""
    idx = np.arange(pred.size)
    p = np.where((pred < 0) | (pred == virtual), idx, pred)
    while True:  # pointer jumping: halves the remaining path length each round
        q = p[p]
        if np.array_equal(q, p):
            return p
        p = q


def _stronger_under_floor(graph, points, strength, radius, near, dist, eff, start, value) -> None:
    """Fix hexes where the supply-unit floor makes the single search inexact (in place).

    Near a supply unit a point's contribution is capped at 110% of its strength
    (TOAW 9.1.7.3). Where the winning point's cap binds (it is less than a radius away),
    a stronger point further off may still give more. Only stronger points can, and only
    from within ``R * (1 + log_1.375(s_strong / s_weak))`` MPs, so each stronger group is
    searched to that bound for those hexes alone.
    """
    s_start = strength[np.maximum(start, 0)]
    doubt = near & (dist < radius) & (s_start < strength[points].max())
    if radius == 0 or not doubt.any():
        return
    floor = s_start[doubt].min()
    for s in np.unique(strength[points]):
        if s <= floor:
            continue
        bound = radius * (1.0 + np.log(s / floor) / np.log(BASE))
        d_j, src_j = _multi_source(graph, points[strength[points] == s], limit=bound + _EPS)
        e_j = supply_unit_distance(d_j, radius)
        v_j = np.where(
            np.isfinite(d_j),
            formula_fraction(np.where(np.isfinite(d_j), e_j, 0.0), radius, s),
            -1.0,
        )
        better = doubt & (v_j > value + 1e-12)
        value[better] = v_j[better]
        dist[better] = d_j[better]
        eff[better] = e_j[better]
        start[better] = src_j[better]


def _supply_unit_reach(net: Network, graph, reached: np.ndarray, radius: int):
    """Hexes within a radius (in MPs) of a supplied supply unit (TOAW 9.1.7.3)."""
    n = net.hexmap.size
    units = np.array(sorted(net.hexmap.index(h) for h in net.situation.supply_units), dtype=int)
    units = units[reached[units]] if units.size else units
    if units.size == 0:
        return np.zeros(n, dtype=bool), np.full(n, -1)
    dist, src = _multi_source(graph, units, limit=radius + _EPS)
    return dist <= radius + _EPS, src


def _quarter_rule(net: Network, out: dict[str, np.ndarray]) -> None:
    """Land the supply unit cannot enter gets a quarter of its best reached neighbour.

    TOAW 9.1.7.3: flooded marsh, badlands, dunes and the like that the virtual supply
    unit cannot reach, next to a normally supplied hex.
    """
    terrain = net.hexmap.terrain.ravel()
    terrain_barred = _MOTOR_BARRED[terrain] | (net.block == Block.OFF_ROAD)
    enemy_free = (net.block == Block.NONE) | (net.block == Block.OFF_ROAD)
    # a hex reached with nothing (only possible with a radius of 0) is treated as unreached,
    # so adding a supply point can never take the quarter away (docs/rules-notes.md)
    starved = ~out["supplied"] | (out["fraction"] <= 0)
    cand = np.flatnonzero(starved & terrain_barred & enemy_free)
    if cand.size == 0:
        return
    nb = net.hexmap.neighbour_table()[cand]
    nb_value = np.where(nb >= 0, out["fraction"][nb], -1.0)
    nb_value = np.where((nb >= 0) & out["supplied"][np.maximum(nb, 0)], nb_value, -1.0)
    pick = np.argmax(nb_value, axis=1)
    value = nb_value[np.arange(cand.size), pick]
    ok = value >= 0
    cand, pick, value = cand[ok], pick[ok], value[ok]
    src = nb[ok][np.arange(cand.size), pick]
    out["fraction"][cand] = QUARTER * value
    out["supplied"][cand] = True
    out["quarter_from"][cand] = src
    out["origin"][cand] = out["origin"][src]


# --- old rules ---------------------------------------------------------------------------------


def _old_rules(net: Network, settings: SupplySettings) -> dict[str, np.ndarray]:
    """TOAW 9.1.7.2: the fully supplied net, then normal, limited and minimal supply."""
    n = net.hexmap.size
    out = _empty(n)
    radius = settings.radius
    loc = loc_graph(net)
    sources = np.flatnonzero(net.source_strength > 0)
    d_loc, src_loc = _multi_source(loc, sources, unweighted=True)
    has_loc = np.isfinite(d_loc)
    if not has_loc.any():
        return out
    near, su_node = _old_supply_unit_reach(net, loc, has_loc, radius)
    reach = np.where(near, 2 * radius, radius)  # a radius nearer: reaches double
    full, d_full = _full_net(net, radius)
    full &= d_full <= reach
    normal = _normal_net(net, full)
    fed = full | normal
    d_lim, _ = _multi_source(loc, np.flatnonzero(fed), unweighted=True, limit=2 * radius + _EPS)
    limited = ~fed & (d_lim <= reach)
    band = np.where(has_loc, int(OldBand.MINIMAL), int(OldBand.NONE))
    band[limited] = OldBand.LIMITED
    band[normal] = OldBand.NORMAL
    band[full] = OldBand.FULL
    out["band"] = band
    out["fraction"] = OLD_BAND_FRACTIONS[band]
    out["supplied"] = has_loc
    out["distance"] = d_loc
    out["effective_distance"] = np.where(full, d_full, np.where(limited, d_lim, d_loc))
    out["origin"] = np.where(has_loc, src_loc, -1)
    out["point"] = out["origin"].copy()
    out["supply_unit"] = np.where(near, su_node, -1)
    return out


def _old_supply_unit_reach(net: Network, loc, has_loc: np.ndarray, radius: int):
    """Hexes within a radius (in hexes) of a supply unit with a line of communication."""
    n = net.hexmap.size
    units = np.array(sorted(net.hexmap.index(h) for h in net.situation.supply_units), dtype=int)
    units = units[has_loc[units]] if units.size else units
    if units.size == 0:
        return np.zeros(n, dtype=bool), np.full(n, -1)
    dist, src = _multi_source(loc, units, unweighted=True, limit=radius + _EPS)
    return dist <= radius, src


def _full_net(net: Network, radius: int) -> tuple[np.ndarray, np.ndarray]:
    """Rail net from the supply points, then hexes along road/urban/airfield/anchorage.

    Returns the candidate hexes and their step count from the rail net, searched out to
    two radii so the supply-unit rule can extend it (TOAW 9.1.7.2).
    """
    strength, _ = rail_broadcast(net)
    rail_net = np.flatnonzero(strength > 0)  # supply points and the rail lines they touch
    ok = net.loc_ok & net.friendly_control & _full_carriers(net)
    ok[rail_net] = True
    graph = subgraph(net.hexmap, ok)
    dist, _ = _multi_source(graph, rail_net, unweighted=True, limit=2 * radius + _EPS)
    return np.isfinite(dist), dist


def _full_carriers(net: Network) -> np.ndarray:
    """Locations the fully supplied net may run through: improved or dry roads, urban,
    airfields and anchorages (TOAW 9.1.7.2)."""
    terrain = net.hexmap.terrain.ravel()
    features = net.hexmap.features.ravel()
    return (
        net.improved
        | (net.road & ~net.muddy)
        | (_OLD_NET[terrain] == OldNet.FULL)
        | ((features & _FULL_FEATURES) != 0)
    )


def _normal_net(net: Network, full: np.ndarray) -> np.ndarray:
    """Hexes joined to the full net through friendly open or cropland hexes (TOAW 9.1.7.2).

    A road, town, airfield or anchorage beyond the full net's radius carries normal
    supply as open ground does: a town at the end of the coast road is never worse off
    than the fields beside it (docs/rules-notes.md, "The eastern town").
    """
    terrain = net.hexmap.terrain.ravel()
    carries = (_OLD_NET[terrain] == OldNet.NORMAL) | _full_carriers(net)
    ok = net.loc_ok & net.friendly_control & carries
    graph = subgraph(net.hexmap, ok | full)
    _, label = connected_components(graph, directed=False)
    fed_labels = np.unique(label[full])
    return ok & ~full & np.isin(label, fed_labels)
