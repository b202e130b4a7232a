"""Cohesion Levels (CNA 6.21-6.29): caps, collapse, resting, losses, combined levels."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexclass.classroom.cna.capability import Size
from hexclass.classroom.cna.cohesion import (
    CohesionGroup,
    apply_disorganization,
    apply_reorganization,
    combine_cohesion,
    has_heavy_losses,
    is_collapsed,
    rest_recovery,
    round_half_up,
    surrenders,
)
from hexclass.classroom.cna.errors import CNAInputError

levels = st.integers(-40, 10)


def test_6_23_reorganization_stops_at_plus_10():
    assert apply_reorganization(9, 3) == 10
    assert apply_reorganization(10, 5) == 10


def test_6_24_resting_lifts_to_0_at_most_and_never_lowers():
    assert rest_recovery(-7) == -2
    assert rest_recovery(-3) == 0
    assert rest_recovery(0) == 0
    assert rest_recovery(3) == 3


def test_6_21_thirty_percent_is_heavy_and_less_is_not():
    assert has_heavy_losses(10, 3)
    assert not has_heavy_losses(10, 2)
    assert not has_heavy_losses(7, 2)  # 28.6%
    assert has_heavy_losses(7, 3)  # 42.9%
    with pytest.raises(CNAInputError, match="cannot lose 5 TOE Strength Points out of 4"):
        has_heavy_losses(4, 5)


def test_6_26_collapse_begins_at_minus_26():
    assert is_collapsed(-26) and is_collapsed(-31)
    assert not is_collapsed(-25)
    assert surrenders(-26, enemy_combat_unit_adjacent=True)
    assert not surrenders(-26, enemy_combat_unit_adjacent=False)
    assert not surrenders(-25, enemy_combat_unit_adjacent=True)


def test_6_26_there_is_no_floor():
    assert apply_disorganization(-25, 8) == -33


def test_6_27_halves_round_up():
    assert round_half_up(Fraction(-5, 2)) == -2
    assert round_half_up(Fraction(1, 2)) == 1
    assert round_half_up(Fraction(-2, 3)) == -1
    assert round_half_up(Fraction(-4, 3)) == -1


def test_6_27_a_single_largest_unit_prevails():
    units = [
        CohesionGroup("division", Size.DIVISION, cohesion=-8),
        CohesionGroup("brigade", Size.BRIGADE, cohesion=5),
        CohesionGroup("battalion", Size.BATTALION, cohesion=5),
    ]
    result = combine_cohesion(units)
    assert (result.level, result.prevailing) == (-8, ("division",))
    assert "prevails" in result.explain()


def test_6_27_stacking_points_decide_when_given():
    units = [
        CohesionGroup("weak brigade", Size.BRIGADE, cohesion=-9, stacking_points=2),
        CohesionGroup("strong battalion", Size.BATTALION, cohesion=1, stacking_points=3),
    ]
    assert combine_cohesion(units).level == 1
    mixed = [units[0], CohesionGroup("bn", Size.BATTALION, cohesion=0)]
    with pytest.raises(CNAInputError, match="Stacking Points for all the units or for none"):
        combine_cohesion(mixed)


def test_a_group_has_a_level_or_members_not_both():
    with pytest.raises(CNAInputError, match="neither"):
        CohesionGroup("empty", Size.BRIGADE)
    with pytest.raises(CNAInputError, match="both"):
        CohesionGroup(
            "x", Size.BRIGADE, cohesion=0, members=(CohesionGroup("y", Size.BATTALION, cohesion=0),)
        )
    with pytest.raises(CNAInputError, match=r"at most \+10"):
        CohesionGroup("x", Size.BRIGADE, cohesion=11)


@given(levels, st.integers(0, 30))
def test_cohesion_never_exceeds_plus_10(level, rps):
    assert apply_reorganization(level, rps) <= 10
    assert apply_reorganization(level, rps) >= level


@given(levels)
def test_resting_never_passes_zero_and_never_hurts(level):
    after = rest_recovery(level)
    assert level <= after <= max(level, 0)
    assert after - level <= 5


@given(st.lists(levels, min_size=1, max_size=8))
def test_combined_level_lies_within_the_units_levels(values):
    groups = [CohesionGroup(f"u{i}", Size.BRIGADE, cohesion=v) for i, v in enumerate(values)]
    assert min(values) <= combine_cohesion(groups).level <= max(values)
