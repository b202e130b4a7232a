"""Chance outcomes as data (issue 28): every die a game rolls after its board is diced is
in its log with what it decided, so its record and the faces read off the log rebuild it
with no dice generator at all (``chance.py``)."""

from __future__ import annotations

import json
import pathlib
import random

import pytest

from hexclass.classroom.combined_arms import EndPhase, apply, record
from hexclass.classroom.combined_arms.actions import Bid
from hexclass.classroom.combined_arms.chance import outcomes, replay_outcomes
from hexclass.classroom.combined_arms.defender import ai_choice
from hexclass.classroom.combined_arms.game import replay

from .test_enemy_player_play import D, decide, two_player_game

GOLDEN = sorted((pathlib.Path(__file__).parent / "golden").glob("*.json"))


def lines(state):
    return [f"{e.turn}|{e.phase}|{e.kind}|{e.text}" for e in state.events]


def same_game_from_its_outcomes(g):
    faces = outcomes(g.events)
    again = replay_outcomes(record(g), faces)
    assert lines(again) == lines(g)
    assert {k: v for k, v in again.snapshot().items() if k != "dice"} == {
        k: v for k, v in g.snapshot().items() if k != "dice"
    }
    assert again.dice.faces == []  # every logged face was rolled, and nothing unlogged
    return faces


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_a_golden_game_is_its_record_and_the_faces_in_its_log(path):
    g = replay(json.loads(path.read_text())["record"])
    faces = same_game_from_its_outcomes(g)
    assert len(faces) > 20 and {sides for sides, _ in faces} >= {6}


def test_the_bidding_tie_dice_and_the_secret_force_roll_are_outcomes_too():
    g = two_player_game(seed=8)
    decide(g, Bid("player1", 2))
    decide(g, Bid("player2", 2))  # equal bids: the dice settle them
    settled = next(e for e in g.events if "commands the defenders" in e.text)
    assert settled.data["tie_rolls"] and g.forces.rolls
    defender = settled.data["defender"]
    attacker = next(s for s in g.seats if s != defender)
    assert D in g.seats[defender].powers
    decide(g, ai_choice(g, defender, random.Random(0)))  # the secret deployment
    for _ in range(12):
        apply(g, EndPhase(attacker))
        while g.pending is not None and g.pending.power == D:
            decide(g, ai_choice(g, defender))
    same_game_from_its_outcomes(g)


def test_the_faces_not_the_seed_drive_the_replay():
    g = replay(json.loads(GOLDEN[0].read_text())["record"])
    faces = outcomes(g.events)
    i = next(i for i, (sides, face) in enumerate(faces) if sides == 6 and face != 6)
    changed = faces[:i] + [(6, 6)] + faces[i + 1 :]
    with pytest.raises(Exception):  # noqa: B017 - a different roll: another game or a refusal
        again = replay_outcomes(record(g), changed)
        assert lines(again) == lines(g)


def test_too_few_faces_is_an_error_not_a_silent_roll():
    g = replay(json.loads(GOLDEN[0].read_text())["record"])
    with pytest.raises(RuntimeError, match="no faces left"):
        replay_outcomes(record(g), outcomes(g.events)[:-1])
