"""Chance outcomes as data: every die the game rolls is in its log with what it decided.

The dice (``classroom/dice.py``) are the game's only source of chance. The rolls made
while the board is diced are kept as the board itself (the game's description); every
roll after that is logged: a ``roll`` event holds the face as ``die`` (or, for a tie
settled among equal choices, ``picked`` of ``options``), the bidding's tie dice are the
``tie_rolls`` of its ``setup`` event and the defender's secret force roll the ``rolls``
of its secret ``setup`` event (CA p.7). :func:`outcomes` reads them back in the order
rolled and :func:`replay_outcomes` plays a record again with the dice showing exactly
those faces, so a game is its description, its actions and this list: like a chance
node's recorded outcome in OpenSpiel, no generator state needed.

>>> from hexclass.classroom.combined_arms import EndPhase, apply, new_game, record
>>> g = new_game(3)
>>> for _ in range(12):
...     _ = apply(g, EndPhase("player"))
>>> again = replay_outcomes(record(g), outcomes(g.events))
>>> [e.text for e in again.events] == [e.text for e in g.events], again.dice.faces
(True, [])
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hexclass.classroom.dice import LoadedDice

from .actions import action_from_json
from .engine import apply
from .game import replay
from .state import Event, GameState


def outcomes(events: Iterable[Event]) -> list[tuple[int, int]]:
    """The dice the log records, in the order rolled: ``(sides, face)`` pairs."""
    out: list[tuple[int, int]] = []
    for e in events:
        d = e.data
        if e.kind == "roll":
            if "die" in d:
                out.append((6, d["die"]))
            elif "picked" in d:
                out.append((d["options"], d["picked"] + 1))
        elif e.kind == "setup":
            for roll in d.get("tie_rolls", ()):
                out.extend((6, face) for face in roll.values())
            for a, b in d.get("rolls", ()):
                out += [(6, a), (6, b)]
    return out


def replay_outcomes(data: dict[str, Any], faces: Iterable[tuple[int, int]]) -> GameState:
    """The game of :func:`~.game.record` ``data`` played again with the dice showing
    ``faces`` (as :func:`outcomes` gives them) after the set-up instead of rolling.

    Raises ``RuntimeError`` if the game rolls more dice than ``faces`` holds and
    ``ValueError`` if a face does not fit its roll."""
    state = replay(dict(data, actions=[]))  # the set-up: its rolls are logged already
    faces = list(faces)[len(outcomes(state.events)) :]
    state.dice = LoadedDice(face for _, face in faces)
    for raw in data.get("actions", ()):
        apply(state, action_from_json(raw))
    return state
