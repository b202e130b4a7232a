"""The sample game's decisions as orders (CA "Sample Game"): legal in the engine.

The opening is replayed on the board rebuilt in benchmarks/ca_sample_game.py; the
fire-phase turns on the rebuilt positions of scenarios/ca/.
"""

from __future__ import annotations

import pathlib
import sys

from hexclass.classroom.combined_arms import EndPhase, apply, check
from hexclass.classroom.combined_arms.board import DEFENSIVE
from hexclass.classroom.combined_arms.units import OFF

BENCH = pathlib.Path(__file__).resolve().parents[2] / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import ca_sample_game as sg  # noqa: E402

P = "player"


def test_the_rebuilt_board_fits_the_text():
    """CA "Sample Game", turn 1: 8 defensive hexes in each group of three hexrows."""
    g = sg.opening_state()
    for rows in ((0, 1, 2), (3, 4, 5), (6, 7, 8)):
        n = sum(1 for h in g.board.hexes if h[1] in rows and g.board.terrain[h] in DEFENSIVE)
        assert n == 8, rows


def test_the_replayed_opening_is_legal_and_three_posts_see_it():
    g = sg.opening_state(seed=1)
    for a in sg.opening_orders(g):
        why = check(g, a)
        assert why is None, f"{a}: {why}"
        apply(g, a)
    assert all(g.units[u].where == OFF for u in ("F1", "F2", "F3"))  # F company in reserve
    assert g.units["A2"].hex == g.board.hex_at("2e")  # the road bonus on entry
    apply(g, EndPhase(P))  # to the fire phase: nothing fires on turn 1
    apply(g, EndPhase(P))  # the preliminary bombardment, then the enemy phase
    shots = [
        e
        for e in g.events
        if e.kind == "roll" and e.data.get("purpose") == "preliminary bombardment"
    ]
    assert len(shots) == 3  # "the only 3 enemy positions able to see my initial advance"


def test_every_replayed_order_is_legal_in_its_position():
    for turn in sg.TURNS[1:]:
        g = turn.build()
        for a in turn.orders(g):
            why = check(g, a)
            assert why is None, f"{turn.name}: {a}: {why}"
            apply(g, a)


def test_valuing_a_decision_leaves_the_position_alone():
    turn = sg.TURNS[2]
    g = turn.build()
    snap = g.snapshot()
    v, done = sg.play_turn(g, sg.Script(turn.orders(g)), 7)
    assert g.snapshot() == snap
    assert done and 0 <= v <= 40
