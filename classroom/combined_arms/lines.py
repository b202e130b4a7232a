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

The geometry of every line on the standard board is worked out once per process and
kept as bit masks over the 79 hexes, so a line test is two ANDs and a bit count.
"""

from __future__ import annotations

from dataclasses import dataclass

from classroom import hexgrid as hg
from classroom.hexgrid import Hex

from .board import DIST

MAX_RANGE = 5  # CA "Fire Attacks": targets 6 or more hexes away may not be engaged


@dataclass(frozen=True, slots=True)
class LineOfFire:
    """What blocks one line, as masks over the board's hexes (see ``hex_index``)."""

    full: int = 0  # intervening hexes that block
    part: int = 0  # hexside hexes that block

    @property
    def blocked(self) -> bool:
        return bool(self.full) or self.part.bit_count() >= 2

    @property
    def partial(self) -> bool:
        """Exactly one partial block: the line is open, at -1."""
        return not self.full and self.part.bit_count() == 1

    @property
    def blocked_by(self) -> tuple[Hex, ...]:
        return hexes_of_mask(self.full)

    @property
    def partly_by(self) -> tuple[Hex, ...]:
        return hexes_of_mask(self.part)


CLEAR = LineOfFire()

_HEXES: list[Hex] = []
_INDEX: dict[Hex, int] = {}
# _PAIRS[a][b]: the masks of the line from a to b, one row per origin (a row is quicker
# to find than a pair of hexes among thousands)
_PAIRS: dict[Hex, dict[Hex, tuple[int, int]]] = {}


def _build() -> None:
    from .board import standard_hexes

    _HEXES.extend(standard_hexes())
    _INDEX.update({h: i for i, h in enumerate(_HEXES)})


def hex_index(h: Hex) -> int:
    if not _INDEX:
        _build()
    return _INDEX[h]


def mask_of(hexes) -> int:
    if not _INDEX:
        _build()
    m = 0
    for h in hexes:
        i = _INDEX.get(h)
        if i is not None:
            m |= 1 << i
    return m


def hexes_of_mask(mask: int) -> tuple[Hex, ...]:
    if not _INDEX:
        _build()
    out = []
    while mask:
        low = mask & -mask
        out.append(_HEXES[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def pair_masks(a: Hex, b: Hex) -> tuple[int, int]:
    """(intervening mask, hexside mask) of the line from ``a`` to ``b``."""
    try:
        return _PAIRS[a][b]
    except KeyError:
        through, along = hg.line_between(a, b)
        m = (mask_of(through), mask_of(h for pair in along for h in pair))
        _PAIRS.setdefault(a, {})[b] = m
        return m


def trace(a: Hex, b: Hex, blockers: int) -> LineOfFire:
    through, along = pair_masks(a, b)
    full = through & blockers
    part = along & blockers
    if not full and not part:
        return CLEAR
    return LineOfFire(full, part)


def terrain_mask(state) -> int:
    """Woods, crests, farms and smoke: what blocks any line."""
    m = state.board.block_mask
    if state.smoke:
        m |= mask_of(state.smoke)
    return m


def terrain_blocks(state, h: Hex) -> bool:
    return h in state.smoke or (h in state.board.hex_set and state.board.blocks(h))


def enemy_line(state, a: Hex, b: Hex) -> LineOfFire:
    """A line for enemy fire: your platoons never block it (CA "Enemy Fire")."""
    return trace(a, b, terrain_mask(state))


def friendly_line(state, firer: Hex, target: Hex) -> LineOfFire:
    """A line for your fire: your own rifle platoons in the way block it too.

    CA "Fire Attacks": an intervening hex with one of your rifle platoons blocks your
    fire unless the firer or the target hex is a crest.
    """
    board = state.board
    blockers = terrain_mask(state)
    if not (board.is_crest(firer) or board.is_crest(target)):
        blockers |= state.rifle_mask()
    return trace(firer, target, blockers)


def spotting_clear(state, spotter: Hex, target: Hex) -> bool:
    """CA "Mortars": platoons and a single partial block do not hinder spotting."""
    row = DIST.get(spotter)
    d = row.get(target) if row is not None else None
    if d is None:  # a hex off the standard board: only a hand-made question asks
        d = hg.distance(spotter, target)
    if not 1 <= d <= MAX_RANGE:
        return False
    return not line_blocked(spotter, target, terrain_mask(state))


def line_blocked(a: Hex, b: Hex, blockers: int) -> bool:
    """``trace(a, b, blockers).blocked``, without building the :class:`LineOfFire`."""
    through, along = pair_masks(a, b)
    return bool(through & blockers) or (along & blockers).bit_count() >= 2


def in_range(a: Hex, b: Hex) -> bool:
    return 1 <= hg.distance(a, b) <= MAX_RANGE
