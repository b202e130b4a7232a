"""Lines of fire (CA "Fire Attacks", "Enemy Fire", "Mortars"; Figure 5 is lost).

A line runs from hex centre to hex centre. A hex whose interior it crosses
*intervenes*; where it runs exactly along a hexside, each of the two hexes beside it is
a *partial* block if it would block. One partial block costs -1; two make a full block
(docs/rules-notes.md, "Lines of fire").

What blocks depends on who looks:

* terrain: an intervening woods, crest, wooded crest or farm hex, and smoke
  (CA "Mortars": smoke blocks as if it were woods);
* your own fire only: an intervening hex holding one of your rifle platoons, unless
  the firer or the target is on a crest (armour and MMGs never block);
* spotting for mortars: terrain as above, but one partial block is no hindrance.
"""

from __future__ import annotations

from dataclasses import dataclass

from classroom import hexgrid as hg
from classroom.hexgrid import Hex

MAX_RANGE = 5  # CA "Fire Attacks": targets 6 or more hexes away may not be engaged


@dataclass(frozen=True, slots=True)
class LineOfFire:
    """What lies on one line: the hexes that fully and partly block it."""

    blocked_by: tuple[Hex, ...] = ()
    partly_by: tuple[Hex, ...] = ()

    @property
    def blocked(self) -> bool:
        return bool(self.blocked_by) or len(self.partly_by) >= 2

    @property
    def partial(self) -> bool:
        """Exactly one partial block: the line is open, at -1."""
        return not self.blocked and len(self.partly_by) == 1


CLEAR = LineOfFire()


def line_geometry(board, a: Hex, b: Hex) -> tuple[tuple[Hex, ...], tuple[tuple[Hex, Hex], ...]]:
    """Intervening hexes and hexside pairs between ``a`` and ``b`` (cached per board)."""
    key = (a, b)
    cached = board._static_lines.get(key)
    if cached is None:
        through, along = hg.line_between(a, b)
        cached = (tuple(through), tuple(along))
        board._static_lines[key] = cached
    return cached


def _trace(state, a: Hex, b: Hex, blocks) -> LineOfFire:
    through, along = line_geometry(state.board, a, b)
    full = tuple(h for h in through if blocks(h))
    part = tuple(h for pair in along for h in pair if blocks(h))
    if not full and not part:
        return CLEAR
    return LineOfFire(full, part)


def terrain_blocks(state, h: Hex) -> bool:
    """Woods, crests, farms and smoke block any line they intervene in."""
    return h in state.smoke or (h in state.board.hex_set and state.board.blocks(h))


def enemy_line(state, a: Hex, b: Hex) -> LineOfFire:
    """A line for enemy fire: your platoons never block it (CA "Enemy Fire")."""
    return _trace(state, a, b, lambda h: terrain_blocks(state, h))


def friendly_line(state, firer: Hex, target: Hex) -> LineOfFire:
    """A line for your fire: your own rifle platoons in the way block it too.

    CA "Fire Attacks": an intervening hex with one of your rifle platoons blocks your
    fire unless the firer or the target hex is a crest.
    """
    board = state.board
    overhead = board.is_crest(firer) or board.is_crest(target)
    rifles = () if overhead else state.rifle_hexes()

    def blocks(h: Hex) -> bool:
        return terrain_blocks(state, h) or h in rifles

    return _trace(state, firer, target, blocks)


def spotting_clear(state, spotter: Hex, target: Hex) -> bool:
    """CA "Mortars": platoons and a single partial block do not hinder spotting."""
    d = hg.distance(spotter, target)
    if not 1 <= d <= MAX_RANGE:
        return False
    return not enemy_line(state, spotter, target).blocked


def in_range(a: Hex, b: Hex) -> bool:
    return 1 <= hg.distance(a, b) <= MAX_RANGE
