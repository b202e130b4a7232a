"""Co-op flow: five scripted seats per team ordering at a human pace on one store file.

Run:  .venv/bin/python benchmarks/coop_flow.py [--teams 2] [--seconds 120] [--seed 5]
      [--pace 2 5]   # seconds between one seat's orders (uniform); e.g. --pace 0.3 1 to stress

Every seat is its own process (as every seat page is its own Voilà kernel): it keeps a
follower polled every 50 ms, like the page's timer, and every 2-5 s (uniformly at
random) sends one order drawn from its follower's board at its follower's version: a
legal move or fire of its own platoons. A seat with nothing left to do says "I'm done
this phase"; the commander (support) orders its MMGs and mortars, answers the engine's
decisions, and ends the phase once every other seat is done (CA p.7). So orders from
different seats often cross in flight, as they do in class.

Reported, per run and over every seat:

* **stale share**: orders refused as stale / orders sent (goal < 1 %);
* **rebased share**: orders accepted although drawn at an older version, i.e. the
  orders a store without rebasing refused as stale (measured in the same run);
* **illegal**: orders refused by the engine (expected 0: each was legal on the board it
  was drawn from, and a rebased order the engine refuses counts as stale);
* **propagation**: from an order's commit (the log's time) to each teammate's follower
  holding it (p50 / p95 over every teammate and order).
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

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SEATS = ("armour", "D", "E", "F", "support")
POLL = 0.05


def pick_order(state, seat: str, rng: random.Random):
    """A legal order of this seat's own units (never an EndPhase / EndGame)."""
    from hexclass.classroom.combined_arms import legal_actions

    acts = [
        a for a in legal_actions(state, seat) if type(a).__name__ not in ("EndPhase", "EndGame")
    ]
    # keep fire groups open rarely: a seat commits its fire at once, as the page does
    acts = [a for a in acts if getattr(a, "resolve", True)]
    return rng.choice(acts) if acts else None


def run_seat(
    db: str, game: int, seat: str, seconds: float, seed: int, out: str, pace=(2.0, 5.0)
) -> None:
    from hexclass.classroom.combined_arms import EndPhase
    from hexclass.classroom.sessions.follow import GameFollower
    from hexclass.classroom.sessions.sqlite_store import SQLiteStore
    from hexclass.classroom.sessions.store import Refusal

    rng = random.Random(seed)
    store = SQLiteStore(db)
    f = GameFollower(store, game)
    seen_at: dict[int, float] = {}
    sent = stale = illegal = rebased = held = other = 0
    illegal_msgs: list[str] = []
    deadline = time.time() + seconds
    next_order = time.time() + rng.uniform(*pace)
    phase_key, phase_start, done_after, orders_here = None, 0.0, 3, 0
    while time.time() < deadline and not f.state.over and f.status != "ended":
        upd = f.poll()
        now = time.time()
        for a in upd.actions:
            seen_at.setdefault(a.version, now)
        if now >= next_order:
            next_order = now + rng.uniform(*pace)
            state = f.state
            action = None
            if seat == "support" and state.pending is not None:
                from hexclass.classroom.combined_arms import legal_actions

                choices = legal_actions(state, seat)
                action = choices[0] if choices else None
            elif state.pending is None:
                key = (state.turn, state.phase)
                if key != phase_key:
                    phase_key, phase_start, done_after = key, now, rng.randint(2, 4)
                    orders_here = 0
                action = pick_order(state, seat, rng) if orders_here < done_after else None
                others_done = f.ready >= frozenset(s for s in SEATS if s != "support")
                if seat == "support" and action is None:
                    # the commander ends the phase once the team is done (or after 25 s)
                    if others_done or now - phase_start > 25:
                        action = EndPhase("support") if state.phase.startswith("friendly") else None
                elif action is None and seat not in f.ready:
                    store.set_ready(game, seat)
                if action is not None:
                    orders_here += 1
            if action is not None:
                version = f.version
                r = store.submit(game, version, seat, action)
                sent += 1
                now = time.time()
                if r.update is not None:
                    for a in r.update.actions:
                        seen_at.setdefault(a.version, now)
                if r.ok:
                    rebased += version != r.version - 1
                elif r.kind is Refusal.STALE:
                    stale += 1
                elif r.kind is Refusal.ILLEGAL:
                    illegal += 1
                    illegal_msgs.append(r.message)
                elif r.kind is Refusal.HELD:
                    held += 1
                else:
                    other += 1
        time.sleep(POLL)
    with open(out, "w") as fh:
        json.dump(
            {
                "seat": seat,
                "sent": sent,
                "stale": stale,
                "illegal": illegal,
                "illegal_msgs": illegal_msgs[:5],
                "rebased": rebased,
                "held": held,
                "other": other,
                "seen_at": seen_at,
            },
            fh,
        )
    f.close()
    store.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--teams", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=120.0)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--pace", type=float, nargs=2, default=(2.0, 5.0), metavar=("MIN", "MAX"))
    ap.add_argument("--seat", nargs=5, help=argparse.SUPPRESS)  # internal: run one seat
    args = ap.parse_args()
    if args.seat:
        db, game, seat, seconds, out = args.seat
        run_seat(db, int(game), seat, float(seconds), args.seed, out, tuple(args.pace))
        return

    from hexclass.classroom.sessions import SQLiteStore, create_class

    tmp = pathlib.Path(tempfile.mkdtemp(prefix="coop-flow-"))
    db = tmp / "class.db"
    with SQLiteStore(db) as s:
        made = create_class(s, teams=args.teams, seed=args.seed)
    games = [t.game_id for t in made.teams]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    procs = []
    for g in games:
        for i, seat in enumerate(SEATS):
            out = tmp / f"g{g}-{seat}.json"
            cmd = [sys.executable, __file__, "--seed", str(args.seed * 100 + g * 10 + i),
                   "--pace", *map(str, args.pace),
                   "--seat", str(db), str(g), seat, str(args.seconds), str(out)]  # fmt: skip
            procs.append((g, seat, out, subprocess.Popen(cmd, env=env)))
    for *_, p in procs:
        p.wait(timeout=args.seconds + 120)
    reports = {(g, seat): json.loads(out.read_text()) for g, seat, out, _ in procs}
    lat = []
    with SQLiteStore(db) as s:
        for g in games:
            for a in s.actions(g):
                for seat in SEATS:
                    if seat == a.seat:
                        continue
                    t = reports[(g, seat)]["seen_at"].get(str(a.version))
                    if t is not None:
                        lat.append(t - a.at)
        versions = [s.version(g) for g in games]
        turns = [s.state(g).turn for g in games]
    total = {
        k: sum(r[k] for r in reports.values())
        for k in ("sent", "stale", "illegal", "rebased", "held", "other")
    }
    sent = max(1, total["sent"])
    lat.sort()
    q = statistics.quantiles(lat, n=100) if len(lat) > 2 else [float("nan")] * 99
    lo, hi = args.pace
    print(
        f"teams {args.teams}, 5 seats each, {args.seconds:.0f} s, an order per seat every {lo:g}-{hi:g} s"
    )
    print(f"actions logged {sum(versions)} (turns reached {turns})")
    print(f"orders sent {total['sent']}: stale {total['stale']} ({total['stale'] / sent:.2%}), "
          f"rebased and accepted {total['rebased']} ({total['rebased'] / sent:.2%}, refused as "
          f"stale without rebasing), illegal {total['illegal']}, other {total['other']}")  # fmt: skip
    print(f"propagation commit -> teammate's follower: p50 {q[49] * 1000:.0f} ms, "
          f"p95 {q[94] * 1000:.0f} ms over {len(lat)} deliveries")  # fmt: skip
    bad = [m for r in reports.values() for m in r["illegal_msgs"]]
    if bad:
        print("illegal examples:", *bad[:3], sep="\n  ")


if __name__ == "__main__":
    main()
