"""The attackers for Combined Arms: ``best`` (a doctrine attacker that looks ahead), ``steady``, baselines.

A policy looks at a :class:`~.state.GameState` and returns one action for a seat; it
never changes the state. :func:`play_game` runs a whole solitaire game with one, and
``POLICIES`` names them for ``hexclass simulate``.

``steady`` fights by fire and movement, one objective per rifle company and one company
attacking at a time:

* it picks objectives it can reach cheaply whose assault hexes few other enemy posts can
  fire on (an attack into crossfire costs more platoons than a break is worth);
* a company *approaches* through cover to 3 hexes, *bounds* to 2 hexes while mortars,
  MMGs and armour pin the objective at full odds (one platoon stays back to spot for
  the mortars if no MMG can), *closes* next to it once the covering fire that will be
  left (no mortars, the chart's -1) is likely to pin it, then *assaults* with every fresh
  platoon next to it: only then can a modified 4+ break it (CA "Fire Attacks");
* covering fire goes where it most cuts the enemy's expected fire; rifle platoons spend
  ammo on it only against big threats; armour turns to face its target first;
* MMGs come on where they can cover an objective and withdraw when they only draw fire;
  armour shoots from 3-5 hexes where revealed or likely ATGs cannot reach it;
* mortars fire high explosive on the most dangerous hex they may reach, and stand down
  a turn rather than stay tied to a poor target (CA "Mortars");
* it exploits off the enemy edge as many platoons as broken enemies let count (armour
  first), and ends the game when nothing is worth attacking, when it has lost more
  platoons than the enemy, or after turn 18 unless a break or exploit is in hand
  (CA "Victory").

``best`` (:mod:`.lookahead`) is the doctrine attacker (:mod:`.doctrine`: one post at a
time, the company closing together onto sides no single burst reaches, covering fire on
whatever threatens the attack most). At the start of each turn it plays each of its
settings on for a few turns on planning copies, dice re-seeded from its own random
numbers, and weighs them against ending the game now (the exact odds of the final
reveal, :mod:`~hexclass.classroom.combined_arms.outlook`): it plays the best setting, or
ends. ``search`` (:mod:`.search`) is the older planner built the same way on steady's
scripted plans, each played for one turn and then on with steady.

``company`` (:mod:`.company`) plans one level up: each turn it names one enemy post and
the rifle companies that attack it together (the others hold back), and judges each such
attack, ending now and sitting the turn out by playing them out on planning copies.

The package is split by concern: :mod:`.assessment` (what hexes cost, what threatens),
:mod:`.movement_plan`, :mod:`.fire_plan`, :mod:`.steady` (weights, the policy class),
:mod:`.search` and :mod:`.base` (protocol, baselines, :func:`play_game`). The numbers
they weigh come from the engine (:mod:`~hexclass.classroom.combined_arms.quick`).

``approach`` (:mod:`.approach`) is steady whose rifle platoons end no move within the
enemy's reach (fire or spotted mortars) unless they close that turn; ``approach_best``
is ``best`` with it as one more plan.

``bold`` is the same policy with the caution off: it attacks whatever is nearest, two
companies at once, and plays on regardless. ``random`` picks uniformly among the legal actions (never ending the
game early) from a ``random.Random`` the caller seeds. ``passive`` ends the battle after
turn 1: the score the enemy's dice give for free, the yardstick a policy must beat.

Every policy is deterministic for a given game and seed, submits only actions that
:func:`~.engine.check` accepts, and ends each phase within a fixed number of actions.

>>> g = play_game(4, SteadyPolicy())
>>> g.over and g.result is not None
True
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..state import LAST_TURN
from ..units import ARMOUR_IDS, MMG_IDS
from .approach import ApproachBest, ApproachPolicy
from .base import (
    MAX_ACTIONS_PER_PHASE,
    PassivePolicy,
    Policy,
    RandomPolicy,
    play_game,
    state_seat,
)
from .company import CompanyBudget, CompanyPlanner
from .doctrine import PRESETS as DOCTRINE_SETTINGS
from .doctrine import DoctrinePolicy
from .lookahead import LookaheadBudget, LookaheadPolicy
from .search import BestPolicy, SearchBudget
from .steady import BOLD, Sight, SteadyPolicy, SteadyWeights

POLICIES: dict[str, Callable[[random.Random], Policy]] = {
    "best": LookaheadPolicy,
    "search": BestPolicy,
    "company": CompanyPlanner,
    "approach": ApproachPolicy,
    "approach_best": ApproachBest,
    "steady": SteadyPolicy,
    "bold": lambda rng: SteadyPolicy(rng, BOLD, name="bold"),
    "random": RandomPolicy,
    "passive": PassivePolicy,
    **{
        name: (lambda rng, name=name: DoctrinePolicy(DOCTRINE_SETTINGS[name], name))
        for name in ("doctrine_bold", "doctrine_close", "doctrine_run")
    },
}


def make_policy(name: str, seed: int) -> Policy:
    """A fresh policy by registry name, with its own ``random.Random(seed)``."""
    try:
        factory = POLICIES[name]
    except KeyError:
        raise ValueError(
            f"unknown policy {name!r}; expected one of {', '.join(POLICIES)}"
        ) from None
    return factory(random.Random(seed))


__all__ = [
    "Policy",
    "LookaheadPolicy",
    "LookaheadBudget",
    "DoctrinePolicy",
    "BestPolicy",
    "SearchBudget",
    "CompanyPlanner",
    "CompanyBudget",
    "ApproachPolicy",
    "ApproachBest",
    "SteadyPolicy",
    "SteadyWeights",
    "BOLD",
    "Sight",
    "RandomPolicy",
    "PassivePolicy",
    "POLICIES",
    "MAX_ACTIONS_PER_PHASE",
    "make_policy",
    "play_game",
    "state_seat",
    "LAST_TURN",
    "ARMOUR_IDS",
    "MMG_IDS",
]
