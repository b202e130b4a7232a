"""Exact odds, as fractions, with the modifiers that make them (for tooltips and lessons).

* :func:`hexclass.classroom.combined_arms.fire.fire_odds` — your declaration on one hex;
* :func:`enemy_fire_on_hex` / :func:`enemy_fire_on_armour` — one enemy platoon's shot;
* :func:`armour_survival` — the chance armour is broken this enemy phase if your fire
  fails to pin the platoon next to it (the sample game's "1 in 9");
* :func:`mortar_odds` — where a mortar strike lands and what it does;
* :func:`reveal_odds` — the reveal tests.

>>> from .positions import sketch
>>> s = sketch(units={"D1": "3d"}, enemy={"5d": "real"})
>>> o = enemy_fire_on_hex(s, s.board.hex_at("5d"), s.board.hex_at("3d"))
>>> o.probability, [str(m) for m in o.modifiers]
(Fraction(2, 3), ['+1 target not in woods, crest or farm (CA "Enemy Fire")', '-2 range 2 (CA "Enemy Fire")'])
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.dice import chance_fraction
from hexclass.classroom.hexgrid import Hex

from . import enemy
from .fire import Modifier, fire_odds
from .mortars import MORTAR_HIT, corner_share
from .reasons import DECISIONS, ENEMY_FIRE, MORTARS
from .units import REAL

__all__ = [
    "fire_odds",
    "enemy_fire_on_hex",
    "enemy_fire_on_armour",
    "mortar_odds",
    "reveal_odds",
    "Odds",
]


@dataclass(frozen=True)
class Odds:
    """One roll: the chance it succeeds, the number needed and the itemised modifiers."""

    probability: Fraction
    need: int
    modifiers: tuple[Modifier, ...]
    rule: str
    note: str = ""

    @property
    def total(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def percent(self) -> str:
        return f"{float(self.probability):.0%}"


NO_CHANCE = Odds(Fraction(0), 0, (), ENEMY_FIRE, "no line of fire or out of range")


def enemy_fire_on_hex(state, post_hex: Hex, target: Hex) -> Odds:
    """Chance one fresh enemy platoon pins the infantry in ``target`` (CA "Enemy Fire")."""
    mods = enemy.infantry_modifiers(state, post_hex, target)
    if mods is None:
        return NO_CHANCE
    each = 2 if hg.distance(post_hex, target) == 1 else 1
    total = sum(m.value for m in mods)
    return Odds(
        chance_fraction(total, enemy.INFANTRY_HIT),
        enemy.INFANTRY_HIT,
        tuple(mods),
        ENEMY_FIRE,
        f"{each} loss per platoon on a hit",
    )


def enemy_fire_on_armour(state, post_hex: Hex, unit_id: str, with_atg: bool | None = None) -> Odds:
    """Chance one fresh enemy platoon breaks an armour platoon.

    ``with_atg`` defaults to whether the post's ATGs are real; pass True to ask "if the
    ATGs there were real" (the reveal test uses that).
    """
    post = state.enemy[post_hex]
    if with_atg is None:
        with_atg = post.atg == REAL
    mods = enemy.armour_modifiers(state, post_hex, state.units[unit_id], with_atg)
    if mods is None:
        return NO_CHANCE
    total = sum(m.value for m in mods)
    return Odds(
        chance_fraction(total, enemy.ARMOUR_BREAK),
        enemy.ARMOUR_BREAK,
        tuple(mods),
        ENEMY_FIRE,
        "with ATGs" if with_atg else "without ATGs: adjacent armour only",
    )


def armour_survival(state, post_hex: Hex, unit_id: str, firers) -> Fraction:
    """Chance the armour is broken if ``firers`` try to pin the post first."""
    pin = fire_odds(state, post_hex, firers).pin if firers else Fraction(0)
    return (1 - pin) * enemy_fire_on_armour(state, post_hex, unit_id).probability


@dataclass(frozen=True)
class MortarOdds:
    target: Hex
    landing: dict[Hex, Fraction]  # chance the bombs land in each hex
    effect: dict[Hex, Fraction]  # chance each occupied hex is pinned
    rule: str = MORTARS


def mortar_odds(state, target: Hex) -> MortarOdds:
    """Where a mortar strike on ``target`` may land and how likely each hex is pinned.

    The corner die always keeps the target hex in the three struck hexes; each
    neighbour shares 2 of its 6 corners. A struck hex is pinned on 2+ (5 in 6).
    """
    landing, effect = {}, {}
    hit = chance_fraction(0, MORTAR_HIT)
    for h in [target, *hg.neighbours(target)]:
        if h not in state.board.hex_set:
            continue
        p = Fraction(corner_share(target, h), 6)
        landing[h] = p
        if h in state.enemy or any(u[0] != "A" for u in state.at.get(h, ())):
            effect[h] = p * hit
    return MortarOdds(target, landing, effect)


def reveal_odds(state, post_hex: Hex) -> dict[str, Odds]:
    """Chances of the platoon and of the ATGs proving real if tested now."""
    post = state.enemy[post_hex]
    out = {}
    if post.platoon == "potential":
        mods = enemy.platoon_reveal_modifiers(state, post)
        total = sum(m.value for m in mods)
        out["platoon"] = Odds(
            chance_fraction(total, enemy.REVEAL), enemy.REVEAL, tuple(mods), DECISIONS
        )
    if post.atg == "potential":
        mods = enemy.atg_reveal_modifiers(state, post)
        total = sum(m.value for m in mods)
        out["atg"] = Odds(
            chance_fraction(total, enemy.REVEAL), enemy.REVEAL, tuple(mods), DECISIONS
        )
    return out
