"""How much could ``best`` gain by choosing *which boards* to attack? (issue 13)

``best`` weighs, at the start of each turn, ending the game against playing on with a
scripted plan. Its strength is bounded by two things: how well it tells boards where a
plan pays from boards where it does not, and how much the plans pay at all. This
benchmark measures the first bound for a scripted policy (steady by default).

For each board (the seeds ``--seed`` ..), ``--playouts`` games are played from the
opening position with dice re-seeded from the benchmark's own numbers
(:func:`~hexclass.classroom.combined_arms.outlook.planning_copy`), once with the policy and once
with ``passive`` on the same dice seeds (common random numbers). Each board then has a
paired mean difference ``d`` and its standard error. Reported:

* the mean of ``d`` over boards (what always attacking gains);
* the spread of ``d`` between boards, with the playout noise taken out (``true sd``);
* the ceiling of choosing boards perfectly under a normal model,
  ``E[max(0, d)] = sd * pdf(mu/sd) + mu * cdf(mu/sd)``;
* an honest split-half estimate: choose a board on the first half of its playouts
  (attack if the paired mean passes ``--margin``), score it on the second half.

Run:  .venv/bin/python benchmarks/ca_board_choice.py --boards 300 --playouts 16 --jobs 2
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from concurrent.futures import ProcessPoolExecutor

from hexclass.classroom.combined_arms import Options, new_game
from hexclass.classroom.combined_arms.bots import PassivePolicy, make_policy, state_seat
from hexclass.classroom.combined_arms.bots.base import play_out
from hexclass.classroom.combined_arms.outlook import planning_copy


def board_scores(args: tuple[int, str, int]) -> tuple[int, list[int], list[int]]:
    """(seed, policy scores, passive scores) over re-seeded dice on one board."""
    seed, policy, playouts = args
    opening = new_game(seed, Options(auto_decisions=True))
    seat = state_seat(opening)
    out: dict[str, list[int]] = {}
    for name in (policy, "passive"):
        dice = random.Random(seed * 7919)  # the same dice seeds for both policies
        out[name] = []
        for _ in range(playouts):
            mover = make_policy(name, seed) if name != "passive" else PassivePolicy()
            game = play_out(planning_copy(opening, dice), mover, seat)
            out[name].append(game.result.total)
    return seed, out[policy], out["passive"]


def normal_ceiling(mu: float, sd: float) -> float:
    """E[max(0, d)] for d ~ Normal(mu, sd): choosing every board that pays, and only those."""
    if sd <= 0:
        return max(mu, 0.0)
    z = mu / sd
    pdf = math.exp(-z * z / 2) / math.sqrt(2 * math.pi)
    cdf = 0.5 * (1 + math.erf(z / math.sqrt(2)))
    return sd * pdf + mu * cdf


def summarize(rows, margin: float) -> dict[str, float]:
    means, noise, split = [], [], []
    for _seed, mine, passive in rows:
        diffs = [a - b for a, b in zip(mine, passive)]
        means.append(statistics.fmean(diffs))
        noise.append(statistics.variance(diffs) / len(diffs))
        half = len(diffs) // 2
        chosen = statistics.fmean(diffs[:half]) > margin
        split.append(statistics.fmean(diffs[half:]) if chosen else 0.0)
    mu = statistics.fmean(means)
    spread = statistics.pstdev(means)
    true_sd = math.sqrt(max(spread**2 - statistics.fmean(noise), 0.0))
    return {
        "boards": len(rows),
        "mean_gain": mu,
        "mean_gain_se": spread / math.sqrt(len(rows)),
        "board_sd_observed": spread,
        "board_sd_true": true_sd,
        "ceiling_normal": normal_ceiling(mu, true_sd),
        "split_half_gain": statistics.fmean(split),
        "split_half_se": statistics.pstdev(split) / math.sqrt(len(rows)),
        "boards_chosen_split": sum(1 for s in split if s != 0.0),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boards", type=int, default=300)
    ap.add_argument("--playouts", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policy", default="steady")
    ap.add_argument("--margin", type=float, default=0.5)
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    work = [(a.seed + i, a.policy, a.playouts) for i in range(a.boards)]
    if a.jobs > 1:
        with ProcessPoolExecutor(a.jobs) as pool:
            rows = list(pool.map(board_scores, work, chunksize=4))
    else:
        rows = [board_scores(w) for w in work]
    s = summarize(rows, a.margin)
    print(f"{a.policy} vs passive, {s['boards']} boards x {a.playouts} playouts (seed {a.seed}-)")
    print(f"  always attacking: {s['mean_gain']:+.2f} (SE {s['mean_gain_se']:.2f}) a game")
    print(
        f"  board-to-board sd of the gain: {s['board_sd_observed']:.2f} observed, "
        f"{s['board_sd_true']:.2f} with playout noise removed"
    )
    print(f"  ceiling of perfect board choice (normal model): {s['ceiling_normal']:+.2f}")
    print(
        f"  split-half choice (margin {a.margin}): {s['split_half_gain']:+.2f} "
        f"(SE {s['split_half_se']:.2f}), {s['boards_chosen_split']} boards chosen"
    )


if __name__ == "__main__":
    main()
