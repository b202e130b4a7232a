"""Scoring (CA "Victory").

At the end every unrevealed enemy counter is tested, then:

* +1 per real ATG counter still in play;
* +2 per enemy platoon still in play, +2 per ATG counter broken;
* +4 per enemy platoon broken;
* +2 per exploiting platoon of yours, but those beyond the number of enemy platoons
  broken count only when no real enemy platoon is left in play;
* -2 per platoon of yours broken;
* -1 per turn played after turn 18 (not in the easier game).

20 or more wins.

>>> s = score_from_tally(enemy_in_play=2, real_atgs_in_play=0, atgs_broken=1,
...                      enemy_broken=3, exploited=3, friendly_broken=2, turns=20)
>>> s.total, s.won
(18, False)
>>> score_from_tally(2, 0, 1, 3, 3, 2, 20, easier=True).total
20
"""

from __future__ import annotations

from dataclasses import dataclass

from .reasons import VICTORY
from .units import REAL

WIN = 20
DEDUCTION_FROM = 18


@dataclass(frozen=True)
class ScoreLine:
    label: str
    count: int
    each: int

    @property
    def points(self) -> int:
        return self.count * self.each


@dataclass(frozen=True)
class Score:
    lines: tuple[ScoreLine, ...]
    turns: int
    easier: bool

    @property
    def total(self) -> int:
        return sum(line.points for line in self.lines)

    @property
    def won(self) -> bool:
        return self.total >= WIN

    def as_rows(self) -> list[dict]:
        return [
            {"item": ln.label, "count": ln.count, "each": ln.each, "points": ln.points}
            for ln in self.lines
        ]

    def __str__(self) -> str:
        rows = [f"  {ln.label}: {ln.count} x {ln.each:+d} = {ln.points:+d}" for ln in self.lines]
        verdict = "victory" if self.won else "defeat"
        return "\n".join([f"Score {self.total} ({verdict}; {WIN} wins) {VICTORY}", *rows])


def counted_exploiters(exploited: int, enemy_broken: int, enemy_in_play: int) -> int:
    """Exploiters beyond the enemy platoons broken count only if none is left to cut the road."""
    if enemy_in_play == 0:
        return exploited
    return min(exploited, enemy_broken)


def score_from_tally(
    enemy_in_play: int,
    real_atgs_in_play: int,
    atgs_broken: int,
    enemy_broken: int,
    exploited: int,
    friendly_broken: int,
    turns: int,
    easier: bool = False,
    handicap: int = 0,
) -> Score:
    lines = [
        ScoreLine("real ATG counters still in play", real_atgs_in_play, 1),
        ScoreLine("enemy platoons still in play", enemy_in_play, 2),
        ScoreLine("ATG counters broken", atgs_broken, 2),
        ScoreLine("enemy platoons broken", enemy_broken, 4),
        ScoreLine(
            "your platoons exploiting",
            counted_exploiters(exploited, enemy_broken, enemy_in_play),
            2,
        ),
        ScoreLine("your platoons broken", friendly_broken, -2),
    ]
    if exploited > lines[4].count:
        lines.insert(
            5,
            ScoreLine(
                "exploiters not counted (real enemy platoons remain)", exploited - lines[4].count, 0
            ),
        )
    late = 0 if easier else max(0, turns - DEDUCTION_FROM)
    lines.append(ScoreLine(f"turns after turn {DEDUCTION_FROM}", late, -1))
    if handicap:  # CA p.7: the bonus the defender granted when bidding
        lines.append(ScoreLine("handicap bonus granted by the defender", 1, handicap))
    return Score(tuple(lines), turns, easier)


def score_state(state, turns: int) -> Score:
    """Score a state whose enemy counters have all been revealed."""
    in_play = sum(1 for p in state.enemy.values() if p.platoon == REAL)
    atgs = sum(1 for p in state.enemy.values() if p.atg == REAL)
    return score_from_tally(
        enemy_in_play=in_play,
        real_atgs_in_play=atgs,
        atgs_broken=state.atgs_broken,
        enemy_broken=state.enemy_platoons_broken,
        exploited=len(state.exploited()),
        friendly_broken=len(state.broken_friendly()),
        turns=turns,
        easier=state.options.easier_game,
        handicap=state.options.handicap,
    )
