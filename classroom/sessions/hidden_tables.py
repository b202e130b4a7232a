"""The referee's three tables (hidden orders, views, seats) and their rows, for both stores.

The enemy-player variant's referee and seat views (:mod:`.hidden`) read and write them
through :class:`HiddenTables`; each store adds :data:`HIDDEN_TABLES` to its schema and
hands out a ``HiddenTables`` bound to its own transactions (``store.hidden()``).

>>> HIDDEN_TABLES[:40]
'CREATE TABLE IF NOT EXISTS hidden_orders'
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from .sealed import NoKey, Sealer, is_sealed

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


@dataclass(frozen=True)
class Order:
    nonce: str
    game_id: int
    seat: str
    expected: int
    action: dict | None  # None: not sealed with its seat's key (refused)
    status: str
    detail: dict | None
    created: float


class HiddenTables:
    """The three tables, through a store's transaction (``tx()`` yields ``run``)."""

    def __init__(
        self,
        tx: Callable[[], AbstractContextManager[Run]],
        clock=time.time,
        keys: Callable[[int, str], Sealer | None] | None = None,
    ) -> None:
        self._tx = tx
        self._clock = clock
        self._keys = keys or (lambda game_id, seat: None)

    def _seal(self, game_id: int, seat: str, text: str, purpose: str) -> str:
        key = self._keys(game_id, seat)
        return text if key is None else key.seal(text, purpose)

    def _open(self, game_id: int, seat: str, text: str, purpose: str) -> str:
        if not is_sealed(text):
            return text
        key = self._keys(game_id, seat)
        if key is None:
            raise NoKey(f"seat {seat!r}'s {purpose} is sealed with that seat's own key")
        return key.open(text, purpose)

    # --- orders (seat kernels write, the referee decides) ------------------------------------
    def place_order(self, game_id: int, seat: str, expected: int, action: dict) -> str:
        nonce = secrets.token_urlsafe(12)
        text = self._seal(game_id, seat, json.dumps(action), "order")
        with self._tx() as run:
            run(
                "INSERT INTO hidden_orders (nonce, game_id, seat, expected, action, created) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    nonce,
                    game_id,
                    seat,
                    expected,
                    text,
                    self._clock(),
                ),
            )
        return nonce

    def waiting_orders(self, limit: int = 100) -> list[Order]:
        with self._tx() as run:
            rows = run(
                "SELECT nonce, game_id, seat, expected, action, status, detail, created "
                "FROM hidden_orders WHERE status = 'waiting' ORDER BY created, nonce LIMIT ?",
                (limit,),
            ).fetchall()
        return [self._order(r) for r in rows]  # opened outside the transaction

    def claim_order(self, nonce: str) -> bool:
        """Take a waiting order for this referee; False if another one took it first."""
        with self._tx() as run:
            cur = run(
                "UPDATE hidden_orders SET status = 'deciding' "
                "WHERE nonce = ? AND status = 'waiting'",
                (nonce,),
            )
            return cur.rowcount == 1

    def decide_order(self, order: Order, status: str, detail: dict) -> None:
        text = self._seal(order.game_id, order.seat, json.dumps(detail), "verdict")
        with self._tx() as run:
            run(
                "UPDATE hidden_orders SET status = ?, detail = ? WHERE nonce = ?",
                (status, text, order.nonce),
            )

    def order(self, nonce: str) -> Order | None:
        with self._tx() as run:
            row = run(
                "SELECT nonce, game_id, seat, expected, action, status, detail, created "
                "FROM hidden_orders WHERE nonce = ?",
                (nonce,),
            ).fetchone()
        return None if row is None else self._order(row)

    # --- views (the referee writes, each seat reads its own) ---------------------------------
    def publish(self, game_id: int, version: int, texts: dict[str, str], seats: dict[str, str]):
        texts = {
            aud: text if aud == PUBLIC else self._seal(game_id, aud, text, "view")
            for aud, text in texts.items()
        }
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
        if row is None:
            return None
        return row[0], self._open(game_id, seat, row[1], "view")

    def published(self) -> dict[int, int]:
        """Game id -> the oldest version published for any of its seats."""
        with self._tx() as run:
            rows = run("SELECT game_id, MIN(version) FROM hidden_seats GROUP BY game_id", ())
            return dict(rows.fetchall())

    def game_versions(self) -> dict[int, int]:
        """Every game's current version, in one read (the referee's look for news)."""
        with self._tx() as run:
            return dict(run("SELECT id, version FROM games", ()).fetchall())

    def _order(self, row) -> Order:
        nonce, game_id, seat, expected, action, status, detail, created = row
        if not is_sealed(action) and self._keys(game_id, seat) is not None:
            action = "null"  # not sealed with the seat's key: not the seat's order (forged)
        return Order(
            nonce,
            game_id,
            seat,
            expected,
            json.loads(self._open(game_id, seat, action, "order")),
            status,
            None if detail is None else json.loads(self._open(game_id, seat, detail, "verdict")),
            created,
        )
