"""The co-op store: what every implementation offers, and the values it hands back.

A team game is its seed, options, seat layout (and optional starting position) plus an
append-only log of accepted actions; the state is a replay of that log. Seat kernels
submit ``(expected_version, seat, action)``; the store accepts an action only if the
version is still current and the engine allows it for that seat, both decided inside
one transaction (an order drawn at an older version is *rebased* when the phase has not
moved on, see :func:`.policy.rebase_problem`). Everything else here (messages, the commander's request queue,
"ready" flags, presence, the instructor's pause/resume/end and message rules) is kept
beside the log so that every page can follow it.

:class:`GameStore` is what a seat page needs; :class:`ClassStore` adds what the
instructor console needs. ``sql_store.SQLStore`` implements both once over a small
SQL backend: ``sqlite_store.SQLiteStore`` (embedded) and ``pg_store.PostgresStore``
(LISTEN/NOTIFY behind :meth:`GameStore.change_token` and
:meth:`GameStore.wait_for_change`); no caller tells them apart. The co-op rules that are
policy (who may act, rebasing, message limits, the commander's queue, pausing, ending)
are pure functions in :mod:`.policy` that every store calls; the replayed game is a
:class:`.live.LiveGame` (one per game per process, see :meth:`GameStore.live_game`).
"""

from __future__ import annotations

import abc
import re
import time
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from hexclass.classroom.combined_arms.actions import (
    ACTION_TYPES,
    ActionFormatError,
    action_from_json,
    action_problem,
    action_to_json,
)
from hexclass.classroom.combined_arms.game import new_game
from hexclass.classroom.combined_arms.state import GameState, Options

from .errors import NoKey, StoreError
from .roles import Layout
from .sealed import new_token, seat_key

STALE_MESSAGE = "the board changed — here it is again"
MESSAGE_MODES = ("free", "written")
COMMANDER_MODES = ("advisory", "strict")  # CA p.7: the commander's queue advises, or holds
MAX_MESSAGE_CHARS = 500
MAX_NOTE_CHARS = 200
PRESENCE_TIMEOUT = 15.0  # seconds without a heartbeat before a seat shows as gone
HEARTBEAT_EVERY = 5.0  # what a seat kernel should aim for
INSTRUCTOR = "instructor"  # the sender name of the instructor's messages
GAME_STATUSES = ("running", "paused", "ended")
OPEN_REQUESTS = ("waiting", "granted")
_TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{16,128}$")


class Refusal(StrEnum):
    """Why the store said no. Every refusal also carries a sentence for the page."""

    STALE = "stale"  # expected_version is not the current version
    ILLEGAL = "illegal"  # the engine's rules forbid it (message names the rule)
    PAUSED = "paused"  # the instructor paused this game or the whole class
    ENDED = "ended"  # the game is over or was ended by the instructor
    UNKNOWN_GAME = "unknown_game"
    UNKNOWN_CLASS = "unknown_class"
    UNKNOWN_SEAT = "unknown_seat"
    WRONG_SEAT = "wrong_seat"  # the action names a different seat from the sender
    BAD_ACTION = "bad_action"  # not an action, or a malformed one (message names the field)
    NOT_COMMANDER = "not_commander"  # only the overall commander may do this (CA p.7)
    MESSAGE_LIMIT = "message_limit"  # written-message mode: this turn's allowance is used
    BAD_MESSAGE = "bad_message"
    BAD_REQUEST = "bad_request"
    BAD_SETTING = "bad_setting"
    BUSY = "busy"  # the store stayed locked past its timeout; nothing was changed
    HELD = "held"  # strict commander: this seat waits for the commander's go-ahead (CA p.7)


@dataclass(frozen=True)
class Accepted:
    """The store did it. ``version`` is the game's version afterwards (None for class ops)."""

    version: int | None
    value: Any = None
    update: Any = None  # submit: the live.Update it caused (actions caught up on + this one)
    ok: ClassVar[bool] = True

    def __bool__(self) -> bool:
        return True


@dataclass(frozen=True)
class Refused:
    """The store refused and changed nothing.

    ``version`` is the game's current version when the game is known, so a stale page
    can catch up; ``rule`` is the rule section for :attr:`Refusal.ILLEGAL`. A refused
    ``submit`` carries in ``update`` what the seat's live game caught up on (so a stale
    page shows the new board at once). ``now``: for a stale order that the engine
    refuses on the current board, the engine's reason there (the page says it as is).
    """

    kind: Refusal
    message: str
    version: int | None = None
    rule: str | None = None
    update: Any = None
    now: str | None = None
    ok: ClassVar[bool] = False

    def __bool__(self) -> bool:
        return False

    def __str__(self) -> str:
        return self.message


Result = Accepted | Refused


@dataclass(frozen=True)
class ClassSettings:
    """Instructor's settings for a class (CA p.7: written messages, limits per turn, and
    whether the commander's queue advises or holds seats until granted)."""

    message_mode: str = "free"
    message_limit: int | None = None  # per seat per turn, only in written mode
    commander: str = "advisory"  # or "strict": a waiting or refused seat may not act

    def problem(self) -> str | None:
        """What is wrong with these settings, or None."""
        if self.message_mode not in MESSAGE_MODES:
            return f"message_mode: expected one of {', '.join(MESSAGE_MODES)}, got {self.message_mode!r}"
        lim = self.message_limit
        if lim is not None and (not isinstance(lim, int) or isinstance(lim, bool) or lim < 0):
            return f"message_limit: expected a whole number >= 0 or None, got {lim!r}"
        if self.commander not in COMMANDER_MODES:
            return (
                f"commander: expected one of {', '.join(COMMANDER_MODES)}, got {self.commander!r}"
            )
        return None


@dataclass(frozen=True)
class GameSpec:
    """What a new team game is made from; same spec, same board and dice stream."""

    team: int
    seed: int
    layout: Layout
    options: Options = Options()
    start: dict[str, Any] | None = None  # a Position's plain dict, or None for a diced board


@dataclass(frozen=True)
class ClassInfo:
    id: int
    name: str
    created: float
    settings: ClassSettings
    paused: bool


@dataclass(frozen=True)
class GameInfo:
    """A team game's row: its recipe, status and where the log has got to."""

    id: int
    class_id: int
    team: int
    seed: int | None  # None in a process without the store's key (sealed.py)
    options: Options
    layout: Layout
    start: dict[str, Any] | None
    status: str  # the game's own status: running, paused or ended
    class_paused: bool
    version: int
    revision: int  # bumps on every change to the game (actions, messages, queue, status)
    turn: int
    phase: str
    created: float
    ended_reason: str | None = None

    @property
    def effective_status(self) -> str:
        """``ended``, ``paused`` (this game or the whole class), or ``running``."""
        if self.status == "ended":
            return "ended"
        if self.status == "paused" or self.class_paused:
            return "paused"
        return "running"

    def spec(self) -> GameSpec:
        return GameSpec(self.team, self.seed, self.layout, self.options, self.start)


@dataclass(frozen=True)
class TokenInfo:
    """Whose link a token is: the instructor's (``seat`` None) or one seat's."""

    kind: str  # "instructor" or "seat"
    class_id: int
    game_id: int | None = None
    seat: str | None = None


@dataclass(frozen=True)
class LoggedAction:
    """One accepted action: its version, the seat that sent it and when."""

    game_id: int
    version: int
    seat: str
    action: Any
    turn: int  # the turn and phase in which it was taken
    phase: str
    at: float

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "version": self.version,
            "seat": self.seat,
            "action": action_to_json(self.action),
            "turn": self.turn,
            "phase": self.phase,
            "at": self.at,
        }


@dataclass(frozen=True)
class Message:
    id: int
    game_id: int
    seat: str
    turn: int
    text: str
    at: float


@dataclass(frozen=True)
class Request:
    """A seat asking to move or fire next; the commander grants or denies (CA p.7)."""

    id: int
    game_id: int
    seat: str
    note: str
    turn: int
    phase: str
    status: str
    asked: float
    decided: float | None = None
    decided_by: str | None = None

    @property
    def open(self) -> bool:
        return self.status in OPEN_REQUESTS


@dataclass(frozen=True)
class InstructorEntry:
    id: int
    class_id: int
    game_id: int | None
    kind: str
    data: dict[str, Any]
    at: float


@dataclass(frozen=True)
class CreatedClass:
    """A new class: its instructor token and every game's seat tokens."""

    info: ClassInfo
    instructor_token: str
    games: list[GameInfo]
    seat_tokens: dict[int, dict[str, str]] = field(default_factory=dict)


# --- shared helpers for every implementation -----------------------------------------------


def looks_like_token(token: Any) -> bool:
    return isinstance(token, str) and bool(_TOKEN_RE.match(token))


def parse_action(action: Any) -> tuple[Any, str | None]:
    """An engine action from a dataclass or its JSON form, or the reason it is not one.

    Both forms pass the engine's one shape check (``combined_arms.validate``), so a
    malformed action never reaches the log, where it would stop every replay.
    """
    if type(action) in ACTION_TYPES.values():
        problem = action_problem(action)
        return (None, f"malformed action: {problem}") if problem else (action, None)
    if isinstance(action, dict):
        try:
            return action_from_json(action), None
        except ActionFormatError as exc:
            return None, f"malformed action: {exc}"
    return None, f"expected a Combined Arms action or its JSON object, got {type(action).__name__}"


def clean_message(text: Any) -> tuple[str | None, str | None]:
    """The message text to store, or why it cannot be sent."""
    if not isinstance(text, str):
        return None, f"a message must be text, got {type(text).__name__}"
    text = text.strip()
    if not text:
        return None, "a message cannot be empty"
    if len(text) > MAX_MESSAGE_CHARS:
        return None, f"a message may be at most {MAX_MESSAGE_CHARS} characters, got {len(text)}"
    return text, None


def options_to_json(options: Options) -> dict[str, Any]:
    out = {"easier_game": options.easier_game, "auto_decisions": options.auto_decisions}
    if options.enemy_player:  # CA p.7 (hidden.py): only then, so older rows read the same
        out.update(enemy_player=True, handicap=options.handicap, bidding=options.bidding)
    return out


def options_from_json(data: Any) -> Options:
    if not isinstance(data, dict):
        raise StoreError(f"game options: expected an object, got {data!r}")
    try:
        return Options(**data)
    except TypeError as exc:
        raise StoreError(f"game options: {exc}") from None


def initial_state(spec: GameSpec | GameInfo) -> GameState:
    """The game before any action: the same spec always gives the same board and dice."""
    if spec.seed is None:
        raise NoKey(
            f"team {spec.team}'s game cannot be replayed here: its seed is sealed and this "
            "process has no key for the store (a seat kernel reads the referee's copy)"
        )
    position = None
    if spec.start is not None:
        from hexclass.classroom.combined_arms.positions import Position

        position = Position.from_dict(spec.start, source=f"team {spec.team} start")
    return new_game(spec.seed, spec.options, spec.layout.specs(), position)


# --- the interfaces ------------------------------------------------------------------------


class GameStore(abc.ABC):
    """What a seat page needs: the log, submitting, messages, the queue and presence."""

    @abc.abstractmethod
    def game(self, game_id: int) -> GameInfo | None:
        """The game's row, or None if there is no such game."""

    @abc.abstractmethod
    def lookup_token(self, token: str) -> TokenInfo | None:
        """Whose link ``token`` is, or None for an unknown token."""

    @abc.abstractmethod
    def submit(self, game_id: int, expected_version: int, seat: str, action: Any) -> Result:
        """Append ``action`` if ``expected_version`` is current and the engine allows it."""

    @abc.abstractmethod
    def actions(self, game_id: int, after: int = 0, limit: int | None = None) -> list[LoggedAction]:
        """Accepted actions with version > ``after``, oldest first."""

    def state(self, game_id: int, version: int | None = None) -> GameState:
        """An independent copy of the game's state (at ``version``, default the latest)."""
        live = self.live_game(game_id)
        if version is None:
            return live.copy_state()
        if isinstance(version, bool) or not isinstance(version, int):
            raise ValueError(f"version: expected an integer, got {version!r}")
        if not 0 <= version <= live.version:
            raise ValueError(f"version: expected 0 to {live.version}, got {version}")
        return live.at(version)

    def version(self, game_id: int) -> int:
        """The game's current version (0 before any action)."""
        game = self.game(game_id)
        if game is None:
            raise KeyError(f"there is no game {game_id}")
        return game.version

    @abc.abstractmethod
    def post_message(self, game_id: int, seat: str, text: str) -> Result:
        """Send a team message (limited per seat per turn in written mode, CA p.7)."""

    @abc.abstractmethod
    def messages(self, game_id: int, after_id: int = 0) -> list[Message]:
        """Messages with id > ``after_id``, oldest first."""

    @abc.abstractmethod
    def request_turn(self, game_id: int, seat: str, note: str = "") -> Result:
        """Ask the commander to let this seat move or fire next (CA p.7)."""

    @abc.abstractmethod
    def decide_request(self, game_id: int, seat: str, request_id: int, grant: bool) -> Result:
        """The commander grants or denies a waiting request."""

    @abc.abstractmethod
    def close_request(self, game_id: int, seat: str) -> Result:
        """A seat withdraws its waiting request or says its granted turn is done."""

    @abc.abstractmethod
    def requests(self, game_id: int, open_only: bool = True) -> list[Request]:
        """The request queue in the order asked."""

    @abc.abstractmethod
    def hold_seat(self, game_id: int, seat: str, client: str, take_over: bool = False) -> Result:
        """Which browser commands ``seat`` (a link opened twice); ``value``: True if ``client``.

        Decided by :func:`.policy.holds_seat`; ``take_over`` moves the seat to ``client``.
        """

    @abc.abstractmethod
    def seat_holder(self, game_id: int, seat: str) -> str | None:
        """The client currently commanding ``seat`` (None: nobody yet)."""

    @abc.abstractmethod
    def set_ready(self, game_id: int, seat: str, ready: bool = True) -> Result:
        """Mark a seat done (or not) for the current phase."""

    @abc.abstractmethod
    def ready(self, game_id: int) -> frozenset[str]:
        """Seats that said they are done in the current turn and phase."""

    @abc.abstractmethod
    def heartbeat(self, game_id: int, seat: str, client: str = "") -> Result:
        """A seat page is alive; call every :data:`HEARTBEAT_EVERY` seconds."""

    @abc.abstractmethod
    def leave(self, game_id: int, seat: str, client: str = "") -> Result:
        """A seat page closed."""

    @abc.abstractmethod
    def presence(self, game_id: int) -> dict[str, float]:
        """Seat -> last heartbeat time, for seats with any heartbeat."""

    @abc.abstractmethod
    def change_token(self, game_id: int | None = None) -> Any:
        """A cheap value that changes whenever another connection commits anything
        (a store may narrow it to changes of ``game_id``'s game, as PostgreSQL's does)."""

    @abc.abstractmethod
    def reader(self) -> GameStore:
        """A second handle on the same data with its own connection, for a follower."""

    pushes_changes: ClassVar[bool] = False  # True: wait_for_change wakes at a change itself

    def wait_for_change(self, token: Any, timeout: float) -> None:
        """Block until :meth:`change_token` may differ from ``token``, at most ``timeout``
        seconds. A store that pushes changes (:attr:`pushes_changes`, PostgreSQL's
        LISTEN/NOTIFY) wakes at once; one that cannot just sleeps (a follower polls)."""
        time.sleep(timeout)

    @abc.abstractmethod
    def close(self) -> None:
        """Release the connection."""

    def now(self) -> float:
        """The store's clock (seconds since the epoch); tests may replace it."""
        return time.time()

    @abc.abstractmethod
    def live_game(self, game_id: int, *, pin: bool = False, catch_up: bool = True):
        """This process's one :class:`.live.LiveGame` for ``game_id``, caught up to the store.

        The store checks orders against it and a page's follower shares it (``pin``
        keeps it in the cache for as long as the store lives).
        """

    # --- seats' own keys (sealed.py) ---------------------------------------------------------

    _sealer = None  # the store's key (sealed.Sealer), or None in a keyless process

    @property
    def has_key(self) -> bool:
        """True if this process holds the store's key (the server, referee, instructor)."""
        return self._sealer is not None

    def seat_key(self, game_id: int, seat: str):
        """The key of ``seat``'s own sealed rows (its enemy-player views and orders).

        A seat kernel has it once it looked its token up (:meth:`remember_seat`); a process
        with the store's key makes it from the sealed tokens. None: neither.
        """
        keys = self.__dict__.setdefault("_seat_keys", {})
        key = keys.get((game_id, seat))
        if key is None and self.has_key:
            info = self.game(game_id)
            if info is not None:
                for name, token in self.tokens(info.class_id)[1].get(game_id, {}).items():
                    keys[(game_id, name)] = seat_key(token)
                key = keys.get((game_id, seat))
        return key

    def remember_seat(self, found: TokenInfo | None, token: str) -> TokenInfo | None:
        """A seat's token was just looked up: keep its seat key (for :meth:`seat_key`)."""
        if found is not None and found.kind == "seat":
            keys = self.__dict__.setdefault("_seat_keys", {})
            keys[(found.game_id, found.seat)] = seat_key(token)
        return found

    def connected(self, game_id: int) -> frozenset[str]:
        """Seats with a heartbeat in the last :data:`PRESENCE_TIMEOUT` seconds."""
        now = self.now()
        return frozenset(
            s for s, seen in self.presence(game_id).items() if now - seen <= PRESENCE_TIMEOUT
        )

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class ClassStore(GameStore):
    """What the instructor console needs on top: classes, tokens, status and settings."""

    @abc.abstractmethod
    def create_class(
        self, name: str, settings: ClassSettings, games: list[GameSpec]
    ) -> CreatedClass:
        """Create a class with its games and every token, all in one transaction."""

    @abc.abstractmethod
    def class_info(self, class_id: int) -> ClassInfo | None:
        """The class's row, or None."""

    @abc.abstractmethod
    def classes(self) -> list[ClassInfo]:
        """Every class, oldest first."""

    @abc.abstractmethod
    def games(self, class_id: int) -> list[GameInfo]:
        """The class's games in team order."""

    @abc.abstractmethod
    def tokens(self, class_id: int) -> tuple[str, dict[int, dict[str, str]]]:
        """The instructor token and game id -> seat -> token."""

    @abc.abstractmethod
    def set_game_status(self, game_id: int, status: str, by: str = INSTRUCTOR) -> Result:
        """Pause, resume (``running``) or end one game; recorded in the instructor log."""

    @abc.abstractmethod
    def set_class_paused(self, class_id: int, paused: bool, by: str = INSTRUCTOR) -> Result:
        """Pause or resume the whole class; recorded in the instructor log."""

    @abc.abstractmethod
    def set_settings(self, class_id: int, settings: ClassSettings, by: str = INSTRUCTOR) -> Result:
        """Set the message mode and per-turn limit; recorded in the instructor log."""

    @abc.abstractmethod
    def instructor_log(self, class_id: int) -> list[InstructorEntry]:
        """Everything the instructor did to the class, oldest first."""


__all__ = [
    "Accepted",
    "ClassInfo",
    "ClassSettings",
    "ClassStore",
    "COMMANDER_MODES",
    "CreatedClass",
    "GameInfo",
    "GameSpec",
    "GameStore",
    "HEARTBEAT_EVERY",
    "INSTRUCTOR",
    "InstructorEntry",
    "LoggedAction",
    "MAX_MESSAGE_CHARS",
    "MESSAGE_MODES",
    "Message",
    "PRESENCE_TIMEOUT",
    "Refusal",
    "Refused",
    "Request",
    "Result",
    "STALE_MESSAGE",
    "StoreError",
    "TokenInfo",
    "clean_message",
    "initial_state",
    "looks_like_token",
    "new_token",
    "parse_action",
]
