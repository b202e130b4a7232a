"""Seeded dice that live inside a game state, and exact chance arithmetic.

Rules code never calls :mod:`random`. Every roll comes from a :class:`Dice`, a PCG32
generator whose whole state is two integers, so a game's dice can be saved, copied and
replayed bit for bit on any machine.

>>> d = Dice(7)
>>> rolls = [d.d6() for _ in range(5)]
>>> rolls == [Dice(7).d6() for _ in range(1)] + rolls[1:]
True
>>> chances(modifier=-3, need=2)        # a die roll of 5 or 6
2
>>> chance_fraction(-3, 2)
Fraction(1, 3)
"""

from __future__ import annotations

from fractions import Fraction

_MASK64 = (1 << 64) - 1
_MULT = 6364136223846793005


class Dice:
    """PCG32 (O'Neill 2014): a small, well-tested generator with a 64-bit state."""

    __slots__ = ("state", "inc", "rolled")

    def __init__(self, seed: int, stream: int = 0x43A) -> None:
        if not isinstance(seed, int) or seed < 0:
            raise ValueError(f"a dice seed must be a non-negative integer, got {seed!r}")
        self.state = 0
        self.inc = ((stream << 1) | 1) & _MASK64
        self.rolled = 0
        self._next32()
        self.state = (self.state + (seed & _MASK64)) & _MASK64
        self._next32()
        self.rolled = 0

    def _next32(self) -> int:
        old = self.state
        self.state = (old * _MULT + self.inc) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        threshold = (0x100000000 - n) % n
        r = self._next32()
        while r < threshold:
            r = self._next32()
        self.rolled += 1
        return r % n

    def d6(self) -> int:
        return self.below(6) + 1

    def snapshot(self) -> tuple[int, int, int]:
        return (self.state, self.inc, self.rolled)

    @classmethod
    def restore(cls, snap: tuple[int, int, int]) -> Dice:
        d = cls.__new__(cls)
        d.state, d.inc, d.rolled = snap
        return d

    def copy(self) -> Dice:
        return Dice.restore(self.snapshot())


class LoadedDice(Dice):
    """Dice that show given faces in order: for replaying a rulebook example exactly.

    >>> d = LoadedDice([3, 5])
    >>> d.d6(), d.d6()
    (3, 5)
    """

    __slots__ = ("faces",)

    def __init__(self, faces) -> None:
        self.faces = list(faces)
        self.state, self.inc, self.rolled = 0, 1, 0

    def below(self, n: int) -> int:
        if not self.faces:
            raise RuntimeError("the loaded dice have no faces left for this roll")
        face = self.faces.pop(0)
        if not 1 <= face <= n:
            raise ValueError(f"a loaded face {face} does not fit a roll of 1-{n}")
        self.rolled += 1
        return face - 1

    def snapshot(self) -> tuple:
        return ("loaded", tuple(self.faces), self.rolled)

    def copy(self) -> LoadedDice:
        d = LoadedDice(self.faces)
        d.rolled = self.rolled
        return d


def chances(modifier: int, need: int) -> int:
    """How many faces of one die reach ``need`` once ``modifier`` is added (0 to 6)."""
    faces = 7 - (need - modifier)  # the faces from the lowest that reaches need up to 6
    if faces <= 0:
        return 0
    return 6 if faces >= 6 else faces


def chance_fraction(modifier: int, need: int) -> Fraction:
    return Fraction(chances(modifier, need), 6)


def any_succeeds(probabilities) -> Fraction:
    """Chance that at least one of several independent events happens."""
    miss = Fraction(1)
    for p in probabilities:
        miss *= 1 - p
    return 1 - miss
