"""The PostgreSQL store when things go wrong: the server killed with ``kill -9`` mid-game
and restarted, and a kernel's connections cut under its follower.

The tests that kill or stop a server share a PostgreSQL of their own (``LocalPostgres``),
each on a database of its own, so the session's server is never touched.
"""

import json
import os
import pathlib
import subprocess
import sys
import threading
import time

import psycopg
import pytest

from hexclass.classroom.combined_arms import EndPhase, action_to_json
from hexclass.classroom.sessions import GameFollower, create_class
from hexclass.classroom.sessions.pg_store import PostgresStore, StoreUnavailable
from hexclass.classroom.sessions.store import Refusal

from .helpers import first_enter, replayed

WORKER = pathlib.Path(__file__).with_name("seat_worker.py")
PACE = "0.025"  # seconds a crash worker pauses after each acknowledged action
ROOT = WORKER.parents[2]


@pytest.fixture(scope="module")
def killable_server(pg_server):  # pg_server: skip cleanly where PostgreSQL is not installed
    from hexclass.classroom.sessions.pg_local import LocalPostgres

    pg = LocalPostgres().start()
    yield pg
    pg.close()


@pytest.fixture
def own_server(killable_server):
    """The module's own server, running (each test uses a database of its own on it)."""
    if not killable_server.running:  # a test that failed while it was down
        killable_server.start()
    return killable_server


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


class _Acks:
    """Reads a crash worker's acknowledgements (one JSON line each) as they come."""

    def __init__(self, proc):
        self.proc = proc
        self.lines: list[list] = []
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.append(json.loads(line))

    def wait_for(self, n: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while len(self.lines) < n and time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        return len(self.lines) >= n

    def finish(self):
        self.proc.kill()
        self.proc.wait(timeout=30)
        self._thread.join(timeout=30)
        return self.lines


@pytest.mark.slow
def test_kill_9_of_the_server_mid_game_then_every_game_resumes_identically(own_server):
    url = own_server.create_database("school")
    with PostgresStore(url) as s:
        made = create_class(s, teams=6, different_seeds=True)
    games = [t.game_id for t in made.teams]
    # two "kernels" keep playing every seat of every game, printing each acknowledged action;
    # paced (25 ms an action), since unpaced they play all six games to turn 20 (about 780
    # actions) in some 2 s and could finish them before the second restart
    workers = [
        _Acks(
            subprocess.Popen(
                [
                    sys.executable,
                    str(WORKER),
                    "crash",
                    url,
                    ",".join(map(str, games)),
                    str(i),
                    PACE,
                ],
                stdout=subprocess.PIPE,
                text=True,
                env=_env(),
            )
        )
        for i in range(2)
    ]
    try:
        for w in workers:
            assert w.wait_for(20, 240), "the workers acknowledged nothing before the crash"
        for crash in range(2):  # crash, restart, and again
            own_server.kill()  # kill -9 of the postmaster and every backend, mid-stream
            # kill() returns once every server process is gone; the outage then lasts a
            # second on purpose (the workers' submits fail meanwhile): a duration, not a wait
            time.sleep(1.0)
            own_server.start()  # crash recovery from the WAL; returns once it accepts
            before = [len(w.lines) for w in workers]
            for w, n in zip(workers, before):
                # the same processes carry on: their pools and listeners reconnected
                assert w.wait_for(n + 15, 240), (
                    f"a worker never resumed after crash {crash + 1} "
                    f"(exit code {w.proc.poll()}, {len(w.lines)} acks)"
                )
    finally:
        acks = [line for w in workers for line in w.finish()]
    claimed = {}
    for g, version, seat, action in acks:
        assert (g, version) not in claimed, "two submits were told they got the same version"
        claimed[(g, version)] = (seat, action)
    with PostgresStore(url) as s:
        assert s.integrity() == []
        unacked = 0
        for g in games:
            steps = s.actions(g)
            assert [x.version for x in steps] == list(range(1, len(steps) + 1))
            for x in steps:
                key = (g, x.version)
                if key in claimed:  # every acknowledged action is there, where it was acknowledged
                    assert claimed.pop(key) == (x.seat, action_to_json(x.action))
                else:
                    unacked += 1
            # a fresh process's replay is the live game
            assert s.state(g).snapshot() == replayed(s, g).snapshot()
        assert claimed == {}, f"acknowledged but lost: {sorted(claimed)[:5]}"
        # only the submits in flight when the workers were finally killed may lack an ack
        assert unacked <= len(workers)
        # and the games go on
        g = next(g for g in games if not s.state(g).over)
        f = GameFollower(s, g)
        seat = next(x for x in ("D", "E", "F", "armour", "support") if first_enter_or_end(f, x))
        before = f.version
        r = s.submit(g, before, seat, first_enter_or_end(f, seat))
        assert r.ok and r.version == before + 1
        f.close()


def first_enter_or_end(follower, seat):
    from hexclass.classroom.combined_arms import legal_actions

    acts = legal_actions(follower.state, seat)
    return acts[0] if acts else None


def _cut(url: str, app: str) -> int:
    """Terminate every connection of ``app`` (as a network cut or a server-side kill would)."""
    with psycopg.connect(url, autocommit=True) as su:
        return len(
            su.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = %s",
                (app,),
            ).fetchall()
        )


def test_connections_cut_under_a_follower_it_says_reconnecting_and_loses_nothing(pg_url):
    kernel_url = pg_url + "&application_name=kernel-a"  # "host A"'s kernel
    other_url = pg_url + "&application_name=kernel-b"  # a teammate on host B
    with PostgresStore(other_url) as b, PostgresStore(kernel_url) as a:
        made = create_class(b, teams=1)
        g = made.teams[0].game_id
        f = GameFollower(a, g, presence_every=3600)
        assert a.connection_state() == "connected"
        first = first_enter(f.state, "D")
        assert _cut(pg_url, "kernel-a") >= 2  # the listener and the pooled connection(s)
        # B plays while A's listener is away: the NOTIFY goes nowhere on A
        assert b.submit(g, 0, "D", first).ok
        assert b.post_message(g, "E", "moving up").ok
        deadline = time.monotonic() + 120  # a poll: generous
        while a.connection_state() != "connected" or f.version < 1:
            assert time.monotonic() < deadline, "the follower never caught up"
            try:
                f.poll()
            except StoreUnavailable:
                pass
            time.sleep(0.02)
        states = [state for _, state in a._backend.history]
        assert "reconnecting" in states and states[-1] == "connected"
        # nothing lost: the action and the message sent during the cut are there
        assert f.state.snapshot() == b.state(g).snapshot()
        assert [m.text for m in f.messages] == ["moving up"]
        # A's own order right after another cut goes through on a fresh connection
        _cut(pg_url, "kernel-a")
        r = a.submit(g, f.version, "E", first_enter(f.state, "E"))
        assert r.ok and r.version == 2
        assert [x.version for x in b.actions(g)] == [1, 2]
        f.close()


def test_a_stopped_server_gives_typed_refusals_then_everything_resumes(own_server, monkeypatch):
    from hexclass.classroom.sessions import pg_store

    # each refusal while the server is down waits POOL_TIMEOUT for a connection first (10 s,
    # for a real restart); 1 s gives the same typed refusals without waiting that out
    monkeypatch.setattr(pg_store, "POOL_TIMEOUT", 1.0)
    url = own_server.create_database("stopping")
    with PostgresStore(url) as s:
        made = create_class(s, teams=1)
        g = made.teams[0].game_id
        f = GameFollower(s, g, presence_every=3600)
        own_server.stop()
        r = s.submit(g, 0, "support", EndPhase("support"))
        assert r.kind is Refusal.BUSY and "reconnecting" in r.message
        assert s.post_message(g, "D", "anyone?").kind is Refusal.BUSY
        with pytest.raises(ConnectionError):
            f.poll(force=True)
        assert s.connection_state() == "reconnecting"
        own_server.start()
        deadline = time.monotonic() + 120  # a poll: generous
        while s.connection_state() != "connected":
            assert time.monotonic() < deadline, "never reconnected"
            time.sleep(0.05)
        # The listener is back; the pool may still be waiting out its reconnect backoff,
        # during which a submit is refused BUSY (as a page shows it): retry, as pages do.
        r = s.submit(g, 0, "support", EndPhase("support"))
        while not r.ok and r.kind is Refusal.BUSY:
            assert time.monotonic() < deadline + 60, f"orders still refused: {r.message}"
            time.sleep(0.2)
            r = s.submit(g, 0, "support", EndPhase("support"))
        assert r.ok, r  # version 0 still current: nothing was half-done while it was down
        f.poll()
        assert f.version == 1 and s.actions(g)[0].seat == "support"
        f.close()
