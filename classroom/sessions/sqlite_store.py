"""The embedded co-op store: one SQLite file in WAL mode with durable commits.

Every seat kernel, the instructor console and the CLI open the same file, each with
its own :class:`SQLiteStore`. Writers serialise on ``BEGIN IMMEDIATE`` (waiting up to
the busy timeout); readers never wait for writers (WAL). ``synchronous=FULL`` makes a
commit durable before :meth:`SQLiteStore.submit` returns, so an acknowledged action
survives a ``kill -9`` or a power cut.

Submitting catches the process's :class:`~.live.LiveGame` up with the log, asks
:mod:`.policy` whether the seat may act (and whether an order drawn at an older
version may be rebased), asks the engine whether the order is legal, appends and
commits, all inside one transaction; a stale order is refused before taking the write
lock when the log already shows a new phase. This module only persists and notifies:
every co-op decision is a :mod:`.policy` function.

>>> import tempfile, os
>>> from classroom.combined_arms import EndPhase
>>> from classroom.sessions.roles import layout_for
>>> from classroom.sessions.store import ClassSettings, GameSpec
>>> path = os.path.join(tempfile.mkdtemp(), "class.db")
>>> with SQLiteStore(path) as store:
...     made = store.create_class("demo", ClassSettings(), [GameSpec(1, 7, layout_for(5))])
...     g = made.games[0].id
...     store.submit(g, 0, "support", EndPhase("support")).version
...     store.submit(g, 0, "support", EndPhase("support")).kind.value
1
'stale'
"""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from classroom.combined_arms.actions import ActionFormatError
from classroom.combined_arms.engine import check

from . import policy, sealed
from .hidden import HIDDEN_TABLES, HiddenTables
from .live import LiveGame, Update
from .roles import Layout, LayoutError
from .store import (
    INSTRUCTOR,
    OPEN_REQUESTS,
    Accepted,
    ClassInfo,
    ClassSettings,
    ClassStore,
    CreatedClass,
    GameInfo,
    GameSpec,
    InstructorEntry,
    LoggedAction,
    Message,
    Refusal,
    Refused,
    Request,
    Result,
    StoreError,
    TokenInfo,
    clean_message,
    initial_state,
    looks_like_token,
    options_from_json,
    options_to_json,
    parse_action,
)

SCHEMA_VERSION = 4  # 3: the enemy-player tables (hidden.py); 4: tokens hashed, secrets sealed
BUSY_TIMEOUT = 10.0  # seconds a writer waits for the lock before giving up

SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS classes (
    id               INTEGER PRIMARY KEY,
    name             TEXT    NOT NULL DEFAULT '',
    instructor_token TEXT    NOT NULL UNIQUE,  -- since v4 its SHA-256 (sealed.token_hash)
    message_mode     TEXT    NOT NULL DEFAULT 'free' CHECK (message_mode IN ('free', 'written')),
    message_limit    INTEGER CHECK (message_limit IS NULL OR message_limit >= 0),
    paused           INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
    created          REAL    NOT NULL,
    commander_mode   TEXT    NOT NULL DEFAULT 'advisory'
                             CHECK (commander_mode IN ('advisory', 'strict')),
    instructor_sealed TEXT  -- the token sealed with the store's key (sealed.py)
);
CREATE TABLE IF NOT EXISTS games (
    id           INTEGER PRIMARY KEY,
    class_id     INTEGER NOT NULL REFERENCES classes(id),
    team         INTEGER NOT NULL CHECK (team >= 1),
    seed         INTEGER NOT NULL CHECK (seed >= 0),  -- 0 since v4: see seed_sealed
    options      TEXT    NOT NULL,
    layout       TEXT    NOT NULL,
    start        TEXT,
    status       TEXT    NOT NULL DEFAULT 'running'
                         CHECK (status IN ('running', 'paused', 'ended')),
    ended_reason TEXT,
    version      INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    revision     INTEGER NOT NULL DEFAULT 0,
    turn         INTEGER NOT NULL DEFAULT 1,
    phase        TEXT    NOT NULL DEFAULT 'friendly_move',
    created      REAL    NOT NULL,
    seed_sealed  TEXT,
    UNIQUE (class_id, team)
);
CREATE TABLE IF NOT EXISTS seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat    TEXT    NOT NULL,
    token   TEXT    NOT NULL UNIQUE,  -- the token's SHA-256 since v4
    token_sealed TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    version INTEGER NOT NULL CHECK (version >= 1),
    seat    TEXT    NOT NULL,
    action  TEXT    NOT NULL,
    turn    INTEGER NOT NULL,
    phase   TEXT    NOT NULL,
    at      REAL    NOT NULL,
    PRIMARY KEY (game_id, version)
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS actions_no_update BEFORE UPDATE ON actions
BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS actions_no_delete BEFORE DELETE ON actions
BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
CREATE TABLE IF NOT EXISTS messages (
    id      INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat    TEXT    NOT NULL,
    turn    INTEGER NOT NULL,
    text    TEXT    NOT NULL,
    at      REAL    NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_by_game ON messages (game_id, id);
CREATE INDEX IF NOT EXISTS messages_by_turn ON messages (game_id, seat, turn);
CREATE TABLE IF NOT EXISTS presence (
    game_id   INTEGER NOT NULL,
    seat      TEXT    NOT NULL,
    client    TEXT    NOT NULL,
    last_seen REAL    NOT NULL,
    PRIMARY KEY (game_id, seat, client)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ready (
    game_id INTEGER NOT NULL,
    seat    TEXT    NOT NULL,
    turn    INTEGER NOT NULL,
    phase   TEXT    NOT NULL,
    at      REAL    NOT NULL,
    PRIMARY KEY (game_id, turn, phase, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS requests (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games(id),
    seat       TEXT    NOT NULL,
    note       TEXT    NOT NULL DEFAULT '',
    turn       INTEGER NOT NULL,
    phase      TEXT    NOT NULL,
    status     TEXT    NOT NULL CHECK (status IN
                   ('waiting', 'granted', 'denied', 'done', 'withdrawn', 'expired')),
    asked      REAL    NOT NULL,
    decided    REAL,
    decided_by TEXT
);
CREATE INDEX IF NOT EXISTS requests_by_game ON requests (game_id, status, id);
CREATE TABLE IF NOT EXISTS seat_holders (
    game_id INTEGER NOT NULL,
    seat    TEXT    NOT NULL,
    client  TEXT    NOT NULL,
    since   REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS instructor_log (
    id       INTEGER PRIMARY KEY,
    class_id INTEGER NOT NULL REFERENCES classes(id),
    game_id  INTEGER,
    kind     TEXT    NOT NULL,
    data     TEXT    NOT NULL,
    at       REAL    NOT NULL
);
"""
    + HIDDEN_TABLES
    + sealed.KEY_TABLE
)

# Version 1 files (before the strict commander and seat holders) are brought up to date.
MIGRATIONS = {
    2: [
        "ALTER TABLE classes ADD COLUMN commander_mode TEXT NOT NULL DEFAULT 'advisory' "
        "CHECK (commander_mode IN ('advisory', 'strict'))",
    ],
    4: list(sealed.UPGRADE_COLUMNS),
}

_CLASS_COLUMNS = "id, name, created, message_mode, message_limit, paused, commander_mode"

_GAME_COLUMNS = (
    "g.id, g.class_id, g.team, g.seed_sealed, g.options, g.layout, g.start, g.status, c.paused, "
    "g.version, g.revision, g.turn, g.phase, g.created, g.ended_reason"
)


class SQLiteStore(ClassStore):
    """A :class:`~.store.ClassStore` in one SQLite file (created if missing).

    ``key`` is the store's key (:mod:`.sealed`): by default found for this file
    (:func:`.sealed.sealer_for`); None opens it without (a seat kernel: no seed, no
    token, no sealed view can be read). ``durable=False`` drops to ``synchronous=NORMAL`` (still crash-safe for the
    database, but the last commits may be lost on power failure); the default is the
    durable ``FULL``. ``clock`` replaces :func:`time.time` (tests).
    """

    def __init__(
        self,
        path: str | os.PathLike,
        *,
        busy_timeout: float = BUSY_TIMEOUT,
        durable: bool = True,
        clock: Callable[[], float] | None = None,
        key=sealed.AUTO,
    ) -> None:
        self.path = pathlib.Path(path)
        if str(path) in ("", ":memory:"):
            raise ValueError("path: expected a file; several connections share one store")
        self._sealer = sealed.resolve(key, self.path)
        self._busy_timeout = busy_timeout
        self._durable = durable
        self._clock = clock or time.time
        self._lock = threading.RLock()
        self._conn = None  # type: ignore[assignment]
        try:
            self._conn = self._connect()
            self._ensure_schema()
            self._check_key()
        except BaseException as exc:
            if self._conn is not None:
                self._conn.close()
            if isinstance(exc, sqlite3.Error | OSError):
                raise store_fault(exc, self.path) from None
            raise  # e.g. an old file opened without the key (sealed.NoKey)

    # --- connection and transactions ----------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        private_file(self.path)
        conn = sqlite3.connect(
            self.path,
            timeout=self._busy_timeout,
            isolation_level=None,  # we issue BEGIN IMMEDIATE / COMMIT ourselves
            check_same_thread=False,  # a follower may poll from a timer thread
        )
        conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout * 1000)}")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreError(f"{self.path}: could not switch to WAL mode (got {mode!r})")
        conn.execute(f"PRAGMA synchronous = {'FULL' if self._durable else 'NORMAL'}")
        conn.execute("PRAGMA foreign_keys = ON")
        for suffix in ("-wal", "-shm"):  # SQLite copies the file's mode; older files may differ
            tighten(self.path.with_name(self.path.name + suffix))
        return conn

    def _ensure_schema(self) -> None:
        """Create the tables on first use; a current file is only read (no write lock)."""
        have = self._conn.execute("PRAGMA user_version").fetchone()[0]
        if have == SCHEMA_VERSION:
            return
        with self._write() as db:
            have = db.execute("PRAGMA user_version").fetchone()[0]
            if have > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path}: schema version {have} is newer than this hexclass "
                    f"({SCHEMA_VERSION}); upgrade hexclass"
                )
            if have >= 1:
                for version in range(have + 1, SCHEMA_VERSION + 1):
                    for stmt in MIGRATIONS.get(version, ()):
                        db.execute(stmt)
            for stmt in _statements(SCHEMA):
                db.execute(stmt)
            if 1 <= have < 4:
                sealed.upgrade_rows(db.execute, self._sealer)
            if have < SCHEMA_VERSION:
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        if 1 <= have < 4:  # no free page or old WAL frame keeps a clear token or seed
            self._conn.execute("VACUUM")
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def _check_key(self) -> None:
        """This process's key is the store's own (:func:`.sealed.check_key`)."""
        if self._sealer is None:
            return
        row = self._conn.execute("SELECT probe FROM store_key WHERE id = 1").fetchone()
        if row is not None:  # the usual case: read only, no write lock
            sealed.check_key(lambda sql, p: _One(row), self._sealer, str(self.path))
            return
        with self._write() as db:
            sealed.check_key(db.execute, self._sealer, str(self.path))

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: BEGIN IMMEDIATE takes the write lock up front."""
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    yield self._conn
                    self._conn.execute("COMMIT")
                except BaseException:
                    if self._conn.in_transaction:
                        self._conn.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                if isinstance(exc, StoreError):
                    raise
                raise store_fault(exc, self.path) from exc  # busy: submit & co. refuse BUSY

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """A consistent read snapshot across several statements (never blocks writers)."""
        with self._lock:
            try:
                self._conn.execute("BEGIN")
                try:
                    yield self._conn
                finally:
                    if self._conn.in_transaction:
                        self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                if isinstance(exc, StoreError):
                    raise
                raise store_fault(exc, self.path) from exc

    def _busy(self, exc: sqlite3.OperationalError, version: int | None = None) -> Refused:
        if _is_busy(exc):
            return Refused(
                Refusal.BUSY, "the store is busy; nothing was changed, try again", version
            )
        raise exc

    def now(self) -> float:
        return self._clock()

    def hidden(self) -> HiddenTables:
        """The enemy-player tables (orders and seat views, ``hidden.py``) in this file."""

        @contextmanager
        def tx():
            with self._write() as db:
                yield db.execute

        return HiddenTables(tx, self.now, self.seat_key)

    def change_token(self, game_id: int | None = None) -> int:
        """``PRAGMA data_version``: changes when another connection commits (any game)."""
        with self._lock:
            return self._conn.execute("PRAGMA data_version").fetchone()[0]

    def reader(self) -> SQLiteStore:
        return SQLiteStore(
            self.path,
            busy_timeout=self._busy_timeout,
            durable=self._durable,
            clock=self._clock,
            key=self._sealer,
        )

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None  # type: ignore[assignment]
                self._live_games().clear()

    # --- rows -> values ------------------------------------------------------------------------

    def _game_row(self, db: sqlite3.Connection, game_id: int) -> GameInfo | None:
        row = db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games g JOIN classes c ON c.id = g.class_id "
            "WHERE g.id = ?",
            (game_id,),
        ).fetchone()
        return None if row is None else _game_info(row, self._sealer)

    def _class_row(self, db: sqlite3.Connection, class_id: int) -> ClassInfo | None:
        row = db.execute(
            f"SELECT {_CLASS_COLUMNS} FROM classes WHERE id = ?", (class_id,)
        ).fetchone()
        return None if row is None else _class_info(row)

    # --- classes -------------------------------------------------------------------------------

    def create_class(
        self, name: str, settings: ClassSettings, games: list[GameSpec]
    ) -> CreatedClass:
        problem = settings.problem()
        if problem:
            raise ValueError(problem)
        if not games:
            raise ValueError("games: a class needs at least one team game")
        teams = [g.team for g in games]
        if len(set(teams)) != len(teams):
            raise ValueError(f"games: team numbers must differ, got {teams}")
        for g in games:
            initial_state(g)  # a bad seed or start position fails here, before writing
        now = self.now()
        token, token_hash, token_sealed = sealed.new_token_row(self._sealer)
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO classes (name, instructor_token, instructor_sealed, message_mode, "
                "message_limit, commander_mode, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    name,
                    token_hash,
                    token_sealed,
                    settings.message_mode,
                    settings.message_limit,
                    settings.commander,
                    now,
                ),
            )
            class_id = cur.lastrowid
            seat_tokens: dict[int, dict[str, str]] = {}
            for g in games:
                game_id = self._insert_game(db, class_id, g, now)
                seat_tokens[game_id] = self._insert_seats(db, game_id, g.layout)
            data = sealed.create_log_data(self._sealer, teams, [g.seed for g in games])
            db.execute(
                "INSERT INTO instructor_log (class_id, game_id, kind, data, at) "
                "VALUES (?, NULL, 'create', ?, ?)",
                (class_id, json.dumps(data), now),
            )
            info = self._class_row(db, class_id)
            rows = [self._game_row(db, gid) for gid in seat_tokens]
        return CreatedClass(info, token, rows, seat_tokens)

    def _insert_game(self, db: sqlite3.Connection, class_id: int, g: GameSpec, now: float) -> int:
        cur = db.execute(
            "INSERT INTO games (class_id, team, seed, seed_sealed, options, layout, start, "
            "created) VALUES (?, ?, 0, ?, ?, ?, ?, ?)",
            (
                class_id,
                g.team,
                sealed.seal_int(self._sealer, g.seed, "seed"),
                json.dumps(options_to_json(g.options)),
                json.dumps(g.layout.to_json()),
                None if g.start is None else json.dumps(g.start),
                now,
            ),
        )
        return cur.lastrowid

    def _insert_seats(self, db: sqlite3.Connection, game_id: int, layout: Layout) -> dict[str, str]:
        tokens = {}
        for seat in layout.names:
            tokens[seat], token_hash, token_sealed = sealed.new_token_row(self._sealer)
            db.execute(
                "INSERT INTO seats (game_id, seat, token, token_sealed) VALUES (?, ?, ?, ?)",
                (game_id, seat, token_hash, token_sealed),
            )
        return tokens

    def class_info(self, class_id: int) -> ClassInfo | None:
        with self._lock:
            return self._class_row(self._conn, class_id)

    def classes(self) -> list[ClassInfo]:
        with self._lock:
            rows = self._conn.execute(
                f"SELECT {_CLASS_COLUMNS} FROM classes ORDER BY id"
            ).fetchall()
        return [_class_info(r) for r in rows]

    def games(self, class_id: int) -> list[GameInfo]:
        with self._lock:
            rows = self._conn.execute(
                f"SELECT {_GAME_COLUMNS} FROM games g JOIN classes c ON c.id = g.class_id "
                "WHERE g.class_id = ? ORDER BY g.team",
                (class_id,),
            ).fetchall()
        return [_game_info(r, self._sealer) for r in rows]

    def game(self, game_id: int) -> GameInfo | None:
        with self._lock:
            return self._game_row(self._conn, game_id)

    def tokens(self, class_id: int) -> tuple[str, dict[int, dict[str, str]]]:
        with self._read() as db:
            row = db.execute(
                "SELECT instructor_sealed FROM classes WHERE id = ?", (class_id,)
            ).fetchone()
            if row is None:
                raise KeyError(f"no class {class_id}")
            seats: dict[int, dict[str, str]] = {}
            for game_id, seat, token in db.execute(
                "SELECT s.game_id, s.seat, s.token_sealed FROM seats s "
                "JOIN games g ON g.id = s.game_id WHERE g.class_id = ? ORDER BY g.team, s.rowid",
                (class_id,),
            ):
                seats.setdefault(game_id, {})[seat] = sealed.open_token(self._sealer, token)
        return sealed.open_token(self._sealer, row[0]), seats

    def lookup_token(self, token: str) -> TokenInfo | None:
        if not looks_like_token(token):
            return None
        clear, token = token, sealed.token_hash(token)
        with self._read() as db:
            row = db.execute(
                "SELECT id FROM classes WHERE instructor_token = ?", (token,)
            ).fetchone()
            if row is not None:
                return TokenInfo("instructor", row[0])
            row = db.execute(
                "SELECT g.class_id, s.game_id, s.seat FROM seats s JOIN games g ON g.id = s.game_id "
                "WHERE s.token = ?",
                (token,),
            ).fetchone()
        if row is None:
            return None
        return self.remember_seat(TokenInfo("seat", row[0], row[1], row[2]), clear)

    # --- the action log ------------------------------------------------------------------------

    def submit(self, game_id: int, expected_version: int, seat: str, action: Any) -> Result:
        """Append one action in one ``BEGIN IMMEDIATE`` transaction, or refuse it.

        Order of checks: the action's form and seat; then, without the write lock, the
        game, seat and status and whether an older ``expected_version`` can be rebased
        (:func:`.policy.rebase_problem`); then, holding the lock, the same again on the
        current rows, the strict commander's queue (:func:`.policy.commander_hold`) and
        the engine's :func:`~classroom.combined_arms.engine.check`. The result carries
        the :class:`~.live.Update` of this process's live game (accepted or not).
        """
        parsed, why = parse_action(action)
        if why:
            return Refused(Refusal.BAD_ACTION, why)
        wrong_sender = policy.sender_problem(seat, parsed)
        if wrong_sender is not None:
            return wrong_sender
        wrong_version = policy.version_problem(expected_version)
        if wrong_version is not None:
            return wrong_version
        try:
            game, early = self._precheck(game_id, expected_version, seat)
        except sqlite3.OperationalError as exc:
            return self._busy(exc)
        if early is not None:
            return early
        live = self._live_games().get(game)
        mark: list[int] = []
        with live.lock:
            try:
                with self._write() as db:
                    return self._submit_locked(
                        db, live, game_id, expected_version, seat, parsed, mark
                    )
            except sqlite3.OperationalError as exc:
                if mark:
                    live.rewind(mark[0])  # the commit did not happen: forget the applied action
                return self._busy(exc)
            except BaseException:
                if mark:
                    live.rewind(mark[0])
                raise

    def _precheck(self, game_id: int, expected: int, seat: str):
        """Refusals that need no write lock: unknown, ended or paused game, a stale order."""
        with self._read() as db:
            game = self._game_row(db, game_id)
            problem = policy.order_problem(game, seat, game_id)
            if problem is not None:
                return game, problem
            if expected == game.version:
                return game, None
            since = self._read_actions(db, game_id, expected, None) if expected >= 0 else []
        stale = policy.rebase_problem(game, expected, since)
        if stale is None:
            return game, None
        live = self._live_games().get(game)
        update = live.catch_up(lambda after: self.actions(game_id, after=after))
        return game, dataclasses.replace(stale, update=update)

    def _submit_locked(
        self,
        db: sqlite3.Connection,
        live: LiveGame,
        game_id: int,
        expected: int,
        seat: str,
        action: Any,
        mark: list[int],
    ) -> Result:
        game = self._game_row(db, game_id)
        problem = policy.order_problem(game, seat, game_id)
        if problem is not None:
            return problem
        caught = self._catch_up_locked(db, live, game)
        since = live.log[expected:] if 0 <= expected <= live.version else []
        refusal = policy.rebase_problem(game, expected, since)
        if refusal is None:
            settings = self._class_row(db, game.class_id).settings
            latest = self._latest_request(db, game, seat)
            refusal = policy.commander_hold(settings, game, seat, latest)
        if refusal is None:
            reason = check(live.state, action)
            if reason is not None and expected != game.version:
                refusal = policy.stale_after_rebase(game, reason)
            elif reason is not None:
                refusal = Refused(Refusal.ILLEGAL, str(reason), game.version, reason.rule)
        if refusal is not None:
            return dataclasses.replace(refusal, update=caught)
        entry = live.next_entry(seat, action, self.now())
        db.execute(
            "INSERT INTO actions (game_id, version, seat, action, turn, phase, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                entry.version,
                seat,
                sealed.action_text(self._sealer, action),
                entry.turn,
                entry.phase,
                entry.at,
            ),
        )
        mark.append(live.version)
        own = live.feed([entry])
        row = policy.row_after_action(game, live.state)
        db.execute(
            "UPDATE games SET version = ?, revision = revision + 1, turn = ?, phase = ?, "
            "status = ?, ended_reason = ? WHERE id = ?",
            (
                entry.version,
                live.state.turn,
                live.state.phase,
                row.status,
                row.ended_reason,
                game_id,
            ),
        )
        if row.expire_queue:
            db.execute(
                "UPDATE requests SET status = 'expired', decided = ? "
                "WHERE game_id = ? AND status IN ('waiting', 'granted')",
                (entry.at, game_id),
            )
        return Accepted(entry.version, action, update=caught.merge(own))

    def _catch_up_locked(self, db: sqlite3.Connection, live: LiveGame, game: GameInfo) -> Update:
        """Feed ``live`` the committed actions it lacks (inside the transaction)."""
        update = live.feed(self._read_actions(db, game.id, live.version, None))
        if live.version != game.version:
            raise StoreError(
                f"game {game.id}: the log ends at version {live.version} "
                f"but the game row says {game.version}"
            )
        return update

    def _latest_request(self, db: sqlite3.Connection, game: GameInfo, seat: str) -> Request | None:
        row = db.execute(
            "SELECT id, game_id, seat, note, turn, phase, status, asked, decided, decided_by "
            "FROM requests WHERE game_id = ? AND seat = ? ORDER BY id DESC LIMIT 1",
            (game.id, seat),
        ).fetchone()
        return None if row is None else Request(*row)

    def _read_actions(
        self, db: sqlite3.Connection, game_id: int, after: int, limit: int | None
    ) -> list[LoggedAction]:
        rows = db.execute(
            "SELECT version, seat, action, turn, phase, at FROM actions "
            "WHERE game_id = ? AND version > ? ORDER BY version LIMIT ?",
            (game_id, after, -1 if limit is None else limit),
        ).fetchall()
        out = []
        for version, seat, raw, turn, phase, at in rows:
            try:
                action = sealed.action_from_text(self._sealer, raw, seat)
            except (ValueError, ActionFormatError) as exc:
                raise StoreError(
                    f"game {game_id} version {version}: unreadable action: {exc}"
                ) from None
            out.append(LoggedAction(game_id, version, seat, action, turn, phase, at))
        return out

    def actions(self, game_id: int, after: int = 0, limit: int | None = None) -> list[LoggedAction]:
        with self._lock:
            return self._read_actions(self._conn, game_id, after, limit)

    # --- messages -------------------------------------------------------------------------------

    def post_message(self, game_id: int, seat: str, text: str) -> Result:
        body, why = clean_message(text)
        if why:
            return Refused(Refusal.BAD_MESSAGE, why)
        try:
            with self._write() as db:
                return self._post_locked(db, game_id, seat, body)
        except sqlite3.OperationalError as exc:
            return self._busy(exc)

    def _post_locked(self, db: sqlite3.Connection, game_id: int, seat: str, body: str) -> Result:
        game = self._game_row(db, game_id)
        problem = policy.game_problem(game, game_id)
        if problem is not None:
            return problem
        settings = self._class_row(db, game.class_id).settings
        sent = self._sent(db, game_id, seat, game.turn)
        problem = policy.message_problem(settings, game, seat, sent)
        if problem is not None:
            return problem
        now = self.now()
        cur = db.execute(
            "INSERT INTO messages (game_id, seat, turn, text, at) VALUES (?, ?, ?, ?, ?)",
            (game_id, seat, game.turn, body, now),
        )
        self._bump(db, game_id)
        return Accepted(game.version, Message(cur.lastrowid, game_id, seat, game.turn, body, now))

    def _sent(self, db: sqlite3.Connection, game_id: int, seat: str, turn: int) -> int:
        return db.execute(
            "SELECT COUNT(*) FROM messages WHERE game_id = ? AND seat = ? AND turn = ?",
            (game_id, seat, turn),
        ).fetchone()[0]

    def messages(self, game_id: int, after_id: int = 0) -> list[Message]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT id, game_id, seat, turn, text, at FROM messages "
                "WHERE game_id = ? AND id > ? ORDER BY id",
                (game_id, after_id),
            ).fetchall()
        return [Message(*r) for r in rows]

    def messages_sent(self, game_id: int, seat: str, turn: int) -> int:
        """How many messages ``seat`` sent in ``turn`` (for a "2 of 3 left" label)."""
        with self._lock:
            return self._sent(self._conn, game_id, seat, turn)

    # --- the commander's request queue (CA p.7) --------------------------------------------------

    def request_turn(self, game_id: int, seat: str, note: str = "") -> Result:
        problem = policy.note_problem(note)
        if problem is not None:
            return problem
        try:
            with self._write() as db:
                game = self._game_row(db, game_id)
                problem = policy.game_problem(game, game_id)
                if problem is not None:
                    return problem
                has_open = self._open_request(db, game_id, seat) is not None
                problem = policy.request_problem(game, seat, has_open)
                if problem is not None:
                    return problem
                cur = db.execute(
                    "INSERT INTO requests (game_id, seat, note, turn, phase, status, asked) "
                    "VALUES (?, ?, ?, ?, ?, 'waiting', ?)",
                    (game_id, seat, note.strip(), game.turn, game.phase, self.now()),
                )
                self._bump(db, game_id)
                return Accepted(game.version, cur.lastrowid)
        except sqlite3.OperationalError as exc:
            return self._busy(exc)

    def _open_request(self, db: sqlite3.Connection, game_id: int, seat: str):
        return db.execute(
            "SELECT id, status FROM requests WHERE game_id = ? AND seat = ? "
            "AND status IN ('waiting', 'granted')",
            (game_id, seat),
        ).fetchone()

    def decide_request(self, game_id: int, seat: str, request_id: int, grant: bool) -> Result:
        try:
            with self._write() as db:
                game = self._game_row(db, game_id)
                problem = policy.game_problem(game, game_id)
                if problem is not None:
                    return problem
                row = db.execute(
                    "SELECT status FROM requests WHERE id = ? AND game_id = ?",
                    (request_id, game_id),
                ).fetchone()
                problem = policy.decide_problem(game, seat, None if row is None else row[0])
                if problem is not None:
                    return problem
                db.execute(
                    "UPDATE requests SET status = ?, decided = ?, decided_by = ? WHERE id = ?",
                    (policy.decided_status(grant), self.now(), seat, request_id),
                )
                self._bump(db, game_id)
                return Accepted(game.version, request_id)
        except sqlite3.OperationalError as exc:
            return self._busy(exc)

    def close_request(self, game_id: int, seat: str) -> Result:
        try:
            with self._write() as db:
                game = self._game_row(db, game_id)
                problem = policy.game_problem(game, game_id)
                if problem is not None:
                    return problem
                row = self._open_request(db, game_id, seat)
                problem = policy.close_problem(game, seat, None if row is None else row[1])
                if problem is not None:
                    return problem
                db.execute(
                    "UPDATE requests SET status = ?, decided = COALESCE(decided, ?) WHERE id = ?",
                    (policy.closed_status(row[1]), self.now(), row[0]),
                )
                self._bump(db, game_id)
                return Accepted(game.version, row[0])
        except sqlite3.OperationalError as exc:
            return self._busy(exc)

    def requests(self, game_id: int, open_only: bool = True) -> list[Request]:
        where = f"AND status IN {OPEN_REQUESTS!r}" if open_only else ""
        with self._lock:
            rows = self._conn.execute(
                "SELECT id, game_id, seat, note, turn, phase, status, asked, decided, decided_by "
                f"FROM requests WHERE game_id = ? {where} ORDER BY id",
                (game_id,),
            ).fetchall()
        return [Request(*r) for r in rows]

    # --- ready flags, presence and who holds a seat ----------------------------------------------

    def set_ready(self, game_id: int, seat: str, ready: bool = True) -> Result:
        try:
            with self._write() as db:
                game = self._game_row(db, game_id)
                problem = policy.ready_problem(game, seat, game_id)
                if problem is not None:
                    return problem
                key = (game_id, seat, game.turn, game.phase)
                if ready:
                    db.execute(
                        "INSERT OR REPLACE INTO ready (game_id, seat, turn, phase, at) "
                        "VALUES (?, ?, ?, ?, ?)",
                        (*key, self.now()),
                    )
                else:
                    db.execute(
                        "DELETE FROM ready WHERE game_id = ? AND seat = ? AND turn = ? AND phase = ?",
                        key,
                    )
                self._bump(db, game_id)
                return Accepted(game.version, ready)
        except sqlite3.OperationalError as exc:
            return self._busy(exc)

    def ready(self, game_id: int) -> frozenset[str]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT r.seat FROM ready r JOIN games g ON g.id = r.game_id "
                "WHERE r.game_id = ? AND r.turn = g.turn AND r.phase = g.phase",
                (game_id,),
            ).fetchall()
        return frozenset(r[0] for r in rows)

    def heartbeat(self, game_id: int, seat: str, client: str = "") -> Result:
        try:
            with self._write() as db:
                game = self._game_row(db, game_id)
                if game is None:
                    return Refused(Refusal.UNKNOWN_GAME, f"there is no game {game_id}")
                if seat != INSTRUCTOR and seat not in game.layout:
                    return policy.unknown_seat(game, seat)
                db.execute(
                    "INSERT OR REPLACE INTO presence (game_id, seat, client, last_seen) "
                    "VALUES (?, ?, ?, ?)",
                    (game_id, seat, str(client), self.now()),
                )
                return Accepted(game.version)
        except sqlite3.OperationalError as exc:
            return self._busy(exc)

    def leave(self, game_id: int, seat: str, client: str = "") -> Result:
        try:
            with self._write() as db:
                db.execute(
                    "DELETE FROM presence WHERE game_id = ? AND seat = ? AND client = ?",
                    (game_id, seat, str(client)),
                )
                return Accepted(None)
        except sqlite3.OperationalError as exc:
            return self._busy(exc)

    def presence(self, game_id: int) -> dict[str, float]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT seat, MAX(last_seen) FROM presence WHERE game_id = ? GROUP BY seat",
                (game_id,),
            ).fetchall()
        return dict(rows)

    def hold_seat(self, game_id: int, seat: str, client: str, take_over: bool = False) -> Result:
        try:
            with self._write() as db:
                game = self._game_row(db, game_id)
                problem = policy.game_problem(game, game_id)
                if problem is not None:
                    return problem
                if seat not in game.layout:
                    return policy.unknown_seat(game, seat)
                row = db.execute(
                    "SELECT h.client, (SELECT MAX(last_seen) FROM presence p WHERE "
                    "p.game_id = h.game_id AND p.seat = h.seat AND p.client = h.client) "
                    "FROM seat_holders h WHERE h.game_id = ? AND h.seat = ?",
                    (game_id, seat),
                ).fetchone()
                holder, seen = (None, None) if row is None else row
                now = self.now()
                if not policy.holds_seat(holder, seen, str(client), now, take_over):
                    return Accepted(game.version, False)
                if holder != str(client):
                    db.execute(
                        "INSERT OR REPLACE INTO seat_holders (game_id, seat, client, since) "
                        "VALUES (?, ?, ?, ?)",
                        (game_id, seat, str(client), now),
                    )
                    self._bump(db, game_id)
                return Accepted(game.version, True)
        except sqlite3.OperationalError as exc:
            return self._busy(exc)

    def seat_holder(self, game_id: int, seat: str) -> str | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT client FROM seat_holders WHERE game_id = ? AND seat = ?", (game_id, seat)
            ).fetchone()
        return None if row is None else row[0]

    # --- the instructor ---------------------------------------------------------------------------

    def set_game_status(self, game_id: int, status: str, by: str = INSTRUCTOR) -> Result:
        problem = policy.status_problem(status)
        if problem is not None:
            return problem
        try:
            with self._write() as db:
                game = self._game_row(db, game_id)
                problem = policy.status_change_problem(game, game_id, status)
                if problem is not None:
                    return problem
                db.execute(
                    "UPDATE games SET status = ?, ended_reason = ?, revision = revision + 1 "
                    "WHERE id = ?",
                    (status, policy.ended_reason(status, by), game_id),
                )
                self._log(db, game.class_id, game_id, policy.status_verb(status), {"by": by})
                return Accepted(game.version, status)
        except sqlite3.OperationalError as exc:
            return self._busy(exc)

    def set_class_paused(self, class_id: int, paused: bool, by: str = INSTRUCTOR) -> Result:
        try:
            with self._write() as db:
                if self._class_row(db, class_id) is None:
                    return Refused(Refusal.UNKNOWN_CLASS, f"there is no class {class_id}")
                db.execute(
                    "UPDATE classes SET paused = ? WHERE id = ?", (int(bool(paused)), class_id)
                )
                db.execute(
                    "UPDATE games SET revision = revision + 1 WHERE class_id = ?", (class_id,)
                )
                kind = "pause class" if paused else "resume class"
                self._log(db, class_id, None, kind, {"by": by})
                return Accepted(None, bool(paused))
        except sqlite3.OperationalError as exc:
            return self._busy(exc)

    def set_settings(self, class_id: int, settings: ClassSettings, by: str = INSTRUCTOR) -> Result:
        problem = settings.problem()
        if problem:
            return Refused(Refusal.BAD_SETTING, problem)
        try:
            with self._write() as db:
                if self._class_row(db, class_id) is None:
                    return Refused(Refusal.UNKNOWN_CLASS, f"there is no class {class_id}")
                db.execute(
                    "UPDATE classes SET message_mode = ?, message_limit = ?, commander_mode = ? "
                    "WHERE id = ?",
                    (settings.message_mode, settings.message_limit, settings.commander, class_id),
                )
                db.execute(
                    "UPDATE games SET revision = revision + 1 WHERE class_id = ?", (class_id,)
                )
                data = {
                    "by": by,
                    "mode": settings.message_mode,
                    "limit": settings.message_limit,
                    "commander": settings.commander,
                }
                self._log(db, class_id, None, "message rules", data)
                return Accepted(None, settings)
        except sqlite3.OperationalError as exc:
            return self._busy(exc)

    def instructor_log(self, class_id: int) -> list[InstructorEntry]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT id, class_id, game_id, kind, data, at FROM instructor_log "
                "WHERE class_id = ? ORDER BY id",
                (class_id,),
            ).fetchall()
        return [
            InstructorEntry(i, c, g, k, sealed.log_data_out(self._sealer, json.loads(d)), at)
            for i, c, g, k, d, at in rows
        ]

    def _log(self, db: sqlite3.Connection, class_id: int, game_id: int | None, kind: str, data):
        db.execute(
            "INSERT INTO instructor_log (class_id, game_id, kind, data, at) VALUES (?, ?, ?, ?, ?)",
            (class_id, game_id, kind, json.dumps(data), self.now()),
        )

    def _bump(self, db: sqlite3.Connection, game_id: int) -> None:
        db.execute("UPDATE games SET revision = revision + 1 WHERE id = ?", (game_id,))

    # --- checking the file -----------------------------------------------------------------------

    def integrity(self) -> list[str]:
        """Problems found by SQLite's integrity check and the log's own invariants ([] if none)."""
        problems = []
        with self._read() as db:
            result = [r[0] for r in db.execute("PRAGMA integrity_check")]
            if result != ["ok"]:
                problems.extend(result)
            for game_id, version, n, top in db.execute(
                "SELECT g.id, g.version, COUNT(a.version), COALESCE(MAX(a.version), 0) "
                "FROM games g LEFT JOIN actions a ON a.game_id = g.id GROUP BY g.id"
            ):
                if not (n == top == version):
                    problems.append(
                        f"game {game_id}: row version {version}, {n} actions, highest {top}"
                    )
        return problems


# --- helpers ---------------------------------------------------------------------------------


def _statements(script: str) -> list[str]:
    """Split the schema into statements (triggers hold ';' inside BEGIN ... END)."""
    out, buf = [], []
    for line in script.strip().splitlines():
        buf.append(line)
        joined = "\n".join(buf)
        if sqlite3.complete_statement(joined):
            out.append(joined)
            buf = []
    return out


def _game_info(row, sealer: sealed.Sealer | None) -> GameInfo:
    (gid, cid, team, seed, options, layout, start, status, paused, version, revision, turn,
     phase, created, ended_reason) = row  # fmt: skip
    try:
        lay = Layout.from_json(json.loads(layout), source=f"game {gid} layout")
    except (ValueError, LayoutError) as exc:
        raise StoreError(str(exc)) from None
    return GameInfo(
        id=gid,
        class_id=cid,
        team=team,
        seed=sealed.open_int(sealer, seed, "seed"),
        options=options_from_json(json.loads(options)),
        layout=lay,
        start=None if start is None else json.loads(start),
        status=status,
        class_paused=bool(paused),
        version=version,
        revision=revision,
        turn=turn,
        phase=phase,
        created=created,
        ended_reason=ended_reason,
    )


def private_file(path: pathlib.Path) -> None:
    """Create ``path`` (and any missing folder) readable by this OS user only.

    A new folder is made 0700 and a new file 0600; an existing file is tightened to
    0600 (its folder is left as the owner set it). The store holds the class's tokens,
    sealed seeds and the log: no other user of the machine has any business in it.
    """
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not path.exists():
        # Only a file that does not exist yet is opened here: closing any descriptor of a
        # database file drops every POSIX lock this process holds on it, so another
        # connection of this process (a server's referee, its gate) would lose its locks
        # and go on reading an old snapshot.
        try:
            os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            pass  # made by another connection just now
    tighten(path)


def tighten(path: pathlib.Path) -> None:
    """Make an existing file 0600 (nothing if it is missing or not ours)."""
    try:
        if path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)
    except (FileNotFoundError, PermissionError):
        pass


class _One:
    """A cursor that already holds its one row."""

    def __init__(self, row) -> None:
        self.row = row

    def fetchone(self):
        return self.row


def _is_busy(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and (
        "locked" in str(exc) or "busy" in str(exc)
    )


class StoreBusy(StoreError, sqlite3.OperationalError):
    """The store stayed locked past the timeout: a StoreError in plain words, and still
    the ``OperationalError`` that the store's own callers turn into ``Refusal.BUSY``."""


def store_fault(exc: BaseException, path) -> StoreError:
    """A SQLite or file-system failure in plain words, with the store's file.

    The raw error stays in ``__cause__`` (and at the end of the sentence) for whoever
    has to dig; the sentence says what happened and what to do.
    """
    text = str(exc)
    low = text.lower()
    if isinstance(exc, PermissionError) or "readonly" in low or "read-only" in low:
        what = (
            "is read-only (the file, its folder or the disk may not be written); nothing "
            "was changed. Give this user write access or choose another --store"
        )
    elif "disk is full" in low or "no space" in low or getattr(exc, "errno", None) == 28:
        what = "cannot grow: the disk is full; nothing was changed. Free some space and retry"
    elif "malformed" in low or "not a database" in low or "encrypted" in low:
        what = (
            "is damaged or is not a hexclass store; nothing was read from it. "
            "Restore a backup, or choose another --store"
        )
    elif _is_busy(exc):
        what = (
            "stayed locked by another process past the timeout; nothing was changed. "
            "Try again in a moment"
        )
    elif "unable to open" in low or isinstance(exc, OSError):
        what = "cannot be opened (does its folder exist, and may this user write there?)"
    elif "disk i/o" in low:
        what = "could not be read or written: the disk reported an error"
    else:
        what = "could not be used"
    kind = StoreBusy if _is_busy(exc) else StoreError
    return kind(f"the class store {path} {what} [{type(exc).__name__}: {text}]")


def _class_info(row) -> ClassInfo:
    cid, name, created, mode, limit, paused, commander = row
    return ClassInfo(cid, name, created, ClassSettings(mode, limit, commander), bool(paused))


__all__ = ["SQLiteStore", "SCHEMA", "SCHEMA_VERSION"]
