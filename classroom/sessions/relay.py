"""A co-op seat kernel without the store's key: it follows the referee's public copy.

``hexclass serve`` gives its seat kernels no key for the store (:mod:`.sealed`), so such
a kernel cannot read a battle's seed and cannot replay the log (a replay holds the dice,
which foretell every roll). It does what an enemy-player seat does (:mod:`.hidden`):

* it **draws** the public copy the referee publishes after every change
  (``public.seat_copy``: sealed dice, no seed) — :class:`PublicGame`, which stands in
  for the kernel's :class:`~.live.LiveGame`;
* it **sends its orders** to the referee (``hidden_orders``, sealed with the seat's own
  key) and waits for the verdict: the referee passes each to the store's ordinary
  ``submit`` (the same policy, rebase and engine checks).

The seat API does not change: :func:`.session.open_seat` picks this route when the
store handle has no key (:attr:`~.store.GameStore.has_key`); ``seat.follower()`` is a
:class:`RelayFollower` (a :class:`~.follow.GameFollower`) and ``seat.submit`` returns
the same ``Accepted``/``Refused`` with the ``update`` the kernel caught up on.
Everything that holds no secret (messages, the queue, ready flags, presence) is read
and written in the store as before.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

from hexclass.classroom.combined_arms.actions import action_to_json
from hexclass.classroom.combined_arms.public import from_json
from hexclass.classroom.combined_arms.state import GameState

from . import policy
from .follow import GameFollower
from .live import Update
from .store import Accepted, LoggedAction, Refusal, Refused, Result, StoreError, parse_action

FIRST_VIEW_WAIT = 10.0  # seconds a new seat waits for the referee's first copy
VERDICT_WAIT = 20.0  # seconds an order waits for the referee's verdict
NO_REFEREE = (
    "the referee did not answer: is `hexclass serve` running? "
    "(your order is kept and will be decided when it is)"
)


class PublicGame:
    """The kernel's one copy of a co-op game: the referee's latest public view of it.

    It stands where a :class:`~.live.LiveGame` stands for a follower (``state``,
    ``version``, ``lock``), but moves on only by reading a newer published copy.
    """

    def __init__(self, store, game_id: int, seat: str, wait: float = FIRST_VIEW_WAIT) -> None:
        self.store = store
        self.tables = store.hidden()
        self.game_id = game_id
        self.seat = seat
        self.lock = threading.RLock()
        self.state: GameState | None = None
        self.version = -1
        deadline = time.monotonic() + wait
        for pause in _pauses():
            self.refresh()
            if self.state is not None:
                break
            if time.monotonic() > deadline:
                raise StoreError(
                    "the game's board has not been published yet: is `hexclass serve` "
                    "(its referee) running? Reload the page in a moment"
                )
            time.sleep(pause)

    def refresh(self, reader=None) -> Update:
        """Read the newest published copy if there is one; the Update names what changed."""
        with self.lock:
            if self.tables.view_version(self.game_id, self.seat) == self.version:
                return Update(self.version)
            got = self.tables.view(self.game_id, self.seat)
            if got is None or got[0] <= self.version:
                return Update(self.version)
            version, text = got
            state = from_json(text)
            first = len(self.state.events) if self.state is not None else 0
            logged = (reader or self.store).actions(self.game_id, after=max(0, self.version))
            applied = [a for a in logged if a.version <= version]
            self.state, self.version = state, version
            return Update(version, applied, state.events[first:])

    def wait_for(self, version: int, deadline: float) -> Update:
        """Catch up until the copy reaches ``version`` (or the deadline passes)."""
        update = Update(self.version)
        for pause in _pauses():
            update.merge(self.refresh())
            if self.version >= version or time.monotonic() > deadline:
                return update
            time.sleep(pause)
        return update  # pragma: no cover - _pauses never ends

    def feed(self, logged: list[LoggedAction]) -> Update:  # what a LiveGame's user calls
        return self.refresh()


class RelayFollower(GameFollower):
    """A :class:`~.follow.GameFollower` whose board is the referee's public copy."""

    def __init__(self, store, game_id: int, public: PublicGame, **kw) -> None:
        super().__init__(store, game_id, live=public, **kw)

    def _refresh(self, update: Update) -> None:
        snapshot = getattr(self._reader, "follower_snapshot", None)
        if snapshot is not None:
            last = self.messages[-1].id if self.messages else 0
            r = snapshot(self.game_id, max(0, self.version), last, self.max_actions)
        else:
            r = self._reader
        info = r.game(self.game_id)
        if info is None:
            raise StoreError(f"game {self.game_id} has disappeared from the store")
        if info.revision == self._revision:
            return
        fed = self.live.refresh(r)  # the referee's publishing bumps the revision
        update.actions, update.events = fed.actions, fed.events
        self._more = update.more = False
        if info.effective_status != self.info.effective_status:
            update.status = info.effective_status
        self.info = info
        self._refresh_side(update, r)
        self._revision = info.revision


class Relay:
    """A keyless seat's way to the referee: orders in, verdicts and public copies out."""

    def __init__(self, store, game_id: int, seat: str) -> None:
        self.store = store
        self.game_id = game_id
        self.seat = seat
        self.game = PublicGame(store, game_id, seat)
        self.tables = self.game.tables
        self.wait = VERDICT_WAIT

    def follower(self) -> RelayFollower:
        return RelayFollower(self.store, self.game_id, self.game)

    def submit(self, expected: int, action) -> Result:
        """Place the order, wait for the referee's verdict, catch the copy up to it."""
        parsed, why = parse_action(action)
        if why:
            return Refused(Refusal.BAD_ACTION, why)
        wrong_version = policy.version_problem(expected)
        if wrong_version is not None:
            return wrong_version
        nonce = self.tables.place_order(self.game_id, self.seat, expected, action_to_json(parsed))
        deadline = time.monotonic() + self.wait
        order = self._verdict(nonce, deadline)
        if order is None:
            return Refused(Refusal.BUSY, NO_REFEREE, update=self.game.refresh())
        detail = order.detail or {}
        if order.status == "accepted":
            version = detail.get("version", self.game.version)
            update = self.game.wait_for(version, time.monotonic() + self.wait)
            return Accepted(version, parsed, update=update)
        update = self.game.wait_for(detail.get("version") or 0, deadline)
        try:
            kind = Refusal(detail.get("kind", "busy"))
        except ValueError:
            kind = Refusal.BUSY
        return Refused(
            kind,
            detail.get("message", "refused"),
            detail.get("version"),
            detail.get("rule") or None,
            update=update,
            now=detail.get("now"),
        )

    def _verdict(self, nonce: str, deadline: float):
        for pause in _pauses():
            order = self.tables.order(nonce)
            if order is not None and order.status in ("accepted", "refused"):
                return order
            if time.monotonic() > deadline:
                return None
            time.sleep(pause)
        return None  # pragma: no cover


def _pauses() -> Iterator[float]:
    pause = 0.005
    while True:
        yield pause
        pause = min(pause * 1.5, 0.02)


__all__ = ["PublicGame", "Relay", "RelayFollower"]
