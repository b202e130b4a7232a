"""The PostgreSQL store against the SQLite store, side by side in one run.

    .venv/bin/python benchmarks/pg_store.py                 # everything (~3-5 min)
    .venv/bin/python benchmarks/pg_store.py --only propagation --moves 300
    .venv/bin/python benchmarks/pg_store.py --json out.json

A throwaway PostgreSQL server (Debian's ``postgresql``, Unix socket, fsync on) is
started in a temporary directory and stopped at the end. Three measurements:

* **Cross-host propagation**: a writer process submits a move; a second process (another
  "host": its own pool and listener) follows the game as a seat page does. Reported from
  the writer's acknowledgement to the follower holding the new state, p50/p95, for
  PostgreSQL pushed (LISTEN/NOTIFY, the follower woken by ``wait_for_change``),
  PostgreSQL with the page's 50 ms poll loop, and SQLite with the same loop. Target:
  p95 <= 100 ms.
* **Submit latency under contention**: 5 writers (one team) and 30 writers (six teams of
  five), each a process submitting its own seat's legal moves as fast as it can for a
  fixed time; p50/p95 of ``submit`` (accepted or refused), accepted moves per second and
  the share refused as stale; PostgreSQL and SQLite one after the other in the same run.
* **Migration**: a SQLite class file of N teams played to ~M actions each, copied into
  PostgreSQL with ``hexclass class migrate``'s code, verified (identical replay); rows,
  copy and verify seconds.

The machine is shared and noisy: compare the stores within one run, not across runs.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SEATS = ("armour", "D", "E", "F", "support")


def pct(xs, q):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def pick(state, seat, rng, end_chance=0.1):
    from hexclass.classroom.combined_arms import legal_actions

    acts = legal_actions(state, seat)
    if not acts:
        return None
    busy = [a for a in acts if type(a).__name__ not in ("EndPhase", "EndGame")]
    ends = [a for a in acts if type(a).__name__ == "EndPhase"]
    if busy and (not ends or rng.random() > end_chance):
        return rng.choice(busy)
    return rng.choice(ends or acts)


# --- child processes ------------------------------------------------------------------------


def child_follow(location: str, game: int, mode: str, seconds: float) -> None:
    """Follow ``game``; print ``version wall-time`` the moment each new version is held."""
    from hexclass.classroom.sessions import GameFollower
    from hexclass.classroom.sessions.locate import open_location

    store = open_location(location)
    f = GameFollower(store, game, presence_every=3600)
    reader = f._reader
    print("ready", flush=True)
    end = time.monotonic() + seconds
    seen = f.version
    while time.monotonic() < end:
        if mode == "push":
            reader.wait_for_change(f._token, 0.05)
        else:
            time.sleep(0.05)  # a seat page's poll loop (widgets/coop_seat.py POLL_SECONDS)
        f.poll()
        if f.version != seen:
            now = time.time()
            for v in range(seen + 1, f.version + 1):
                print(f"{v} {now}", flush=True)
            seen = f.version
    f.close()
    store.close()


def child_write(location: str, game: int, seat: str, seconds: float, seed: int, out: str) -> None:
    """Submit this seat's legal moves as fast as possible; write latencies to ``out``."""
    from hexclass.classroom.sessions import GameFollower
    from hexclass.classroom.sessions.locate import open_location
    from hexclass.classroom.sessions.store import Refusal

    rng = random.Random(seed)
    store = open_location(location)
    f = GameFollower(store, game, presence_every=3600)
    lat, ok, stale, other = [], 0, 0, 0
    start = time.monotonic()
    while time.monotonic() - start < seconds and not f.state.over:
        f.poll()
        a = pick(f.state, seat, rng)
        if a is None:
            time.sleep(0.005)
            continue
        t0 = time.perf_counter()
        r = store.submit(game, f.version, seat, a)
        lat.append(time.perf_counter() - t0)
        if r.ok:
            ok += 1
        elif r.kind is Refusal.STALE:
            stale += 1
        else:
            other += 1
    Path(out).write_text(json.dumps({"lat": lat, "ok": ok, "stale": stale, "other": other,
                                     "seconds": time.monotonic() - start}))  # fmt: skip
    f.close()
    store.close()


def _py(*args):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, __file__, *args], stdout=subprocess.PIPE, text=True, env=env
    )


# --- measurements ---------------------------------------------------------------------------


def propagation(location: str, mode: str, moves: int) -> dict:
    from hexclass.classroom.sessions import GameFollower, create_class
    from hexclass.classroom.sessions.locate import open_location

    store = open_location(location)
    g = create_class(store, teams=1, seed=11).teams[0].game_id
    follower = _py("child-follow", location, str(g), mode, str(moves * 0.12 + 60))
    assert follower.stdout.readline().strip() == "ready"
    f = GameFollower(store, g, presence_every=3600)
    rng = random.Random(5)
    acked: dict[int, float] = {}
    while len(acked) < moves and not f.state.over:
        seat = rng.choice(SEATS)
        a = pick(f.state, seat, rng, end_chance=0.05)
        if a is None:
            continue
        r = store.submit(g, f.version, seat, a)
        if r.ok:
            acked[r.version] = time.time()
            time.sleep(rng.uniform(0.02, 0.08))  # moves a few tens of ms apart
    time.sleep(1.0)
    follower.kill()
    seen = {}
    for line in follower.stdout.read().splitlines():
        v, t = line.split()
        seen[int(v)] = float(t)
    lat = [(seen[v] - acked[v]) * 1000 for v in acked if v in seen]
    f.close()
    store.close()
    return {"moves": len(acked), "seen": len(lat), "p50_ms": pct(lat, 0.5),
            "p95_ms": pct(lat, 0.95), "max_ms": max(lat) if lat else None}  # fmt: skip


def contention(location: str, writers: int, seconds: float) -> dict:
    from hexclass.classroom.sessions import create_class
    from hexclass.classroom.sessions.locate import open_location

    store = open_location(location)
    teams = max(1, writers // 5)
    games = [
        t.game_id for t in create_class(store, teams=teams, seed=21, different_seeds=True).teams
    ]
    store.close()
    tmp = Path(tempfile.mkdtemp())
    procs = []
    for i in range(writers):
        g, seat = games[i // 5 % len(games)], SEATS[i % 5]
        out = tmp / f"w{i}.json"
        procs.append(
            (_py("child-write", location, str(g), seat, str(seconds), str(i), str(out)), out)
        )
    for p, _ in procs:
        p.wait(timeout=seconds + 300)
    reps = [json.loads(out.read_text()) for _, out in procs]
    lat = [x * 1000 for r in reps for x in r["lat"]]
    ok = sum(r["ok"] for r in reps)
    stale = sum(r["stale"] for r in reps)
    tries = ok + stale + sum(r["other"] for r in reps)
    return {"writers": writers, "submits": tries, "p50_ms": pct(lat, 0.5), "p95_ms": pct(lat, 0.95),
            "accepted_per_s": ok / seconds, "stale_share": stale / tries if tries else 0.0}  # fmt: skip


def migration(pg, teams: int, actions: int) -> dict:
    from hexclass.classroom.sessions import SQLiteStore, create_class
    from hexclass.classroom.sessions.migrate import migrate

    path = Path(tempfile.mkdtemp()) / "class.db"
    rng = random.Random(3)
    with SQLiteStore(path) as s:
        made = create_class(s, teams=teams, seed=31, different_seeds=True)
        for t in made.teams:
            g = t.game_id
            live = s.live_game(g)
            n = 0
            while n < actions and not live.state.over:
                seat = rng.choice(SEATS)
                a = pick(live.state, seat, rng, end_chance=0.05)
                if a is not None and s.submit(g, live.version, seat, a).ok:
                    n += 1
            s.post_message(g, "D", "ready when you are")
    url = pg.create_database("migrated")
    report = migrate(path, url)
    return {"teams": teams, "actions": report.actions, "rows": sum(report.rows.values()),
            "file_mib": path.stat().st_size / 2**20, "copy_s": report.copy_seconds,
            "verify_s": report.verify_seconds}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", choices=("propagation", "contention", "migration"))
    ap.add_argument("--moves", type=int, default=200, help="moves timed for propagation")
    ap.add_argument("--seconds", type=float, default=15.0, help="per contention run")
    ap.add_argument("--teams", type=int, default=30, help="teams in the migrated file")
    ap.add_argument("--actions", type=int, default=120, help="actions per migrated game")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    from hexclass.classroom.sessions.pg_local import LocalPostgres

    results: dict = {}
    with LocalPostgres() as pg:
        sqlite_dir = Path(tempfile.mkdtemp())
        n = iter(range(1000))

        def fresh(kind):
            if kind == "postgresql":
                return pg.create_database(f"b{next(n)}")
            return str(sqlite_dir / f"b{next(n)}.db")

        if args.only in (None, "propagation"):
            rows = []
            for kind, mode in (("postgresql", "push"), ("postgresql", "poll"), ("sqlite", "poll")):
                r = propagation(fresh(kind), mode, args.moves)
                rows.append({"store": kind, "follower": mode, **r})
                print(f"propagation {kind:10} {mode:4}: p50 {r['p50_ms']:6.1f} ms  "
                      f"p95 {r['p95_ms']:6.1f} ms  ({r['seen']}/{r['moves']} moves)", flush=True)  # fmt: skip
            results["propagation"] = rows
        if args.only in (None, "contention"):
            rows = []
            for writers in (5, 30):
                for kind in ("postgresql", "sqlite"):
                    r = contention(fresh(kind), writers, args.seconds)
                    rows.append({"store": kind, **r})
                    print(f"submit {writers:2} writers {kind:10}: p50 {r['p50_ms']:6.1f} ms  "
                          f"p95 {r['p95_ms']:7.1f} ms  {r['accepted_per_s']:5.1f} accepted/s  "
                          f"stale {r['stale_share']:.0%}", flush=True)  # fmt: skip
            results["contention"] = rows
        if args.only in (None, "migration"):
            r = migration(pg, args.teams, args.actions)
            results["migration"] = r
            print(f"migration: {r['teams']} teams, {r['actions']} actions, {r['rows']} rows "
                  f"({r['file_mib']:.1f} MiB file): copy {r['copy_s']:.2f} s, "
                  f"verify (replay both) {r['verify_s']:.2f} s", flush=True)  # fmt: skip
    results["load_average"] = os.getloadavg()
    print(f"load average during the run: {results['load_average']}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "child-follow":
        child_follow(sys.argv[2], int(sys.argv[3]), sys.argv[4], float(sys.argv[5]))
    elif len(sys.argv) > 1 and sys.argv[1] == "child-write":
        a = sys.argv[2:]
        child_write(a[0], int(a[1]), a[2], float(a[3]), int(a[4]), a[5])
    else:
        main()
