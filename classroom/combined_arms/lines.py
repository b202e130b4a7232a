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

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.hexgrid import Hex

from .board import DIST, hex_index, hexes_of_mask, mask_of  # noqa: F401 - hex_index: its old address

MAX_RANGE = 5  # CA "Fire Attacks": targets 6 or more hexes away may not be engaged
PARTIAL_BLOCKS_BLOCK = 2  # docs/rules-notes.md "Lines of fire": two partial blocks block


def within_range(d: int) -> bool:
    """CA "Fire Attacks": a hex 1 to :data:`MAX_RANGE` hexes away may be engaged (the
    same limit for enemy fire and for spotting, CA "Enemy Fire", "Mortars")."""
    return 1 <= d <= MAX_RANGE


def line_penalty(full: int, part: int) -> int | None:
    """What a line's blocking hexes do to a roll along it: the one place the rule lives.

    ``full`` is the mask of blocking hexes the line crosses, ``part`` of those beside
    the hexsides it runs along. None: blocked (one crossed blocker, or two partial blocks
    together, docs/rules-notes.md "Lines of fire"); else the partial blocks, each -1
    (CA "Fire Attacks", "Enemy Fire").
    """
    if full:
        return None
    n = part.bit_count()
    return None if n >= PARTIAL_BLOCKS_BLOCK else n


def line_cost(a: Hex, b: Hex, blockers: int) -> int | None:
    """:func:`line_penalty` of the line from ``a`` to ``b`` (the fast form: no
    :class:`LineOfFire` is built); ``blockers`` is a mask such as :func:`terrain_mask`."""
    through, along = pair_masks(a, b)
    return line_penalty(through & blockers, along & blockers)


def friendly_blockers(terrain: int, rifles: int, crest_end: bool) -> int:
    """CA "Fire Attacks": what blocks your own fire: ``terrain`` (:func:`terrain_mask`)
    and your rifle platoons (``rifles``, a mask), unless the firer or the target stands
    on a crest (``crest_end``)."""
    return terrain if crest_end else terrain | rifles


@dataclass(frozen=True, slots=True)
class LineOfFire:
    """What blocks one line, as masks over the board's hexes (see ``hex_index``)."""

    full: int = 0  # intervening hexes that block
    part: int = 0  # hexside hexes that block

    @property
    def blocked(self) -> bool:
        return line_penalty(self.full, self.part) is None

    @property
    def partial(self) -> bool:
        """Exactly one partial block: the line is open, at -1."""
        return line_penalty(self.full, self.part) == 1

    @property
    def blocked_by(self) -> tuple[Hex, ...]:
        return hexes_of_mask(self.full)

    @property
    def partly_by(self) -> tuple[Hex, ...]:
        return hexes_of_mask(self.part)


CLEAR = LineOfFire()

# _PAIRS[a][b]: the masks of the line from a to b, one row per origin (a row is quicker
# to find than a pair of hexes among thousands)
_PAIRS: dict[Hex, dict[Hex, tuple[int, int]]] = {}


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


def enemy_line(state, a: Hex, b: Hex) -> LineOfFire:
    """A line for enemy fire: your platoons never block it (CA "Enemy Fire")."""
    return trace(a, b, terrain_mask(state))


def friendly_line(state, firer: Hex, target: Hex) -> LineOfFire:
    """A line for your fire: your own rifle platoons in the way block it too.

    CA "Fire Attacks": an intervening hex with one of your rifle platoons blocks your
    fire unless the firer or the target hex is a crest.
    """
    board = state.board
    crest_end = board.is_crest(firer) or board.is_crest(target)
    return trace(
        firer, target, friendly_blockers(terrain_mask(state), state.rifle_mask(), crest_end)
    )


def spotting_clear(state, spotter: Hex, target: Hex) -> bool:
    """CA "Mortars": platoons and a single partial block do not hinder spotting."""
    row = DIST.get(spotter)
    d = row.get(target) if row is not None else None
    if d is None:  # a hex off the standard board: only a hand-made question asks
        d = hg.distance(spotter, target)
    if not within_range(d):
        return False
    return line_cost(spotter, target, terrain_mask(state)) is not None
