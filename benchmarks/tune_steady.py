"""Tune the steady policy's weights with the balance lab's paired games (issue 13).

Random search over :class:`~hexclass.classroom.combined_arms.bots.SteadyWeights`: every candidate
plays the same seeds, and is scored by its paired score difference against ``passive``
(ending after turn 1) on those seeds, so board luck cancels. The best candidates of a
screening round are re-played on more seeds before one is kept.

Run:  .venv/bin/python benchmarks/tune_steady.py --candidates 200 --seeds 120 \\
          --confirm 5 --confirm-seeds 600 --jobs 2 --out /tmp/tune.jsonl

``--executor approach`` tunes the approach executor (issue 26) instead, its rule's
knobs (``APPROACH_SPACE``) with the weights. ``--exact`` scores each game by its
expected score (the exact mean of the final reveal it was ended on,
:func:`~hexclass.classroom.combined_arms.simulate.expected_at_end`): the same mean, about
a third of the standard error, so a screening round picks on skill rather than on the
last reveal's luck.

Each line of ``--out`` is one candidate: its weights and its paired mean with the
standard error. The search draws candidates from its own ``random.Random(--rng)``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from dataclasses import fields, replace

from hexclass.classroom.combined_arms import Options
from hexclass.classroom.combined_arms.bots import (
    PassivePolicy,
    SteadyPolicy,
    SteadyWeights,
    play_game,
)
from hexclass.classroom.combined_arms.bots.approach import (
    APPROACH_WEIGHTS,
    ApproachPolicy,
    ApproachRule,
)
from hexclass.classroom.combined_arms.game import new_game
from hexclass.classroom.combined_arms.simulate import expected_at_end

# (low, high) for floats, a tuple of choices otherwise
SPACE: dict[str, object] = {
    "loss": (0.1, 0.8),
    "armour": (1.0, 8.0),
    "open_step": (0.0, 1.0),
    "near_enemy_step": (0.5, 5.0),
    "stack_penalty": (0.0, 1.0),
    "caution_scale": (0.3, 3.0),
    "active_companies": (1, 2, 3),
    "max_wait": (0, 1, 2, 3, 4),
    "close_risk": (0.1, 0.9),
    "min_cover": (0.0, 0.1),
    "rifle_cover": (0.2, 2.0),
    "armour_range": (2, 3, 4, 5),
    "end_turn": (10, 14, 17, 19, 21),
    "last_entry": (6, 9, 12, 15),
    "mortar_shift": (0.2, 0.9),
    "real_bonus": (0.0, 4.0),
    "max_crossfire": (0.05, 2.0),
    "crossfire": (0.5, 6.0),
    "stop_loss": (1, 2, 3, 99),
    "mmg_entry": (0.0, 1.0),
    "mmg_danger": (0.2, 3.0),
    "exploit_pull": (0.0, 2.0),
    "end_when_idle": (True, False),
    "hold_off_board": (True, False),
}
# the approach executor's rule (ApproachRule), drawn only with --executor approach
APPROACH_SPACE: dict[str, object] = {
    "limit": (0.0, 0.2),
    "penalty": (10.0, 30.0, 100.0, 300.0),
    "mortar": (0.0, 1.5),
    "staging": (True, False),
}


def weights_from(params: dict) -> SteadyWeights:
    """SteadyWeights from a flat parameter dict (``caution_scale`` scales the caution table)."""
    p = dict(params)
    scale = p.pop("caution_scale", 1.0)
    base = SteadyWeights()
    names = {f.name for f in fields(SteadyWeights)}
    w = replace(base, **{k: v for k, v in p.items() if k in names})
    return replace(w, caution={k: v * scale for k, v in base.caution.items()})


def draw(rng: random.Random, around: dict | None = None, spread: float = 1.0, space=SPACE) -> dict:
    """A random candidate, or a perturbation of ``around``."""
    out = {}
    for k, dom in space.items():
        if isinstance(dom, tuple) and len(dom) == 2 and all(isinstance(x, float) for x in dom):
            lo, hi = dom
            if around is not None and rng.random() > 0.35:
                v = around[k] + rng.gauss(0, 0.15 * spread * (hi - lo))
                out[k] = round(min(hi, max(lo, v)), 3)
            else:
                out[k] = round(rng.uniform(lo, hi), 3) if around is None else around[k]
        else:
            if around is not None and rng.random() > 0.25:
                out[k] = around[k]
            else:
                out[k] = rng.choice(dom)
    return out


def default_params(executor: str = "steady") -> dict:
    w = SteadyWeights() if executor == "steady" else APPROACH_WEIGHTS
    d = {k: getattr(w, k) for k in SPACE if k != "caution_scale"}
    d["caution_scale"] = 1.0
    if executor == "approach":
        rule = ApproachRule()
        d.update({k: getattr(rule, k) for k in APPROACH_SPACE})
    return d


def policy_from(params: dict, executor: str):
    if executor == "steady":
        return SteadyPolicy(None, weights_from(params))
    rule = ApproachRule(**{k: params[k] for k in APPROACH_SPACE})
    return ApproachPolicy(None, weights_from(params), rule=rule)


def _value(game, seed: int, exact: bool) -> float:
    """The game's score, or with ``exact`` its expected score (see the module's note)."""
    if not exact:
        return game.result.total
    return expected_at_end(game, lambda: new_game(seed, Options(auto_decisions=True)))


def _passive(seed: int, exact: bool = False) -> float:
    return _value(play_game(seed, PassivePolicy(), Options(auto_decisions=True)), seed, exact)


def _one(args) -> tuple[float, int]:
    params, seed, executor, exact = args
    g = play_game(seed, policy_from(params, executor), Options(auto_decisions=True))
    return _value(g, seed, exact), g.result.turns


def evaluate(
    pool, params: dict, seeds: list[int], base: dict, executor="steady", exact=False
) -> dict:
    jobs = [(params, s, executor, exact) for s in seeds]
    res = list(pool.map(_one, jobs, chunksize=8))
    scores = [r[0] for r in res]
    diffs = [s - base[k] for s, k in zip(scores, seeds)]
    return {
        "params": params,
        "n": len(seeds),
        "mean": statistics.fmean(scores),
        # an expected score is a mean, not a game's result: no win rate from it
        "wins": None if exact else sum(s >= 20 for s in scores) / len(scores),
        "paired": statistics.fmean(diffs),
        "se": statistics.stdev(diffs) / len(diffs) ** 0.5,
        "turns": statistics.fmean(r[1] for r in res),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--candidates", type=int, default=200)
    ap.add_argument("--seeds", type=int, default=120)
    ap.add_argument("--first-seed", type=int, default=100001, help="tuning seeds start here")
    ap.add_argument("--confirm", type=int, default=5)
    ap.add_argument("--confirm-seeds", type=int, default=600)
    ap.add_argument("--local", type=float, default=0.5, help="share of candidates near the best")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rng", type=int, default=13)
    ap.add_argument("--out", default="tune.jsonl")
    ap.add_argument("--executor", choices=("steady", "approach"), default="steady")
    ap.add_argument("--exact", action="store_true", help="score games by their expected score")
    args = ap.parse_args()
    space = SPACE if args.executor == "steady" else {**SPACE, **APPROACH_SPACE}
    how = {"executor": args.executor, "exact": args.exact}
    rng = random.Random(args.rng)
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    # confirmation seeds follow the screening ones: a candidate picked on its screening
    # luck must not be re-scored on the same games
    after = args.first_seed + args.seeds
    confirm = list(range(after, after + args.confirm_seeds))
    base = {s: _passive(s, args.exact) for s in seeds + confirm}
    found = []
    with ProcessPoolExecutor(args.jobs) as pool, open(args.out, "a") as out:
        for i in range(args.candidates):
            if i == 0:
                params = default_params(args.executor)
            elif found and rng.random() < args.local:
                top = sorted(found, key=lambda r: -r["paired"])[:5]
                params = draw(rng, rng.choice(top)["params"], space=space)
            else:
                params = draw(rng, space=space)
            r = evaluate(pool, params, seeds, base, **how)
            found.append(r)
            _record(out, r, f"{i:4d}")
        for r in sorted(found, key=lambda r: -r["paired"])[: args.confirm]:
            c = evaluate(pool, r["params"], confirm, base, **how)
            _record(out, c, "confirm", json.dumps(c["params"]))


def _record(out, r: dict, label: str, extra: str = "") -> None:
    """One candidate's line in the JSON-lines file and on the screen."""
    out.write(json.dumps({**r, "round": label.strip()}) + "\n")
    out.flush()
    print(
        f"{label} paired {r['paired']:+.2f} ±{r['se']:.2f} mean {r['mean']:.2f} "
        f"wins {'-' if r['wins'] is None else format(r['wins'], '.1%')} "
        f"turns {r['turns']:.1f} {extra}",
        flush=True,
    )


if __name__ == "__main__":
    main()
