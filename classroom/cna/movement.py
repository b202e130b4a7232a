"""Breaking off, continual movement and rail movement (CNA 8.15, 8.2x, 8.6x, 8.7x).

>>> break_off_cost(Engagement.CONTACT, Occasion.MOVEMENT_SEGMENT)
2
>>> break_off_cost(Engagement.ENGAGED, Occasion.REACTION)
0
>>> may_move_again((0, 0), [(2, 0)], moved_this_phase=True).allowed
True
>>> may_move_again((0, 0), [(3, 0)], moved_this_phase=True).allowed
False
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from fractions import Fraction

from hexclass.classroom import hexgrid
from hexclass.classroom.cna.errors import CNAInputError, require_cp_amount, require_int
from hexclass.classroom.cna.initiative import Side
from hexclass.classroom.cna.verdict import Reason, Verdict, verdict

CONTACT_BREAK_OFF_CPS = 2  # CNA 8.65
ENGAGED_BREAK_OFF_CPS = 4  # CNA 8.66
CONTINUAL_MOVEMENT_RANGE = 2  # CNA 8.23


class Engagement(Enum):
    NONE = "free"
    CONTACT = "in Contact"  # in an enemy ZOC when the Movement Segment began (CNA 8.62)
    ENGAGED = "Engaged"  # a Close Assault result (CNA 8.63)


class Occasion(Enum):
    """When a unit wants to move off: this decides whether breaking off costs CPs."""

    MOVEMENT_SEGMENT = "its own Movement Segment"
    RETREAT_BEFORE_ASSAULT = "a Retreat Before Assault"
    REACTION = "a Reaction"


def _require(value: object, kind: type, what: str) -> None:
    if not isinstance(value, kind):
        names = ", ".join(f"{kind.__name__}.{m.name}" for m in kind)  # type: ignore[attr-defined]
        raise CNAInputError(f"expected {what} ({names}), got {value!r}")


def engagement_at_segment_start(in_enemy_zoc: bool, engaged_marker: bool) -> Engagement:
    """Engaged counts whatever the ZOC (CNA 8.24, 8.63); else an enemy ZOC means Contact (8.62)."""
    if engaged_marker:
        return Engagement.ENGAGED
    return Engagement.CONTACT if in_enemy_zoc else Engagement.NONE


def break_off_cost(engagement: Engagement, occasion: Occasion) -> int:
    """CPs to pay before moving off: 2 in Contact (CNA 8.65), 4 Engaged (8.66); a
    reacting unit pays nothing (8.52, 8.64)."""
    _require(engagement, Engagement, "an Engagement")
    _require(occasion, Occasion, "an Occasion")
    if occasion is Occasion.REACTION or engagement is Engagement.NONE:
        return 0
    return CONTACT_BREAK_OFF_CPS if engagement is Engagement.CONTACT else ENGAGED_BREAK_OFF_CPS


def break_off_rule(engagement: Engagement, occasion: Occasion) -> str:
    if occasion is Occasion.REACTION:
        return "CNA 8.52"
    return {
        Engagement.NONE: "CNA 8.64",
        Engagement.CONTACT: "CNA 8.65",
        Engagement.ENGAGED: "CNA 8.66",
    }[engagement]


def nearest_enemy_distance(
    at: tuple[int, int], enemy_combat_hexes: Iterable[tuple[int, int]]
) -> int | None:
    hexes = list(enemy_combat_hexes)
    return min((hexgrid.distance(at, h) for h in hexes), default=None)


def may_move_again(
    at: tuple[int, int],
    enemy_combat_hexes: Iterable[tuple[int, int]],
    *,
    moved_this_phase: bool,
    in_reserve: bool = False,
) -> Verdict:
    """May a phasing unit move in the next repetition of the Movement Segment? (CNA 8.23)

    A unit that has moved this Movement and Combat Phase may move again only if it
    ended its last Movement Segment within two hexes of an enemy combat unit, unless it
    is in Reserve Status. A unit that has not moved yet this phase is not restricted
    (see docs/notes-cna.md).
    """
    if in_reserve:
        return Verdict(True, (Reason("CNA 8.23", "units in Reserve Status are exempt"),))
    if not moved_this_phase:
        return Verdict(True, (Reason("CNA 8.23", "it has not moved yet this phase"),))
    d = nearest_enemy_distance(at, enemy_combat_hexes)
    if d is not None and d <= CONTINUAL_MOVEMENT_RANGE:
        return Verdict(
            True,
            (
                Reason(
                    "CNA 8.23",
                    f"it ended its move {d} hex{'es' if d != 1 else ''} from an enemy combat unit",
                ),
            ),
        )
    where = (
        "no enemy combat unit is on the map"
        if d is None
        else f"the nearest enemy combat unit is {d} hexes away"
    )
    return Verdict(
        False, (Reason("CNA 8.23", f"it ended its move more than 2 hexes from the enemy: {where}"),)
    )


def rail_movement_eligibility(
    side: Side,
    *,
    started_stage_on_rail_hex: bool,
    cps_spent_this_stage: int | Fraction,
    in_enemy_zoc: bool,
    rail_moves_used: int = 0,
) -> Verdict:
    """May this unit go by rail in its Commonwealth Rail Movement Phase? (CNA 8.71-8.73)

    ``rail_moves_used`` counts the stacks already railed this stage in the same direction
    (one stack each way per Operations Stage, CNA 8.72).
    """
    _require(side, Side, "a Side")
    spent = require_cp_amount(cps_spent_this_stage, "CPs spent this stage")
    require_int(rail_moves_used, "stacks already moved by rail", minimum=0)
    blocks = []
    if side is not Side.COMMONWEALTH:
        blocks.append(Reason("CNA 8.71", "only the Commonwealth may use the railway"))
    if not started_stage_on_rail_hex:
        blocks.append(Reason("CNA 8.73", "the unit did not start the stage on a rail hex"))
    if spent:
        blocks.append(Reason("CNA 8.73", f"the unit has already spent {spent} CPs this stage"))
    if in_enemy_zoc:
        blocks.append(Reason("CNA 8.73", "the unit is in an enemy ZOC"))
    if rail_moves_used >= 1:
        blocks.append(
            Reason("CNA 8.72", "one stack per direction has already gone by rail this stage")
        )
    return verdict(blocks, [Reason("CNA 8.73", "on a rail hex, fresh, and clear of enemy ZOCs")])
