"""Breaking off (8.6x), the two-hex rule (8.23) and rail movement (8.7x)."""

import pytest

from hexclass.classroom.cna.errors import CNAInputError
from hexclass.classroom.cna.initiative import Side
from hexclass.classroom.cna.movement import (
    Engagement,
    Occasion,
    break_off_cost,
    engagement_at_segment_start,
    may_move_again,
    rail_movement_eligibility,
)


@pytest.mark.parametrize(
    ("status", "occasion", "cost"),
    [
        (Engagement.NONE, Occasion.MOVEMENT_SEGMENT, 0),
        (Engagement.CONTACT, Occasion.MOVEMENT_SEGMENT, 2),
        (Engagement.ENGAGED, Occasion.MOVEMENT_SEGMENT, 4),
        (Engagement.CONTACT, Occasion.RETREAT_BEFORE_ASSAULT, 2),
        (Engagement.ENGAGED, Occasion.RETREAT_BEFORE_ASSAULT, 4),
        (Engagement.CONTACT, Occasion.REACTION, 0),
        (Engagement.ENGAGED, Occasion.REACTION, 0),
    ],
)
def test_break_off_costs(status, occasion, cost):
    assert break_off_cost(status, occasion) == cost


def test_engaged_counts_even_outside_a_zoc():
    assert (
        engagement_at_segment_start(in_enemy_zoc=False, engaged_marker=True) is Engagement.ENGAGED
    )
    assert engagement_at_segment_start(in_enemy_zoc=True, engaged_marker=True) is Engagement.ENGAGED
    assert (
        engagement_at_segment_start(in_enemy_zoc=True, engaged_marker=False) is Engagement.CONTACT
    )
    assert engagement_at_segment_start(in_enemy_zoc=False, engaged_marker=False) is Engagement.NONE


def test_break_off_cost_rejects_strings():
    with pytest.raises(CNAInputError, match="Engagement.CONTACT"):
        break_off_cost("contact", Occasion.REACTION)


def test_8_23_two_hexes_away_may_move_again_three_may_not():
    assert may_move_again((0, 0), [(2, -1)], moved_this_phase=True).allowed
    stuck = may_move_again((0, 0), [(3, 0), (0, 4)], moved_this_phase=True)
    assert not stuck.allowed and stuck.rules == ("CNA 8.23",)
    assert "3 hexes away" in stuck.explain()


def test_8_23_reserves_and_unmoved_units_are_free():
    assert may_move_again((0, 0), [(5, 0)], moved_this_phase=True, in_reserve=True).allowed
    assert may_move_again((0, 0), [(5, 0)], moved_this_phase=False).allowed


def test_8_23_with_no_enemy_on_the_map_a_moved_unit_stops():
    assert not may_move_again((0, 0), [], moved_this_phase=True).allowed


def test_8_73_rail_needs_a_fresh_commonwealth_unit_on_the_line():
    assert rail_movement_eligibility(
        Side.COMMONWEALTH,
        started_stage_on_rail_hex=True,
        cps_spent_this_stage=0,
        in_enemy_zoc=False,
    )
    refused = rail_movement_eligibility(
        Side.AXIS,
        started_stage_on_rail_hex=False,
        cps_spent_this_stage=1,
        in_enemy_zoc=True,
        rail_moves_used=1,
    )
    assert refused.rules == ("CNA 8.71", "CNA 8.73", "CNA 8.73", "CNA 8.73", "CNA 8.72")
