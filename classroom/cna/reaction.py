"""Reaction: a non-phasing unit moving when an enemy combat unit comes next to it (CNA 8.5x).

>>> from hexclass.classroom.cna.capability import MEDIUM_TRUCK_CPA, Unit, UnitKind
>>> mot_inf = Unit("motorized infantry", UnitKind.INFANTRY, cpa=10).motorized_by(MEDIUM_TRUCK_CPA)
>>> tanks = Unit("tank battalion", UnitKind.ARMOR, cpa=25)
>>> reaction_eligibility(mot_inf, tanks, assault_announced=True).allowed
True
"""

from __future__ import annotations

from hexclass.classroom.cna.capability import Function, Size, Unit
from hexclass.classroom.cna.cohesion import is_collapsed, require_level
from hexclass.classroom.cna.errors import CNAInputError
from hexclass.classroom.cna.verdict import Reason, Verdict, verdict

PIN_CPA_MARGIN = 6  # CNA 8.53b: six or more CPA points faster


def _require_unit(u: object, what: str) -> Unit:
    if not isinstance(u, Unit):
        raise CNAInputError(f"expected a Unit for {what}, got {u!r}")
    return u


def size_may_pin(mover: Size, reactor: Size) -> bool:
    """A battalion never pins a division; a company never pins a brigade or bigger (CNA 8.54)."""
    if not isinstance(mover, Size) or not isinstance(reactor, Size):
        raise CNAInputError(f"expected two Sizes, got {mover!r} and {reactor!r}")
    if mover is Size.BATTALION and reactor is Size.DIVISION:
        return False
    return not (mover is Size.COMPANY and reactor >= Size.BRIGADE)


def cpa_gap(mover: Unit, reactor: Unit) -> int:
    """How much higher the mover's CPA is than the reactor's (CNA 8.53b)."""
    return mover.cpa_for(Function.MOVEMENT) - reactor.cpa_for(Function.MOVEMENT)


def pins(mover: Unit, reactor: Unit, *, assault_announced: bool) -> bool:
    """Does ``mover``, arriving next to ``reactor``, stop it reacting? (CNA 8.53b, 8.54)

    It does when its CPA is at least six higher and its owner announces a Close Assault
    by it on the reactor -- unless the reactor is too big for it to pin.
    """
    _require_unit(mover, "the moving unit")
    _require_unit(reactor, "the reacting unit")
    fast_enough = cpa_gap(mover, reactor) >= PIN_CPA_MARGIN
    return bool(assault_announced) and fast_enough and size_may_pin(mover.size, reactor.size)


def reaction_eligibility(
    reactor: Unit,
    mover: Unit,
    *,
    assault_announced: bool,
    stacked_with_friendly_combat_unit: bool = False,
    already_in_enemy_zoc: bool = False,
    in_combat_or_engaged: bool = False,
    cohesion: int = 0,
) -> Verdict:
    """May ``reactor`` React to ``mover`` moving next to it? (CNA 8.51-8.54, 6.26)

    ``already_in_enemy_zoc`` means a ZOC of some enemy unit other than ``mover`` -- the
    one the reactor was in before ``mover`` arrived (CNA 8.53c).
    """
    _require_unit(reactor, "the reacting unit")
    _require_unit(mover, "the moving unit")
    level = require_level(cohesion, f"the Cohesion Level of {reactor.name}")
    blocks: list[Reason] = []
    if not mover.kind.is_combat:
        blocks.append(
            Reason("CNA 8.51", f"{mover.name} is not a combat unit, so it triggers no Reaction")
        )
    if not reactor.is_motorized:
        blocks.append(
            Reason(
                "CNA 8.53a",
                f"{reactor.name} is not motorized (CPA {reactor.cpa_for(Function.MOVEMENT)})",
            )
        )
    elif not reactor.kind.is_combat and not stacked_with_friendly_combat_unit:
        blocks.append(
            Reason(
                "CNA 8.53a",
                f"{reactor.name} is a {reactor.kind.value} not stacked with a friendly combat unit",
            )
        )
    gap = cpa_gap(mover, reactor)
    if pins(mover, reactor, assault_announced=assault_announced):
        blocks.append(
            Reason(
                "CNA 8.53b",
                (
                    f"{mover.name}'s CPA {mover.cpa_for(Function.MOVEMENT)} is {gap} above "
                    f"{reactor.name}'s {reactor.cpa_for(Function.MOVEMENT)} and a Close Assault on it is announced"
                ),
            )
        )
    if already_in_enemy_zoc:
        blocks.append(Reason("CNA 8.53c", f"{reactor.name} is already in an enemy Zone of Control"))
    if in_combat_or_engaged:
        blocks.append(Reason("CNA 8.53d", f"{reactor.name} is in combat or Engaged"))
    if is_collapsed(level):
        blocks.append(
            Reason("CNA 6.26", f"{reactor.name} has collapsed (Cohesion {level}) and cannot move")
        )
    passes = [Reason("CNA 8.53b", _gap_note(mover, reactor, gap, assault_announced))]
    return verdict(blocks, passes)


def _gap_note(mover: Unit, reactor: Unit, gap: int, assault_announced: bool) -> str:
    if gap < PIN_CPA_MARGIN:
        return (
            f"{mover.name}'s CPA {mover.cpa_for(Function.MOVEMENT)} is less than 6 above "
            f"{reactor.name}'s {reactor.cpa_for(Function.MOVEMENT)}, too slow to pin it"
        )
    if not assault_announced:
        return "no Close Assault was announced against it"
    return f"a {mover.size.name.lower()} cannot pin a {reactor.size.name.lower()} (CNA 8.54)"
