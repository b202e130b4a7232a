"""What ending the game now would score: the exact distribution, and planning copies.

Ending the game (CA "Victory") tests every counter still unrevealed, in the enemy's
activation order, the platoon before its ATGs, then scores the tally. The tests are
dice, so the score of ending now is a random number; :func:`end_distribution` works
its exact distribution out from the same reveal modifiers the engine rolls with
(:func:`~.enemy.platoon_reveal_modifiers`, :func:`~.enemy.atg_reveal_modifiers`),
including the -1 once 2 real ATGs or 3 real platoons are out, which couples the tests.
A search bot compares it with playing on.

:func:`planning_copy` is the only way a bot should look ahead: a copy of the state
whose dice are re-seeded from the bot's own random numbers, so nothing it tries can
read, or move, the game's own dice stream.

>>> from hexclass.classroom.combined_arms import new_game
>>> g = new_game(4)
>>> d = end_distribution(g)
>>> abs(sum(d.values()) - 1) < 1e-12
True
"""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction

from hexclass.classroom.dice import Dice, chances

from .enemy import REVEAL, activation_order
from .state import GameState
from .units import EXPLOITED, POTENTIAL, REAL
from .victory import DEDUCTION_FROM, WIN, counted_exploiters

LATE_ATGS, LATE_PLATOONS = 2, 3  # CA "Enemy Decisions": -1 once this many are revealed real


def planning_copy(state: GameState, rng: random.Random) -> GameState:
    """A copy of ``state`` to plan on, its dice re-seeded from ``rng`` (never the game's).

    The copy's dice are a fresh generator seeded by ``rng``; the original state, its
    dice included, is left exactly as it was.
    """
    out = state.copy()
    out.dice = Dice(rng.getrandbits(62))
    return out


def _reveal_p(total: int) -> float:
    """Chance a reveal die (CA "Enemy Decisions") reaches 5 with modifier ``total``."""
    return chances(total, REVEAL) / 6


def _platoon_p(atg, atg_removed: bool, late: bool) -> float:
    # same modifiers as enemy.platoon_reveal_modifiers: +1 ATG counter; -1 ATGs removed
    # (dropped once late); -1 late
    total = 0
    if atg is not None:
        total += 1
    elif atg_removed and not late:
        total -= 1
    if late:
        total -= 1
    return _reveal_p(total)


def _atg_p(platoon_real: bool, late: bool) -> float:
    # same modifiers as enemy.atg_reveal_modifiers: +2 platoon revealed; -1 late
    return _reveal_p((2 if platoon_real else 0) - (1 if late else 0))


def end_distribution(state: GameState, turns: int | None = None) -> dict[int, float]:
    """Score -> chance, were the game ended now (after ``turns``; default the turn before).

    Walks the final reveal (CA "Victory") over every post in activation order, keeping
    the revealed-real counts (they change later odds) and whether a real enemy platoon
    is still in play (it limits the exploiters that count).
    """
    if state.options.enemy_player:
        raise ValueError(
            "with a live defender (CA p.7) the final reveal follows the secret deployment, "
            "not dice: its odds are not the attacker's to know"
        )
    if turns is None:
        turns = state.turn - 1 if not state.over else state.result.turns
    # key: (real platoons revealed, real ATGs revealed, a real platoon in play, points)
    dist: dict[tuple, float] = defaultdict(float)
    dist[(state.real_platoons_revealed, state.real_atgs_revealed, False, 0)] = 1.0
    order = activation_order(state)
    rest = [h for h, p in state.enemy.items() if p.platoon is None and p.atg is not None]
    for h in order + rest:
        post = state.enemy[h]
        nxt: dict[tuple, float] = defaultdict(float)
        for (rp, ra, live, pts), p in dist.items():
            for (rp2, ra2, plat, atg), q in _post_outcomes(post, rp, ra, h in order):
                nxt[(rp2, ra2, live or plat, pts + 2 * plat + atg)] += p * q
        dist = nxt
    fixed = 2 * state.atgs_broken + 4 * state.enemy_platoons_broken
    fixed -= 2 * sum(1 for u in state.units.values() if u.where == "broken")
    if not state.options.easier_game:
        fixed -= max(0, turns - DEDUCTION_FROM)
    fixed += state.options.handicap  # CA p.7: a bonus granted when bidding (0 solitaire)
    exploited = sum(1 for u in state.units.values() if u.where == EXPLOITED)
    out: dict[int, float] = defaultdict(float)
    for (_rp, _ra, live, pts), p in dist.items():
        ex = counted_exploiters(exploited, state.enemy_platoons_broken, 1 if live else 0)
        out[fixed + pts + 2 * ex] += p
    return dict(out)


def _post_outcomes(post, rp: int, ra: int, has_platoon: bool = True):
    """((rp, ra, platoon real, ATG real), chance) for one post's final reveal tests."""
    late = ra >= LATE_ATGS or rp >= LATE_PLATOONS
    out = []
    if post.platoon == POTENTIAL:
        p = _platoon_p(post.atg, post.atg_removed, late)
        if p < 1:
            out.append(((rp, ra, False, False), 1 - p))  # nothing there: both counters go
        if p > 0:
            for (rp2, ra2, plat, atg), q in _atg_outcomes(post.atg, True, rp + 1, ra):
                out.append(((rp2, ra2, plat, atg), p * q))
        return out
    return _atg_outcomes(post.atg, post.platoon == REAL, rp, ra, has_platoon)


def _atg_outcomes(atg, platoon_real: bool, rp: int, ra: int, has_platoon: bool = True):
    if atg != POTENTIAL:
        return [((rp, ra, platoon_real, atg == REAL), 1.0)]
    late = ra >= LATE_ATGS or rp >= LATE_PLATOONS
    p = _atg_p(platoon_real, late)
    out = []
    if p < 1:
        out.append(((rp, ra, platoon_real, False), 1 - p))
    if p > 0:
        # real ATGs make the platoon real too (counted as revealed if it was potential)
        if not has_platoon:  # ATGs left without a platoon counter stay alone
            out.append(((rp, ra + 1, False, True), p))
        else:
            out.append(((rp + (0 if platoon_real else 1), ra + 1, True, True), p))
    return out


def end_value(state: GameState) -> tuple[float, float]:
    """(expected score, chance of a win) were the game ended now."""
    dist = end_distribution(state)
    mean = sum(s * p for s, p in dist.items())
    win = sum(p for s, p in dist.items() if s >= WIN)
    return mean, win


def end_distribution_exact(state: GameState) -> dict[int, Fraction]:
    """The same distribution in exact fractions (for tests and the coach's wording)."""
    return {s: Fraction(p).limit_denominator(6**12) for s, p in end_distribution(state).items()}


__all__ = ["planning_copy", "end_distribution", "end_value", "end_distribution_exact"]
