"""The attacker ``best``: the doctrine attacker, told by looking ahead what to play and when to end.

Issue 26's studies found that every doctrine setting passes, in most games, through a
turn worth more than where it ends (``benchmarks/ca_diagnosis.py --only prophet``), and
that a rule which looks ahead on planning copies keeps a part of that
(``benchmarks/ca_stop.py``). That rule is this attacker. At the start of each turn it
weighs:

* **ending now** (CA "Victory", allowed from turn 2): the exact mean of the final reveal,
  :func:`~..outlook.end_value`, no dice at all;
* **going on with setting S**, for each doctrine setting in :data:`SETTINGS`: ``forks``
  planning copies, each with dice seeded from the attacker's own random numbers (never
  the game's, :func:`~..outlook.planning_copy`), the same seeds for every setting
  (common random numbers). Each fork is played on by the doctrine attacker with S for up
  to ``horizon`` turns and valued at each turn start it reaches by the worth of ending
  there. Going on with S is worth the best of those horizons' means: the attacker may
  stop at any of them.

It plays the turn with the best setting, or ends the game when going on is worth no more
than ending now plus ``margin``. A setting that would end the game as its first order (no
post worth attacking, too many platoons lost, past turn 18) is ending, not going on. The best of several noisy means reads too high; the
studies set ``margin`` at -0.25 anyway (going on unless it reads 0.25 below ending),
which played longer for as much (``docs/performance-notes.md``, "2026-11-26 night").
The budget counts forks, not seconds, so a game with ``best`` is reproducible;
``seconds`` caps one decision for the coach.
"""

from __future__ import annotations

import copy
import random
import statistics
import time
from dataclasses import dataclass

from ..actions import EndGame
from ..engine import apply, check
from ..outlook import end_value, planning_copy
from ..state import GameState
from .base import MAX_ACTIONS_PER_PHASE, TurnPlanner
from .doctrine import PRESETS, DoctrinePolicy
from .search import END, TurnChoice

# The settings a turn may be played with, boldest first (benchmarks/README.md, issue 26).
SETTINGS = ("doctrine_bold", "doctrine_close", "doctrine_run")


@dataclass(frozen=True)
class LookaheadBudget:
    """How far ``best`` looks: forks per decision, turns per fork, the stopping margin."""

    forks: int = 16
    horizon: int = 6
    margin: float = -0.25  # end when going on reads no more than ending plus this
    seconds: float | None = None  # optional wall-clock cap per decision (not reproducible)
    max_actions: int = 20 * 2 * (MAX_ACTIONS_PER_PHASE + 2)  # per fork


def turn_start(state: GameState, seat: str) -> bool:
    """The start of a turn: the move phase, nothing pending, nothing acted yet."""
    return state.phase == "friendly_move" and state.pending is None and not state.acted_this_turn


def may_end(state: GameState, seat: str) -> bool:
    """Does the engine let ``seat`` end the game now (CA "Victory")?"""
    return check(state, EndGame(seat)) is None


def worth_by_turn(
    state: GameState, policy, seat: str, horizon: int, max_actions: int
) -> list[float]:
    """Play ``policy`` on ``state`` (a planning copy) for ``horizon`` turns: the worth of
    ending at each turn start reached; once the game or the policy has ended, the worth it
    ended with, held (CA "Victory": the final score, or the final reveal's mean)."""
    out, turn = [], state.turn
    for _ in range(max_actions):
        if len(out) == horizon:
            break
        if state.over:  # past turn 20: the score the game ended with
            out.append(float(state.result.total))
            continue
        if state.turn != turn and turn_start(state, seat) and may_end(state, seat):
            turn = state.turn
            out.append(end_value(state)[0])
        a = policy.act(state, seat)
        if isinstance(a, EndGame):
            out += [end_value(state)[0]] * (horizon - len(out))
            break
        apply(state, a)
    return out or [end_value(state)[0]]


class LookaheadPolicy(TurnPlanner):
    """The doctrine attacker with a setting chosen, and the ending decided, each turn by
    looking ahead on planning copies; see the module docstring."""

    name = "best"

    def __init__(
        self,
        rng: random.Random | None = None,
        budget: LookaheadBudget | None = None,
        settings: tuple[str, ...] = SETTINGS,
    ):
        self.rng = rng or random.Random(0)
        self.budget = budget or LookaheadBudget()
        self.settings = tuple(settings)
        self.inner = DoctrinePolicy(PRESETS[self.settings[0]], self.settings[0])
        self.plan: str | None = None
        self.history: list[TurnChoice] = []
        self.seeds: list[int] = []

    # --- acting (TurnPlanner.act: choose at the turn's start, then play) ---------------------
    def plan_turn(self, state: GameState, seat: str) -> None:
        self.plan = self.choose(state, seat).chosen
        if self.plan != END:
            self.play_setting(self.plan)

    def play_setting(self, setting: str) -> None:
        """The doctrine attacker plays ``setting`` from now on, its memory kept."""
        self.inner.k, self.inner.name = PRESETS[setting], setting

    def play_plan(self, state: GameState, seat: str):
        if self.plan == END and may_end(state, seat):
            return EndGame(seat)
        return self.inner.act(state, seat)

    # --- looking ahead -----------------------------------------------------------------------
    def fork_worths(self, state: GameState, seat: str, setting: str, seed: int) -> list[float]:
        """One fork, dice from ``seed``: the attacker's memory copied, ``setting`` played."""
        pol = copy.deepcopy(self.inner)
        pol.k, pol.name = PRESETS[setting], setting
        c = planning_copy(state, random.Random(seed))
        return worth_by_turn(c, pol, seat, self.budget.horizon, self.budget.max_actions)

    def choose(self, state: GameState, seat: str) -> TurnChoice:
        """Weigh ending now against going on with each setting; returns what it found."""
        b = self.budget
        seeds = [self.rng.getrandbits(62) for _ in range(b.forks)]
        deadline = None if b.seconds is None else time.monotonic() + b.seconds
        runs: dict[str, list[list[float]]] = {s: [] for s in self.settings}
        for k, seed in enumerate(seeds):  # every setting on one fork's dice, then the next
            if deadline is not None and k > 0 and time.monotonic() > deadline:
                break
            for s in self.settings:
                runs[s].append(self.fork_worths(state, seat, s, seed))
        values, samples = {}, {}
        for s, got in runs.items():
            values[s], samples[s] = best_horizon(got)
        end_mean = end_win = None
        if may_end(state, seat):
            end_mean, end_win = end_value(state)
            values[END] = end_mean
        ending = {s for s in self.settings if self.ends_at_once(state, seat, s)}
        chosen = self.pick(values, ending)
        n = min(len(got) for got in runs.values())
        self.seeds = seeds[:n]  # the forks' dice, for another setting weighed on the same
        choice = TurnChoice(
            state.turn, values, chosen, n, end_mean, end_win, samples, frozenset(ending)
        )
        self.history.append(choice)
        return choice

    def ends_at_once(self, state: GameState, seat: str, setting: str) -> bool:
        """Would the attacker with ``setting`` end the game as its first order here (no
        attack left, too many platoons lost, past turn 18)? Then going on with it is
        ending, and is called so."""
        if not may_end(state, seat):
            return False
        pol = copy.deepcopy(self.inner)
        pol.k, pol.name = PRESETS[setting], setting
        return isinstance(pol.act(state.copy(), seat), EndGame)

    def pick(self, values: dict[str, float], ending: set[str] = frozenset()) -> str:
        """The best setting that goes on, or ending when none is worth more than ending
        now plus the margin (or every setting would end at once)."""
        going = [s for s in self.settings if s not in ending]
        if not going:
            return END
        best = max(going, key=lambda s: values[s])
        if END in values and values[best] <= values[END] + self.budget.margin:
            return END
        return best


def best_horizon(runs: list[list[float]]) -> tuple[float, list[float]]:
    """The best horizon's mean over the forks, and each fork's worth at that horizon."""
    depth = min(len(r) for r in runs)
    means = [statistics.fmean(r[h] for r in runs) for h in range(depth)]
    h = max(range(depth), key=means.__getitem__)
    return means[h], [r[h] for r in runs]


__all__ = ["LookaheadPolicy", "LookaheadBudget", "SETTINGS", "worth_by_turn", "best_horizon"]
