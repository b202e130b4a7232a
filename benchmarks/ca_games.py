"""Whole Combined Arms games per second on one core, with the steady bot and without.

Run:  .venv/bin/python benchmarks/ca_games.py [--games N] [--repeats R] [--profile]

Cases (seeded, so every run measures the same games):

* **bold bot**: ``play_game`` with the scripted attacker that fights every game out
  (usually to turn 18-19): the bot's thinking plus the engine (target: >= 200 games/s);
* **steady bot**: the careful attacker as it plays; it ends many games early when no
  attack is worth starting, so its rate flatters the engine;
* **engine replay**: the bold games rebuilt from their records (``replay``): every
  action checked and applied and every enemy phase played, with no policy at all;
* **empty game**: 20 turns of nothing but ``EndPhase`` (board generation, enemy phases
  and scoring: the floor any game pays).

Each case is timed ``--repeats`` times over ``--games`` games; the median games/s is
printed with the spread and the best repeat (on a shared machine other work only ever
slows a run down, so the best repeat is the steadier figure to compare). ``--cases``
picks some of the cases. ``--profile`` adds a cProfile of the bot games (``--policy``:
bold or steady) and of their replay, listing the functions with most time of their
own, by file, so hot spots in the engine show up.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import time
from collections import defaultdict

from hexclass.classroom.combined_arms import EndPhase, Options, apply, new_game, record, replay
from hexclass.classroom.combined_arms.bot import make_policy, play_game

TARGET = 200.0
MACHINE = "2 shared cores, noisy neighbours: treat differences under ~15% as noise"


def bot_games(seeds, policy: str = "bold") -> list[dict]:
    """Play the games with the bot; returns their records (for the replay case)."""
    out = []
    for s in seeds:
        state = play_game(s, make_policy(policy, s), Options(auto_decisions=True))
        out.append(record(state))
    return out


def replay_games(records) -> None:
    for r in records:
        replay(r)


def empty_games(seeds) -> None:
    for s in seeds:
        g = new_game(s, Options(auto_decisions=True))
        while not g.over:
            apply(g, EndPhase("player"))


def rate(fn, n: int, repeats: int) -> list[float]:
    """Games per second of ``fn()`` (which plays ``n`` games), once per repeat."""
    out = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        out.append(n / (time.perf_counter() - t))
    return out


def show(name: str, rates: list[float], target: float | None = None) -> None:
    med = statistics.median(rates)
    note = ""
    if target:
        note = (
            f"   target >= {target:.0f}: {'met' if med >= target else f'{med / target:.0%} of it'}"
        )
    print(
        f"{name:<16} median {med:8.1f} games/s  ({min(rates):.1f}-{max(rates):.1f}, "
        f"{1000 / med:7.2f} ms/game; best {max(rates):.1f}){note}",
        flush=True,
    )


def profile(title: str, work, top: int) -> None:
    """cProfile ``work()``; print the top functions by own time, and totals by file."""
    prof = cProfile.Profile()
    prof.enable()
    work()
    prof.disable()
    stats = pstats.Stats(prof)
    total = sum(v[2] for v in stats.stats.values())
    by_file: dict[str, float] = defaultdict(float)
    rows = []
    for (path, line, func), (_cc, calls, tottime, cumtime, _callers) in stats.stats.items():
        name = _short(path)
        by_file[name] += tottime
        rows.append((tottime, cumtime, calls, f"{name}:{line}({func})"))
    rows.sort(reverse=True)
    print(f"\nprofile of {title}: {total:.2f} s of own time in all")
    print(f"  {'own s':>7} {'own %':>6} {'cum s':>7} {'calls':>9}  function")
    for tottime, cumtime, calls, name in rows[:top]:
        print(f"  {tottime:7.3f} {tottime / total:6.1%} {cumtime:7.3f} {calls:9d}  {name}")
    print("\n  own time by file:")
    for name, t in sorted(by_file.items(), key=lambda kv: -kv[1])[:12]:
        print(f"  {t:7.3f} {t / total:6.1%}  {name}")
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("cumulative").print_stats(r"combined_arms", 20)
    print("\n  cumulative, combined_arms only:")
    for line in buf.getvalue().splitlines():
        if "combined_arms" in line and "List reduced" not in line:
            print("  " + line.strip().replace(os.getcwd() + os.sep, ""))


def _short(path: str) -> str:
    for marker in ("classroom" + os.sep, "lib" + os.sep + "python"):
        if marker in path:
            return path[path.index(marker) :]
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games per repeat (20)")
    ap.add_argument("--repeats", type=int, default=5, help="timed repeats per case (5)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--cases",
        default="bold,steady,replay,empty",
        help="comma-separated cases to time (bold,steady,replay,empty)",
    )
    ap.add_argument("--profile", action="store_true", help="also cProfile the bot games")
    ap.add_argument("--policy", default="bold", help="the bot profiled (bold or steady)")
    ap.add_argument("--top", type=int, default=30, help="rows of the profile to print")
    args = ap.parse_args()
    seeds = list(range(args.seed, args.seed + args.games))
    print(f"Combined Arms games, one core; {args.games} games x {args.repeats} repeats")
    print(f"machine: {MACHINE}")
    cases = set(args.cases.split(","))
    bot_games(seeds[:2])  # warm the caches (lines of fire are built once per process)
    records = bot_games(seeds)
    steady = bot_games(seeds, "steady")
    n, r = len(seeds), args.repeats
    if "bold" in cases:
        show("bold bot", rate(lambda: bot_games(seeds), n, r), TARGET)
    if "steady" in cases:
        show("steady bot", rate(lambda: bot_games(seeds, "steady"), n, r), TARGET)
    if "replay" in cases:
        show("engine replay", rate(lambda: replay_games(records), n, r))
    if "empty" in cases:
        show("empty game", rate(lambda: empty_games(seeds), n, r))
    print(
        f"(bold games: {statistics.fmean(len(r['actions']) for r in records):.0f} actions, "
        f"last turn {statistics.fmean(r['summary']['turn'] for r in records):.1f} on average; "
        f"steady games: {statistics.fmean(len(r['actions']) for r in steady):.0f} actions, "
        f"last turn {statistics.fmean(r['summary']['turn'] for r in steady):.1f})"
    )
    if args.profile:
        played = records if args.policy == "bold" else bot_games(seeds, args.policy)
        profile(f"{n} {args.policy} bot games", lambda: bot_games(seeds, args.policy), args.top)
        profile("replaying them (engine only)", lambda: replay_games(played), args.top)


if __name__ == "__main__":
    main()
