"""The steady and bold policies: weights, and the class that joins the plans together.

See :mod:`hexclass.classroom.combined_arms.bots` for the plan steady follows.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hexclass.classroom.hexgrid import Hex

from ..engine import check
from ..quick import (
    Sight,
)
from ..state import GameState
from ..victory import DEDUCTION_FROM
from .assessment import (
    APPROACH,
    ASSAULT,
    BOUND,
    CLOSE,
    EXPLOIT,
    HOLD,
    Assessment,
    _Turn,
)
from .base import MAX_ACTIONS_PER_PHASE, _close_phase, decide
from .fire_plan import FirePlan
from .movement_plan import MovementPlan


@dataclass(frozen=True)
class SteadyWeights:
    """Knobs of the steady policy, in score points (8 losses break a platoon: -2)."""

    loss: float = 0.3  # one infantry loss
    armour: float = 4.0  # an armour platoon broken
    open_step: float = 0.35  # extra path cost of an open hex
    near_enemy_step: float = 2.5  # extra path cost of a hex next to an enemy that is not the aim
    stack_penalty: float = 0.3  # per infantry platoon already in a hex the enemy mortars could hit
    caution: dict = field(
        default_factory=lambda: {
            HOLD: 8.0,
            APPROACH: 3.0,
            BOUND: 1.0,
            CLOSE: 1.0,
            ASSAULT: 1.0,
            EXPLOIT: 2.0,
        }
    )  # weight of expected losses against a step of progress, by company mode
    active_companies: int = 1  # companies attacking at once; the rest follow out of fire
    max_wait: int = 2  # turns a gathered company waits for better cover before closing anyway
    close_risk: float = 0.45  # most acceptable chance the objective is real and unpinned
    min_cover: float = 0.02  # smallest worthwhile gain in pin chance x threat to fire
    rifle_cover: float = 0.6  # threat above which a rifle spends ammo on covering fire
    armour_range: int = 3  # armour does not shoot from nearer than this
    end_turn: int = DEDUCTION_FROM + 1  # end before this turn unless playing on pays
    last_entry: int = 12  # no platoon enters after this turn
    mortar_shift: float = 0.5  # stand the mortars down if tied to less than this share of the best
    real_bonus: float = 1.5  # objective preference for a revealed enemy platoon, in steps
    max_crossfire: float = 0.2  # most expected losses from other posts at the assault hex
    crossfire: float = 3.0  # objective cost per expected loss from other posts there
    stop_loss: int = 1  # end once this many more of your platoons than theirs are broken
    mmg_entry: float = 0.3  # least worth (pin chance on objectives less danger) to bring an MMG on
    mmg_danger: float = 1.0  # weight of the losses an MMG would draw against its support
    exploit_pull: float = 0.6  # worth of each step towards the exit for armour sent to exploit
    end_when_idle: bool = True  # end the game once no attack is worth starting
    hold_off_board: bool = True  # companies waiting their turn stay off the board


class SteadyPolicy(Assessment, MovementPlan, FirePlan):
    """A careful attacker; see the module docstring for the plan it follows."""

    name = "steady"

    def __init__(
        self,
        rng: random.Random | None = None,
        weights: SteadyWeights | None = None,
        name: str = "steady",
    ):
        self.name = name
        self.w = weights or SteadyWeights()
        self._turn: _Turn | None = None
        self._turn_now = _Turn(())
        self._objectives: dict[str, Hex | None] = {}
        self._phase_key: tuple | None = None
        self._phase_actions = 0
        self._fire_done: set[str] = set()
        self._committed: tuple[Hex, tuple[str, ...]] | None = None
        self._exploiters: set[str] = set()
        self._exploit_dist: dict[Hex, float] = {}
        self._waits: dict[str, int] = {}
        self._fire_value: dict[tuple[str, Hex], float] = {}  # see _armour_values
        self._sight_key: tuple | None = None
        self._threat_tables: dict[tuple, dict] = {}  # _threat's, one per layout
        self._risk_key: tuple | None = None
        self._risk_version: tuple | None = None
        self._risk_cache: dict[tuple, float] = {}
        self._sight_now: Sight | None = None
        self._sight_signature: tuple | None = None
        self._paths_key: tuple | None = None
        self._exposure_key: tuple | None = None
        self._exposures: tuple[dict, dict] = ({}, {})
        self._paths: tuple[dict, dict] = ({}, {})  # step costs, path fields
        self._checked: object = None  # the action check() last accepted in this act()
        del rng  # the steady policy needs no randomness

    # --- the entry point -------------------------------------------------------------------
    def act(self, state: GameState, seat: str):
        """The next action for ``seat``: always one that :func:`check` accepts."""
        if state.pending is not None:
            return decide(state, seat)  # the commander's small choices
        self._checked = None
        key = (state.uid, state.turn, state.phase)
        if key != self._phase_key:
            self._phase_key, self._phase_actions = key, 0
            self._fire_done = set()
            self._committed = None
        self._phase_actions += 1
        action = None
        if self._phase_actions <= MAX_ACTIONS_PER_PHASE:
            if state.phase == "friendly_move":
                action = self._move_action(state, seat)
            elif state.phase == "friendly_fire":
                action = self._fire_action(state, seat)
        if action is not None and (action is self._checked or check(state, action) is None):
            return action
        return _close_phase(state, seat)

    def _passes(self, state: GameState, action) -> bool:
        """Does :func:`check` accept ``action``? Remembered, so :meth:`act` asks only once."""
        if check(state, action) is not None:
            return False
        self._checked = action
        return True


# The steady policy with its caution switched off: it attacks the cheapest objective
# whatever the crossfire with two companies at once, never cuts its losses and never
# ends early.
BOLD = SteadyWeights(
    max_crossfire=99.0,
    stop_loss=99,
    end_when_idle=False,
    hold_off_board=False,
    active_companies=2,
)
