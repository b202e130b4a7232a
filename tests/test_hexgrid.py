"""Hex maths: distances, rings, arcs, lines of fire and the pixel layout."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexclass.classroom import hexgrid as hg

coords = st.tuples(st.integers(-20, 20), st.integers(-20, 20))


def test_distance_and_neighbours():
    assert hg.distance((0, 0), (3, -1)) == 3
    assert hg.distance((0, 0), (-2, 4)) == 4
    assert all(hg.distance((5, 5), n) == 1 for n in hg.neighbours((5, 5)))
    assert len(set(hg.neighbours((0, 0)))) == 6


@pytest.mark.parametrize("radius", [0, 1, 2, 5])
def test_ring_holds_exactly_the_hexes_at_that_distance(radius):
    ring = hg.ring((2, -1), radius)
    assert len(ring) == max(1, 6 * radius)
    assert len(set(ring)) == len(ring)
    assert all(hg.distance((2, -1), h) == radius for h in ring)


def test_arc_facing_bottom_corner():
    # the bottom corner's arc is bounded by the SW and SE neighbours
    inside = {h for h in hg.spiral((0, 0), 3) if hg.in_arc((0, 0), 4, h)}
    assert inside == {(-1, 1), (0, 1), (-2, 2), (-1, 2), (0, 2), (-3, 3), (-2, 3), (-1, 3), (0, 3)}


def test_every_hex_but_the_centre_lies_in_one_or_two_arcs():
    for h in hg.spiral((0, 0), 4):
        if h == (0, 0):
            continue
        n = sum(hg.in_arc((0, 0), c, h) for c in range(6))
        # a hex on a boundary row sits in the two arcs sharing that row
        assert n in (1, 2)


def test_adjacent_neighbour_sits_in_the_two_arcs_of_its_hexside_corners():
    for d in range(6):
        target = hg.DIRECTIONS[d]
        holders = {c for c in range(6) if hg.in_arc((0, 0), c, target)}
        assert holders == set(hg.corners_with_arc_containing(d))


def test_straight_line_passes_through_the_hexes_between():
    through, along = hg.line_between((0, 0), (3, 0))
    assert through == [(1, 0), (2, 0)]
    assert along == []


def test_line_along_a_hexside_names_both_hexes():
    through, along = hg.line_between((0, 0), (2, -1))
    assert through == []
    assert along == [((1, -1), (1, 0))]


def test_blocker_beside_firer_partly_blocks_exactly_four_hexes_within_range_5():
    # CA Figure 5 (lost): with the blocking hex next to the firer, four target hexes
    # are only partly blocked.  The centre-to-centre convention gives exactly four.
    blocker = (1, 0)
    partial = []
    for target in hg.spiral((0, 0), 5):
        if target in ((0, 0), blocker):
            continue
        _, along = hg.line_between((0, 0), target)
        if any(blocker in pair for pair in along):
            partial.append(target)
    assert sorted(partial) == sorted([(2, -1), (4, -2), (1, 1), (2, 2)])


@given(coords, coords)
def test_line_is_symmetric(a, b):
    t1, p1 = hg.line_between(a, b)
    t2, p2 = hg.line_between(b, a)
    assert set(t1) == set(t2)
    assert {frozenset(p) for p in p1} == {frozenset(p) for p in p2}


@given(coords)
def test_layout_round_trip(h):
    lay = hg.Layout(size=17.5, origin=(40.0, 30.0))
    assert lay.pixel_to_hex(*lay.hex_to_pixel(h)) == h


def test_layout_clicks_near_a_corner_stay_in_the_hex():
    lay = hg.Layout(size=20.0)
    for h, c in itertools.product([(0, 0), (3, -2)], range(6)):
        cx, cy = lay.hex_to_pixel(h)
        dx, dy = lay.corner_offset(c)
        assert lay.pixel_to_hex(cx + 0.8 * dx, cy + 0.8 * dy) == h
