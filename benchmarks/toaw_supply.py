"""Speed of the TOAW supply field, against a naive pure-Python baseline.

Run:  .venv/bin/python benchmarks/toaw_supply.py [--repeats N] [--naive-repeats M]

Cases (all maps seeded, so every run measures the same work):

* **big map**: a 300 x 300-hex map with mixed terrain, roads, railways and a river,
  10 supply sources, 10 supply units and 30 enemy units; the full supply field under the
  new rules (sources all 100%, and sources of 10 different strengths) and the old rules;
* **lesson click**: a 40 x 30-hex lesson map; one click places or removes an enemy unit
  and both fields (old and new, side by side) are recomputed, as the lesson will do.

Targets (issue 5): big map <= 200 ms, lesson click <= 100 ms. Medians are printed with
the naive figure (heapq Dijkstra / deque BFS over dicts, ``toaw_naive.py``) beside them.
Each naive result is also checked against the fast one, so the comparison is like for like.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace

import numpy as np
from toaw_naive import naive_field

from hexclass.classroom.toaw import (
    Feature,
    HexMap,
    HexsideFeature,
    Rules,
    Situation,
    SupplySettings,
    Terrain,
    supply_field,
)
from hexclass.classroom.toaw.hexmap import offset_to_axial

TERRAIN_MIX = {
    Terrain.OPEN: 0.42,
    Terrain.CROPLAND: 0.15,
    Terrain.URBAN: 0.02,
    Terrain.LIGHT_WOODS: 0.10,
    Terrain.FOREST: 0.07,
    Terrain.HILLS: 0.10,
    Terrain.MOUNTAIN: 0.04,
    Terrain.MARSH: 0.04,
    Terrain.FLOODED_MARSH: 0.02,
    Terrain.BADLANDS: 0.02,
    Terrain.WATER: 0.02,
}


def build_map(width: int, height: int, seed: int) -> HexMap:
    rng = np.random.default_rng(seed)
    kinds = list(TERRAIN_MIX)
    probs = np.array(list(TERRAIN_MIX.values()))
    terrain = rng.choice([int(k) for k in kinds], size=(height, width), p=probs / probs.sum())
    features = np.zeros((height, width), dtype=np.uint8)
    for row in range(height // 10, height, max(1, height // 5)):  # east-west roads
        features[row, :] |= int(Feature.ROAD)
    for col in range(width // 7, width, max(1, width // 4)):  # north-south improved roads
        features[:, col] |= int(Feature.IMPROVED_ROAD)
    features[height // 2, :] |= int(Feature.RAIL)  # one long railway
    features[:, width // 3] |= int(Feature.RAIL)
    terrain[features != 0] = np.where(
        terrain[features != 0] == Terrain.WATER, Terrain.OPEN, terrain[features != 0]
    )
    m = HexMap(terrain, features)
    # a river running north-south through column 2/3 of the way across
    col = 2 * width // 3
    sides = dict(m.hexsides)
    for row in range(height):
        a, b = offset_to_axial(col, row), offset_to_axial(col + 1, row)
        if m.contains(b):
            sides[frozenset((a, b))] = HexsideFeature.MAJOR_RIVER
    return HexMap(m.terrain, m.features, sides)


def build_situation(
    m: HexMap, sources: int, units: int, enemies: int, seed: int, strengths: list[int]
) -> Situation:
    rng = np.random.default_rng(seed)
    land = [h for h in m.hexes() if m.terrain_at(h) is not Terrain.WATER]
    picks = rng.choice(len(land), size=sources + units + enemies, replace=False)
    hexes = [land[i] for i in picks]
    sit = Situation()
    for k, h in enumerate(hexes[:sources]):
        sit = sit.with_source(h, strengths[k % len(strengths)])
    for h in hexes[sources : sources + units]:
        sit = sit.with_supply_unit(h)
    for h in hexes[sources + units :]:
        sit = sit.with_enemy(h)
    return sit


def median_ms(fn, repeats: int) -> float:
    fn()  # warm caches (neighbour tables, imports)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1000 * statistics.median(times)


def check_same(m: HexMap, sit: Situation, settings: SupplySettings) -> None:
    fast = supply_field(m, sit, settings)
    slow = naive_field(m, sit, settings)
    worst = max(abs(fast.at(h) - slow.get(h, 0.0)) for h in m.hexes())
    assert worst < 1e-9, f"fast and naive fields differ by {worst}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--naive-repeats", type=int, default=3)
    args = ap.parse_args()

    big = build_map(300, 300, seed=5)
    even = build_situation(big, 10, 10, 30, seed=6, strengths=[100])
    mixed = build_situation(
        big, 10, 10, 30, seed=6, strengths=[40, 60, 80, 100, 120, 140, 160, 180, 220, 250]
    )
    new = SupplySettings(rules=Rules.NEW, radius=25, improved_road_divisor=2)
    old = replace(new, rules=Rules.OLD, radius=4)
    rows = []
    for name, sit, settings in (
        ("300x300 new rules, 10 sources at 100%", even, new),
        ("300x300 new rules, 10 sources of 10 strengths", mixed, new),
        ("300x300 old rules, 10 sources", even, old),
    ):
        check_same(big, sit, settings)
        fast = median_ms(lambda s=sit, st=settings: supply_field(big, s, st), args.repeats)
        slow = median_ms(lambda s=sit, st=settings: naive_field(big, s, st), args.naive_repeats)
        rows.append((name, fast, slow, 200.0))

    lesson = build_map(40, 30, seed=11)
    base = build_situation(lesson, 3, 2, 4, seed=12, strengths=[100, 150])
    rng = np.random.default_rng(13)
    land = [
        h
        for h in lesson.hexes()
        if lesson.terrain_at(h) is not Terrain.WATER and h not in base.friendly_hexes
    ]
    clicks = [land[i] for i in rng.choice(len(land), size=args.repeats * 4)]
    lesson_settings = SupplySettings(radius=6)

    def click(field_fn, state={"k": 0}):  # noqa: B006 - a counter shared across calls
        h = clicks[state["k"] % len(clicks)]
        state["k"] += 1
        sit = base.without_enemy(h) if h in base.enemy_units else base.with_enemy(h)
        for rules in (Rules.OLD, Rules.NEW):
            field_fn(lesson, sit, replace(lesson_settings, rules=rules))

    check_same(lesson, base, lesson_settings)
    fast = median_ms(lambda: click(supply_field), args.repeats * 4)
    slow = median_ms(lambda: click(naive_field), args.repeats)
    rows.append(("40x30 lesson click (old + new fields)", fast, slow, 100.0))

    print(f"{'case':48} {'median ms':>10} {'naive ms':>10} {'speed-up':>9} {'target':>8}")
    for name, fast, slow, target in rows:
        ok = "ok" if fast <= target else "MISSED"
        print(f"{name:48} {fast:10.1f} {slow:10.1f} {slow / fast:8.1f}x {target:6.0f} {ok}")


if __name__ == "__main__":
    main()
