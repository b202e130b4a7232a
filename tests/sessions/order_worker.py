"""One seat kernel sending one order at an agreed moment (run as a script by test_rebase).

    python order_worker.py DB GAME SEAT VERSION ACTION_JSON OUT

It opens its own store (as a Voilà kernel would) and catches up, prints ``ready``, then
reads a wall-clock moment from stdin (the test sends it once every worker is ready) and
waits for it, so that every worker submits at the same moment; it submits ACTION_JSON
drawn at VERSION and writes what the store answered to OUT as JSON.
"""

from __future__ import annotations

import json
import sys
import time

from hexclass.classroom.combined_arms import action_from_json
from hexclass.classroom.sessions.sqlite_store import SQLiteStore


def main(db, game, seat, version, action, out) -> None:
    store = SQLiteStore(db)
    started = store.live_game(int(game)).version  # caught up before the start, as a page is
    act = action_from_json(json.loads(action))
    print("ready", flush=True)
    start_at = float(sys.stdin.readline())
    while time.time() < start_at:
        time.sleep(0.0005)
    r = store.submit(int(game), int(version), seat, act)
    answer = {"ok": r.ok, "version": r.version, "message": getattr(r, "message", "")}
    answer["kind"] = None if r.ok else r.kind.value
    answer["started"] = started
    answer["caught_up"] = [a.version for a in (r.update.actions if r.update else [])]
    with open(out, "w") as fh:
        json.dump(answer, fh)
    store.close()


if __name__ == "__main__":
    main(*sys.argv[1:7])
