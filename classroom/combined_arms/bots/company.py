"""A company-level planner (``company``): which companies attack which post, together.

``best`` (:mod:`.search`) weighs whole scripted plans, and inside them every rifle
company picks its own objective greedily (the cheapest post it can reach). This planner
decides at the level above: at the start of each turn it names an *attack* — one enemy
post and the rifle companies that go for it together, the other companies holding back
out of fire — and judges every attack by playing it out with the engine on planning
copies:

* the candidates are ending the game now (exact, :func:`~..outlook.end_distribution`),
  sitting the turn out, steady's own greedy choice, and for each of the ``posts``
  cheapest enemy posts (steady's own objective cost: steps to an assault hex, crossfire
  from other posts there, a revealed platoon preferred) two attacks: the nearest company
  alone and every company still able to fight, massed on it;
* a candidate is played for up to ``horizon`` turns by steady with that objective forced
  (its approach, bound under covering fire, close, joint assault and the engine's own
  enemy phases in between), and the copy is then valued by the exact expected score of
  ending there; once the post is gone (broken, or a dummy revealed) the attack stops and
  the copy is valued at once, so an attack is judged as "break this post, then stop";
* all candidates share each playout's dice seed (common random numbers) and a candidate
  replaces the safe choice only when its paired gain passes ``caution`` standard errors,
  as in ``best``; the safe choice is the attack under way if there is one (an attack
  dropped half-way leaves platoons in the open for nothing), else ending now, else (on
  turn 1) sitting the turn out.

Measured (``benchmarks/ca_best.py --only company``, docs/performance-notes.md, issue 26):
it ties ``passive`` as ``best`` does, so the coach does not use it.

Only :func:`~..outlook.planning_copy` copies are played on: the planner never reads or
moves the game's own dice, and every order it gives comes from steady, which asks the
engine's :func:`~..engine.check` before giving it.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass, field, replace

from hexclass.classroom.hexgrid import Hex

from ..actions import EndGame
from ..engine import apply, check
from ..outlook import end_distribution, planning_copy
from ..state import GameState
from ..units import BOARD, COMPANIES, OFF
from ..victory import WIN
from .assessment import _company, _company_alive
from .base import MAX_ACTIONS_PER_PHASE, TurnPlanner, _close_phase
from .search import END, HoldPolicy
from .steady import SteadyPolicy, SteadyWeights

HOLD = "hold"
GREEDY = "steady"
PLAY_ON = replace(SteadyWeights(), end_when_idle=False, stop_loss=99)


@dataclass(frozen=True)
class CompanyBudget:
    """How hard the planner thinks each turn."""

    rollouts: int = 6  # playouts per candidate (the same dice seeds for all)
    horizon: int = 4  # turns an attack is played before the copy is valued
    posts: int = 2  # enemy posts weighed as objectives each turn
    caution: float = 1.0  # standard errors a candidate must beat the safe choice by
    win_bonus: float = 4.0
    seconds: float | None = None  # optional wall-clock cap per turn (not reproducible)


@dataclass(frozen=True)
class Attack:
    """One post and the companies sent against it together."""

    post: Hex
    companies: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"{''.join(self.companies)}@{self.post[0]},{self.post[1]}"


@dataclass
class CompanyChoice:
    turn: int
    values: dict[str, float]
    chosen: str
    rollouts: int
    samples: dict[str, list[float]] = field(default_factory=dict)


class DirectedSteady(SteadyPolicy):
    """Steady with its objectives given: ``attack``'s companies go for its post, the
    rest hold back (no objective: out of harm's way); ``None`` is steady's own choice."""

    def __init__(self, attack: Attack | None = None, weights: SteadyWeights | None = None):
        w = weights or PLAY_ON
        if attack is not None:
            w = replace(w, active_companies=len(attack.companies))
        super().__init__(None, w, name="company")
        self.attack = attack

    def direct(self, attack: Attack | None) -> None:
        """Send the companies against another post (kept across turns until changed)."""
        self.attack = attack
        self.w = replace(self.w, active_companies=len(attack.companies) if attack else 1)
        self._objectives = {}
        self._turn = None

    def _choose_objectives(self, state: GameState, t) -> None:
        a = self.attack
        if a is not None and _live(state, a.post):
            for c in COMPANIES:
                self._objectives[c] = a.post if c in a.companies else None
        super()._choose_objectives(state, t)

    def _pick_objective(self, state: GameState, c: str, free):
        if self.attack is not None and _live(state, self.attack.post):
            return None  # companies not in the attack wait
        return super()._pick_objective(state, c, free)


def _live(state: GameState, h: Hex) -> bool:
    post = state.enemy.get(h)
    return post is not None and post.platoon is not None


class CompanyPlanner(TurnPlanner):
    """Chooses each turn's attack by playouts; see the module docstring."""

    name = "company"

    def __init__(self, rng: random.Random | None = None, budget: CompanyBudget | None = None):
        self.rng = rng or random.Random(0)
        self.budget = budget or CompanyBudget()
        self._acting = DirectedSteady()
        self._hold = HoldPolicy()
        self._turn_key: tuple | None = None
        self.plan: str = GREEDY
        self._incumbent: str | None = None  # the attack under way, if any
        self._attacks: dict[str, Attack | None] = {}
        self._incumbent_attack: Attack | None = None
        self.history: list[CompanyChoice] = []

    # --- acting (TurnPlanner.act: plan at the turn's start, then play) ----------------------
    def plan_turn(self, state: GameState, seat: str) -> None:
        self.plan = self.choose(state, seat).chosen
        self._acting.direct(self._attacks.get(self.plan))

    def play_plan(self, state: GameState, seat: str):
        if self.plan == END and check(state, EndGame(seat)) is None:
            return EndGame(seat)
        if self.plan == HOLD:
            return self._hold.act(state, seat)
        a = self._acting.act(state, seat)
        return _close_phase(state, seat) if isinstance(a, EndGame) else a

    # --- candidates --------------------------------------------------------------------------
    def candidates(self, state: GameState) -> dict[str, Attack | None]:
        """The attacks weighed this turn: steady's own, then per post alone and massed."""
        out: dict[str, Attack | None] = {GREEDY: None}
        judge = DirectedSteady(None, replace(PLAY_ON, max_crossfire=99.0))  # rank every post
        judge._plan_turn(state)  # fills steady's per-turn tables (crossfire, step costs)
        able = [c for c in COMPANIES if _company_alive(state, c)]
        if not able:
            return out
        costs = []
        for h, post in state.enemy.items():
            if post.platoon is None:
                continue
            by = {c: judge._objective_cost(state, _fighters(state, c), h) for c in able}
            by = {c: v for c, v in by.items() if v is not None}
            if by:
                costs.append((min(by.values()), h, min(by, key=lambda c: (by[c], c))))
        for _, h, nearest in sorted(costs)[: self.budget.posts]:
            for a in (Attack(h, (nearest,)), Attack(h, tuple(able))):
                out.setdefault(a.name, a)
        inc = self._incumbent_attack  # the attack under way is always weighed again
        if inc is not None and _live(state, inc.post) and set(inc.companies) <= set(able):
            out.setdefault(inc.name, inc)
        return out

    # --- searching ---------------------------------------------------------------------------
    def utility(self, score: float) -> float:
        return score + (self.budget.win_bonus if score >= WIN else 0.0)

    def end_utility(self, state: GameState) -> float:
        """Expected utility of ending now, exactly (CA "Victory")."""
        dist = end_distribution(state)
        return sum((s + (self.budget.win_bonus if s >= WIN else 0.0)) * p for s, p in dist.items())

    def _copy(self, state: GameState, seed: int) -> GameState:
        """A planning copy with dice from the planner's own numbers (an oracle overrides)."""
        return planning_copy(state, random.Random(seed))

    def choose(self, state: GameState, seat: str) -> CompanyChoice:
        self._attacks = self.candidates(state)
        values: dict[str, float] = {}
        if check(state, EndGame(seat)) is None:
            values[END] = self.end_utility(state)
        names = [HOLD, *self._attacks]
        samples: dict[str, list[float]] = {n: [] for n in names}
        deadline = None if self.budget.seconds is None else time.monotonic() + self.budget.seconds
        for k in range(self.budget.rollouts):
            if deadline is not None and k > 1 and time.monotonic() > deadline:
                break
            seed = self.rng.getrandbits(62)
            for n in names:
                samples[n].append(self.playout(state, seat, n, seed))
        for n, got in samples.items():
            values[n] = statistics.fmean(got)
        chosen = self._cautious_pick(values, samples)
        self._incumbent = chosen if chosen not in (END, HOLD) else None
        self._incumbent_attack = self._attacks.get(chosen)
        n = len(samples[HOLD])
        choice = CompanyChoice(state.turn, values, chosen, n, samples)
        self.history.append(choice)
        return choice

    def _cautious_pick(self, values, samples) -> str:
        """The safe choice unless another beats it by ``caution`` standard errors.

        The safe choice is the attack under way if it is weighed again (an attack dropped
        half-way leaves platoons out in the open for nothing), else ending now (exact),
        else sitting the turn out. Gains are paired playout by playout (same dice seeds).
        """
        if self._incumbent in samples and samples[self._incumbent]:
            safe = self._incumbent
        else:
            safe = END if END in values else HOLD
        base = samples.get(safe)
        best, best_margin = safe, 0.0
        for n in values:
            if n == safe:
                continue
            got = samples.get(n) or [values[n]] * len(base or [])
            if base is None:
                diffs = [g - values[END] for g in got]
            else:
                diffs = [g - h for g, h in zip(got, base)]
            if len(diffs) < 2:
                continue
            m = statistics.fmean(diffs)
            margin = m - self.budget.caution * statistics.stdev(diffs) / len(diffs) ** 0.5
            if margin > best_margin:
                best, best_margin = n, margin
        return best

    def playout(self, state: GameState, seat: str, name: str, seed: int) -> float:
        """Utility of playing candidate ``name`` for up to ``horizon`` turns, then ending."""
        c = self._copy(state, seed)
        attack = self._attacks.get(name)
        mover = self._hold if name == HOLD else DirectedSteady(attack)
        start = c.turn
        for _ in range(self.budget.horizon * 2 * (MAX_ACTIONS_PER_PHASE + 2)):
            if c.over:
                return self.utility(c.result.total)
            at_turn_start = c.phase == "friendly_move" and not c.acted_this_turn
            if at_turn_start and c.turn > start and c.pending is None:
                if c.turn - start >= self.budget.horizon or name == HOLD:
                    break
                if attack is not None and not _live(c, attack.post):
                    break  # the post is gone: stop the attack here
            a = mover.act(c, seat)
            if isinstance(a, EndGame):
                break
            apply(c, a)
        if c.over:
            return self.utility(c.result.total)
        return self.end_utility(c)


def _fighters(state: GameState, c: str):
    """The company's rifle platoons still to come on or on the board."""
    return [u for u in _company(state, c) if u.where in (BOARD, OFF)]


__all__ = ["CompanyPlanner", "CompanyBudget", "Attack", "DirectedSteady"]
