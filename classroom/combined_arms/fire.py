"""Your fire attacks (CA "Fire Attacks", Figure 6, and the p.22 modifier chart).

Each firing platoon rolls one die. The modifiers, each with its reason:

* +1 armour not within 2 hexes of an enemy counter or enemy mortar target counter;
* +1 target platoon unrevealed and none of your platoons adjacent to it;
* -1 line of fire partly blocked;
* -1 firer at 2+ hexes while a rifle platoon not of its company is next to the target
  (chart wording; a rifle firer of the same company, or an adjacent firer, is spared);
* -1 per hex of range, or per full 2 hexes for MMGs.

A modified 2+ pins (spends) the target. When *every* firer of the declaration is
adjacent, a modified 4+ breaks the ATGs, and the platoon too if that firer is infantry.
A rifle platoon's shot advances the ammo track; passing 7 to 0 withdraws it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.dice import chances
from hexclass.classroom.hexgrid import Hex

from .board import DIST, in_arc
from .enemy import break_post
from .lines import MAX_RANGE, LineOfFire, friendly_line, line_penalty, within_range
from .reasons import CHART, FIRE, VARIANT, Illegal, Modifier
from .state import TRACK_SIZE
from .units import BOARD, POTENTIAL, WITHDRAWN, Platoon

PIN = 2  # CA "Fire Attacks": modified 2 or more, the enemy becomes spent
BREAK = 4  # ... 4 or more with every firer adjacent: ATGs (and platoon, for infantry) broken


# --- who may fire --------------------------------------------------------------------------


def may_fire(unit: Platoon) -> bool:
    """CA "Fire Attacks": only fresh platoons on the board fire (:func:`firer_problem`
    says why not)."""
    return unit.where == BOARD and unit.fresh


def firer_problem(state, unit: Platoon, target: Hex) -> Illegal | None:
    """Can this one platoon engage ``target`` now (ignoring the rest of the group)?"""
    if not may_fire(unit):
        if unit.where != BOARD:
            return Illegal(FIRE, f"{unit.id} is not on the board")
        return Illegal(FIRE, f"{unit.id} is spent; only fresh platoons fire")
    if target not in state.enemy:
        return Illegal(FIRE, f"{_name(state, target)} holds no enemy counter to fire on")
    d = DIST[unit.hex][target]  # both on the board: enemy counters are never off it
    if not within_range(d):
        return Illegal(
            FIRE, f"{_name(state, target)} is {d} hexes from {unit.id}; the limit is {MAX_RANGE}"
        )
    if unit.is_armour and not in_arc(unit.hex, unit.facing, target):
        return Illegal(
            FIRE, f"{_name(state, target)} is outside {unit.id}'s forward arc; turn it first"
        )
    lof = friendly_line(state, unit.hex, target)
    if lof.blocked:
        return Illegal(
            FIRE, f"the line of fire from {unit.id} is blocked by {_blockers(state, lof)}"
        )
    return None


def company_problem(firers: list[Platoon]) -> Illegal | None:
    """CA "Fire Attacks": rifle platoons of different companies may not engage one hex."""
    companies = sorted({u.company for u in firers if u.is_rifle})
    if len(companies) > 1:
        return Illegal(
            FIRE,
            f"rifle platoons of companies {' and '.join(companies)} may not engage the same hex",
        )
    return None


def _name(state, h: Hex) -> str:
    return state.board.label(h) if h in state.board.hex_set else str(h)


def _blockers(state, lof: LineOfFire) -> str:
    parts = [_name(state, h) for h in lof.blocked_by]
    if line_penalty(0, lof.part) is None:  # the partial blocks alone block the line
        parts.append(
            "two partial blocks (" + ", ".join(_name(state, h) for h in lof.partly_by) + ")"
        )
    return ", ".join(parts)


# --- modifiers -----------------------------------------------------------------------------


HATCHES_OPEN = Modifier(+1, "armour not within 2 hexes of an enemy counter or mortar target", FIRE)
UNREVEALED = Modifier(+1, "target unrevealed and none of your platoons adjacent", FIRE)
UNREVEALED_LIVE = Modifier(+1, "target unrevealed (enemy-player variant)", VARIANT)


def hatches_open_at(state, h: Hex) -> bool:
    """CA "Fire Attacks": armour in ``h`` fires at +1 with no enemy counter, nor the
    enemy's mortar target counter, within 2 hexes."""
    if state.enemy_near(h, 2):
        return False
    em = state.enemy_mortar
    return em is None or hg.distance(h, em.hex) > 2


def armour_hatches_open(state, unit: Platoon) -> bool:
    return hatches_open_at(state, unit.hex)


def other_company_rifles(kind: str, companies) -> bool:
    """p.22 chart: is a rifle platoon of another company than the firer's (``kind``, its
    id letter) among the rifle ``companies`` next to the target?"""
    return any(c != kind for c in companies)


def friendly_total(
    kind: str,
    d: int,
    part: int,
    hatches_open: bool,
    unrevealed: bool,
    live_defender: bool,
    anyone_adjacent: bool,
    other_rifle: str | bool | None,
    explain: list | None = None,
    part_by: str = "",
) -> int:
    """The net modifier of one firer's roll: the one place its rules are written.

    CA "Fire Attacks" and the p.22 chart, for a firer of ``kind`` (its id letter: A
    armour, M MMG, D/E/F rifle company) at range ``d``, with ``part`` partial blocks on
    the line (:func:`~.lines.line_penalty`), ``hatches_open`` (:func:`hatches_open_at`),
    the target platoon ``unrevealed``, a ``live_defender`` (CA p.7), ``anyone_adjacent``
    (any of your platoons next to the target, the firer too) and ``other_rifle`` (a
    rifle platoon of another company next to the target: its id, or True). With
    ``explain`` (a list) every modifier is appended to it with its reason and rule;
    without, nothing is built (the bots ask this thousands of times a turn).
    """
    total = 0
    if kind == "A" and hatches_open:
        total += 1
        if explain is not None:
            explain.append(HATCHES_OPEN)
    if unrevealed and (live_defender or not anyone_adjacent):
        total += 1  # with a live defender even with your platoons adjacent (CA p.7)
        if explain is not None:
            explain.append(UNREVEALED_LIVE if live_defender else UNREVEALED)
    if part:
        total -= part
        if explain is not None:
            explain.append(Modifier(-part, f"line of fire partly blocked by {part_by}", FIRE))
    if d >= 2 and other_rifle:
        total -= 1
        if explain is not None:
            why = f"{other_rifle} (not of the firer's company) is adjacent to the target"
            explain.append(Modifier(-1, why, CHART))
    cost = d // 2 if kind == "M" else d
    if cost:
        total -= cost
        if explain is not None:
            why = f"range {d} (MMG: -1 per full 2 hexes)" if kind == "M" else f"range {d}"
            explain.append(Modifier(-cost, why, FIRE))
    return total


def friendly_modifiers(state, unit: Platoon, target: Hex) -> list[Modifier]:
    """:func:`friendly_total`'s modifiers for ``unit`` firing from where it stands."""
    mods: list[Modifier] = []
    d = DIST[unit.hex][target]
    lof = friendly_line(state, unit.hex, target)
    friendly_total(
        unit.id[0],
        d,
        line_penalty(lof.full, lof.part) or 0,
        unit.is_armour and armour_hatches_open(state, unit),
        state.enemy[target].platoon == POTENTIAL,
        state.options.enemy_player,
        bool(state.friendly_adjacent(target)),
        _other_company_rifle_adjacent(state, unit, target) if d >= 2 else None,
        explain=mods,
        part_by=_name(state, lof.partly_by[0]) if lof.partial else "",
    )
    return mods


def _other_company_rifle_adjacent(state, unit: Platoon, target: Hex) -> str | None:
    kind = unit.id[0]
    for p in state.friendly_adjacent(target):
        if p.is_rifle and other_company_rifles(kind, (p.company,)):
            return p.id
    return None


def all_adjacent(firers: list[Platoon], target: Hex) -> bool:
    return all(hg.distance(u.hex, target) == 1 for u in firers)


# --- odds ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackOdds:
    """One firer's roll: its modifiers and how many faces pin or break."""

    unit: str
    modifiers: tuple[Modifier, ...]
    pin_chances: int
    break_chances: int  # 0 unless every firer is adjacent
    breaks_platoon: bool  # infantry firer: a break also breaks the platoon

    @property
    def total(self) -> int:
        return sum(m.value for m in self.modifiers)


@dataclass(frozen=True)
class FireOdds:
    """Exact chances for a declaration of several firers on one hex."""

    target: Hex
    attacks: tuple[AttackOdds, ...]
    all_adjacent: bool
    pin: Fraction
    break_atg: Fraction
    break_platoon: Fraction
    ammo_withdrawal: str | None  # the rifle platoon withdrawn when ammo passes 7 to 0
    ammo_after: int

    def summary(self) -> str:
        parts = [f"pin {float(self.pin):.0%}"]
        if self.all_adjacent:
            parts.append(f"break ATGs {float(self.break_atg):.0%}")
            parts.append(f"break platoon {float(self.break_platoon):.0%}")
        if self.ammo_withdrawal:
            parts.append(f"{self.ammo_withdrawal} withdraws (ammo)")
        return ", ".join(parts)


def fire_odds(state, target: Hex, firer_ids) -> FireOdds:
    firers = [state.units[u] for u in firer_ids]
    adjacent = all_adjacent(firers, target)
    attacks = []
    for u in firers:
        mods = tuple(friendly_modifiers(state, u, target))
        total = sum(m.value for m in mods)
        attacks.append(
            AttackOdds(
                u.id,
                mods,
                chances(total, PIN),
                chances(total, BREAK) if adjacent else 0,
                u.is_infantry,
            )
        )
    pin = _any_of(a.pin_chances for a in attacks)
    brk = _any_of(a.break_chances for a in attacks)
    brk_pl = _any_of(a.break_chances for a in attacks if a.breaks_platoon)
    withdrawn, after = _ammo_outcome(state.ammo, firers)
    return FireOdds(target, tuple(attacks), adjacent, pin, brk, brk_pl, withdrawn, after)


def _any_of(faces) -> Fraction:
    """Chance at least one of several rolls succeeds, each on ``faces`` of 6.

    The same value as ``dice.any_succeeds`` over ``Fraction(f, 6)``, worked in whole
    numbers (1 - the product of the misses over 6**n) and made a Fraction once.
    """
    miss, den = 1, 1
    for f in faces:
        miss *= 6 - f
        den *= 6
    return Fraction(den - miss, den)


def _ammo_outcome(ammo: int, firers: list[Platoon]) -> tuple[str | None, int]:
    withdrawn = None
    for u in firers:
        if u.is_rifle:
            ammo += 1
            if ammo == TRACK_SIZE:
                ammo = 0
                withdrawn = withdrawn or u.id
    return withdrawn, ammo


# --- resolution ----------------------------------------------------------------------------


def resolve_declaration(state, target: Hex, firer_ids: list[str]) -> None:
    """Roll each committed attack in declaration order (CA "Fire Attacks")."""
    odds = fire_odds(state, target, firer_ids)
    state.log(
        "fire",
        f"{', '.join(firer_ids)} fire on {_name(state, target)}: {odds.summary()}",
        target=target,
        firers=list(firer_ids),
        pin=str(odds.pin),
        break_atg=str(odds.break_atg),
        break_platoon=str(odds.break_platoon),
    )
    for attack in odds.attacks:
        _resolve_attack(state, target, attack, odds.all_adjacent)
    state.engaged[target] = tuple(firer_ids)


def _resolve_attack(state, target: Hex, attack: AttackOdds, adjacent: bool) -> None:
    unit = state.units[attack.unit]
    die = state.dice.d6()
    total = die + attack.total
    post = state.enemy.get(target)
    outcome = []
    if post is not None and total >= PIN and post.fresh:
        post.fresh = False
        outcome.append("target pinned")
    if post is not None and adjacent and total >= BREAK:
        outcome.extend(break_post(state, target, by_infantry=unit.is_infantry))
    if not outcome:
        outcome.append("no effect" if total < PIN or post is None else "target already spent")
    state.log(
        "roll",
        f"{unit.id} rolls {die}, modified {total}: {'; '.join(outcome)}",
        purpose="friendly fire",
        unit=unit.id,
        target=target,
        die=die,
        modifiers=[(m.value, m.reason, m.rule) for m in attack.modifiers],
        total=total,
        need=PIN,
        outcome=outcome,
    )
    unit.fresh = False
    if unit.is_rifle:
        _advance_ammo(state, unit)


def _advance_ammo(state, unit: Platoon) -> None:
    """CA "Fire Attacks": each rifle shot moves the ammo track on; 7 to 0 withdraws it."""
    state.ammo += 1
    if state.ammo == TRACK_SIZE:
        state.ammo = 0
        state.remove(unit, WITHDRAWN)
        state.log(
            "withdraw",
            f"infantry ammo passes 7 to 0: {unit.id} withdraws",
            unit=unit.id,
            reason="ammo",
        )
