"""Play many whole Combined Arms games with one policy and summarise the scores.

Game ``i`` of a run uses seed ``seed + i``, so a run is reproducible and two policies
run from the same seed face the same boards. With ``jobs > 1`` the games are shared
among worker processes; the summary is the same as with one process.

>>> s = simulate(2, seed=5, policy="passive")
>>> s.games, len(s.scores), s.policy
(2, 2, 'passive')
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import TextIO

from .bot import POLICIES, make_policy, play_game
from .state import Options
from .victory import WIN


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

    @property
    def wins(self) -> int:
        return sum(r.won for r in self.results)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def mean(self) -> float:
        return statistics.fmean(self.scores) if self.scores else 0.0

    @property
    def median(self) -> float:
        return statistics.median(self.scores) if self.scores else 0.0

    @property
    def stdev(self) -> float:
        return statistics.stdev(self.scores) if len(self.scores) > 1 else 0.0

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
            "jobs": self.jobs,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "mean_score": round(self.mean, 4),
            "median_score": self.median,
            "stdev_score": round(self.stdev, 4),
            "min_score": min(self.scores),
            "max_score": max(self.scores),
            "mean_turns": mean_of("turns"),
            "mean_enemy_broken": mean_of("enemy_broken"),
            "mean_friendly_broken": mean_of("friendly_broken"),
            "mean_exploited": mean_of("exploited"),
            "score_counts": {str(k): v for k, v in sorted(Counter(self.scores).items())},
            "elapsed_seconds": round(self.elapsed, 3),
            "games_per_second": round(self.games_per_second, 2),
            "win_threshold": WIN,
        }

    def report(self) -> str:
        """A few lines for people."""
        lo, hi = min(self.scores), max(self.scores)
        jobs = f"{self.jobs} job" + ("s" if self.jobs != 1 else "")
        return "\n".join(
            [
                f"{self.policy}: {self.games} games from seed {self.seed}",
                f"  win rate  {self.win_rate:.1%} ({self.wins}/{self.games}; {WIN}+ wins)",
                f"  score     mean {self.mean:.2f}  median {self.median:g}  "
                f"sd {self.stdev:.2f}  range {lo}..{hi}",
                f"  turns     mean {statistics.fmean(r.turns for r in self.results):.1f}",
                f"  speed     {self.games_per_second:.1f} games/s ({self.elapsed:.1f} s, {jobs})",
            ]
        )


def play_one(seed: int, policy: str = "steady") -> GameResult:
    """Play game ``seed`` with a fresh policy of that name (seeded with the game's seed)."""
    state = play_game(seed, make_policy(policy, seed), Options(auto_decisions=True))
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
    )


def _play_chunk(args: tuple[list[int], str]) -> list[GameResult]:
    seeds, policy = args
    return [play_one(s, policy) for s in seeds]


def _results(games: int, seed: int, policy: str, jobs: int) -> Iterator[list[GameResult]]:
    """Results in batches as they are finished (in seed order)."""
    seeds = list(range(seed, seed + games))
    if jobs <= 1:
        for s in seeds:
            yield [play_one(s, policy)]
        return
    size = max(1, min(25, games // (jobs * 8) or 1))
    chunks = [(seeds[i : i + size], policy) for i in range(0, games, size)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_play_chunk, chunks)


def simulate(
    games: int,
    seed: int = 1,
    policy: str = "steady",
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Summary:
    """Play ``games`` games (seeds ``seed`` ... ``seed + games - 1``) and summarise them."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; expected one of {', '.join(POLICIES)}")
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    start = time.perf_counter()
    results: list[GameResult] = []
    for batch in _results(games, seed, policy, jobs):
        results.extend(batch)
        if progress is not None:
            progress(len(results), games)
    elapsed = time.perf_counter() - start
    return Summary(policy, games, seed, jobs, elapsed, [r.score for r in results], results)


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


__all__ = ["GameResult", "Summary", "play_one", "simulate", "ProgressBar", "summary_as_dict"]
