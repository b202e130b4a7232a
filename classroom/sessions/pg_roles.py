"""The PostgreSQL role seat kernels connect as: no sealed column, only the writes a seat makes.

``hexclass serve`` on a PostgreSQL store calls :func:`ensure_seat_role` once at start
(:func:`hexclass.classroom.server.prepare_seat_store`) and gives every kernel without the store's
key (:mod:`.sealed`) the URL it returns instead of its own. The role, one per database
(``hexclass_seat_<database>``):

* has **no privilege on** ``games``, ``classes`` or ``seats`` themselves (so no
  ``SELECT`` of ``games.seed``/``seed_sealed``, ``classes.instructor_sealed`` or
  ``seats.token_sealed``), nor on ``instructor_log`` (its *create* entries hold the sealed
  seeds) or ``store_key``. It reads those three tables through views of the same names in
  the schema ``hexclass_seat``, first on its ``search_path``, where every sealed column
  is NULL; the store's queries run unchanged. Through the ``games`` view it may update
  ``revision`` only (the change counter every write bumps, which ``SELECT ... FOR UPDATE``
  also needs);
* may read the plain tables a seat page shows (``actions``, ``messages``, ``presence``,
  ``ready``, ``requests``, ``seat_holders``, the referee's ``hidden_*`` tables);
* may write only what a seat writes: messages, presence, ready flags, the queue
  (``requests``), who holds a seat, and orders for the referee (``hidden_orders``,
  insert only). It cannot append to the action log, publish views, decide orders or
  change a class.

A store kept in another schema than ``public`` (the tests' ``options=-csearch_path=...``)
gets a role and a view schema of its own (``<schema>_hexclass_seat``); the seat URL
names the search path itself.

Its password is derived from the store's key (an HMAC), so every host sharing the store
(and so its key) computes the same one and one host's restart does not lock out
another's kernels. The server's own role needs ``CREATEROLE`` (or must be a superuser);
without it the server logs that seat kernels keep its own role.

PostgreSQL's documentation: "Privileges" (column privileges), "Updatable Views" (a view
over one table with plain columns is updatable in those columns), ``ALTER ROLE ... IN
DATABASE ... SET search_path``.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import pathlib
import re
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from . import sealed

VIEW_SCHEMA = "hexclass_seat"
# Columns a seat role never reads: NULL in its views (old stores kept the seed in clear).
SEALED_COLUMNS = {
    "games": ("seed", "seed_sealed"),
    "classes": ("instructor_sealed",),
    "seats": ("token_sealed",),
}
READ = ("actions", "hexclass_schema", "hidden_seats", "hidden_views")
WRITE = {  # table -> privileges besides SELECT
    "messages": "INSERT",
    "presence": "INSERT, UPDATE, DELETE",
    "ready": "INSERT, UPDATE, DELETE",
    "requests": "INSERT, UPDATE",
    "seat_holders": "INSERT, UPDATE",
    "hidden_orders": "INSERT",
}
_LOCK = 0x68657873  # advisory lock ("hexs") held while the role and its views are made


def database(url: str) -> str:
    from psycopg.conninfo import conninfo_to_dict

    return str(conninfo_to_dict(url).get("dbname") or "hexclass")


def _name(text: str) -> str:
    return re.sub(r"[^a-z0-9_]", "_", text.lower())


def seat_role(url: str, schema: str = "public") -> str:
    """``hexclass_seat_<database>`` (``_<schema>`` added for a store outside ``public``)."""
    name = _name(database(url)) + ("" if schema == "public" else "_" + _name(schema))
    return f"hexclass_seat_{name}"[:63]


def view_schema(schema: str) -> str:
    """Where the seat role's views of a store in ``schema`` live."""
    return VIEW_SCHEMA if schema == "public" else f"{schema}_{VIEW_SCHEMA}"[:63]


def store_key(url: str) -> bytes:
    """The store's key as the server finds it (``$HEXCLASS_KEY``, its file)."""
    if os.environ.get(sealed.KEY_ENV):
        return sealed.decode_key(os.environ[sealed.KEY_ENV].strip(), f"${sealed.KEY_ENV}")
    path = os.environ.get(sealed.KEY_FILE_ENV) or sealed.key_file_for(url)
    return sealed.read_key_file(pathlib.Path(path).expanduser(), create=False)


def seat_password(url: str) -> str:
    return hmac.new(store_key(url), b"hexclass seat role password", hashlib.sha256).hexdigest()


def seat_url(url: str, role: str, password: str, schema: str = "public") -> str:
    """``url`` as the seat role: its name and password, its views first on the search path."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k not in ("user", "password")]
    options = [v for k, v in query if k == "options"]
    kept = [o for o in " ".join(options).split() if not o.startswith("-csearch_path=")]
    path = f"-csearch_path={view_schema(schema)},{schema}"
    query = [(k, v) for k, v in query if k != "options"] + [("options", " ".join([*kept, path]))]
    host = parts.netloc.rsplit("@", 1)[-1]
    netloc = f"{quote(role, safe='')}:{quote(password, safe='')}@{host}"
    return urlunsplit(parts._replace(netloc=netloc, query=urlencode(query, quote_via=quote)))


def ensure_seat_role(url: str) -> str:
    """Make the seat role, its views and its grants (again: idempotent); its URL."""
    import psycopg
    from psycopg import sql

    from .pg_store import PostgresStore

    PostgresStore(url, listen=False).close()  # the tables exist (and are current)
    password = seat_password(url)
    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
        schema = conn.execute("SELECT current_schema()").fetchone()[0]
        role = seat_role(url, schema)
        ident = sql.Identifier(role)
        exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE ROLE {} LOGIN NOINHERIT").format(ident))
        conn.execute(
            sql.SQL("ALTER ROLE {} LOGIN PASSWORD {}").format(ident, sql.Literal(password))
        )
        _grant(conn, ident, schema)
    return seat_url(url, role, password, schema)


def _grant(conn, role, schema: str) -> None:
    from psycopg import sql

    store, views = sql.Identifier(schema), sql.Identifier(view_schema(schema))

    def run(text: str, *names) -> None:
        conn.execute(sql.SQL(text).format(*names))

    # CONNECT: PostgreSQL grants it to PUBLIC unless the database's owner revoked it
    run("REVOKE ALL ON ALL TABLES IN SCHEMA {} FROM {}", store, role)
    run("CREATE SCHEMA IF NOT EXISTS {}", views)
    run("REVOKE ALL ON SCHEMA {} FROM PUBLIC", views)
    run("GRANT USAGE ON SCHEMA {}, {} TO {}", views, store, role)
    for table, hidden in SEALED_COLUMNS.items():
        _view(conn, schema, table, hidden)
        run("GRANT SELECT ON {}.{} TO {}", views, sql.Identifier(table), role)
    run("GRANT UPDATE (revision) ON {}.games TO {}", views, role)
    for table in READ:
        run("GRANT SELECT ON {}.{} TO {}", store, sql.Identifier(table), role)
    for table, rights in WRITE.items():
        run("GRANT SELECT, " + rights + " ON {}.{} TO {}", store, sql.Identifier(table), role)
    run("GRANT USAGE ON ALL SEQUENCES IN SCHEMA {} TO {}", store, role)


def _view(conn, schema: str, table: str, hidden: tuple[str, ...]) -> None:
    """The seat role's view of ``<schema>.<table>``: every column, the sealed ones NULL."""
    from psycopg import sql

    columns = conn.execute(
        "SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute "
        "WHERE attrelid = format('%%I.%%I', %s::text, %s::text)::regclass "
        "AND attnum > 0 AND NOT attisdropped ORDER BY attnum",
        (schema, table),
    ).fetchall()
    select = [
        sql.SQL("NULL::{} AS {}").format(sql.SQL(kind), sql.Identifier(name))
        if name in hidden
        else sql.Identifier(name)
        for name, kind in columns
    ]
    name = sql.Identifier(view_schema(schema), table)
    conn.execute(sql.SQL("DROP VIEW IF EXISTS {}").format(name))
    conn.execute(
        sql.SQL("CREATE VIEW {} AS SELECT {} FROM {}.{}").format(
            name, sql.SQL(", ").join(select), sql.Identifier(schema), sql.Identifier(table)
        )
    )


__all__ = ["SEALED_COLUMNS", "ensure_seat_role", "seat_role", "seat_url", "view_schema"]
