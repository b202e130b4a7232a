"""Where a class store is, and opening it: a SQLite file or a PostgreSQL database.

A *location* is a string (or path):

* ``postgresql://user:password@host:5432/dbname`` (or ``postgres://``, or libpq's
  ``postgresql:///dbname?host=/run/postgresql``): the shared PostgreSQL store, for
  classes served from several hosts (docs/deploy.md);
* ``sqlite:///relative/file.db`` or ``sqlite:////absolute/file.db`` (SQLAlchemy's
  spelling), or simply a path: the embedded SQLite file.

``--store`` and ``$HEXCLASS_STORE`` take either; without both it is
``~/.hexclass/class.db``.

>>> is_postgres("postgresql://db.school/hexclass"), is_postgres("/srv/class.db")
(True, False)
>>> str(sqlite_path("sqlite:////srv/hexclass/class.db"))
'/srv/hexclass/class.db'
>>> describe("postgresql://teacher:s3cret@db.school/hexclass")
'postgresql://teacher:***@db.school/hexclass'
"""

from __future__ import annotations

import os
import pathlib

from .store import ClassStore

STORE_ENV = "HEXCLASS_STORE"
PG_PREFIXES = ("postgresql://", "postgres://")
SQLITE_PREFIX = "sqlite:///"


def is_postgres(location: str | os.PathLike) -> bool:
    return isinstance(location, str) and location.startswith(PG_PREFIXES)


def sqlite_path(location: str | os.PathLike) -> pathlib.Path:
    """The file of a SQLite location (``sqlite:///`` stripped, ``~`` expanded)."""
    text = os.fspath(location)
    if text.startswith(SQLITE_PREFIX):
        text = text[len(SQLITE_PREFIX) :]
    elif text.startswith("sqlite:"):
        raise ValueError(f"expected sqlite:///path/to/file.db, got {text!r}")
    return pathlib.Path(text).expanduser()


def default_location() -> str:
    """``$HEXCLASS_STORE`` if set, else ``~/.hexclass/class.db``."""
    env = os.environ.get(STORE_ENV)
    if env:
        return env
    return str(pathlib.Path.home() / ".hexclass" / "class.db")


def describe(location: str | os.PathLike) -> str:
    """The location for messages and handouts (a PostgreSQL password shown as ``***``)."""
    if is_postgres(location):
        from .pg_store import masked_url

        return masked_url(str(location))
    return str(sqlite_path(location))


def for_children(location: str | os.PathLike) -> str:
    """The location to hand to other processes (kernels): URLs as they are, files absolute."""
    if is_postgres(location):
        return str(location)
    return str(sqlite_path(location).resolve())


def open_location(location: str | os.PathLike | None = None) -> ClassStore:
    """Open (and create) the store at ``location`` (default :func:`default_location`)."""
    location = default_location() if location is None else location
    if is_postgres(location):
        from .pg_store import PostgresStore  # psycopg is imported only by those who use it

        return PostgresStore(str(location))
    from .sqlite_store import SQLiteStore

    return SQLiteStore(sqlite_path(location))


__all__ = [
    "STORE_ENV",
    "default_location",
    "describe",
    "for_children",
    "is_postgres",
    "open_location",
    "sqlite_path",
]
