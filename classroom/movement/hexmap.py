"""Flat-topped hexes for the play-by-mail map, numbered the way its orders are written.

The design's directions name the six hexsides of a flat-topped hex: 1 north, 2
north-east, 3 south-east, 4 south, 5 south-west, 6 north-west (PBM "Combining Admin and
Tactical Mode"). Hexes are axial ``(q, r)`` tuples: ``q`` is the column, and north is
``r - 1``. A hex's label is its column and row as four digits, ``CCRR``, with a map
offset so labels never go negative.

>>> step((0, 0), 1), step((0, 0), 3)
((0, -1), (1, 0))
>>> direction_between((2, 3), (1, 3))   # one hex north-west
6
>>> FlatLayout(10).pixel_to_hex(*FlatLayout(10).hex_to_pixel((3, -2)))
(3, -2)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from hexclass.classroom.hexgrid import Hex, Layout, cube_round

from .errors import MovementInputError

# direction number -> axial step, for flat-topped hexes
DIRECTIONS: dict[int, Hex] = {1: (0, -1), 2: (1, -1), 3: (1, 0), 4: (0, 1), 5: (-1, 1), 6: (-1, 0)}
DIRECTION_NAMES = {1: "N", 2: "NE", 3: "SE", 4: "S", 5: "SW", 6: "NW"}
SQRT3 = math.sqrt(3.0)


def step(h: Hex, direction: int) -> Hex:
    """The hex one step from ``h`` in a numbered direction (1-6)."""
    try:
        dq, dr = DIRECTIONS[direction]
    except KeyError:
        raise MovementInputError(f"directions are 1 (N) to 6 (NW), got {direction!r}") from None
    return (h[0] + dq, h[1] + dr)


def neighbours(h: Hex) -> list[Hex]:
    return [step(h, d) for d in DIRECTIONS]


def direction_between(a: Hex, b: Hex) -> int | None:
    """The direction number from ``a`` to an adjacent ``b``, else None."""
    d = (b[0] - a[0], b[1] - a[1])
    for n, v in DIRECTIONS.items():
        if v == d:
            return n
    return None


def opposite(direction: int) -> int:
    return (direction + 2) % 6 + 1


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def to_offset(h: Hex) -> tuple[int, int]:
    """Axial -> (column, row) with odd columns shifted half a hex down."""
    q, r = h
    return q, r + (q - (q & 1)) // 2


def from_offset(col: int, row: int) -> Hex:
    return col, row - (col - (col & 1)) // 2


@dataclass(frozen=True)
class FlatLayout(Layout):
    """Pixel maths for flat-topped hexes, a drop-in for :class:`hexclass.classroom.hexgrid.Layout`."""

    def hex_to_pixel(self, h: Hex) -> tuple[float, float]:
        q, r = h
        return self.size * 1.5 * q + self.origin[0], self.size * SQRT3 * (
            r + q / 2.0
        ) + self.origin[1]

    def pixel_to_hex(self, x: float, y: float) -> Hex:
        px = (x - self.origin[0]) / self.size
        py = (y - self.origin[1]) / self.size
        fq = 2.0 / 3.0 * px
        fr = -1.0 / 3.0 * px + SQRT3 / 3.0 * py
        return cube_round(fq, fr)

    def corner_offset(self, corner: int) -> tuple[float, float]:
        angle = math.radians(60 * corner)
        return self.size * math.cos(angle), -self.size * math.sin(angle)

    def scaled(self, size: float, origin: tuple[float, float]) -> FlatLayout:
        return FlatLayout(size=size, origin=origin)
