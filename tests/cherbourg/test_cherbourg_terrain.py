"""Terrain: movement costs and the defender's columns (Cherbourg 4.0, 4.1.2, 5.1.2)."""

import pytest

from hexclass.classroom.cherbourg import CherbourgInputError, path_cost, terrain_shift
from hexclass.classroom.cherbourg.terrain import dominant_ground, movement_cost


def test_the_movement_example_of_4_0_costs_six():
    assert path_cost(["clear", "bocage", "river", "grove"], motorised=False) == 6


def test_motorised_units_pay_their_own_column():
    assert movement_cost("road", True) == 0.5 and movement_cost("road", False) == 1
    assert path_cost(["grove", "bocage"], motorised=True) == 6
    with pytest.raises(CherbourgInputError, match="swamp may not be entered by motorised"):
        path_cost(["clear", "swamp"], motorised=True)
    assert path_cost(["swamp"], motorised=False) == 2


def test_only_the_best_terrain_in_the_hex_counts():
    assert terrain_shift(["clear"]) == 0
    assert terrain_shift(["village", "grove"]) == 1  # not 2
    assert terrain_shift(["village", "river"]) == 2
    assert terrain_shift(["city", "fortification"]) == 3


def test_bocage_is_worth_four_columns_against_armour():
    assert terrain_shift(["bocage"]) == 2
    assert terrain_shift(["bocage"], attacker_has_armour=True) == 4
    assert terrain_shift(["bocage", "fortification"], attacker_has_armour=True) == 4
    assert terrain_shift(["rough"], attacker_has_armour=True) == 2  # only bocage changes


def test_dominant_ground_example_of_4_1_2():
    assert dominant_ground(["rough"], ["clear"])  # need neither attack nor break contact
    assert not dominant_ground(["clear"], ["rough"])
    assert not dominant_ground(["village"], ["grove"])  # equal is not dominant
    assert dominant_ground(["clear"], ["city"], axis_in_fort=True)


def test_unknown_terrain_is_refused_with_the_list():
    with pytest.raises(CherbourgInputError, match="unknown terrain 'jungle'.*bocage"):
        terrain_shift(["jungle"])
