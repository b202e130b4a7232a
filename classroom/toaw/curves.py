"""Supply as a function of distance: the old bands and the new formula (TOAW 9.1.7.2-3).

Pure functions with no map, for the lesson's plot of the decay curves and for the field
code to share. All return a *fraction of force supply* (1.0 = 100%), accept numpy arrays
for ``distance`` and broadcast.

>>> round(float(new_rule_fraction(0, radius=25)), 3)   # right on the supply point
1.1
>>> round(float(new_rule_fraction(14, radius=5, near_supply_unit=True)), 4) == round(
...     float(new_rule_fraction(9, radius=5)), 4)       # treated as 9 MPs instead of 14
True
>>> [float(old_rule_fraction(d, radius=4, route="road")) for d in (0, 4, 5)]
[1.0, 1.0, 0.75]
"""

from __future__ import annotations

from enum import IntEnum
from typing import Literal

import numpy as np

from .errors import SupplyInputError
from .situation import MAX_RADIUS, check_strength

PEAK = 1.10  # TOAW 9.1.7.3: the formula gives 110% right on the supply point
BASE = 1.375  # TOAW 9.1.7.3: supply falls by this factor every supply radius


class OldBand(IntEnum):
    """The four location supply levels of the old rules (TOAW 9.1.7.2)."""

    NONE = 0
    MINIMAL = 1
    LIMITED = 2
    NORMAL = 3
    FULL = 4

    @property
    def fraction(self) -> float:
        return OLD_BAND_FRACTION[self]


OLD_BAND_FRACTION = {
    OldBand.NONE: 0.0,
    OldBand.MINIMAL: 0.25,
    OldBand.LIMITED: 0.50,
    OldBand.NORMAL: 0.75,
    OldBand.FULL: 1.00,
}
OLD_BAND_FRACTIONS = np.array([OLD_BAND_FRACTION[b] for b in OldBand])

Route = Literal["road", "open", "rough"]


def _check_radius(radius: int) -> None:
    if (
        isinstance(radius, bool)
        or not isinstance(radius, int | np.integer)
        or not 0 <= radius <= MAX_RADIUS
    ):
        raise SupplyInputError(
            f"supply radius must be a whole number from 0 to {MAX_RADIUS} (TOAW 9.1.7.2), got {radius!r}"
        )


def _check_distance(distance) -> np.ndarray:
    d = np.asarray(distance, dtype=float)
    if np.any(np.isnan(d)) or np.any(d < 0):
        raise SupplyInputError(f"distances must be numbers >= 0, got {distance!r}")
    return d


def supply_unit_distance(distance, radius: int):
    """Distance a hex within a supply unit's reach is treated as having (TOAW 9.1.7.3).

    The hex counts as one supply radius nearer the supply point, but never nearer than
    the point itself; that floor is what keeps the curve at or below 110%.
    """
    return np.maximum(np.asarray(distance, dtype=float) - radius, 0.0)


def new_rule_fraction(distance, radius: int, strength: float = 100, near_supply_unit=False):
    """Location supply under the new rules: ``s * 1.10 / 1.375 ** (d / R)`` (TOAW 9.1.7.3).

    ``distance`` is in the virtual supply unit's movement points; ``strength`` is the
    supply point's percentage (TOAW 9.1.7.4); ``near_supply_unit`` (bool or bool array)
    applies the supply-unit rule. With a radius of 0 only the supply point itself is
    supplied above zero, the limit of the formula.
    """
    _check_radius(radius)
    check_strength(strength)
    d = _check_distance(distance)
    d = np.where(near_supply_unit, supply_unit_distance(d, radius), d)
    return formula_fraction(d, radius, strength)


def formula_fraction(distance, radius: int, strength):
    """``strength/100 * 1.10 / 1.375 ** (distance / radius)`` without input checks.

    Vectorised over distance and strength; for the field code, which has validated its
    inputs already. A radius of 0 leaves only distance 0 supplied (the formula's limit).
    """
    d = np.asarray(distance, dtype=float)
    if radius == 0:
        decay = np.where(d == 0, 1.0, 0.0)
    else:
        decay = BASE ** (-d / radius)
    return (np.asarray(strength, dtype=float) / 100.0) * PEAK * decay


def old_rule_band(distance, radius: int, route: Route = "road", with_supply_unit=False):
    """Old-rules band of a hex ``distance`` hexes out along an idealised route (TOAW 9.1.7.2).

    The route starts at a supply point on a railway (so the point is fully supplied):

    * ``"road"``: a road across open country. The fully supplied net runs a radius of
      hexes along the road; beyond it, open country carries normal supply at any range.
    * ``"open"``: open country with no road: normal supply at any range.
    * ``"rough"``: rough country (hills, woods) with no road: limited supply within a
      radius of the supplied point, minimal beyond.

    A supply unit next to the hex treats it as a radius nearer (TOAW 9.1.7.3, as read in
    docs/notes-toaw.md), so the radius-limited reaches double. Returns an array of
    :class:`OldBand` values (as ints).
    """
    _check_radius(radius)
    d = _check_distance(distance)
    reach = radius * np.where(with_supply_unit, 2, 1)
    at_point = d == 0
    if route == "road":
        band = np.where(d <= reach, OldBand.FULL, OldBand.NORMAL)
    elif route == "open":
        band = np.where(at_point, OldBand.FULL, OldBand.NORMAL)
    elif route == "rough":
        band = np.where(
            at_point, OldBand.FULL, np.where(d <= reach, OldBand.LIMITED, OldBand.MINIMAL)
        )
    else:
        raise SupplyInputError(f"route must be 'road', 'open' or 'rough', got {route!r}")
    return band.astype(int)


def old_rule_fraction(distance, radius: int, route: Route = "road", with_supply_unit=False):
    """The old-rules curve as a fraction of force supply (see :func:`old_rule_band`)."""
    return OLD_BAND_FRACTIONS[old_rule_band(distance, radius, route, with_supply_unit)]
