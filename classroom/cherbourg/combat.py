"""One ground combat of *Battle of Cherbourg*, from the counters to the result.

:func:`combat_column` walks the steps of Cherbourg 5.1 and returns every step with the
rule behind it, so a lesson can show why the column is what it is:

1. add the attack powers, air points and supporting artillery (5.1.1, 6.1, 8.0);
2. add the defence powers and any air points for the defence (5.1.1, 6.1);
3. divide and drop the fraction: the odds column (5.1.1);
4. terrain: the best terrain in the defender's hex, columns to the left (5.1.2);
5. siege: one column to the right if the defenders cannot retreat (5.1.3);
6. command units: a regiment fighting complete moves the combat one column its way; all
   three regiments of a division attacking add one more to the right (5.1.4).

>>> from .units import infantry
>>> c = Combat(attackers=(infantry("a", 6), infantry("b", 5)), defenders=(infantry("d", 2, 4),))
>>> combat_column(c).name
'2-1'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from hexclass.classroom.dice import Dice

from .crt import COLUMNS, Result, lookup, odds_column, shift
from .errors import CherbourgInputError
from .terrain import terrain_shift
from .units import Unit

AIR_STRIKE_MIN, AIR_STRIKE_MAX = 3, 10  # Cherbourg 6.2


def air_power_for_turn(turn: int) -> int:
    """American air points available on a game turn (Cherbourg 6.0)."""
    if not isinstance(turn, int) or not 19 <= turn <= 30:
        raise CherbourgInputError(
            f"the game runs from turn 19 to turn 30 (Cherbourg 2.4.1), got {turn!r}"
        )
    if turn <= 21:
        return 0  # the Channel storm grounded the aircraft
    return 30 if turn == 22 else 10


@dataclass(frozen=True)
class Combat:
    """Who fights whom, where, and with what help.

    ``order_of_battle`` maps a regiment to the names of all its battalions, for the
    command-unit shift; ``surrounded`` says the defenders have no retreat hex free of
    enemy engagement zones (Cherbourg 5.1.3).
    """

    attackers: tuple[Unit, ...]
    defenders: tuple[Unit, ...]
    terrain: tuple[str, ...] = ("clear",)
    surrounded: bool = False
    attack_air: int = 0
    defence_air: int = 0
    supporting_artillery: tuple[Unit, ...] = ()
    order_of_battle: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.attackers:
            raise CherbourgInputError(
                "a combat needs at least one attacking unit (Cherbourg 5.1.1)"
            )
        if not self.defenders:
            raise CherbourgInputError(
                "a combat needs at least one defending unit (Cherbourg 5.1.1)"
            )
        names = [u.name for u in (*self.attackers, *self.defenders, *self.supporting_artillery)]
        if len(set(names)) != len(names):
            raise CherbourgInputError("a unit may take part in a combat only once (Cherbourg 8.0)")
        for u in self.supporting_artillery:
            if not u.kind.artillery:
                raise CherbourgInputError(
                    f"{u.name} is not artillery and cannot support from afar (Cherbourg 8.0)"
                )
        for side, pts in (("attack", self.attack_air), ("defence", self.defence_air)):
            if not isinstance(pts, int) or pts < 0 or pts > 30:
                raise CherbourgInputError(
                    f"air points for the {side} must be 0 to 30 (Cherbourg 6.0), got {pts!r}"
                )
        if self.attack_air and all(u.kind.artillery for u in self.attackers):
            raise CherbourgInputError(
                "an attack by artillery alone cannot have air support (Cherbourg 8.0)"
            )

    @property
    def attacker_has_armour(self) -> bool:
        return any(u.kind.armour for u in self.attackers)


@dataclass(frozen=True)
class Step:
    label: str
    value: str
    rule: str


@dataclass(frozen=True)
class ColumnReport:
    attack: int
    defence: int
    odds: int  # column index before shifts
    right: int  # net columns to the right (negative: left)
    column: int  # final column index
    steps: tuple[Step, ...]

    @property
    def name(self) -> str:
        return COLUMNS[self.column]


def command_shifts(combat: Combat) -> tuple[int, int, list[str]]:
    """(right for the attacker, left for the defender, notes) from Cherbourg 5.1.4.

    A regiment counts when every battalion the order of battle lists for it is in the
    combat; artillery regiments never count. A division whose three regiments all take
    part in the attack (with any of their battalions) earns one more column.
    """
    oob = combat.order_of_battle
    notes: list[str] = []

    def complete(units: Sequence[Unit]) -> list[str]:
        present = {u.name for u in units}
        out = []
        for reg in sorted({u.regiment for u in units if u.regiment}):
            members = oob.get(reg)
            if not members or any(u.kind.artillery for u in units if u.regiment == reg):
                continue
            if members <= present:
                out.append(reg)
        return out

    att_regs, def_regs = complete(combat.attackers), complete(combat.defenders)
    notes += [f"regiment {r} attacks complete: 1 right" for r in att_regs]
    notes += [f"regiment {r} defends complete: 1 left" for r in def_regs]
    right = len(att_regs)
    regiments_by_division: dict[str, set[str]] = {}
    for u in combat.attackers:
        if u.division and u.regiment and not u.kind.artillery:
            regiments_by_division.setdefault(u.division, set()).add(u.regiment)
    for div, regs in sorted(regiments_by_division.items()):
        if len(regs) >= 3:
            right += 1
            notes.append(f"all three regiments of division {div} attack: 1 more right")
    return right, len(def_regs), notes


def combat_column(combat: Combat) -> ColumnReport:
    """The final column of a combat, with each step and its rule (Cherbourg 5.1.1-5.1.4)."""
    steps: list[Step] = []
    ground = sum(u.attack_power for u in combat.attackers)
    guns = sum(u.attack_power for u in combat.supporting_artillery)
    attack = ground + guns + combat.attack_air
    steps.append(
        Step(
            "attack points",
            f"{ground} units + {guns} artillery + {combat.attack_air} air = {attack}",
            "Cherbourg 5.1.1, 6.1, 8.0",
        )
    )
    held = sum(u.defence_power for u in combat.defenders)
    defence = held + combat.defence_air
    steps.append(
        Step(
            "defence points",
            f"{held} units + {combat.defence_air} air = {defence}",
            "Cherbourg 5.1.1, 6.1",
        )
    )
    odds = odds_column(attack, defence)
    steps.append(
        Step("odds", f"{attack} to {defence}, fraction dropped: {COLUMNS[odds]}", "Cherbourg 5.1.1")
    )
    left = terrain_shift(combat.terrain, combat.attacker_has_armour)
    best = ", ".join(combat.terrain)
    extra = (
        " (bocage against armour)"
        if "bocage" in combat.terrain and combat.attacker_has_armour
        else ""
    )
    steps.append(Step("terrain", f"{best}: {left} left{extra}", "Cherbourg 5.1.2"))
    right = -left
    if combat.surrounded:
        right += 1
        steps.append(Step("siege", "defenders cannot retreat clear: 1 right", "Cherbourg 5.1.3"))
    cmd_right, cmd_left, notes = command_shifts(combat)
    if notes:
        steps.append(Step("command units", "; ".join(notes), "Cherbourg 5.1.4"))
    right += cmd_right - cmd_left
    column = shift(odds, right)
    steps.append(
        Step(
            "column",
            f"{COLUMNS[odds]} moved {right:+d}: {COLUMNS[column]}",
            "Cherbourg 5.1.2-5.1.4",
        )
    )
    return ColumnReport(attack, defence, odds, right, column, tuple(steps))


@dataclass(frozen=True)
class CombatOutcome:
    report: ColumnReport
    dice: tuple[int, int]
    result: Result

    @property
    def roll(self) -> int:
        return sum(self.dice)


def resolve_combat(combat: Combat, dice: Dice) -> CombatOutcome:
    """Find the column, roll two dice from the game's seeded dice, read the result (5.1.5)."""
    report = combat_column(combat)
    pair = (dice.d6(), dice.d6())
    return CombatOutcome(report, pair, lookup(report.column, sum(pair)))


def check_air_strike(points: int) -> int:
    """An air strike alone uses 3 to 10 air points (Cherbourg 6.2)."""
    if not isinstance(points, int) or not AIR_STRIKE_MIN <= points <= AIR_STRIKE_MAX:
        raise CherbourgInputError(
            f"an air strike takes {AIR_STRIKE_MIN} to {AIR_STRIKE_MAX} air points (Cherbourg 6.2), got {points!r}"
        )
    return points
