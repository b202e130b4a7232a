"""Five seat processes against one SQLite file; then kill -9 mid-stream and reopen.

The processes run ``seat_worker.py`` (a script, so each is a real separate interpreter
with its own connection and cache, as five Voilà kernels would be).
"""

import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

from hexclass.classroom.combined_arms import action_to_json
from hexclass.classroom.sessions import SQLiteStore, create_class
from hexclass.classroom.sessions.store import Refusal

from .helpers import replayed

WORKER = pathlib.Path(__file__).with_name("seat_worker.py")
ROOT = WORKER.parents[2]
SEATS = ("armour", "D", "E", "F", "support")


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _run_seat_processes(location, out_dir, plan, target, timeout=240):
    """Start one ``seat_worker.py seat`` process per (seat, games) in ``plan`` at once;
    returns their reports."""
    procs = []
    for i, (seat, games) in enumerate(plan):
        out = out_dir / f"worker{i}.json"
        cmd = [sys.executable, str(WORKER), "seat", str(location), seat,
               ",".join(map(str, games)), str(target), str(i), str(out)]  # fmt: skip
        procs.append((subprocess.Popen(cmd, env=_env()), out))
    for p, _ in procs:
        assert p.wait(timeout=timeout) == 0
    return [json.loads(out.read_text()) for _, out in procs]


def _check_nothing_lost_nothing_twice(store, games, reports) -> int:
    claimed = {}
    for rep in reports:
        # an action the seat's own up-to-date copy found legal is never refused as illegal
        assert rep["illegal"] == [] and rep["other"] == []
        for g, version, seat, action in rep["accepted"]:
            assert (g, version) not in claimed, "two seats were told they got the same version"
            claimed[(g, version)] = (seat, action)
    assert sum(rep["stale"] for rep in reports) > 0  # the seats really did collide
    assert store.integrity() == []
    logged = {}
    for g in games:
        steps = store.actions(g)
        assert [x.version for x in steps] == list(range(1, len(steps) + 1))
        assert store.version(g) == len(steps)
        for x in steps:
            logged[(g, x.version)] = (x.seat, action_to_json(x.action))
        assert store.state(g).snapshot() == replayed(store, g).snapshot()
    # none lost (every acknowledged action is in the log, where it was acknowledged)
    # and none applied twice (the log holds nothing that was not acknowledged once)
    assert logged == claimed
    return len(logged)


@pytest.mark.slow
def test_five_seat_processes_lose_nothing_and_apply_nothing_twice(
    tmp_path, new_store, store_location
):
    s = new_store()
    # 16 games on seeds 100-115, as two classes of 8 (a class has at most 12 teams)
    classes = [create_class(s, teams=8, seed=100 + 8 * k, different_seeds=True) for k in (0, 1)]
    games = [t.game_id for made in classes for t in made.teams]
    reports = _run_seat_processes(store_location, tmp_path,
                                  [(seat, games) for seat in SEATS], target=400)  # fmt: skip
    assert _check_nothing_lost_nothing_twice(s, games, reports) >= 400


@pytest.mark.slow
def test_thirty_seat_processes_six_teams_lose_nothing_and_apply_nothing_twice(
    tmp_path, new_store, store_location
):
    """A class of 30: six teams of five, every student's kernel a process of its own."""
    s = new_store()
    made = create_class(s, teams=6, seed=300, different_seeds=True)
    games = [t.game_id for t in made.teams]
    plan = [(seat, [g]) for g in games for seat in SEATS]
    reports = _run_seat_processes(store_location, tmp_path, plan,
                                  target=40, timeout=400)  # fmt: skip
    assert _check_nothing_lost_nothing_twice(s, games, reports) >= 200


def _start_crasher(db, games, seed):
    return subprocess.Popen(
        [sys.executable, str(WORKER), "crash", str(db), ",".join(map(str, games)), str(seed)],
        stdout=subprocess.PIPE,
        text=True,
        env=_env(),
    )


def _read_acks(proc, wanted: int, deadline: float) -> dict[int, int]:
    acked: dict[int, int] = {}
    n = 0
    while n < wanted and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        g, v = json.loads(line)[:2]
        acked[g] = max(acked.get(g, 0), v)
        n += 1
    return acked


SNAPSHOT_SCRIPT = """
import json, sys
from hexclass.classroom.sessions import SQLiteStore
s = SQLiteStore(sys.argv[1])
print(json.dumps({g: [s.version(int(g)), repr(s.state(int(g)).snapshot())]
                  for g in sys.argv[2].split(",")}))
"""


@pytest.mark.slow
def test_kill_9_mid_stream_then_every_game_resumes_identically(tmp_path):
    db = tmp_path / "class.db"
    with SQLiteStore(db) as s:
        made = create_class(s, teams=6, seed=40, different_seeds=True)
    games = [t.game_id for t in made.teams]
    acked: dict[int, int] = {}
    for round_, wanted in enumerate((120, 75, 40, 90)):  # crash again and again
        proc = _start_crasher(db, games, seed=round_)
        got = _read_acks(proc, wanted, time.monotonic() + 180)
        os.kill(proc.pid, signal.SIGKILL)  # mid-stream: it is already submitting the next one
        proc.wait(timeout=60)  # a killed process is reaped at once; a busy machine is slow
        assert got, "the child acknowledged nothing before the kill"
        for line in proc.stdout.read().splitlines():  # acks still in the pipe count too
            g, v = json.loads(line)[:2]
            got[g] = max(got.get(g, 0), v)
        proc.stdout.close()
        for g, v in got.items():
            acked[g] = max(acked.get(g, 0), v)
        # a fresh process opens the file and reports every game's state
        out = subprocess.run(
            [sys.executable, "-c", SNAPSHOT_SCRIPT, str(db), ",".join(map(str, games))],
            capture_output=True,
            text=True,
            env=_env(),
            timeout=180,
        )
        assert out.returncode == 0, out.stderr
        fresh = json.loads(out.stdout)
        with SQLiteStore(db) as s:
            assert s.integrity() == []  # no partial rows: row versions match the logs
            for g in games:
                version = s.version(g)
                # every acknowledged commit survived; at most the one in flight was added
                assert acked.get(g, 0) <= version <= acked.get(g, 0) + 1
                acked[g] = version
                steps = s.actions(g)
                assert [x.version for x in steps] == list(range(1, version + 1))
                assert fresh[str(g)] == [version, repr(replayed(s, g).snapshot())]
    # and the games go on from there
    with SQLiteStore(db) as s:
        g = next(g for g in games if not s.state(g).over)
        from hexclass.classroom.combined_arms import legal_actions

        state = s.state(g)
        seat = next(x for x in SEATS if legal_actions(state, x))
        r = s.submit(g, s.version(g), seat, legal_actions(state, seat)[0])
        assert r.ok and r.version == acked[g] + 1
        assert s.submit(g, acked[g], seat, legal_actions(state, seat)[0]).kind is Refusal.STALE
