"""Exact odds, in microseconds: the numbers the UI shows on hover.

Run:  .venv/bin/python benchmarks/ca_odds.py [--repeats R] [--number N]

Cases, on one small fixed position (a real enemy platoon with ATGs on a crest, with
three rifle platoons of D company next to it and three more firers further off):

* **fire_odds, 6 firers**: ``fire_odds`` for the whole group of six (target <= 1 ms);
* **fire_odds, 3 adjacent**: the assault group alone (all adjacent: break odds too);
* **enemy fire on a hex**, **enemy fire on armour**, **mortar odds**, **reveal odds**.

Each case is timed ``--repeats`` times over ``--number`` calls; medians per call are
printed in microseconds.
"""

from __future__ import annotations

import argparse
import statistics
import timeit

from hexclass.classroom.combined_arms import fire_odds
from hexclass.classroom.combined_arms import odds as ca_odds
from hexclass.classroom.combined_arms.positions import sketch

TARGET_US = 1000.0
MACHINE = "2 shared cores, noisy neighbours: treat differences under ~15% as noise"


def position():
    """The benchmark position: D company assaulting 5e, with supporting fire from further off."""
    return sketch(
        terrain={"5e": "crest", "3c": "woods"},
        units={
            "D1": "4e",
            "D2": "4e",
            "D3": "5d",
            "M1": "1d",
            "A1": "2e bottom",
            "A2": "3g lower_left",
        },
        enemy={"5e": "real+atg", "7b": "potential+potential_atg"},
        phase="friendly_fire",
        turn=6,
    )


def per_call_us(fn, number: int, repeats: int) -> list[float]:
    return [t / number * 1e6 for t in timeit.repeat(fn, number=number, repeat=repeats)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--number", type=int, default=300)
    args = ap.parse_args()
    s = position()
    b = s.board
    target = b.hex_at("5e")
    six = ("D1", "D2", "D3", "M1", "A1", "A2")
    three = ("D1", "D2", "D3")
    o = fire_odds(s, target, six)
    print("Combined Arms exact odds, one core")
    print(f"machine: {MACHINE}")
    print(f"position: 6 firers on 5e: {o.summary()}  (pin = {o.pin})")
    cases = [
        ("fire_odds, 6 firers", lambda: fire_odds(s, target, six), TARGET_US),
        ("fire_odds, 3 adjacent", lambda: fire_odds(s, target, three), None),
        ("enemy fire on a hex", lambda: ca_odds.enemy_fire_on_hex(s, target, b.hex_at("2e")), None),
        ("enemy fire on armour", lambda: ca_odds.enemy_fire_on_armour(s, target, "A1"), None),
        ("mortar odds", lambda: ca_odds.mortar_odds(s, b.hex_at("7b")), None),
        ("reveal odds", lambda: ca_odds.reveal_odds(s, b.hex_at("7b")), None),
    ]
    for name, fn, target_us in cases:
        fn()  # warm the line-of-fire cache
        times = per_call_us(fn, args.number, args.repeats)
        med = statistics.median(times)
        note = ""
        if target_us:
            verdict = "met" if med <= target_us else f"{med / target_us:.1f}x over"
            note = f"   target <= {target_us:.0f} us: {verdict}"
        print(f"{name:<24} median {med:8.1f} us  ({min(times):.1f}-{max(times):.1f}){note}")


if __name__ == "__main__":
    main()
