"""The map a turn is played on: terrain, rivers, centres, the road and rail routes
between them, and who owns each centre economically (PBM "Admin movement").

A *route* is a stretch of road or railway from one centre to the next, with no other
centre between (installations aside). Administrative moves follow routes; tactical
moves use any hex, paying terrain costs (1 a hex when following a road).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from hexclass.classroom.hexgrid import Hex

from .errors import MovementInputError
from .hexmap import direction_between, from_offset, to_offset
from .orders import Admin
from .terrain import ROAD_COST, ROAD_ONLY, hex_cost, river_cost
from .units import Mover

ADMIN_RULE = 'PBM "Admin movement"'


@dataclass(frozen=True)
class Centre:
    """A village, town or city (or an installation) on the road and rail network."""

    id: int
    name: str
    hex: Hex
    owner: str  # economic control: physical control when nobody is there
    rail: bool = False
    installation: bool = False


@dataclass(frozen=True)
class Route:
    a: int  # centre id at one end
    b: int  # centre id at the other end
    hexes: tuple[Hex, ...]  # from a's hex to b's hex, inclusive
    rail: bool = False

    def towards(self, start: Hex, end_centre_hex: Hex) -> tuple[Hex, ...]:
        """The hexes after ``start`` up to the end whose hex is ``end_centre_hex``."""
        i = self.hexes.index(start)
        if self.hexes[-1] == end_centre_hex:
            return self.hexes[i + 1 :]
        return tuple(reversed(self.hexes[:i]))


@dataclass(frozen=True)
class World:
    terrain: Mapping[Hex, str]
    centres: Mapping[int, Centre] = field(default_factory=dict)
    routes: tuple[Route, ...] = ()
    minor_rivers: frozenset[frozenset[Hex]] = frozenset()
    major_rivers: frozenset[frozenset[Hex]] = frozenset()
    bridges: frozenset[frozenset[Hex]] = frozenset()
    label_offset: tuple[int, int] = (1, 1)

    def __post_init__(self) -> None:
        for r in self.routes:
            for end in (r.a, r.b):
                if end not in self.centres:
                    raise MovementInputError(
                        f"a route ends at centre {end}, which the map does not list"
                    )
            if r.hexes[0] != self.centres[r.a].hex or r.hexes[-1] != self.centres[r.b].hex:
                raise MovementInputError(
                    f"route {r.a}-{r.b} must run from one centre's hex to the other's"
                )
            for x, y in zip(r.hexes, r.hexes[1:]):
                if direction_between(x, y) is None:
                    raise MovementInputError(f"route {r.a}-{r.b} jumps from {x} to {y}")
            for h in r.hexes:
                if h not in self.terrain:
                    raise MovementInputError(f"route {r.a}-{r.b} leaves the map at {h}")

    # --- labels ---------------------------------------------------------------------------
    def label(self, h: Hex) -> str:
        col, row = to_offset(h)
        return f"{col + self.label_offset[0]:02d}{row + self.label_offset[1]:02d}"

    def hex_for_label(self, label: str) -> Hex:
        if len(label) != 4 or not label.isdigit():
            raise MovementInputError(
                f"a hex number has four digits, column then row; got {label!r}"
            )
        h = from_offset(
            int(label[:2]) - self.label_offset[0], int(label[2:]) - self.label_offset[1]
        )
        if h not in self.terrain:
            raise MovementInputError(f"hex {label} is not on the map")
        return h

    # --- the network ----------------------------------------------------------------------
    def centre_at(self, h: Hex) -> Centre | None:
        for c in self.centres.values():
            if c.hex == h:
                return c
        return None

    def road_step(self, a: Hex, b: Hex) -> bool:
        """True if ``a`` to ``b`` follows a road or railway."""
        for r in self.routes:
            for x, y in zip(r.hexes, r.hexes[1:]):
                if {x, y} == {a, b}:
                    return True
        return False

    # --- tactical costs -------------------------------------------------------------------
    def step_cost(self, unit: Mover, a: Hex, b: Hex) -> tuple[int | None, str]:
        """(movement points to go from ``a`` into adjacent ``b``, or None; why)."""
        if b not in self.terrain:
            return None, "off the map"
        side = frozenset({a, b})
        cls = unit.kind.cost_class
        specialist = unit.specialty in ("commando", "marine", "engineer")
        on_road = self.road_step(a, b)
        if on_road:
            cost, why = ROAD_COST, "along the road"
        else:
            cost = hex_cost(self.terrain[b], cls, unit.specialty, unit.amphibious)
            if cost is None:
                return None, f"{self.terrain[b]} is impassable to it"
            if cost == ROAD_ONLY:
                return None, f"{self.terrain[b]} may be entered only along a road"
            why = self.terrain[b]
        if side in self.major_rivers and not (on_road or side in self.bridges):
            if unit.amphibious or specialist:
                extra = river_cost(cls, unit.amphibious, None)  # treated as a minor river
                cost, why = cost + extra, f"{why}, major river crossed as a minor one (+{extra})"
            else:
                return None, "a major river can be crossed only at a bridge or ferry"
        elif side in self.minor_rivers and not (on_road or side in self.bridges):
            extra = river_cost(cls, unit.amphibious, unit.specialty)
            cost, why = cost + extra, f"{why}, minor river (+{extra})"
        if unit.double_costs:
            cost, why = cost * 2, f"{why}, doubled by its orders"
        return cost, why

    # --- admin moves ----------------------------------------------------------------------
    def admin_path(
        self, h: Hex, order: Admin, side: str, control: Mapping[int, str | None]
    ) -> tuple[Hex, ...]:
        """The hexes an admin move from ``h`` drives through, or an error naming the rule."""
        here = self.centre_at(h)
        routes = [r for r in self.routes if r.rail == order.rail]
        if order.hex_label is not None:
            target = self.hex_for_label(order.hex_label)
            if here is None:
                raise MovementInputError(
                    f"an admin move to a hex must start in a centre ({ADMIN_RULE})"
                )
            if control.get(here.id) != side:
                raise MovementInputError(
                    f"{here.name} is not under your physical control, so no admin move starts there ({ADMIN_RULE})"
                )
            for r in routes:
                if here.id in (r.a, r.b) and target in r.hexes and not r.rail:
                    end = self.centres[r.b if here.id == r.a else r.a].hex
                    path = r.towards(h, end)
                    return path[: path.index(target) + 1]
            raise MovementInputError(
                f"hex {order.hex_label} is not on a road leaving {here.name} ({ADMIN_RULE})"
            )
        if order.centre not in self.centres:
            raise MovementInputError(f"centre {order.centre} is not on the map ({ADMIN_RULE})")
        dest = self.centres[order.centre]
        kind = "rail" if order.rail else "road"
        if here is not None:
            if control.get(here.id) != side:
                raise MovementInputError(
                    f"{here.name} is not under your physical control, so no admin move starts there ({ADMIN_RULE})"
                )
            for r in routes:
                if {r.a, r.b} == {here.id, dest.id}:
                    return r.towards(h, dest.hex)
            raise MovementInputError(
                f"no {kind} route runs straight from {here.name} to {dest.name}: name each centre on the way ({ADMIN_RULE})"
            )
        if order.rail:
            raise MovementInputError(
                f"rail moves begin and end in a centre on the railway ({ADMIN_RULE})"
            )
        for r in routes:
            if h in r.hexes and dest.id in (r.a, r.b):
                if control.get(dest.id) != side:
                    raise MovementInputError(
                        f"{dest.name} must be friendly to drive there from the open road ({ADMIN_RULE})"
                    )
                return r.towards(h, dest.hex)
        raise MovementInputError(f"this hex is not on a road leading to {dest.name} ({ADMIN_RULE})")


def economic_control(world: World) -> dict[int, str]:
    return {cid: c.owner for cid, c in world.centres.items()}


def rectangle(cols: int, rows: int, terrain: str = "clear") -> dict[Hex, str]:
    """A cols x rows block of flat-topped hexes, all of one terrain."""
    return {from_offset(c, r): terrain for c in range(cols) for r in range(rows)}


def paint(terrain: dict[Hex, str], hexes: Iterable[Hex], kind: str) -> None:
    for h in hexes:
        terrain[h] = kind
