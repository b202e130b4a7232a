"""When to stop an attack: the doctrine attacker told when to end by looking ahead (issue 26).

Run:  .venv/bin/python benchmarks/ca_stop.py [--games 300] [--seed 1] [--jobs 2]
                                             [--base doctrine_bold] [--forks 16]
                                             [--horizon 4] [--margins 0,0.3]

``ca_diagnosis.py --only prophet`` found that the doctrine attackers' games pass through
turns worth far more than where they end: stopped at the best turn in hindsight,
doctrine_bold would beat passive by about +1.0 a game. Hindsight knows the dice; this
study asks how much of that a rule that does not know them keeps.

The rule: at the start of each turn from 2 on (when *End game* is allowed, CA
"Victory"), the worth of ending now is exact (:func:`~.outlook.end_value`). The worth of
going on is read from ``forks`` planning copies (the planner's own random numbers, never
the game's dice), each played on by the same attacker for up to ``horizon`` turns and
valued at each turn start the same way; going on is worth the best of those horizons'
means. The game ends when going on is worth no more than ending now plus ``margin``
(the best of several noisy means is too high on average; the margin pays for that).

Every game is valued by its expected score and paired with passive on the same seed.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

import ca_doctrine

from hexclass.classroom.combined_arms import Options, apply, check, new_game
from hexclass.classroom.combined_arms.actions import EndGame
from hexclass.classroom.combined_arms.bots import state_seat
from hexclass.classroom.combined_arms.bots.base import _close_phase
from hexclass.classroom.combined_arms.outlook import end_value, planning_copy
from hexclass.classroom.combined_arms.simulate import Z95

MAX_ACTIONS = 20 * 2 * 66


def turn_start(state, seat) -> bool:
    """A moment the commander may end the game: a move phase nothing has happened in."""
    return (
        state.phase == "friendly_move"
        and state.pending is None
        and not state.acted_this_turn
        and check(state, EndGame(seat)) is None
    )


def worth_by_turn(state, policy, seat, horizon: int) -> list[float]:
    """Play ``policy`` on ``state`` (a planning copy) for ``horizon`` turns; the worth of
    ending at each turn start reached (held once the game or the policy has ended)."""
    out, turn = [], state.turn
    for _ in range(MAX_ACTIONS):
        if len(out) == horizon:
            break
        if state.over:  # past turn 20: the score the game ended with, held
            out.append(float(state.result.total))
            continue
        if state.turn != turn and turn_start(state, seat):
            turn = state.turn
            out.append(end_value(state)[0])
        a = policy.act(state, seat)
        if isinstance(a, EndGame):
            out += [end_value(state)[0]] * (horizon - len(out))
            break
        apply(state, a)
    return out


class LookaheadStop:
    """A doctrine setting that ends when going on, looked at ahead, is worth no more."""

    def __init__(self, base: str, seed: int, forks: int, horizon: int, margin: float):
        self.settings = base.split("+")  # "doctrine_bold+doctrine_run": a choice each turn
        self.inner = ca_doctrine.policy(self.settings[0])
        self.rng = random.Random(seed * 7919 + 3)  # the planner's own random numbers
        self.forks, self.horizon, self.margin = forks, horizon, margin
        self._turn = None
        self.chosen: list[str] = []

    def forks_worths(
        self, state, seat, setting: str | None = None, seeds=None
    ) -> list[list[float]]:
        """Each fork's worth of ending at the next ``horizon`` turn starts, the attacker
        playing ``setting`` (its own by default); ``seeds``: the forks' dice, so that two
        settings are tried on the same dice."""
        seeds = seeds or [self.rng.getrandbits(62) for _ in range(self.forks)]
        runs = []
        for s in seeds:
            pol = copy.deepcopy(self.inner)
            if setting:
                pol.k = ca_doctrine.PRESETS[setting]
            runs.append(
                worth_by_turn(planning_copy(state, random.Random(s)), pol, seat, self.horizon)
            )
        return runs

    def going_on(self, state, seat) -> tuple[float, str]:
        """The best worth of going on, and the setting that gives it."""
        seeds = [self.rng.getrandbits(62) for _ in range(self.forks)]
        best = None
        for setting in self.settings:
            runs = self.forks_worths(state, seat, setting, seeds)
            v = max(statistics.fmean(r[h] for r in runs) for h in range(self.horizon))
            best = max(best or (v, setting), (v, setting))
        return best

    def act(self, state, seat):
        if state.turn != self._turn and turn_start(state, seat):
            self._turn = state.turn
            worth, setting = self.going_on(state, seat)
            if worth <= end_value(state)[0] + self.margin:
                self.chosen.append("end")
                return EndGame(seat)
            self.chosen.append(setting)
            self.inner.k = ca_doctrine.PRESETS[setting]
        return self.inner.act(state, seat)


def one_game(args) -> tuple:
    name, seed, base, forks, horizon, margin = args
    g = new_game(seed, Options(auto_decisions=True))
    seat = state_seat(g)
    pol = (
        ca_doctrine.policy(name)
        if margin is None
        else LookaheadStop(base, seed, forks, horizon, margin)
    )
    t, worth = time.process_time(), None
    for _ in range(MAX_ACTIONS):
        if g.over:
            break
        a = pol.act(g, seat)
        if isinstance(a, EndGame):
            worth = end_value(g)[0]
        apply(g, a)
    while not g.over:
        apply(g, _close_phase(g, seat))
    return (
        name,
        seed,
        float(g.result.total) if worth is None else worth,
        g.result.turns,
        g.enemy_platoons_broken,
        len(g.broken_friendly()),
        time.process_time() - t,
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
    print("| policy | − passive (95 %) | turns | enemy / own platoons broken | CPU s a game |")
    print("| --- | --- | --- | --- | --- |")
    for n, _ in kinds[1:]:
        d = [by[n, s][2] - by["passive", s][2] for s in seeds]
        m, h = statistics.fmean(d), Z95 * statistics.stdev(d) / len(d) ** 0.5
        mean = lambda i, n=n: statistics.fmean(by[n, s][i] for s in seeds)  # noqa: E731
        print(
            f"| {n} | {m:+.2f} ({m - h:+.2f} to {m + h:+.2f}) | {mean(3):.1f} | "
            f"{mean(4):.2f} / {mean(5):.2f} | {mean(6):.2f} |"
        )


if __name__ == "__main__":
    main()
