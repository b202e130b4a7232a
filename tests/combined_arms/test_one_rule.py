"""Each rule in one named engine function (issue 28), and the places that ask it.

The reveal trigger (CA "Enemy Decisions"), two partial blocks blocking a line
(docs/rules-notes.md "Lines of fire"), a firer's modifiers (CA "Fire Attacks"), who may
fire, how far a platoon moves and where exploiting starts (CA "Movement"): each is one
function; these tests pin their numbers to the rulebook and check that the engine's
activation tests what the function says.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hexclass.classroom.combined_arms import enemy, fire
from hexclass.classroom.combined_arms.lines import PARTIAL_BLOCKS_BLOCK, line_penalty, within_range
from hexclass.classroom.combined_arms.movement import (
    EDGE,
    ROAD,
    check_exploit,
    exploit_start,
    move_reach,
)
from hexclass.classroom.combined_arms.quick import can_exploit_now
from hexclass.classroom.combined_arms.units import POTENTIAL, Platoon
from hexclass.classroom.dice import Dice

from .helpers import sketch
from .test_quick import position

FAST = settings(max_examples=15, deadline=None)


def test_the_reveal_trigger_numbers_are_the_rulebooks():
    # CA "Enemy Decisions": adjacent always; else a fresh post at payoff 6+ / 2+ chances
    assert enemy.platoon_test_due(True, False, 0)
    assert enemy.platoon_test_due(False, True, 6) and not enemy.platoon_test_due(False, True, 5)
    assert not enemy.platoon_test_due(False, False, 99)
    assert enemy.atg_test_due(True, False, 0)
    assert enemy.atg_test_due(False, True, 2) and not enemy.atg_test_due(False, True, 1)
    assert not enemy.atg_test_due(False, False, 6)


def test_two_partial_blocks_block_and_one_costs_one():
    one, two = 0b1, 0b101
    assert PARTIAL_BLOCKS_BLOCK == 2
    assert line_penalty(0, 0) == 0 and line_penalty(0, one) == 1
    assert line_penalty(0, two) is None and line_penalty(0b10, 0) is None


def test_range_and_reach():
    assert [within_range(d) for d in range(7)] == [False, True, True, True, True, True, False]
    assert move_reach(Platoon("A1")) == 2 and move_reach(Platoon("D1")) == 1


def test_only_fresh_platoons_on_the_board_fire():
    p = Platoon("D1")
    assert not fire.may_fire(p)  # still off the board
    p.where, p.hex = "board", (0, 0)
    assert fire.may_fire(p)
    p.fresh = False
    assert not fire.may_fire(p)


def test_where_exploiting_starts_is_one_function_the_check_and_the_bots_ask():
    """CA "Movement": exploit from the 3 central enemy rear-edge hexes, armour also by
    the road's last two hexes. ``check_exploit`` adds the road run (A2 faces away from
    it); the bots' cheap test asks only where the platoon stands."""
    s = sketch(units={"D1": "9c", "D2": "9b", "A1": "8e bottom", "A2": "8e top", "M1": "9d"})
    start = {u: exploit_start(s.board, s.units[u]) for u in ("D1", "D2", "A1", "A2", "M1", "F1")}
    assert start == {"D1": EDGE, "D2": None, "A1": ROAD, "A2": ROAD, "M1": None, "F1": None}
    for u, where in start.items():
        assert can_exploit_now(s, s.units[u]) == (where is not None), u
    refused = {u: check_exploit(s, s.units[u]) for u in start}
    assert refused["D1"] is None and refused["A1"] is None
    assert "keep a facing" in refused["A2"].message and "MMG" in refused["M1"].message
    assert "3 central" in refused["D2"].message and "not on the board" in refused["F1"].message
    s.units["D1"].fresh = False
    assert exploit_start(s.board, s.units["D1"]) is None
    assert "spent" in check_exploit(s, s.units["D1"]).message


class _Sixes(Dice):
    """Dice that show their highest face: every reveal test proves real, so the ATG test
    after a platoon's comes too."""

    def below(self, n: int) -> int:
        self.rolled += 1
        return n - 1


def _tested_on_activation(state, h) -> dict:
    probe = state.copy()
    probe.dice = _Sixes(0)
    before = len(probe.events)
    enemy.activate(probe, h)
    out = {}
    for e in probe.events[before:]:
        purpose = e.data.get("purpose", "")
        if purpose.startswith("reveal") and e.data.get("target") == h:
            out["atg" if "ATG" in purpose else "platoon"] = e.data.get("weighed")
    return out


@FAST
@given(st.integers(0, 10_000), st.integers(0, 160))
def test_reveal_triggers_are_what_an_activation_tests(seed, steps):
    g = position(seed, steps)
    for h, post in list(g.enemy.items()):
        if POTENTIAL not in (post.platoon, post.atg):
            continue
        due = {k: t.weighed for k, t in enemy.reveal_triggers(g, h).items()}
        assert due == _tested_on_activation(g, h), (seed, steps, g.label(h))
