"""One unit's supply, readiness and desertion, turn by turn (TOAW 9.1.7, 9.1.7.4-9.1.7.6).

A turn has two halves. **Bookkeeping** (TOAW 9.1) resupplies the unit from its hex's
location supply, or takes the unsupplied loss, then checks desertion and recovers
readiness. **Activity** then spends supply on movement and combat (TOAW 9.1.7.5).

Numbers the excerpt gives are used as given: the 150% ceiling, losing supply above 100%
on moving, readiness limited to the higher of unit supply and 33%, the 1% floor, costs of
1 per MP / 10 per combat round / 5 per supporting round, a third off resupply for bad
terrain, night, having moved and the global handicap, +50% for a nearby HQ, airborne
resupply cut by a third in haze and by half under overcast, the unsupplied loss of one
point per half day, and desertion below ``100 - proficiency``.

Where the excerpt only says *that* something scales (how many equipment items desert,
how fast readiness recovers), hexclass picks a rate and names it as a constant here;
``docs/notes-toaw.md`` lists every such choice. The only randomness is desertion, drawn
from a ``numpy.random.Generator`` the caller passes in, so a seed replays exactly.

>>> import numpy as np
>>> cut_off = Bookkeeping(status=SupplyStatus.UNSUPPLIED, turn_days=7)
>>> s = UnitSupplyState(supply=60, readiness=80, proficiency=50, turn=2)
>>> s2, report = step_turn(s, cut_off, Activity(), np.random.default_rng(1))
>>> s2.supply, s2.readiness   # 14 half-days lost; readiness pulled down to supply
(46.0, 46.0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum

import numpy as np

from hexclass.classroom import hexgrid
from hexclass.classroom.hexgrid import Hex

from .errors import SupplyInputError
from .field import SupplyField, SupplyStatus
from .situation import Rules
from .terrain import Terrain, terrain_rule

# --- numbers from the manual ---------------------------------------------------------------
MAX_RESUPPLIED = 150.0  # TOAW 9.1.7: resupply never lifts a unit above 150%
FULL = 100.0  # TOAW 9.1.7: above this a unit loses the excess when it moves
MIN_READINESS = 33.0  # TOAW 9.1.7: readiness floor, and the cap's lower bound
MIN_UNIT_SUPPLY = 1.0  # TOAW 9.1.7.6: no unit drops below 1% supply
THIRD_OFF = 2.0 / 3.0  # "reduced by 33%": terrain, night, moved last turn, handicap
HQ_BIAS = 1.5  # TOAW 9.1.7: +50% with or next to a cooperative HQ
SUPPLY_PER_MP = 1.0  # TOAW 9.1.7.5: land movement, per MP (times the scenario rate)
SUPPLY_PER_COMBAT_ROUND = 10.0  # TOAW 9.1.7.5: attackers, defenders, direct ranged units
SUPPLY_PER_SUPPORT_ROUND = 5.0  # TOAW 9.1.7.5: ranged units supporting at half strength

# --- hexclass's chosen rates (the excerpt gives only their direction) -----------------------
DESERTION_PER_WEEK = 0.5  # share of equipment lost per week per 100 points below threshold
READINESS_RECOVERY = 20.0  # readiness points regained per turn, all else equal
SLOW_RECOVERY = 0.5  # recovery factor for each of: moved, unsupplied, contaminated
READINESS_PER_MP = 1.0  # readiness points spent per MP moved


class UnitKind(Enum):
    LAND = "land"
    NAVAL = "naval"
    AIR = "air"
    HELICOPTER = "helicopter"


def rules_for_unit(kind: UnitKind, rules: Rules) -> Rules:
    """Naval, air and helicopter units keep the old rules under the new (TOAW 9.1.7.3)."""
    return rules if UnitKind(kind) is UnitKind.LAND else Rules.OLD


class Visibility(Enum):
    FAIR = "fair"
    HAZY = "hazy"
    OVERCAST = "overcast"


AIRBORNE_VISIBILITY = {  # TOAW 9.1.7.4, "Airborne Resupply"
    Visibility.FAIR: 1.0,
    Visibility.HAZY: 2.0 / 3.0,
    Visibility.OVERCAST: 0.5,
}


@dataclass(frozen=True, slots=True)
class UnitSupplyState:
    """What the model tracks about one unit between turns.

    ``supply`` and ``readiness`` are percentages; ``equipment`` counts the items left;
    ``on_hand`` and ``lost`` count items gone to desertion while overextended (returned
    to the force's On Hand pool) and while unsupplied (gone for good) (TOAW 9.1.71).
    ``turn`` is the scenario turn the next bookkeeping belongs to.
    """

    supply: float = 100.0
    readiness: float = 100.0
    proficiency: int = 50
    equipment: int = 100
    on_hand: int = 0
    lost: int = 0
    moved_last_turn: bool = False
    turn: int = 1

    def __post_init__(self) -> None:
        if not 0 <= self.proficiency <= 100:
            raise SupplyInputError(
                f"proficiency must be a percentage 0..100, got {self.proficiency!r}"
            )
        if not self.supply >= MIN_UNIT_SUPPLY:
            raise SupplyInputError(
                f"unit supply must be at least {MIN_UNIT_SUPPLY}% (TOAW 9.1.7.6), got {self.supply!r}"
            )
        if not 0 <= self.readiness <= 100:
            raise SupplyInputError(f"readiness must be a percentage 0..100, got {self.readiness!r}")
        if self.equipment < 0 or self.on_hand < 0 or self.lost < 0:
            raise SupplyInputError("equipment, on_hand and lost must be counts >= 0")
        if self.turn < 1:
            raise SupplyInputError(f"turns are numbered from 1, got {self.turn!r}")


@dataclass(frozen=True, slots=True)
class Bookkeeping:
    """The unit's circumstances at the start of a turn (TOAW 9.1, 9.1.7).

    ``location_level`` is the supply view's level at the unit's hex (force supply points,
    see :attr:`SupplyField.level`); ``airborne_level`` the airborne resupply allotted to
    its hex, already cut for visibility (:func:`airborne_resupply_levels`).
    """

    status: SupplyStatus = SupplyStatus.SUPPLIED
    location_level: float = 0.0
    terrain: Terrain = Terrain.OPEN
    night: bool = False
    hq_adjacent: bool = False
    high_supply: bool = False
    formation_efficiency: float = 100.0
    airborne_level: float = 0.0
    turn_days: float = 1.0
    contaminated: bool = False
    readiness_recovery: float = READINESS_RECOVERY

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", SupplyStatus(self.status))
        if self.location_level < 0 or self.airborne_level < 0:
            raise SupplyInputError("location and airborne supply levels must be >= 0")
        if not self.turn_days > 0:
            raise SupplyInputError(
                f"turn length must be a positive number of days, got {self.turn_days!r}"
            )
        if not 0 <= self.formation_efficiency <= 100:
            raise SupplyInputError(
                f"formation supply efficiency must be a percentage 0..100, got {self.formation_efficiency!r}"
            )
        if self.status is SupplyStatus.UNSUPPLIED and self.location_level:
            raise SupplyInputError(
                "an unsupplied unit has no location supply; pass airborne_level instead"
            )


@dataclass(frozen=True, slots=True)
class Activity:
    """What the unit does during the turn (TOAW 9.1.7.5)."""

    movement_points: float = 0.0
    combat_rounds: int = 0
    support_rounds: int = 0
    movement_rate: float = 1.0  # the scenario's "supply costs of movement" rate (8.5.2)
    readiness_per_mp: float = READINESS_PER_MP

    def __post_init__(self) -> None:
        if self.movement_points < 0 or self.combat_rounds < 0 or self.support_rounds < 0:
            raise SupplyInputError("movement points and combat rounds must be >= 0")

    @property
    def moves(self) -> bool:
        return self.movement_points > 0


@dataclass(frozen=True, slots=True)
class TurnReport:
    """Itemised results of one turn, for the lesson's table."""

    turn: int
    status: SupplyStatus
    resupply: float
    resupply_factors: tuple[tuple[str, float], ...]
    unsupplied_loss: float
    deserted: int
    desertion_chance: float
    consumed: float
    excess_lost: float
    supply: float
    readiness: float
    equipment: int
    tested_supply: float = 0.0  # the supply desertion is tested on: after bookkeeping,
    # before this turn's activity consumes any (TOAW 9.1.7, 9.1.7.1)


# --- single rules -----------------------------------------------------------------------------


def resupply_factors(b: Bookkeeping, moved_last_turn: bool) -> tuple[tuple[str, float], ...]:
    """Multipliers on resupply, each named with its rule (TOAW 9.1.7, 9.1.7.2, 9.1.7.4)."""
    f: list[tuple[str, float]] = []
    if b.formation_efficiency != 100:
        f.append(("formation supply efficiency (TOAW 9.1.7)", b.formation_efficiency / 100))
    if terrain_rule(b.terrain).resupply_cut:
        f.append((f"{b.terrain.name.lower().replace('_', ' ')} terrain (TOAW 9.1.7.2)", THIRD_OFF))
    if b.night:
        f.append(("night turn (TOAW 9.1.7.4)", THIRD_OFF))
    if moved_last_turn:
        f.append(("moved last turn (TOAW 9.1.7.4)", THIRD_OFF))
    if b.hq_adjacent:
        f.append(("cooperative HQ with or next to the unit (TOAW 9.1.7)", HQ_BIAS))
    if not b.high_supply:
        f.append(("global handicap; High Supply option off (TOAW 9.1.7.4)", THIRD_OFF))
    return tuple(f)


def resupply_amount(b: Bookkeeping, moved_last_turn: bool) -> float:
    """Points of unit supply the unit can draw this bookkeeping phase."""
    base = b.airborne_level if b.status is SupplyStatus.UNSUPPLIED else b.location_level
    return base * float(np.prod([x for _, x in resupply_factors(b, moved_last_turn)]))


def resupplied(supply: float, amount: float) -> float:
    """Add resupply without lifting the unit past 150% (TOAW 9.1.7, 9.1.7.4).

    A unit that began the scenario above 150% keeps its level but gains nothing.
    """
    if supply >= MAX_RESUPPLIED:
        return supply
    return min(MAX_RESUPPLIED, supply + amount)


def unsupplied_loss(turn_days: float) -> float:
    """A unit with no line of communication loses a point per half day (TOAW 9.1.7)."""
    return 2.0 * turn_days


def desertion_threshold(proficiency: float) -> float:
    """Unit supply below which desertion starts (TOAW 9.1.7, 9.1.71)."""
    return 100.0 - proficiency


def desertion_chance(supply: float, proficiency: float, turn_days: float) -> float:
    """Chance each equipment item deserts this turn.

    Zero at or above the threshold; below it, proportional to the shortfall and to the
    turn length (TOAW 9.1.7, 9.1.71). The rate per week is hexclass's choice.
    """
    shortfall = desertion_threshold(proficiency) - supply
    if shortfall <= 0:
        return 0.0
    return min(1.0, DESERTION_PER_WEEK * (shortfall / 100.0) * (turn_days / 7.0))


def suffers_desertion(status: SupplyStatus) -> bool:
    """Only unsupplied and overextended units desert (TOAW 9.1.7.6)."""
    return status in (SupplyStatus.UNSUPPLIED, SupplyStatus.OVEREXTENDED)


def receives_replacements(status: SupplyStatus, supply: float, proficiency: float) -> bool:
    """Replacements need supply; overextended units only while not deserting (TOAW 9.1.71, 9.1.8)."""
    if status is SupplyStatus.SUPPLIED:
        return True
    return status is SupplyStatus.OVEREXTENDED and supply >= desertion_threshold(proficiency)


def readiness_cap(supply: float) -> float:
    """Readiness may not exceed the higher of unit supply and 33% (TOAW 9.1.7)."""
    return min(100.0, max(supply, MIN_READINESS))


def capped_readiness(readiness: float, supply: float) -> float:
    return max(MIN_READINESS, min(readiness, readiness_cap(supply)))


def readiness_recovery(b: Bookkeeping, moved_last_turn: bool) -> float:
    """Readiness regained at bookkeeping; slower after moving, unsupplied or contaminated (TOAW 9.1.8)."""
    rate = b.readiness_recovery
    for slow in (moved_last_turn, b.status is SupplyStatus.UNSUPPLIED, b.contaminated):
        if slow:
            rate *= SLOW_RECOVERY
    return rate


def activity_cost(a: Activity) -> float:
    """Supply spent on movement and combat (TOAW 9.1.7.5)."""
    return (
        a.movement_points * SUPPLY_PER_MP * a.movement_rate
        + a.combat_rounds * SUPPLY_PER_COMBAT_ROUND
        + a.support_rounds * SUPPLY_PER_SUPPORT_ROUND
    )


def hq_in_reach(unit: Hex, headquarters: Sequence[Hex]) -> bool:
    """Is a cooperative HQ in the unit's hex or next to it? (TOAW 9.1.7, HQ bias)"""
    return any(hexgrid.distance(unit, hq) <= 1 for hq in headquarters)


def airborne_resupply_levels(
    force_supply_level: float,
    unused_air_capacity: float,
    demand: Mapping[Hex, float],
    visibility: Mapping[Hex, Visibility] | None = None,
) -> dict[Hex, float]:
    """Airborne resupply level for each hex of units without a line of communication.

    Unused air transport capacity is shared in proportion to the size of the units
    needing it; when it covers them all each hex gets the full force level. Haze cuts a
    hex's share by a third, overcast by half (TOAW 9.1.7.4). The sharing rule is
    hexclass's reading; the manual names only its inputs.
    """
    if unused_air_capacity < 0 or any(v < 0 for v in demand.values()):
        raise SupplyInputError("air capacity and unit sizes must be >= 0")
    total = sum(demand.values())
    ratio = 1.0 if total == 0 else min(1.0, unused_air_capacity / total)
    vis = visibility or {}
    return {
        h: force_supply_level * ratio * AIRBORNE_VISIBILITY[Visibility(vis.get(h, Visibility.FAIR))]
        for h in demand
    }


def bookkeeping_from_field(field: SupplyField, h: Hex, **circumstances) -> Bookkeeping:
    """The bookkeeping inputs of a unit standing at ``h`` of a supply field."""
    status = field.status_at(h)
    level = 0.0 if status is SupplyStatus.UNSUPPLIED else field.level_at(h)
    return Bookkeeping(
        status=status, location_level=level, terrain=field.hexmap.terrain_at(h), **circumstances
    )


# --- a whole turn ------------------------------------------------------------------------------


def step_turn(
    state: UnitSupplyState, b: Bookkeeping, activity: Activity, rng: np.random.Generator
) -> tuple[UnitSupplyState, TurnReport]:
    """Bookkeeping, then activity, for one turn. Deterministic for a seeded ``rng``."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(
            "rng must be a numpy.random.Generator (e.g. numpy.random.default_rng(seed))"
        )
    # TOAW 9.1.7.4 / 9.1.8: the first turn draws no resupply and recovers no readiness;
    # hexclass also skips the unsupplied loss then (see docs/notes-toaw.md)
    first = state.turn == 1
    supply = state.supply
    loss = 0.0
    if b.status is SupplyStatus.UNSUPPLIED and not first:
        loss = unsupplied_loss(b.turn_days)
        supply = max(MIN_UNIT_SUPPLY, supply - loss)
    amount = 0.0 if first else resupply_amount(b, state.moved_last_turn)
    supply = resupplied(supply, amount)
    tested = supply
    chance = (
        desertion_chance(supply, state.proficiency, b.turn_days)
        if suffers_desertion(b.status)
        else 0.0
    )
    deserted = int(rng.binomial(state.equipment, chance)) if chance > 0 else 0
    on_hand, lost = state.on_hand, state.lost
    if b.status is SupplyStatus.OVEREXTENDED:
        on_hand += deserted  # TOAW 9.1.71: overextended deserters go to the On Hand pool
    else:
        lost += deserted
    readiness = state.readiness + (0.0 if first else readiness_recovery(b, state.moved_last_turn))
    readiness = capped_readiness(readiness, supply)
    # activity (TOAW 9.1.7, 9.1.7.5)
    excess = max(0.0, supply - FULL) if activity.moves else 0.0
    supply -= excess
    cost = activity_cost(activity)
    supply = max(MIN_UNIT_SUPPLY, supply - cost)
    readiness = capped_readiness(
        readiness - activity.movement_points * activity.readiness_per_mp, supply
    )
    new = replace(
        state,
        supply=supply,
        readiness=readiness,
        equipment=state.equipment - deserted,
        on_hand=on_hand,
        lost=lost,
        moved_last_turn=activity.moves,
        turn=state.turn + 1,
    )
    report = TurnReport(
        turn=state.turn,
        status=b.status,
        resupply=amount,
        resupply_factors=() if first else resupply_factors(b, state.moved_last_turn),
        unsupplied_loss=loss,
        deserted=deserted,
        desertion_chance=chance,
        consumed=cost,
        excess_lost=excess,
        supply=supply,
        readiness=readiness,
        equipment=new.equipment,
        tested_supply=tested,
    )
    return new, report


def run_turns(
    state: UnitSupplyState,
    bookkeeping: Bookkeeping | Sequence[Bookkeeping],
    activity: Activity | Sequence[Activity],
    turns: int,
    rng: np.random.Generator,
) -> list[TurnReport]:
    """Step ``turns`` turns; a single Bookkeeping/Activity repeats every turn."""
    reports = []
    for k in range(turns):
        b = bookkeeping if isinstance(bookkeeping, Bookkeeping) else bookkeeping[k]
        a = activity if isinstance(activity, Activity) else activity[k]
        state, report = step_turn(state, b, a, rng)
        reports.append(report)
    return reports
