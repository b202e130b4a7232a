"""Time from an input on the Cherbourg and movement-timing lessons to their new display.

Run:  .venv/bin/python benchmarks/lesson_new_sources.py [--repeats N]

* Cherbourg: a change of the attack points in :class:`hexclass.widgets.cherbourg_crt.CRTExplorer`
  (the model's column with every step, two exact distributions, the table, the chart);
  measured with and without the matplotlib chart, and the model's part alone
  (``combat_column`` plus the two distributions).
* Movement: a click on :class:`hexclass.widgets.movement_timing.PhaseTimingLab`'s map that adds
  one order (the turn replayed for every unit over 12 phases, the chart, the log and the
  board's counter and overlay layers repainted in one ``hold_canvas`` batch), with the
  ``run_turn`` part alone beside it; then the click undone.

Printed: medians in milliseconds. Not included: the browser's side (messages, painting).
Target (issue 14, as for the other lessons): an update after an input in 100 ms or less.
"""

from __future__ import annotations

import argparse
import statistics
import time

from hexclass.classroom.cherbourg import combat_column, distribution
from hexclass.classroom.movement import run_turn
from hexclass.classroom.movement.hexmap import step
from hexclass.classroom.movement.scenarios import ESTEL
from hexclass.widgets.cherbourg_crt import CRTExplorer
from hexclass.widgets.movement_timing import PhaseTimingLab


def ms(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


def cherbourg(repeats: int) -> dict[str, float]:
    out = {}
    for plot in (False, True):
        lab = CRTExplorer(plot=plot)
        times = []
        for i in range(repeats):
            times.append(ms(lambda i=i, lab=lab: setattr(lab.attack, "value", 4 + i % 30)))
        out[f"CRT input -> display ({'with' if plot else 'no'} chart)"] = statistics.median(times)
    lab = CRTExplorer(plot=False)

    def model_only(i):
        lab.attack.value = 4 + i % 30
        c = lab.combat()
        return lambda: (
            combat_column(c),
            distribution(combat_column(c).column),
            distribution(min(combat_column(c).column + 1, 11)),
        )

    out["CRT model part"] = statistics.median(ms(model_only(i)) for i in range(repeats))
    return out


def movement(repeats: int) -> dict[str, float]:
    lab = PhaseTimingLab()
    lab.unit_pick.value = "APC"
    target = step(lab.world.centres[ESTEL].hex, 3)
    clicks, runs = [], []
    for _ in range(repeats):
        clicks.append(ms(lambda: lab.click(target)))
        units = lab.current_units()
        runs.append(ms(lambda units=units: run_turn(lab.world, units)))
        lab.undo_last()
    return {
        "map click -> turn replayed and redrawn": statistics.median(clicks),
        "run_turn part (3 units, 12 phases)": statistics.median(runs),
        "board redraw part (last)": lab.board.last_redraw_ms,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=60)
    args = ap.parse_args()
    for name, value in {**cherbourg(args.repeats), **movement(args.repeats)}.items():
        print(f"{name:45s} {value:8.2f} ms")


if __name__ == "__main__":
    main()
