"""The whole state of one Combined Arms game.

A :class:`GameState` is changed only by the engine applying actions (see
``engine.py``). It points to the game's description, a frozen :class:`Game` (the
board, the options and the seat layout, read as ``state.board``, ``state.options``,
``state.seats``), and holds your platoons, the enemy posts, the tracks (turn, infantry
losses, infantry ammo fired, smoke ammo), mortar target and smoke counters, the dice,
the event log and the list of accepted actions. Its :meth:`GameState.key` is what
caches key on.

Secrets are declared here, in one place (:data:`SECRET_FIELDS`): the seat views of
``public.py`` are built without them.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from hexclass.classroom.dice import Dice
from hexclass.classroom.hexgrid import Hex

from .board import Board
from .units import (
    ALL_IDS,
    BOARD,
    BROKEN,
    EXPLOITED,
    MMG_IDS,
    WITHDRAWN,
    EnemyPost,
    Platoon,
)

LAST_TURN = 20
TRACK_SIZE = 8  # the circular loss and ammo track has boxes 0-7
SMOKE_ROUNDS = 4


@dataclass(frozen=True)
class SeatSpec:
    """Which platoons a seat commands and which shared powers it holds.

    Powers: ``mortars`` (call mortar fire and smoke), ``command`` (the overall
    commander's choices: order of enemy rolls, which platoon breaks, ending phases and
    the game).
    """

    name: str
    units: frozenset[str]
    powers: frozenset[str] = frozenset()

    def commands(self, unit_id: str) -> bool:
        return unit_id in self.units


SOLITAIRE_SEATS = {
    "player": SeatSpec("player", frozenset(ALL_IDS), frozenset({"mortars", "command"}))
}


@dataclass(frozen=True)
class Options:
    easier_game: bool = False  # CA "Victory": no deduction for turns after 18
    auto_decisions: bool = False  # let the engine take the commander's small choices
    enemy_player: bool = False  # CA p.7: a person commands the defenders (defender.py)
    handicap: int = 0  # CA p.7: the bonus the defender granted the attackers when bidding
    bidding: bool = False  # CA p.7: two players bid for the defenders before the set-up


class Seats(dict):
    """A game's seat layout, read-only: a new layout is a new :class:`Game`."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(
            "a game's seats are fixed; give the state a new description "
            "(state.game = state.game.with_seats(...))"
        )

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __reduce__(self):
        return (Seats, (dict(self),))

    def __copy__(self) -> Seats:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Seats:
        return self


@dataclass(frozen=True, eq=False)
class Game:
    """What a game is played on and by, apart from how it stands: the board, the
    options and the seat layout (OpenSpiel's Game beside its State).

    Immutable, so every copy of a state, every seat's view and every plan shares one;
    a change (the bidding handing out sides, CA p.7; a test switching an option on) is
    a new description (:meth:`with_seats`, :meth:`with_options`) that the state points
    to. The dice seed is not part of it: the description is public, the seed a secret.
    """

    board: Board
    options: Options = Options()
    seats: Mapping[str, SeatSpec] = field(default_factory=lambda: Seats(SOLITAIRE_SEATS))

    def __post_init__(self) -> None:
        if type(self.seats) is not Seats:
            object.__setattr__(self, "seats", Seats(self.seats))

    def with_seats(self, seats: Mapping[str, SeatSpec]) -> Game:
        return replace(self, seats=Seats(seats))

    def with_options(self, **changes: Any) -> Game:
        return replace(self, options=replace(self.options, **changes))

    def __copy__(self) -> Game:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self


@dataclass
class MortarTarget:
    hex: Hex
    turn: int
    smoke: bool = False
    spotter: str | None = None


@dataclass
class Declaration:
    """Fire committed against one hex but not yet resolved (CA "Fire Attacks")."""

    target: Hex
    firers: list[str]
    seats: list[str]


@dataclass(frozen=True)
class Decision:
    """A choice the rules leave to you, waited on before the engine goes on.

    ``kind`` is ``roll_order`` (which hex to roll for first) or ``break`` (which
    infantry platoon is broken when losses pass from 7 to 0).
    """

    kind: str
    options: tuple
    power: str = "command"
    context: tuple = ()
    rule: str = ""
    prompt: str = ""


@dataclass(slots=True)
class Event:
    """One entry in the game's event log: a move, a roll and what it decided, a reason.

    Once logged an event is never changed, so copies of a state share their events.
    """

    turn: int
    phase: str
    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)


_UIDS = itertools.count(1)  # identity tokens: never reused while the process lives

# Every field of GameState is declared exactly once, in one of four lists, and a seat's
# view (public.view) is assembled from the lists alone, so a field nobody declared never
# reaches a view and a field declared secret is never copied into one:
# the fields every seat holds as the game holds them,
PUBLIC_FIELDS = (
    "game",
    "turn",
    "phase",
    "units",
    "enemy",
    "at",
    "losses",
    "ammo",
    "smoke_ammo",
    "friendly_mortar",
    "enemy_mortar",
    "smoke",
    "engaged",
    "declaration",
    "mortar_called",
    "acted_this_turn",
    "enemy_platoons_broken",
    "atgs_broken",
    "real_platoons_revealed",
    "real_atgs_revealed",
    "agenda",
    "setup",
    "result",
)
# the log, which each seat reads in its own part (secret events and actions left out),
LOG_FIELDS = ("events", "event_marks", "actions", "pending")
# what is worked out again for every state (a mirror, a cache, identity and change count),
DERIVED_FIELDS = ("board", "_rifle_mask", "_uid", "_changes")
# and the fields a seat may not hold as the game holds them, and whose secret each is:
# "dice" (whoever holds the generator foresees every roll), "defender" (the enemy-player
# variant's force roll, deployment and reveal orders, CA p.7), "bidder" (sealed bids).
# A view that may not hold one gets its blank (public._blank: the field's default unless
# named there).
SECRET_FIELDS = {
    "seed": "dice",
    "dice": "dice",
    "forces": "defender",
    "secret": "defender",
    "reveal_orders": "defender",
    "bids": "bidder",
}


@dataclass
class GameState:
    """The game as it stands; see the module docstring.

    **Its key.** Caches that remember answers about a state (the bots' plans and sight
    lines, a page's legal moves) key them on :meth:`key`, never on the object's ``id``:
    Python hands a freed object's id to the next one made, so an id-keyed cache can
    answer for a state that no longer exists. The key is ``(uid, version, changes)``:

    * :attr:`uid`, a token drawn from a process-wide counter when a state is made and
      again for every copy (:meth:`copy`, ``copy.copy``, ``copy.deepcopy``), so two
      states alive or dead never share it;
    * :attr:`version`, the number of accepted actions (a store's version of the game);
    * a count of the changes made through the state's own methods (:meth:`log`,
      :meth:`place`, :meth:`lift`, :meth:`remove`, :meth:`touch`), which moves when a
      lesson or a test sets a position by hand without an action.

    Code that changes a field directly, outside an action (``state.turn = 3``), calls
    :meth:`touch` afterwards so that the caches see it. The key costs a tuple of three
    ints, as cheap as the ``id``-and-lengths keys it replaces; the bots ask it in their
    hot loops.
    """

    game: Game  # the board, options and seats: read through board, options, seats
    seed: int
    dice: Dice
    # game.board, kept beside it because the bots read it in their hot loops (a property
    # would cost them some 4%); only describe() sets it
    board: Board = field(init=False, repr=False, compare=False)
    turn: int = 1
    phase: str = "friendly_move"
    units: dict[str, Platoon] = field(default_factory=dict)
    enemy: dict[Hex, EnemyPost] = field(default_factory=dict)
    at: dict[Hex, list[str]] = field(default_factory=dict)  # hex -> your platoons there
    losses: int = 0
    ammo: int = 0
    smoke_ammo: int = SMOKE_ROUNDS
    friendly_mortar: MortarTarget | None = None
    enemy_mortar: MortarTarget | None = None
    smoke: dict[Hex, int] = field(default_factory=dict)  # hex -> turn whose fire phase ends it
    engaged: dict[Hex, tuple[str, ...]] = field(default_factory=dict)  # this fire phase
    declaration: Declaration | None = None
    mortar_called: bool = False  # this fire phase
    acted_this_turn: bool = False
    enemy_platoons_broken: int = 0
    atgs_broken: int = 0
    real_platoons_revealed: int = 0
    real_atgs_revealed: int = 0
    agenda: list[tuple] = field(default_factory=list)
    pending: Decision | None = None
    events: list[Event] = field(default_factory=list)
    actions: list[Any] = field(default_factory=list)
    # event_marks[i]: how many events the log held when actions[i] was applied, so
    # actions[i]'s own events (what it did and what the engine did after it) are
    # events[event_marks[i]:event_marks[i + 1]] (to the end for the last action)
    event_marks: list[int] = field(default_factory=list)
    setup: dict[str, Any] = field(default_factory=dict)
    result: Any = None
    # the enemy-player variant's secrets (defender.py): never in an attacker's view
    forces: Any = None
    secret: Any = None
    reveal_orders: frozenset = frozenset()
    bids: dict[str, int] = field(default_factory=dict)  # sealed until every bidder has bid
    _rifle_mask: int | None = field(default=None, repr=False, compare=False)
    _uid: int = field(default_factory=_UIDS.__next__, init=False, repr=False, compare=False)
    _changes: int = field(default=0, init=False, repr=False, compare=False)

    # --- its key (see the class docstring) ---------------------------------------------
    @property
    def uid(self) -> int:
        """This state's identity token: no other state, alive or gone, has it."""
        return self._uid

    @property
    def version(self) -> int:
        """How many actions the game has accepted (the store's version of the game)."""
        return len(self.actions)

    def key(self) -> tuple[int, int, int]:
        """This state at this point: changes when the state, or any state it may be
        mistaken for, does (see the class docstring)."""
        return (self._uid, len(self.actions), self._changes)

    def touch(self) -> None:
        """Tell the caches the state changed (after setting a field by hand)."""
        self._changes += 1
        self._rifle_mask = None

    def __post_init__(self) -> None:
        self.board = self.game.board

    # --- the game's description (see Game) -------------------------------------------------
    @property
    def options(self) -> Options:
        return self.game.options

    @options.setter
    def options(self, options: Options) -> None:
        self.describe(replace(self.game, options=options))

    @property
    def seats(self) -> Mapping[str, SeatSpec]:
        return self.game.seats

    @seats.setter
    def seats(self, seats: Mapping[str, SeatSpec]) -> None:
        self.describe(self.game.with_seats(seats))

    @classmethod
    def assemble(cls, fields: dict[str, Any], changes: int = 0) -> GameState:
        """A state made of ``fields`` (every public, log and secret field, as the caller
        copied or blanked them) and nothing else; the derived fields are made afresh,
        with ``changes`` as the change count. How every view of a game is built."""
        declared = {*PUBLIC_FIELDS, *LOG_FIELDS, *SECRET_FIELDS}
        if fields.keys() != declared:
            odd = sorted(declared.symmetric_difference(fields))
            raise ValueError(f"a state is assembled from its declared fields; not {odd}")
        c = object.__new__(cls)
        c.__dict__.update(fields)
        c.board = c.game.board
        c._rifle_mask = None
        c._uid = next(_UIDS)
        c._changes = changes
        return c

    def describe(self, game: Game) -> None:
        """Point the state at another description (a new :class:`Game`, never a changed
        one); the key moves, since what is legal may have changed with it."""
        self.game = game
        self.board = game.board
        self.touch()

    # --- where things are ----------------------------------------------------------------
    def units_at(self, h: Hex) -> list[Platoon]:
        return [self.units[u] for u in self.at.get(h, ())]

    def place(self, unit: Platoon, h: Hex) -> None:
        self.lift(unit)
        unit.where = BOARD
        unit.hex = h
        self.at.setdefault(h, []).append(unit.id)

    def lift(self, unit: Platoon) -> None:
        self._rifle_mask = None
        self._changes += 1
        if unit.hex is not None:
            ids = self.at.get(unit.hex)
            if ids and unit.id in ids:
                ids.remove(unit.id)
                if not ids:
                    del self.at[unit.hex]
        unit.hex = None

    def remove(self, unit: Platoon, where: str) -> None:
        """Take a platoon off the board into a box: withdrawn, exploited or broken."""
        self.lift(unit)
        unit.where = where
        unit.fresh = True
        if where == BROKEN:
            unit.facing = None

    def rifle_mask(self) -> int:
        """Bit mask of the hexes holding your rifle platoons (cached between moves)."""
        if self._rifle_mask is None:
            from .lines import mask_of

            self._rifle_mask = mask_of(self.rifle_hexes())
        return self._rifle_mask

    def rifle_hexes(self) -> set[Hex]:
        return {h for h, ids in self.at.items() if any(u[0] in "DEF" for u in ids)}

    def on_board(self) -> list[Platoon]:
        return [u for u in self.units.values() if u.where == BOARD]

    def enemy_near(self, h: Hex, within: int) -> bool:
        from hexclass.classroom.hexgrid import distance

        row = self.board.dist.get(h)
        if row is None:  # off the board: only a hand-made question asks this
            return any(distance(h, e) <= within for e in self.enemy)
        return any(row[e] <= within for e in self.enemy)

    def friendly_adjacent(self, h: Hex) -> list[Platoon]:
        at, units = self.at, self.units
        neighbours = self.board.neighbours_on_board[h]
        if at.keys().isdisjoint(neighbours):
            return []  # the usual answer, found without a loop in Python
        out = []
        for n in neighbours:
            ids = at.get(n)
            if ids:
                out.extend([units[u] for u in ids])
        return out

    def broken_friendly(self) -> list[str]:
        return [u.id for u in self.units.values() if u.where == BROKEN]

    def exploited(self) -> list[str]:
        return [u.id for u in self.units.values() if u.where == EXPLOITED]

    def withdrawn(self) -> list[str]:
        return [u.id for u in self.units.values() if u.where == WITHDRAWN]

    @property
    def over(self) -> bool:
        return self.phase == "over"

    # --- the log ---------------------------------------------------------------------------
    def log(self, kind: str, text: str, **data: Any) -> Event:
        ev = Event(self.turn, self.phase, kind, text, data)
        self.events.append(ev)
        self._changes += 1
        return ev

    def action_span(self, version: int) -> tuple[int, int] | None:
        """Where the events of the action that made ``version`` lie in :attr:`events`:
        ``(start, end)``, ``version`` 1 being the first action (a store's
        ``LoggedAction.version`` is its action's place in :attr:`actions`, counted from 1).
        None if this state keeps no marks for it (a copy written before they existed)."""
        marks = self.event_marks
        if len(marks) != len(self.actions) or not 1 <= version <= len(marks):
            return None
        end = marks[version] if version < len(marks) else len(self.events)
        return marks[version - 1], end

    def events_of(self, version: int) -> list[Event] | None:
        """The events the action that made ``version`` logged (see :meth:`action_span`)."""
        span = self.action_span(version)
        return None if span is None else self.events[span[0] : span[1]]

    def copy(self) -> GameState:
        """An independent copy (for previews and what-ifs), with a :attr:`uid` of its own.

        The description (:class:`Game`), the logged events and the accepted actions never
        change once made, so the copy shares them (in new lists); everything else is
        copied deeply.
        """
        memo: dict[int, Any] = {}
        for shared in (self.events, self.actions):
            for item in shared:
                memo[id(item)] = item
        return copy.deepcopy(self, memo)

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        c = object.__new__(type(self))
        memo[id(self)] = c
        deep = copy.deepcopy
        c.__dict__.update({k: deep(v, memo) for k, v in self.__dict__.items() if k != "board"})
        c.board = c.game.board  # the description is shared, never copied
        c._uid = next(_UIDS)
        return c

    def __copy__(self) -> GameState:
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
        c._uid = next(_UIDS)
        return c

    def __setstate__(self, data: dict[str, Any]) -> None:
        """Unpickled (another process's game, or the same one read back): a new uid."""
        if "game" not in data:  # pickled before the description was split off
            seats = data.pop("seats", SOLITAIRE_SEATS)
            data["game"] = Game(data["board"], data.pop("options", Options()), seats)
        self.__dict__.update(data)
        self.__dict__.setdefault("_changes", 0)
        self._uid = next(_UIDS)

    def label(self, h: Hex) -> str:
        return self.board.label(h)

    def snapshot(self) -> dict[str, Any]:
        """Everything that makes two states the same game position, as plain data."""
        return {
            "turn": self.turn,
            "phase": self.phase,
            "units": {u.id: (u.where, u.hex, u.fresh, u.facing) for u in self.units.values()},
            "enemy": {
                h: (p.platoon, p.atg, p.fresh, p.atg_removed) for h, p in sorted(self.enemy.items())
            },
            "tracks": (self.losses, self.ammo, self.smoke_ammo),
            "mortars": (
                _mortar_tuple(self.friendly_mortar),
                _mortar_tuple(self.enemy_mortar),
            ),
            "smoke": sorted(self.smoke.items()),
            "tallies": (
                self.enemy_platoons_broken,
                self.atgs_broken,
                self.real_platoons_revealed,
                self.real_atgs_revealed,
            ),
            "dice": self.dice.snapshot(),
            "pending": None if self.pending is None else (self.pending.kind, self.pending.options),
            "agenda": list(self.agenda),
            "events": len(self.events),
            **({"secret": self.secret} if self.options.enemy_player else {}),
        }


def _mortar_tuple(m: MortarTarget | None):
    return None if m is None else (m.hex, m.turn, m.smoke)


def infantry_ids() -> tuple[str, ...]:
    return tuple(u for u in ALL_IDS if u[0] != "A")


__all__ = [
    "Game",
    "GameState",
    "Seats",
    "PUBLIC_FIELDS",
    "LOG_FIELDS",
    "DERIVED_FIELDS",
    "SECRET_FIELDS",
    "SeatSpec",
    "Options",
    "MortarTarget",
    "Declaration",
    "Decision",
    "Event",
    "SOLITAIRE_SEATS",
    "LAST_TURN",
    "TRACK_SIZE",
    "SMOKE_ROUNDS",
    "MMG_IDS",
]
