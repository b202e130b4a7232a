"""Moving a school's SQLite class file into the shared PostgreSQL store.

    hexclass class migrate --from ~/.hexclass/class.db --to postgresql://db-host/hexclass

Every row is copied as it is, ids included (class ids, game ids, message and request
ids; the seat links' tokens are unchanged, so handed-out links keep working once the
hosts point at the new store), in **one** PostgreSQL transaction: a failure leaves the
target as it was. The copy is refused if the target already holds a class or game with
one of the same ids (or a token in use). Afterwards both stores are opened afresh and
compared: every game's rows, log, messages, queue and instructor log, and every game
replayed from its log on each side (``snapshot()`` equal). Anything that differs is an
error, not a warning.

The SQLite file is only read, except that a file from an older hexclass is first brought
up to date (its tokens hashed, its seeds sealed: sealed.py). Stop the class's server
first: a seat still writing to the file after the copy would be lost to the new store.
Sealed values are opened with the file's key and sealed again with the PostgreSQL
store's key (``$HEXCLASS_KEY``, ``$HEXCLASS_KEY_FILE`` or the key file for that URL).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from dataclasses import dataclass, field

from .locate import describe, is_postgres, sqlite_path

# Tables in dependency order, with the columns copied (SQLite and PostgreSQL share them).
TABLES: dict[str, tuple[str, ...]] = {
    "classes": ("id", "name", "instructor_token", "message_mode", "message_limit", "paused",
                "created", "commander_mode", "instructor_sealed"),
    "games": ("id", "class_id", "team", "seed", "options", "layout", "start", "status",
              "ended_reason", "version", "revision", "turn", "phase", "created", "seed_sealed"),
    "seats": ("game_id", "seat", "token", "token_sealed"),
    "actions": ("game_id", "version", "seat", "action", "turn", "phase", "at"),
    "messages": ("id", "game_id", "seat", "turn", "text", "at"),
    "presence": ("game_id", "seat", "client", "last_seen"),
    "ready": ("game_id", "seat", "turn", "phase", "at"),
    "requests": ("id", "game_id", "seat", "note", "turn", "phase", "status", "asked", "decided",
                 "decided_by"),
    "instructor_log": ("id", "class_id", "game_id", "kind", "data", "at"),
}  # fmt: skip
IDENTITY_TABLES = ("classes", "games", "messages", "requests", "instructor_log")
# Sealed columns (sealed.py): opened with the file's key, sealed again with the target's.
SEALED = {("classes", "instructor_sealed"): "token", ("games", "seed_sealed"): "seed",
          ("seats", "token_sealed"): "token"}  # fmt: skip


class MigrationError(RuntimeError):
    """The copy was refused or did not come out identical (the target is unchanged)."""


@dataclass
class MigrationReport:
    source: str
    target: str
    rows: dict[str, int] = field(default_factory=dict)
    classes: list[int] = field(default_factory=list)
    games: int = 0
    actions: int = 0
    copy_seconds: float = 0.0
    verify_seconds: float = 0.0

    def as_text(self) -> str:
        counts = ", ".join(f"{n} {t}" for t, n in self.rows.items() if n)
        return (
            f"Copied {describe(self.source)} into {self.target}: {counts}.\n"
            f"Classes {', '.join(map(str, self.classes)) or '(none)'}; "
            f"{self.games} games replayed identically ({self.actions} actions) "
            f"in {self.verify_seconds:.2f} s (copy {self.copy_seconds:.2f} s).\n"
            "Point every host's --store / $HEXCLASS_STORE at the new URL; links are unchanged."
        )


def _read_source(path) -> dict[str, list[tuple]]:
    """Every row of the SQLite file, read in one snapshot (read-only)."""
    if not path.is_file():
        raise MigrationError(f"--from: there is no file {path}")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise MigrationError(f"--from: cannot open {path}: {exc}") from None
    try:
        conn.execute("BEGIN")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        from .sqlite_store import SCHEMA_VERSION

        if version != SCHEMA_VERSION:
            raise MigrationError(
                f"--from: {path} has store schema {version}, this hexclass reads {SCHEMA_VERSION}"
            )
        out = {}
        for table, cols in TABLES.items():
            order = "ORDER BY game_id, rowid" if table == "seats" else "ORDER BY 1, 2"
            out[table] = conn.execute(f"SELECT {', '.join(cols)} FROM {table} {order}").fetchall()
        conn.execute("COMMIT")
        return out
    except sqlite3.DatabaseError as exc:
        raise MigrationError(f"--from: {path} is not a hexclass class file: {exc}") from None
    finally:
        conn.close()


def migrate(source, target_url: str) -> MigrationReport:
    """Copy the SQLite file ``source`` into the PostgreSQL store at ``target_url`` and verify."""
    from .pg_store import PostgresStore

    path = sqlite_path(source)
    if not is_postgres(target_url):
        raise MigrationError(f"--to: expected a postgresql:// URL, got {target_url!r}")
    from .sealed import sealer_for
    from .sqlite_store import SCHEMA_VERSION, SQLiteStore

    if 1 <= _schema_of(path) < SCHEMA_VERSION:  # an older file is brought up to date first
        try:
            SQLiteStore(path).close()
        except RuntimeError as exc:
            raise MigrationError(f"--from: {exc}") from None
    rows = _read_source(path)
    source_key = sealer_for(path)
    report = MigrationReport(str(path), describe(target_url))
    report.rows = {t: len(r) for t, r in rows.items()}
    report.classes = [r[0] for r in rows["classes"]]
    t0 = time.perf_counter()
    with PostgresStore(target_url) as target:
        _copy(target, _resealed(rows, source_key, target._sealer))
    report.copy_seconds = time.perf_counter() - t0
    t0 = time.perf_counter()
    report.games, report.actions = verify(path, target_url, report.classes)
    report.verify_seconds = time.perf_counter() - t0
    return report


def _schema_of(path) -> int:
    """The file's store schema version (0 if it is missing or not a database)."""
    if not path.is_file():
        return 0
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return conn.execute("PRAGMA user_version").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def _resealed(rows: dict[str, list[tuple]], source, target) -> dict[str, list[tuple]]:
    """The rows with every sealed value opened with ``source`` and sealed with ``target``."""
    from . import sealed

    out = dict(rows)
    for (table, col), purpose in SEALED.items():
        i = TABLES[table].index(col)
        out[table] = [
            (*r[:i], sealed.reseal(r[i], purpose, source, target), *r[i + 1 :]) for r in out[table]
        ]
    i = TABLES["instructor_log"].index("data")
    out["instructor_log"] = [
        (*r[:i], sealed.reseal_log_data(r[i], source, target), *r[i + 1 :])
        for r in out["instructor_log"]
    ]
    return out


def _copy(target, rows: dict[str, list[tuple]]) -> None:
    with target._conn() as conn:
        conn.execute("LOCK TABLE classes, games, seats IN SHARE ROW EXCLUSIVE MODE")
        _refuse_clashes(conn, rows)
        for table, cols in TABLES.items():
            data = rows[table]
            if table == "classes":
                data = [(*r[:5], bool(r[5]), *r[6:]) for r in data]
            if table == "seats":
                data, cols = _with_seat_order(data), (*cols, "ord")
            if not data:
                continue
            with conn.cursor() as cur:
                cur.executemany(
                    f"INSERT INTO {table} ({', '.join(cols)}) "
                    f"VALUES ({', '.join(['%s'] * len(cols))})",
                    data,
                )
        for table in IDENTITY_TABLES:  # new rows continue after the copied ids
            conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"GREATEST((SELECT max(id) FROM {table}), 1))"
            )
    target._backend.bump([None])


def _with_seat_order(seats: list[tuple]) -> list[tuple]:
    """Each seat row with its place in its game (0, 1, 2... in the file's own order)."""
    seen: dict[int, int] = {}
    out = []
    for row in seats:
        i = seen.get(row[0], 0)
        seen[row[0]] = i + 1
        out.append((*row, i))
    return out


def _refuse_clashes(conn, rows) -> None:
    checks = [
        ("classes", "id", [r[0] for r in rows["classes"]], "class"),
        ("games", "id", [r[0] for r in rows["games"]], "game"),
        ("classes", "instructor_token", [r[2] for r in rows["classes"]], "instructor token"),
        ("seats", "token", [r[2] for r in rows["seats"]], "seat token"),
    ]
    for table, col, values, what in checks:
        if not values:
            continue
        clash = conn.execute(
            f"SELECT {col} FROM {table} WHERE {col} = ANY(%s) ORDER BY 1 LIMIT 5", (values,)
        ).fetchall()
        if clash:
            shown = ", ".join(str(c[0])[:12] for c in clash)
            raise MigrationError(
                f"--to: the target already has {what} {shown}; migrate into an empty "
                "database (or one holding other classes with other ids)"
            )


def verify(source_path, target_url: str, class_ids: list[int]) -> tuple[int, int]:
    """Both stores opened afresh agree on everything; returns (games, actions) compared."""
    from .pg_store import PostgresStore
    from .sqlite_store import SQLiteStore

    games = actions = 0
    with SQLiteStore(source_path) as a, PostgresStore(target_url) as b:
        for cid in class_ids:
            _same(f"class {cid}", a.class_info(cid), b.class_info(cid))
            _same(f"class {cid} tokens", a.tokens(cid), b.tokens(cid))
            _same(f"class {cid} instructor log", a.instructor_log(cid), b.instructor_log(cid))
            for info in a.games(cid):
                g = info.id
                games += 1
                _same(f"game {g}", info, b.game(g))
                log_a, log_b = a.actions(g), b.actions(g)
                _same(f"game {g} log", log_a, log_b)
                actions += len(log_a)
                _same(f"game {g} messages", a.messages(g), b.messages(g))
                _same(f"game {g} requests", a.requests(g, False), b.requests(g, False))
                _same(f"game {g} ready", a.ready(g), b.ready(g))
                _same(f"game {g} presence", a.presence(g), b.presence(g))
                _same(f"game {g} replay", a.state(g).snapshot(), b.state(g).snapshot())
    return games, actions


def _same(what: str, a, b) -> None:
    if a != b:
        raise MigrationError(f"after the copy, {what} differs between the two stores")


# --- the command ---------------------------------------------------------------------------------


def add_migrate_command(sub) -> None:
    p = sub.add_parser(
        "migrate",
        help="copy a SQLite class file into a PostgreSQL store and check the replay",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--from", dest="source", required=True, help="the SQLite class file")
    p.add_argument("--to", dest="target", required=True, help="postgresql://... URL")
    p.set_defaults(run=_run, parser=p)


def _run(args) -> int:
    try:
        report = migrate(args.source, args.target)
    except (MigrationError, ValueError) as exc:
        args.parser.error(str(exc))
    except (OSError, RuntimeError) as exc:  # e.g. the server cannot be reached
        args.parser.error(f"--to: {describe(args.target)}: {exc}")
    sys.stdout.write(report.as_text() + "\n")
    return 0


__all__ = ["MigrationError", "MigrationReport", "migrate", "verify"]
