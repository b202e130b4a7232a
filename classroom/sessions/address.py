"""Where a class store is, as a name: a SQLite file or a PostgreSQL database (nothing opened).

A *location* is a string (or path):

* ``postgresql://user:password@host:5432/dbname`` (or ``postgres://``, or libpq's
  ``postgresql:///dbname?host=/run/postgresql``): the shared PostgreSQL store, for
  classes served from several hosts (docs/deploy.md);
* ``sqlite:///relative/file.db`` or ``sqlite:////absolute/file.db`` (SQLAlchemy's
  spelling), or simply a path: the embedded SQLite file.

``--store`` and ``$HEXCLASS_STORE`` take either; without both it is
``~/.hexclass/class.db``. Examples: :mod:`.locate`, which offers these functions too.
"""

from __future__ import annotations

import os
import pathlib
from urllib.parse import urlsplit, urlunsplit

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
        return masked_url(str(location))
    return str(sqlite_path(location))


def for_children(location: str | os.PathLike) -> str:
    """The location to hand to other processes (kernels): URLs as they are, files absolute."""
    if is_postgres(location):
        return str(location)
    return str(sqlite_path(location).resolve())


def masked_url(url: str) -> str:
    """``url`` with any password replaced by ``***`` (for messages and links)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
