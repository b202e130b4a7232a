"""The embedded co-op store: one SQLite file in WAL mode with durable commits.

Every seat kernel, the instructor console and the CLI open the same file, each with
its own :class:`SQLiteStore`. Writers serialise on ``BEGIN IMMEDIATE`` (waiting up to
the busy timeout); readers never wait for writers (WAL). ``synchronous=FULL`` makes a
commit durable before :meth:`SQLiteStore.submit` returns, so an acknowledged action
survives a ``kill -9`` or a power cut.

Every co-op sequence (submitting, messages, the queue, the instructor's changes) and
the secrets kept at rest are :class:`~.sql_store.SQLStore`'s; this module only connects,
keeps the schema and its upgrades, and turns SQLite's errors into sentences.

>>> import tempfile, os
>>> from hexclass.classroom.combined_arms import EndPhase
>>> from hexclass.classroom.sessions.roles import layout_for
>>> from hexclass.classroom.sessions.store import ClassSettings, GameSpec
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

import os
import pathlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from . import sealed
from .hidden_tables import HIDDEN_TABLES
from .sql_store import Dialect, SQLStore
from .store import Refusal, Refused, StoreError

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


class SQLiteStore(SQLStore):
    """A :class:`~.store.ClassStore` in one SQLite file (created if missing).

    ``key`` is the store's key (:mod:`.sealed`): by default found for this file
    (:func:`.sealed.sealer_for`); None opens it without (a seat kernel: no seed, no
    token, no sealed view can be read). ``durable=False`` drops to ``synchronous=NORMAL`` (still crash-safe for the
    database, but the last commits may be lost on power failure); the default is the
    durable ``FULL``. ``clock`` replaces :func:`time.time` (tests).

    Every co-op sequence is :class:`~.sql_store.SQLStore`'s; this class only connects,
    keeps the schema and turns SQLite's errors into sentences. One write transaction
    (``BEGIN IMMEDIATE``) holds the whole file, so a game's write needs no row lock.
    """

    dialect = Dialect(seat_order="rowid")
    _lost = (sqlite3.OperationalError,)

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
        with self._write_tx() as db:
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
        with self._write_tx() as db:
            sealed.check_key(db.execute, self._sealer, str(self.path))

    @contextmanager
    def _write_tx(self) -> Iterator[sqlite3.Connection]:
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
    def _read_tx(self) -> Iterator[sqlite3.Connection]:
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

    # --- what the shared store asks of its backend ---------------------------------------------

    @contextmanager
    def _tx(self, batch: bool = False) -> Iterator[Callable]:
        with self._write_tx() as db:
            yield db.execute

    def _reading(self, read: Callable, consistent: bool = False):
        if consistent:
            with self._read_tx() as db:
                return read(db.execute)
        with self._lock:  # one statement: no transaction of its own needed
            return read(self._conn.execute)

    def _busy_refusal(self, exc: BaseException) -> Refused:
        if _is_busy(exc):
            return Refused(Refusal.BUSY, "the store is busy; nothing was changed, try again")
        raise exc

    def now(self) -> float:
        return self._clock()

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

    # --- checking the file -----------------------------------------------------------------------

    def integrity(self) -> list[str]:
        """Problems found by SQLite's integrity check and the log's own invariants ([] if none)."""
        with self._read_tx() as db:
            result = [r[0] for r in db.execute("PRAGMA integrity_check")]
        return ([] if result == ["ok"] else result) + super().integrity()


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


__all__ = ["SQLiteStore", "SCHEMA", "SCHEMA_VERSION"]
