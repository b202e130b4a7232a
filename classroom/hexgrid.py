"""Hex maths on axial coordinates, for pointy-top hexes laid out in horizontal rows.

A hex is a plain ``(q, r)`` tuple: ``r`` counts rows downwards, ``q`` runs along a row
and leans left one step every two rows, as in Red Blob Games' axial system. The third
cube coordinate is ``s = -q - r``.

Directions are numbered anticlockwise starting east; corners are numbered so that
corner ``i`` lies between direction ``i`` and direction ``i + 1``::

    corner 1 (top)                 direction 2 NW   direction 1 NE
    corner 2 (upper left)          direction 3 W    direction 0 E
    corner 0 (upper right)         direction 4 SW   direction 5 SE
    corner 3 (lower left)
    corner 4 (bottom)
    corner 5 (lower right)

>>> distance((0, 0), (2, -1))
2
>>> neighbours((0, 0))[5]
(0, 1)
>>> in_arc((0, 0), 4, (-1, 2))   # the bottom corner's arc holds hexes straight below
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES = ("E", "NE", "NW", "W", "SW", "SE")
CORNER_NAMES = ("upper right", "top", "upper left", "lower left", "bottom", "lower right")


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Hex, b: Hex) -> Hex:
    return (a[0] - b[0], a[1] - b[1])


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between two hexes."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbour(h: Hex, direction: int) -> Hex:
    d = DIRECTIONS[direction % 6]
    return (h[0] + d[0], h[1] + d[1])


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six hexes around ``h``, in direction order."""
    q, r = h
    return ((q + 1, r), (q + 1, r - 1), (q, r - 1), (q - 1, r), (q - 1, r + 1), (q, r + 1))


def direction_to(a: Hex, b: Hex) -> int | None:
    """Direction index from ``a`` to an adjacent ``b``, or None if they are not adjacent."""
    try:
        return DIRECTIONS.index(sub(b, a))
    except ValueError:
        return None


def ring(centre: Hex, radius: int) -> list[Hex]:
    """Hexes exactly ``radius`` steps from ``centre`` (just the centre for radius 0)."""
    if radius == 0:
        return [centre]
    q, r = centre[0] + DIRECTIONS[4][0] * radius, centre[1] + DIRECTIONS[4][1] * radius
    out = []
    for side in range(6):
        dq, dr = DIRECTIONS[side]
        for _ in range(radius):
            out.append((q, r))
            q, r = q + dq, r + dr
    return out


def spiral(centre: Hex, radius: int) -> Iterator[Hex]:
    """Hexes within ``radius`` steps, nearest rings first."""
    for k in range(radius + 1):
        yield from ring(centre, k)


def rotate_180(h: Hex, pivot: Hex = (0, 0)) -> Hex:
    """Point reflection of ``h`` through ``pivot`` (a half turn of the map)."""
    return (2 * pivot[0] - h[0], 2 * pivot[1] - h[1])


# --- arcs -------------------------------------------------------------------------------


def arc_directions(corner: int) -> tuple[int, int]:
    """The two directions bounding the 60-degree arc that faces ``corner``."""
    return corner % 6, (corner + 1) % 6


def in_arc(origin: Hex, corner: int, target: Hex) -> bool:
    """Is ``target`` inside the 60-degree wedge from ``origin`` facing ``corner``?

    The wedge is bounded by the rows of hexes running out through the two hexsides
    that meet at that corner; hexes on those boundary rows count as inside.
    """
    dq, dr = target[0] - origin[0], target[1] - origin[1]
    if dq == 0 and dr == 0:
        return False
    i, j = arc_directions(corner)
    (aq, ar), (bq, br) = DIRECTIONS[i], DIRECTIONS[j]
    det = aq * br - ar * bq  # +-1 for adjacent directions
    a = (dq * br - dr * bq) * det
    b = (aq * dr - ar * dq) * det
    return a >= 0 and b >= 0


def corners_with_arc_containing(direction: int) -> tuple[int, int]:
    """The two corners whose forward arc holds the neighbour in ``direction``."""
    return (direction - 1) % 6, direction % 6


# --- lines of fire ------------------------------------------------------------------------

# Work in axial coordinates scaled by 3: an affine image of the real hex grid, so that
# "passes through the interior" and "runs along a hexside" are unchanged, but every hex
# corner lands on integer coordinates.
_CORNER_OFFSETS_X3 = ((1, 1), (-1, 2), (-2, 1), (-1, -1), (1, -2), (2, -1))


def _cross(ax: int, ay: int, bx: int, by: int) -> int:
    return ax * by - ay * bx


def _segment_in_hex(p0: tuple[int, int], p1: tuple[int, int], h: Hex) -> str | None:
    """How the segment p0-p1 (scaled coordinates) meets hex ``h``.

    Returns "through" if it passes through the interior, "along" if it runs along one of
    the hex's sides for a positive length without entering it, or None.
    """
    cx, cy = 3 * h[0], 3 * h[1]
    corners = [(cx + ox, cy + oy) for ox, oy in _CORNER_OFFSETS_X3]
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    t0, t1 = Fraction(0), Fraction(1)
    on_edge = False
    for k in range(6):
        ax, ay = corners[k]
        bx, by = corners[(k + 1) % 6]
        ex, ey = bx - ax, by - ay
        # inside is to the left of each edge (corners run anticlockwise in these axes)
        num = _cross(ex, ey, p0[0] - ax, p0[1] - ay)
        den = _cross(ex, ey, dx, dy)
        if den == 0:
            if num < 0:
                return None
            if num == 0:
                on_edge = True
            continue
        t = Fraction(-num, den)
        if den > 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 >= t1:
            return None
    if t1 <= t0:
        return None
    return "along" if on_edge else "through"


@dataclass(frozen=True, slots=True)
class LineShape:
    """Which hexes a centre-to-centre line crosses, relative to its start.

    ``through`` are the offsets of hexes whose interior the line crosses; ``along``
    holds pairs of offsets whose shared hexside the line runs along.
    """

    through: tuple[Hex, ...]
    along: tuple[tuple[Hex, Hex], ...]


@cache
def line_shape(dq: int, dr: int) -> LineShape:
    """The intervening hexes of a line from (0, 0) to (dq, dr), end hexes excluded."""
    n = distance((0, 0), (dq, dr))
    p0, p1 = (0, 0), (3 * dq, 3 * dr)
    through: list[Hex] = []
    along: list[Hex] = []
    seen = set()
    # every hex the segment meets lies within n steps of the start and of the end
    for h in spiral((0, 0), n):
        if h in ((0, 0), (dq, dr)) or distance(h, (dq, dr)) > n or h in seen:
            continue
        seen.add(h)
        kind = _segment_in_hex(p0, p1, h)
        if kind == "through":
            through.append(h)
        elif kind == "along":
            along.append(h)
    pairs = []
    for a in along:
        for b in along:
            if a < b and distance(a, b) == 1:
                pairs.append((a, b))
    # order by distance from the start so callers can read the line front to back
    through.sort(key=lambda h: (distance((0, 0), h), h))
    pairs.sort(key=lambda p: (distance((0, 0), p[0]) + distance((0, 0), p[1]), p))
    return LineShape(tuple(through), tuple(pairs))


def line_between(a: Hex, b: Hex) -> tuple[list[Hex], list[tuple[Hex, Hex]]]:
    """Intervening hexes and hexside pairs of the line from ``a`` to ``b``."""
    shape = line_shape(b[0] - a[0], b[1] - a[1])
    through = [(a[0] + q, a[1] + r) for q, r in shape.through]
    along = [((a[0] + x[0], a[1] + x[1]), (a[0] + y[0], a[1] + y[1])) for x, y in shape.along]
    return through, along


# --- screen layout -------------------------------------------------------------------------

SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class Layout:
    """Converts between hexes and pixels for pointy-top hexes.

    ``size`` is the centre-to-corner distance in pixels; ``origin`` is the pixel position
    of hex (0, 0). Every click and every drawing call goes through one Layout.

    >>> lay = Layout(size=10, origin=(100.0, 50.0))
    >>> lay.pixel_to_hex(*lay.hex_to_pixel((3, -2)))
    (3, -2)
    """

    size: float
    origin: tuple[float, float] = (0.0, 0.0)

    def hex_to_pixel(self, h: Hex) -> tuple[float, float]:
        q, r = h
        x = self.size * SQRT3 * (q + r / 2.0) + self.origin[0]
        y = self.size * 1.5 * r + self.origin[1]
        return x, y

    def pixel_to_hex(self, x: float, y: float) -> Hex:
        px = (x - self.origin[0]) / self.size
        py = (y - self.origin[1]) / self.size
        fq = SQRT3 / 3.0 * px - py / 3.0
        fr = 2.0 / 3.0 * py
        return cube_round(fq, fr)

    def corner_offset(self, corner: int) -> tuple[float, float]:
        """Pixel offset from a hex centre to one of its corners (numbered as above)."""
        angle = math.radians(30 + 60 * corner)
        return self.size * math.cos(angle), -self.size * math.sin(angle)

    def polygon(self, h: Hex) -> list[tuple[float, float]]:
        cx, cy = self.hex_to_pixel(h)
        return [(cx + dx, cy + dy) for dx, dy in (self.corner_offset(c) for c in range(6))]

    def scaled(self, size: float, origin: tuple[float, float]) -> Layout:
        return Layout(size=size, origin=origin)


def cube_round(fq: float, fr: float) -> Hex:
    """Round fractional axial coordinates to the hex that contains them."""
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return (int(q), int(r))


def bounding_box(hexes: Iterable[Hex], layout: Layout) -> tuple[float, float, float, float]:
    """Pixel box (min x, min y, max x, max y) enclosing the hexes' outlines."""
    xs, ys = [], []
    for h in hexes:
        for x, y in layout.polygon(h):
            xs.append(x)
            ys.append(y)
    return min(xs), min(ys), max(xs), max(ys)
