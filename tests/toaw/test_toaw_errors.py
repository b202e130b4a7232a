"""Impossible supply-map inputs raise SupplyInputError saying what was expected."""

import pytest
from toaw_support import strip

from hexclass.classroom.toaw import (
    HexMap,
    Situation,
    Source,
    SupplyInputError,
    SupplySettings,
    supply_field,
)

M = strip(5)


@pytest.mark.parametrize(
    "build, expected",
    [
        (
            lambda: SupplySettings(radius=-1),
            r"supply radius must be a whole number from 0 to 100 \(TOAW 9.1.7.2\), got -1",
        ),
        (lambda: SupplySettings(radius=101), "from 0 to 100"),
        (lambda: SupplySettings(radius=3.5), "whole number"),
        (lambda: SupplySettings(improved_road_divisor=0), "from 1 to 10"),
        (lambda: SupplySettings(overextended_threshold=-2), ">= 0"),
        (lambda: SupplySettings(force_supply_level=0), "positive"),
        (lambda: SupplySettings(rules="newest"), "'old' or 'new'"),
        (lambda: SupplySettings(force_supply_level="lots"), "positive number"),
        (lambda: Source((0, 0), 0), r"from 1 to 250 \(TOAW 9.1.7.4\), got 0"),
        (lambda: Source((0, 0), 300), "got 300"),
        (lambda: Situation().with_source((0, 0), 251), "from 1 to 250"),
        (lambda: Situation(sources=(Source((0, 0)), Source((0, 0), 50))), "one supply point"),
    ],
)
def test_bad_settings_and_sources(build, expected):
    with pytest.raises(SupplyInputError, match=expected):
        build()


@pytest.mark.parametrize(
    "sit, expected",
    [
        (Situation().with_source((9, 0)), r"supply point \(9, 0\) is off the map"),
        (
            Situation().with_source((0, 0)).with_friendly((0, 3)),
            r"friendly unit \(0, 3\) is off the map",
        ),
        (Situation().with_source((0, 0)).with_enemy((-1, 0)), "enemy unit"),
        (Situation().with_source((0, 0)).with_supply_unit((7, 7)), "supply unit"),
        (Situation().with_source((0, 0)).with_mud((5, 0)), "muddy hex"),
        (Situation().with_friendly((2, 0)).with_enemy((2, 0)), "friendly and enemy"),
    ],
)
def test_positions_off_the_map_or_impossible_are_rejected(sit, expected):
    with pytest.raises(SupplyInputError, match=expected):
        supply_field(M, sit)


def test_units_and_sources_must_stand_on_land():
    m = HexMap.from_ascii(["..~"])
    with pytest.raises(SupplyInputError, match=r"must stand on land, but \(2, 0\) is water"):
        supply_field(m, Situation().with_source((2, 0)))
    with pytest.raises(SupplyInputError, match="a friendly unit must stand on land"):
        supply_field(m, Situation().with_friendly((2, 0)))


def test_settings_must_be_a_settings_object():
    with pytest.raises(TypeError, match="SupplySettings"):
        supply_field(M, Situation(), {"radius": 4})


def test_explaining_an_off_map_hex_is_an_input_error():
    f = supply_field(M, Situation().with_source((0, 0)))
    with pytest.raises(SupplyInputError, match="off the map"):
        f.explain((0, 1))
