"""The search attacker ``best``: strength (with confidence intervals), speed, coach latency.

Run:  .venv/bin/python benchmarks/ca_best.py [--games 1000] [--jobs 2] [--speed-games 20]
                                             [--coach 40] [--only strength,speed,coach,company]

* **strength**: ``best``, ``steady`` and ``passive`` on the same seeds (the balance lab,
  :func:`hexclass.classroom.combined_arms.simulate.compare`): win rate with its Wilson 95 %
  interval, mean score with its interval, the paired score difference of best against
  each, turns played; targets: best wins >= 25 % and means >= 16;
* **speed**: best's games/s on one process and on two, measured one after the other
  on the same seeds (ratio = the speed-up the second core gives on this shared machine),
  and steady's games/s on one core in the same run (target >= 200);
* **company**: the company-level planner (:mod:`hexclass.classroom.combined_arms.bots.company`)
  against ``steady`` and ``passive`` (and ``best`` with ``--company-vs best,steady,passive``)
  on the same seeds: its Wilson interval, the paired differences, its games/s;
* **approach** (``--approach approach|approach_best --approach-vs passive,best,company``):
  the executor that approaches without standing under fire
  (:mod:`hexclass.classroom.combined_arms.bots.approach`), paired the same way;
* **coach**: seconds per *Suggest* (median, p95) on positions from steady games, at
  turn starts (where the search runs) and mid-phase; target p95 <= 2 s.

The machine is shared and noisy: figures are medians, and speed ratios are measured
side by side in one run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import replace

from hexclass.classroom.combined_arms import Options, apply
from hexclass.classroom.combined_arms.bots import POLICIES, SteadyWeights, make_policy, play_game
from hexclass.classroom.combined_arms.bots.approach import (
    APPROACH_WEIGHTS,
    ApproachPolicy,
    ApproachRule,
)
from hexclass.classroom.combined_arms.bots.coach import suggest
from hexclass.classroom.combined_arms.game import new_game
from hexclass.classroom.combined_arms.simulate import ProgressBar, compare, plot

# Variants of the approach executor measured in the issue-26 study (not shipped): the
# balance lab plays policies by registry name, so the study registers them here.
APPROACH_VARIANTS = {
    "approach_nomortar": ApproachRule(mortar=0.0),
    "approach_soft": ApproachRule(penalty=10.0),
    "approach_strict": ApproachRule(limit=0.0, penalty=300.0),
    "approach_staged": ApproachRule(staging=True),
}
for _name, _rule in APPROACH_VARIANTS.items():
    POLICIES[_name] = lambda rng, _n=_name, _r=_rule: ApproachPolicy(rng, name=_n, rule=_r)
POLICIES["approach_steadyclose"] = lambda rng: ApproachPolicy(
    rng, SteadyWeights(), name="approach_steadyclose"
)
_STAGED = ApproachRule(staging=True)
_STAGED_WEIGHTS = {
    "approach_staged_x4": replace(APPROACH_WEIGHTS, max_crossfire=0.4),
    "approach_staged_steadyclose": SteadyWeights(),
    "approach_staged_2co": replace(APPROACH_WEIGHTS, active_companies=2),
}
for _name, _w in _STAGED_WEIGHTS.items():
    POLICIES[_name] = lambda rng, _n=_name, _w=_w: ApproachPolicy(rng, _w, name=_n, rule=_STAGED)
POLICIES["approach_staged_l10"] = lambda rng: ApproachPolicy(
    rng, name="approach_staged_l10", rule=ApproachRule(limit=0.1, staging=True)
)


def strength(games: int, seed: int, jobs: int, png: str | None, out: str | None) -> None:
    bar = ProgressBar(label="games")
    t = time.perf_counter()
    c = compare(["best", "steady", "passive"], games, seed, jobs, bar)
    took = time.perf_counter() - t
    print(c.report())
    best = c["best"]
    lo, hi = best.win_ci
    print(
        f"\nbest: win rate {best.win_rate:.1%} (95% CI {lo:.1%}-{hi:.1%}; target >= 25%: "
        f"{'met' if lo >= 0.25 else 'met on the point estimate' if best.win_rate >= 0.25 else 'not met'})"
        f", mean {best.mean:.2f} (95% CI {best.mean_ci[0]:.2f}-{best.mean_ci[1]:.2f}; "
        f"target >= 16: {'met' if best.mean >= 16 else 'not met'})"
    )
    print(f"{games} games x 3 policies in {took:.0f} s with {jobs} job(s)")
    if png:
        plot(c, png)
        print(f"plot: {png}")
    if out:
        with open(out, "w") as f:
            json.dump(c.to_json(), f, indent=1)
        print(f"json: {out}")


def company(games: int, seed: int, jobs: int, rivals: list[str], out: str | None) -> None:
    """The company planner paired against ``rivals`` on the same seeds (issue 26)."""
    challenger("company", games, seed, jobs, rivals, out)


def challenger(
    name: str, games: int, seed: int, jobs: int, rivals: list[str], out: str | None
) -> None:
    """Policy ``name`` paired against ``rivals`` on the same seeds (the same game dice for
    every policy: common random numbers), with the issue-26 targets checked."""
    bar = ProgressBar(label="games")
    t = time.perf_counter()
    c = compare([name, *rivals], games, seed, jobs, bar)
    took = time.perf_counter() - t
    print(c.report())
    me = c[name]
    lo, hi = me.win_ci
    turns = statistics.fmean(me.turns)
    print(
        f"\n{name}: win rate {me.win_rate:.1%} (Wilson 95% CI {lo:.1%}-{hi:.1%}), "
        f"mean {me.mean:.2f}, mean turns {turns:.1f} (target >= 5: "
        f"{'met' if turns >= 5 else 'not met'})"
    )
    for rival in rivals:
        d, (dlo, dhi) = c.paired(name, rival)
        tail = ""
        if rival == "passive":
            verdict = "met" if d >= 1.0 and dlo > 0 else "not met"
            tail = f"; target >= +1.0 with the interval above 0: {verdict}"
        print(f"{name} - {rival} {d:+.2f} (95% CI {dlo:+.2f} to {dhi:+.2f}{tail})")
    print(
        f"{games} games x {1 + len(rivals)} policies in {took:.0f} s with {jobs} job(s); "
        f"{name} {me.games_per_second:.2f} games/s on one process"
    )
    if out:
        with open(out, "w") as f:
            json.dump(c.to_json(), f, indent=1)
        print(f"json: {out}")


def stream(
    games: int, seed: int, jobs: int, path: str, policies=("best", "steady", "passive")
) -> None:
    """Play best, steady and passive on the same seeds, one JSON line per game as it ends.

    For runs longer than the time at hand: ``--summarize`` reads whatever has finished
    and reports it with its intervals (only seeds every policy has finished count).
    """
    from concurrent.futures import ProcessPoolExecutor

    from hexclass.classroom.combined_arms.simulate import play_chunk

    done = set()
    try:
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                done.add((r["policy"], r["seed"]))
    except FileNotFoundError:
        pass
    chunks = [
        ([s], p, None) for s in range(seed, seed + games) for p in policies if (p, s) not in done
    ]
    with ProcessPoolExecutor(max_workers=jobs) as pool, open(path, "a") as out:
        for policy, results in pool.map(play_chunk, chunks):
            for r in results:
                out.write(json.dumps({"policy": policy, **r.__dict__}) + "\n")
                out.flush()


def summarize(path: str, first: str | None = None) -> None:
    """Report stream files (comma-separated; a later file's games replace an earlier's):
    the seeds every policy has finished, with intervals; ``first`` is paired against
    every other policy (the same seeds: the same game dice for each)."""
    from hexclass.classroom.combined_arms.simulate import Comparison, GameResult, Summary

    by: dict[str, dict[int, GameResult]] = {}
    for one in path.split(","):
        with open(one) as f:
            for line in f:
                r = json.loads(line)
                p = r.pop("policy")
                by.setdefault(p, {})[r["seed"]] = GameResult(**r)
    common = sorted(set.intersection(*(set(v) for v in by.values())))
    order = [p for p in ("best", "steady", "passive") if p in by]
    order += sorted(p for p in by if p not in order)
    if first in by:
        order = [first] + [p for p in order if p != first]
    sums = []
    for p in order:
        res = [by[p][s] for s in common]
        sums.append(Summary(p, len(res), common[0], 0, 0.0, [r.score for r in res], res))
    text = Comparison(sums).report()
    print("\n".join(line for line in text.splitlines() if "games/s" not in line))
    for s in sums:
        turns = statistics.fmean(s.turns)
        own = statistics.fmean(r.friendly_broken for r in s.results)
        broke = statistics.fmean(r.enemy_broken for r in s.results)
        secs = statistics.fmean(r.seconds for r in s.results)
        print(
            f"  {s.policy:<14} turns {turns:4.1f}, enemy / own platoons broken "
            f"{broke:.2f} / {own:.2f} a game, {secs:.2f} s a game"
        )


def speed(n: int, seed: int) -> None:
    seeds = list(range(seed, seed + n))
    play_game(seeds[0], make_policy("steady", seeds[0]), Options(auto_decisions=True))  # warm
    t = time.perf_counter()
    compare(["best"], n, seed, 1)
    one = n / (time.perf_counter() - t)
    t = time.perf_counter()
    compare(["best"], n, seed, 2)
    two = n / (time.perf_counter() - t)
    rates = []
    for _ in range(3):
        t = time.perf_counter()
        for s in seeds:
            play_game(s, make_policy("steady", s), Options(auto_decisions=True))
        rates.append(n / (time.perf_counter() - t))
    st = statistics.median(rates)
    print(f"best     {one:7.2f} games/s on 1 process, {two:7.2f} on 2 (x{two / one:.2f})")
    print(
        f"steady   {st:7.1f} games/s on 1 core (median of 3; target >= 200: "
        f"{'met' if st >= 200 else f'{st / 200:.0%} of it'}); best is {st / one:.0f}x slower"
    )


def coach_latency(n: int, seed: int) -> None:
    """Suggest on positions met in steady games: each turn start and each fire phase."""
    positions = []
    s = seed
    while len(positions) < n:
        g = new_game(s, Options(auto_decisions=True))
        pol = make_policy("steady", s)
        last = None
        for _ in range(2000):
            if g.over or len(positions) >= n:
                break
            key = (g.turn, g.phase)
            if key != last and g.phase in ("friendly_move", "friendly_fire") and g.pending is None:
                positions.append(g.copy())
                last = key
            apply(g, pol.act(g, "player"))
        s += 1
    times = []
    for p in positions:
        t = time.perf_counter()
        suggest(p, "player")
        times.append(time.perf_counter() - t)
    times.sort()
    p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
    print(
        f"coach    {len(times)} suggestions: median {statistics.median(times):.2f} s, "
        f"p95 {p95:.2f} s, max {times[-1]:.2f} s (target p95 <= 2 s: "
        f"{'met' if p95 <= 2 else 'not met'})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games per policy (1000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2, help="worker processes for strength (2)")
    ap.add_argument("--speed-games", type=int, default=20, help="games for the speed case")
    ap.add_argument("--coach", type=int, default=40, help="suggestions timed (40)")
    ap.add_argument(
        "--only",
        default="strength,speed,coach",
        help="cases, comma-separated: strength, speed, coach, company, approach",
    )
    ap.add_argument(
        "--approach",
        default="approach",
        help="the approach executor to measure: approach or approach_best (approach)",
    )
    ap.add_argument(
        "--approach-vs",
        default="passive,steady",
        help="policies the approach executor is paired against (passive,steady)",
    )
    ap.add_argument(
        "--company-vs",
        default="steady,passive",
        help="policies the company planner is paired against (steady,passive)",
    )
    ap.add_argument("--plot", default=None, help="PNG of the strength comparison")
    ap.add_argument("--json", default=None, help="write the comparison JSON here")
    ap.add_argument("--stream", default=None, help="play to this JSON-lines file, resumable")
    ap.add_argument("--summarize", default=None, help="report --stream files so far")
    ap.add_argument("--policies", default="best,steady,passive", help="for --stream")
    ap.add_argument("--first", default=None, help="--summarize: pair this policy with the rest")
    args = ap.parse_args()
    if args.summarize:
        summarize(args.summarize, args.first)
        return
    if args.stream:
        stream(args.games, args.seed, args.jobs, args.stream, args.policies.split(","))
        summarize(args.stream, args.first)
        return
    cases = set(args.only.split(","))
    print("machine: 2 shared cores, noisy neighbours")
    if "speed" in cases:
        speed(args.speed_games, args.seed)
    if "coach" in cases:
        coach_latency(args.coach, args.seed)
    if "strength" in cases:
        strength(args.games, args.seed, args.jobs, args.plot, args.json)
    if "company" in cases:
        company(args.games, args.seed, args.jobs, args.company_vs.split(","), args.json)
    if "approach" in cases:
        rivals = args.approach_vs.split(",")
        challenger(args.approach, args.games, args.seed, args.jobs, rivals, args.json)


if __name__ == "__main__":
    main()
