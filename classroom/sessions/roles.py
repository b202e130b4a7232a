"""Seats and roles for co-operative Combined Arms (CA p.7 "Co-operative Team Play").

The rules split the attacking battalion into five *commands*: the armour (A1-A3), the
three rifle companies (D, E, F) and the support weapons (MMGs M1 and M2 plus the
mortars). Whoever directs the support weapons is also the overall commander; with six
players the overall commander may be a seat of their own, and with fewer than five
the commands are combined. A :class:`Layout` is one such grouping; it produces the
engine's :class:`~hexclass.classroom.combined_arms.state.SeatSpec` for every seat together
with a display title and colour for the pages.

>>> five = layout_for(5)
>>> [s.name for s in five.seats]
['armour', 'D', 'E', 'F', 'support']
>>> sorted(five.specs()["support"].powers)
['command', 'mortars']
>>> [s.name for s in layout_for(6).seats][-1]
'commander'
>>> [s.name for s in merged_layout([["armour", "D"], ["E", "F"], ["support"]]).seats]
['armour+D', 'E+F', 'support']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hexclass.classroom.combined_arms.state import SeatSpec
from hexclass.classroom.combined_arms.units import ARMOUR_IDS, MMG_IDS


class LayoutError(ValueError):
    """A seat layout that cannot be used; the message names what is wrong."""


@dataclass(frozen=True)
class Command:
    """One of the CA p.7 commands: platoons and shared powers that go to one player."""

    key: str
    title: str
    colour: str
    units: tuple[str, ...]
    powers: tuple[str, ...] = ()


# CA p.7: five players - the armour, each rifle company, and the MMGs with the mortars,
# whose player is also in overall command. "command" is listed on its own so that a
# sixth player can take it; otherwise it goes with "support".
COMMANDS: dict[str, Command] = {
    c.key: c
    for c in (
        Command("armour", "Armour (A1-A3)", "#1f77b4", ARMOUR_IDS),
        Command("D", "D Company (D1-D3)", "#d62728", ("D1", "D2", "D3")),
        Command("E", "E Company (E1-E3)", "#2ca02c", ("E1", "E2", "E3")),
        Command("F", "F Company (F1-F3)", "#9467bd", ("F1", "F2", "F3")),
        Command("support", "MMGs and mortars (M1, M2)", "#ff7f0e", MMG_IDS, ("mortars",)),
        Command("command", "Overall command", "#7f7f7f", (), ("command",)),
        # CA p.7 "Enemy Player Variant": a person commands the defenders; in the
        # two-player game both players first bid for that command
        Command("defender", "The defenders (enemy player)", "#8c564b", (), ("defender",)),
        Command("bidder", "Bidding for the defenders", "#17becf", (), ("bid",)),
    )
}
COMMAND_ORDER = tuple(COMMANDS)
ATTACK = ("armour", "D", "E", "F", "support", "command")  # every attacking table covers these

# Sensible groupings when fewer than five play. The overall commander keeps the
# support weapons (CA p.7) and, where possible, the lightest load of platoons so that
# tactical control stays with the subordinates.
DEFAULT_GROUPS: dict[int, tuple[tuple[str, ...], ...]] = {
    1: (("armour", "D", "E", "F", "support"),),
    2: (("armour", "support"), ("D", "E", "F")),
    3: (("armour", "D"), ("E", "F"), ("support",)),
    4: (("armour",), ("D",), ("E",), ("F", "support")),
    5: (("armour",), ("D",), ("E",), ("F",), ("support",)),
    6: (("armour",), ("D",), ("E",), ("F",), ("support",), ("command",)),
}


@dataclass(frozen=True)
class Seat:
    """One player's place at the table: the commands merged onto it, and how it looks."""

    name: str
    commands: tuple[str, ...]
    title: str
    colour: str

    @property
    def units(self) -> frozenset[str]:
        return frozenset(u for c in self.commands for u in COMMANDS[c].units)

    @property
    def powers(self) -> frozenset[str]:
        return frozenset(p for c in self.commands for p in COMMANDS[c].powers)

    @property
    def is_commander(self) -> bool:
        return "command" in self.powers

    def spec(self) -> SeatSpec:
        """The engine's view of this seat: which platoons it moves and which powers it holds."""
        return SeatSpec(self.name, self.units, self.powers)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "commands": list(self.commands),
            "title": self.title,
            "colour": self.colour,
        }


@dataclass(frozen=True)
class Layout:
    """A whole table: every command on exactly one seat, in a fixed seat order."""

    seats: tuple[Seat, ...]

    def __post_init__(self) -> None:
        _check_cover([s.commands for s in self.seats])
        names = [s.name for s in self.seats]
        if len(set(names)) != len(names):
            raise LayoutError(f"seat names must differ, got {names}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    def __len__(self) -> int:
        return len(self.seats)

    def seat(self, name: str) -> Seat:
        for s in self.seats:
            if s.name == name:
                return s
        raise KeyError(f"no seat {name!r}; this table has {', '.join(self.names)}")

    def __contains__(self, name: object) -> bool:
        return name in self.names

    def specs(self) -> dict[str, SeatSpec]:
        """The ``seats`` argument for :func:`~hexclass.classroom.combined_arms.game.new_game`."""
        return {s.name: s.spec() for s in self.seats}

    def commander(self) -> Seat:
        """The seat in overall command (it answers the commander's decisions, CA p.7)."""
        return next(s for s in self.seats if s.is_commander)

    def seats_with(self, power: str) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats if power in s.powers)

    def to_json(self) -> list[dict[str, Any]]:
        return [s.to_json() for s in self.seats]

    @classmethod
    def from_json(cls, data: Any, source: str = "layout") -> Layout:
        """Read :meth:`to_json` data back, naming the field that is wrong."""
        if not isinstance(data, list) or not data:
            raise LayoutError(f"{source}: expected a non-empty list of seats, got {data!r}")
        seats = []
        for i, raw in enumerate(data):
            where = f"{source}[{i}]"
            if not isinstance(raw, Mapping):
                raise LayoutError(f"{where}: expected an object with name and commands")
            commands = raw.get("commands")
            if not isinstance(commands, list) or not all(isinstance(c, str) for c in commands):
                raise LayoutError(f"{where}.commands: expected a list of command names")
            seat = make_seat(commands, raw.get("name"), raw.get("title"), raw.get("colour"))
            seats.append(seat)
        return cls(tuple(seats))


def make_seat(
    commands: Iterable[str],
    name: str | None = None,
    title: str | None = None,
    colour: str | None = None,
) -> Seat:
    """A seat holding ``commands``; name, title and colour default from the commands."""
    cmds = tuple(commands)
    if not cmds:
        raise LayoutError("a seat needs at least one command")
    for c in cmds:
        if c not in COMMANDS:
            raise LayoutError(f"unknown command {c!r}; expected some of {', '.join(COMMAND_ORDER)}")
    cmds = tuple(sorted(cmds, key=COMMAND_ORDER.index))
    if cmds == ("command",):
        default_name = "commander"
    elif cmds == ATTACK:
        default_name = "all"
    else:
        default_name = "+".join(c for c in cmds if c != "command")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise LayoutError(f"a seat name must be a non-empty string, got {name!r}")
    return Seat(
        name=name or default_name,
        commands=cmds,
        title=title or " + ".join(COMMANDS[c].title for c in cmds),
        colour=colour or COMMANDS[cmds[0]].colour,
    )


def _check_cover(groups: Sequence[Sequence[str]]) -> None:
    """Every command on exactly one seat, so every platoon and power has one owner."""
    seen: dict[str, int] = {}
    for i, group in enumerate(groups):
        for c in group:
            if c not in COMMANDS:
                raise LayoutError(
                    f"unknown command {c!r}; expected some of {', '.join(COMMAND_ORDER)}"
                )
            if c in seen and c != "bidder":  # every bidder is a seat of its own
                raise LayoutError(f"command {c!r} is on seats {seen[c] + 1} and {i + 1}")
            seen[c] = i
    if seen and set(seen) == {"bidder"}:
        return  # CA p.7: two players bid; the engine hands out the sides afterwards
    missing = [c for c in ATTACK if c not in seen]
    if missing:
        raise LayoutError(f"no seat holds {', '.join(missing)}; every command needs a seat")


def merged_layout(groups: Sequence[Sequence[str]], names: Sequence[str] | None = None) -> Layout:
    """Any grouping of the commands onto seats (CA p.7: commands may be combined).

    If no group lists ``command``, the overall command goes with ``support`` (the MMG
    and mortar player is in overall command, CA p.7).
    """
    if isinstance(groups, (str, bytes)) or not groups:
        raise LayoutError("groups: expected a list of seats, each a list of command names")
    lists = [list(g) if not isinstance(g, str) else [g] for g in groups]
    if not any("command" in g for g in lists):
        for g in lists:
            if "support" in g:
                g.append("command")
    if names is not None and len(names) != len(lists):
        raise LayoutError(f"names: expected {len(lists)} seat names, got {len(names)}")
    _check_cover(lists)
    seats = tuple(make_seat(g, None if names is None else names[i]) for i, g in enumerate(lists))
    return Layout(seats)


def five_seat_layout() -> Layout:
    """The ideal team of five (CA p.7); the support player is in overall command."""
    return merged_layout(DEFAULT_GROUPS[5])


def six_seat_layout() -> Layout:
    """Five commands plus a separate overall commander with no platoons (CA p.7)."""
    return merged_layout(DEFAULT_GROUPS[6])


def default_layout(players: int) -> Layout:
    """The default table for 1-6 players."""
    if not isinstance(players, int) or isinstance(players, bool) or players not in DEFAULT_GROUPS:
        raise LayoutError(f"players: expected 1 to 6, got {players!r}")
    return merged_layout(DEFAULT_GROUPS[players])


def enemy_player_layout(attackers: int = 1, bidding: bool = False) -> Layout:
    """CA p.7: ``attackers`` seats (1-6) against a ``defender`` seat; or, with ``bidding``,
    two players who bid for the defenders (``player1``, ``player2``)."""
    if bidding:
        if attackers != 1:
            raise LayoutError("bidding is for the two-player game: one attacker, one defender")
        return Layout(tuple(make_seat(["bidder"], f"player{i}") for i in (1, 2)))
    attack = default_layout(attackers)
    names = [s.name for s in attack.seats]
    if "defender" in names:
        raise LayoutError("a seat is already called 'defender'")
    return Layout((*attack.seats, make_seat(["defender"], "defender")))


def class_table(
    seats: int,
    enemy_player: bool = False,
    bid: bool = False,
    handicap: int = 0,
    easier: bool = False,
):
    """The seat layout (or count) and game options of a new class (CA p.7), checked once
    for the command line and the console's form; a bad combination raises
    :class:`LayoutError` saying which setting is wrong."""
    from hexclass.classroom.combined_arms.state import Options

    if not enemy_player:
        if bid or handicap:
            raise LayoutError("bidding and a handicap belong to the enemy-player variant")
        return seats, Options(easier_game=easier)
    if bid and (seats != 1 or handicap):
        raise LayoutError("bidding is for two players (1 attacker seat) and sets the handicap")
    options = Options(
        easier_game=easier,
        auto_decisions=seats == 1,
        enemy_player=True,
        handicap=handicap,
        bidding=bid,
    )
    return enemy_player_layout(seats, bidding=bid), options


def layout_for(seats: int | Layout | Sequence[Sequence[str]]) -> Layout:
    """A layout from a player count (1-6), a ready :class:`Layout`, or a custom grouping."""
    if isinstance(seats, Layout):
        return seats
    if isinstance(seats, int):
        return default_layout(seats)
    return merged_layout(seats)


__all__ = [
    "class_table",
    "COMMANDS",
    "COMMAND_ORDER",
    "DEFAULT_GROUPS",
    "Command",
    "Layout",
    "LayoutError",
    "Seat",
    "default_layout",
    "enemy_player_layout",
    "five_seat_layout",
    "layout_for",
    "make_seat",
    "merged_layout",
    "six_seat_layout",
]
