"""The embedded co-op store: one SQLite file in WAL mode with durable commits.

Every seat kernel, the instructor console and the CLI open the same file, each with
its own :class:`SQLiteStore`. Writers serialise on ``BEGIN IMMEDIATE`` (waiting up to
the busy timeout); readers never wait for writers (WAL). ``synchronous=FULL`` makes a
commit durable before :meth:`SQLiteStore.submit` returns, so an acknowledged action
survives a ``kill -9`` or a power cut.

Submitting replays the log into a per-process cache (one state per game, caught up
action by action), checks the version and the engine, appends and commits, all inside
one transaction.

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

import json
import os
import pathlib
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from classroom.combined_arms.actions import ActionFormatError, action_from_json, action_to_json
from classroom.combined_arms.engine import apply, check
from classroom.combined_arms.reasons import COOP, IllegalAction
from classroom.combined_arms.state import GameState

from .roles import Layout, LayoutError
from .store import (
    GAME_STATUSES,
    INSTRUCTOR,
    MAX_NOTE_CHARS,
    OPEN_REQUESTS,
    STALE_MESSAGE,
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
    new_token,
    options_from_json,
    options_to_json,
    parse_action,
)

SCHEMA_VERSION = 1
BUSY_TIMEOUT = 10.0  # seconds a writer waits for the lock before giving up
CACHE_GAMES = 64  # replayed states kept per process

SCHEMA = """
CREATE TABLE IF NOT EXISTS classes (
    id               INTEGER PRIMARY KEY,
    name             TEXT    NOT NULL DEFAULT '',
    instructor_token TEXT    NOT NULL UNIQUE,
    message_mode     TEXT    NOT NULL DEFAULT 'free' CHECK (message_mode IN ('free', 'written')),
    message_limit    INTEGER CHECK (message_limit IS NULL OR message_limit >= 0),
    paused           INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
    created          REAL    NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id           INTEGER PRIMARY KEY,
    class_id     INTEGER NOT NULL REFERENCES classes(id),
    team         INTEGER NOT NULL CHECK (team >= 1),
    seed         INTEGER NOT NULL CHECK (seed >= 0),
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
    UNIQUE (class_id, team)
);
CREATE TABLE IF NOT EXISTS seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat    TEXT    NOT NULL,
    token   TEXT    NOT NULL UNIQUE,
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
CREATE TABLE IF NOT EXISTS instructor_log (
    id       INTEGER PRIMARY KEY,
    class_id INTEGER NOT NULL REFERENCES classes(id),
    game_id  INTEGER,
    kind     TEXT    NOT NULL,
    data     TEXT    NOT NULL,
    at       REAL    NOT NULL
);
"""

_GAME_COLUMNS = (
    "g.id, g.class_id, g.team, g.seed, g.options, g.layout, g.start, g.status, c.paused, "
    "g.version, g.revision, g.turn, g.phase, g.created, g.ended_reason"
)


@dataclass
class _Cached:
    version: int
    state: GameState


class SQLiteStore(ClassStore):
    """A :class:`~.store.ClassStore` in one SQLite file (created if missing).

    ``durable=False`` drops to ``synchronous=NORMAL`` (still crash-safe for the
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
    ) -> None:
        self.path = pathlib.Path(path)
        if str(path) in ("", ":memory:"):
            raise ValueError("path: expected a file; several connections share one store")
        self._busy_timeout = busy_timeout
        self._durable = durable
        self._clock = clock or time.time
        self._lock = threading.RLock()
        self._cache: OrderedDict[int, _Cached] = OrderedDict()
        self._conn = self._connect()
        self._ensure_schema()

    # --- connection and transactions ----------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        if not self.path.parent.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
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
            for stmt in _statements(SCHEMA):
                db.execute(stmt)
            if have < SCHEMA_VERSION:
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: BEGIN IMMEDIATE takes the write lock up front."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """A consistent read snapshot across several statements (never blocks writers)."""
        with self._lock:
            self._conn.execute("BEGIN")
            try:
                yield self._conn
            finally:
                if self._conn.in_transaction:
                    self._conn.execute("COMMIT")

    def _busy(self, exc: sqlite3.OperationalError, version: int | None = None) -> Refused:
        if "locked" in str(exc) or "busy" in str(exc):
            return Refused(
                Refusal.BUSY, "the store is busy; nothing was changed, try again", version
            )
        raise exc

    def now(self) -> float:
        return self._clock()

    def change_token(self) -> int:
        """``PRAGMA data_version``: changes when another connection commits."""
        with self._lock:
            return self._conn.execute("PRAGMA data_version").fetchone()[0]

    def reader(self) -> SQLiteStore:
        return SQLiteStore(
            self.path, busy_timeout=self._busy_timeout, durable=self._durable, clock=self._clock
        )

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None  # type: ignore[assignment]
                self._cache.clear()

    # --- rows -> values ------------------------------------------------------------------------

    def _game_row(self, db: sqlite3.Connection, game_id: int) -> GameInfo | None:
        row = db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games g JOIN classes c ON c.id = g.class_id "
            "WHERE g.id = ?",
            (game_id,),
        ).fetchone()
        return None if row is None else _game_info(row)

    def _class_row(self, db: sqlite3.Connection, class_id: int) -> ClassInfo | None:
        row = db.execute(
            "SELECT id, name, created, message_mode, message_limit, paused FROM classes "
            "WHERE id = ?",
            (class_id,),
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
        token = new_token()
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO classes (name, instructor_token, message_mode, message_limit, "
                "created) VALUES (?, ?, ?, ?, ?)",
                (name, token, settings.message_mode, settings.message_limit, now),
            )
            class_id = cur.lastrowid
            seat_tokens: dict[int, dict[str, str]] = {}
            for g in games:
                game_id = self._insert_game(db, class_id, g, now)
                seat_tokens[game_id] = self._insert_seats(db, game_id, g.layout)
            db.execute(
                "INSERT INTO instructor_log (class_id, game_id, kind, data, at) "
                "VALUES (?, NULL, 'create', ?, ?)",
                (class_id, json.dumps({"teams": teams, "seeds": [g.seed for g in games]}), now),
            )
            info = self._class_row(db, class_id)
            rows = [self._game_row(db, gid) for gid in seat_tokens]
        return CreatedClass(info, token, rows, seat_tokens)

    def _insert_game(self, db: sqlite3.Connection, class_id: int, g: GameSpec, now: float) -> int:
        cur = db.execute(
            "INSERT INTO games (class_id, team, seed, options, layout, start, created) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                class_id,
                g.team,
                g.seed,
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
            tokens[seat] = new_token()
            db.execute(
                "INSERT INTO seats (game_id, seat, token) VALUES (?, ?, ?)",
                (game_id, seat, tokens[seat]),
            )
        return tokens

    def class_info(self, class_id: int) -> ClassInfo | None:
        with self._lock:
            return self._class_row(self._conn, class_id)

    def classes(self) -> list[ClassInfo]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT id, name, created, message_mode, message_limit, paused FROM classes "
                "ORDER BY id"
            ).fetchall()
        return [_class_info(r) for r in rows]

    def games(self, class_id: int) -> list[GameInfo]:
        with self._lock:
            rows = self._conn.execute(
                f"SELECT {_GAME_COLUMNS} FROM games g JOIN classes c ON c.id = g.class_id "
                "WHERE g.class_id = ? ORDER BY g.team",
                (class_id,),
            ).fetchall()
        return [_game_info(r) for r in rows]

    def game(self, game_id: int) -> GameInfo | None:
        with self._lock:
            return self._game_row(self._conn, game_id)

    def tokens(self, class_id: int) -> tuple[str, dict[int, dict[str, str]]]:
        with self._read() as db:
            row = db.execute(
                "SELECT instructor_token FROM classes WHERE id = ?", (class_id,)
            ).fetchone()
            if row is None:
                raise KeyError(f"no class {class_id}")
            seats: dict[int, dict[str, str]] = {}
            for game_id, seat, token in db.execute(
                "SELECT s.game_id, s.seat, s.token FROM seats s JOIN games g ON g.id = s.game_id "
                "WHERE g.class_id = ? ORDER BY g.team, s.rowid",
                (class_id,),
            ):
                seats.setdefault(game_id, {})[seat] = token
        return row[0], seats

    def lookup_token(self, token: str) -> TokenInfo | None:
        if not looks_like_token(token):
            return None
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
        return None if row is None else TokenInfo("seat", row[0], row[1], row[2])

    # --- the action log ------------------------------------------------------------------------

    def submit(self, game_id: int, expected_version: int, seat: str, action: Any) -> Result:
        """Append one action in one ``BEGIN IMMEDIATE`` transaction, or refuse it.

        Order of checks: the action's form and seat, the game and seat exist, the game is
        not ended or paused, ``expected_version`` is current, then the engine's
        :func:`~classroom.combined_arms.engine.check`.
        """
        parsed, why = parse_action(action)
        if why:
            return Refused(Refusal.BAD_ACTION, why)
        if parsed.seat != seat:
            return Refused(
                Refusal.WRONG_SEAT,
                f"this action is written for seat {parsed.seat!r} but was sent by seat {seat!r}",
                rule=COOP,
            )
        if isinstance(expected_version, bool) or not isinstance(expected_version, int):
            return Refused(
                Refusal.BAD_ACTION,
                f"expected_version: expected an integer, got {expected_version!r}",
            )
        try:
            with self._write() as db:
                return self._submit_locked(db, game_id, expected_version, seat, parsed)
        except sqlite3.OperationalError as exc:
            self._cache.pop(game_id, None)
            return self._busy(exc)
        except BaseException:
            self._cache.pop(game_id, None)  # the cached state may hold an uncommitted action
            raise

    def _submit_locked(
        self, db: sqlite3.Connection, game_id: int, expected: int, seat: str, action: Any
    ) -> Result:
        game = self._game_row(db, game_id)
        if game is None:
            return Refused(Refusal.UNKNOWN_GAME, f"there is no game {game_id}")
        refusal = _seat_or_status_problem(game, seat)
        if refusal is not None:
            return refusal
        if expected != game.version:
            return Refused(Refusal.STALE, STALE_MESSAGE, game.version)
        state = self._current_state(db, game)
        reason = check(state, action)
        if reason is not None:
            return Refused(Refusal.ILLEGAL, str(reason), game.version, reason.rule)
        turn, phase, now = state.turn, state.phase, self.now()
        version = game.version + 1
        db.execute(
            "INSERT INTO actions (game_id, version, seat, action, turn, phase, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, version, seat, json.dumps(action_to_json(action)), turn, phase, now),
        )
        apply(state, action)
        self._cache[game_id].version = version
        self._after_action(db, game, state, version, now)
        return Accepted(version, action)

    def _after_action(
        self, db: sqlite3.Connection, game: GameInfo, state: GameState, version: int, now: float
    ) -> None:
        """Move the game row on; close requests and mark the game ended when it is over."""
        status, reason = game.status, game.ended_reason
        if state.over:
            status = "ended"
            total = state.result.total if state.result is not None else None
            reason = f"game over: score {total}" if total is not None else "game over"
        db.execute(
            "UPDATE games SET version = ?, revision = revision + 1, turn = ?, phase = ?, "
            "status = ?, ended_reason = ? WHERE id = ?",
            (version, state.turn, state.phase, status, reason, game.id),
        )
        if (state.turn, state.phase) != (game.turn, game.phase):
            # CA p.7 asks who acts *next*; a new phase starts a new queue.
            db.execute(
                "UPDATE requests SET status = 'expired', decided = ? "
                "WHERE game_id = ? AND status IN ('waiting', 'granted')",
                (now, game.id),
            )

    def _current_state(self, db: sqlite3.Connection, game: GameInfo) -> GameState:
        """The cached state caught up to ``game.version`` (replayed from scratch if needed)."""
        entry = self._cache.get(game.id)
        if entry is None or entry.version > game.version:
            entry = _Cached(0, initial_state(game))
        self._cache[game.id] = entry
        self._cache.move_to_end(game.id)
        while len(self._cache) > CACHE_GAMES:
            self._cache.popitem(last=False)
        if entry.version < game.version:
            try:
                for logged in self._read_actions(db, game.id, entry.version, None):
                    _replay_one(entry.state, logged, entry.version)
                    entry.version = logged.version
            except BaseException:
                self._cache.pop(game.id, None)
                raise
            if entry.version != game.version:
                self._cache.pop(game.id, None)
                raise StoreError(
                    f"game {game.id}: the log ends at version {entry.version} "
                    f"but the game row says {game.version}"
                )
        return entry.state

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
                action = action_from_json(json.loads(raw))
            except (ValueError, ActionFormatError) as exc:
                raise StoreError(
                    f"game {game_id} version {version}: unreadable action: {exc}"
                ) from None
            out.append(LoggedAction(game_id, version, seat, action, turn, phase, at))
        return out

    def actions(self, game_id: int, after: int = 0, limit: int | None = None) -> list[LoggedAction]:
        with self._lock:
            return self._read_actions(self._conn, game_id, after, limit)

    def state(self, game_id: int, version: int | None = None) -> GameState:
        with self._read() as db:
            game = self._game_row(db, game_id)
            if game is None:
                raise KeyError(f"there is no game {game_id}")
            if version is None or version == game.version:
                return self._current_state(db, game).copy()
            if not 0 <= version <= game.version:
                raise ValueError(f"version: expected 0 to {game.version}, got {version}")
            state = initial_state(game)
            for logged in self._read_actions(db, game_id, 0, version):
                _replay_one(state, logged, logged.version - 1)
            return state

    def version(self, game_id: int) -> int:
        """The game's current version (0 before any action)."""
        game = self.game(game_id)
        if game is None:
            raise KeyError(f"there is no game {game_id}")
        return game.version

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
        if game is None:
            return Refused(Refusal.UNKNOWN_GAME, f"there is no game {game_id}")
        if seat != INSTRUCTOR:
            if seat not in game.layout:
                return _unknown_seat(game, seat)
            refusal = self._message_limit_problem(db, game, seat)
            if refusal is not None:
                return refusal
        now = self.now()
        cur = db.execute(
            "INSERT INTO messages (game_id, seat, turn, text, at) VALUES (?, ?, ?, ?, ?)",
            (game_id, seat, game.turn, body, now),
        )
        self._bump(db, game_id)
        return Accepted(game.version, Message(cur.lastrowid, game_id, seat, game.turn, body, now))

    def _message_limit_problem(self, db: sqlite3.Connection, game: GameInfo, seat: str):
        """CA p.7: written messages may be limited per player per turn."""
        mode, limit = db.execute(
            "SELECT message_mode, message_limit FROM classes WHERE id = ?", (game.class_id,)
        ).fetchone()
        if mode != "written" or limit is None:
            return None
        sent = db.execute(
            "SELECT COUNT(*) FROM messages WHERE game_id = ? AND seat = ? AND turn = ?",
            (game.id, seat, game.turn),
        ).fetchone()[0]
        if sent >= limit:
            return Refused(
                Refusal.MESSAGE_LIMIT,
                f"written messages are limited to {limit} per seat per turn; "
                f"you have sent {sent} this turn (turn {game.turn})",
                game.version,
                rule='CA p.7 "Co-operative Team Play"',
            )
        return None

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
            return self._conn.execute(
                "SELECT COUNT(*) FROM messages WHERE game_id = ? AND seat = ? AND turn = ?",
                (game_id, seat, turn),
            ).fetchone()[0]

    # --- the commander's request queue (CA p.7) --------------------------------------------------

    def request_turn(self, game_id: int, seat: str, note: str = "") -> Result:
        if not isinstance(note, str) or len(note) > MAX_NOTE_CHARS:
            return Refused(
                Refusal.BAD_REQUEST, f"note: expected text of at most {MAX_NOTE_CHARS} characters"
            )
        try:
            with self._write() as db:
                game = self._game_row(db, game_id)
                refusal = _game_seat_problem(game, game_id, seat)
                if refusal is not None:
                    return refusal
                if db.execute(
                    "SELECT 1 FROM requests WHERE game_id = ? AND seat = ? "
                    "AND status IN ('waiting', 'granted')",
                    (game_id, seat),
                ).fetchone():
                    return Refused(
                        Refusal.BAD_REQUEST,
                        f"seat {seat!r} already has a request open",
                        game.version,
                    )
                cur = db.execute(
                    "INSERT INTO requests (game_id, seat, note, turn, phase, status, asked) "
                    "VALUES (?, ?, ?, ?, ?, 'waiting', ?)",
                    (game_id, seat, note.strip(), game.turn, game.phase, self.now()),
                )
                self._bump(db, game_id)
                return Accepted(game.version, cur.lastrowid)
        except sqlite3.OperationalError as exc:
            return self._busy(exc)

    def decide_request(self, game_id: int, seat: str, request_id: int, grant: bool) -> Result:
        try:
            with self._write() as db:
                game = self._game_row(db, game_id)
                refusal = _game_seat_problem(game, game_id, seat)
                if refusal is not None:
                    return refusal
                if not game.layout.seat(seat).is_commander:
                    return Refused(
                        Refusal.NOT_COMMANDER,
                        "only the overall commander decides who moves or fires next",
                        game.version,
                        rule=COOP,
                    )
                row = db.execute(
                    "SELECT status FROM requests WHERE id = ? AND game_id = ?",
                    (request_id, game_id),
                ).fetchone()
                if row is None or row[0] != "waiting":
                    what = "no such request" if row is None else f"that request is {row[0]}"
                    return Refused(Refusal.BAD_REQUEST, what, game.version)
                db.execute(
                    "UPDATE requests SET status = ?, decided = ?, decided_by = ? WHERE id = ?",
                    ("granted" if grant else "denied", self.now(), seat, request_id),
                )
                self._bump(db, game_id)
                return Accepted(game.version, request_id)
        except sqlite3.OperationalError as exc:
            return self._busy(exc)

    def close_request(self, game_id: int, seat: str) -> Result:
        try:
            with self._write() as db:
                game = self._game_row(db, game_id)
                refusal = _game_seat_problem(game, game_id, seat)
                if refusal is not None:
                    return refusal
                row = db.execute(
                    "SELECT id, status FROM requests WHERE game_id = ? AND seat = ? "
                    "AND status IN ('waiting', 'granted')",
                    (game_id, seat),
                ).fetchone()
                if row is None:
                    return Refused(
                        Refusal.BAD_REQUEST, f"seat {seat!r} has no open request", game.version
                    )
                new = "withdrawn" if row[1] == "waiting" else "done"
                db.execute(
                    "UPDATE requests SET status = ?, decided = COALESCE(decided, ?) WHERE id = ?",
                    (new, self.now(), row[0]),
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

    # --- ready flags and presence ---------------------------------------------------------------

    def set_ready(self, game_id: int, seat: str, ready: bool = True) -> Result:
        try:
            with self._write() as db:
                game = self._game_row(db, game_id)
                refusal = _game_seat_problem(game, game_id, seat)
                if refusal is not None:
                    return refusal
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
                    return _unknown_seat(game, seat)
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

    # --- the instructor ---------------------------------------------------------------------------

    def set_game_status(self, game_id: int, status: str, by: str = INSTRUCTOR) -> Result:
        if status not in GAME_STATUSES:
            return Refused(
                Refusal.BAD_SETTING,
                f"status: expected one of {', '.join(GAME_STATUSES)}, got {status!r}",
            )
        try:
            with self._write() as db:
                game = self._game_row(db, game_id)
                if game is None:
                    return Refused(Refusal.UNKNOWN_GAME, f"there is no game {game_id}")
                if game.status == "ended":
                    return Refused(
                        Refusal.ENDED, "this game has ended and stays ended", game.version
                    )
                reason = f"ended by the {by}" if status == "ended" else None
                db.execute(
                    "UPDATE games SET status = ?, ended_reason = ?, revision = revision + 1 "
                    "WHERE id = ?",
                    (status, reason, game_id),
                )
                self._log(db, game.class_id, game_id, _status_verb(status), {"by": by})
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
                    "UPDATE classes SET message_mode = ?, message_limit = ? WHERE id = ?",
                    (settings.message_mode, settings.message_limit, class_id),
                )
                db.execute(
                    "UPDATE games SET revision = revision + 1 WHERE class_id = ?", (class_id,)
                )
                data = {"by": by, "mode": settings.message_mode, "limit": settings.message_limit}
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
        return [InstructorEntry(i, c, g, k, json.loads(d), at) for i, c, g, k, d, at in rows]

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


def _game_info(row) -> GameInfo:
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
        seed=seed,
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


def _class_info(row) -> ClassInfo:
    cid, name, created, mode, limit, paused = row
    return ClassInfo(cid, name, created, ClassSettings(mode, limit), bool(paused))


def _replay_one(state: GameState, logged: LoggedAction, previous: int) -> None:
    """Apply one logged action during a replay; a gap or a refusal means a broken log."""
    if logged.version != previous + 1:
        raise StoreError(
            f"game {logged.game_id}: the log jumps from version {previous} to {logged.version}"
        )
    try:
        apply(state, logged.action)
    except IllegalAction as exc:
        raise StoreError(
            f"game {logged.game_id} version {logged.version} no longer replays: {exc}"
        ) from None


def _unknown_seat(game: GameInfo, seat: str) -> Refused:
    return Refused(
        Refusal.UNKNOWN_SEAT,
        f"there is no seat {seat!r} in team {game.team}; seats are {', '.join(game.layout.names)}",
        game.version,
    )


def _seat_or_status_problem(game: GameInfo, seat: str) -> Refused | None:
    if seat not in game.layout:
        return _unknown_seat(game, seat)
    status = game.effective_status
    if status == "ended":
        why = game.ended_reason or "the game has ended"
        return Refused(Refusal.ENDED, f"the game is over ({why})", game.version)
    if status == "paused":
        who = "the whole class" if game.class_paused else "this game"
        return Refused(
            Refusal.PAUSED, f"the instructor has paused {who}; wait to resume", game.version
        )
    return None


def _game_seat_problem(game: GameInfo | None, game_id: int, seat: str) -> Refused | None:
    if game is None:
        return Refused(Refusal.UNKNOWN_GAME, f"there is no game {game_id}")
    if seat not in game.layout:
        return _unknown_seat(game, seat)
    if game.status == "ended":
        return Refused(Refusal.ENDED, "the game is over", game.version)
    return None


def _status_verb(status: str) -> str:
    return {"running": "resume", "paused": "pause", "ended": "end"}[status]


__all__ = ["SQLiteStore", "SCHEMA", "SCHEMA_VERSION"]
