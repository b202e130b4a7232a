"""Air strikes and bombardment (Cherbourg 6.2, 8.0, 9.0): the three worked examples and more."""

from fractions import Fraction

import pytest

from hexclass.classroom.cherbourg import (
    AIR,
    ARTILLERY,
    CherbourgInputError,
    Unit,
    UnitType,
    bombardment,
    casualty_chance,
    infantry,
)
from hexclass.classroom.cherbourg.bombardment import artillery_power, bomb_column, bomb_result

GERMANS = [infantry("i1"), infantry("i2"), infantry("i3"), Unit("Pz", UnitType.ARMOUR, 3, 3, 8)]


def test_air_example_of_6_2():
    strike = bombardment(6, GERMANS, AIR, ["clear"])
    assert (strike.vulnerability, strike.value, strike.column_name) == (5, 30, "25-48")
    assert bombardment(6, GERMANS, AIR, ["grove"]).column_name == "1-24"


def test_artillery_example_of_8_0():
    guns = [Unit(f"3-1-4 #{i}", UnitType.ARTILLERY, 3, 1, 4, range=6) for i in (1, 2)]
    target = [Unit("Pz", UnitType.ARMOUR, 3, 3, 8), infantry("i1"), infantry("i2")]
    b = bombardment(artillery_power(guns), target, ARTILLERY, ["clear"])
    assert (b.power, b.vulnerability, b.value, b.column_name) == (6, 5, 30, "25-48")


def test_naval_example_of_9_0_lands_in_the_first_column():
    ship = Unit("USN", UnitType.NAVAL_SUPPORT, 4, 4, 6)
    guns = [
        Unit("3-1-0(15)", UnitType.COASTAL_ARTILLERY, 3, 1, 0, range=15),
        Unit("2-1-4(6)", UnitType.ARTILLERY, 2, 1, 4, range=6),
    ]
    b = bombardment(artillery_power(guns), [ship], ARTILLERY, ["sea"])
    assert (b.power, b.vulnerability, b.value, b.left) == (5, 4, 20, 0)
    assert b.column == 0  # the text names it 13-24; the table's first column is 1-24


def test_rivers_shelter_from_aircraft_but_not_from_guns():
    assert bombardment(6, GERMANS, AIR, ["river"]).column_name == "1-24"
    guns = bombardment(6, [infantry("i1"), infantry("i2"), infantry("i3")], ARTILLERY, ["river"])
    assert guns.value == 36 and guns.column_name == "25-48"


def test_column_edges():
    assert [bomb_column(v) for v in (1, 24, 25, 48, 49, 72, 73, 96, 97, 500)] == [
        0,
        0,
        1,
        1,
        2,
        2,
        3,
        3,
        4,
        4,
    ]


def test_exact_casualty_chance_per_column():
    assert [casualty_chance(c) for c in range(5)] == [Fraction(n, 36) for n in (2, 6, 12, 20, 30)]
    assert bomb_result(4, 7) == "DI" and bomb_result(0, 12) == "DB"


def test_air_strikes_take_three_to_ten_points():
    for bad in (2, 11):
        with pytest.raises(CherbourgInputError, match="3 to 10 air points"):
            bombardment(bad, GERMANS, AIR, ["clear"])


def test_only_guns_bombard_and_there_must_be_a_target():
    with pytest.raises(CherbourgInputError, match="not artillery"):
        artillery_power([infantry("i1")])
    with pytest.raises(CherbourgInputError, match="nothing to bombard"):
        bombardment(5, [], ARTILLERY, ["clear"])
