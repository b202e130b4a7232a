"""Shared pytest fixtures."""

from __future__ import annotations

import os
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


NOT_DURABLE = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}


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
    # Throwaway data: no fsync on commit or at the shutdown checkpoint (hundreds of test
    # schemas once made stopping it take a minute on a busy disk). The tests that crash a
    # server (test_pg_reliability.py) start one of their own with the durable defaults.
    pg = LocalPostgres(settings=NOT_DURABLE).start()
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


# --- running beside each other (pytest-xdist: scripts/test passes -n auto --dist loadgroup) ---

# Tests that start servers, browsers or processes racing on a clock run one after another on
# one worker: two of them at once would starve each other on two cores. The rest (engine,
# store, widgets, lessons: CPU only, nothing waited on) is shared out among the workers.
ONE_AT_A_TIME = tuple(
    "tests/" + path
    for path in (
        "browser/",
        "test_serve.py",
        "test_wheel_install.py",
        "sessions/test_concurrency.py",
        "sessions/test_pg_reliability.py",
        "sessions/test_rebase.py",
    )
)


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist's, unknown without it
def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker per core this run may use (``taskset`` may pin it to one);
    on a single core no worker at all, so the run is the plain one."""
    cores = len(os.sched_getaffinity(0))
    return cores if cores > 1 else 0


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` with ONE_AT_A_TIME as one group, chosen by path: pytest-xdist
    3.8 reads ``xdist_group`` marks through a node attribute pytest 9 no longer has."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class OneAtATime(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            if nodeid.startswith(ONE_AT_A_TIME):
                return "one_at_a_time"
            return super()._split_scope(nodeid)

    return OneAtATime(config, log)
