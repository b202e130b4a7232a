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

from classroom import hexgrid as hg
from classroom.dice import chances
from classroom.hexgrid import Hex

from .board import DIST, in_arc
from .lines import MAX_RANGE, LineOfFire, friendly_line
from .reasons import CHART, FIRE, VARIANT, Illegal
from .state import TRACK_SIZE
from .units import BOARD, POTENTIAL, WITHDRAWN, Platoon

PIN = 2  # CA "Fire Attacks": modified 2 or more, the enemy becomes spent
BREAK = 4  # ... 4 or more with every firer adjacent: ATGs (and platoon, for infantry) broken


@dataclass(frozen=True, slots=True)
class Modifier:
    value: int
    reason: str
    rule: str

    def __str__(self) -> str:
        return f"{self.value:+d} {self.reason} ({self.rule})"


# --- who may fire --------------------------------------------------------------------------


def firer_problem(state, unit: Platoon, target: Hex) -> Illegal | None:
    """Can this one platoon engage ``target`` now (ignoring the rest of the group)?"""
    board = state.board
    if unit.where != BOARD:
        return Illegal(FIRE, f"{unit.id} is not on the board")
    if not unit.fresh:
        return Illegal(FIRE, f"{unit.id} is spent; only fresh platoons fire")
    if target not in state.enemy:
        return Illegal(FIRE, f"{_name(state, target)} holds no enemy counter to fire on")
    d = DIST[unit.hex][target]  # both on the board: enemy counters are never off it
    if d > MAX_RANGE:
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
    del board
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
    if len(lof.partly_by) >= 2:
        parts.append(
            "two partial blocks (" + ", ".join(_name(state, h) for h in lof.partly_by) + ")"
        )
    return ", ".join(parts)


# --- modifiers -----------------------------------------------------------------------------


def armour_hatches_open(state, unit: Platoon) -> bool:
    """No enemy counter, nor the enemy's mortar target counter, within 2 hexes."""
    if state.enemy_near(unit.hex, 2):
        return False
    em = state.enemy_mortar
    return em is None or hg.distance(unit.hex, em.hex) > 2


def friendly_modifiers(state, unit: Platoon, target: Hex) -> list[Modifier]:
    mods: list[Modifier] = []
    d = DIST[unit.hex][target]
    if unit.is_armour and armour_hatches_open(state, unit):
        mods.append(
            Modifier(+1, "armour not within 2 hexes of an enemy counter or mortar target", FIRE)
        )
    post = state.enemy[target]
    if post.platoon == POTENTIAL and state.options.enemy_player:
        # CA p.7: with a live defender the bonus holds even with your platoons adjacent
        mods.append(Modifier(+1, "target unrevealed (enemy-player variant)", VARIANT))
    elif post.platoon == POTENTIAL and not state.friendly_adjacent(target):
        mods.append(Modifier(+1, "target unrevealed and none of your platoons adjacent", FIRE))
    lof = friendly_line(state, unit.hex, target)
    if lof.partial:
        mods.append(
            Modifier(-1, f"line of fire partly blocked by {_name(state, lof.partly_by[0])}", FIRE)
        )
    if d >= 2:
        other = _other_company_rifle_adjacent(state, unit, target)
        if other:
            mods.append(
                Modifier(
                    -1, f"{other} (not of the firer's company) is adjacent to the target", CHART
                )
            )
    if unit.is_mmg:
        if d // 2:
            mods.append(Modifier(-(d // 2), f"range {d} (MMG: -1 per full 2 hexes)", FIRE))
    else:
        mods.append(Modifier(-d, f"range {d}", FIRE))
    return mods


def _other_company_rifle_adjacent(state, unit: Platoon, target: Hex) -> str | None:
    for p in state.friendly_adjacent(target):
        if p.is_rifle and p.company != unit.company:
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
        from .enemy import break_post  # late import: enemy.py uses fire's Modifier

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
