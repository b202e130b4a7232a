"""The Campaign for North Africa, land game: the models behind the CNA lessons.

* :mod:`~hexclass.classroom.cna.sequence` -- the Game-Turn outline as data and a cursor (CNA 5.2, 8.2)
* :mod:`~hexclass.classroom.cna.initiative` -- rolling and declaring the Initiative (CNA 7.1x)
* :mod:`~hexclass.classroom.cna.capability` -- units, CPAs and the 150% cap (CNA 6.1x, 8.17)
* :mod:`~hexclass.classroom.cna.cohesion` -- DPs, RPs, collapse, combined cohesion (CNA 6.2x)
* :mod:`~hexclass.classroom.cna.logsheet` -- log-sheet lines whose changes explain themselves
* :mod:`~hexclass.classroom.cna.movement` -- breaking off, the two-hex rule, rail (CNA 8.2x, 8.6x, 8.7x)
* :mod:`~hexclass.classroom.cna.reaction` -- who may React, and pinning (CNA 8.5x)
* :mod:`~hexclass.classroom.cna.scenario` -- a small map and a few units for the stepper lesson

Rule sections are cited as ``"CNA 6.21"``; interpretations are in docs/notes-cna.md.
"""

from hexclass.classroom.cna.capability import (
    MEDIUM_TRUCK_CPA,
    Function,
    Size,
    Unit,
    UnitKind,
    formation_cpa,
    motorized_cpa,
    voluntary_cp_limit,
)
from hexclass.classroom.cna.cohesion import (
    CohesionGroup,
    apply_disorganization,
    apply_reorganization,
    combine_cohesion,
    is_collapsed,
    rest_recovery,
)
from hexclass.classroom.cna.errors import CNAInputError, RuleViolation
from hexclass.classroom.cna.initiative import (
    InitiativeDeclarations,
    Role,
    Side,
    determine_initiative,
    initiative_from_rolls,
)
from hexclass.classroom.cna.logsheet import LogEntry, LogSheet, UnitLog
from hexclass.classroom.cna.movement import Engagement, Occasion, break_off_cost, may_move_again
from hexclass.classroom.cna.reaction import reaction_eligibility
from hexclass.classroom.cna.scenario import DESERT_SKIRMISH, OperationsStagePlay
from hexclass.classroom.cna.sequence import GAME_TURN, SequenceCursor, walk_game_turn
from hexclass.classroom.cna.verdict import Reason, Verdict

__all__ = [
    "DESERT_SKIRMISH",
    "GAME_TURN",
    "MEDIUM_TRUCK_CPA",
    "CNAInputError",
    "CohesionGroup",
    "Engagement",
    "Function",
    "InitiativeDeclarations",
    "LogEntry",
    "LogSheet",
    "Occasion",
    "OperationsStagePlay",
    "Reason",
    "Role",
    "RuleViolation",
    "SequenceCursor",
    "Side",
    "Size",
    "Unit",
    "UnitKind",
    "UnitLog",
    "Verdict",
    "apply_disorganization",
    "apply_reorganization",
    "break_off_cost",
    "combine_cohesion",
    "determine_initiative",
    "formation_cpa",
    "initiative_from_rolls",
    "is_collapsed",
    "may_move_again",
    "motorized_cpa",
    "reaction_eligibility",
    "rest_recovery",
    "voluntary_cp_limit",
    "walk_game_turn",
]
