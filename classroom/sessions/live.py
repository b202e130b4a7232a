"""One game per kernel: the replayed state of a team game and what each step changed.

A team game is its recipe (seed, options, seats, start) plus an append-only log of
accepted actions. :class:`LiveGame` is the *only* place that turns that log into a
:class:`~hexclass.classroom.combined_arms.state.GameState`: the store checks and appends
orders against it, a page's follower catches it up, the replay steps through it, the
debrief walks it and a saved record reloads through it. Every step forward goes
through :meth:`LiveGame.feed`, which returns an :class:`Update` naming the new
actions, the new events and the new version, so whoever moved the game on (the store
while accepting an order, or the follower while polling) hands on exactly what
changed and nothing is lost between them.

A store keeps one :class:`LiveGame` per game in a :class:`LiveGames` cache; a seat
kernel's follower shares the store's object, so a kernel holds one copy of its game.

>>> from hexclass.classroom.combined_arms import EndPhase
>>> from hexclass.classroom.sessions.roles import layout_for
>>> from hexclass.classroom.sessions.store import GameSpec, LoggedAction
>>> live = LiveGame(GameSpec(1, 7, layout_for(5)))
>>> step = live.next_entry("support", EndPhase("support"), at=0.0)
>>> upd = live.feed([step])
>>> upd.version, [a.version for a in upd.actions], live.state.phase
(1, [1], 'friendly_fire')
>>> bool(live.feed([step]))  # already applied: nothing new
False
>>> live.at(0).phase, len(live)
('friendly_move', 1)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from hexclass.classroom.combined_arms.actions import ActionFormatError, action_from_json
from hexclass.classroom.combined_arms.engine import apply
from hexclass.classroom.combined_arms.game import FORMAT, VERSION, RecordError, record
from hexclass.classroom.combined_arms.reasons import IllegalAction
from hexclass.classroom.combined_arms.state import Event, GameState

from .store import (
    ClassSettings,
    GameInfo,
    GameSpec,
    LoggedAction,
    Message,
    Request,
    StoreError,
    initial_state,
)

CHECKPOINT_EVERY = 25  # a copy of the state every this many versions (random access)
CACHE_GAMES = 64  # live games a store keeps besides the ones pages follow


@dataclass
class Update:
    """What changed: new actions and events up to ``version``, and (from a follower) the rest.

    Falsy when nothing changed. :meth:`LiveGame.feed` fills the board part; a
    follower's poll adds messages, the queue, ready flags, presence and settings; a
    store's submit returns the update it caused (the actions it caught up on plus the
    one it accepted), on a refusal too.
    """

    version: int
    actions: list[LoggedAction] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    status: str | None = None  # the new effective status, when it changed
    messages: list[Message] = field(default_factory=list)
    requests: list[Request] | None = None  # the open queue, when it changed
    ready: frozenset[str] | None = None  # when it changed
    connected: frozenset[str] | None = None  # when it changed
    settings: ClassSettings | None = None  # when the instructor changed them
    more: bool = False  # more actions wait; poll again soon

    def __bool__(self) -> bool:
        return bool(
            self.actions
            or self.messages
            or self.more
            or any(
                x is not None
                for x in (self.status, self.requests, self.ready, self.connected, self.settings)
            )
        )

    @property
    def board_changed(self) -> bool:
        return bool(self.actions)

    def merge(self, later: Update) -> Update:
        """This update followed by ``later`` (for a page that got two before redrawing)."""
        self.version = max(self.version, later.version)
        self.actions = self.actions + later.actions
        self.events = self.events + later.events
        self.messages = self.messages + later.messages
        for name in ("status", "requests", "ready", "connected", "settings"):
            if getattr(later, name) is not None:
                setattr(self, name, getattr(later, name))
        self.more = later.more
        return self


class LiveGame:
    """A team game replayed from its log; the single state a kernel holds for it.

    ``state`` is the game after ``version`` actions; ``log`` the actions applied so far.
    Hold :attr:`lock` while reading ``state`` from another thread than the one that
    feeds it.
    """

    def __init__(
        self,
        spec: GameSpec | GameInfo,
        game_id: int | None = None,
        checkpoint_every: int = CHECKPOINT_EVERY,
    ) -> None:
        self.spec = spec
        self.game_id = getattr(spec, "id", None) if game_id is None else game_id
        self.every = max(1, checkpoint_every)
        self.lock = threading.RLock()
        self.state: GameState = initial_state(spec)
        self.log: list[LoggedAction] = []
        self._checkpoints: dict[int, GameState] = {0: self.state.copy()}

    @property
    def version(self) -> int:
        return len(self.log)

    def __len__(self) -> int:
        return len(self.log)

    # --- moving forward ------------------------------------------------------------------

    def feed(self, logged: Iterable[LoggedAction]) -> Update:
        """Apply the logged actions not yet applied, in order; returns what they changed.

        Entries at or below :attr:`version` are skipped (another caller already fed
        them); a gap or an action the engine refuses means the log is broken
        (:class:`~.store.StoreError`).
        """
        with self.lock:
            first_event = len(self.state.events)
            applied: list[LoggedAction] = []
            for entry in logged:
                if entry.version <= self.version:
                    continue
                self._apply_one(entry)
                applied.append(entry)
            return Update(self.version, applied, self.state.events[first_event:])

    def _apply_one(self, entry: LoggedAction) -> None:
        if entry.version != self.version + 1:
            raise StoreError(
                f"game {self.game_id}: the log jumps from version {self.version} to {entry.version}"
            )
        try:
            apply(self.state, entry.action)
        except IllegalAction as exc:
            raise StoreError(
                f"game {self.game_id} version {entry.version} no longer replays: {exc}"
            ) from None
        self.log.append(entry)
        if self.version % self.every == 0:
            self._checkpoints[self.version] = self.state.copy()

    def next_entry(self, seat: str, action: Any, at: float) -> LoggedAction:
        """The log entry ``action`` would get if accepted now (turn and phase before it)."""
        return LoggedAction(
            self.game_id, self.version + 1, seat, action, self.state.turn, self.state.phase, at
        )

    def catch_up(self, read: Callable[[int], list[LoggedAction]]) -> Update:
        """Feed whatever ``read(after_version)`` returns (a store's log reader)."""
        with self.lock:
            return self.feed(read(self.version))

    def rewind(self, version: int) -> None:
        """Forget everything after ``version`` (a store whose commit failed after applying)."""
        with self.lock:
            if not 0 <= version <= self.version:
                raise ValueError(f"version: expected 0 to {self.version}, got {version}")
            keep = self.log[:version]
            self._checkpoints = {v: s for v, s in self._checkpoints.items() if v <= version}
            base = max(self._checkpoints)
            self.state = self._checkpoints[base].copy()
            self.log = keep[:base]
            for entry in keep[base:]:
                self._apply_one(entry)

    # --- looking back ----------------------------------------------------------------------

    def at(self, version: int) -> GameState:
        """A fresh copy of the state after ``version`` actions (0: the start)."""
        with self.lock:
            if not 0 <= version <= self.version:
                raise ValueError(f"version: expected 0 to {self.version}, got {version}")
            if version == self.version:
                return self.state.copy()
            base = max(v for v in self._checkpoints if v <= version)
            state = self._checkpoints[base].copy()
            steps = self.log[base:version]
        for entry in steps:
            apply(state, entry.action)
        return state

    def walk(self, upto: int | None = None) -> Iterator[tuple[LoggedAction | None, GameState]]:
        """``(step, state)`` from the start (step None) on, one state changed in place.

        The same state object is yielded each time, already changed by ``step``; copy
        it to keep one.
        """
        with self.lock:
            steps = list(self.log if upto is None else self.log[:upto])
            state = self._checkpoints[0].copy()
        yield None, state
        for entry in steps:
            apply(state, entry.action)
            yield entry, state

    def copy_state(self) -> GameState:
        with self.lock:
            return self.state.copy()

    # --- save and load -----------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The game as a replayable record (:func:`~hexclass.classroom.combined_arms.game.record`)."""
        with self.lock:
            return record(self.state)

    @classmethod
    def from_record(
        cls, data: dict[str, Any], spec: GameSpec, source: str = "<record>"
    ) -> LiveGame:
        """Reload a saved record of the game made from ``spec``, naming the field at fault."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"{source}: field 'format' must be {FORMAT!r}")
        if data.get("version") != VERSION:
            raise RecordError(f"{source}: field 'version' must be {VERSION}")
        if data.get("seed") != spec.seed:
            raise RecordError(
                f"{source}: field 'seed' is {data.get('seed')!r}, the game's seed is {spec.seed}"
            )
        live = cls(spec)
        raw = data.get("actions") or []
        if not isinstance(raw, list):
            raise RecordError(f"{source}: field 'actions' must be a list")
        for i, item in enumerate(raw):
            try:
                action = action_from_json(item)
            except (ActionFormatError, TypeError) as exc:
                raise RecordError(f"{source}: field 'actions[{i}]': {exc}") from None
            seat = getattr(action, "seat", "")
            try:
                live.feed([live.next_entry(seat, action, at=0.0)])
            except StoreError:
                raise RecordError(
                    f"{source}: field 'actions[{i}]' is not legal on replay"
                ) from None
        return live


class LiveGames:
    """A store's live games: one :class:`LiveGame` per game, least recently used dropped.

    Games a page follows are *pinned* and never dropped, so the follower and the store
    keep sharing one object.
    """

    def __init__(self, limit: int = CACHE_GAMES) -> None:
        self.limit = limit
        self._games: OrderedDict[int, LiveGame] = OrderedDict()
        self._pinned: set[int] = set()
        self._lock = threading.Lock()

    def get(self, info: GameInfo, pin: bool = False) -> LiveGame:
        """The game's live copy (a fresh one at version 0 the first time)."""
        with self._lock:
            live = self._games.get(info.id)
            if live is None:
                live = LiveGame(info)
                self._games[info.id] = live
            self._games.move_to_end(info.id)
            if pin:
                self._pinned.add(info.id)
            self._evict()
            return live

    def _evict(self) -> None:
        for gid in list(self._games):
            if len(self._games) <= self.limit:
                return
            if gid not in self._pinned:
                del self._games[gid]

    def drop(self, game_id: int) -> None:
        with self._lock:
            self._games.pop(game_id, None)
            self._pinned.discard(game_id)

    def clear(self) -> None:
        with self._lock:
            self._games.clear()
            self._pinned.clear()


__all__ = ["CACHE_GAMES", "CHECKPOINT_EVERY", "LiveGame", "LiveGames", "Update"]
