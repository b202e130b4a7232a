"""A student who follows the coach: every order the coach's first, paired with passive (issue 26).

Run:  .venv/bin/python benchmarks/ca_coach_follow.py [--games 200] [--seed 1] [--jobs 2]
                                                     [--rollouts 6] [--out FILE]

Each game is played from its first order to its end by taking, at every step, the first
order of :func:`~hexclass.classroom.combined_arms.bots.coach.suggest` for the solitaire
seat, as the coach panel gives it: the lookahead at each turn's start, the setting chosen
then played for the rest of the turn, the attacker's memory of the game kept from turn
to turn (:class:`~hexclass.classroom.combined_arms.bots.coach.CoachMemory`, as the panel
keeps it), the coach's own seed from the position. ``--rollouts`` forks per setting, with no time cap, so a run is reproducible
(the panel's 1.2 s cap gives 4 to 6 on this machine). Each game is valued by its expected
score (an ending by the exact mean of the final reveal) and paired with passive, which
ends after turn 1, on the same seed. The coach's seconds per Suggest are reported too:
at turn starts (the lookahead) and past them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from hexclass.classroom.combined_arms import Options, check, new_game
from hexclass.classroom.combined_arms.bots import PassivePolicy, state_seat
from hexclass.classroom.combined_arms.bots.base import _close_phase, play_out
from hexclass.classroom.combined_arms.bots.coach import CoachMemory, suggest
from hexclass.classroom.combined_arms.simulate import Z95, expected_at_end
from hexclass.classroom.combined_arms.victory import WIN

MAX_ACTIONS = 20 * 2 * 66


class CoachFollower:
    """A student who plays the coach's first order at every step, its memory kept."""

    def __init__(self, rollouts: int):
        self.rollouts, self.memory = rollouts, CoachMemory()
        self.looks: list[float] = []  # seconds of the suggestions that looked ahead
        self.rest: list[float] = []  # and of the others
        self.refused = 0

    def act(self, state, seat):
        s = suggest(state, seat, seconds=3600, rollouts=self.rollouts, memory=self.memory)
        (self.looks if s.values else self.rest).append(s.seconds)
        a = s.orders[0].action if s.orders else _close_phase(state, seat)
        if check(state, a) is not None:  # never expected: counted, and the phase ends
            self.refused += 1
            return _close_phase(state, seat)
        return a


def play(seed: int, follow: bool, rollouts: int) -> dict:
    """One game: the coach's first order at every step (``follow``), or passive."""
    fresh = lambda: new_game(seed, Options(auto_decisions=True))  # noqa: E731
    g = fresh()
    pol = CoachFollower(rollouts) if follow else PassivePolicy(None)
    t = time.process_time()
    play_out(g, pol, state_seat(g), MAX_ACTIONS)
    return {
        "seed": seed,
        "follow": follow,
        "worth": expected_at_end(g, fresh),
        "score": g.result.total,
        "turns": g.result.turns,
        "broken": [g.enemy_platoons_broken, len(g.broken_friendly())],
        "cpu": time.process_time() - t,
        "looks": getattr(pol, "looks", []),
        "rest": getattr(pol, "rest", []),
        "refused": getattr(pol, "refused", 0),
    }


def _task(args) -> dict:
    return play(*args)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rollouts", type=int, default=6)
    ap.add_argument("--out", default=None, help="also write every game's row here (JSON lines)")
    args = ap.parse_args()
    seeds = range(args.seed, args.seed + args.games)
    tasks = [(s, f, args.rollouts) for s in seeds for f in (True, False)]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        rows = list(pool.map(_task, tasks, chunksize=1))
    if args.out:
        with open(args.out, "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in rows)
    by = {(r["seed"], r["follow"]): r for r in rows}
    d = [by[s, True]["worth"] - by[s, False]["worth"] for s in seeds]
    m, h = statistics.fmean(d), Z95 * statistics.stdev(d) / len(d) ** 0.5
    follow = [by[s, True] for s in seeds]
    mean = lambda f: statistics.fmean(f(r) for r in follow)  # noqa: E731
    looks = sorted(x for r in follow for x in r["looks"])
    rest = sorted(x for r in follow for x in r["rest"])
    p95 = lambda xs: xs[min(len(xs) - 1, int(0.95 * len(xs)))]  # noqa: E731
    print(
        f"seeds {seeds[0]}-{seeds[-1]}, {args.rollouts} forks a setting, "
        f"{time.perf_counter() - start:.0f} s on {args.jobs} job(s); by expected score"
    )
    print(f"coach follower − passive: {m:+.2f} ({m - h:+.2f} to {m + h:+.2f})")
    print(
        f"turns {mean(lambda r: r['turns']):.2f}, enemy / own platoons broken "
        f"{mean(lambda r: r['broken'][0]):.2f} / {mean(lambda r: r['broken'][1]):.2f}, "
        f"wins ({WIN}+, final score) {mean(lambda r: r['score'] >= WIN):.1%} against "
        f"{statistics.fmean(by[s, False]['score'] >= WIN for s in seeds):.1%} for passive, "
        f"orders refused {sum(r['refused'] for r in follow)}, "
        f"CPU {mean(lambda r: r['cpu']):.1f} s a game"
    )
    print(
        f"Suggest at a turn start: median {statistics.median(looks):.2f} s, p95 {p95(looks):.2f} s "
        f"({len(looks)}); past it: median {statistics.median(rest):.3f} s, p95 {p95(rest):.3f} s "
        f"({len(rest)})"
    )


if __name__ == "__main__":
    main()
