"""Time from a click on the TOAW lesson map to the redraw commands being issued.

Run:  .venv/bin/python benchmarks/lesson_supply_click.py [--repeats N] [--naive-repeats M]

A click on :class:`hexclass.widgets.toaw_supply.SupplyMapLab` (the 18 x 12 lesson map, both rules
side by side) runs the whole Python side: the tool edits the map or situation, the model
computes the old-rules and the new-rules fields, and both boards repaint their supply,
counter and overlay layers, each in one ``hold_canvas`` batch. The clicks cycle through
the tools that change supply (enemy units, supply units, sources, roads), each placed
and then removed, at seeded random land hexes.

Printed, as medians over the clicks:

* the click as a whole, and the two parts: the fields, the redraw commands;
* beside them the naive figure: the same two fields from the pure-Python reference
  (``toaw_naive.py``, heapq Dijkstra and deque BFS over dicts), and a naive click
  estimated as naive fields plus the measured redraw.

Not included: sending the canvas messages to a browser and the browser's painting
(the page benchmarks measure those). Target (issue 5): a lesson map update after a
click in 100 ms or less.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace

import numpy as np
from toaw_naive import naive_field

from hexclass.classroom.toaw import Rules, Terrain, both_rules
from hexclass.widgets.toaw_supply import SupplyMapLab

TOOLS = ("enemy unit", "supply unit", "source", "road")


def click_sequence(lab: SupplyMapLab, count: int, seed: int = 5) -> list[tuple[str, tuple]]:
    """Pairs (tool, hex) on free land hexes; every placement is followed by its removal."""
    rng = np.random.default_rng(seed)
    sit = lab.situation
    taken = sit.friendly_hexes | sit.enemy_units | {s.hex for s in sit.sources}
    land = [
        h for h in lab.hexes if lab.hexmap.terrain_at(h) is not Terrain.WATER and h not in taken
    ]
    out = []
    for k in range(count // 2):
        tool, h = TOOLS[k % len(TOOLS)], land[int(rng.integers(len(land)))]
        out += [(tool, h), (tool, h)]
    return out


def measure_clicks(lab: SupplyMapLab, clicks) -> dict[str, list[float]]:
    """Per click: total handler time, the fields' share, the redraw commands' share."""
    times = {"click": [], "fields": [], "redraw": []}
    for tool, h in clicks:
        lab.tool.value = tool
        t0 = time.perf_counter()
        assert lab.click(h), lab.error.message
        total = (time.perf_counter() - t0) * 1000
        redraw = sum(b.last_redraw_ms for b in lab.boards.values())
        times["click"].append(total)
        times["redraw"].append(redraw)
    for tool, h in clicks[::2]:  # the fields alone, for the same inputs
        m, s = lab.edited(h, tool)
        t0 = time.perf_counter()
        both_rules(m, s, lab.settings)
        times["fields"].append((time.perf_counter() - t0) * 1000)
    return times


def naive_fields_ms(lab: SupplyMapLab, clicks, repeats: int) -> list[float]:
    out = []
    for tool, h in clicks[: 2 * repeats : 2]:
        m, s = lab.edited(h, tool)
        t0 = time.perf_counter()
        for rules in (Rules.OLD, Rules.NEW):
            naive_field(m, s, replace(lab.settings, rules=rules))
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=200, help="clicks to time")
    ap.add_argument("--naive-repeats", type=int, default=20)
    args = ap.parse_args()
    lab = SupplyMapLab()
    clicks = click_sequence(lab, args.repeats)
    measure_clicks(lab, clicks[:8])  # warm caches
    t = {k: statistics.median(v) for k, v in measure_clicks(lab, clicks).items()}
    naive = statistics.median(naive_fields_ms(lab, clicks, args.naive_repeats))
    size = f"{lab.hexmap.width}x{lab.hexmap.height}"
    print(f"TOAW lesson map {size}, both rules, {len(clicks)} clicks (median ms)")
    print(f"{'':34} {'hexclass':>10} {'naive':>10} {'speed-up':>9}")
    print(
        f"{'fields (old + new rules)':34} {t['fields']:10.2f} {naive:10.2f} {naive / t['fields']:8.1f}x"
    )
    print(f"{'redraw commands (2 boards)':34} {t['redraw']:10.2f} {t['redraw']:10.2f}")
    estimate = naive + t["redraw"]
    print(
        f"{'click to redraw issued':34} {t['click']:10.2f} {estimate:10.2f} {estimate / t['click']:8.1f}x"
    )
    print(f"target 100 ms: {'ok' if t['click'] <= 100 else 'MISSED'}")


if __name__ == "__main__":
    main()
