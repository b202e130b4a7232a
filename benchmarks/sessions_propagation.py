"""Store-level propagation: how long until one seat's action is on the other seats' boards.

Run:  .venv/bin/python benchmarks/sessions_propagation.py [--actions N] [--interval S]

Every seat page is a separate process (as every Voilà kernel is) with its own
:class:`~hexclass.classroom.sessions.follow.GameFollower` polling the shared SQLite file every
``--interval`` seconds. In each team one seat process also submits an action every
``--gap`` seconds (a random legal action for whichever seat has one). For every accepted
action we take the time from the start of ``submit`` to the moment each *other* seat's
follower has applied it, and report p50/p95/max, with the submit (commit) time itself.

Cases (issue 4's targets are for the browser, measured later by the page builders):

* **1 team**: 5 seat processes, one submitting; 4 followers see each action
  (target for the page: p95 <= 150 ms);
* **6 teams**: 30 seat processes (6 submitting), 24 other-seat followers
  (target for the pages: p95 <= 250 ms).

Clocks: ``time.monotonic`` is the system-wide CLOCK_MONOTONIC on Linux, so times from
different processes compare directly.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import random
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hexclass.classroom.combined_arms import legal_actions  # noqa: E402
from hexclass.classroom.sessions import GameFollower, SQLiteStore, create_class  # noqa: E402

SEATS = ("armour", "D", "E", "F", "support")


# --- the seat processes -----------------------------------------------------------------------


def _wait_for(path: pathlib.Path) -> None:
    while not path.exists():
        time.sleep(0.005)


def seat_process(db: str, game: int, role: str, args: dict, work: str) -> None:
    """One seat page: follow the game; the ``writer`` also submits every ``gap`` seconds."""
    work_dir = pathlib.Path(work)
    store = SQLiteStore(db)
    f = GameFollower(store, game)
    (work_dir / f"ready-{os.getpid()}").touch()
    _wait_for(work_dir / "go")
    seen, sent = [], []
    rng = random.Random(game)
    next_submit = time.monotonic()
    stop = work_dir / "stop"
    while True:
        now = time.monotonic()
        u = f.poll()
        t = time.monotonic()
        for step in u.actions:
            seen.append((step.version, t))
        if role == "writer" and now >= next_submit:
            if len(sent) >= args["actions"] or f.state.over:
                (work_dir / f"done-{game}").touch()
                role = "done"
            else:
                sent.extend(_submit_one(store, game, f, rng))
                next_submit = now + args["gap"]
        if stop.exists() and now - _mtime(stop) > 1.0:
            break
        time.sleep(args["interval"])
    out = work_dir / f"{role}-{game}-{os.getpid()}.json"
    out.write_text(json.dumps({"game": game, "seen": seen, "sent": sent, "writer": bool(sent)}))


def _mtime(p: pathlib.Path) -> float:
    return p.stat().st_mtime - time.time() + time.monotonic()


def _submit_one(store, game: int, f, rng) -> list:
    seats = list(SEATS)
    rng.shuffle(seats)
    for seat in seats:
        acts = legal_actions(f.state, seat)
        busy = [a for a in acts if type(a).__name__ not in ("EndPhase", "EndGame")]
        ends = [a for a in acts if type(a).__name__ == "EndPhase"]
        pool = busy if busy and (not ends or rng.random() > 0.08) else ends
        if not pool:
            continue
        t0 = time.monotonic()
        r = store.submit(game, f.version, seat, rng.choice(pool))
        t1 = time.monotonic()
        if r.ok:
            return [(r.version, t0, t1)]
        return []
    return []


# --- the driver -------------------------------------------------------------------------------


def run_case(teams: int, args: argparse.Namespace) -> dict:
    work = pathlib.Path(tempfile.mkdtemp(prefix="hexclass-bench-"))
    db = work / "class.db"
    with SQLiteStore(db) as s:
        made = create_class(s, teams=teams, seed=77, different_seeds=True)
    games = [t.game_id for t in made.teams]
    cfg = json.dumps({"actions": args.actions, "gap": args.gap, "interval": args.interval})
    procs = []
    for g in games:
        for i in range(5):
            role = "writer" if i == 0 else "follower"
            procs.append(
                subprocess.Popen(
                    [sys.executable, __file__, "--seat", str(db), str(g), role, cfg, str(work)]
                )
            )
    while len(list(work.glob("ready-*"))) < len(procs):
        time.sleep(0.01)
    started = time.monotonic()
    (work / "go").touch()
    while len(list(work.glob("done-*"))) < len(games):
        time.sleep(0.05)
    elapsed = time.monotonic() - started
    (work / "stop").touch()
    for p in procs:
        p.wait(timeout=60)
    return _figures(work, teams, elapsed)


def _figures(work: pathlib.Path, teams: int, elapsed: float) -> dict:
    sent: dict[tuple[int, int], tuple[float, float]] = {}
    views = []
    for p in work.glob("*-*-*.json"):
        rep = json.loads(p.read_text())
        for v, t0, t1 in rep["sent"]:
            sent[(rep["game"], v)] = (t0, t1)
        if not rep["writer"]:
            views.append(rep)
    lat = []
    missing = 0
    for rep in views:
        seen = {v: t for v, t in rep["seen"]}
        for (g, v), (t0, _) in sent.items():
            if g != rep["game"]:
                continue
            if v in seen:
                lat.append((seen[v] - t0) * 1000)
            else:
                missing += 1
    commit = [(t1 - t0) * 1000 for t0, t1 in sent.values()]
    return {
        "teams": teams,
        "processes": teams * 5,
        "actions": len(sent),
        "observations": len(lat),
        "missing": missing,
        "seconds": round(elapsed, 1),
        "propagation_ms": _pcts(lat),
        "submit_ms": _pcts(commit),
    }


def _pcts(xs: list[float]) -> dict:
    if not xs:
        return {}
    xs = sorted(xs)
    q = statistics.quantiles(xs, n=100, method="inclusive")
    return {"p50": round(q[49], 1), "p95": round(q[94], 1), "max": round(xs[-1], 1)}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--seat":
        db, game, role, cfg, work = sys.argv[2:7]
        seat_process(db, int(game), role, json.loads(cfg), work)
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--actions", type=int, default=80, help="actions per team (80)")
    ap.add_argument("--gap", type=float, default=0.25, help="seconds between a team's actions")
    ap.add_argument("--interval", type=float, default=0.02, help="follower poll interval (s)")
    ap.add_argument("--teams", type=int, nargs="*", default=[1, 6], help="cases to run")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    results = [run_case(t, args) for t in args.teams]
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(
        f"poll interval {args.interval * 1000:.0f} ms, one action per team every "
        f"{args.gap * 1000:.0f} ms, {os.cpu_count()} CPUs"
    )
    for r in results:
        p, s = r["propagation_ms"], r["submit_ms"]
        print(
            f"{r['teams']} team(s), {r['processes']} seat processes: {r['actions']} actions, "
            f"{r['observations']} sightings ({r['missing']} missing) in {r['seconds']} s\n"
            f"  submit -> seen on another seat: p50 {p['p50']} ms, p95 {p['p95']} ms, "
            f"max {p['max']} ms\n"
            f"  submit (check + durable commit): p50 {s['p50']} ms, p95 {s['p95']} ms"
        )


if __name__ == "__main__":
    main()
