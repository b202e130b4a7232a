"""Shared pytest fixtures."""

from __future__ import annotations

import pathlib

import pytest
from hypothesis import HealthCheck, settings

ROOT = pathlib.Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"

# Property tests draw the same examples on every run (CI must not fail by luck) and are
# never timed (a busy machine once took 545 ms for an example that takes 0.1 ms);
# `pytest --hypothesis-profile=explore` searches fresh random examples instead.
SLOW_MACHINE = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("hexclass", derandomize=True, print_blob=True, **SLOW_MACHINE)
settings.register_profile("explore", max_examples=500, print_blob=True, **SLOW_MACHINE)
settings.load_profile("hexclass")


# --- a real PostgreSQL server for the store tests (Debian's `postgresql`, see scripts/test) ---

_pg_schemas = iter(range(1, 1_000_000))


@pytest.fixture(scope="session")
def pg_server():
    """One throwaway PostgreSQL cluster for the session: Unix socket only, stopped by PID."""
    from hexclass.classroom.sessions.pg_local import (
        LocalPostgres,
        PostgresUnavailable,
        find_bin_dir,
    )

    try:
        find_bin_dir()
    except PostgresUnavailable as exc:  # only a missing install skips; a failing server fails
        pytest.skip(f"PostgreSQL store tests need the server programs: {exc}")
    pg = LocalPostgres().start()
    try:
        pg.create_database("hexclass")
        yield pg
    finally:
        pg.close()


@pytest.fixture
def pg_url(pg_server):
    """A URL on an empty schema of its own (``search_path``), so every test starts clean."""
    import psycopg

    name = f"t{next(_pg_schemas)}"
    with psycopg.connect(pg_server.url("hexclass"), autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
        conn.execute(f"CREATE SCHEMA {name}")
    return pg_server.url("hexclass") + f"&options=-csearch_path%3D{name}"


def instructor_opener(base: str, key: str):
    """A urllib opener holding the instructor key's cookie, given through the server's form
    as an instructor's browser would (tests that fetch the console without a browser)."""
    import http.cookiejar
    import re
    import urllib.error
    import urllib.parse
    import urllib.request

    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):  # keep the cookie, open no page yet
            return None

    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), Stay())
    form = opener.open(base + "/hexclass/instructor-key", timeout=120).read().decode()
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', form).group(1)
    data = urllib.parse.urlencode({"_xsrf": xsrf, "key": key}).encode()
    try:
        opener.open(base + "/hexclass/instructor-key", data=data, timeout=120).read()
    except urllib.error.HTTPError as exc:  # the form answers 302 to the console
        if exc.code != 302:
            raise
    return opener
