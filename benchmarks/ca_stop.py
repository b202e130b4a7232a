"""When to stop an attack: the doctrine attacker told when to end by looking ahead (issue 26).

Run:  .venv/bin/python benchmarks/ca_stop.py [--games 300] [--seed 1] [--jobs 2]
                                             [--base doctrine_bold] [--forks 16]
                                             [--horizon 4] [--margins 0,0.3]

``ca_diagnosis.py --only prophet`` found that the doctrine attackers' games pass through
turns worth far more than where they end: stopped at the best turn in hindsight,
doctrine_bold would beat passive by about +1.0 a game. Hindsight knows the dice; this
study asks how much of that a rule that does not know them keeps.

The rule is the package's ``best`` (:mod:`hexclass.classroom.combined_arms.bots.lookahead`):
at each turn start it weighs ending now, exactly, against going on with each setting of
``--base``, read from ``forks`` planning copies played for up to ``horizon`` turns. Until
issue 26's last stop this script carried its own copy of that rule, which chose no
setting on turn 1 (it played the first of ``--base``); the package's chooses on turn 1
too. ``--margins`` sets :attr:`LookaheadBudget.margin` (write ``--margins=-0.25``).

Every game is valued by its expected score and paired with passive on the same seed.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

import ca_doctrine

from hexclass.classroom.combined_arms import Options, new_game
from hexclass.classroom.combined_arms.bots import state_seat
from hexclass.classroom.combined_arms.bots.base import play_out
from hexclass.classroom.combined_arms.bots.lookahead import LookaheadBudget, LookaheadPolicy
from hexclass.classroom.combined_arms.simulate import Z95, expected_at_end
from hexclass.classroom.combined_arms.victory import WIN

MAX_ACTIONS = 20 * 2 * 66


def stopper(base: str, seed: int, forks: int, horizon: int, margin: float) -> LookaheadPolicy:
    """The package's ``best`` (:mod:`~hexclass.classroom.combined_arms.bots.lookahead`)
    with these settings and budget; the planner's own random numbers from the seed."""
    budget = LookaheadBudget(forks=forks, horizon=horizon, margin=margin)
    return LookaheadPolicy(random.Random(seed * 7919 + 3), budget, tuple(base.split("+")))


def one_game(args) -> tuple:
    name, seed, base, forks, horizon, margin = args
    fresh = lambda: new_game(seed, Options(auto_decisions=True))  # noqa: E731
    g = fresh()
    seat = state_seat(g)
    pol = (
        ca_doctrine.policy(name) if margin is None else stopper(base, seed, forks, horizon, margin)
    )
    t = time.process_time()
    play_out(g, pol, seat, MAX_ACTIONS)
    return (
        name,
        seed,
        expected_at_end(g, fresh),
        g.result.turns,
        g.enemy_platoons_broken,
        len(g.broken_friendly()),
        time.process_time() - t,
        g.result.total,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument(
        "--base",
        default="doctrine_bold",
        help="a doctrine setting, or several joined by + "
        "(the lookahead then also picks the setting for each turn)",
    )
    ap.add_argument("--forks", type=int, default=16)
    ap.add_argument("--horizon", type=int, default=4)
    ap.add_argument("--margins", default="0,0.3", help="write --margins=-0.25,0 for a negative one")
    ap.add_argument("--out", default=None, help="also write every game's row here (JSON lines)")
    args = ap.parse_args()
    margins = [float(m) for m in args.margins.split(",")]
    kinds = (
        [("passive", None)]
        + [(b, None) for b in args.base.split("+")]
        + [(f"{args.base}, stop by lookahead (margin {m})", m) for m in margins]
    )
    seeds = range(args.seed, args.seed + args.games)
    tasks = [(n, s, args.base, args.forks, args.horizon, m) for s in seeds for n, m in kinds]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        rows = list(pool.map(one_game, tasks, chunksize=1))
    if args.out:
        with open(args.out, "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in rows)
    by = {(r[0], r[1]): r for r in rows}
    print(
        f"\nseeds {seeds[0]}-{seeds[-1]}, forks {args.forks}, horizon {args.horizon}, "
        f"{time.perf_counter() - start:.0f} s, {args.jobs} job(s); each game by its expected score"
    )
    print(
        "| policy | − passive (95 %) | turns | enemy / own platoons broken | CPU s a game "
        f"| wins ({WIN}+, final score) |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for n, _ in kinds[1:]:
        d = [by[n, s][2] - by["passive", s][2] for s in seeds]
        m, h = statistics.fmean(d), Z95 * statistics.stdev(d) / len(d) ** 0.5
        mean = lambda i, n=n: statistics.fmean(by[n, s][i] for s in seeds)  # noqa: E731
        print(
            f"| {n} | {m:+.2f} ({m - h:+.2f} to {m + h:+.2f}) | {mean(3):.1f} | "
            f"{mean(4):.2f} / {mean(5):.2f} | {mean(6):.2f} | "
            f"{statistics.fmean(by[n, s][7] >= WIN for s in seeds):.1%} |"
        )


if __name__ == "__main__":
    main()
