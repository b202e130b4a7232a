"""The engine's fast paths give exactly the answers of the rules they shortcut.

Positions come from the random baseline's games (see ``test_quick.position``): platoons
of every kind off, on and beside the board, spent and fresh, armour in every facing,
revealed and removed enemies, smoke.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from hexclass.classroom.combined_arms import Options, record
from hexclass.classroom.combined_arms.board import ARMOUR_CANNOT_ENTER
from hexclass.classroom.combined_arms.bots import SteadyPolicy, play_game
from hexclass.classroom.combined_arms.enemy import best_clusters, best_payoff
from hexclass.classroom.combined_arms.lines import line_cost, mask_of, trace
from hexclass.classroom.combined_arms.mortars import can_spot, spotter_problem
from hexclass.classroom.combined_arms.movement import (
    check_enter,
    check_exploit,
    check_move,
    check_withdraw,
    destinations,
    entries_and_moves,
    hex_block,
)
from hexclass.classroom.combined_arms.units import BOARD, OFF
from hexclass.classroom.dice import Dice, chances

from .test_quick import positions

MANY = settings(max_examples=40, deadline=None)


def _every_legal_destination(g, u) -> list[tuple]:
    """Every (verb, hex, facing) the movement checks accept, tried hex by hex, facing by facing.

    A move that names the facing the armour already has is the move with the facing
    kept, so it is listed once, as ``None``.
    """
    out = []
    hexes = [*g.board.hexes, g.board.road_beyond_friendly_edge]
    for h in hexes:
        for f in (None, *range(6)):
            if u.where == OFF and check_enter(g, u, h, f) is None:
                out.append(("enter", h, f))
            kept = f is not None and f == u.facing
            if u.where == BOARD and not kept and check_move(g, u, h, f) is None:
                out.append(("move", h, f))
    if check_withdraw(g, u) is None:
        out.append(("withdraw", None, None))
    if check_exploit(g, u) is None:
        out.append(("exploit", None, None))
    return out


@MANY
@given(positions)
def test_destinations_are_exactly_what_the_movement_checks_accept(g):
    """CA "Movement": the listed destinations, once each, and nothing the checks refuse."""
    for u in g.units.values():
        listed = list(destinations(g, u))
        assert len(listed) == len(set(listed)), u.id
        assert sorted(listed, key=repr) == sorted(_every_legal_destination(g, u), key=repr), u.id


@MANY
@given(positions)
def test_entries_and_moves_are_the_enter_and_move_destinations(g):
    """The hexes a platoon may enter or move to, in the order ``destinations`` lists them."""
    for u in g.units.values():
        want = [d for d in destinations(g, u) if d[0] in ("enter", "move")]
        assert list(entries_and_moves(g, u)) == want, u.id


@MANY
@given(positions)
def test_can_spot_is_the_spotter_rule(g):
    """CA "Mortars": who may spot, as the worded spotter check decides it."""
    for u in g.units.values():
        assert can_spot(g, u) == (spotter_problem(g, u) is None), u.id


@MANY
@given(positions, st.integers(0, 2**32))
def test_line_cost_is_the_traced_line(g, seed):
    """A line's fast cost is its trace's: blocked, or its partial blocks (any blockers)."""
    rng = random.Random(seed)
    hexes = g.board.hexes
    for _ in range(200):
        a, b = rng.choice(hexes), rng.choice(hexes)
        blockers = mask_of(rng.sample(hexes, rng.randint(0, 30)))
        lof = trace(a, b, blockers)
        cost = line_cost(a, b, blockers)
        assert (cost is None) == lof.blocked, (a, b)
        assert lof.blocked or cost == len(lof.partly_by) == int(lof.partial), (a, b)


@given(st.integers(0, 2**63), st.lists(st.integers(0, 20), max_size=200))
def test_d6_rolls_as_below_six(seed, calls):
    """``d6`` gives ``below(6) + 1`` and leaves the dice as ``below`` would (0: a d6)."""
    fast, slow = Dice(seed), Dice(seed)
    for n in calls:
        if n == 0:
            assert fast.d6() == slow.below(6) + 1
        else:
            assert fast.below(n) == slow.below(n)
    assert fast.snapshot() == slow.snapshot()


def _hex_block_platoon_by_platoon(state, unit, h):
    """CA "Movement" stacking and terrain, asked of each other platoon in ``h`` in turn."""
    board = state.board
    if h not in board.hex_set:
        return ("off board", None)
    if h in board.closed_side_edge:
        return ("side edge", None)
    if h in state.enemy:
        return ("enemy", None)
    others = [u for u in state.units_at(h) if u.id != unit.id]
    if unit.is_rifle:
        for o in others:
            if o.is_rifle and o.company != unit.company:
                return ("company", o.id)
    if unit.is_armour:
        if board.terrain[h] in ARMOUR_CANNOT_ENTER:
            return ("terrain", board.terrain[h])
        for o in others:
            if o.is_armour:
                return ("armour", o.id)
    return None


@MANY
@given(positions)
def test_hex_block_asks_each_platoon_in_the_hex(g):
    """What keeps a platoon out of a hex, for every platoon and every hex of the board."""
    for u in g.units.values():
        for h in g.board.hexes:
            assert hex_block(g, u, h) == _hex_block_platoon_by_platoon(g, u, h), (u.id, h)


@MANY
@given(positions)
def test_best_payoff_is_that_of_the_best_clusters(g):
    """CA "Enemy Decisions": the best payoff, as the clusters listed one by one give it."""
    for h in g.enemy:
        assert best_payoff(g, h) == best_clusters(g, h)[0], h


@given(st.integers(-30, 30), st.integers(-10, 16))
def test_chances_count_the_faces_that_reach_the_need(modifier, need):
    """The faces of one die that, with the modifier added, reach the number needed."""
    assert chances(modifier, need) == sum(1 for face in range(1, 7) if face + modifier >= need)


class _ScoresEveryHex(SteadyPolicy):
    """Steady without the shortcut for holding platoons off the board."""

    def _holding_stays_off(self) -> bool:
        return False


def test_holding_platoons_stay_off_exactly_as_their_scores_say():
    """Steady's shortcut (no scoring for a holding platoon off the board) changes no game."""
    options = Options(auto_decisions=True)
    for seed in range(1, 21):
        quick = record(play_game(seed, SteadyPolicy(), options))
        slow = record(play_game(seed, _ScoresEveryHex(), options))
        assert quick == slow, seed
