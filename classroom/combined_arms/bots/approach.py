"""An executor that approaches without standing under fire (``approach``, issue 26).

Where the points go (docs/performance-notes.md, issue 26): steady loses most of its
platoons *before* it closes, standing or moving within reach of enemy posts at 2+ hexes
(1.19 losses a game from their fire, 1.23 from the enemy mortars those posts spot for).
This policy is steady with one more rule on every rifle platoon's move:

* a platoon does not end its move where the coming enemy phase can reach it, unless the
  move closes on its company's objective that turn (next to it, in the close or assault
  mode). *Reach* is read from the engine: the faces each post would hit the hex on
  (:func:`~..enemy.hit_chances`, the engine's own range and line of fire), weighed by the
  chance the post is real and provoked (as steady weighs it), and the enemy mortars:
  a hex not next to an enemy post that a fresh enemy counter can spot
  (:func:`~..lines.spotting_clear`), times the chance the mortars are available
  (:func:`~..mortars.enemy_mortar_need`, none the turn after they fired) and hit
  (:data:`~..mortars.MORTAR_HIT`);
* the covering fire expected this turn (steady's cover estimates: MMGs, armour, the
  mortars on their best target) discounts each post, so a bound to 2 hexes is allowed
  where the posts that see it will probably be pinned: suppression before moving up;
* a hex within reach costs ``penalty`` score points per expected loss above ``limit``,
  on top of steady's own score, so a platoon already under fire steps back out of it
  when it can, and one with no safe hex takes the least exposed;
* closing waits for covering fire (``close_risk`` lower and ``max_wait`` longer than
  steady's): the mortars and MMGs may not fire next to your own platoons, so what is
  left after closing must be likely to pin the objective.

Everything else (objectives, covering fire, assaults, armour, ending) is steady's. Only
the engine's functions answer what can hit or spot a hex; nothing here re-derives a rule.
With ``staging`` on, a company attacks only a post that has a hex 2 away out of every
other post's reach, where it can wait for the covering fire before it closes.

Measured (``benchmarks/ca_best.py``, docs/performance-notes.md, issue 26): it halves the
platoons steady loses and cuts its losses to fire at 2+ hexes by 70 %, but breaks no more
enemy platoons; over 1,000 seeds it stays below ``passive`` (with staging it ties it),
and ``approach_best`` ties ``best``. So the coach does not use it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.hexgrid import Hex

from .. import lines, mortars
from ..board import DIST
from ..state import GameState
from ..units import Platoon
from .assessment import ASSAULT, CLOSE, EXPLOIT, _Turn
from .search import HOLD as HOLD_PLAN
from .search import BestPolicy, HoldPolicy, SearchBudget
from .steady import BOLD, SteadyPolicy, SteadyWeights


@dataclass(frozen=True)
class ApproachRule:
    """How strictly platoons keep out of the enemy's reach."""

    limit: float = 0.05  # expected losses a platoon may stand in without penalty
    penalty: float = 100.0  # score points per expected loss above the limit
    mortar: float = 1.0  # weight of the enemy mortars' expected losses
    staging: bool = False  # attack only posts with a staging hex 2 away out of other reach


APPROACH_WEIGHTS = replace(SteadyWeights(), close_risk=0.3, max_wait=4)
PLAY_ON = replace(APPROACH_WEIGHTS, end_when_idle=False, stop_loss=99)


class ApproachPolicy(SteadyPolicy):
    """Steady whose rifles end no move within the enemy's reach unless they close."""

    def __init__(
        self,
        rng: random.Random | None = None,
        weights: SteadyWeights | None = None,
        name: str = "approach",
        rule: ApproachRule | None = None,
    ):
        super().__init__(None, weights or APPROACH_WEIGHTS, name=name)
        self.rule = rule or ApproachRule()
        self._stand_turn: _Turn | None = None
        self._stand: dict[Hex, float] = {}
        del rng  # deterministic, as steady

    def _rifle_score(self, state, t: _Turn, u: Platoon, h, field_, mode: str, aim) -> float:
        score = super()._rifle_score(state, t, u, h, field_, mode, aim)
        if h is None or mode == EXPLOIT or closes(mode, aim, h):
            return score
        risk = self.stand_risk(state, t, h)
        if risk > self.rule.limit:
            score += self.rule.penalty * (risk - self.rule.limit)
        return score

    def _objective_cost(self, state: GameState, units: list[Platoon], h: Hex) -> float | None:
        """Steady's cost; with ``staging``, None for a post with no hex 2 away from it
        where a platoon would stand out of every other post's reach (its own fire is
        left to the covering fire, and it is not counted as a mortar spotter)."""
        cost = super()._objective_cost(state, units, h)
        if cost is None or not self.rule.staging:
            return cost
        t = self._turn_now
        board = state.board
        for a in hg.ring(h, 2):
            if a not in board.hex_set or a in state.enemy or a in board.closed_side_edge:
                continue
            fire = sum(v for ph, v in self._exposure(state, t, a) if ph != h)
            if fire + self.rule.mortar * mortar_risk(state, a, {h: 1.0}) <= self.rule.limit:
                return cost
        return None

    def stand_risk(self, state: GameState, t: _Turn, h: Hex) -> float:
        """Expected losses of one platoon ending its move in ``h`` this turn."""
        if self._stand_turn is not t:
            self._stand_turn, self._stand = t, {}
        got = self._stand.get(h)
        if got is None:
            got = self._stand[h] = self._danger(state, t, h) + self.rule.mortar * mortar_risk(
                state, h, t.cover or {}
            )
        return got


def closes(mode: str, aim: Hex | None, h: Hex) -> bool:
    """Does ending in ``h`` close on the objective this turn (next to it, to assault)?"""
    return mode in (CLOSE, ASSAULT) and aim is not None and DIST[h][aim] == 1


def mortar_risk(state: GameState, h: Hex, cover: dict[Hex, float]) -> float:
    """Expected losses from the enemy mortars for one platoon in ``h`` next enemy phase.

    CA "Enemy Decisions" and "Mortars", as the engine has them: the mortars rest the turn
    after they fired and are otherwise available on :func:`~..mortars.enemy_mortar_need`;
    they aim only at infantry hexes not next to an enemy post, spotted by a fresh enemy
    counter not next to your platoons (:func:`~..lines.spotting_clear`); each hit costs a
    loss. A spotter is discounted by the chance ``cover`` gives of pinning it first.
    The target is taken to be ``h`` (the enemy aims at the biggest group it sees), so
    this is an upper bound for a hex among several spotted ones.
    """
    last = state.enemy_mortar
    if last is not None and last.turn == state.turn - 1:
        return 0.0
    board = state.board
    near = board.neighbours_on_board.get(h, ())
    if any(n in state.enemy for n in near):
        return 0.0
    unseen = 1.0  # chance no spotter stays fresh to see h
    for e, post in state.enemy.items():
        if post.platoon is None or not post.fresh:
            continue
        if any(n in state.at for n in board.neighbours_on_board[e]) or DIST[e][h] <= 1:
            continue
        if lines.spotting_clear(state, e, h):
            unseen *= cover.get(e, 0.0)
            if unseen == 0.0:
                break
    if unseen >= 1.0:
        return 0.0
    available = (7 - mortars.enemy_mortar_need(state)) / 6
    hit = (7 - mortars.MORTAR_HIT) / 6
    return available * (1 - unseen) * hit


# --- the search with this executor ------------------------------------------------------

APPROACH_PLANS: dict[str, SteadyWeights | None] = {
    "approach": PLAY_ON,
    "steady": replace(SteadyWeights(), end_when_idle=False, stop_loss=99),
    "bold": BOLD,
    "hold": HOLD_PLAN,
}


class ApproachBest(BestPolicy):
    """``best`` with the approach executor as one more plan, and as the rollout policy
    after an approach turn (a steady or bold turn rolls on with steady, as in ``best``)."""

    name = "approach_best"

    def __init__(self, rng: random.Random | None = None, budget: SearchBudget | None = None):
        super().__init__(rng, budget, APPROACH_PLANS)
        self._acting["approach"] = ApproachPolicy(None, PLAY_ON, name="approach")

    def playout(self, state: GameState, seat: str, weights, seed: int) -> float:
        if weights is not PLAY_ON:
            return super().playout(state, seat, weights, seed)
        from ..actions import EndGame
        from ..engine import apply
        from .base import _close_phase

        c = self._copy(state, seed)
        first = ApproachPolicy(None, PLAY_ON)
        rest = ApproachPolicy(None)
        turn = c.turn
        for _ in range(self.budget.max_actions):
            if c.over:
                break
            a = (first if c.turn == turn else rest).act(c, seat)
            if isinstance(a, EndGame):
                return self.end_utility(c)[0]
            apply(c, a)
        while not c.over:
            apply(c, _close_phase(c, seat))
        return self.utility(c.result.total)


__all__ = [
    "ApproachPolicy",
    "ApproachRule",
    "ApproachBest",
    "APPROACH_WEIGHTS",
    "mortar_risk",
    "closes",
    "HoldPolicy",
]
