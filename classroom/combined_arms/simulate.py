"""The balance lab: play many whole Combined Arms games and compare policies on them.

Game ``i`` of a run uses seed ``seed + i``, so a run is reproducible and policies run
from the same seed face the same boards and the same dice (``compare``). With
``board=B`` every game is played on board ``B`` (the board and the defence of seed
``B``) with game ``i``'s own dice: how winnable is that one board?

Games are shared among local worker processes (``jobs``) or the workers of a Dask
cluster (``scheduler="tcp://host:port"``); each game depends only on its seed and
policy, so the results are the same however they are shared out.

Win rates carry Wilson 95 % intervals; mean scores a normal-approximation interval;
policies compared on the same seeds get the paired difference of their scores with its
interval, which is much narrower than the two intervals side by side.

Each game also carries its *expected* score: when a policy ends the game, the exact mean
of the final reveal it then faces (:func:`~.outlook.end_value`; a game the engine ends
after turn 20 keeps its score). Its average is the same as the scores', but the luck of
the last reveal is gone from each game, so paired differences of expected scores are
about three times narrower: a ninth of the games for the same interval.

>>> s = simulate(2, seed=5, policy="passive")
>>> s.games, len(s.scores), s.policy
(2, 2, 'passive')
>>> lo, hi = wilson(25, 100)
>>> round(lo, 3), round(hi, 3)
(0.175, 0.343)
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import TextIO

from hexclass.classroom.dice import Dice

from .bots import POLICIES, make_policy
from .bots.base import play_out
from .game import new_game
from .state import Options
from .victory import WIN

Z95 = 1.959963984540054  # two-sided 95 % normal quantile


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (good near 0 and 1, unlike the normal one)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    if successes == 0:
        return (0.0, z * z / (n + z * z))
    if successes == n:
        return (n / (n + z * z), 1.0)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: list[float], z: float = Z95) -> tuple[float, float]:
    """Normal-approximation 95 % interval of a mean (fine for hundreds of games)."""
    if not values:
        return (0.0, 0.0)
    m = statistics.fmean(values)
    if len(values) < 2:
        return (m, m)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return (m - half, m + half)


@dataclass(frozen=True)
class GameResult:
    """What one game came to."""

    seed: int
    score: int
    won: bool
    turns: int
    actions: int
    enemy_broken: int
    friendly_broken: int
    exploited: int
    # the exact mean of the final reveal when the game was ended (None: not measured)
    expected: float | None = None
    # time the process that played the game spent on it (not part of what it came to)
    seconds: float = field(default=0.0, compare=False)


@dataclass
class Summary:
    """Scores of a run of games, with how fast they were played."""

    policy: str
    games: int
    seed: int
    jobs: int
    elapsed: float
    scores: list[int] = field(repr=False)
    results: list[GameResult] = field(repr=False)
    board: int | None = None
    # elapsed is this policy's own play time in one process, not the run's wall time
    per_process: bool = False

    @property
    def wins(self) -> int:
        return sum(r.won for r in self.results)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_ci(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.scores) if self.scores else 0.0

    @property
    def mean_ci(self) -> tuple[float, float]:
        return mean_interval([float(s) for s in self.scores])

    @property
    def median(self) -> float:
        return statistics.median(self.scores) if self.scores else 0.0

    @property
    def stdev(self) -> float:
        return statistics.stdev(self.scores) if len(self.scores) > 1 else 0.0

    @property
    def turns(self) -> list[int]:
        return [r.turns for r in self.results]

    @property
    def expected(self) -> list[float]:
        """Each game's :func:`expected_at_end` (its score where it was not measured)."""
        return [r.score if r.expected is None else r.expected for r in self.results]

    @property
    def games_per_second(self) -> float:
        return self.games / self.elapsed if self.elapsed > 0 else float("inf")

    def to_json(self) -> dict:
        """The documented JSON object of ``hexclass simulate --json``."""

        def mean_of(attr: str) -> float:
            return round(statistics.fmean(getattr(r, attr) for r in self.results), 4)

        return {
            "policy": self.policy,
            "games": self.games,
            "seed": self.seed,
            "board": self.board,
            "jobs": self.jobs,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "win_rate_ci95": [round(x, 4) for x in self.win_ci],
            "mean_score": round(self.mean, 4),
            "mean_score_ci95": [round(x, 4) for x in self.mean_ci],
            "median_score": self.median,
            "stdev_score": round(self.stdev, 4),
            "min_score": min(self.scores),
            "max_score": max(self.scores),
            "mean_turns": mean_of("turns"),
            "turn_counts": {str(k): v for k, v in sorted(Counter(self.turns).items())},
            "mean_enemy_broken": mean_of("enemy_broken"),
            "mean_friendly_broken": mean_of("friendly_broken"),
            "mean_exploited": mean_of("exploited"),
            "mean_expected_score": round(statistics.fmean(self.expected), 4),
            "score_counts": {str(k): v for k, v in sorted(Counter(self.scores).items())},
            "elapsed_seconds": round(self.elapsed, 3),
            "games_per_second": round(self.games_per_second, 2),
            "timed_per_process": self.per_process,  # else wall time of the run, all jobs
            "win_threshold": WIN,
        }

    def report(self) -> str:
        """A few lines for people."""
        lo, hi = min(self.scores), max(self.scores)
        wlo, whi = self.win_ci
        mlo, mhi = self.mean_ci
        jobs = f"{self.jobs} job" + ("s" if self.jobs != 1 else "")
        where = (
            f"board {self.board}, dice from seed {self.seed}"
            if self.board is not None
            else (f"seed {self.seed}")
        )
        return "\n".join(
            [
                f"{self.policy}: {self.games} games from {where}",
                f"  win rate  {self.win_rate:.1%} ({self.wins}/{self.games}; {WIN}+ wins)"
                f"  95% CI {wlo:.1%}-{whi:.1%}",
                f"  score     mean {self.mean:.2f} (95% CI {mlo:.2f}-{mhi:.2f})  median "
                f"{self.median:g}  sd {self.stdev:.2f}  range {lo}..{hi}",
                f"  turns     mean {statistics.fmean(self.turns):.1f}  "
                f"median {statistics.median(self.turns):g}",
                f"  speed     {self._speed(jobs)}",
            ]
        )

    def _speed(self, jobs: str) -> str:
        if self.per_process:
            return (
                f"{self.games_per_second:.1f} games/s on one process ({self.elapsed:.1f} s of play)"
            )
        return f"{self.games_per_second:.1f} games/s ({self.elapsed:.1f} s, {jobs})"


@dataclass
class Comparison:
    """Several policies played on the same seeds (and the same board, if one was fixed)."""

    summaries: list[Summary]

    def paired(self, a: str, b: str, expected: bool = False) -> tuple[float, tuple[float, float]]:
        """Mean of score(a) - score(b) over the same games, with its 95 % interval; with
        ``expected``, of their expected scores (:func:`expected_at_end`)."""
        if expected:
            xs, ys = (self[p].expected for p in (a, b))
        else:
            xs, ys = (self[p].scores for p in (a, b))
        diffs = [float(x - y) for x, y in zip(xs, ys)]
        return statistics.fmean(diffs), mean_interval(diffs)

    @property
    def has_expected(self) -> bool:
        return all(r.expected is not None for s in self.summaries for r in s.results)

    def __getitem__(self, policy: str) -> Summary:
        return next(s for s in self.summaries if s.policy == policy)

    def to_json(self) -> dict:
        first = self.summaries[0].policy
        return {
            "policies": [s.to_json() for s in self.summaries],
            **(
                {"board_end_after_turn_1": dict(zip(("mean", "win"), board_baseline(b)))}
                if (b := self.summaries[0].board) is not None
                else {}
            ),
            "paired_vs_" + first: {
                s.policy: _paired_json(self.paired(first, s.policy)) for s in self.summaries[1:]
            },
            **(
                {
                    "paired_expected_vs_" + first: {
                        s.policy: _paired_json(self.paired(first, s.policy, expected=True))
                        for s in self.summaries[1:]
                    }
                }
                if self.has_expected
                else {}
            ),
        }

    def report(self) -> str:
        s0 = self.summaries[0]
        lines = [s.report() for s in self.summaries]
        if s0.board is not None:
            mean, win = board_baseline(s0.board)
            lines.append(
                f"board {s0.board}: ending after turn 1 with nothing done scores {mean:.2f} "
                f"on average, {win:.1%} chance of {WIN}+ (exact: the final reveal's odds)"
            )
        if len(self.summaries) > 1:
            lines.append(
                f"same {s0.games} games; score difference of {s0.policy} (paired, 95% CI):"
            )
        for s in self.summaries[1:]:
            d, (lo, hi) = self.paired(s0.policy, s.policy)
            lines.append(f"  vs {s.policy:<8} {d:+.2f} ({lo:+.2f} to {hi:+.2f})")
        if len(self.summaries) > 1 and self.has_expected:
            lines.append("the same, each game valued by the exact odds of its final reveal:")
            for s in self.summaries[1:]:
                d, (lo, hi) = self.paired(s0.policy, s.policy, expected=True)
                lines.append(f"  vs {s.policy:<8} {d:+.2f} ({lo:+.2f} to {hi:+.2f})")
        return "\n".join(lines)


def _paired_json(p) -> dict:
    d, (lo, hi) = p
    return {"mean_difference": round(d, 4), "ci95": [round(lo, 4), round(hi, 4)]}


def board_baseline(board: int) -> tuple[float, float]:
    """Exact (mean score, win chance) of ending board ``board`` after turn 1, doing nothing.

    With none of your platoons on the board nothing can provoke a reveal or a shot, so
    this is the final reveal's distribution of the untouched defence (CA "Victory").
    """
    from .outlook import end_distribution

    dist = end_distribution(new_game(board, Options(auto_decisions=True)), turns=1)
    return sum(s * p for s, p in dist.items()), sum(p for s, p in dist.items() if s >= WIN)


def board_study_game(board: int, seed: int) -> int:
    """Dice seed of game ``seed`` on a fixed board: both numbers mixed (splitmix64), so
    neighbouring games get unrelated dice streams."""
    x = (board * 0x9E3779B97F4A7C15 + seed) & 0xFFFFFFFFFFFFFFFF
    for _ in range(2):
        x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 31
    return x >> 2


def board_game(board: int, seed: int):
    """A new game on the board (terrain and defence) of seed ``board``, with dice of its own."""
    state = new_game(board, Options(auto_decisions=True))
    state.dice = Dice(board_study_game(board, seed))
    return state


def play_one(seed: int, policy: str = "steady", board: int | None = None) -> GameResult:
    """Play game ``seed`` with a fresh policy of that name (seeded with the game's seed).

    With ``board`` the game is set up from seed ``board`` (terrain and defence) and then
    rolls its own dice, seeded from both numbers.
    """
    start = time.perf_counter()

    def fresh():
        if board is None:
            return new_game(seed, Options(auto_decisions=True))
        return board_game(board, seed)

    state = play_out(fresh(), make_policy(policy, seed))
    seconds = time.perf_counter() - start
    score = state.result
    return GameResult(
        seed=seed,
        score=score.total,
        won=score.won,
        turns=score.turns,
        actions=len(state.actions),
        enemy_broken=state.enemy_platoons_broken,
        friendly_broken=len(state.broken_friendly()),
        exploited=len(state.exploited()),
        expected=expected_at_end(state, fresh),
        seconds=seconds,
    )


def expected_at_end(state, fresh: Callable) -> float:
    """The exact mean score of the final reveal at the moment the game was ended.

    A game a policy ended (its last action :class:`~.actions.EndGame`) is replayed from
    ``fresh()`` up to that action, and the final reveal it faced is valued exactly
    (:func:`~.outlook.end_value`, CA "Victory"); a game the engine ended after turn 20
    keeps its score. Either way the mean over games is the mean score.
    """
    from .actions import EndGame
    from .engine import apply
    from .outlook import end_value

    if not state.actions or not isinstance(state.actions[-1], EndGame):
        return float(state.result.total)
    # not game.replay(record(...)): a record rebuilds the seed's own dice, and a board
    # study (board_game) plays the board's seed with dice of its own
    replay = fresh()
    for action in state.actions[:-1]:
        apply(replay, action)
    return end_value(replay)[0]


Chunk = tuple[list[int], str, int | None]


def play_chunk(args: Chunk) -> tuple[str, list[GameResult]]:
    """Play a chunk of games (one policy); the unit of work for processes and Dask."""
    seeds, policy, board = args
    return policy, [play_one(s, policy, board) for s in seeds]


def _chunks(seeds: list[int], policies: list[str], board, workers: int) -> list[Chunk]:
    size = max(1, min(25, len(seeds) // (max(1, workers) * 8) or 1))
    out = []
    for i in range(0, len(seeds), size):
        for p in policies:  # interleaved, so every policy progresses together
            out.append((seeds[i : i + size], p, board))
    return out


def _results(
    seeds: list[int],
    policies: list[str],
    jobs: int,
    board: int | None = None,
    scheduler: str | None = None,
) -> Iterator[tuple[str, list[GameResult]]]:
    """(policy, results) in batches as they are finished, in submission order."""
    if scheduler is not None:
        yield from _dask_results(seeds, policies, board, scheduler)
        return
    if jobs <= 1:
        for s in seeds:
            for p in policies:
                yield p, [play_one(s, p, board)]
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(play_chunk, _chunks(seeds, policies, board, jobs))


def _dask_results(seeds, policies, board, scheduler: str):
    """The same chunks on a Dask cluster; gathered in submission order."""
    try:
        from distributed import Client
    except ImportError as exc:  # pragma: no cover - dask is a declared dependency
        raise RuntimeError("--scheduler needs dask[distributed] installed") from exc
    with Client(scheduler, timeout="20s") as client:
        workers = max(1, sum(client.nthreads().values()))
        chunks = _chunks(seeds, policies, board, workers)
        futures = client.map(play_chunk, chunks, pure=False)
        try:
            for f in futures:
                yield f.result()
        finally:
            client.cancel(futures)


def _check(games: int, policies: list[str]) -> None:
    for policy in policies:
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}; expected one of {', '.join(POLICIES)}")
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")


def compare(
    policies: list[str],
    games: int,
    seed: int = 1,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    board: int | None = None,
    scheduler: str | None = None,
) -> Comparison:
    """Play ``games`` games per policy on the same seeds and summarise each."""
    _check(games, policies)
    if len(set(policies)) != len(policies):
        raise ValueError(f"each policy once, please: {','.join(policies)}")
    seeds = list(range(seed, seed + games))
    start = time.perf_counter()
    got: dict[str, dict[int, GameResult]] = {p: {} for p in policies}
    done = 0
    for policy, batch in _results(seeds, policies, jobs, board, scheduler):
        for r in batch:
            got[policy][r.seed] = r
        done += len(batch)
        if progress is not None:
            progress(done, games * len(policies))
    elapsed = time.perf_counter() - start
    alone = len(policies) == 1  # else the policies shared the processes: time each one's games
    summaries = []
    for p in policies:
        results = [got[p][s] for s in seeds]
        took = elapsed if alone else sum(r.seconds for r in results)
        scores = [r.score for r in results]
        summaries.append(
            Summary(p, games, seed, jobs, took, scores, results, board, per_process=not alone)
        )
    return Comparison(summaries)


def simulate(
    games: int,
    seed: int = 1,
    policy: str = "steady",
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    board: int | None = None,
    scheduler: str | None = None,
) -> Summary:
    """Play ``games`` games (seeds ``seed`` ... ``seed + games - 1``) and summarise them."""
    return compare([policy], games, seed, jobs, progress, board, scheduler).summaries[0]


def plot(comparison: Comparison, path: str) -> str:
    """A PNG of the comparison: win rates with 95 % intervals, scores, turns played."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sums = comparison.summaries
    names = [s.policy for s in sums]
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    ax = axes[0]
    rates = [s.win_rate * 100 for s in sums]
    err = [
        [max(0.0, r - s.win_ci[0] * 100) for r, s in zip(rates, sums)],
        [max(0.0, s.win_ci[1] * 100 - r) for r, s in zip(rates, sums)],
    ]
    ax.bar(names, rates, yerr=err, capsize=6, color="#4c78a8")
    ax.set_ylabel("win rate, % (95% Wilson CI)")
    ax.set_title(f"wins ({WIN}+) over {sums[0].games} games")
    ax = axes[1]
    lo = min(min(s.scores) for s in sums)
    hi = max(max(s.scores) for s in sums)
    bins = [x - 0.5 for x in range(lo, hi + 2)]
    for s in sums:
        ax.hist(
            s.scores,
            bins=bins,
            histtype="step",
            linewidth=1.8,
            label=f"{s.policy} (mean {s.mean:.1f})",
        )
    ax.axvline(WIN - 0.5, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.set_title("score distribution")
    ax.legend(fontsize=8)
    ax = axes[2]
    tbins = [x - 0.5 for x in range(1, 22)]
    for s in sums:
        ax.hist(s.turns, bins=tbins, histtype="step", linewidth=1.8, label=s.policy)
    ax.set_xlabel("turns played")
    ax.set_ylabel("games")
    ax.set_title("game length")
    ax.legend(fontsize=8)
    where = f"board {sums[0].board}" if sums[0].board is not None else f"seeds {sums[0].seed}+"
    fig.suptitle(f"Combined Arms balance lab: {', '.join(names)} on the same {where}")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


class ProgressBar:
    """A one-line bar redrawn with carriage returns on a stream (stderr, not stdout)."""

    def __init__(self, stream: TextIO | None = None, width: int = 30, label: str = "games"):
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.label = label
        self._start = time.perf_counter()
        self._last_draw = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if done < total and now - self._last_draw < 0.1:
            return  # redraw at most ten times a second
        self._last_draw = now
        filled = int(self.width * done / total) if total else self.width
        rate = done / (now - self._start) if now > self._start else 0.0
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{total} {self.label} {rate:6.1f}/s")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


def summary_as_dict(summary: Summary) -> dict:
    """Every game as plain data (for notebooks that want more than the JSON summary)."""
    return {"summary": summary.to_json(), "games": [asdict(r) for r in summary.results]}


__all__ = [
    "GameResult",
    "Summary",
    "Comparison",
    "play_one",
    "play_chunk",
    "simulate",
    "compare",
    "plot",
    "wilson",
    "mean_interval",
    "ProgressBar",
    "summary_as_dict",
]
