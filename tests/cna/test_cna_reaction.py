"""Who may React (CNA 8.51-8.54, 6.26)."""

import pytest

from hexclass.classroom.cna.capability import Size, Unit, UnitKind
from hexclass.classroom.cna.reaction import pins, reaction_eligibility, size_may_pin

MOT = Unit("mot bn", UnitKind.INFANTRY, cpa=10, truck_cpa=20)


def tank(cpa, size=Size.BATTALION):
    return Unit(f"tanks {cpa}", UnitKind.ARMOR, cpa=cpa, size=size)


def test_8_53a_non_motorized_units_never_react():
    rnf = Unit("1st RNF", UnitKind.INFANTRY, cpa=8)
    verdict = reaction_eligibility(rnf, tank(25), assault_announced=False)
    assert not verdict.allowed and verdict.rules == ("CNA 8.53a",)


@pytest.mark.parametrize("kind", [UnitKind.TRUCK_CONVOY, UnitKind.SQUADRON_GROUND_SUPPORT])
def test_8_53a_non_combat_units_react_only_when_stacked_with_combat_units(kind):
    unit = Unit("support", kind, cpa=40)
    assert not reaction_eligibility(unit, tank(25), assault_announced=False).allowed
    assert reaction_eligibility(
        unit, tank(25), assault_announced=False, stacked_with_friendly_combat_unit=True
    )


@pytest.mark.parametrize("gap", [-10, 0, 5])
def test_8_53b_a_gap_under_6_never_pins(gap):
    assert reaction_eligibility(MOT, tank(20 + gap), assault_announced=True).allowed


def test_8_53b_a_gap_of_exactly_6_pins_only_with_an_announced_assault():
    assert not reaction_eligibility(MOT, tank(26), assault_announced=True).allowed
    assert reaction_eligibility(MOT, tank(26), assault_announced=False).allowed
    assert reaction_eligibility(MOT, tank(25), assault_announced=True).allowed


def test_8_54_size_limits_on_pinning():
    assert not size_may_pin(Size.BATTALION, Size.DIVISION)
    assert not size_may_pin(Size.COMPANY, Size.BRIGADE)
    assert not size_may_pin(Size.COMPANY, Size.DIVISION)
    assert size_may_pin(Size.COMPANY, Size.BATTALION)
    assert size_may_pin(Size.BATTALION, Size.BRIGADE)
    assert size_may_pin(Size.BRIGADE, Size.DIVISION)
    division = Unit("armoured div", UnitKind.ARMOR, cpa=20, size=Size.DIVISION)
    recce_bn = Unit("recce bn", UnitKind.RECCE, cpa=45)
    assert not pins(recce_bn, division, assault_announced=True)
    verdict = reaction_eligibility(division, recce_bn, assault_announced=True)
    assert verdict.allowed and "CNA 8.54" in verdict.explain()


def test_8_53c_a_unit_already_in_an_enemy_zoc_cannot_react():
    verdict = reaction_eligibility(
        MOT, tank(20), assault_announced=False, already_in_enemy_zoc=True
    )
    assert verdict.rules == ("CNA 8.53c",)


def test_8_53d_a_unit_in_combat_or_engaged_cannot_react():
    verdict = reaction_eligibility(
        MOT, tank(20), assault_announced=False, in_combat_or_engaged=True
    )
    assert verdict.rules == ("CNA 8.53d",)


def test_6_26_a_collapsed_unit_cannot_react():
    verdict = reaction_eligibility(MOT, tank(20), assault_announced=False, cohesion=-26)
    assert verdict.rules == ("CNA 6.26",)


def test_8_51_only_an_enemy_combat_unit_triggers_reaction():
    convoy = Unit("convoy", UnitKind.TRUCK_CONVOY, cpa=40)
    assert reaction_eligibility(MOT, convoy, assault_announced=False).rules == ("CNA 8.51",)


def test_every_blocking_reason_is_listed():
    rnf = Unit("1st RNF", UnitKind.INFANTRY, cpa=8)
    verdict = reaction_eligibility(
        rnf, tank(45), assault_announced=True, already_in_enemy_zoc=True, in_combat_or_engaged=True
    )
    assert verdict.rules == ("CNA 8.53a", "CNA 8.53b", "CNA 8.53c", "CNA 8.53d")
