"""The co-op store's sequences, written once over a small SQL backend.

:class:`SQLStore` is the whole :class:`~.store.ClassStore`: every operation's steps
(the action's form, the :mod:`.policy` checks, taking the lock, the engine's check,
appending, feeding the process's :class:`~.live.LiveGame`, telling the followers) and
the secrets kept at rest (:mod:`.sealed`: hashed tokens, sealed seeds, tokens and
secret actions) are here, once. A backend subclasses it and supplies only SQL dialect
and connection handling:

========================  =====================================================================
``dialect``               :class:`Dialect`: the few clauses that differ (row locks, seat order)
``_tx(batch=False)``      one write transaction; yields ``run(sql, params)`` (``?`` placeholders,
                          returns a cursor with ``fetchone``/``fetchall``). ``batch``: the writes
                          may be sent together (PostgreSQL's pipeline)
``_reading(read)``        ``read(run)``, only reads, on one connection (``consistent``: one
                          snapshot); PostgreSQL runs it again on a fresh connection if broken
``_changed(game_ids)``    after a commit: wake this process's followers (None: any game)
``_lost``                 the exception types after which a write is refused ``BUSY``
``_busy_refusal(exc)``    that refusal (or re-raise ``exc`` if it is not one)
``_submit_tag()``         a value stored with an appended action (``submit_id``) or None
``_lost_submit(...)``     the connection broke mid-submit: did it commit?
``change_token``,         :class:`~.store.GameStore`'s change signal (``PRAGMA data_version``,
``wait_for_change``       or PostgreSQL's LISTEN/NOTIFY)
``reader``, ``close``     a second handle; releasing the connection
========================  =====================================================================

Statements use ``?`` placeholders and SQL that both SQLite (3.35+) and PostgreSQL read
(``INSERT ... ON CONFLICT ... DO UPDATE``, ``RETURNING``); a backend whose driver wants
another placeholder rewrites it in ``run``. A third backend would be this list and SQL.
"""

from __future__ import annotations

import abc
import dataclasses
import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from hexclass.classroom.combined_arms.actions import ActionFormatError
from hexclass.classroom.combined_arms.engine import check

from . import policy, sealed
from .hidden_tables import HiddenTables
from .live import LiveGame, LiveGames, Update
from .roles import Layout, LayoutError
from .store import (
    INSTRUCTOR,
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

T = TypeVar("T")


class Cursor(Protocol):
    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Run(Protocol):
    """One statement inside a backend's transaction (``?`` placeholders)."""

    def __call__(self, sql: str, params: Iterable[Any] = ()) -> Cursor: ...


@dataclass(frozen=True)
class Dialect:
    """The clauses in which the backends' SQL differs."""

    lock_game: str = ""  # after the game row's SELECT in a write: keep it locked until commit
    lock_rows: str = ""  # the same for a plain SELECT (the class row, a class's game rows)
    seat_order: str = "rowid"  # the seats' column keeping a layout's order (rowid: implicit)


# --- the reads every backend makes (follower snapshots reuse them) ----------------------------

CLASS_COLUMNS = "id, name, created, message_mode, message_limit, paused, commander_mode"
GAME_COLUMNS = (
    "g.id, g.class_id, g.team, g.seed_sealed, g.options, g.layout, g.start, g.status, c.paused, "
    "g.version, g.revision, g.turn, g.phase, g.created, g.ended_reason"
)
REQUEST_COLUMNS = "id, game_id, seat, note, turn, phase, status, asked, decided, decided_by"
OPEN = "status IN ('waiting', 'granted')"
GAMES_SQL = f"SELECT {GAME_COLUMNS} FROM games g JOIN classes c ON c.id = g.class_id"
GAME_SQL = f"{GAMES_SQL} WHERE g.id = ?"
CLASS_SQL = f"SELECT {CLASS_COLUMNS} FROM classes WHERE id = ?"
CLASS_OF_GAME_SQL = (
    f"SELECT {CLASS_COLUMNS} FROM classes WHERE id = (SELECT class_id FROM games WHERE id = ?)"
)
MESSAGES_SQL = (
    "SELECT id, game_id, seat, turn, text, at FROM messages WHERE game_id = ? AND id > ? "
    "ORDER BY id"
)
OPEN_REQUESTS_SQL = (
    f"SELECT {REQUEST_COLUMNS} FROM requests WHERE game_id = ? AND {OPEN} ORDER BY id"
)
READY_SQL = (
    "SELECT r.seat FROM ready r JOIN games g ON g.id = r.game_id "
    "WHERE r.game_id = ? AND r.turn = g.turn AND r.phase = g.phase"
)
SENT_SQL = "SELECT COUNT(*) FROM messages WHERE game_id = ? AND seat = ? AND turn = ?"


def actions_sql(upto: bool = False, limit: bool = False) -> str:
    """The log after a version (up to another, at most ``limit`` rows): params in that order."""
    return (
        "SELECT version, seat, action, turn, phase, at FROM actions "
        "WHERE game_id = ? AND version > ?"
        + (" AND version <= ?" if upto else "")
        + " ORDER BY version"
        + (" LIMIT ?" if limit else "")
    )


def _marks(n: int) -> str:
    return ", ".join("?" * n)


def is_id(value: Any) -> bool:
    """A row id as the stores take it: an int, not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def class_info(row) -> ClassInfo:
    cid, name, created, mode, limit, paused, commander = row
    return ClassInfo(cid, name, created, ClassSettings(mode, limit, commander), bool(paused))


def game_info(row, sealer: sealed.Sealer | None) -> GameInfo:
    """A games row (:data:`GAME_COLUMNS`) as a value, its seed opened with ``sealer``."""
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


def logged_action(sealer, game_id: int, version, seat, raw, turn, phase, at) -> LoggedAction:
    """An actions row as a value, a sealed secret action opened with ``sealer``."""
    try:
        action = sealed.action_from_text(sealer, raw, seat)
    except (ValueError, ActionFormatError) as exc:
        raise StoreError(f"game {game_id} version {version}: unreadable action: {exc}") from None
    return LoggedAction(game_id, version, seat, action, turn, phase, at)


def order_form(seat: str, action: Any, expected: Any) -> tuple[Any, Refused | None]:
    """``submit``'s first step, before any database: the action, its sender, the version."""
    parsed, why = parse_action(action)
    if why:
        return None, Refused(Refusal.BAD_ACTION, why)
    refused = policy.sender_problem(seat, parsed)
    if refused is None:
        refused = policy.version_problem(expected)
    return parsed, refused


class SQLStore(ClassStore):
    """A :class:`~.store.ClassStore` over a SQL database: see the module docstring."""

    dialect: ClassVar[Dialect] = Dialect()
    _lost: ClassVar[tuple[type[BaseException], ...]] = ()

    # --- what a backend supplies -------------------------------------------------------------

    @abc.abstractmethod
    def _tx(self, batch: bool = False) -> AbstractContextManager[Run]:
        """One write transaction (committed when the block ends without an error)."""

    @abc.abstractmethod
    def _reading(self, read: Callable[[Run], T], consistent: bool = False) -> T:
        """``read(run)`` on one connection: only reads, so a backend may run it again on a
        fresh connection. ``consistent``: its statements see one snapshot of the data."""

    def _rows(self, sql: str, params: Iterable[Any] = ()) -> list[tuple]:
        return self._reading(lambda run: run(sql, params).fetchall())

    def _row(self, sql: str, params: Iterable[Any] = ()) -> tuple | None:
        return self._reading(lambda run: run(sql, params).fetchone())

    def _changed(self, game_ids: list[int | None]) -> None:
        """A commit changed these games (None: any): wake this process's followers."""

    @abc.abstractmethod
    def _busy_refusal(self, exc: BaseException) -> Refused:
        """A write hit one of :attr:`_lost`: the BUSY refusal (or raise ``exc``)."""

    def _submit_tag(self) -> Any:
        return None

    def _lost_submit(self, game_id: int, tag: Any, action: Any, exc: BaseException):
        """A submit's transaction failed with one of :attr:`_lost`: its result, or None when
        it is known not to be in the log (it is then sent once more)."""
        return self._busy_refusal(exc)

    # --- this process's live games ------------------------------------------------------------

    def live_game(self, game_id: int, *, pin: bool = False, catch_up: bool = True):
        """This process's live games are cached here (see :class:`.live.LiveGames`)."""
        info = self.game(game_id)
        if info is None:
            raise KeyError(f"there is no game {game_id}")
        live = self._live_games().get(info, pin=pin)
        if catch_up:
            live.catch_up(lambda after: self.actions(game_id, after=after))
        return live

    def _live_games(self):
        cache = getattr(self, "_live_cache", None)
        if cache is None:
            cache = self._live_cache = LiveGames()
        return cache

    # --- transactions built on those -----------------------------------------------------------

    def _write(self, body: Callable[[Run], Result]) -> Result:
        try:
            with self._tx() as run:
                return body(run)
        except self._lost as exc:
            return self._busy_refusal(exc)

    @contextmanager
    def _game_tx(self, game_id: int) -> Iterator[tuple[Run, GameInfo | None]]:
        """A write on one game: its row locked until commit (None if there is no such game)."""
        with self._tx(batch=True) as run:
            yield run, self._game_row(run, game_id, lock=True)
        self._changed([game_id])

    def _game_write(self, game_id: int, body: Callable[[Run, GameInfo | None], Result]) -> Result:
        try:
            with self._game_tx(game_id) as (run, game):
                return body(run, game)
        except self._lost as exc:
            return self._busy_refusal(exc)

    def _class_write(self, class_id: int, body: Callable[[Run], Result]) -> Result:
        """A write on a class's row; every game of the class changes with it (in id order)."""
        games: list[int] = []

        def locked(run: Run) -> Result:
            lock = self.dialect.lock_rows
            if run(f"SELECT id FROM classes WHERE id = ?{lock}", (class_id,)).fetchone() is None:
                return Refused(Refusal.UNKNOWN_CLASS, f"there is no class {class_id}")
            result = body(run)
            bumped = run(
                "UPDATE games SET revision = revision + 1 WHERE id IN "
                f"(SELECT id FROM games WHERE class_id = ? ORDER BY id{lock}) RETURNING id",
                (class_id,),
            ).fetchall()
            games.extend(g for (g,) in bumped)
            return result

        result = self._write(locked)
        self._changed(list(games))
        return result

    # --- rows -> values ------------------------------------------------------------------------

    def _game_row(self, run: Run, game_id: int, lock: bool = False) -> GameInfo | None:
        if not is_id(game_id):
            return None
        sql = GAME_SQL + (self.dialect.lock_game if lock else "")
        row = run(sql, (game_id,)).fetchone()
        return None if row is None else game_info(row, self._sealer)

    def _class_row(self, run: Run, class_id: int) -> ClassInfo | None:
        row = run(CLASS_SQL, (class_id,)).fetchone()
        return None if row is None else class_info(row)

    def _read_actions(self, run: Run, game_id: int, after: int, upto=None, limit=None):
        params = [game_id, after] + [v for v in (upto, limit) if v is not None]
        sql = actions_sql(upto is not None, limit is not None)
        return [logged_action(self._sealer, game_id, *r) for r in run(sql, params).fetchall()]

    @staticmethod
    def _insert_id(run: Run, sql: str, params: Iterable[Any]) -> int:
        return run(sql + " RETURNING id", params).fetchall()[0][0]

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
        with self._tx(batch=True) as run:
            class_id = self._insert_id(
                run,
                "INSERT INTO classes (name, instructor_token, instructor_sealed, message_mode, "
                "message_limit, commander_mode, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (name, token_hash, token_sealed, settings.message_mode,
                 settings.message_limit, settings.commander, now),
            )  # fmt: skip
            seat_tokens: dict[int, dict[str, str]] = {}
            for g in games:
                game_id = self._insert_game(run, class_id, g, now)
                seat_tokens[game_id] = self._insert_seats(run, game_id, g.layout)
            data = sealed.create_log_data(self._sealer, teams, [g.seed for g in games])
            self._log(run, class_id, None, "create", data, now)
            info = self._class_row(run, class_id)
            rows = [self._game_row(run, gid) for gid in seat_tokens]
        self._changed(list(seat_tokens))
        return CreatedClass(info, token, rows, seat_tokens)

    def _insert_game(self, run: Run, class_id: int, g: GameSpec, now: float) -> int:
        return self._insert_id(
            run,
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

    def _insert_seats(self, run: Run, game_id: int, layout: Layout) -> dict[str, str]:
        order = self.dialect.seat_order
        cols = "game_id, seat, token, token_sealed" + ("" if order == "rowid" else f", {order}")
        tokens = {}
        for i, seat in enumerate(layout.names):
            tokens[seat], token_hash, token_sealed = sealed.new_token_row(self._sealer)
            row = (game_id, seat, token_hash, token_sealed) + (() if order == "rowid" else (i,))
            run(f"INSERT INTO seats ({cols}) VALUES ({_marks(len(row))})", row)
        return tokens

    def class_info(self, class_id: int) -> ClassInfo | None:
        row = self._row(CLASS_SQL, (class_id,))
        return None if row is None else class_info(row)

    def classes(self) -> list[ClassInfo]:
        return [
            class_info(r) for r in self._rows(f"SELECT {CLASS_COLUMNS} FROM classes ORDER BY id")
        ]

    def games(self, class_id: int) -> list[GameInfo]:
        rows = self._rows(f"{GAMES_SQL} WHERE g.class_id = ? ORDER BY g.team", (class_id,))
        return [game_info(r, self._sealer) for r in rows]

    def game(self, game_id: int) -> GameInfo | None:
        if not is_id(game_id):
            return None
        row = self._row(GAME_SQL, (game_id,))
        return None if row is None else game_info(row, self._sealer)

    def tokens(self, class_id: int) -> tuple[str, dict[int, dict[str, str]]]:
        order = self.dialect.seat_order

        def read(run: Run):
            row = run("SELECT instructor_sealed FROM classes WHERE id = ?", (class_id,)).fetchone()
            seat_rows = run(
                "SELECT s.game_id, s.seat, s.token_sealed FROM seats s JOIN games g ON "
                f"g.id = s.game_id WHERE g.class_id = ? ORDER BY g.team, s.{order}",
                (class_id,),
            ).fetchall()
            return row, seat_rows

        row, seat_rows = self._reading(read, consistent=True)
        if row is None:
            raise KeyError(f"no class {class_id}")
        seats: dict[int, dict[str, str]] = {}
        for game_id, seat, token in seat_rows:
            seats.setdefault(game_id, {})[seat] = sealed.open_token(self._sealer, token)
        return sealed.open_token(self._sealer, row[0]), seats

    def lookup_token(self, token: str) -> TokenInfo | None:
        if not looks_like_token(token):
            return None
        hashed = sealed.token_hash(token)
        row = self._row(
            "SELECT 'instructor', id, CAST(NULL AS BIGINT), NULL FROM classes "
            "WHERE instructor_token = ? UNION ALL SELECT 'seat', g.class_id, s.game_id, s.seat "
            "FROM seats s JOIN games g ON g.id = s.game_id WHERE s.token = ?",
            (hashed, hashed),
        )
        if row is None:
            return None
        kind, class_id, game_id, seat = row
        if kind == "instructor":
            return TokenInfo("instructor", class_id)
        return self.remember_seat(TokenInfo("seat", class_id, game_id, seat), token)

    # --- the action log ------------------------------------------------------------------------

    def submit(self, game_id: int, expected_version: int, seat: str, action: Any) -> Result:
        """Append one action in one transaction holding the game's lock, or refuse it.

        Order of checks (classroom/sessions/README.md): the action's form and seat; then,
        without the lock, the game, seat and status and whether an older
        ``expected_version`` can be rebased (:func:`.policy.rebase_problem`); then, holding
        the lock, the same again on the current rows, the strict commander's queue
        (:func:`.policy.commander_hold`) and the engine's
        :func:`~hexclass.classroom.combined_arms.engine.check`. The result carries the
        :class:`~.live.Update` of this process's live game (accepted or not).
        """
        parsed, refused = order_form(seat, action, expected_version)
        if refused is not None:
            return refused
        return self._submit(game_id, expected_version, seat, parsed, retry=True)

    def _submit(self, game_id: int, expected: int, seat: str, action: Any, retry: bool) -> Result:
        try:
            game, early = self._precheck(game_id, expected, seat)
        except self._lost as exc:
            return self._busy_refusal(exc)
        if early is not None:
            return early
        live = self._live_games().get(game)
        tag = self._submit_tag()
        mark: list[int] = []
        with live.lock:
            try:
                with self._game_tx(game_id) as (run, game):
                    return self._submit_locked(run, live, game_id, game, expected, seat, action, tag, mark)  # fmt: skip
            except self._lost as exc:
                if mark:
                    live.rewind(mark[0])  # not known to be committed: the next catch-up decides
                result = self._lost_submit(game_id, tag, action, exc)
            except BaseException:
                if mark:
                    live.rewind(mark[0])
                raise
        if result is None:  # known NOT to be in the log: once more (every check made again)
            if retry:
                return self._submit(game_id, expected, seat, action, retry=False)
            return self._busy_refusal(StoreError("the order was not stored"))
        return result

    def _precheck(self, game_id: int, expected: int, seat: str):
        """Refusals that need no lock: unknown, ended or paused game, a stale order."""

        def read(run: Run):
            game = self._game_row(run, game_id)
            if game is None or expected == game.version or expected < 0:
                return game, []
            return game, self._read_actions(run, game_id, expected)

        game, since = self._reading(read, consistent=True)
        problem = policy.order_problem(game, seat, game_id)
        if problem is not None:
            return game, problem
        if expected == game.version:
            return game, None
        stale = policy.rebase_problem(game, expected, since)
        if stale is None:
            return game, None
        live = self._live_games().get(game)
        update = live.catch_up(lambda after: self.actions(game_id, after=after))
        return game, dataclasses.replace(stale, update=update)

    def _submit_locked(
        self, run: Run, live: LiveGame, game_id, game, expected, seat, action, tag, mark
    ) -> Result:
        problem = policy.order_problem(game, seat, game_id)
        if problem is not None:
            return problem
        caught = self._catch_up_locked(run, live, game)
        refusal = self._refusal_locked(run, live, game, expected, seat, action)
        if refusal is not None:
            return dataclasses.replace(refusal, update=caught)
        entry = live.next_entry(seat, action, self.now())
        self._append(run, entry, tag)
        mark.append(live.version)
        own = live.feed([entry])
        self._after_action(run, game, live, entry)
        return Accepted(entry.version, action, update=caught.merge(own))

    def _refusal_locked(self, run: Run, live: LiveGame, game, expected, seat, action):
        """Under the lock: rebasing, the strict commander, then the engine's rules."""
        since = live.log[expected:] if 0 <= expected <= live.version else []
        refusal = policy.rebase_problem(game, expected, since)
        if refusal is None:
            settings = self._class_row(run, game.class_id).settings
            latest = self._latest_request(run, game.id, seat)
            refusal = policy.commander_hold(settings, game, seat, latest)
        if refusal is None:
            reason = check(live.state, action)
            if reason is not None and expected != game.version:
                refusal = policy.stale_after_rebase(game, reason)
            elif reason is not None:
                refusal = Refused(Refusal.ILLEGAL, str(reason), game.version, reason.rule)
        return refusal

    def _append(self, run: Run, entry: LoggedAction, tag: Any) -> None:
        cols = "game_id, version, seat, action, turn, phase, at"
        text = sealed.action_text(self._sealer, entry.action)
        row = [entry.game_id, entry.version, entry.seat, text, entry.turn, entry.phase, entry.at]
        if tag is not None:
            cols += ", submit_id"
            row.append(tag)
        run(f"INSERT INTO actions ({cols}) VALUES ({_marks(len(row))})", row)

    def _after_action(self, run: Run, game: GameInfo, live: LiveGame, entry: LoggedAction) -> None:
        row = policy.row_after_action(game, live.state)
        run(
            "UPDATE games SET version = ?, revision = revision + 1, turn = ?, phase = ?, "
            "status = ?, ended_reason = ? WHERE id = ?",
            (entry.version, live.state.turn, live.state.phase, row.status, row.ended_reason,
             game.id),
        )  # fmt: skip
        if row.expire_queue:
            run(
                f"UPDATE requests SET status = 'expired', decided = ? WHERE game_id = ? AND {OPEN}",
                (entry.at, game.id),
            )

    def _catch_up_locked(self, run: Run, live: LiveGame, game: GameInfo) -> Update:
        """Feed ``live`` the committed actions it lacks (inside the transaction)."""
        update = live.feed(self._read_actions(run, game.id, live.version, game.version))
        if live.version != game.version:
            raise StoreError(
                f"game {game.id}: the log ends at version {live.version} "
                f"but the game row says {game.version}"
            )
        return update

    def _latest_request(self, run: Run, game_id: int, seat: str) -> Request | None:
        row = run(
            f"SELECT {REQUEST_COLUMNS} FROM requests WHERE game_id = ? AND seat = ? "
            "ORDER BY id DESC LIMIT 1",
            (game_id, seat),
        ).fetchone()
        return None if row is None else Request(*row)

    def actions(self, game_id: int, after: int = 0, limit: int | None = None) -> list[LoggedAction]:
        params = [game_id, after] + ([] if limit is None else [limit])
        rows = self._rows(actions_sql(limit=limit is not None), params)
        return [logged_action(self._sealer, game_id, *r) for r in rows]

    # --- messages --------------------------------------------------------------------------------

    def post_message(self, game_id: int, seat: str, text: str) -> Result:
        body, why = clean_message(text)
        if why:
            return Refused(Refusal.BAD_MESSAGE, why)

        def post(run: Run, game: GameInfo | None) -> Result:
            problem = policy.game_problem(game, game_id)
            if problem is not None:
                return problem
            settings = self._class_row(run, game.class_id).settings
            sent = run(SENT_SQL, (game_id, seat, game.turn)).fetchone()[0]
            problem = policy.message_problem(settings, game, seat, sent)
            if problem is not None:
                return problem
            now = self.now()
            mid = self._insert_id(
                run,
                "INSERT INTO messages (game_id, seat, turn, text, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, seat, game.turn, body, now),
            )
            self._bump(run, game_id)
            return Accepted(game.version, Message(mid, game_id, seat, game.turn, body, now))

        return self._game_write(game_id, post)

    def messages(self, game_id: int, after_id: int = 0) -> list[Message]:
        return [Message(*r) for r in self._rows(MESSAGES_SQL, (game_id, after_id))]

    def messages_sent(self, game_id: int, seat: str, turn: int) -> int:
        """How many messages ``seat`` sent in ``turn`` (for a "2 of 3 left" label)."""
        return self._row(SENT_SQL, (game_id, seat, turn))[0]

    # --- the commander's request queue (CA p.7) --------------------------------------------------

    def request_turn(self, game_id: int, seat: str, note: str = "") -> Result:
        problem = policy.note_problem(note)
        if problem is not None:
            return problem

        def ask(run: Run, game: GameInfo | None) -> Result:
            problem = policy.game_problem(game, game_id)
            if problem is not None:
                return problem
            has_open = self._open_request(run, game_id, seat) is not None
            problem = policy.request_problem(game, seat, has_open)
            if problem is not None:
                return problem
            rid = self._insert_id(
                run,
                "INSERT INTO requests (game_id, seat, note, turn, phase, status, asked) "
                "VALUES (?, ?, ?, ?, ?, 'waiting', ?)",
                (game_id, seat, note.strip(), game.turn, game.phase, self.now()),
            )
            self._bump(run, game_id)
            return Accepted(game.version, rid)

        return self._game_write(game_id, ask)

    def _open_request(self, run: Run, game_id: int, seat: str):
        return run(
            f"SELECT id, status FROM requests WHERE game_id = ? AND seat = ? AND {OPEN}",
            (game_id, seat),
        ).fetchone()

    def decide_request(self, game_id: int, seat: str, request_id: int, grant: bool) -> Result:
        def decide(run: Run, game: GameInfo | None) -> Result:
            problem = policy.game_problem(game, game_id)
            if problem is not None:
                return problem
            row = run(
                "SELECT status FROM requests WHERE id = ? AND game_id = ?", (request_id, game_id)
            ).fetchone()
            problem = policy.decide_problem(game, seat, None if row is None else row[0])
            if problem is not None:
                return problem
            run(
                "UPDATE requests SET status = ?, decided = ?, decided_by = ? WHERE id = ?",
                (policy.decided_status(grant), self.now(), seat, request_id),
            )
            self._bump(run, game_id)
            return Accepted(game.version, request_id)

        return self._game_write(game_id, decide)

    def close_request(self, game_id: int, seat: str) -> Result:
        def close(run: Run, game: GameInfo | None) -> Result:
            problem = policy.game_problem(game, game_id)
            if problem is not None:
                return problem
            row = self._open_request(run, game_id, seat)
            problem = policy.close_problem(game, seat, None if row is None else row[1])
            if problem is not None:
                return problem
            run(
                "UPDATE requests SET status = ?, decided = COALESCE(decided, ?) WHERE id = ?",
                (policy.closed_status(row[1]), self.now(), row[0]),
            )
            self._bump(run, game_id)
            return Accepted(game.version, row[0])

        return self._game_write(game_id, close)

    def requests(self, game_id: int, open_only: bool = True) -> list[Request]:
        if open_only:
            return [Request(*r) for r in self._rows(OPEN_REQUESTS_SQL, (game_id,))]
        sql = f"SELECT {REQUEST_COLUMNS} FROM requests WHERE game_id = ? ORDER BY id"
        return [Request(*r) for r in self._rows(sql, (game_id,))]

    # --- ready flags, presence and who holds a seat ----------------------------------------------

    def set_ready(self, game_id: int, seat: str, ready: bool = True) -> Result:
        def mark(run: Run, game: GameInfo | None) -> Result:
            problem = policy.ready_problem(game, seat, game_id)
            if problem is not None:
                return problem
            key = (game_id, seat, game.turn, game.phase)
            if ready:
                run(
                    "INSERT INTO ready (game_id, seat, turn, phase, at) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (game_id, turn, phase, seat) DO UPDATE SET at = excluded.at",
                    (*key, self.now()),
                )
            else:
                run(
                    "DELETE FROM ready WHERE game_id = ? AND seat = ? AND turn = ? AND phase = ?",
                    key,
                )
            self._bump(run, game_id)
            return Accepted(game.version, ready)

        return self._game_write(game_id, mark)

    def ready(self, game_id: int) -> frozenset[str]:
        return frozenset(r[0] for r in self._rows(READY_SQL, (game_id,)))

    def heartbeat(self, game_id: int, seat: str, client: str = "") -> Result:
        # No game lock and no change signal: a heartbeat changes nothing a follower redraws
        # (followers re-read presence on their own clock, as a seat leaves by not writing).
        def beat(run: Run) -> Result:
            game = self._game_row(run, game_id)
            if game is None:
                return Refused(Refusal.UNKNOWN_GAME, f"there is no game {game_id}")
            if seat != INSTRUCTOR and seat not in game.layout:
                return policy.unknown_seat(game, seat)
            run(
                "INSERT INTO presence (game_id, seat, client, last_seen) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, seat, client) DO UPDATE SET last_seen = excluded.last_seen",
                (game_id, seat, str(client), self.now()),
            )
            return Accepted(game.version)

        return self._write(beat)

    def leave(self, game_id: int, seat: str, client: str = "") -> Result:
        def gone(run: Run) -> Result:
            run(
                "DELETE FROM presence WHERE game_id = ? AND seat = ? AND client = ?",
                (game_id, seat, str(client)),
            )
            return Accepted(None)

        return self._write(gone)

    def presence(self, game_id: int) -> dict[str, float]:
        sql = "SELECT seat, MAX(last_seen) FROM presence WHERE game_id = ? GROUP BY seat"
        return dict(self._rows(sql, (game_id,)))

    def hold_seat(self, game_id: int, seat: str, client: str, take_over: bool = False) -> Result:
        client = str(client)

        def hold(run: Run, game: GameInfo | None) -> Result:
            problem = policy.game_problem(game, game_id)
            if problem is not None:
                return problem
            if seat not in game.layout:
                return policy.unknown_seat(game, seat)
            row = run(
                "SELECT h.client, (SELECT MAX(last_seen) FROM presence p WHERE "
                "p.game_id = h.game_id AND p.seat = h.seat AND p.client = h.client) "
                "FROM seat_holders h WHERE h.game_id = ? AND h.seat = ?",
                (game_id, seat),
            ).fetchone()
            holder, seen = (None, None) if row is None else row
            now = self.now()
            if not policy.holds_seat(holder, seen, client, now, take_over):
                return Accepted(game.version, False)
            if holder != client:
                run(
                    "INSERT INTO seat_holders (game_id, seat, client, since) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (game_id, seat) "
                    "DO UPDATE SET client = excluded.client, since = excluded.since",
                    (game_id, seat, client, now),
                )
                self._bump(run, game_id)
            return Accepted(game.version, True)

        return self._game_write(game_id, hold)

    def seat_holder(self, game_id: int, seat: str) -> str | None:
        sql = "SELECT client FROM seat_holders WHERE game_id = ? AND seat = ?"
        row = self._row(sql, (game_id, seat))
        return None if row is None else row[0]

    # --- the instructor ---------------------------------------------------------------------------

    def set_game_status(self, game_id: int, status: str, by: str = INSTRUCTOR) -> Result:
        problem = policy.status_problem(status)
        if problem is not None:
            return problem

        def change(run: Run, game: GameInfo | None) -> Result:
            problem = policy.status_change_problem(game, game_id, status)
            if problem is not None:
                return problem
            run(
                "UPDATE games SET status = ?, ended_reason = ?, revision = revision + 1 "
                "WHERE id = ?",
                (status, policy.ended_reason(status, by), game_id),
            )
            self._log(run, game.class_id, game_id, policy.status_verb(status), {"by": by})
            return Accepted(game.version, status)

        return self._game_write(game_id, change)

    def set_class_paused(self, class_id: int, paused: bool, by: str = INSTRUCTOR) -> Result:
        def pause(run: Run) -> Result:
            run("UPDATE classes SET paused = ? WHERE id = ?", (bool(paused), class_id))
            kind = "pause class" if paused else "resume class"
            self._log(run, class_id, None, kind, {"by": by})
            return Accepted(None, bool(paused))

        return self._class_write(class_id, pause)

    def set_settings(self, class_id: int, settings: ClassSettings, by: str = INSTRUCTOR) -> Result:
        problem = settings.problem()
        if problem:
            return Refused(Refusal.BAD_SETTING, problem)

        def rules(run: Run) -> Result:
            run(
                "UPDATE classes SET message_mode = ?, message_limit = ?, commander_mode = ? "
                "WHERE id = ?",
                (settings.message_mode, settings.message_limit, settings.commander, class_id),
            )
            data = {
                "by": by,
                "mode": settings.message_mode,
                "limit": settings.message_limit,
                "commander": settings.commander,
            }
            self._log(run, class_id, None, "message rules", data)
            return Accepted(None, settings)

        return self._class_write(class_id, rules)

    def instructor_log(self, class_id: int) -> list[InstructorEntry]:
        rows = self._rows(
            "SELECT id, class_id, game_id, kind, data, at FROM instructor_log "
            "WHERE class_id = ? ORDER BY id",
            (class_id,),
        )
        return [
            InstructorEntry(i, c, g, k, sealed.log_data_out(self._sealer, json.loads(d)), at)
            for i, c, g, k, d, at in rows
        ]

    def _log(self, run: Run, class_id, game_id, kind: str, data, at: float | None = None) -> None:
        run(
            "INSERT INTO instructor_log (class_id, game_id, kind, data, at) VALUES (?, ?, ?, ?, ?)",
            (class_id, game_id, kind, json.dumps(data), self.now() if at is None else at),
        )

    def _bump(self, run: Run, game_id: int) -> None:
        run("UPDATE games SET revision = revision + 1 WHERE id = ?", (game_id,))

    # --- the enemy-player tables, checking the log -----------------------------------------------

    def hidden(self) -> HiddenTables:
        """The enemy-player tables (orders and seat views, ``hidden.py``) in this store."""

        @contextmanager
        def tx():
            with self._tx() as run:
                yield run
            self._changed([None])

        return HiddenTables(tx, self.now, self.seat_key)

    def integrity(self) -> list[str]:
        """The log's own invariants: row version = number of actions = highest version."""
        problems = []
        for game_id, version, n, top in self._rows(
            "SELECT g.id, g.version, COUNT(a.version), COALESCE(MAX(a.version), 0) "
            "FROM games g LEFT JOIN actions a ON a.game_id = g.id GROUP BY g.id ORDER BY g.id"
        ):
            if not (n == top == version):
                problems.append(
                    f"game {game_id}: row version {version}, {n} actions, highest {top}"
                )
        return problems


__all__ = ["Dialect", "Run", "SQLStore", "class_info", "game_info", "logged_action"]
