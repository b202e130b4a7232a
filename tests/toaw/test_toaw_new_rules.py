"""New supply rules on small maps (TOAW 9.1.7.3 and 9.1.7.4), one rule per test."""

import numpy as np
import pytest
from toaw_support import formula, strip

from hexclass.classroom.toaw import HexMap, HexsideFeature, Situation, SupplySettings, supply_field


def new(radius=4, **kw):
    return SupplySettings(rules="new", radius=radius, **kw)


def row(field, n):
    return [field.at((q, 0)) for q in range(n)]


def test_manual_example_radius_5_supply_unit_turns_14_mps_into_9():
    # TOAW 9.1.7.3: radius 5 MPs; the supply unit is 10 MPs from the supply point and the
    # unit 4 MPs beyond it, so the unit's 14 MPs are treated as 9.
    sit = Situation().with_source((0, 0)).with_supply_unit((10, 0)).with_friendly((14, 0))
    f = supply_field(strip(15), sit, new(radius=5))
    assert f.at((14, 0)) == pytest.approx(formula(9, 5))
    why = f.explain((14, 0))
    assert (why.distance, why.effective_distance, why.supply_unit) == (14, 9, (10, 0))
    assert "9 MPs" in why.text() and "(TOAW 9.1.7.3)" in why.text()
    # without the supply unit the same hex reads the full 14 MPs
    plain = supply_field(strip(15), sit.without_supply_unit((10, 0)), new(radius=5))
    assert plain.at((14, 0)) == pytest.approx(formula(14, 5))
    # a hex more than a radius from the supply unit is not helped
    assert f.at((4, 0)) == pytest.approx(formula(4, 5))


def test_the_supply_point_hex_gets_110_percent():
    # TOAW 9.1.7.3: the point's own hex reads 110%
    f = supply_field(strip(3), Situation().with_source((0, 0)), new(force_supply_level=20))
    assert f.at((0, 0)) == pytest.approx(1.10)
    assert f.level_at((0, 0)) == pytest.approx(22.0)
    assert f.shown_level[0, 0] == 22


def test_open_ground_decays_by_the_formula_one_mp_per_hex():
    f = supply_field(strip(9), Situation().with_source((0, 0)), new(radius=4))
    assert row(f, 9) == pytest.approx([formula(d, 4) for d in range(9)])


def test_supply_unit_effect_is_clipped_at_110_percent():
    # TOAW 9.1.7.3: a supply unit on the supply point: everything within a radius reads 110%
    sit = Situation().with_source((0, 0)).with_supply_unit((0, 0))
    f = supply_field(strip(9), sit, new(radius=4))
    # past the radius the supply unit no longer reaches, and the plain formula applies
    assert row(f, 9) == pytest.approx([1.10] * 5 + [formula(d, 4) for d in range(5, 9)])
    assert f.fraction.max() == pytest.approx(1.10)


def test_the_best_point_wins_even_when_it_is_further_away():
    # TOAW 9.1.7.4: a 200% point 8 MPs away beats a 100% point 4 MPs away
    sit = Situation().with_source((0, 0), 100).with_source((12, 0), 200)
    f = supply_field(strip(13), sit, new(radius=4))
    assert f.at((4, 0)) == pytest.approx(formula(8, 4, 200))
    assert f.explain((4, 0)).source == (12, 0)
    assert f.at((1, 0)) == pytest.approx(formula(1, 4, 100))
    assert f.explain((1, 0)).source == (0, 0)


def test_variable_strength_scales_the_whole_field():
    weak = supply_field(strip(6), Situation().with_source((0, 0), 40), new())
    strong = supply_field(strip(6), Situation().with_source((0, 0), 250), new())
    assert row(strong, 6) == pytest.approx([x * 250 / 40 for x in row(weak, 6)])


RAIL = HexMap.from_ascii([".........."] * 2, ["RRRRRRRRRR", ".........."])


def test_a_rail_line_broadcasts_its_strongest_source_over_every_rail_hex():
    # TOAW 9.1.7.3: every hex of an unbroken line counts as the (strongest) supply point
    sit = Situation().with_source((0, 0), 100).with_source((9, 0), 150)
    f = supply_field(RAIL, sit, new(radius=2))
    assert row(f, 10) == pytest.approx([1.65] * 10)
    why = f.explain((5, 0))
    assert (why.source, why.trace_start) == ((9, 0), (5, 0))
    assert "rail hex (5, 0)" in why.text()
    # one step off the line, in row 1
    assert f.at((0, 1)) == pytest.approx(formula(1, 2, 150))


def test_a_broken_rail_line_splits_the_broadcast():
    sit = Situation().with_source((0, 0), 100).with_source((9, 0), 150)
    f = supply_field(RAIL, sit.with_rail_damage((5, 0)), new(radius=2))
    assert row(f, 10)[:4] == pytest.approx([1.10] * 4)  # the 100% line
    assert row(f, 10)[6:] == pytest.approx([1.65] * 4)  # the 150% line
    # (5, 0) and (4, 0) are better served by the 150% line 1 and 2 MPs away
    assert f.at((5, 0)) == pytest.approx(formula(1, 2, 150))
    assert f.at((4, 0)) == pytest.approx(formula(2, 2, 150))
    assert f.explain((4, 0)).trace_start == (6, 0)


def test_an_enemy_beside_the_rail_cuts_it_too():
    sit = Situation().with_source((0, 0), 100).with_source((9, 0), 150).with_enemy((4, 1))
    f = supply_field(RAIL, sit, new(radius=2))
    # (4, 1) touches (4, 0) and (5, 0): both blocked, so the line breaks in two
    assert f.status_at((4, 0)).value == "unsupplied"
    assert f.at((2, 0)) == pytest.approx(1.10)
    assert f.at((7, 0)) == pytest.approx(1.65)


@pytest.mark.parametrize(
    "features, divisor, mps",
    [(".", 1, 8), (".", 2, 16), ("r", 1, 4), ("r", 2, 8), ("i", 1, 4), ("i", 2, 4)],
    ids=["open", "open/2", "road", "road/2", "improved", "improved/2"],
)
def test_the_improved_road_divisor_multiplies_every_other_cost(features, divisor, mps):
    # TOAW 9.1.7.3: costs off improved roads are multiplied by the divisor
    f = supply_field(
        strip(9, ".", features), Situation().with_source((0, 0)), new(improved_road_divisor=divisor)
    )
    assert f.explain((8, 0)).distance == mps
    assert f.at((8, 0)) == pytest.approx(formula(mps, 4))


def test_mud_doubles_the_cost_of_entering_a_hex():
    f = supply_field(strip(5), Situation().with_source((0, 0)).with_mud((2, 0)), new())
    assert f.explain((4, 0)).distance == 5


def test_terrain_costs_come_from_the_table():
    f = supply_field(HexMap.from_ascii([".hfm"]), Situation().with_source((0, 0)), new())
    assert [f.explain((q, 0)).distance for q in range(4)] == [0, 2, 5, 9]


@pytest.mark.parametrize("terrain", ["b", "d", "S"], ids=["badlands", "dunes", "flooded marsh"])
def test_terrain_the_supply_unit_cannot_enter_gets_a_quarter_of_its_neighbour(terrain):
    # TOAW 9.1.7.3: a quarter of the supply of an adjacent normally supplied hex
    f = supply_field(
        HexMap.from_ascii(["..." + terrain + terrain]), Situation().with_source((0, 0)), new()
    )
    assert f.at((3, 0)) == pytest.approx(0.25 * formula(2, 4))
    assert f.status_at((3, 0)).value == "supplied"
    assert "quarter" in f.explain((3, 0)).text()
    assert f.at((4, 0)) == 0.0  # its neighbours were not reached by the supply unit either


def test_a_major_escarpment_blocks_supply_unless_a_road_crosses():
    m = strip(6).with_hexside((2, 0), (3, 0), HexsideFeature.MAJOR_ESCARPMENT)
    sit = Situation().with_source((0, 0))
    assert supply_field(m, sit, new()).status_at((3, 0)).value == "unsupplied"
    roaded = m.with_road_along([(q, 0) for q in range(6)])
    assert supply_field(roaded, sit, new()).status_at((3, 0)).value == "supplied"


def test_a_major_river_is_crossed_only_at_a_standing_bridge():
    m = strip(6).with_hexside((2, 0), (3, 0), HexsideFeature.MAJOR_RIVER)
    sit = Situation().with_source((0, 0))
    assert not supply_field(m, sit, new()).supplied[0, 3]
    bridged = m.with_road_along([(2, 0), (3, 0)])
    assert supply_field(bridged, sit, new()).supplied[0, 3]
    blown = sit.with_bridge_destroyed((2, 0), (3, 0))
    assert not supply_field(bridged, blown, new()).supplied[0, 3]


def test_radius_zero_leaves_only_the_points_above_zero():
    f = supply_field(strip(3), Situation().with_source((0, 0)), new(radius=0))
    assert row(f, 3) == pytest.approx([1.10, 0.0, 0.0])
    assert f.supplied.all()  # still traced, so still supplied


def test_enemy_owned_empty_hexes_do_not_stop_the_supply_unit():
    sit = Situation().with_source((0, 0)).with_control((2, 0), enemy=True)
    f = supply_field(strip(5), sit, new())
    assert f.at((4, 0)) == pytest.approx(formula(4, 4))


def test_no_sources_means_no_supply_and_says_so():
    f = supply_field(strip(3), Situation(), new())
    assert not f.supplied.any() and np.all(f.fraction == 0)
    assert "no supply point" in f.explain((1, 0)).text()


def test_every_explanation_line_cites_a_rule_section():
    sit = Situation().with_source((0, 0), 150).with_supply_unit((3, 0))
    f = supply_field(RAIL.with_terrain((6, 1), 11), sit, new(radius=2))
    for h in [(0, 0), (4, 1), (6, 1), (9, 0)]:
        why = f.explain(h)
        assert all("TOAW 9.1.7" in line for line in why.lines[1:]), why.lines


def test_radius_zero_a_new_point_never_takes_away_the_quarter_rule():
    """Regression (found by hypothesis): with radius 0 a second point reaches a badlands
    road hex with nothing left; that hex keeps the quarter of its best neighbour."""
    import numpy as np

    from hexclass.classroom.toaw import HexMap, Rules, Situation, SupplySettings, supply_field

    terrain = np.array(
        [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 10, 13], [13, 0, 0], [0, 0, 0]], dtype=np.uint8
    )
    roads = np.array(
        [[0, 0, 0], [0, 0, 0], [0, 0, 0], [1, 1, 0], [0, 0, 0], [0, 0, 0]], dtype=np.uint8
    )
    m = HexMap(terrain=terrain, features=roads)
    settings = SupplySettings(rules=Rules.NEW, radius=0)
    one = Situation().with_source((-1, 4), 1)
    two = one.with_source((0, 0), 1)
    before = supply_field(m, one, settings).at((0, 3))
    after = supply_field(m, two, settings).at((0, 3))
    assert before == after > 0
