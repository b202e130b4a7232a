"""Following a game from a page: poll a cheap change counter, replay only what is new.

A :class:`GameFollower` reads on its own store connection but shares the store's
:class:`~.live.LiveGame` (one game per kernel): what the store's ``submit`` applied is
not applied again, and comes back to the page in the submit's own update.
:meth:`GameFollower.poll` first asks the store's change token (``PRAGMA data_version``
for SQLite: a few microseconds, no lock); only when it moved does it read the game row,
apply the new actions (at most ``max_actions`` per call, so a timer callback never
stalls) and fetch new messages, the request queue and ready flags. Presence is
re-read every ``presence_every`` seconds because a seat goes away by *not* writing.

Call :meth:`~GameFollower.poll` from a widget timer, or run a :class:`FollowLoop`
thread; hold :attr:`GameFollower.lock` while drawing from :attr:`GameFollower.state`
if another thread polls.

A :class:`ClassFollower` does the same for every team of a class and keeps the
instructor console's :class:`~.views.TeamSummary` rows fresh.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from hexclass.classroom.combined_arms.state import GameState

from .live import LiveGame, Update
from .store import (
    ClassSettings,
    ClassStore,
    GameInfo,
    GameStore,
    Message,
    Request,
    StoreError,
)
from .views import TeamSummary, team_summary

MAX_ACTIONS_PER_POLL = 500
_UNREAD = object()  # a change token no store gives: the data behind it is still to be read
PRESENCE_EVERY = 1.0  # seconds: a page that has gone shows as away soon (issue 22)


class GameFollower:
    """One page's live copy of a team game (see the module docstring)."""

    def __init__(
        self,
        store: GameStore,
        game_id: int,
        *,
        reader: GameStore | None = None,
        live: LiveGame | None = None,
        max_actions: int = MAX_ACTIONS_PER_POLL,
        presence_every: float = PRESENCE_EVERY,
    ) -> None:
        self._own_reader = reader is None
        self._reader = reader if reader is not None else store.reader()
        self.game_id = game_id
        self.max_actions = max_actions
        self.presence_every = presence_every
        self.lock = threading.RLock()
        info = self._reader.game(game_id)
        if info is None:
            self.close()
            raise KeyError(f"there is no game {game_id}")
        self.info: GameInfo = info
        # the kernel's one copy of the game: the store's, shared (pinned in its cache)
        self.live: LiveGame = (
            live if live is not None else store.live_game(game_id, pin=True, catch_up=False)
        )
        self.messages: list[Message] = []
        self.requests: list[Request] = []
        self.ready: frozenset[str] = frozenset()
        self.connected: frozenset[str] = frozenset()
        self.settings: ClassSettings | None = None
        self._token: Any = None
        self._revision: int | None = None
        self._presence_at = float("-inf")
        self._more = False
        while self.poll(force=True).more:
            pass

    @property
    def state(self) -> GameState:
        return self.live.state

    @property
    def version(self) -> int:
        return self.live.version

    @property
    def status(self) -> str:
        return self.info.effective_status

    def poll(self, force: bool = False) -> Update:
        """Bring the local copy up to date; returns what changed (falsy if nothing)."""
        with self.lock:
            now = time.monotonic()
            token = self._reader.change_token(self.game_id)
            presence_due = now - self._presence_at >= self.presence_every
            changed = force or self._more or token != self._token
            update = Update(self.version)
            if not changed and not presence_due:
                return update
            if changed:
                self._token = token  # read before the data: a later commit shows next time
                try:
                    self._refresh(update)
                except BaseException:
                    self._token = _UNREAD  # cut off mid-read: the next poll reads again
                    raise
            connected = self._reader.connected(self.game_id)
            self._presence_at = now
            if connected != self.connected:
                self.connected = update.connected = connected
            update.version = self.version
            return update

    def wait_for_change(self, timeout: float) -> None:
        """Sleep up to ``timeout`` seconds, or less if the store pushes a change of this game
        (PostgreSQL's LISTEN/NOTIFY); a store that cannot push just sleeps."""
        if self._token is None:
            time.sleep(timeout)
        else:
            self._reader.wait_for_change(self._token, timeout)

    def _refresh(self, update: Update) -> None:
        # a store that can read everything below in one round trip (PostgreSQL) does
        snapshot = getattr(self._reader, "follower_snapshot", None)
        if snapshot is not None:
            last = self.messages[-1].id if self.messages else 0
            r = snapshot(self.game_id, self.version, last, self.max_actions)
        else:
            r = self._reader
        info = r.game(self.game_id)
        if info is None:
            raise StoreError(f"game {self.game_id} has disappeared from the store")
        if info.revision == self._revision and not self._more:
            return
        if info.version > self.version:
            self._apply_new(update, r)
        self._more = self.version < info.version
        update.more = self._more
        if info.effective_status != self.info.effective_status:
            update.status = info.effective_status
        self.info = info
        self._refresh_side(update, r)
        if not self._more:
            self._revision = info.revision

    def _apply_new(self, update: Update, r=None) -> None:
        r = self._reader if r is None else r
        logged = r.actions(self.game_id, after=self.version, limit=self.max_actions)
        fed = self.live.feed(logged)  # skips what the store's submit already applied
        update.actions, update.events = fed.actions, fed.events

    def _refresh_side(self, update: Update, r=None) -> None:
        """Messages, the request queue, ready flags and the class's message rules."""
        r = self._reader if r is None else r
        last = self.messages[-1].id if self.messages else 0
        new = r.messages(self.game_id, after_id=last)
        if new:
            self.messages.extend(new)
            update.messages = new
        requests = r.requests(self.game_id)
        if requests != self.requests:
            self.requests = update.requests = requests
        ready = r.ready(self.game_id)
        if ready != self.ready:
            self.ready = update.ready = ready
        class_info = getattr(r, "class_info", None)
        if class_info is not None:
            c = class_info(self.info.class_id)
            if c is not None and c.settings != self.settings:
                self.settings = update.settings = c.settings

    def close(self) -> None:
        if self._own_reader:
            self._reader.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class ClassFollower:
    """The instructor console's live view of every team, one shared connection."""

    def __init__(self, store: ClassStore, class_id: int, *, projected: bool = True) -> None:
        self._reader = store.reader()
        self.class_id = class_id
        self.projected = projected
        games = self._reader.games(class_id)
        if not games:
            self._reader.close()
            raise KeyError(f"there is no class {class_id} (or it has no games)")
        self.followers = {
            g.id: GameFollower(
                store, g.id, reader=self._reader, live=store.live_game(g.id, pin=True)
            )
            for g in games
        }
        self.summaries: dict[int, TeamSummary] = {}
        self._token: Any = None
        for gid in self.followers:
            self._summarise(gid)

    def poll(self) -> dict[int, Update]:
        """Poll every team; returns the updates of the teams that changed."""
        self._token = self._reader.change_token()  # before the reads: a later commit shows
        changed = {}
        for gid, f in self.followers.items():
            upd = f.poll()
            if upd:
                changed[gid] = upd
                self._summarise(gid)
        return changed

    def wait_for_change(self, timeout: float) -> None:
        """Sleep up to ``timeout`` seconds, or less if the store pushes a change of any
        team's game since the last :meth:`poll`."""
        self._reader.wait_for_change(self._token, timeout)

    def _summarise(self, game_id: int) -> None:
        f = self.followers[game_id]
        with f.lock:
            self.summaries[game_id] = team_summary(
                f.info, f.state, f.requests, f.ready, f.connected, self.projected
            )

    def table(self) -> list[dict[str, Any]]:
        """Summary rows in team order (``pandas.DataFrame(follower.table())``)."""
        return [self.summaries[g].to_row() for g in sorted(self.summaries, key=self._team)]

    def _team(self, game_id: int) -> int:
        return self.followers[game_id].info.team

    def close(self) -> None:
        self._reader.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class FollowLoop:
    """A daemon thread that polls a follower and calls ``on_update`` when something changed.

    Errors raised by the callback are kept in :attr:`errors` (the loop keeps going).
    """

    def __init__(
        self,
        follower: GameFollower | ClassFollower,
        on_update: Callable[[Any], None],
        interval: float = 0.1,
    ) -> None:
        self.follower = follower
        self.on_update = on_update
        self.interval = interval
        self.errors: list[BaseException] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hexclass-follow", daemon=True)

    def start(self) -> FollowLoop:
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                update = self.follower.poll()
                if update:
                    self.on_update(update)
            except Exception as exc:  # keep following; the page shows the error
                self.errors.append(exc)
                del self.errors[:-20]
            self.follower.wait_for_change(self.interval)  # woken at once by a pushed change


__all__ = ["ClassFollower", "FollowLoop", "GameFollower", "Update"]
