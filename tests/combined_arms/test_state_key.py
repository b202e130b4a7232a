"""A game state's key (issue 28): caches ask ``state.key()`` / ``state.uid``, never ``id()``.

Python gives a freed object's id to the next object of its size, so a cache keyed on
``id(state)`` can answer for a game that is gone; and a position set by hand (a lesson,
a test) changes the state without adding an action or an event. Each test here fails
with the caches keyed on ``(id(state), len(actions), len(events))`` or ``(id(state),
turn)`` that the bots and the board controller used before.
"""

from __future__ import annotations

import copy
import pickle

import pytest

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.combined_arms import EndPhase, apply, new_game
from hexclass.classroom.combined_arms.bots.company import CompanyChoice, CompanyPlanner
from hexclass.classroom.combined_arms.bots.search import BestPolicy, TurnChoice
from hexclass.classroom.combined_arms.bots.steady import SteadyPolicy
from hexclass.classroom.combined_arms.query import Query
from hexclass.classroom.combined_arms.quick import Sight
from hexclass.widgets.ca_controller import BoardController, LocalGame

from .helpers import at, sketch

P = "player"


# --- the key itself ---------------------------------------------------------------------------


def test_every_copy_gets_a_uid_of_its_own():
    g = new_game(3)
    copies = [g.copy(), copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g))]
    uids = [g.uid, *(c.uid for c in copies)]
    assert len(set(uids)) == len(uids)
    assert all(c.snapshot() == g.snapshot() for c in copies)  # the same position all the same


def test_the_key_moves_with_an_action_and_with_a_change_made_by_hand():
    g = sketch(units={"D1": "3c"})
    first, counts = g.key(), (len(g.actions), len(g.events))
    Query(g, P).move_targets("D1", None)  # asking changes nothing
    assert g.key() == first
    g.place(g.units["D1"], at(g, "3d"))  # a lesson's hand move: no action, no event
    moved = g.key()
    assert moved != first and (len(g.actions), len(g.events)) == counts
    g.turn = 4  # a field set by hand, then announced
    g.touch()
    assert g.key() != moved
    before = g.version
    apply(g, EndPhase(P))
    assert g.version == before + 1 and g.key()[1] == g.version


# --- the board controller's answers -----------------------------------------------------------


def test_the_controller_forgets_its_moves_when_the_platoon_is_moved_by_hand():
    s = sketch(units={"D1": "3c"})
    c = BoardController(LocalGame(s), P)
    c.select("D1")
    from_3c = c.destinations()
    s.place(s.units["D1"], at(s, "6c"))  # as a lesson cell sets up its next question
    now = c.destinations()
    assert now == Query(s, P).move_targets("D1", None)
    assert now.keys() != from_3c.keys()  # keyed on id and log lengths, the memo offered 3c's


# --- the steady policy's sight lines ----------------------------------------------------------


def test_steady_sees_a_rifle_moved_off_its_line_of_fire_by_hand():
    plain = sketch(units={"M1": "2c"}, enemy={"5c": "real"})
    between = hg.line_between(at(plain, "2c"), at(plain, "5c"))[0][0]
    s = sketch(
        units={"M1": "2c", "D1": plain.label(between)},
        enemy={"5c": "real"},
        phase="friendly_fire",
    )
    m1, target = at(s, "2c"), at(s, "5c")
    bot = SteadyPolicy()
    assert bot._sight(s).pin("M1", m1, target) == 0  # D1 stands in the way
    s.place(s.units["D1"], at(s, "1a"))
    now = bot._sight(s).pin("M1", m1, target)  # keyed on id and log lengths: still 0
    assert now == Sight(s).pin("M1", m1, target) > 0


# --- a freed state's id handed to another ------------------------------------------------------


class _RecordingBest(BestPolicy):
    """``best`` with its search replaced by a note of which game it planned for."""

    def __init__(self):
        super().__init__()
        self.planned: list[int] = []

    def choose(self, state, seat):
        self.planned.append(state.seed)
        return TurnChoice(state.turn, {}, "hold", 0)


class _RecordingCompany(CompanyPlanner):
    def __init__(self):
        super().__init__()
        self.planned: list[int] = []

    def choose(self, state, seat):
        self.planned.append(state.seed)
        self._attacks = {}
        return CompanyChoice(state.turn, {}, "hold", 0)


def _planned_after_reused_id(make_planner) -> list[int]:
    """Plan turn 1 of game 1, free it, and plan turn 1 of a game 2 made at its address.

    CPython hands a freed block to a later object of the same size: shallow copies of
    game 2 (each a state object first of all) are made, and kept so that their blocks
    stay taken, until one lands there.
    """
    other, kept = new_game(2), []
    planner = make_planner()
    first = new_game(1)
    planner.act(first, P)
    gone = id(first)
    del first
    for _ in range(500):
        second = copy.copy(other)
        if id(second) == gone:
            planner.act(second, P)
            return planner.planned
        kept.append(second)
    pytest.fail("no state was made at the freed state's address in 500 tries")


@pytest.mark.parametrize("make_planner", [_RecordingBest, _RecordingCompany])
def test_a_planner_plans_for_a_new_game_that_took_a_freed_games_id(make_planner):
    # the (id(state), turn) key took game 2's first turn for game 1's: planned == [1]
    assert _planned_after_reused_id(make_planner) == [1, 2]
