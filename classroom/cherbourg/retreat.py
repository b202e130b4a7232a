"""Retreats and advances after combat in *Battle of Cherbourg* (Cherbourg 5.1.3, 5.2, 5.3).

A retreat moves the losing stack one hex. It may not end in an enemy hex or in an
enemy engagement zone (the six hexes around each enemy unit, Cherbourg 4.1.2); if no
such hex exists the stack is destroyed (5.3) unless it is under siege, when it makes a
forced second move instead (5.3.3). Stacks hold four units at most (4.1.1, 5.3.1);
armour that retreats through a river takes a casualty (5.3.2).

>>> f = Field(terrain={h: ("clear",) for h in spiral((0, 0), 2)}, enemy=frozenset({(2, 0)}))
>>> sorted(retreat_options(f, (0, 0)))[:2]
[(-1, 0), (-1, 1)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from hexclass.classroom.hexgrid import Hex, neighbours, spiral

from .errors import CherbourgInputError
from .units import Unit, take_casualty

STACK_LIMIT = 4  # Cherbourg 4.1.1
__all__ = [
    "Field",
    "RetreatOutcome",
    "advance_hexes",
    "retreat",
    "retreat_options",
    "spiral",
    "surrounded",
]


@dataclass(frozen=True)
class Field:
    """A patch of map seen by the retreating side: terrain per hex, friendly stack sizes,
    enemy-occupied hexes. Hexes missing from ``terrain`` are off the map."""

    terrain: Mapping[Hex, tuple[str, ...]]
    enemy: frozenset[Hex] = frozenset()
    friendly: Mapping[Hex, int] = field(default_factory=dict)

    def on_map(self, h: Hex) -> bool:
        return h in self.terrain and "sea" not in self.terrain[h]

    def engagement_zone(self) -> frozenset[Hex]:
        """Hexes next to an enemy unit (Cherbourg 4.1.2)."""
        return frozenset(n for e in self.enemy for n in neighbours(e))

    def free(self, h: Hex) -> bool:
        """A hex a retreat may end in: on the map, no enemy in it or next to it (5.3)."""
        return self.on_map(h) and h not in self.enemy and h not in self.engagement_zone()


def retreat_options(f: Field, origin: Hex) -> list[Hex]:
    """Hexes a stack in ``origin`` may retreat into and stop (Cherbourg 5.3)."""
    return [n for n in neighbours(origin) if f.free(n)]


def surrounded(f: Field, origin: Hex) -> bool:
    """Under siege: no neighbouring hex free of enemy engagement zones (Cherbourg 5.1.3)."""
    return not retreat_options(f, origin)


@dataclass(frozen=True)
class RetreatOutcome:
    path: tuple[Hex, ...]
    survivors: tuple[Unit, ...]
    eliminated: tuple[str, ...]
    notes: tuple[str, ...]

    @property
    def final(self) -> Hex | None:
        return self.path[-1] if self.survivors and self.path else None


def _hurt(units: Sequence[Unit], names: set[str] | None = None) -> tuple[list[Unit], list[str]]:
    kept, lost = [], []
    for u in units:
        after = take_casualty(u) if names is None or u.name in names else u
        (kept.append(after) if after else lost.append(u.name))
    return kept, lost


def retreat(
    f: Field,
    units: Sequence[Unit],
    origin: Hex,
    path: Sequence[Hex],
    hurt_in_combat: frozenset[str] = frozenset(),
) -> RetreatOutcome:
    """Retreat ``units`` from ``origin`` along ``path`` (one hex, or two under siege).

    ``hurt_in_combat`` names the units that took a casualty in the combat that caused
    the retreat (they matter for rivers and sieges). Bad paths are refused with the rule.
    """
    if not units:
        raise CherbourgInputError("no units to retreat")
    notes: list[str] = []
    sieged = surrounded(f, origin)
    if not path:
        if sieged and not [n for n in neighbours(origin) if f.on_map(n) and n not in f.enemy]:
            names = tuple(u.name for u in units)
            return RetreatOutcome(
                (), (), names, ("no hex to retreat into: the stack is destroyed (Cherbourg 5.3)",)
            )
        raise CherbourgInputError("name the hex to retreat into (Cherbourg 5.3)")
    first = path[0]
    if first not in neighbours(origin):
        raise CherbourgInputError(
            f"a retreat moves to a neighbouring hex; {first} is not next to {origin} (Cherbourg 5.3)"
        )
    if not f.on_map(first) or first in f.enemy:
        raise CherbourgInputError(
            f"{first} is off the map, sea or held by the enemy (Cherbourg 5.3, 4.2.2)"
        )
    current = list(units)
    lost: list[str] = []
    current, lost = _river(f, first, current, hurt_in_combat, notes, lost)
    if not sieged:
        if len(path) != 1:
            raise CherbourgInputError(
                "a stack that is not under siege retreats exactly one hex (Cherbourg 5.3)"
            )
        if not f.free(first):
            raise CherbourgInputError(
                f"{first} lies in an enemy engagement zone; pick one of {retreat_options(f, origin)} (Cherbourg 5.3)"
            )
        _stack(f, first, current)
        return RetreatOutcome(tuple(path), tuple(current), tuple(lost), tuple(notes))
    # Under siege (Cherbourg 5.3.3): the first hex is inside an engagement zone, so a
    # second move follows, with a casualty to every unit unless the first hex held friends.
    notes.append(
        "under siege: the first hex is in an enemy zone, so a second move is forced (Cherbourg 5.3.3)"
    )
    through_friends = f.friendly.get(first, 0) > 0
    if not through_friends:
        for u in [u for u in current if u.name in hurt_in_combat]:
            current.remove(u)
            lost.append(u.name)
            notes.append(
                f"{u.name} was hurt in the combat and is trapped: eliminated (Cherbourg 5.3.3)"
            )
    if len(path) != 2:
        raise CherbourgInputError(
            "a stack under siege retreats two hexes: give both (Cherbourg 5.3.3)"
        )
    second = path[1]
    if (
        second not in neighbours(first)
        or second == origin
        or not f.on_map(second)
        or second in f.enemy
    ):
        raise CherbourgInputError(
            f"{second} is not a hex the second move can enter from {first} (Cherbourg 5.3.3)"
        )
    current, lost = _river(f, second, current, hurt_in_combat, notes, lost)
    if through_friends:
        notes.append(
            "the first hex held friendly units: no casualties on the second move (Cherbourg 5.3.3)"
        )
    else:
        current, more = _hurt(current)
        lost += more
        notes.append("every retreating unit takes a casualty on the second move (Cherbourg 5.3.3)")
    if second in f.engagement_zone():
        lost += [u.name for u in current]
        current = []
        notes.append(
            "the second hex is in an enemy zone too: every retreating unit is eliminated (Cherbourg 5.3.3)"
        )
    else:
        _stack(f, second, current)
    return RetreatOutcome(tuple(path), tuple(current), tuple(lost), tuple(notes))


def _river(
    f: Field, h: Hex, units: list[Unit], hurt: frozenset[str], notes: list[str], lost: list[str]
):
    """Armour retreating through a river takes a casualty; if it was hurt in the combat
    as well, it is eliminated (Cherbourg 5.3.2)."""
    if "river" not in f.terrain.get(h, ()):
        return units, lost
    kept = []
    for u in units:
        if not u.kind.armour:
            kept.append(u)
        elif u.name in hurt or u.damaged:
            lost.append(u.name)
            notes.append(
                f"{u.name} is armour retreating through a river after a loss: eliminated (Cherbourg 5.3.2)"
            )
        else:
            after = take_casualty(u)
            kept.append(after)
            notes.append(
                f"{u.name} is armour retreating through a river: it takes a casualty (Cherbourg 5.3.2)"
            )
    return kept, lost


def _stack(f: Field, h: Hex, units: Sequence[Unit]) -> None:
    if f.friendly.get(h, 0) + len(units) > STACK_LIMIT:
        raise CherbourgInputError(
            f"{h} would hold {f.friendly.get(h, 0) + len(units)} units; at most {STACK_LIMIT} may stop "
            "there, so move the surplus on to another hex (Cherbourg 4.1.1, 5.3.1)"
        )


def advance_hexes(units: Sequence[Unit], first: Sequence[str], second: Sequence[str] = ()) -> int:
    """How far a winning attacker may advance from the hex the defender left (Cherbourg 5.2).

    Artillery never advances; foot units take the empty hex; motorised units (armour,
    motorised infantry, mechanised cavalry) may go one hex further if the empty hex is
    open ground (roads allowed) and the next is open ground or city with no river or
    fortification. A mixed force moves as far as its slowest member.
    """
    if not units:
        return 0
    best = 2
    for u in units:
        if u.kind.artillery:
            return 0
        if not u.kind.motorised:
            best = min(best, 1)
    if best == 2:
        open_first = set(first) <= {"clear", "road"}
        blocked = {"river", "fortification"} & (set(first) | set(second))
        open_second = bool(second) and set(second) <= {"clear", "road", "city"}
        if not (open_first and open_second) or blocked:
            best = 1
    return best
