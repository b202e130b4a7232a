"""The attackers, by their old address: everything now lives in :mod:`.bots`.

Like :mod:`.simulate` and :mod:`.defender_game`, this module sits above both the engine
and the bots (tests/test_structure.py: no other module of the engine imports the bots).

``hexclass.classroom.combined_arms.bot`` stays importable (``POLICIES``, ``make_policy``,
``play_game``, the policy classes and the fast odds they used to keep here) so callers
and saved notebooks keep working.

>>> from hexclass.classroom.combined_arms.bot import POLICIES
>>> sorted(POLICIES)
['approach', 'approach_best', 'best', 'bold', 'company', 'doctrine_bold', 'doctrine_close', 'doctrine_run', 'passive', 'random', 'search', 'steady']
"""

from __future__ import annotations

from .bots import *  # noqa: F403
from .bots import __all__ as _bots_all
from .quick import (
    armour_risk,
    atg_chance,
    best_cluster_total,
    cluster_payoff,
    group_pin,
    he_targets,
    infantry_hit_chances,
    pin_chances,
    reveal_chance,
)

__all__ = [
    *_bots_all,
    "armour_risk",
    "atg_chance",
    "best_cluster_total",
    "cluster_payoff",
    "group_pin",
    "he_targets",
    "infantry_hit_chances",
    "pin_chances",
    "reveal_chance",
]
