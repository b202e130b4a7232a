"""The search attacker ``search`` (``best`` until issue 26): each turn played out on copies.

The solitaire game is one player against chance: the defender is rules plus dice. So
at the start of each turn ``search`` asks the engine itself what each choice is worth:

* **end the game now** (CA "Victory"): the exact distribution of the final score, the
  unrevealed counters tested in the engine's order with the engine's modifiers
  (:func:`~hexclass.classroom.combined_arms.outlook.end_distribution`), no dice at all;
* **play this turn with plan P** for each of a few scripted plans (:data:`PLANS`), then
  on with the rollout policy (steady, which stops when nothing is worth attacking):
  ``rollouts`` playouts on planning copies, each with dice seeded from the bot's own
  random numbers (:func:`~hexclass.classroom.combined_arms.outlook.planning_copy`); the same
  seeds for every plan (common random numbers), and a playout that ends the game is
  scored exactly rather than by rolling the final reveal.

It then plays the turn with the plan of highest expected utility (score, plus a bonus
for a win), cautiously: a few playouts are noisy, so a plan replaces the safe choice
(ending now, exact; on turn 1 holding) only when it beats it by more than one standard
error of the playouts. It never reads the game's own dice: the choice is the same whatever the
game's dice hold, and planning leaves them untouched (tests in ``test_search.py``).
The budget counts playouts, not seconds, so a game with ``search`` is reproducible;
``seconds`` caps the thinking per turn for interactive use (the coach).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field, replace

from ..actions import EndGame
from ..engine import apply, check
from ..outlook import end_distribution, planning_copy
from ..state import GameState
from ..victory import WIN
from .base import MAX_ACTIONS_PER_PHASE, TurnPlanner, _close_phase, decide
from .steady import BOLD, SteadyPolicy, SteadyWeights

END = "end"

HOLD = None  # a plan that sits the turn out: nothing moves, nothing fires

# The plans a turn may be played with. The search decides when to stop, so the acting
# plans never end the game themselves.
PLANS: dict[str, SteadyWeights | None] = {
    "steady": replace(SteadyWeights(), end_when_idle=False, stop_loss=99),
    "bold": BOLD,
    "hold": HOLD,
}


class HoldPolicy:
    """Sits a turn out: ends each phase (answering the engine's questions as offered)."""

    name = "hold"

    def act(self, state: GameState, seat: str):
        if state.pending is not None:
            return decide(state, seat)
        return _close_phase(state, seat)


def plan_policy(weights: SteadyWeights | None, name: str = "plan"):
    """The policy that plays a plan: the steady policy with those weights, or holding."""
    if weights is HOLD:
        return HoldPolicy()
    return SteadyPolicy(None, weights, name=name)


@dataclass(frozen=True)
class SearchBudget:
    """How hard ``search`` thinks: playouts per plan and turn, and what a win is worth."""

    rollouts: int = 6
    win_bonus: float = 4.0  # utility of a win on top of its score
    caution: float = 1.0  # standard errors a plan must beat the safe choice by
    seconds: float | None = None  # optional wall-clock cap per decision (not reproducible)
    max_actions: int = 20 * 2 * (MAX_ACTIONS_PER_PHASE + 2)  # per playout


@dataclass
class TurnChoice:
    """What the search found at the start of one turn (kept for the coach and debrief)."""

    turn: int
    values: dict[str, float]
    chosen: str
    rollouts: int
    end_mean: float | None = None
    end_win: float | None = None
    samples: dict[str, list[float]] = field(default_factory=dict)
    ending: frozenset[str] = frozenset()  # plans that would end the game as their first order


class BestPolicy(TurnPlanner):
    """Plans each turn with playouts on planning copies; see the module docstring."""

    name = "search"

    def __init__(
        self,
        rng: random.Random | None = None,
        budget: SearchBudget | None = None,
        plans: dict[str, SteadyWeights | None] | None = None,
    ):
        self.rng = rng or random.Random(0)
        self.budget = budget or SearchBudget()
        self.plans = dict(plans or PLANS)
        self._acting = {k: plan_policy(w, k) for k, w in self.plans.items()}
        self._turn_key: tuple | None = None
        self.plan: str | None = None
        self.history: list[TurnChoice] = []

    # --- acting (TurnPlanner.act: plan at the turn's start, then play) ----------------------
    def plan_turn(self, state: GameState, seat: str) -> None:
        self.plan = self.choose(state, seat).chosen

    def play_plan(self, state: GameState, seat: str):
        """The next action: the chosen plan's, or ending the game (CA "Victory")."""
        if self.plan is None:
            self.plan = "steady"
        if self.plan == END:
            if check(state, EndGame(seat)) is None:
                return EndGame(seat)
            self.plan = "steady"
        action = self._acting[self.plan].act(state, seat)
        if isinstance(action, EndGame):  # only the search ends the game
            return _close_phase(state, seat)
        return action

    # --- searching ---------------------------------------------------------------------------
    def utility(self, score: float) -> float:
        return score + (self.budget.win_bonus if score >= WIN else 0.0)

    def end_utility(self, state: GameState) -> tuple[float, float, float]:
        """(utility, mean score, win chance) of ending the game now, exactly."""
        dist = end_distribution(state)
        mean = sum(s * p for s, p in dist.items())
        win = sum(p for s, p in dist.items() if s >= WIN)
        return mean + self.budget.win_bonus * win, mean, win

    def choose(self, state: GameState, seat: str) -> TurnChoice:
        """Weigh ending now against each plan for this turn; returns what it found."""
        values: dict[str, float] = {}
        end_mean = end_win = None
        if check(state, EndGame(seat)) is None:
            values[END], end_mean, end_win = self.end_utility(state)
        seeds = [self.rng.getrandbits(62) for _ in range(self.budget.rollouts)]
        deadline = None if self.budget.seconds is None else time.monotonic() + self.budget.seconds
        samples: dict[str, list[float]] = {name: [] for name in self.plans}
        for k, s in enumerate(seeds):  # every plan on one seed, then the next seed
            row: dict[str, float] | None = {}
            for name, weights in self.plans.items():
                if deadline is not None and k > 0 and time.monotonic() > deadline:
                    row = None  # out of time: drop this seed's partial row, keep plans even
                    break
                row[name] = self.playout(state, seat, weights, s)
            if row is None:
                break
            for name, v in row.items():
                samples[name].append(v)
        for name, got in samples.items():
            if got:
                values[name] = sum(got) / len(got)
        chosen = self._cautious_pick(values, samples)
        n = min((len(v) for v in samples.values()), default=0)
        choice = TurnChoice(state.turn, values, chosen, n, end_mean, end_win, samples)
        self.history.append(choice)
        return choice

    def _cautious_pick(self, values: dict[str, float], samples: dict[str, list[float]]) -> str:
        """The safe choice (ending now, else holding) unless a plan beats it for sure.

        A plan's mean over a few playouts is noisy, and the largest of several noisy
        means is biased upwards; ending now is exact. So a plan is preferred only when
        its gain over the safe choice, less ``caution`` standard errors, stays positive
        (against holding, the gain is paired playout by playout: same dice seeds).
        """
        if END in values:
            safe, safe_samples = END, None
        elif "hold" in samples and samples["hold"]:
            safe, safe_samples = "hold", samples["hold"]
        else:
            return max(values, key=lambda k: values[k])
        best, best_margin = safe, 0.0
        for name, got in samples.items():
            if name == safe or len(got) < 2:
                continue
            if safe_samples is None:
                diffs = [g - values[END] for g in got]
            else:
                diffs = [g - h for g, h in zip(got, safe_samples)]
            mean = sum(diffs) / len(diffs)
            var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
            margin = mean - self.budget.caution * (var / len(diffs)) ** 0.5
            if margin > best_margin:
                best, best_margin = name, margin
        return best

    def _copy(self, state: GameState, seed: int) -> GameState:
        """A planning copy whose dice come from ``seed`` (a study's oracle overrides it)."""
        return planning_copy(state, random.Random(seed))

    def playout(
        self, state: GameState, seat: str, weights: SteadyWeights | None, seed: int
    ) -> float:
        """Utility of playing this turn with ``weights``, then on with steady, on a copy."""
        c = self._copy(state, seed)
        first = plan_policy(weights)
        rest = SteadyPolicy(None)
        turn = c.turn
        for _ in range(self.budget.max_actions):
            if c.over:
                break
            a = (first if c.turn == turn else rest).act(c, seat)
            if isinstance(a, EndGame):  # score the ending exactly, not by rolling it
                return self.end_utility(c)[0]
            apply(c, a)
        while not c.over:
            apply(c, _close_phase(c, seat))
        return self.utility(c.result.total)


__all__ = ["BestPolicy", "SearchBudget", "TurnChoice", "PLANS", "END", "HOLD", "plan_policy"]
