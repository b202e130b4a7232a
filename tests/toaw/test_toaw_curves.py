"""The decay curves on their own: the new formula and the old bands (TOAW 9.1.7.2-3)."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from toaw_support import formula

from hexclass.classroom.toaw import (
    OldBand,
    SupplyInputError,
    new_rule_fraction,
    old_rule_band,
    old_rule_fraction,
)

radii = st.integers(1, 100)
strengths = st.integers(1, 250)
distances = st.floats(0, 1000, allow_nan=False)


def test_the_formula_gives_110_percent_right_on_the_supply_point():
    # TOAW 9.1.7.3: the curve starts at 110% on the point itself
    for radius in (1, 4, 25, 100):
        assert new_rule_fraction(0, radius) == pytest.approx(1.10)


def test_the_formula_divides_by_1_375_per_supply_radius():
    # TOAW 9.1.7.3: 1.10 / 1.375 ** (distance / radius), the manual's radius-25 curve
    assert new_rule_fraction(25, 25) == pytest.approx(0.80)
    assert new_rule_fraction(50, 25) == pytest.approx(1.10 / 1.375**2)
    assert new_rule_fraction(10, 25) == pytest.approx(formula(10, 25))
    assert new_rule_fraction([0, 25, 50], 25) == pytest.approx([1.10, 0.80, 1.10 / 1.890625])


def test_variable_supply_points_scale_the_curve():
    # TOAW 9.1.7.4: points may be set from 1% to 250% of full
    assert new_rule_fraction(0, 4, strength=250) == pytest.approx(2.75)
    assert new_rule_fraction(4, 4, strength=50) == pytest.approx(0.40)


def test_manual_example_supply_unit_makes_14_mps_count_as_9():
    # TOAW 9.1.7.3: radius 5, supply unit 10 MPs out, unit 4 MPs further: 14 MPs read as 9
    enhanced = new_rule_fraction(14, 5, near_supply_unit=True)
    assert enhanced == pytest.approx(formula(9, 5))
    assert new_rule_fraction(14, 5) == pytest.approx(formula(14, 5))
    assert enhanced > new_rule_fraction(14, 5)


def test_supply_unit_curve_is_clipped_at_110_percent():
    # TOAW 9.1.7.3: with supply units the curve never goes past 110%
    d = np.linspace(0, 100, 401)
    curve = new_rule_fraction(d, 25, near_supply_unit=True)
    assert curve.max() == pytest.approx(1.10)
    assert np.all(curve[d <= 25] == pytest.approx(1.10))
    assert curve[d > 25].max() < 1.10


def test_radius_zero_supplies_only_the_point_itself():
    assert list(new_rule_fraction([0, 0.5, 3], 0)) == [pytest.approx(1.10), 0.0, 0.0]


def test_old_bands_are_100_75_50_25_percent():
    # TOAW 9.1.7.2
    assert [
        b.fraction for b in (OldBand.FULL, OldBand.NORMAL, OldBand.LIMITED, OldBand.MINIMAL)
    ] == [
        1.0,
        0.75,
        0.5,
        0.25,
    ]
    assert OldBand.NONE.fraction == 0.0


def test_old_curve_along_a_road_is_full_for_a_radius_then_normal():
    # TOAW 9.1.7.2 with the default radius of four hexes
    assert list(old_rule_fraction(range(7), 4, "road")) == [1, 1, 1, 1, 1, 0.75, 0.75]
    assert list(old_rule_fraction(range(4), 4, "open")) == [1, 0.75, 0.75, 0.75]
    assert list(old_rule_fraction(range(7), 4, "rough")) == [1, 0.5, 0.5, 0.5, 0.5, 0.25, 0.25]


def test_old_curve_with_supply_units_reaches_a_radius_further():
    assert list(old_rule_band([4, 5, 8, 9], 4, "road", with_supply_unit=True)) == [4, 4, 4, 3]
    assert list(old_rule_band([8, 9], 4, "rough", with_supply_unit=True)) == [2, 1]


@given(distances, distances, radii, strengths, st.booleans())
def test_new_supply_never_rises_with_distance(d1, d2, radius, strength, near):
    lo, hi = sorted((d1, d2))
    assert new_rule_fraction(hi, radius, strength, near) <= new_rule_fraction(
        lo, radius, strength, near
    )


@given(
    distances,
    distances,
    st.integers(0, 100),
    st.sampled_from(["road", "open", "rough"]),
    st.booleans(),
)
def test_old_supply_never_rises_with_distance(d1, d2, radius, route, su):
    lo, hi = sorted((d1, d2))
    assert old_rule_fraction(hi, radius, route, su) <= old_rule_fraction(lo, radius, route, su)


@given(distances, radii, strengths)
def test_a_supply_unit_never_lowers_supply_and_never_lifts_past_110_percent_of_the_point(
    d, radius, s
):
    with_su = float(new_rule_fraction(d, radius, s, near_supply_unit=True))
    without = float(new_rule_fraction(d, radius, s))
    assert with_su >= without
    assert with_su <= 1.10 * s / 100 + 1e-12
    assert math.isclose(with_su, float(new_rule_fraction(max(d - radius, 0), radius, s)))


@pytest.mark.parametrize(
    "kwargs, expected",
    [
        ({"distance": 1, "radius": -1}, "from 0 to 100"),
        ({"distance": 1, "radius": 101}, "from 0 to 100"),
        ({"distance": 1, "radius": 2.5}, "whole number"),
        ({"distance": 1, "radius": 4, "strength": 0}, "from 1 to 250"),
        ({"distance": 1, "radius": 4, "strength": 251}, "from 1 to 250"),
        ({"distance": -3, "radius": 4}, ">= 0"),
    ],
)
def test_impossible_curve_inputs_say_what_was_expected(kwargs, expected):
    with pytest.raises(SupplyInputError, match=expected):
        new_rule_fraction(**kwargs)


def test_unknown_old_route_is_rejected():
    with pytest.raises(SupplyInputError, match="'road', 'open' or 'rough'"):
        old_rule_band(3, 4, "swamp")
