"""Lines of communication: what blocks them (TOAW 9.1.7) and the graphs built from them."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from toaw_support import strip, worlds

from hexclass.classroom.toaw import Block, HexMap, Rules, Situation, SupplySettings, supply_field
from hexclass.classroom.toaw.network import build_network, motorized_entry_cost, motorized_graph

OLD = SupplySettings(rules=Rules.OLD)
NEW = SupplySettings(rules=Rules.NEW)
BOTH = pytest.mark.parametrize("rules", [OLD, NEW], ids=["old", "new"])

# Row 0 is a corridor of open hexes; row 1 is water except one land hex at column 3,
# whose neighbours in the corridor are (3, 0) and (4, 0).
CORRIDOR = HexMap.from_ascii([".......", "~~~.~~~"])
ENEMY_BESIDE = (3, 1)


def supplied(field, hexes):
    return [field.status_at(h).value != "unsupplied" for h in hexes]


@BOTH
def test_an_enemy_unit_cuts_the_line(rules):
    f = supply_field(strip(7), Situation().with_source((0, 0)).with_enemy((4, 0)), rules)
    # (3, 0) and (5, 0) are next to the enemy and empty; (4, 0) holds it
    assert supplied(f, [(q, 0) for q in range(7)]) == [True, True, True, False, False, False, False]
    assert f.explain((4, 0)).lines[1].startswith("No line of communication: an enemy unit")


@BOTH
def test_empty_hexes_next_to_an_enemy_block_but_friendly_held_ones_do_not(rules):
    sit = Situation().with_source((0, 0)).with_enemy(ENEMY_BESIDE)
    cut = supply_field(CORRIDOR, sit, rules)
    assert supplied(cut, [(q, 0) for q in range(7)]) == [
        True,
        True,
        True,
        False,
        False,
        False,
        False,
    ]
    assert "next to an enemy unit" in cut.explain((3, 0)).text()
    held = supply_field(CORRIDOR, sit.with_friendly((3, 0)).with_friendly((4, 0)), rules)
    assert all(supplied(held, [(q, 0) for q in range(7)]))


@BOTH
@pytest.mark.parametrize("terrain", ["b", "d"], ids=["badlands", "dunes"])
def test_badlands_and_dunes_block_unless_a_road_runs_through(terrain, rules):
    rough = HexMap.from_ascii(["..." + terrain + "..."])
    sit = Situation().with_source((0, 0))
    f = supply_field(rough, sit, rules)
    assert supplied(f, [(4, 0), (5, 0), (6, 0)]) == [False, False, False]
    assert f.block_at((3, 0)) is Block.OFF_ROAD
    roaded = supply_field(HexMap.from_ascii(["..." + terrain + "..."], ["..rrr.."]), sit, rules)
    assert all(supplied(roaded, [(q, 0) for q in range(7)]))


@BOTH
def test_water_is_impassable_to_lines_of_communication(rules):
    f = supply_field(HexMap.from_ascii(["..~.."]), Situation().with_source((0, 0)), rules)
    assert supplied(f, [(q, 0) for q in range(5)]) == [True, True, False, False, False]
    assert f.block_at((2, 0)) is Block.IMPASSABLE


@BOTH
def test_a_route_around_the_block_keeps_supply_flowing(rules):
    # two rows of open ground: the enemy blocks one row, the other still connects
    m = HexMap.blank(9, 3)
    sit = Situation().with_source((0, 0)).with_enemy((3, 0))
    f = supply_field(m, sit, rules)
    assert f.status_at((7, 0)).value == "supplied"  # around through row 2
    assert f.status_at((3, 1)).value == "unsupplied"  # next to the enemy, empty


def test_enemy_controlled_supply_points_supply_nothing():
    sit = Situation().with_source((0, 0)).with_control((0, 0), enemy=True)
    f = supply_field(strip(4), sit)
    assert not f.supplied.any()


@settings(max_examples=60, deadline=None)
@given(worlds())
def test_the_vectorised_graph_matches_the_step_by_step_rule(world):
    m, sit, st = world
    net = build_network(m, sit)
    graph = motorized_graph(net, st).tocsr()
    for a in m.hexes():
        for b in m.neighbours(a):
            expected = motorized_entry_cost(net, st, a, b)
            i, j = m.index(a), m.index(b)
            row = graph.indices[graph.indptr[i] : graph.indptr[i + 1]]
            present = j in row
            assert present == (expected is not None), (a, b)
            if present:
                assert graph[i, j] == pytest.approx(expected)


def test_entry_costs_follow_roads_terrain_mud_and_the_divisor():
    m = HexMap.from_ascii(["..ff", "...."], ["rr.i", "...i"])
    sit = Situation().with_mud((2, 0))
    net = build_network(m, sit)
    one, two = SupplySettings(), SupplySettings(improved_road_divisor=2)
    assert motorized_entry_cost(net, one, (0, 0), (1, 0)) == 0.5  # along a road
    assert motorized_entry_cost(net, one, (1, 0), (2, 0)) == 6.0  # forest 3, muddy x2
    assert motorized_entry_cost(net, one, (2, 0), (3, 0)) == 3.0  # forest; road only on one side
    assert motorized_entry_cost(net, two, (0, 0), (1, 0)) == 1.0  # plain road pays the divisor
    assert motorized_entry_cost(net, two, (3, 0), (3, 1)) == 0.5  # improved road does not
    assert motorized_entry_cost(net, one, (0, 0), (2, 0)) is None  # not adjacent


def test_every_block_reason_has_a_readable_description():
    for b in Block:
        assert b.describe()
    assert len({b.describe() for b in Block}) == len(Block)
    assert list(itertools.islice(Block, 1)) == [Block.NONE]
    assert np.array([Block.ENEMY_UNIT]).dtype.kind in "iu"
