"""The rectangular map: offset <-> axial coordinates, lookups, edits and bad input."""

import numpy as np
import pytest

from hexclass.classroom import hexgrid
from hexclass.classroom.toaw import (
    Feature,
    HexMap,
    HexsideFeature,
    SupplyInputError,
    Terrain,
    axial_to_offset,
    offset_to_axial,
)
from hexclass.classroom.toaw.hexmap import neighbour_table


def test_offset_and_axial_round_trip_and_rows_lean_as_odd_r():
    for col in range(6):
        for row in range(6):
            assert axial_to_offset(offset_to_axial(col, row)) == (col, row)
    # the first hex of rows 0..3 sits at q = 0, 0, -1, -1
    assert [offset_to_axial(0, r) for r in range(4)] == [(0, 0), (0, 1), (-1, 2), (-1, 3)]


def test_neighbour_table_agrees_with_hexgrid_on_every_hex():
    m = HexMap.blank(5, 4)
    table = neighbour_table(5, 4)
    for h in m.hexes():
        i = m.index(h)
        expected = [m.index(n) if m.contains(n) else -1 for n in hexgrid.neighbours(h)]
        assert list(table[i]) == expected
    assert not table.flags.writeable


def test_from_ascii_reads_terrain_and_features_and_ignores_indent():
    m = HexMap.from_ascii([". u h", " ~ . b"], ["r x .", " . i R"])
    assert (m.width, m.height) == (3, 2)
    assert m.terrain_at((1, 0)) is Terrain.URBAN
    assert m.terrain_at((0, 1)) is Terrain.WATER
    assert m.features_at((1, 0)) == Feature.ROAD | Feature.RAIL
    assert m.has_improved_road((1, 1)) and m.has_road((1, 1))
    assert m.has_rail((2, 1)) and not m.has_road((2, 1))


def test_edits_return_new_maps_and_leave_the_old_one_alone():
    m = HexMap.blank(4, 3)
    m2 = m.with_terrain((1, 1), Terrain.FOREST).with_feature((1, 1), Feature.ROAD)
    m3 = m2.with_hexside((1, 1), (2, 1), HexsideFeature.MAJOR_RIVER)
    assert m.terrain_at((1, 1)) is Terrain.OPEN and not m.has_road((1, 1))
    assert m2.terrain_at((1, 1)) is Terrain.FOREST and m2.has_road((1, 1))
    assert m3.hexside_at((2, 1), (1, 1)) is HexsideFeature.MAJOR_RIVER
    assert m3.with_hexside((1, 1), (2, 1), None).hexsides == {}
    assert m2.with_feature((1, 1), Feature.ROAD, present=False).features_at((1, 1)) == Feature.NONE
    with pytest.raises(ValueError):
        m.terrain[0, 0] = 5  # the arrays are read-only


def test_with_road_along_marks_every_hex_of_the_path():
    m = HexMap.blank(5, 1).with_road_along([(0, 0), (1, 0), (2, 0)], improved=True)
    assert [m.has_improved_road((q, 0)) for q in range(5)] == [True, True, True, False, False]


def test_off_map_hexes_are_reported_with_the_valid_ranges():
    m = HexMap.blank(4, 3)
    assert not m.contains((4, 0)) and not m.contains((0, 3)) and m.contains((-1, 2))
    with pytest.raises(SupplyInputError, match=r"off the map: expected .* row r in 0..2 .* 0..3"):
        m.index((4, 0))


@pytest.mark.parametrize(
    "build, expected",
    [
        (lambda: HexMap.from_ascii(["..?"]), "unknown terrain character '\\?'"),
        (lambda: HexMap.from_ascii(["...", ".."]), "same length"),
        (lambda: HexMap.blank(0, 3), "at least 1 x 1"),
        (lambda: HexMap(np.full((2, 2), 99), np.zeros((2, 2))), "terrain codes must lie in"),
        (
            lambda: HexMap.blank(3, 3).with_hexside((0, 0), (2, 0), HexsideFeature.MAJOR_RIVER),
            "adjacent",
        ),
    ],
)
def test_bad_maps_say_what_was_expected(build, expected):
    with pytest.raises(SupplyInputError, match=expected):
        build()
