"""Carrying out a combat result on the units (Cherbourg 5.1.6, 7.0).

The table says *what* happens; the players choose *which* unit takes a loss ("at the
discretion of" the side concerned). :func:`apply_result` takes those choices and returns
the units afterwards, who must retreat, and whether the attacker may advance (5.2).

>>> from .crt import parse_result
>>> from .units import infantry
>>> att, dfn = (infantry("A1"), infantry("A2")), (infantry("D1"), infantry("D2"))
>>> after = apply_result(parse_result("DRB AVB"), att, dfn, defender_loss="D2", attacker_loss="A1")
>>> [(u.name, u.damaged) for u in after.defenders], after.defenders_retreat, after.attacker_may_advance
([('D1', False), ('D2', True)], True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .crt import Part, Result
from .errors import CherbourgInputError
from .units import Unit, take_casualty


@dataclass(frozen=True)
class Aftermath:
    attackers: tuple[Unit, ...]
    defenders: tuple[Unit, ...]
    eliminated: tuple[str, ...]
    defenders_retreat: bool
    attackers_retreat: bool
    attacker_may_advance: bool
    notes: tuple[str, ...]


def _pick(units: Sequence[Unit], name: str | None, side: str, part: Part) -> Unit:
    if name is None:
        raise CherbourgInputError(
            f"{part.name}: the {side} must choose which unit suffers (Cherbourg 5.1.6)"
        )
    for u in units:
        if u.name == name:
            return u
    raise CherbourgInputError(f"{name!r} is not one of the {side}'s units in this combat")


def _hurt(units: list[Unit], victim: Unit, eliminate: bool, lost: list[str]) -> list[Unit]:
    after = None if eliminate else take_casualty(victim)
    if after is None:
        lost.append(victim.name)
    return [after if u is victim else u for u in units if not (u is victim and after is None)]


def apply_result(
    result: Result,
    attackers: Sequence[Unit],
    defenders: Sequence[Unit],
    defender_loss: str | None = None,
    attacker_loss: str | None = None,
    emp_defenders: Sequence[str] = (),
    emp_attackers: Sequence[str] = (),
) -> Aftermath:
    """The units after ``result``, with the players' choices of who suffers.

    ``defender_loss``/``attacker_loss`` name the unit that takes the casualty or is
    eliminated; for EMP, ``emp_defenders`` are the defenders the defender gives up and
    ``emp_attackers`` the attackers whose attack power must reach their defence power.
    """
    att, dfn = list(attackers), list(defenders)
    lost: list[str] = []
    notes: list[str] = []
    d_retreat = a_retreat = advance = False
    for part in result.parts:
        if part in (Part.DE, Part.DRB, Part.DVB):
            victim = _pick(dfn, defender_loss, "defender", part)
            dfn = _hurt(dfn, victim, part is Part.DE, lost)
            notes.append(
                f"{victim.name}: {'eliminated' if part is Part.DE else 'a casualty'} ({part.name}, Cherbourg 5.1.6)"
            )
        if part in (Part.AE, Part.ARB, Part.AVB):
            victim = _pick(att, attacker_loss, "attacker", part)
            att = _hurt(att, victim, part is Part.AE, lost)
            notes.append(
                f"{victim.name}: {'eliminated' if part is Part.AE else 'a casualty'} ({part.name}, Cherbourg 5.1.6)"
            )
        d_retreat |= part in (Part.DE, Part.DRB, Part.DRI)
        a_retreat |= part in (Part.AE, Part.ARB, Part.ARI)
        advance |= part in (Part.AVI, Part.AVB)
        if part is Part.EMP:
            att, dfn = _bloodbath(att, dfn, emp_defenders, emp_attackers, lost, notes)
            d_retreat = True
            advance = True
    if advance and not dfn:
        notes.append("the hex is empty: the attacker may advance into it (Cherbourg 5.2)")
    return Aftermath(
        tuple(att),
        tuple(dfn),
        tuple(lost),
        d_retreat and bool(dfn),
        a_retreat and bool(att),
        advance,
        tuple(notes),
    )


def _bloodbath(att, dfn, emp_defenders, emp_attackers, lost, notes):
    """EMP: the defender removes one or more units; the attacker removes units whose attack
    power adds up to at least their defence power; surviving defenders retreat (5.1.6)."""
    given = [_pick(dfn, n, "defender", Part.EMP) for n in emp_defenders]
    if not given:
        raise CherbourgInputError(
            "EMP: the defender must give up at least one unit (Cherbourg 5.1.6)"
        )
    owed = sum(u.defence_power for u in given)
    paid = [_pick(att, n, "attacker", Part.EMP) for n in emp_attackers]
    if sum(u.attack_power for u in paid) < owed and len(paid) < len(att):
        raise CherbourgInputError(
            f"EMP: the attacker must give up at least {owed} attack points; the units named give "
            f"{sum(u.attack_power for u in paid)} (Cherbourg 5.1.6)"
        )
    lost += [u.name for u in given + paid]
    notes.append(
        f"bloodbath: {owed} defence points lost, {sum(u.attack_power for u in paid)} attack points paid (Cherbourg 5.1.6)"
    )
    return [u for u in att if u not in paid], [u for u in dfn if u not in given]
