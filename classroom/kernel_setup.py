"""What the class server gives a page's kernel, and what it reads from the store.

* :func:`kernel_env`: a kernel's environment: the store's key only for the instructor's
  page; every other kernel is keyless and, on PostgreSQL, gets the seat role's URL;
* :func:`key_files`: the files a keyless kernel's sandbox must hide (the key file,
  libpq's password files);
* :func:`prepare_store`: the store made before any kernel starts (and the seat role);
* :func:`store_stamp` and :func:`open_seats`: how the seat pool follows the class.

:mod:`hexclass.classroom.server` (the Voilà server) calls them.
"""

from __future__ import annotations

import os

from hexclass.classroom.gate import INSTRUCTOR

# libpq's password and service files: they may hold the server role's password
PG_SECRET_FILES = ("~/.pgpass", "~/.pg_service.conf")


def key_files() -> list[str]:
    """What a keyless kernel must not read: the store key's file (``--key-file``, the
    default one) and, once seat kernels have a PostgreSQL role of their own, libpq's
    password files."""
    from hexclass.classroom.sessions.sealed import KEY_FILE_ENV, key_file_for

    found = [os.environ.get(KEY_FILE_ENV, "")]
    location = os.environ.get("HEXCLASS_STORE")
    if location in _SEAT_STORE:  # seat kernels have the seat role's password in their URL
        found += [*PG_SECRET_FILES, os.environ.get("PGPASSFILE", "")]
        found.append(os.environ.get("PGSERVICEFILE", ""))
    if location:
        try:
            found.append(str(key_file_for(location)))
        except (OSError, ValueError, RuntimeError):
            pass
    return sorted({os.path.realpath(os.path.expanduser(p)) for p in found if p})


_SEAT_STORE: dict[str, str] = {}  # the server's PostgreSQL URL -> its seat role's URL


def kernel_env(env: dict | None) -> dict:
    """A kernel's environment: the store's key only for the instructor's page.

    Every other page's kernel (seats, preheated pool kernels, solitaire, lessons) gets
    neither ``$HEXCLASS_KEY`` nor ``$HEXCLASS_KEY_FILE`` and is told it has no key
    (``$HEXCLASS_KEYLESS``): it opens the store without it and follows the referee's
    public copies (classroom/sessions/relay.py). On PostgreSQL its ``$HEXCLASS_STORE`` is
    the seat role's URL (:mod:`hexclass.classroom.sessions.pg_roles`), when the server made one.
    """
    from hexclass.classroom.sessions.sealed import KEY_ENVS, KEYLESS_ENV

    env = dict(os.environ if env is None else env)
    if page_of(env) == INSTRUCTOR:
        env.pop(KEYLESS_ENV, None)
        return env
    for name in KEY_ENVS:
        env.pop(name, None)
    env[KEYLESS_ENV] = "1"
    seat_store = _SEAT_STORE.get(env.get("HEXCLASS_STORE", ""))
    if seat_store:
        env["HEXCLASS_STORE"] = seat_store
        env.pop("PGPASSWORD", None)  # the server role's, if given so
    return env


def prepare_store(log) -> None:
    """Before any kernel starts: the store exists; on PostgreSQL, the seat kernels' role.

    A sandboxed kernel cannot use a file made after it started in the key's folder
    (:mod:`hexclass.classroom.sandbox`), so a SQLite store is created here, not by the referee's
    thread while the pool's kernels start.
    """
    from hexclass.classroom.sessions.locate import is_postgres, open_location, sqlite_path

    location = os.environ.get("HEXCLASS_STORE", "")
    if not location:
        return
    if not is_postgres(location):
        if not sqlite_path(location).exists():
            try:
                open_location(location).close()
            except Exception as exc:  # noqa: BLE001 - the referee will say it again
                log.warning("hexclass: cannot create the store %s: %s", location, exc)
        return
    from urllib.parse import urlsplit

    from hexclass.classroom.sessions import pg_roles

    try:
        _SEAT_STORE[location] = pg_roles.ensure_seat_role(location)
    except Exception as exc:  # noqa: BLE001 - the class still runs; the log says what is lost
        log.warning(
            "hexclass: seat kernels connect to PostgreSQL as the server's own role, which "
            "can read the sealed columns: %s",
            exc,
        )
    else:
        role = urlsplit(_SEAT_STORE[location]).username
        log.info("hexclass: seat kernels connect to PostgreSQL as role %s", role)


def page_of(env: dict) -> str:
    """Which page a kernel serves, from the request Voilà put in its environment."""
    script = env.get("SCRIPT_NAME", "")
    if "/voila/render/" in script:
        return script.split("/voila/render/", 1)[1]
    return "the preheat pool" if env.get("VOILA_PREHEAT") == "True" else "a page"


def store_stamp(location: str):
    """A cheap mark that changes whenever an SQLite store is written (None for PostgreSQL)."""
    from hexclass.classroom.sessions.locate import is_postgres, sqlite_path

    if is_postgres(location):
        return None
    path = sqlite_path(location)
    marks = []
    for file in (path, path.with_name(path.name + "-wal")):
        try:
            st = file.stat()
        except OSError:
            marks.append(None)
        else:
            marks.append((st.st_mtime_ns, st.st_size))
    return tuple(marks)


def open_seats(location: str) -> int:
    """Seats of the store's running (or paused) games: the students who may still join."""
    from hexclass.classroom.sessions.locate import is_postgres, sqlite_path

    if is_postgres(location):
        from hexclass.classroom.sessions.locate import open_location

        store = open_location(location)
        try:
            return sum(
                len(g.layout.seats)
                for c in store.classes()
                for g in store.games(c.id)
                if g.status != "ended"
            )
        finally:
            store.close()
    path = sqlite_path(location)
    if not path.exists():
        return 0
    import sqlite3

    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=2)
    try:
        row = con.execute(
            "SELECT COUNT(*) FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE g.status != 'ended'"
        ).fetchone()
    except sqlite3.Error:
        return 0
    finally:
        con.close()
    return int(row[0]) if row else 0
