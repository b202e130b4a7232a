"""What every attacker shares: the policy protocol, closing a phase, playing a game.

Also the two baselines: ``random`` (uniform over the legal actions, never ending the
game early) and ``passive`` (ends the battle after turn 1: the score the enemy's dice
give for free, the yardstick a policy must beat).
"""

from __future__ import annotations

import random
from typing import Protocol

from ..actions import (
    ChooseBroken,
    ChooseRollOrder,
    EndGame,
    EndPhase,
    ResolveFire,
)
from ..engine import apply, check, default_broken, legal_actions
from ..game import new_game
from ..state import GameState, Options

MAX_ACTIONS_PER_PHASE = 64  # a policy that has not ended a phase by then is made to
ENEMY_EDGE_ROW = 8


class Policy(Protocol):
    """Anything that can choose the next action for a seat."""

    name: str

    def act(self, state: GameState, seat: str):
        """The action ``seat`` takes now; it must pass :func:`~.engine.check`."""
        ...


def state_seat(state: GameState) -> str:
    """The seat holding the overall command (the one that may end the game)."""
    return next((n for n, s in state.seats.items() if "command" in s.powers), "player")


def _close_phase(state: GameState, seat: str):
    """The action that ends whatever is open: resolve committed fire, else end the phase."""
    if state.pending is not None:
        p = state.pending
        if p.kind == "break":
            return ChooseBroken(seat, p.options[0])
        return ChooseRollOrder(seat, p.options[0])
    if state.declaration is not None:
        return ResolveFire(seat)
    return EndPhase(seat)


def decide(state: GameState, seat: str):
    """The commander's small choices: break an MMG before a rifle; roll as offered."""
    p = state.pending
    if p.kind == "break":
        return ChooseBroken(seat, default_broken([state.units[u] for u in p.options]).id)
    return ChooseRollOrder(seat, p.options[0])


class TurnPlanner:
    """The start of ``act`` that the planners (``best``, ``company``) share.

    The commander's small choices are answered at once (:func:`decide`); otherwise the
    planner makes its plan once per turn, at the turn's start (the move phase, before any
    platoon has acted), for the state in hand (its :attr:`~..state.GameState.uid`: a plan
    made for a planning copy is not taken for the game's), then plays it.
    """

    _turn_key: tuple | None = None

    def act(self, state: GameState, seat: str):
        if state.pending is not None:
            return decide(state, seat)
        key = (state.uid, state.turn)
        if state.phase == "friendly_move" and key != self._turn_key and not state.acted_this_turn:
            self._turn_key = key
            self.plan_turn(state, seat)
        return self.play_plan(state, seat)

    def plan_turn(self, state: GameState, seat: str) -> None:
        """Weigh this turn's choices and remember the one to play."""
        raise NotImplementedError

    def play_plan(self, state: GameState, seat: str):
        """The next action of the plan in hand."""
        raise NotImplementedError


# --- baselines -------------------------------------------------------------------------------


class RandomPolicy:
    """Uniform over the legal actions except ending the game; draws from the given rng."""

    name = "random"

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng or random.Random(0)
        self._key: tuple | None = None
        self._count = 0

    def act(self, state: GameState, seat: str):
        key = (state.uid, state.turn, state.phase)
        if key != self._key:
            self._key, self._count = key, 0
        self._count += 1
        if self._count > MAX_ACTIONS_PER_PHASE:
            return _close_phase(state, seat)
        options = [a for a in legal_actions(state, seat) if not isinstance(a, EndGame)]
        if not options:
            return _close_phase(state, seat)
        return options[self.rng.randrange(len(options))]


class PassivePolicy:
    """Never moves: ends the first turn, then ends the game (the free score)."""

    name = "passive"

    def __init__(self, rng: random.Random | None = None):
        del rng

    def act(self, state: GameState, seat: str):
        if state.pending is not None or state.declaration is not None:
            return _close_phase(state, seat)
        if check(state, EndGame(seat)) is None:
            return EndGame(seat)
        return EndPhase(seat)


# The steady policy with its caution switched off: it attacks the cheapest objective
# whatever the crossfire with two companies at once, never cuts its losses and never
# ends early.


def play_game(
    seed: int,
    policy: Policy,
    options: Options | None = None,
    seat: str = "player",
    max_actions: int = 20 * 2 * (MAX_ACTIONS_PER_PHASE + 2),
) -> GameState:
    """Play one whole solitaire game with ``policy``; returns the finished state.

    ``apply`` raises :class:`~.reasons.IllegalAction` if the policy breaks a rule, so a
    faulty policy fails loudly. Games always end: after turn 20 the engine scores them.
    """
    state = new_game(seed, options or Options(auto_decisions=True))
    return play_out(state, policy, seat, max_actions)


def play_out(
    state: GameState,
    policy: Policy,
    seat: str = "player",
    max_actions: int = 20 * 2 * (MAX_ACTIONS_PER_PHASE + 2),
) -> GameState:
    """Play ``state`` on to the end with ``policy`` (see :func:`play_game`); returns it."""
    for _ in range(max_actions):
        if state.over:
            return state
        apply(state, policy.act(state, seat))
    while not state.over:  # a policy that dawdles past the cap: close every phase
        apply(state, _close_phase(state, seat))
    return state
