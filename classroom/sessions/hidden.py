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

>>> HIDDEN_TABLES[:40]
'CREATE TABLE IF NOT EXISTS hidden_orders'
"""

from __future__ import annotations

import json
import secrets
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from classroom.combined_arms.actions import action_to_json
from classroom.combined_arms.engine import check
from classroom.combined_arms.public import from_json, seat_copy, to_json
from classroom.combined_arms.state import GameState

from .store import GameInfo, StoreError

DEFENDER = "defender"
PUBLIC = "public"  # the audience of every attacking seat once the bidding is over

# Portable DDL: SQLite and PostgreSQL both read it (no autoincrement: orders carry a
# random nonce made by the seat's kernel).
HIDDEN_TABLES = """
CREATE TABLE IF NOT EXISTS hidden_orders (
    nonce    TEXT PRIMARY KEY,
    game_id  INTEGER NOT NULL,
    seat     TEXT NOT NULL,
    expected INTEGER NOT NULL,
    action   TEXT NOT NULL,
    status   TEXT NOT NULL DEFAULT 'waiting'
             CHECK (status IN ('waiting', 'deciding', 'accepted', 'refused')),
    detail   TEXT,
    created  DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS hidden_orders_waiting ON hidden_orders (status, created);
CREATE TABLE IF NOT EXISTS hidden_views (
    game_id  INTEGER NOT NULL,
    audience TEXT NOT NULL,
    version  INTEGER NOT NULL,
    state    TEXT NOT NULL,
    PRIMARY KEY (game_id, audience)
);
CREATE TABLE IF NOT EXISTS hidden_seats (
    game_id  INTEGER NOT NULL,
    seat     TEXT NOT NULL,
    audience TEXT NOT NULL,
    version  INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
"""

Run = Callable[[str, tuple], Any]  # run(sql with ? placeholders, params) -> cursor


def is_hidden(game: GameInfo) -> bool:
    """An enemy-player game: its seats see views, never the log."""
    return game.options.enemy_player


@dataclass(frozen=True)
class Order:
    nonce: str
    game_id: int
    seat: str
    expected: int
    action: dict
    status: str
    detail: dict | None
    created: float


class HiddenTables:
    """The three tables, through a store's transaction (``tx()`` yields ``run``)."""

    def __init__(self, tx: Callable[[], AbstractContextManager[Run]], clock=time.time) -> None:
        self._tx = tx
        self._clock = clock

    # --- orders (seat kernels write, the referee decides) ------------------------------------
    def place_order(self, game_id: int, seat: str, expected: int, action: dict) -> str:
        nonce = secrets.token_urlsafe(12)
        with self._tx() as run:
            run(
                "INSERT INTO hidden_orders (nonce, game_id, seat, expected, action, created) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (nonce, game_id, seat, expected, json.dumps(action), self._clock()),
            )
        return nonce

    def waiting_orders(self, limit: int = 100) -> list[Order]:
        with self._tx() as run:
            rows = run(
                "SELECT nonce, game_id, seat, expected, action, status, detail, created "
                "FROM hidden_orders WHERE status = 'waiting' ORDER BY created, nonce LIMIT ?",
                (limit,),
            ).fetchall()
        return [_order(r) for r in rows]

    def claim_order(self, nonce: str) -> bool:
        """Take a waiting order for this referee; False if another one took it first."""
        with self._tx() as run:
            cur = run(
                "UPDATE hidden_orders SET status = 'deciding' "
                "WHERE nonce = ? AND status = 'waiting'",
                (nonce,),
            )
            return cur.rowcount == 1

    def decide_order(self, nonce: str, status: str, detail: dict) -> None:
        with self._tx() as run:
            run(
                "UPDATE hidden_orders SET status = ?, detail = ? WHERE nonce = ?",
                (status, json.dumps(detail), nonce),
            )

    def order(self, nonce: str) -> Order | None:
        with self._tx() as run:
            row = run(
                "SELECT nonce, game_id, seat, expected, action, status, detail, created "
                "FROM hidden_orders WHERE nonce = ?",
                (nonce,),
            ).fetchone()
        return None if row is None else _order(row)

    # --- views (the referee writes, each seat reads its own) ---------------------------------
    def publish(self, game_id: int, version: int, texts: dict[str, str], seats: dict[str, str]):
        with self._tx() as run:
            for audience, text in texts.items():
                run(
                    "INSERT INTO hidden_views (game_id, audience, version, state) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (game_id, audience) DO UPDATE "
                    "SET version = excluded.version, state = excluded.state "
                    "WHERE excluded.version >= hidden_views.version",
                    (game_id, audience, version, text),
                )
            for seat, audience in seats.items():
                run(
                    "INSERT INTO hidden_seats (game_id, seat, audience, version) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE "
                    "SET audience = excluded.audience, version = excluded.version "
                    "WHERE excluded.version >= hidden_seats.version",
                    (game_id, seat, audience, version),
                )
            run("UPDATE games SET revision = revision + 1 WHERE id = ?", (game_id,))

    def view_version(self, game_id: int, seat: str) -> int:
        with self._tx() as run:
            row = run(
                "SELECT version FROM hidden_seats WHERE game_id = ? AND seat = ?", (game_id, seat)
            ).fetchone()
        return -1 if row is None else row[0]

    def view(self, game_id: int, seat: str) -> tuple[int, str] | None:
        """The latest copy of the game ``seat`` may see: (version, JSON text)."""
        with self._tx() as run:
            row = run(
                "SELECT v.version, v.state FROM hidden_seats s JOIN hidden_views v "
                "ON v.game_id = s.game_id AND v.audience = s.audience "
                "WHERE s.game_id = ? AND s.seat = ?",
                (game_id, seat),
            ).fetchone()
        return None if row is None else (row[0], row[1])


def _order(row) -> Order:
    nonce, game_id, seat, expected, action, status, detail, created = row
    return Order(
        nonce,
        game_id,
        seat,
        expected,
        json.loads(action),
        status,
        None if detail is None else json.loads(detail),
        created,
    )


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
    """Decides the orders of every enemy-player game in a store and publishes views."""

    def __init__(self, store, log: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.tables: HiddenTables = store.hidden()
        self.published: dict[int, int] = {}
        self._games: list[GameInfo] = []
        self._games_at = 0.0
        self.log = log or (lambda text: None)

    def hidden_games(self) -> list[GameInfo]:
        """The store's enemy-player games, re-read at most once a second."""
        if time.monotonic() - self._games_at > 1.0:
            games = [g for c in self.store.classes() for g in self.store.games(c.id)]
            self._games = [g for g in games if is_hidden(g)]
            self._games_at = time.monotonic()
        return self._games

    def step(self) -> int:
        """Decide every waiting order, then publish what changed; returns orders decided."""
        hidden = {g.id for g in self.hidden_games()}
        decided = 0
        for order in self.tables.waiting_orders():
            if order.game_id not in hidden:
                self._games_at = 0.0  # a new class: look again
                hidden = {g.id for g in self.hidden_games()}
            if self.tables.claim_order(order.nonce):  # another host's referee may be quicker
                self.decide(order, order.game_id in hidden)
                decided += 1
        for game in self.hidden_games():
            version = self.store.version(game.id)
            if self.published.get(game.id) != version:
                self.publish(game.id)
        return decided

    def decide(self, order: Order, hidden: bool) -> None:
        if not hidden:
            detail = {"kind": "bad_action", "message": "that game takes orders directly"}
            self.tables.decide_order(order.nonce, "refused", detail)
            return
        result = self.store.submit(order.game_id, order.expected, order.seat, order.action)
        if result:
            self.tables.decide_order(order.nonce, "accepted", {"version": result.version})
        else:
            detail = {
                "kind": str(result.kind),
                "message": result.message,
                "rule": getattr(result, "rule", None) or "",
            }
            self.tables.decide_order(order.nonce, "refused", detail)
        self.publish(order.game_id)

    def publish(self, game_id: int) -> None:
        live = self.store.live_game(game_id)
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

    The interface of the co-op pages' games: ``state``, ``submit(action)`` (None or
    the reason it was refused) and ``check(action)``; ``refresh()`` reads a newer view.
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

    def check(self, action) -> str | None:
        if self.state is None:
            return "the game is not ready yet: the referee has not published it"
        why = check(self.state, action)
        return None if why is None else str(why)

    def submit(self, action) -> str | None:
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
                return (
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
            return None
        return order.detail.get("message", "refused")


def _pauses() -> Iterator[float]:
    pause = 0.005
    while True:
        yield pause
        pause = min(pause * 1.5, 0.1)


# --- the referee as a process --------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """``python -m classroom.sessions.hidden --store URL``: referee until SIGTERM/SIGINT."""
    import argparse

    from .locate import open_location

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
