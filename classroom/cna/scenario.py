"""A mini-scenario for the sequence-of-play lesson: a few units on a small hex map.

The learner plays one Operations Stage as Player A (the Axis) and watches which of
Player B's units may React, pay to break off, or stay put. The map uses axial hexes
from :mod:`hexclass.classroom.hexgrid`. Everything about the scenario is plain data
(:data:`DESERT_SKIRMISH`); :class:`OperationsStagePlay` applies the rules to it.

Two things the rules excerpt leaves to sections it does not contain are simplified here
and recorded in docs/notes-cna.md: a combat unit's Zone of Control is the six hexes
around it (CNA 10.0), and hex costs come from :data:`TEACHING_HEX_COSTS` rather than
the Terrain Effects Chart (CNA 8.37).

>>> play = OperationsStagePlay(DESERT_SKIRMISH)
>>> report = play.move("Italian recce bn", [(0, 3), (1, 2), (2, 2), (3, 2)],
...                    assault_on=["1st KRRC"])
>>> {name: v.allowed for name, v in report.reactions.items()}["2nd Line Light Trucks"]
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from hexclass.classroom import hexgrid
from hexclass.classroom.cna.capability import Function, Size, Unit, UnitKind
from hexclass.classroom.cna.errors import CNAInputError, RuleViolation
from hexclass.classroom.cna.initiative import Role, Side
from hexclass.classroom.cna.logsheet import LogEntry, LogSheet
from hexclass.classroom.cna.movement import (
    Engagement,
    Occasion,
    break_off_cost,
    engagement_at_segment_start,
    may_move_again,
)
from hexclass.classroom.cna.reaction import reaction_eligibility
from hexclass.classroom.cna.verdict import Verdict

Hex = hexgrid.Hex


class Terrain(Enum):
    CLEAR = "clear"
    TRACK = "track"


# CPs to enter a hex, by terrain and by (motorized?). Teaching values, not the CNA
# Terrain Effects Chart (which the excerpt lacks): 2 per clear hex on foot matches the
# 1st RNF's three-hex retreat for 6 CPs (CNA 6.14); a track costs 1 per hex (CNA 8.46).
TEACHING_HEX_COSTS: dict[Terrain, dict[bool, Fraction]] = {
    Terrain.CLEAR: {True: Fraction(1), False: Fraction(2)},
    Terrain.TRACK: {True: Fraction(1), False: Fraction(1)},
}


@dataclass(frozen=True)
class Placement:
    unit: Unit
    side: Side
    hex: Hex
    cohesion: int = 0


@dataclass(frozen=True)
class MiniScenario:
    name: str
    description: str
    terrain: tuple[tuple[Hex, Terrain], ...]
    placements: tuple[Placement, ...]
    initiative_holder: Side
    holder_role: Role

    def __post_init__(self) -> None:
        hexes = dict(self.terrain)
        names = [p.unit.name for p in self.placements]
        if len(set(names)) != len(names):
            raise CNAInputError(f"unit names in a scenario must be unique, got {names}")
        for p in self.placements:
            if p.hex not in hexes:
                raise CNAInputError(f"{p.unit.name} is placed at {p.hex}, which is not on the map")

    @property
    def player_a(self) -> Side:
        return (
            self.initiative_holder if self.holder_role is Role.A else self.initiative_holder.other
        )

    def terrain_at(self, h: Hex) -> Terrain:
        t = dict(self.terrain).get(_require_hex(h))
        if t is None:
            raise CNAInputError(
                f"hex {h} is off the map; expected one of the scenario's {len(self.terrain)} hexes"
            )
        return t


def _require_hex(h: object) -> Hex:
    if (
        not isinstance(h, tuple)
        or len(h) != 2
        or not all(isinstance(c, int) and not isinstance(c, bool) for c in h)
    ):
        raise CNAInputError(f"expected a hex as an axial (q, r) pair of whole numbers, got {h!r}")
    return h  # type: ignore[return-value]


def hex_label(h: Hex) -> str:
    """A map name for an axial hex of :func:`_rectangle`: column letter, row number.

    The axial ``q`` of the left-hand hexes is negative; learners read "B4" instead.

    >>> hex_label((0, 3)), hex_label((-1, 2)), hex_label((3, 2))
    ('B4', 'A3', 'E3')
    """
    q, r = h
    col = q + r // 2
    if not 0 <= col < 26 or r < 0:
        return f"({q}, {r})"
    return f"{chr(ord('A') + col)}{r + 1}"


def hexes_text(n: int) -> str:
    return f"{n} hex" if n == 1 else f"{n} hexes"


def _rectangle(columns: int, rows: int) -> list[Hex]:
    """Axial hexes of a pointy-top map laid out as even rows of ``columns`` hexes."""
    return [(q - r // 2, r) for r in range(rows) for q in range(columns)]


def _desert_terrain() -> tuple[tuple[Hex, Terrain], ...]:
    track = {(q, 2) for q in range(-1, 6)}  # an east-west track along the middle row
    return tuple((h, Terrain.TRACK if h in track else Terrain.CLEAR) for h in _rectangle(7, 5))


DESERT_SKIRMISH = MiniScenario(
    name="Desert skirmish",
    description=(
        "Italian tanks, recce and infantry (Player A) probe a Commonwealth screen: the 1st "
        "KRRC in trucks with a Second Line light truck convoy beside it, the 1st RNF on "
        "foot, a static gun battery and the 11th Hussars' armoured cars."
    ),
    terrain=_desert_terrain(),
    placements=(
        Placement(Unit("Italian tank bn", UnitKind.ARMOR, cpa=25), Side.AXIS, (0, 1)),
        Placement(Unit("Italian recce bn", UnitKind.RECCE, cpa=45), Side.AXIS, (0, 3)),
        Placement(Unit("Italian infantry bn", UnitKind.INFANTRY, cpa=8), Side.AXIS, (-1, 2)),
        Placement(
            Unit("1st KRRC", UnitKind.INFANTRY, cpa=10, truck_cpa=20), Side.COMMONWEALTH, (4, 1)
        ),
        Placement(
            Unit("2nd Line Light Trucks", UnitKind.TRUCK_CONVOY, cpa=40), Side.COMMONWEALTH, (4, 1)
        ),
        Placement(
            Unit("1st RNF", UnitKind.INFANTRY, cpa=8), Side.COMMONWEALTH, (3, 3), cohesion=-2
        ),
        Placement(
            Unit("4th RHA battery", UnitKind.GUN, cpa=0, size=Size.COMPANY),
            Side.COMMONWEALTH,
            (4, 2),
        ),
        Placement(Unit("11th Hussars", UnitKind.RECCE, cpa=45), Side.COMMONWEALTH, (5, 3)),
    ),
    initiative_holder=Side.AXIS,
    holder_role=Role.A,
)


@dataclass(frozen=True)
class MoveReport:
    """What one move did: log entries, who may now React, who surrendered."""

    unit: str
    path: tuple[Hex, ...]
    entries: tuple[LogEntry, ...]
    reactions: dict[str, Verdict] = field(default_factory=dict)
    surrendered: tuple[str, ...] = ()


class OperationsStagePlay:
    """One Operations Stage of the mini-scenario, played through the log sheet.

    Both sides' units share one :class:`LogSheet` because CPs spent in either portion
    count against the same CPA (CNA 6.14).
    """

    def __init__(self, scenario: MiniScenario) -> None:
        self.scenario = scenario
        self.units = {p.unit.name: p.unit for p in scenario.placements}
        self.sides = {p.unit.name: p.side for p in scenario.placements}
        self.positions: dict[str, Hex] = {p.unit.name: p.hex for p in scenario.placements}
        self.sheet = LogSheet.of(
            self.units.values(), {p.unit.name: p.cohesion for p in scenario.placements}
        )
        self.phasing: Side = scenario.player_a
        self.movement_pass = 1
        self.engaged: set[str] = set()
        self.moved_this_phase: set[str] = set()
        self.may_not_move: dict[str, Verdict] = {}
        self.pending_reactions: dict[str, str] = {}
        self.removed: set[str] = set()
        self._start_segment()

    # --- the map ----------------------------------------------------------------------

    def on_map(self) -> list[str]:
        return [n for n in self.positions if n not in self.removed]

    def _unit(self, name: str) -> Unit:
        if name not in self.units or name in self.removed:
            raise CNAInputError(
                f"no unit named {name!r} is on the map; expected one of {self.on_map()}"
            )
        return self.units[name]

    def units_at(self, h: Hex) -> list[str]:
        return [n for n in self.on_map() if self.positions[n] == h]

    def combat_hexes(self, side: Side, exclude: Iterable[str] = ()) -> set[Hex]:
        skip = set(exclude)
        return {
            self.positions[n]
            for n in self.on_map()
            if self.sides[n] is side and n not in skip and self.units[n].kind.is_combat
        }

    def zoc(self, side: Side, exclude: Iterable[str] = ()) -> set[Hex]:
        """Hexes next to ``side``'s combat units (the scenario's reading of CNA 10.0)."""
        return {n for h in self.combat_hexes(side, exclude) for n in hexgrid.neighbours(h)}

    def in_enemy_zoc(self, name: str, exclude: Iterable[str] = ()) -> bool:
        return self.positions[name] in self.zoc(self.sides[name].other, exclude)

    def hex_cost(self, unit: Unit, frm: Hex, to: Hex) -> Fraction:
        """CPs to step from ``frm`` into ``to``; track to track costs 1 (CNA 8.33, 8.46)."""
        into = self.scenario.terrain_at(to)
        if into is Terrain.TRACK and self.scenario.terrain_at(frm) is not Terrain.TRACK:
            into = Terrain.CLEAR  # joining a track from open ground gains nothing (CNA 8.33)
        return TEACHING_HEX_COSTS[into][unit.is_motorized]

    # --- movement ---------------------------------------------------------------------

    def _start_segment(self) -> None:
        """Fix each phasing unit's Contact/Engaged state for this Movement Segment (CNA 8.62)."""
        self.segment_engagement = {
            n: engagement_at_segment_start(self.in_enemy_zoc(n), n in self.engaged)
            for n in self.on_map()
            if self.sides[n] is self.phasing
        }
        self.broken_off: set[str] = set()

    def path_cost(self, name: str, path: Sequence[Hex]) -> Fraction:
        unit = self._unit(name)
        return sum(
            (self.hex_cost(unit, a, b) for a, b in zip(path, path[1:], strict=False)), Fraction(0)
        )

    def check_path(
        self, name: str, path: Sequence[Hex], *, reacting: bool = False, retreating: bool = False
    ) -> None:
        """Raise if ``path`` breaks the movement rules (CNA 8.13-8.15, 8.55).

        A retreat is held only to 8.13: the ZOC rules for retreats are in sections the
        excerpt lacks (13.0, 15.x).
        """
        hexes = [_require_hex(h) for h in path]
        if len(hexes) < 2 or hexes[0] != self.positions[name]:
            raise CNAInputError(
                f"a path must start at {name}'s hex {hex_label(self.positions[name])} and go somewhere, "
                f"got {list(path)}"
            )
        side = self.sides[name]
        enemy_zoc = self.zoc(side.other)
        enemy_hexes = {self.positions[n] for n in self.on_map() if self.sides[n] is not side}
        for i, (a, b) in enumerate(zip(hexes, hexes[1:], strict=False), 1):
            self.scenario.terrain_at(b)
            if hexgrid.distance(a, b) != 1:
                raise RuleViolation(
                    "CNA 8.13",
                    f"{hex_label(a)} to {hex_label(b)} skips hexes; each step must go to an adjacent hex",
                )
            if b in enemy_hexes:
                raise RuleViolation("CNA 8.13", f"{hex_label(b)} holds an enemy unit")
            if retreating:
                continue
            if b in enemy_zoc and reacting:
                raise RuleViolation(
                    "CNA 8.55", f"a reacting unit may not enter the enemy ZOC at {hex_label(b)}"
                )
            if b in enemy_zoc and i == 1 and a in enemy_zoc:
                raise RuleViolation(
                    "CNA 8.15",
                    f"leaving an enemy ZOC, {name} may not step straight into another at {hex_label(b)}",
                )
            if b in enemy_zoc and i < len(hexes) - 1:
                raise RuleViolation(
                    "CNA 8.14", f"{name} must stop on entering the enemy ZOC at {hex_label(b)}"
                )

    def move(self, name: str, path: Sequence[Hex], *, assault_on: Iterable[str] = ()) -> MoveReport:
        """Move a phasing unit along ``path`` in the Movement Segment, paying any break-off
        first (CNA 8.24, 8.64-8.66), and list who may React to it (CNA 8.5)."""
        unit = self._unit(name)
        if self.sides[name] is not self.phasing:
            raise RuleViolation(
                "CNA 8.11", f"{name} is not the phasing player's; it can only React or retreat"
            )
        if name in self.may_not_move:
            raise RuleViolation("CNA 8.23", self.may_not_move[name].explain())
        self.check_path(name, path)
        targets = set(assault_on)
        unknown = targets - set(self.on_map())
        if unknown:
            raise CNAInputError(f"cannot announce an assault on {sorted(unknown)}: not on the map")
        status = (
            Engagement.NONE
            if name in self.broken_off
            else self.segment_engagement.get(name, Engagement.NONE)
        )
        toll = break_off_cost(status, Occasion.MOVEMENT_SEGMENT)
        cost = self.path_cost(name, path)
        problem = self.sheet.check(name, Function.MOVEMENT, cost + toll)
        if problem is not None:
            raise problem
        entries = self.sheet.break_off(name, status) + self.sheet.spend(
            name,
            Function.MOVEMENT,
            cost,
            detail=f"{hexes_text(len(path) - 1)} to {hex_label(path[-1])}",
        )
        self.broken_off.add(name)
        self.engaged.discard(name)
        self.positions[name] = tuple(path[-1])  # type: ignore[assignment]
        self.moved_this_phase.add(name)
        surrendered = self._surrenders_next_to(name) if unit.kind.is_combat else ()
        self.pending_reactions.clear()  # a chance to React answers only the latest arrival
        reactions = self._reaction_options(name, targets)
        given_up = tuple(e for n in surrendered for e in self.sheet.entries_for(n)[-1:])
        return MoveReport(name, tuple(path), entries + given_up, reactions, surrendered)

    def _surrenders_next_to(self, mover: str) -> tuple[str, ...]:
        """Collapsed enemy units next to an arriving combat unit surrender (CNA 6.26)."""
        out = []
        for n in self.on_map():
            near = hexgrid.distance(self.positions[n], self.positions[mover]) == 1
            if near and self.sides[n] is not self.sides[mover] and self.sheet.line(n).collapsed:
                self.sheet.surrender(n)
                self.removed.add(n)
                out.append(n)
        return tuple(out)

    def _reaction_options(self, mover: str, assault_on: set[str]) -> dict[str, Verdict]:
        options = {}
        here = self.positions[mover]
        for n in self.on_map():
            if self.sides[n] is self.sides[mover] or hexgrid.distance(self.positions[n], here) != 1:
                continue
            stack = [
                m
                for m in self.units_at(self.positions[n])
                if m != n and self.sides[m] is self.sides[n]
            ]
            options[n] = reaction_eligibility(
                self.units[n],
                self.units[mover],
                assault_announced=n in assault_on,
                stacked_with_friendly_combat_unit=any(self.units[m].kind.is_combat for m in stack),
                already_in_enemy_zoc=self.in_enemy_zoc(n, exclude=[mover]),
                in_combat_or_engaged=n in self.engaged,
                cohesion=self.sheet.line(n).cohesion,
            )
            if options[n].allowed:
                self.pending_reactions[n] = mover
        return options

    def react(self, name: str, path: Sequence[Hex]) -> tuple[LogEntry, ...]:
        """Move a non-phasing unit that is allowed to React (CNA 8.51-8.55): no break-off
        cost (8.52), never into an enemy ZOC (8.55), its CPs counted in this stage (6.14)."""
        self._unit(name)
        if name not in self.pending_reactions:
            raise RuleViolation(
                "CNA 8.51",
                f"{name} has no Reaction open: no enemy combat unit just moved next to it, or it is barred",
            )
        self.check_path(name, path, reacting=True)
        entries = self.sheet.spend(
            name,
            Function.REACTION,
            self.path_cost(name, path),
            own_portion=False,
            detail=f"away from {self.pending_reactions[name]}",
        )
        self.positions[name] = tuple(path[-1])  # type: ignore[assignment]
        del self.pending_reactions[name]
        return entries

    def retreat_before_assault(self, name: str, path: Sequence[Hex]) -> tuple[LogEntry, ...]:
        """A non-phasing unit pulls back in the Retreat Before Assault Step (CNA 5.2 G.3c),
        paying to break off first if in Contact or Engaged (CNA 8.64), all in the
        opponent's portion (CNA 6.14, 8.17)."""
        self._unit(name)
        if self.sides[name] is self.phasing:
            raise RuleViolation(
                "CNA 8.11",
                f"{name} belongs to the phasing player, who does not retreat before assault",
            )
        self.check_path(name, path, retreating=True)
        status = engagement_at_segment_start(self.in_enemy_zoc(name), name in self.engaged)
        toll = break_off_cost(status, Occasion.RETREAT_BEFORE_ASSAULT)
        cost = self.path_cost(name, path)
        problem = self.sheet.check(name, Function.RETREAT_BEFORE_ASSAULT, cost + toll)
        if problem is not None:
            raise problem
        entries = self.sheet.break_off(name, status, Occasion.RETREAT_BEFORE_ASSAULT)
        entries += self.sheet.spend(
            name, Function.RETREAT_BEFORE_ASSAULT, cost, detail=f"to {hex_label(path[-1])}"
        )
        self.engaged.discard(name)
        self.positions[name] = tuple(path[-1])  # type: ignore[assignment]
        return entries

    def close_assault(
        self,
        attackers: Sequence[str],
        defenders: Sequence[str],
        *,
        cps: Mapping[str, int | Fraction],
        attacker_strength: tuple[int, int],
        defender_strength: tuple[int, int],
        engaged: bool = False,
        defender_retreat: Sequence[Hex] | None = None,
    ) -> tuple[LogEntry, ...]:
        """Book one Close Assault whose result the lesson supplies (the CRT, 15.x, is not in
        the excerpt): CPs for attacking and defending (``cps``, CNA 6.12), DPs for 30%
        losses (6.21), RPs when the defender is driven out (6.24), Engaged markers
        (8.63), and the defenders' retreat along ``defender_retreat``.

        ``attacker_strength`` and ``defender_strength`` are (TOE Strength before, lost).
        """
        atk, dfn = list(attackers), list(defenders)
        self._check_assault(atk, dfn, cps, defender_retreat)
        out: list[LogEntry] = []
        for n in atk:
            out += self.sheet.spend(n, Function.CLOSE_ASSAULT, cps[n])
        for n in dfn:
            out += self.sheet.spend(n, Function.DEFENCE, cps[n])
        vacated = defender_retreat is not None
        out += self.sheet.close_assault(
            atk,
            strength_before=attacker_strength[0],
            strength_lost=attacker_strength[1],
            attacking=True,
            defender_vacated=vacated,
        )
        out += self.sheet.close_assault(
            dfn,
            strength_before=defender_strength[0],
            strength_lost=defender_strength[1],
            attacking=False,
        )
        if engaged:
            self.engaged.update(atk + dfn)
        if defender_retreat is not None:
            cost = self.path_cost(dfn[0], defender_retreat)
            for n in dfn:
                out += self.sheet.spend(
                    n, Function.RETREAT, cost, detail="driven out by a close assault"
                )
                self.positions[n] = tuple(defender_retreat[-1])  # type: ignore[assignment]
                self.engaged.discard(n)
        return tuple(out)

    def _check_assault(self, atk, dfn, cps, retreat) -> None:
        if not atk or not dfn:
            raise CNAInputError(
                "a close assault needs at least one attacking and one defending unit"
            )
        for n in atk + dfn:
            self._unit(n)
            if n not in cps:
                raise CNAInputError(
                    f"expected a CP cost for every unit in the assault; {n!r} has none"
                )
        if any(self.sides[n] is not self.phasing for n in atk) or any(
            self.sides[n] is self.phasing for n in dfn
        ):
            raise RuleViolation(
                "CNA 5.2", "the phasing player's units attack; the other player's defend"
            )
        target = {self.positions[n] for n in dfn}
        if len(target) != 1:
            raise CNAInputError("the defending units must share one hex")
        (where,) = target
        if any(hexgrid.distance(self.positions[n], where) != 1 for n in atk):
            raise RuleViolation("CNA 15.0", "every attacker must be next to the defenders' hex")
        for n in atk:
            problem = self.sheet.check(n, Function.CLOSE_ASSAULT, cps[n])
            if problem is not None:
                raise problem
        for n in dfn:
            problem = self.sheet.check(n, Function.DEFENCE, cps[n])
            if problem is not None:
                raise problem
        if retreat is not None:
            self.check_path(dfn[0], retreat, retreating=True)

    def end_movement_segment(self) -> dict[str, Verdict]:
        """Apply the two-hex rule of Continual Movement to every phasing unit (CNA 8.23)."""
        self.pending_reactions.clear()
        enemy = self.combat_hexes(self.phasing.other)
        verdicts = {
            n: may_move_again(self.positions[n], enemy, moved_this_phase=n in self.moved_this_phase)
            for n in self.on_map()
            if self.sides[n] is self.phasing
        }
        self.may_not_move.update({n: v for n, v in verdicts.items() if not v.allowed})
        return verdicts

    def next_movement_pass(self) -> None:
        """Start another run of the Movement and Combat segments (CNA 8.22)."""
        self.movement_pass += 1
        self._start_segment()

    def end_portion(self) -> None:
        """Hand the stage to the other player for his phases F-L (CNA 5.2)."""
        if self.phasing is not self.scenario.player_a:
            raise RuleViolation(
                "CNA 5.2", "both players have had their portion; end the stage instead"
            )
        self.phasing = self.phasing.other
        self.movement_pass = 1
        self.moved_this_phase.clear()
        self.may_not_move.clear()
        self.pending_reactions.clear()
        self._start_segment()

    def end_stage(self) -> tuple[LogEntry, ...]:
        """Close the Operations Stage on the log sheet (CNA 6.16, 6.24)."""
        return self.sheet.end_stage()
