"""Opening a class store from its location: a SQLite file or a PostgreSQL database.

What a location may be, and the functions that read one (:func:`is_postgres`,
:func:`sqlite_path`, :func:`describe`, ...), are :mod:`.address`; they are offered here
too. :func:`open_location` opens the store a location names.

>>> is_postgres("postgresql://db.school/hexclass"), is_postgres("/srv/class.db")
(True, False)
>>> str(sqlite_path("sqlite:////srv/hexclass/class.db"))
'/srv/hexclass/class.db'
>>> describe("postgresql://teacher:s3cret@db.school/hexclass")
'postgresql://teacher:***@db.school/hexclass'
"""

from __future__ import annotations

import os

from .address import (
    STORE_ENV,
    default_location,
    describe,
    for_children,
    is_postgres,
    sqlite_path,
)
from .store import ClassStore


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
