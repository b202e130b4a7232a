"""An attacker's seat kernel for an enemy-player game, run as its own process by the tests.

It opens the seat page's app (headless, no polling task), enters a platoon, waits to see
the defender's next choice published, then looks through every object in the process
for the defender's secrets: a deployment, a force roll, a live replay of the game, dice
that can roll, a seed. It prints what it found as JSON (empty lists when clean).

    python attacker_kernel.py STORE_PATH TOKEN
"""

from __future__ import annotations

import gc
import json
import sys
import time

from hexclass.classroom.combined_arms.actions import EndPhase
from hexclass.classroom.combined_arms.enemy_player import Deployment, SecretForces
from hexclass.classroom.combined_arms.state import GameState
from hexclass.classroom.dice import Dice
from hexclass.classroom.sessions import open_seat
from hexclass.classroom.sessions.live import LiveGame
from hexclass.classroom.sessions.sqlite_store import SQLiteStore
from hexclass.widgets.hidden_seat import HiddenSeatApp


def main(path: str, token: str) -> None:
    app = HiddenSeatApp(open_seat(SQLiteStore(path), token), poll=False)
    deadline = time.monotonic() + 240  # a poll until the defender has deployed: generous
    while True:
        app.poll_once()
        if app.game.state is not None and app.game.state.phase == "friendly_move":
            break
        if time.monotonic() > deadline:
            sys.exit("the defender's deployment never arrived")
        time.sleep(0.05)
    game = app.game
    assert game.submit(EndPhase(game.seat)).accepted  # the commander ends the move phase
    assert game.submit(EndPhase(game.seat)).accepted  # and the fire phase: the enemy acts
    app.poll_once()
    found = {"deployments": [], "forces": [], "live_games": 0, "rolling_dice": 0, "seeds": []}
    for obj in gc.get_objects():
        if isinstance(obj, Deployment):
            found["deployments"].append(repr(obj))
        elif isinstance(obj, SecretForces):
            found["forces"].append(repr(obj))
        elif isinstance(obj, LiveGame):
            found["live_games"] += 1
        elif isinstance(obj, Dice) and type(obj).__name__ != "SealedDice":
            found["rolling_dice"] += 1
        elif isinstance(obj, GameState) and (obj.seed or obj.secret or obj.forces):
            found["seeds"].append(obj.seed)
    found["phase"] = game.state.phase
    found["version"] = game.version
    print(json.dumps(found))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
