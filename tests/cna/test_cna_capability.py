"""CPAs: guns at 0 (6.11), CPs lapsing (6.16), trucks (6.17), the 150% cap (8.17)."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexclass.classroom.cna.capability import Function, Unit, UnitKind, formation_cpa, motorized_cpa
from hexclass.classroom.cna.errors import CNAInputError, RuleViolation
from hexclass.classroom.cna.logsheet import UnitLog, end_stage, spend

GUN = Unit("4th RHA battery", UnitKind.GUN, cpa=0)
RNF = Unit("1st RNF", UnitKind.INFANTRY, cpa=8)


def test_6_11_a_cpa_0_gun_counts_as_10_except_for_movement():
    assert GUN.cpa_for(Function.BARRAGE) == 10
    assert GUN.cpa_for(Function.MOVEMENT) == 0
    assert GUN.cpa_for(Function.RETREAT) == 0
    assert GUN.disorganization_cpa == 10


def test_6_11_only_gun_units_get_the_10():
    assert Unit("static HQ", UnitKind.HQ, cpa=0).cpa_for(Function.BARRAGE) == 0
    assert Unit("field guns", UnitKind.GUN, cpa=6).cpa_for(Function.BARRAGE) == 6


def test_6_11_a_cpa_0_gun_earns_dps_only_past_10():
    ten = spend(UnitLog(GUN), Function.BARRAGE, 10).log
    assert ten.cohesion == 0
    assert spend(ten, Function.BARRAGE, 1).log.cohesion == -1


def test_6_11_an_untrucked_cpa_0_gun_cannot_move_by_choice():
    for function in (Function.MOVEMENT, Function.RETREAT_BEFORE_ASSAULT, Function.REACTION):
        with pytest.raises(RuleViolation) as err:
            spend(UnitLog(GUN), function, 1)
        assert err.value.rule == "CNA 6.11" and "cannot move under its own power" in str(err.value)
        assert "150%" not in str(err.value)  # not the foot-unit cap: a gun has no legs at all
    assert spend(UnitLog(GUN.motorized_by(20)), Function.MOVEMENT, 5).log.spent == 5
    forced = spend(UnitLog(GUN), Function.RETREAT, 2).log  # involuntary: allowed
    assert forced.spent == 2 and forced.cohesion == 0


def test_6_16_unused_cps_do_not_carry_over():
    one = spend(UnitLog(RNF), Function.MOVEMENT, 3).log
    closed = end_stage(one)
    assert closed.log.spent == 0 and closed.log.stage == 2
    assert closed.entries[-1].text == "stage 1 over; 5 unused CPs lapse"
    # the next stage starts from the full CPA again, not 8 + 5
    assert spend(closed.log, Function.MOVEMENT, 9).log.cohesion == -1


def test_6_17_only_units_of_cpa_10_or_less_ride_trucks():
    with pytest.raises(RuleViolation) as err:
        Unit("tanks", UnitKind.ARMOR, cpa=25).motorized_by(20)
    assert err.value.rule == "CNA 6.17"
    with pytest.raises(RuleViolation):
        Unit("convoy", UnitKind.TRUCK_CONVOY, cpa=8).motorized_by(20)
    assert motorized_cpa(10, 40) == 40
    with pytest.raises(RuleViolation):
        motorized_cpa(11, 20)


def test_6_17_truck_cpa_is_at_least_20():
    with pytest.raises(CNAInputError, match="at least 20"):
        RNF.motorized_by(15)


def test_6_17_a_trucked_gun_uses_the_truck_cpa_everywhere():
    towed = GUN.motorized_by(20)
    assert towed.cpa_for(Function.MOVEMENT) == towed.cpa_for(Function.BARRAGE) == 20
    assert towed.is_motorized and not GUN.is_motorized


def test_6_15_formation_cpa_needs_members():
    with pytest.raises(CNAInputError, match="at least one unit"):
        formation_cpa([])
    assert formation_cpa([GUN, RNF], Function.BARRAGE) == 8
    assert formation_cpa([GUN, RNF]) == 0


def test_8_17_motorized_units_are_not_capped():
    krrc = Unit("1st KRRC", UnitKind.INFANTRY, cpa=10, truck_cpa=20)
    out = spend(UnitLog(krrc), Function.MOVEMENT, 40)
    assert out.log.cohesion == -20


def test_8_17_the_other_players_portion_is_not_capped_but_counts():
    retreated = spend(UnitLog(RNF), Function.RETREAT_BEFORE_ASSAULT, 14).log
    assert retreated.spent == 14 and retreated.cohesion == -6
    with pytest.raises(RuleViolation) as err:
        spend(retreated, Function.MOVEMENT, 1)  # its own portion: already past 12
    assert err.value.rule == "CNA 8.17"


def test_8_17_barrage_in_the_opponents_portion_is_not_capped():
    out = spend(UnitLog(RNF), Function.BARRAGE, 13, own_portion=False)
    assert out.log.spent == 13
    with pytest.raises(RuleViolation):
        spend(UnitLog(RNF), Function.BARRAGE, 13)


def test_half_cps_earn_dps_only_for_whole_cps_over():
    tanks = UnitLog(Unit("tanks", UnitKind.ARMOR, cpa=15))
    half_over = spend(tanks, Function.MOVEMENT, Fraction(31, 2)).log
    assert half_over.cohesion == 0
    assert spend(half_over, Function.MOVEMENT, 0.5).log.cohesion == -1


@settings(deadline=None)  # up to 12 spends per example: slow on a busy machine, never wrong
@given(
    st.integers(0, 30),
    st.lists(st.integers(0, 12).map(lambda n: Fraction(n, 2)), min_size=1, max_size=12),
)
def test_dps_depend_only_on_the_stage_total_not_how_it_is_split(cpa, amounts):
    log = UnitLog(Unit("tanks", UnitKind.ARMOR, cpa=cpa))
    for a in amounts:
        log = spend(log, Function.OTHER, a, own_portion=False).log
    total = sum(amounts, Fraction(0))
    assert -log.cohesion == max(0, int(total - cpa) if total >= cpa else 0)
    assert log.spent == total
