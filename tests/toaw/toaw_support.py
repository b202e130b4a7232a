"""Shared helpers for the TOAW supply tests: small maps and the pure-Python oracle."""

from __future__ import annotations

import pathlib
import sys

from hypothesis import strategies as st

from hexclass.classroom.toaw import HexMap, Situation, SupplySettings, Terrain
from hexclass.classroom.toaw.terrain import Feature, HexsideFeature

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT / "benchmarks") not in sys.path:
    sys.path.insert(0, str(ROOT / "benchmarks"))

from toaw_naive import naive_field  # noqa: E402

__all__ = ["naive_field", "strip", "formula", "worlds"]


def strip(n: int, terrain: str = ".", features: str = ".") -> HexMap:
    """One row of ``n`` hexes, (0, 0) .. (n-1, 0): hex distance equals q."""
    return HexMap.from_ascii([terrain * n], [features * n])


def formula(d: float, radius: int, strength: float = 100) -> float:
    """TOAW 9.1.7.3 written out directly, as the manual prints it."""
    return strength / 100 * 1.10 / (1.375 ** (d / radius))


TERRAINS = list(Terrain)
FEATURES = [
    0,
    0,
    0,
    int(Feature.ROAD),
    int(Feature.IMPROVED_ROAD),
    int(Feature.RAIL),
    int(Feature.ROAD | Feature.RAIL),
    int(Feature.AIRFIELD),
    int(Feature.ANCHORAGE),
]


@st.composite
def worlds(draw, max_w: int = 8, max_h: int = 6, rules=None, terrains=None, hexsides=True):
    """A random small map, situation and settings (units only on land)."""
    terrains = terrains or TERRAINS
    w = draw(st.integers(1, max_w))
    h = draw(st.integers(1, max_h))
    cells = draw(
        st.lists(
            st.tuples(st.sampled_from(terrains), st.sampled_from(FEATURES)),
            min_size=w * h,
            max_size=w * h,
        )
    )
    import numpy as np

    terrain = np.array([c[0] for c in cells], dtype=np.uint8).reshape(h, w)
    features = np.array([c[1] for c in cells], dtype=np.uint8).reshape(h, w)
    m = HexMap(terrain, features)
    hexes = list(m.hexes())
    land = [x for x in hexes if m.terrain_at(x) != Terrain.WATER]
    for a in hexes:  # a few hexside features
        for b in m.neighbours(a):
            if hexsides and a < b and draw(st.integers(0, 12)) == 0:
                m = m.with_hexside(a, b, draw(st.sampled_from(list(HexsideFeature))))
    sit = Situation()
    if land:
        some = st.lists(st.sampled_from(land), max_size=3, unique=True)
        for x in draw(st.lists(st.sampled_from(land), min_size=1, max_size=3, unique=True)):
            sit = sit.with_source(x, draw(st.sampled_from([1, 50, 100, 100, 120, 250])))
        for x in draw(some):
            sit = sit.with_supply_unit(x)
        for x in draw(some):
            if x not in sit.friendly_hexes:
                sit = sit.with_enemy(x)
        for x in draw(some):
            if x not in sit.enemy_units:
                sit = sit.with_friendly(x)
        for x in draw(some):
            sit = sit.with_mud(x)
        for x in draw(some):
            sit = sit.with_rail_damage(x)
        for x in draw(some):
            sit = sit.with_control(x, enemy=True)
    for side in list(m.hexsides)[:2]:
        if draw(st.booleans()):
            a, b = tuple(side)
            sit = sit.with_bridge_destroyed(a, b)
    settings = SupplySettings(
        rules=draw(st.sampled_from(["old", "new"])) if rules is None else rules,
        radius=draw(st.integers(0, 6)),
        improved_road_divisor=draw(st.integers(1, 3)),
    )
    return m, sit, settings
