"""Per-turn figures of a game, for the end-of-game plot and the class debrief.

The figures come from replaying the game's record and reading the state at the end of
every turn, so they agree with the engine by construction.
"""

from __future__ import annotations

from .actions import action_from_json
from .engine import apply
from .game import record
from .units import BROKEN, EXPLOITED, REAL


def snapshot_row(state, turn: int, losses_taken: int) -> dict:
    return {
        "turn": turn,
        "losses_taken": losses_taken,
        "your_platoons_broken": sum(1 for u in state.units.values() if u.where == BROKEN),
        "your_platoons_exploited": sum(1 for u in state.units.values() if u.where == EXPLOITED),
        "enemy_platoons_broken": state.enemy_platoons_broken,
        "atgs_broken": state.atgs_broken,
        "enemy_counters_left": sum(1 for p in state.enemy.values() if p.platoon is not None),
        "real_enemy_revealed": sum(1 for p in state.enemy.values() if p.platoon == REAL),
        "ammo_track": state.ammo,
    }


def per_turn(state) -> list[dict]:
    """One row per finished turn: losses taken so far, platoons broken on each side, ...

    The game is replayed from its seed, so only the full game can be charted: a seat's
    copy (:func:`.public.attacker_copy`, sealed dice, no seed) raises ``SealedDiceError``
    rather than replaying another board.
    """
    from .game import replay
    from .public import SealedDice, SealedDiceError

    if isinstance(state.dice, SealedDice):
        raise SealedDiceError("a seat's copy of the game holds no seed to replay its turns from")

    data = record(state)
    actions = data["actions"]
    data = {**data, "actions": []}
    g = replay(data)
    rows: list[dict] = []
    taken = 0
    seen_events = len(g.events)
    for raw in actions:
        turn_before = g.turn
        apply(g, action_from_json(raw))
        for ev in g.events[seen_events:]:
            if ev.kind == "losses":
                taken += ev.data.get("added", 0)
        seen_events = len(g.events)
        if g.turn != turn_before or g.over:
            finished = turn_before if not g.over or g.turn != turn_before else g.turn
            if not rows or rows[-1]["turn"] != finished:
                rows.append(snapshot_row(g, finished, taken))
    return rows
