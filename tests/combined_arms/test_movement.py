"""CA "Movement" (and Figures 3 and 4), one rule per test."""

import pytest

from hexclass.classroom.combined_arms import Enter, Exploit, Move, Withdraw, apply
from hexclass.classroom.combined_arms.movement import destinations

from .helpers import at, ok, reason, sketch

P = "player"
BOTTOM, LOWER_RIGHT, LOWER_LEFT, TOP = 4, 5, 3, 1


def test_platoons_enter_only_on_the_seven_rear_edge_hexes_and_become_spent():
    s = sketch()
    assert "rear-edge" in reason(s, Enter(P, "D1", at(s, "2c")))
    apply(s, Enter(P, "D1", at(s, "1c")))
    assert s.units["D1"].hex == at(s, "1c") and not s.units["D1"].fresh
    assert "already entered" in reason(s, Enter(P, "D1", at(s, "1d")))


def test_spent_platoons_never_move_not_even_to_withdraw():
    # Figure 3: pinned D1 in the woods cannot move even to withdraw
    s = sketch({"1b": "woods"}, {"D1": "1b spent"})
    assert "spent" in reason(s, Move(P, "D1", at(s, "2b")))
    assert "spent" in reason(s, Withdraw(P, "D1"))


def test_move_one_hex_only():
    s = sketch(units={"D1": "2c"})
    ok(s, Move(P, "D1", at(s, "3c")))
    assert "one hex" in reason(s, Move(P, "D1", at(s, "4c")))


def test_rifle_companies_never_share_a_hex():
    # Figure 3: E company cannot deploy into the woods held by D company
    s = sketch({"1b": "woods"}, {"D1": "1b spent", "D2": "1c", "D3": "1c"})
    assert "different companies" in reason(s, Enter(P, "E1", at(s, "1b")))
    assert "different companies" in reason(s, Enter(P, "E1", at(s, "1c")))
    ok(s, Move(P, "D2", at(s, "2d")))  # same company may stack or leave
    apply(s, Move(P, "D2", at(s, "2c")))
    apply(s, Move(P, "D3", at(s, "2d")))
    ok(s, Enter(P, "E1", at(s, "1c")))  # "clears the way for E1 to enter in their wake"


def test_mmgs_stack_freely_but_never_move_once_entered_except_to_withdraw():
    s = sketch(units={"M1": "1e", "E2": "1f"})
    ok(s, Enter(P, "E3", at(s, "1e")))  # Figure 3: E2 and E3 join the MMG
    ok(s, Enter(P, "M2", at(s, "1f")))
    assert "may only withdraw" in reason(s, Move(P, "M1", at(s, "2f")))
    ok(s, Withdraw(P, "M1"))


def test_mmgs_may_not_exploit():
    s = sketch(units={"M1": "9d"})
    assert "may only withdraw" in reason(s, Exploit(P, "M1"))


def test_side_edge_hexes_of_the_middle_rows_are_closed():
    s = sketch(units={"D1": "2a", "D2": "8a"})
    assert "side-edge" in reason(s, Move(P, "D1", at(s, "3a")))
    ok(s, Move(P, "D2", at(s, "9a")))  # rear rows' side edges are open


def test_no_entry_into_an_enemy_counter_hex():
    s = sketch(units={"D1": "4c"}, enemy={"5c": "potential"})
    assert "enemy counter" in reason(s, Move(P, "D1", at(s, "5c")))


@pytest.mark.parametrize("terrain", ["poor", "woods", "wooded_crest"])
def test_armour_keeps_out_of_poor_going_and_woods(terrain):
    s = sketch({"3c": terrain}, {"A1": "2c bottom"})
    assert "armour may not enter" in reason(s, Move(P, "A1", at(s, "3c")))


def test_armour_never_stacks_with_armour_but_may_with_infantry():
    s = sketch(units={"A1": "2c bottom", "A2": "3c bottom", "D1": "3d", "M1": "1c"})
    assert "A2 is already there" in reason(s, Move(P, "A1", at(s, "3c")))
    ok(s, Move(P, "A1", at(s, "3d")))
    ok(s, Move(P, "A1", at(s, "1c"), facing=TOP))


def test_armour_moves_into_its_forward_arc_after_any_turn():
    s = sketch(units={"A1": "3d bottom"})
    ok(s, Move(P, "A1", at(s, "4d")))  # straight on, facing kept
    assert "forward arc" in reason(s, Move(P, "A1", at(s, "3e")))  # beside, no turn
    ok(s, Move(P, "A1", at(s, "3e"), facing=LOWER_RIGHT))  # turn, then into the new arc
    assert "new forward arc" in reason(s, Move(P, "A1", at(s, "2d"), facing=LOWER_RIGHT))
    apply(s, Move(P, "A1", at(s, "3e"), facing=LOWER_RIGHT))
    assert s.units["A1"].facing == LOWER_RIGHT


def test_armour_reverses_only_with_its_facing_unchanged():
    # Figure 4: A1 keeps facing and reverses onto the crest behind it
    s = sketch({"2d": "crest"}, {"A1": "3d bottom"})
    ok(s, Move(P, "A1", at(s, "2d")))
    apply(s, Move(P, "A1", at(s, "2d")))
    assert s.units["A1"].facing == BOTTOM and s.units["A1"].hex == at(s, "2d")


def test_two_hex_road_move_needs_kept_facing_road_hexsides_and_a_clear_road():
    # Figure 4: A2 keeps facing and uses the road A3 has just left
    s = sketch({"3d": "poor"}, {"A2": "2e bottom", "A3": "3e bottom"})
    assert "A3 is already there" in reason(s, Move(P, "A2", at(s, "4f")))
    apply(s, Move(P, "A3", at(s, "4e"), facing=BOTTOM))
    ok(s, Move(P, "A2", at(s, "4f")))
    assert "keeps its facing" in reason(s, Move(P, "A2", at(s, "4f"), facing=LOWER_RIGHT))
    off_road = sketch(units={"A1": "2c bottom"})
    assert "along the road" in reason(off_road, Move(P, "A1", at(off_road, "4c")))


def test_road_move_needs_both_steps_in_the_arc():
    s = sketch(units={"A1": "2e lower_right"})  # arc holds SE and E, but the road turns SW
    assert "both road steps" in reason(s, Move(P, "A1", at(s, "4f")))


def test_armour_enters_facing_into_the_board():
    s = sketch()
    for f in (LOWER_LEFT, BOTTOM, LOWER_RIGHT):
        ok(s, Enter(P, "A1", at(s, "1b"), facing=f))
    assert "forward arc" in reason(s, Enter(P, "A1", at(s, "1b"), facing=TOP))
    assert "choose a facing" in reason(s, Enter(P, "A1", at(s, "1b")))


def test_armour_may_enter_two_hexes_by_road():
    s = sketch()
    ok(s, Enter(P, "A1", at(s, "2e"), facing=BOTTOM))
    assert "both road steps" in reason(s, Enter(P, "A1", at(s, "2e"), facing=LOWER_RIGHT))
    assert "rear-edge" in reason(s, Enter(P, "D1", at(s, "2e")))


def test_withdraw_from_the_rear_edge_and_never_return():
    s = sketch(units={"D1": "1a", "D2": "2a"})
    assert "rear-edge" in reason(s, Withdraw(P, "D2"))
    apply(s, Withdraw(P, "D1"))
    assert s.units["D1"].where == "withdrawn"
    assert "never return" in reason(s, Enter(P, "D1", at(s, "1a")))


def test_armour_withdraws_two_hexes_by_road_facing_back():
    s = sketch(units={"A1": "2e top", "A2": "2d bottom"})
    ok(s, Withdraw(P, "A1"))
    assert "rear-edge" in reason(s, Withdraw(P, "A2"))


def test_exploit_only_from_the_three_central_enemy_edge_hexes():
    s = sketch(units={"D1": "9c", "D2": "9b", "A1": "8e bottom"})
    ok(s, Exploit(P, "D1"))
    assert "3 central" in reason(s, Exploit(P, "D2"))
    ok(s, Exploit(P, "A1"))  # 2 hexes by road off the enemy edge
    apply(s, Exploit(P, "D1"))
    assert s.units["D1"].where == "exploited"


def test_moves_only_in_the_move_phase():
    s = sketch(units={"D1": "2c"}, phase="friendly_fire")
    assert "Friendly Move Phase" in reason(s, Move(P, "D1", at(s, "3c")))


def test_destinations_lists_exactly_the_legal_moves():
    s = sketch({"3c": "woods"}, {"A1": "2c bottom", "D1": "3d"})
    moves = {(v, s.board.label(h) if h else None, f) for v, h, f in destinations(s, s.units["A1"])}
    assert ("move", "3c", None) not in moves  # woods
    assert ("move", "3d", None) in moves  # forward-right, stacking with infantry is fine
    assert ("move", "2d", None) not in moves  # beside it: needs a turn first
    assert ("move", "2d", 0) in moves and ("move", "2d", 5) in moves
    assert ("move", "1c", None) in moves  # reversing, facing kept
    # every listed move passes check, and nothing else within 2 hexes does
    from hexclass.classroom import hexgrid as hg
    from hexclass.classroom.combined_arms import Move as M
    from hexclass.classroom.combined_arms import check

    listed = {(h, f) for v, h, f in destinations(s, s.units["A1"])}
    for h in hg.spiral(at(s, "2c"), 2):
        for f in (None, *range(6)):
            legal = check(s, M(P, "A1", h, f)) is None
            if legal and f is not None and f == s.units["A1"].facing:
                continue  # the same move as facing=None
            assert legal == ((h, f) in listed), (s.board.label(h) if h in s.board.hex_set else h, f)
