"""Hidden information across kernels: the enemy-player variant's referee and seat views.

In an enemy-player game (CA p.7) the defender's deployment must never reach an attacking
seat: not its browser, and not its kernel either. So no seat kernel of such a game
replays the action log (a replay holds the dice and every secret). Instead:

* a seat **places an order** (``hidden_orders``: game, seat, the version it saw, the
  action) and waits for the verdict;
* the **referee** — one trusted process per store, started by ``hexclass serve`` — takes
  the orders in turn and passes each to the store's ordinary ``submit`` (the same
  policy, rebase and engine checks as any co-op game), then **publishes** for every seat
  the copy of the game it may see (``public.seat_copy``: sealed dice, no seed; the
  defender keeps its own secrets, attackers get none) in ``hidden_views``;
* a seat kernel reads only its own view (:class:`HiddenGame`).

The instructor's console reads the whole log as for any game (the instructor sees
everything). The three tables are created by both stores (schema version 3).

A seat's own view and its orders are sealed with that seat's key (``sealed.seat_key``,
made from its token): the store never holds them in clear, another seat's kernel
cannot open them, and cannot place an order in another seat's name (the referee
refuses an order that its seat's key does not open). Only the public view (``PUBLIC``: what every attacker sees) is plain.
Since schema 4 the referee also publishes the public view of every co-op game, and a
seat kernel without the store's key (``hexclass serve`` gives its seat kernels none)
follows that view and sends its orders here as well (:mod:`.relay`).

The tables and their rows are :mod:`.hidden_tables` (the stores create them); this
module is the referee and the seat's side.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator

from hexclass.classroom.combined_arms.actions import action_to_json
from hexclass.classroom.combined_arms.engine import check
from hexclass.classroom.combined_arms.public import from_json, seat_copy, to_json
from hexclass.classroom.combined_arms.reasons import Verdict
from hexclass.classroom.combined_arms.state import GameState

from .hidden_tables import PUBLIC, HiddenTables, Order
from .locate import open_location
from .store import StoreError

DEFENDER = "defender"


# --- what each seat sees -----------------------------------------------------------------


def audience(state: GameState, seat: str) -> str:
    """Seats that see the same copy share an audience: every attacker once bidding is
    over; the defender, and each bidder while bids are sealed, see their own."""
    spec = state.seats[seat]
    if DEFENDER in spec.powers or state.phase == "bidding":
        return seat
    return PUBLIC


def views_of(state: GameState) -> tuple[dict[str, str], dict[str, str]]:
    """(audience -> JSON copy, seat -> audience) for every seat of the game."""
    seats = {s: audience(state, s) for s in state.seats}
    texts: dict[str, str] = {}
    for seat, aud in seats.items():
        if aud not in texts:
            defends = DEFENDER in state.seats[seat].powers
            texts[aud] = to_json(seat_copy(state, seat), defender=defends)
    return texts, seats


# --- the referee -------------------------------------------------------------------------


class Referee:
    """Decides the seats' orders of every game in a store and publishes the seats' views.

    Enemy-player games (CA p.7) publish one view per audience; co-op games one public
    view (sealed dice, no seed) that every seat kernel without the store's key follows.
    """

    def __init__(self, store, log: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.tables: HiddenTables = store.hidden()
        self.published: dict[int, int] = self.tables.published()
        self.log = log or (lambda text: None)

    def step(self) -> int:
        """Decide every waiting order, then publish what changed; returns orders decided."""
        decided = 0
        for order in self.tables.waiting_orders():
            if self.tables.claim_order(order.nonce):  # another host's referee may be quicker
                self.decide(order)
                decided += 1
        for game_id, version in self.tables.game_versions().items():
            if self.published.get(game_id) != version:
                self.publish(game_id)
        return decided

    def decide(self, order: Order, hidden: bool | None = None) -> None:
        if order.action is None:
            detail = {
                "kind": "bad_action",
                "message": "this order is not sealed with its seat's key",
            }
            self.tables.decide_order(order, "refused", detail)
            return
        try:
            result = self.store.submit(order.game_id, order.expected, order.seat, order.action)
        except (StoreError, KeyError) as exc:  # say so to the seat; the referee goes on
            self.log(f"referee: order {order.nonce[:6]} of game {order.game_id}: {exc}")
            detail = {"kind": "busy", "message": f"the order could not be decided: {exc}"}
            self.tables.decide_order(order, "refused", detail)
            return
        self.publish(order.game_id)  # first: a seat told "accepted" finds the new copy there
        if result:
            self.tables.decide_order(order, "accepted", {"version": result.version})
        else:
            detail = {
                "kind": str(result.kind),
                "message": result.message,
                "rule": getattr(result, "rule", None) or "",
                "version": result.version,
                "now": result.now,
            }
            self.tables.decide_order(order, "refused", detail)

    def publish(self, game_id: int) -> None:
        try:
            live = self.store.live_game(game_id)
        except KeyError:  # no such game (an order for a made-up id): nothing to publish
            self.published[game_id] = -1
            return
        with live.lock:
            texts, seats = views_of(live.state)
            version = live.version
        self.tables.publish(game_id, version, texts, seats)
        self.published[game_id] = version

    def run(self, stop: threading.Event, interval: float = 0.02) -> None:
        while not stop.is_set():
            try:
                busy = self.step()
            except StoreError as exc:  # a busy or lost store: say so and try again
                self.log(f"referee: {exc}")
                busy = 0
            if not busy:
                stop.wait(interval)


# --- a seat's side -------------------------------------------------------------------------


class HiddenGame:
    """One seat's copy of an enemy-player game, and the way its orders go in.

    The interface of the co-op pages' games (``widgets/game_link.GameHandle``): ``state``,
    ``submit(action)`` and ``check(action)``, each answered with a :class:`Verdict`;
    ``refresh()`` reads a newer view.
    """

    def __init__(self, store, game_id: int, seat: str, wait: float = 20.0) -> None:
        self.tables: HiddenTables = store.hidden()
        self.game_id = game_id
        self.seat = seat
        self.wait = wait
        self.version = -1
        self.state: GameState | None = None
        self.listeners: list[Callable[[], None]] = []
        self.refresh()

    def refresh(self) -> bool:
        """Read this seat's copy if a newer one was published; True if it changed."""
        if self.tables.view_version(self.game_id, self.seat) == self.version:
            return False
        got = self.tables.view(self.game_id, self.seat)
        if got is None:
            return False
        self.version, text = got
        self.state = from_json(text)
        return True

    @property
    def ready(self) -> bool:
        return self.state is not None

    def check(self, action) -> Verdict:
        if self.state is None:
            return Verdict.refused("the game is not ready yet: the referee has not published it")
        return Verdict.judge(check(self.state, action))

    def submit(self, action) -> Verdict:
        """Place the order and wait for the referee's verdict; then read the new view."""
        nonce = self.tables.place_order(
            self.game_id, self.seat, self.version, action_to_json(action)
        )
        deadline = time.monotonic() + self.wait
        for pause in _pauses():
            order = self.tables.order(nonce)
            if order is not None and order.status in ("accepted", "refused"):
                break
            if time.monotonic() > deadline:
                return Verdict.refused(
                    "the referee did not answer: is `hexclass serve` running? "
                    "(your order is kept and will be decided when it is)"
                )
            time.sleep(pause)
        target = order.detail.get("version", self.version) if order.status == "accepted" else 0
        for pause in _pauses():
            self.refresh()
            if self.version >= target or time.monotonic() > deadline:
                break
            time.sleep(pause)
        if order.status == "accepted":
            return Verdict.ok()
        detail = order.detail
        return Verdict.refused(
            detail.get("message", "refused"), detail.get("kind"), detail.get("rule")
        )


def _pauses() -> Iterator[float]:
    pause = 0.005
    while True:
        yield pause
        pause = min(pause * 1.5, 0.1)


# --- the referee as a process --------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """``python -m hexclass.classroom.sessions.hidden --store URL``: referee until SIGTERM/SIGINT."""
    import argparse

    p = argparse.ArgumentParser(prog="hexclass-referee", description=__doc__.split("\n")[0])
    p.add_argument("--store", required=True, help="the store's path or URL")
    args = p.parse_args(argv)
    store = open_location(args.store)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda *_: stop.set())
    print(f"referee: deciding enemy-player orders in {args.store}", file=sys.stderr, flush=True)
    Referee(store, log=lambda t: print(t, file=sys.stderr, flush=True)).run(stop)
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
