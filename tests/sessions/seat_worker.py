"""A seat process for the multi-process tests (run as a script, never imported by pytest).

    python seat_worker.py seat  STORE SEAT GAMES TARGET SEED OUT   # one seat, several games
    python seat_worker.py crash STORE GAMES SEED [PACE]            # every seat, until killed

STORE is a SQLite file or a postgresql:// URL.

``seat`` plays one seat in every listed game against the others (retrying on a stale
version) until the games together hold TARGET actions or are all over, then writes what
it saw to OUT as JSON. ``crash`` plays every seat and prints ``game version`` for each
accepted action, flushed, so the parent knows exactly what was acknowledged; while the
store cannot be reached (its server killed and restarting) it waits and carries on.
PACE (seconds, default 0) is a pause after each acknowledged action.
"""

from __future__ import annotations

import json
import random
import sys
import time

from hexclass.classroom.combined_arms import action_to_json, legal_actions
from hexclass.classroom.sessions.follow import GameFollower
from hexclass.classroom.sessions.locate import open_location
from hexclass.classroom.sessions.store import Refusal

BUSY_KINDS = ("EndPhase", "EndGame")


def pick(state, seat: str, rng: random.Random, end_chance: float):
    """A random legal action for ``seat``: ending phases only now and then."""
    acts = legal_actions(state, seat)
    if not acts:
        return None
    busy = [a for a in acts if type(a).__name__ not in BUSY_KINDS]
    ends = [a for a in acts if type(a).__name__ == "EndPhase"]
    if busy and (not ends or rng.random() > end_chance):
        return rng.choice(busy)
    return rng.choice(ends or acts)


def run_seat(db: str, seat: str, games: list[int], target: int, seed: int, out: str) -> None:
    rng = random.Random(seed)
    store = open_location(db)
    followers = {g: GameFollower(store, g) for g in games}
    accepted, counts = [], {"stale": 0, "illegal": [], "other": [], "busy": 0}
    deadline = time.monotonic() + 150  # a busy 2-core machine; TARGET normally ends it
    order = list(games)
    while time.monotonic() < deadline:
        for f in followers.values():
            f.poll()
        live = [g for g in order if not followers[g].state.over]
        if not live or sum(f.version for f in followers.values()) >= target:
            break
        rng.shuffle(order)
        acted = False
        for g in live:
            f = followers[g]
            action = pick(f.state, seat, rng, end_chance=0.15)
            if action is None:
                continue
            acted = True
            r = store.submit(g, f.version, seat, action)
            if r.ok:
                accepted.append([g, r.version, seat, action_to_json(action)])
            elif r.kind is Refusal.STALE:
                counts["stale"] += 1
            elif r.kind is Refusal.BUSY:
                counts["busy"] += 1
            elif r.kind is Refusal.ILLEGAL:
                counts["illegal"].append([g, f.version, action_to_json(action), r.message])
            elif r.kind is not Refusal.ENDED:
                counts["other"].append([g, r.kind.value, r.message])
            f.poll()
        if not acted:
            time.sleep(0.002)
    with open(out, "w") as fh:
        json.dump({"seat": seat, "accepted": accepted, **counts}, fh)


def run_crash(db: str, games: list[int], seed: int, pace: float = 0.0) -> None:
    rng = random.Random(seed)
    store = open_location(db)
    followers = {g: GameFollower(store, g) for g in games}
    while True:
        live = [g for g in games if not followers[g].state.over]
        if not live:
            return  # every game is over; the parent sees end-of-file
        g = rng.choice(live)
        f = followers[g]
        try:
            f.poll()
        except ConnectionError:  # the server is down: wait for it, lose nothing
            time.sleep(0.05)
            continue
        seats = list(f.info.layout.names)
        rng.shuffle(seats)
        for seat in seats:
            action = pick(f.state, seat, rng, end_chance=0.1)
            if action is None:
                continue
            r = store.submit(g, f.version, seat, action)
            if r.ok:
                line = json.dumps([g, r.version, seat, action_to_json(action)])
                sys.stdout.write(f"{line}\n")
                sys.stdout.flush()
                time.sleep(pace)
            break


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "seat":
        db, seat, games, target, seed, out = sys.argv[2:8]
        run_seat(db, seat, [int(x) for x in games.split(",")], int(target), int(seed), out)
    elif mode == "crash":
        db, games, seed = sys.argv[2:5]
        pace = float(sys.argv[5]) if len(sys.argv) > 5 else 0.0
        run_crash(db, [int(x) for x in games.split(",")], int(seed), pace)
    else:
        raise SystemExit(f"unknown mode {mode!r}")
