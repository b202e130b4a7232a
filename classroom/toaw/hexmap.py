"""A rectangular TOAW map of hexes: terrain, roads, railways and hexside features.

Hexes are axial ``(q, r)`` tuples as in :mod:`hexclass.classroom.hexgrid` (pointy-top hexes in
horizontal rows). A W x H map holds rows ``r = 0 .. H-1``; in each row the columns
``col = 0 .. W-1`` are laid out "odd-r" style (odd rows sit half a hex to the right), so
``q = col - r // 2``. Arrays are indexed ``[row, col]`` and flattened row by row, which
is the node numbering the graph code uses.

A :class:`HexMap` is a value: every edit returns a new map, copying two small arrays
(90 kB for 300 x 300), which is cheap enough for a click-at-a-time lesson editor.

>>> m = HexMap.from_ascii(["..u", ".h."], ["rr.", "..."])
>>> m.terrain_at((2, 0)).name, m.has_road((1, 0)), m.contains((2, 1)), m.contains((3, 1))
('URBAN', True, True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType

import numpy as np

from hexclass.classroom import hexgrid
from hexclass.classroom.hexgrid import Hex

from .errors import SupplyInputError
from .terrain import FEATURE_CHARS, TERRAIN_CHARS, Feature, HexsideFeature, Terrain

Hexside = frozenset[Hex]


def hexside(a: Hex, b: Hex) -> Hexside:
    """The hexside shared by two adjacent hexes (order does not matter)."""
    if hexgrid.distance(a, b) != 1:
        raise SupplyInputError(f"a hexside needs two adjacent hexes, got {a} and {b}")
    return frozenset((a, b))


def offset_to_axial(col: int, row: int) -> Hex:
    """Column and row on the rectangular map to the axial hex."""
    return (col - (row >> 1), row)


def axial_to_offset(h: Hex) -> tuple[int, int]:
    """Axial hex to (column, row) on the rectangular map."""
    q, r = h
    return (q + (r >> 1), r)


@lru_cache(maxsize=8)
def neighbour_table(width: int, height: int) -> np.ndarray:
    """For every node, its six neighbours' node numbers in hexgrid direction order.

    Shape ``(width * height, 6)``; -1 where the neighbour is off the map. Cached per map
    size and read-only.
    """
    rows = np.repeat(np.arange(height), width)
    cols = np.tile(np.arange(width), height)
    table = np.full((width * height, 6), -1, dtype=np.int64)
    for k, (dq, dr) in enumerate(hexgrid.DIRECTIONS):
        nr = rows + dr
        nc = cols - (rows >> 1) + dq + (nr >> 1)
        ok = (nr >= 0) & (nr < height) & (nc >= 0) & (nc < width)
        table[ok, k] = (nr * width + nc)[ok]
    table.flags.writeable = False
    return table


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.array(a, copy=True)
    a.flags.writeable = False
    return a


@dataclass(frozen=True, eq=False)
class HexMap:
    """Terrain and features of a rectangular map.

    ``terrain`` and ``features`` are ``(height, width)`` uint8 arrays of
    :class:`Terrain` and :class:`Feature` values; ``hexsides`` maps a hexside (a
    frozenset of two adjacent hexes) to a :class:`HexsideFeature`.
    """

    terrain: np.ndarray
    features: np.ndarray
    hexsides: Mapping[Hexside, HexsideFeature] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        t = np.asarray(self.terrain)
        f = np.asarray(self.features)
        if t.ndim != 2 or t.shape != f.shape or 0 in t.shape:
            raise SupplyInputError(
                "terrain and features must be non-empty 2-D arrays of one shape (rows, columns), "
                f"got {t.shape} and {f.shape}"
            )
        if t.min() < 0 or t.max() > max(Terrain):
            raise SupplyInputError(
                f"terrain codes must lie in 0..{max(Terrain)}, got {t.min()}..{t.max()}"
            )
        if f.min() < 0 or f.max() > sum(Feature):
            raise SupplyInputError(
                f"feature flags must lie in 0..{int(sum(Feature))}, got {f.max()}"
            )
        object.__setattr__(self, "terrain", _frozen(t.astype(np.uint8)))
        object.__setattr__(self, "features", _frozen(f.astype(np.uint8)))
        sides = dict(self.hexsides)
        for side, feat in sides.items():
            a, b = tuple(side)
            hexside(a, b)
            if not (self.contains(a) and self.contains(b)):
                raise SupplyInputError(f"hexside {sorted(side)} must lie between two map hexes")
            sides[side] = HexsideFeature(feat)
        object.__setattr__(self, "hexsides", MappingProxyType(sides))

    # --- construction ------------------------------------------------------------------

    @classmethod
    def blank(cls, width: int, height: int, terrain: Terrain = Terrain.OPEN) -> HexMap:
        """A map of one terrain with no features."""
        if width < 1 or height < 1:
            raise SupplyInputError(f"map size must be at least 1 x 1, got {width} x {height}")
        return cls(
            np.full((height, width), int(terrain), dtype=np.uint8),
            np.zeros((height, width), dtype=np.uint8),
        )

    @classmethod
    def from_ascii(cls, terrain_rows: list[str], feature_rows: list[str] | None = None) -> HexMap:
        """Build a map from one character per hex (see ``TERRAIN_CHARS``/``FEATURE_CHARS``).

        Row ``r`` of the strings is map row ``r``; character ``c`` is column ``c``.
        Spaces are ignored, so odd rows may be indented to look like a hex map.
        """
        t_rows = [row.replace(" ", "") for row in terrain_rows]
        f_rows = [row.replace(" ", "") for row in feature_rows] if feature_rows else None
        widths = {len(r) for r in t_rows} | ({len(r) for r in f_rows} if f_rows else set())
        if len(widths) != 1 or (f_rows and len(f_rows) != len(t_rows)):
            raise SupplyInputError("every terrain and feature row must have the same length")
        terrain = [[_char(TERRAIN_CHARS, ch, "terrain") for ch in row] for row in t_rows]
        features = (
            [[_char(FEATURE_CHARS, ch, "feature") for ch in row] for row in f_rows]
            if f_rows
            else np.zeros((len(t_rows), widths.pop()), dtype=np.uint8)
        )
        return cls(np.array(terrain, dtype=np.uint8), np.array(features, dtype=np.uint8))

    # --- geometry -------------------------------------------------------------------------

    @property
    def width(self) -> int:
        return int(self.terrain.shape[1])

    @property
    def height(self) -> int:
        return int(self.terrain.shape[0])

    @property
    def size(self) -> int:
        return self.width * self.height

    def contains(self, h: Hex) -> bool:
        col, row = axial_to_offset(h)
        return 0 <= row < self.height and 0 <= col < self.width

    def index(self, h: Hex) -> int:
        """Node number of a hex; raises SupplyInputError if it is off the map."""
        self.require(h)
        col, row = axial_to_offset(h)
        return row * self.width + col

    def hex_at(self, index: int) -> Hex:
        row, col = divmod(int(index), self.width)
        return offset_to_axial(col, row)

    def require(self, h: Hex, what: str = "hex") -> None:
        if not (isinstance(h, tuple) and len(h) == 2 and self.contains(h)):
            raise SupplyInputError(
                f"{what} {h!r} is off the map: expected an axial (q, r) with row r in "
                f"0..{self.height - 1} and column q + r//2 in 0..{self.width - 1}"
            )

    def hexes(self) -> Iterator[Hex]:
        """Every hex, row by row (node order)."""
        for row in range(self.height):
            for col in range(self.width):
                yield offset_to_axial(col, row)

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        """The neighbours of ``h`` that are on the map."""
        return tuple(n for n in hexgrid.neighbours(h) if self.contains(n))

    def neighbour_table(self) -> np.ndarray:
        return neighbour_table(self.width, self.height)

    # --- lookups ---------------------------------------------------------------------------

    def terrain_at(self, h: Hex) -> Terrain:
        col, row = self._cell(h)
        return Terrain(int(self.terrain[row, col]))

    def features_at(self, h: Hex) -> Feature:
        col, row = self._cell(h)
        return Feature(int(self.features[row, col]))

    def has_road(self, h: Hex) -> bool:
        return bool(self.features_at(h) & (Feature.ROAD | Feature.IMPROVED_ROAD))

    def has_improved_road(self, h: Hex) -> bool:
        return bool(self.features_at(h) & Feature.IMPROVED_ROAD)

    def has_rail(self, h: Hex) -> bool:
        return bool(self.features_at(h) & Feature.RAIL)

    def hexside_at(self, a: Hex, b: Hex) -> HexsideFeature | None:
        return self.hexsides.get(frozenset((a, b)))

    # --- edits (each returns a new map) ------------------------------------------------------

    def with_terrain(self, h: Hex, terrain: Terrain) -> HexMap:
        col, row = self._cell(h)
        t = self.terrain.copy()
        t[row, col] = int(Terrain(terrain))
        return HexMap(t, self.features, self.hexsides)

    def with_features(self, h: Hex, features: Feature) -> HexMap:
        col, row = self._cell(h)
        f = self.features.copy()
        f[row, col] = int(Feature(features))
        return HexMap(self.terrain, f, self.hexsides)

    def with_feature(self, h: Hex, feature: Feature, present: bool = True) -> HexMap:
        """Add (or remove) one feature at a hex, keeping the others."""
        old = self.features_at(h)
        return self.with_features(h, (old | feature) if present else (old & ~feature))

    def with_hexside(self, a: Hex, b: Hex, feature: HexsideFeature | None) -> HexMap:
        """Set (or with None clear) the feature on the hexside between ``a`` and ``b``."""
        side = hexside(a, b)
        sides = dict(self.hexsides)
        if feature is None:
            sides.pop(side, None)
        else:
            sides[side] = HexsideFeature(feature)
        return HexMap(self.terrain, self.features, sides)

    def with_road_along(self, path: Iterable[Hex], improved: bool = False) -> HexMap:
        """Put a road (or improved road) on every hex of ``path``."""
        flag = Feature.IMPROVED_ROAD if improved else Feature.ROAD
        f = self.features.copy()
        for h in path:
            col, row = self._cell(h)
            f[row, col] |= int(flag)
        return HexMap(self.terrain, f, self.hexsides)

    def _cell(self, h: Hex) -> tuple[int, int]:
        self.require(h)
        return axial_to_offset(h)


def _char(table: Mapping[str, int], ch: str, what: str) -> int:
    try:
        return int(table[ch])
    except KeyError:
        raise SupplyInputError(
            f"unknown {what} character {ch!r}: expected one of {''.join(table)}"
        ) from None
