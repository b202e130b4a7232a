"""Old supply rules on small maps: the four bands (TOAW 9.1.7.2) and the overextended state."""

import numpy as np
import pytest
from toaw_support import strip

from hexclass.classroom.toaw import (
    HexMap,
    OldBand,
    Situation,
    SupplySettings,
    old_rule_band,
    supply_field,
)


def old(radius=4, **kw):
    return SupplySettings(rules="old", radius=radius, **kw)


def row(field, n):
    return [field.at((q, 0)) for q in range(n)]


SOURCE = Situation().with_source((0, 0))


def test_a_road_from_the_supply_point_is_full_for_a_radius_then_normal():
    # TOAW 9.1.7.2: full along roads to the force supply radius (default four hexes);
    # open country beyond carries normal supply at any range
    f = supply_field(strip(8, ".", "r"), SOURCE, old())
    assert row(f, 8) == [1, 1, 1, 1, 1, 0.75, 0.75, 0.75]
    assert "full supply" in f.explain((3, 0)).text()


def test_the_fully_supplied_net_starts_from_the_end_of_the_railway():
    m = HexMap.from_ascii(["." * 12], ["RRRRRRR....."]).with_road_along(
        [(q, 0) for q in range(6, 12)]
    )
    f = supply_field(m, SOURCE, old(radius=2))
    assert row(f, 12) == [1] * 9 + [0.75] * 3


def test_damaged_rail_stops_the_rail_net():
    m = HexMap.from_ascii(["." * 12], ["RRRRRRR....."]).with_road_along(
        [(q, 0) for q in range(6, 12)]
    )
    f = supply_field(m, SOURCE.with_rail_damage((3, 0)), old(radius=2))
    assert row(f, 12) == [1, 1, 1] + [0.75] * 9


def test_rough_country_is_limited_within_a_radius_and_minimal_beyond():
    # TOAW 9.1.7.2: limited within a radius of a full/normal hex, minimal at any range
    f = supply_field(strip(8, "h"), SOURCE, old(radius=2))
    assert row(f, 8) == [1, 0.5, 0.5, 0.25, 0.25, 0.25, 0.25, 0.25]
    assert "limited" in f.explain((2, 0)).text() and "minimal" in f.explain((5, 0)).text()


def test_urban_hexes_carry_the_full_net_and_past_its_radius_still_carry_normal():
    f = supply_field(HexMap.from_ascii(["uuuuuu.."]), SOURCE, old(radius=4))
    # (5, 0) is urban past the radius: a town carries supply at least as well as open
    # ground, so it and the open hexes beyond it are normal (docs/rules-notes.md)
    assert row(f, 8) == [1, 1, 1, 1, 1, 0.75, 0.75, 0.75]


def test_a_town_past_the_radius_is_never_worse_off_than_the_fields_beside_it():
    f = supply_field(HexMap.from_ascii(["........u."], ["rrrrrrrrr."]), SOURCE, old(radius=2))
    assert row(f, 10)[7:] == [0.75, 0.75, 0.75]  # open, town, open: all normal
    hills = supply_field(HexMap.from_ascii(["........h."]), SOURCE, old(radius=2))
    assert row(hills, 10)[7:] == [0.75, 0.5, 0.5]  # hills carry only the limited band


def test_a_muddy_road_does_not_carry_full_supply_but_an_improved_road_does():
    muddy = SOURCE.with_mud((2, 0))
    assert row(supply_field(strip(6, ".", "r"), muddy, old()), 6) == [1, 1, 0.75, 0.75, 0.75, 0.75]
    assert row(supply_field(strip(6, ".", "i"), muddy, old()), 6) == [1, 1, 1, 1, 1, 0.75]


def test_enemy_controlled_hexes_break_the_full_and_normal_nets():
    sit = SOURCE.with_control((2, 0), enemy=True)
    assert row(supply_field(strip(7, ".", "r"), sit, old()), 7) == [1, 1, 0.5, 0.5, 0.5, 0.5, 0.25]


def test_a_supply_unit_lets_the_radius_reach_twice_as_far_nearby():
    # reading of TOAW 9.1.7.3 "one supply radius closer" under the old rules (notes-toaw.md)
    sit = SOURCE.with_supply_unit((4, 0))
    f = supply_field(strip(10, "h"), sit, old(radius=2))
    assert row(f, 10) == [1, 0.5, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25, 0.25, 0.25]
    assert f.explain((4, 0)).supply_unit == (4, 0)


@pytest.mark.parametrize(
    "route, terrain, features", [("road", ".", "r"), ("open", ".", "."), ("rough", "h", ".")]
)
@pytest.mark.parametrize("radius", [0, 1, 2, 4])
@pytest.mark.parametrize("su", [False, True])
def test_the_old_curve_functions_match_the_map_model_on_a_strip(
    route, terrain, features, radius, su
):
    n = 14
    sit = SOURCE
    if su:
        for q in range(n):
            sit = sit.with_supply_unit((q, 0))
    f = supply_field(strip(n, terrain, features), sit, old(radius=radius))
    assert list(f.band[0]) == list(old_rule_band(np.arange(n), radius, route, with_supply_unit=su))


def test_manual_example_threshold_6_makes_levels_of_5_or_lower_overextended():
    # TOAW 9.1.71: with a threshold of 6, levels 5 and below are overextended
    sit = SOURCE
    f = supply_field(
        strip(8, "h"), sit, old(radius=2, force_supply_level=20, overextended_threshold=6)
    )
    assert list(f.shown_level[0]) == [20, 10, 10, 5, 5, 5, 5, 5]
    assert [f.status_at((q, 0)).value for q in (0, 2, 3)] == [
        "supplied",
        "supplied",
        "overextended",
    ]
    assert "Overextended" in f.explain((3, 0)).text()
    at_six = supply_field(
        strip(8, "h"), sit, old(radius=2, force_supply_level=24, overextended_threshold=6)
    )
    assert at_six.status_at((3, 0)).value == "supplied"  # level 6 is not below 6


def test_the_default_threshold_of_zero_never_overextends():
    f = supply_field(strip(30, "h"), SOURCE, old(radius=1, force_supply_level=1))
    assert not f.overextended.any()
    assert f.band[0, -1] == OldBand.MINIMAL


def test_new_rules_overextension_compares_the_shown_whole_number():
    f = supply_field(
        strip(30), SOURCE, SupplySettings(radius=4, force_supply_level=20, overextended_threshold=6)
    )
    shown = f.shown_level[0]
    status = [f.status_at((q, 0)).value for q in range(30)]
    assert all((s == "overextended") == (lv < 6) for s, lv in zip(status, shown, strict=True))
    assert "overextended" in status and status[0] == "supplied"
