"""One seat kernel sending one order at an agreed moment (run as a script by test_rebase).

    python order_worker.py DB GAME SEAT VERSION START_AT ACTION_JSON OUT

It opens its own store (as a Voilà kernel would), waits until the wall clock reaches
START_AT so that every worker submits at the same moment, submits ACTION_JSON drawn at
VERSION and writes what the store answered to OUT as JSON.
"""

from __future__ import annotations

import json
import sys
import time

from hexclass.classroom.combined_arms import action_from_json
from hexclass.classroom.sessions.sqlite_store import SQLiteStore


def main(db, game, seat, version, start_at, action, out) -> None:
    store = SQLiteStore(db)
    started = store.live_game(int(game)).version  # caught up before the start, as a page is
    act = action_from_json(json.loads(action))
    while time.time() < float(start_at):
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
    main(*sys.argv[1:8])
