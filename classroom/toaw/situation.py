"""Who is where: supply sources, supply units, friendly and enemy units, map control.

A :class:`Situation` is a frozen value built from frozensets of hexes, so placing or
removing one thing (a click in the lesson) is a single cheap ``with_*``/``without_*``
call. :class:`SupplySettings` holds the scenario-level switches of TOAW 9.1.7.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from numbers import Integral, Real

from hexclass.classroom.hexgrid import Hex

from .errors import SupplyInputError
from .hexmap import HexMap, Hexside, hexside
from .terrain import Terrain, terrain_rule

MIN_STRENGTH = 1  # TOAW 9.1.7.4: variable supply points run from 1% ...
MAX_STRENGTH = 250  # ... to 250% of full
MAX_RADIUS = 100  # TOAW 9.1.7.2: the force supply radius runs from 0 to 100
DEFAULT_RADIUS = 4  # TOAW 9.1.7.2: four hexes unless the scenario says otherwise
MAX_ROAD_DIVISOR = 10  # TOAW 9.1.7.3 / 8.5.2: 1 (no effect) or 2..10


class Rules(Enum):
    """Which supply method computes location supply (TOAW 9.1.7.2 / 9.1.7.3)."""

    OLD = "old"
    NEW = "new"


@dataclass(frozen=True, slots=True)
class Source:
    """A friendly supply point with its strength in percent of full (TOAW 9.1.7.4)."""

    hex: Hex
    strength: int = 100

    def __post_init__(self) -> None:
        check_strength(self.strength)


def check_strength(strength: object) -> None:
    if (
        isinstance(strength, bool)
        or not isinstance(strength, Real)
        or not MIN_STRENGTH <= strength <= MAX_STRENGTH
    ):
        raise SupplyInputError(
            f"supply point strength must be a percentage from {MIN_STRENGTH} to "
            f"{MAX_STRENGTH} (TOAW 9.1.7.4), got {strength!r}"
        )


@dataclass(frozen=True)
class Situation:
    """The positions that supply depends on, for the side whose supply is traced.

    * ``sources``: supply points (one per hex);
    * ``supply_units``: friendly units with a supply capability (TOAW 9.1.7.3);
    * ``friendly_units`` / ``enemy_units``: hexes holding land units of each side
      (a supply unit also counts as a friendly unit);
    * ``enemy_controlled``: hexes owned by the enemy (all others are friendly);
    * ``damaged_rail``: hexes whose railway is broken (TOAW 9.1.7.2, 10.4.6);
    * ``muddy``: hexes that are muddy this turn (TOAW 9.1.3, 9.1.7.2);
    * ``destroyed_bridges``: major-river hexsides whose road bridge is down (TOAW 9.1.7.3).
    """

    sources: tuple[Source, ...] = ()
    supply_units: frozenset[Hex] = frozenset()
    friendly_units: frozenset[Hex] = frozenset()
    enemy_units: frozenset[Hex] = frozenset()
    enemy_controlled: frozenset[Hex] = frozenset()
    damaged_rail: frozenset[Hex] = frozenset()
    muddy: frozenset[Hex] = frozenset()
    destroyed_bridges: frozenset[Hexside] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        for name in (
            "supply_units",
            "friendly_units",
            "enemy_units",
            "enemy_controlled",
            "damaged_rail",
            "muddy",
            "destroyed_bridges",
        ):
            object.__setattr__(self, name, frozenset(getattr(self, name)))
        sources = tuple(s if isinstance(s, Source) else Source(*s) for s in self.sources)
        seen: set[Hex] = set()
        for s in sources:
            if s.hex in seen:
                raise SupplyInputError(f"only one supply point may stand in a hex, {s.hex} has two")
            seen.add(s.hex)
        object.__setattr__(self, "sources", sources)

    # --- derived ------------------------------------------------------------------------

    @property
    def friendly_hexes(self) -> frozenset[Hex]:
        """Hexes holding any friendly land unit, supply units included."""
        return self.friendly_units | self.supply_units

    def source_at(self, h: Hex) -> Source | None:
        return next((s for s in self.sources if s.hex == h), None)

    # --- edits ----------------------------------------------------------------------------

    def with_source(self, h: Hex, strength: int = 100) -> Situation:
        rest = tuple(s for s in self.sources if s.hex != h)
        return replace(self, sources=rest + (Source(h, strength),))

    def without_source(self, h: Hex) -> Situation:
        return replace(self, sources=tuple(s for s in self.sources if s.hex != h))

    def with_supply_unit(self, h: Hex) -> Situation:
        return replace(self, supply_units=self.supply_units | {h})

    def without_supply_unit(self, h: Hex) -> Situation:
        return replace(self, supply_units=self.supply_units - {h})

    def with_friendly(self, h: Hex) -> Situation:
        return replace(self, friendly_units=self.friendly_units | {h})

    def without_friendly(self, h: Hex) -> Situation:
        return replace(self, friendly_units=self.friendly_units - {h})

    def with_enemy(self, h: Hex) -> Situation:
        """Put an enemy unit in ``h``; the hex becomes enemy-controlled too."""
        return replace(
            self, enemy_units=self.enemy_units | {h}, enemy_controlled=self.enemy_controlled | {h}
        )

    def without_enemy(self, h: Hex) -> Situation:
        """Remove the enemy unit from ``h`` (the hex stays enemy-controlled)."""
        return replace(self, enemy_units=self.enemy_units - {h})

    def with_control(self, h: Hex, enemy: bool) -> Situation:
        ctrl = self.enemy_controlled | {h} if enemy else self.enemy_controlled - {h}
        return replace(self, enemy_controlled=ctrl)

    def with_rail_damage(self, h: Hex, damaged: bool = True) -> Situation:
        rail = self.damaged_rail | {h} if damaged else self.damaged_rail - {h}
        return replace(self, damaged_rail=rail)

    def with_mud(self, h: Hex, muddy: bool = True) -> Situation:
        return replace(self, muddy=self.muddy | {h} if muddy else self.muddy - {h})

    def with_bridge_destroyed(self, a: Hex, b: Hex, destroyed: bool = True) -> Situation:
        side = hexside(a, b)
        gone = self.destroyed_bridges | {side} if destroyed else self.destroyed_bridges - {side}
        return replace(self, destroyed_bridges=gone)

    # --- validation --------------------------------------------------------------------------

    def check_against(self, hexmap: HexMap) -> None:
        """Raise SupplyInputError unless every position makes sense on ``hexmap``."""
        for s in self.sources:
            hexmap.require(s.hex, "supply point")
            _require_land(hexmap, s.hex, "a supply point")
        for name, hexes in (
            ("supply unit", self.supply_units),
            ("friendly unit", self.friendly_units),
            ("enemy unit", self.enemy_units),
        ):
            for h in hexes:
                hexmap.require(h, name)
                _require_land(hexmap, h, f"a {name}")
        for name, hexes in (
            ("enemy-controlled hex", self.enemy_controlled),
            ("damaged rail hex", self.damaged_rail),
            ("muddy hex", self.muddy),
        ):
            for h in hexes:
                hexmap.require(h, name)
        for side in self.destroyed_bridges:
            a, b = tuple(side)
            hexmap.require(a, "bridge hexside end")
            hexmap.require(b, "bridge hexside end")
        both = self.friendly_hexes & self.enemy_units
        if both:
            raise SupplyInputError(
                f"a hex holds units of one side only, but {sorted(both)} hold friendly and enemy units"
            )


def _require_land(hexmap: HexMap, h: Hex, what: str) -> None:
    t = hexmap.terrain_at(h)
    if not terrain_rule(t).land:
        raise SupplyInputError(f"{what} must stand on land, but {h} is {Terrain(t).name.lower()}")


@dataclass(frozen=True, slots=True)
class SupplySettings:
    """Scenario switches for supply (TOAW 9.1.7).

    * ``rules``: old (four bands) or new (distance formula) location supply;
    * ``radius``: the force supply radius: hexes under the old rules, movement points of
      the virtual supply unit under the new (TOAW 9.1.7.2, 9.1.7.3);
    * ``force_supply_level``: the number a 100% location shows in the supply view and
      gives as base resupply (scenario-set; hexclass defaults to 20);
    * ``improved_road_divisor``: 1 for no effect, else 2..10 (TOAW 9.1.7.3, 8.5.2);
    * ``overextended_threshold``: a supplied hex whose shown level is below this is
      overextended; 0 turns the state off (TOAW 9.1.71).
    """

    rules: Rules = Rules.NEW
    radius: int = DEFAULT_RADIUS
    force_supply_level: float = 20.0
    improved_road_divisor: int = 1
    overextended_threshold: int = 0

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "rules", Rules(self.rules))
        except ValueError:
            raise SupplyInputError(
                f"rules must be 'old' or 'new' (TOAW 9.1.7.2 / 9.1.7.3), got {self.rules!r}"
            ) from None
        r = self.radius
        if isinstance(r, bool) or not isinstance(r, Integral) or not 0 <= r <= MAX_RADIUS:
            raise SupplyInputError(
                f"supply radius must be a whole number from 0 to {MAX_RADIUS} "
                f"(TOAW 9.1.7.2), got {r!r}"
            )
        d = self.improved_road_divisor
        if isinstance(d, bool) or not isinstance(d, Integral) or not 1 <= d <= MAX_ROAD_DIVISOR:
            raise SupplyInputError(
                f"improved-road divisor must be a whole number from 1 to {MAX_ROAD_DIVISOR} "
                f"(TOAW 9.1.7.3), got {d!r}"
            )
        level = self.force_supply_level
        if isinstance(level, bool) or not isinstance(level, Real) or not level > 0:
            raise SupplyInputError(
                f"force supply level must be a positive number, got {self.force_supply_level!r}"
            )
        t = self.overextended_threshold
        if isinstance(t, bool) or not isinstance(t, Integral) or t < 0:
            raise SupplyInputError(
                f"overextended threshold must be a whole number >= 0 (TOAW 9.1.71), got {t!r}"
            )
