"""Lines of fire (CA "Fire Attacks", "Enemy Fire", "Mortars"; Figure 5 reconstructed)."""

import pytest

from hexclass.classroom.combined_arms.lines import enemy_line, friendly_line, spotting_clear

from .helpers import at, sketch

# A straight row line: 5b -> 5c -> 5d -> 5e (5c and 5d intervene).
# A hexside line: 3d -> 5e runs between 4d and 4e.


@pytest.mark.parametrize("terrain", ["woods", "crest", "wooded_crest", "farm"])
def test_intervening_defensive_terrain_blocks(terrain):
    s = sketch({"5c": terrain}, {"D1": "5b"}, {"5e": "potential"})
    assert friendly_line(s, at(s, "5b"), at(s, "5e")).blocked
    assert enemy_line(s, at(s, "5e"), at(s, "5b")).blocked


def test_poor_going_and_open_ground_do_not_block():
    s = sketch({"5c": "poor"}, {"D1": "5b"}, {"5e": "potential"})
    lof = friendly_line(s, at(s, "5b"), at(s, "5e"))
    assert not lof.blocked and not lof.partial


def test_terrain_in_the_firer_or_target_hex_does_not_block():
    s = sketch({"5b": "woods", "5e": "woods"}, {"D1": "5b"}, {"5e": "potential"})
    assert not friendly_line(s, at(s, "5b"), at(s, "5e")).blocked


def test_one_hexside_blocker_is_a_partial_block_and_two_are_a_full_block():
    one = sketch({"4d": "woods"}, {"D1": "3d"}, {"5e": "potential"})
    lof = friendly_line(one, at(one, "3d"), at(one, "5e"))
    assert lof.partial and not lof.blocked
    assert lof.partly_by == (at(one, "4d"),)
    two = sketch({"4d": "woods", "4e": "crest"}, {"D1": "3d"}, {"5e": "potential"})
    assert friendly_line(two, at(two, "3d"), at(two, "5e")).blocked


def test_your_rifle_platoon_in_the_way_blocks_your_fire_only():
    s = sketch(units={"D1": "5b", "E1": "5c"}, enemy={"5e": "real"})
    assert friendly_line(s, at(s, "5b"), at(s, "5e")).blocked
    assert not enemy_line(s, at(s, "5e"), at(s, "5b")).blocked


@pytest.mark.parametrize("crest_hex", ["5b", "5e"])
def test_firing_from_or_at_a_crest_passes_over_your_platoons(crest_hex):
    s = sketch({crest_hex: "crest"}, {"D1": "5b", "E1": "5c"}, {"5e": "real"})
    assert not friendly_line(s, at(s, "5b"), at(s, "5e")).blocked


@pytest.mark.parametrize("blocker", ["A1 bottom", "M1"])
def test_armour_and_mmgs_never_block(blocker):
    s = sketch(
        units={"D1": "5b", blocker.split()[0]: "5c " + " ".join(blocker.split()[1:])},
        enemy={"5e": "real"},
    )
    assert not friendly_line(s, at(s, "5b"), at(s, "5e")).blocked


def test_rifle_platoon_on_a_hexside_is_a_partial_block():
    s = sketch(units={"D1": "3d", "E1": "4d"}, enemy={"5e": "real"})
    assert friendly_line(s, at(s, "3d"), at(s, "5e")).partial


def test_smoke_blocks_like_woods_while_it_lasts():
    s = sketch(units={"D1": "5b"}, enemy={"5e": "real"})
    s.smoke[at(s, "5c")] = 3
    assert friendly_line(s, at(s, "5b"), at(s, "5e")).blocked
    assert enemy_line(s, at(s, "5e"), at(s, "5b")).blocked


def test_spotting_ignores_platoons_and_a_single_partial_block():
    s = sketch({"4d": "woods"}, {"D1": "3d", "E1": "4e"}, {"5e": "potential"})
    assert spotting_clear(s, at(s, "3d"), at(s, "5e"))
    s2 = sketch({"4d": "woods", "4e": "farm"}, {"D1": "3d"}, {"5e": "potential"})
    assert not spotting_clear(s2, at(s2, "3d"), at(s2, "5e"))


def test_spotting_reaches_five_hexes_and_no_further():
    s = sketch(units={"D1": "5a"})
    assert spotting_clear(s, at(s, "5a"), at(s, "5f"))
    assert not spotting_clear(s, at(s, "5a"), at(s, "5g"))
