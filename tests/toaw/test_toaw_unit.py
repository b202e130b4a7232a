"""The unit supply model, rule by rule (TOAW 9.1.7, 9.1.71, 9.1.7.4-9.1.7.6)."""

import numpy as np
import pytest
from toaw_support import strip

from hexclass.classroom.toaw import (
    Activity,
    Bookkeeping,
    Rules,
    Situation,
    SupplyInputError,
    SupplySettings,
    SupplyStatus,
    Terrain,
    UnitKind,
    UnitSupplyState,
    Visibility,
    airborne_resupply_levels,
    bookkeeping_from_field,
    run_turns,
    step_turn,
    supply_field,
)
from hexclass.classroom.toaw.unit import (
    desertion_chance,
    desertion_threshold,
    hq_in_reach,
    readiness_cap,
    receives_replacements,
    resupply_amount,
    rules_for_unit,
)

SUPPLIED = SupplyStatus.SUPPLIED
CUT_OFF = SupplyStatus.UNSUPPLIED
OVER = SupplyStatus.OVEREXTENDED
REST = Activity()


def rng(seed=0):
    return np.random.default_rng(seed)


def turn(state, b=None, a=REST, seed=0):
    return step_turn(
        state, b or Bookkeeping(status=SUPPLIED, location_level=20, high_supply=True), a, rng(seed)
    )


def test_high_supply_removes_the_global_handicap_of_a_third():
    # TOAW 9.1.7.4: net resupply is cut by 33% unless the High Supply option is on
    assert resupply_amount(
        Bookkeeping(location_level=30, high_supply=True), False
    ) == pytest.approx(30)
    assert resupply_amount(Bookkeeping(location_level=30), False) == pytest.approx(20)


@pytest.mark.parametrize(
    "kwargs, moved, factor",
    [
        ({"terrain": Terrain.MARSH}, False, 2 / 3),
        ({"terrain": Terrain.FLOODED_MARSH}, False, 2 / 3),
        ({"terrain": Terrain.MOUNTAIN}, False, 2 / 3),
        ({"terrain": Terrain.HILLS}, False, 1.0),
        ({"night": True}, False, 2 / 3),
        ({}, True, 2 / 3),
        ({"hq_adjacent": True}, False, 1.5),
        ({"formation_efficiency": 80}, False, 0.8),
        (
            {"night": True, "hq_adjacent": True, "terrain": Terrain.MOUNTAIN},
            True,
            (2 / 3) ** 3 * 1.5,
        ),
    ],
)
def test_each_resupply_modifier_multiplies_the_location_level(kwargs, moved, factor):
    # TOAW 9.1.7.2 terrain; 9.1.7.4 night, moved last turn; 9.1.7 HQ bias, formation efficiency
    b = Bookkeeping(location_level=18, high_supply=True, **kwargs)
    assert resupply_amount(b, moved) == pytest.approx(18 * factor)


def test_resupply_stops_at_150_percent_and_does_not_cut_a_higher_start():
    s, _ = turn(UnitSupplyState(supply=140, turn=2))
    assert s.supply == 150
    s, _ = turn(UnitSupplyState(supply=170, turn=2))
    assert s.supply == 170  # may begin above 150, but is not raised further


def test_a_depleted_unit_can_recover_fully_in_one_turn():
    # TOAW 9.1.7.4: the old 50%-per-turn limit is gone
    s, _ = turn(
        UnitSupplyState(supply=1, readiness=33, turn=2),
        Bookkeeping(location_level=200, high_supply=True),
    )
    assert s.supply == 150


def test_first_turn_draws_no_resupply():
    s, report = turn(UnitSupplyState(supply=50, turn=1))
    assert s.supply == 50 and report.resupply == 0
    s, _ = turn(UnitSupplyState(supply=50, turn=2))
    assert s.supply == 70


def test_moving_loses_supply_above_100_but_combat_does_not():
    # TOAW 9.1.7: oversupplied units lose the excess when they move
    rich = UnitSupplyState(supply=140, turn=2)
    b = Bookkeeping(status=SUPPLIED, location_level=0, high_supply=True)
    moved, report = turn(rich, b, Activity(movement_points=3))
    assert moved.supply == 97 and report.excess_lost == 40
    fought, _ = turn(rich, b, Activity(combat_rounds=1))
    assert fought.supply == 130


def test_consumption_costs_1_per_mp_10_per_combat_round_5_per_supporting_round():
    # TOAW 9.1.7.5
    b = Bookkeeping(location_level=0, high_supply=True)
    start = UnitSupplyState(supply=100, turn=2)
    assert turn(start, b, Activity(movement_points=7))[0].supply == 93
    assert turn(start, b, Activity(combat_rounds=3))[0].supply == 70
    assert turn(start, b, Activity(support_rounds=3))[0].supply == 85
    assert turn(start, b, Activity(movement_points=4, movement_rate=2.5))[0].supply == 90


def test_unit_supply_never_drops_below_1_percent():
    # TOAW 9.1.7.6
    s, _ = turn(
        UnitSupplyState(supply=20, turn=2), Bookkeeping(location_level=0), Activity(combat_rounds=9)
    )
    assert s.supply == 1


@pytest.mark.parametrize("days, loss", [(0.25, 0.5), (0.5, 1), (1, 2), (3.5, 7), (7, 14)])
def test_a_unit_without_a_line_loses_a_point_per_half_day(days, loss):
    # TOAW 9.1.7, "Supply Lines"
    s, report = turn(
        UnitSupplyState(supply=90, proficiency=100, turn=2),
        Bookkeeping(status=CUT_OFF, turn_days=days),
    )
    assert report.unsupplied_loss == loss and s.supply == pytest.approx(90 - loss)


def test_readiness_is_capped_by_supply_but_never_below_33():
    # TOAW 9.1.7: readiness <= max(unit supply, 33%)
    assert readiness_cap(60) == 60 and readiness_cap(20) == 33 and readiness_cap(140) == 100
    low = UnitSupplyState(supply=20, readiness=90, turn=2)
    s, _ = turn(low, Bookkeeping(location_level=0, high_supply=True))
    assert s.readiness == 33
    mid = UnitSupplyState(supply=60, readiness=90, turn=2)
    assert turn(mid, Bookkeeping(location_level=0, high_supply=True))[0].readiness == 60


def test_desertion_starts_below_100_minus_proficiency():
    # TOAW 9.1.7, "Desertions"
    assert desertion_threshold(70) == 30
    assert desertion_chance(30, 70, 7) == 0.0
    assert desertion_chance(29, 70, 7) > 0.0
    # proportional to the shortfall and to the turn length
    assert desertion_chance(10, 70, 7) == pytest.approx(2 * desertion_chance(20, 70, 7))
    assert desertion_chance(10, 70, 1) == pytest.approx(desertion_chance(10, 70, 7) / 7)


def test_only_unsupplied_and_overextended_units_desert_and_their_losses_go_to_different_pools():
    # TOAW 9.1.7.6; TOAW 9.1.71: overextended deserters return to the On Hand pool
    weak = UnitSupplyState(supply=5, readiness=33, proficiency=20, equipment=1000, turn=2)
    fed = Bookkeeping(status=SUPPLIED, location_level=0, turn_days=7)
    assert turn(weak, fed)[1].deserted == 0
    over, r1 = turn(weak, Bookkeeping(status=OVER, location_level=0, turn_days=7))
    cut, r2 = turn(weak, Bookkeeping(status=CUT_OFF, turn_days=7))
    assert r1.deserted > 0 and over.on_hand == r1.deserted and over.lost == 0
    assert r2.deserted > 0 and cut.lost == r2.deserted and cut.on_hand == 0
    assert over.equipment == 1000 - r1.deserted


def test_the_same_seed_gives_the_same_desertions():
    weak = UnitSupplyState(supply=5, proficiency=10, equipment=500, turn=2)
    b = Bookkeeping(status=CUT_OFF, turn_days=7)
    runs = [[r.deserted for r in run_turns(weak, b, REST, 6, rng(seed))] for seed in (7, 7, 8)]
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]


def test_airborne_resupply_reaches_a_cut_off_unit_which_still_counts_as_unsupplied():
    # TOAW 9.1.7.4, "Airborne Resupply"
    levels = airborne_resupply_levels(
        20,
        unused_air_capacity=50,
        demand={(0, 0): 50, (3, 0): 50},
        visibility={(3, 0): Visibility.OVERCAST},
    )
    assert levels == {(0, 0): pytest.approx(10), (3, 0): pytest.approx(5)}
    hazy = airborne_resupply_levels(20, 100, {(0, 0): 10}, {(0, 0): Visibility.HAZY})
    assert hazy[(0, 0)] == pytest.approx(20 * 2 / 3)
    unit = UnitSupplyState(supply=10, proficiency=95, equipment=100, turn=2)
    b = Bookkeeping(status=CUT_OFF, airborne_level=12, high_supply=True, turn_days=1)
    s, report = turn(unit, b)
    assert s.supply == pytest.approx(10 - 2 + 12) and report.status is CUT_OFF


def test_replacements_need_supply_and_for_overextended_units_no_desertion():
    # TOAW 9.1.71
    assert receives_replacements(SUPPLIED, 5, 50)
    assert receives_replacements(OVER, 60, 50) and not receives_replacements(OVER, 40, 50)
    assert not receives_replacements(CUT_OFF, 100, 50)


def test_hq_bias_needs_the_hq_with_or_next_to_the_unit():
    assert hq_in_reach((0, 0), [(1, -1)]) and hq_in_reach((0, 0), [(0, 0)])
    assert not hq_in_reach((0, 0), [(2, 0)])


def test_naval_air_and_helicopter_units_keep_the_old_rules():
    # TOAW 9.1.7.3
    assert rules_for_unit(UnitKind.LAND, Rules.NEW) is Rules.NEW
    assert {
        rules_for_unit(k, Rules.NEW) for k in (UnitKind.NAVAL, UnitKind.AIR, UnitKind.HELICOPTER)
    } == {Rules.OLD}


def test_a_unit_cut_off_for_several_weeks_withers():
    # a lesson-style run: the line is cut on turn 2 and stays cut; one-week turns
    m = strip(8)
    sit = Situation().with_source((0, 0)).with_friendly((6, 0))
    cut = sit.with_enemy((3, 0))
    fields = [supply_field(m, sit, SupplySettings(radius=4))] + [
        supply_field(m, cut, SupplySettings(radius=4))
    ] * 5
    plan = [bookkeeping_from_field(f, (6, 0), turn_days=7) for f in fields]
    assert plan[0].status is SUPPLIED and plan[1].status is CUT_OFF
    assert plan[0].location_level == pytest.approx(20 * 1.10 / 1.375**1.5)
    start = UnitSupplyState(supply=80, readiness=80, proficiency=40, equipment=200, turn=2)
    reports = run_turns(start, plan, REST, 6, rng(3))
    supply = [r.supply for r in reports]
    assert supply[1:] == pytest.approx([supply[0] - 14 * k for k in range(1, 6)])
    assert all(r.readiness <= max(r.supply, 33) for r in reports)
    deserting = [r.deserted > 0 for r in reports]
    first_below = next(i for i, r in enumerate(reports) if r.supply < 60)
    assert not any(deserting[:first_below]) and any(deserting[first_below:])


@pytest.mark.parametrize(
    "build, expected",
    [
        (lambda: UnitSupplyState(proficiency=120), "proficiency must be a percentage"),
        (lambda: UnitSupplyState(supply=0), "at least 1"),
        (lambda: UnitSupplyState(turn=0), "numbered from 1"),
        (lambda: Bookkeeping(turn_days=0), "positive number of days"),
        (lambda: Bookkeeping(formation_efficiency=130), "0..100"),
        (lambda: Bookkeeping(status=CUT_OFF, location_level=5), "airborne_level"),
        (lambda: Activity(movement_points=-1), ">= 0"),
        (lambda: airborne_resupply_levels(20, -1, {}), ">= 0"),
    ],
)
def test_impossible_unit_inputs_say_what_was_expected(build, expected):
    with pytest.raises(SupplyInputError, match=expected):
        build()


def test_step_turn_insists_on_a_seeded_generator():
    with pytest.raises(TypeError, match="numpy.random.Generator"):
        step_turn(UnitSupplyState(), Bookkeeping(), REST, 42)
