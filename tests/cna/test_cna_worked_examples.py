"""Every worked example in CNA 6.1x-6.2x, 7.1x and 8.1x-8.5x, one test each."""

from fractions import Fraction

from hexclass.classroom.cna.capability import (
    MEDIUM_TRUCK_CPA,
    Function,
    Size,
    Unit,
    UnitKind,
    formation_cpa,
    slowest_members,
    voluntary_cp_limit,
)
from hexclass.classroom.cna.cohesion import (
    CohesionGroup,
    apply_disorganization,
    apply_reorganization,
    combine_cohesion,
    rest_recovery,
)
from hexclass.classroom.cna.errors import RuleViolation
from hexclass.classroom.cna.initiative import (
    InitiativeDeclarations,
    Role,
    Side,
    initiative_from_rolls,
)
from hexclass.classroom.cna.logsheet import EntryKind, UnitLog, end_stage, spend
from hexclass.classroom.cna.reaction import reaction_eligibility

RNF = Unit("1st RNF", UnitKind.INFANTRY, cpa=8)  # non-motorized MG battalion, Sept 1940


def test_6_14_rnf_has_two_cps_left_after_retreating_before_assault():
    # The Italians move first; the RNF retreats three hexes before assault for 6 CPs.
    after_retreat = spend(UnitLog(RNF), Function.RETREAT_BEFORE_ASSAULT, 6).log
    assert after_retreat.remaining == 2
    # Those CPs count in the Commonwealth's own portion of the same stage:
    two_more = spend(after_retreat, Function.MOVEMENT, 2).log
    assert two_more.cohesion == 0
    assert spend(two_more, Function.MOVEMENT, 1).log.cohesion == -1


def test_6_15_seventh_armoured_division_moves_at_its_slowest_units_cpa():
    division = [
        Unit("7th Hussars", UnitKind.ARMOR, cpa=25),
        Unit("1st RTR", UnitKind.ARMOR, cpa=25),
        Unit("11th Hussars", UnitKind.RECCE, cpa=45),
        Unit("1st KRRC", UnitKind.INFANTRY, cpa=10),  # without trucks
    ]
    assert formation_cpa(division) == 10
    assert [u.name for u in slowest_members(division)] == ["1st KRRC"]


def test_6_17_rnf_in_medium_trucks_has_cpa_20():
    assert RNF.cpa_for(Function.MOVEMENT) == 8
    assert RNF.motorized_by(MEDIUM_TRUCK_CPA).cpa_for(Function.MOVEMENT) == 20


def test_6_21_cpa_15_using_18_cps_earns_three_dps():
    out = spend(UnitLog(Unit("tanks", UnitKind.ARMOR, cpa=15)), Function.MOVEMENT, 18)
    assert out.log.cohesion == -3
    dp = [e for e in out.entries if e.kind is EntryKind.DISORGANIZATION]
    assert [(e.dps, e.rule) for e in dp] == [(3, "CNA 6.21")]
    assert dp[0].line() == "-3 DPs: spent 18 of CPA 15 this stage (CNA 6.21)"


def test_6_22_minus_one_with_three_dps_is_minus_four():
    assert apply_disorganization(-1, 3) == -4


def test_6_22_rnf_assault_dps_land_before_the_assault_is_resolved():
    log = UnitLog(RNF, cohesion=-2)
    moved = spend(log, Function.MOVEMENT, 5)
    assert moved.log.cohesion == -2
    assault = spend(moved.log, Function.CLOSE_ASSAULT, 5)
    assert assault.log.cohesion == -4  # the level used for Morale in that very assault
    assert [e.dps for e in assault.entries] == [0, 2]


def test_6_23_minus_three_with_five_rps_is_plus_two():
    assert apply_reorganization(-3, 5) == 2


def test_6_24_minus_one_resting_a_whole_stage_ends_at_zero_not_plus_four():
    assert rest_recovery(-1) == 0
    out = end_stage(UnitLog(RNF, cohesion=-1))
    assert out.log.cohesion == 0
    assert out.entries[0].rps == 1 and out.entries[0].rule == "CNA 6.24"


def test_6_27_three_brigades_at_minus_4_minus_1_plus_3_fight_at_minus_1():
    brigades = [
        CohesionGroup(f"brigade {i}", Size.BRIGADE, cohesion=c) for i, c in enumerate((-4, -1, 3))
    ]
    result = combine_cohesion(brigades)
    assert result.average == Fraction(-2, 3)
    assert result.level == -1


def test_6_28_a_brigades_own_battalions_are_combined_before_the_brigades_are():
    # CNA 6.28 gives no numbers; battalions at -9, -9 and 0 make their brigade -6.
    mixed = CohesionGroup(
        "brigade C",
        Size.BRIGADE,
        members=tuple(CohesionGroup(f"bn {c}", Size.BATTALION, cohesion=c) for c in (-9, -9, 0)),
    )
    division = CohesionGroup(
        "division",
        Size.DIVISION,
        members=(
            CohesionGroup("brigade A", Size.BRIGADE, cohesion=0),
            CohesionGroup("brigade B", Size.BRIGADE, cohesion=-3),
            mixed,
        ),
    )
    # Brigade by brigade: (0 - 3 - 6) / 3 = -3. Pooling all five units would give -4.
    assert combine_cohesion([mixed]).level == -6
    assert combine_cohesion([division]).level == -3
    assert combine_cohesion(division.members).prevailing == ("brigade A", "brigade B", "brigade C")


def test_8_17_non_motorized_cap_is_12_for_cpa_8_and_15_for_cpa_10():
    assert voluntary_cp_limit(RNF, Function.MOVEMENT) == 12
    assert voluntary_cp_limit(Unit("1st KRRC", UnitKind.INFANTRY, cpa=10), Function.MOVEMENT) == 15
    at_12 = spend(UnitLog(RNF), Function.MOVEMENT, 12).log
    try:
        spend(at_12, Function.MOVEMENT, 1)
    except RuleViolation as exc:
        assert exc.rule == "CNA 8.17"
    else:
        raise AssertionError("a 13th voluntary CP was allowed")


MOT_BN = Unit("motorized infantry bn", UnitKind.INFANTRY, cpa=10).motorized_by(MEDIUM_TRUCK_CPA)


def test_8_53b_motorized_battalion_may_react_to_a_cpa_25_tank_battalion():
    tanks = Unit("tank bn", UnitKind.ARMOR, cpa=25)
    assert reaction_eligibility(MOT_BN, tanks, assault_announced=True).allowed


def test_8_53b_motorized_battalion_is_pinned_by_a_cpa_45_recce_battalion():
    recce = Unit("recce bn", UnitKind.RECCE, cpa=45)
    verdict = reaction_eligibility(MOT_BN, recce, assault_announced=True)
    assert not verdict.allowed
    assert verdict.rules == ("CNA 8.53b",)


def test_8_53b_light_trucks_with_cpa_40_stacked_with_it_may_still_react():
    recce = Unit("recce bn", UnitKind.RECCE, cpa=45)
    trucks = Unit("2nd Line Light Trucks", UnitKind.TRUCK_CONVOY, cpa=40)
    verdict = reaction_eligibility(
        trucks, recce, assault_announced=True, stacked_with_friendly_combat_unit=True
    )
    assert verdict.allowed


def test_7_14_italians_5_beat_the_commonwealths_4():
    ratings = {Side.AXIS: 1, Side.COMMONWEALTH: 3}  # October 1940
    result = initiative_from_rolls(ratings, [(4, 1)])
    assert (result.rounds[0].axis_total, result.rounds[0].commonwealth_total) == (5, 4)
    assert result.winner is Side.AXIS


def test_7_12_first_last_first_gives_the_holder_two_portions_in_a_row():
    plan = InitiativeDeclarations(Side.AXIS, (Role.A, Role.B, Role.A))
    order = [side for _, _, side in plan.phasing_order()]
    assert order == [
        Side.AXIS,
        Side.COMMONWEALTH,
        Side.COMMONWEALTH,
        Side.AXIS,
        Side.AXIS,
        Side.COMMONWEALTH,
    ]
    assert plan.back_to_back() == [(Side.COMMONWEALTH, 1), (Side.AXIS, 2)]
