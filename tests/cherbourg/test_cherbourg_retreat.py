"""Retreats and advances (Cherbourg 5.1.3, 5.2, 5.3, 5.3.1-5.3.3), each on a tiny map.

Map: a radius-2 patch of clear hexes around (0, 0); the retreating stack stands in (0, 0).
"""

import pytest

from hexclass.classroom.cherbourg import (
    CherbourgInputError,
    Field,
    Unit,
    UnitType,
    advance_hexes,
    infantry,
    retreat,
    retreat_options,
    surrounded,
)
from hexclass.classroom.hexgrid import neighbours, spiral

CLEAR = {h: ("clear",) for h in spiral((0, 0), 3)}
TANK = Unit("Pz", UnitType.ARMOUR, 4, 4, 8, side="DE")


def field(enemy=(), friendly=None, terrain=None):
    t = dict(CLEAR)
    t.update(terrain or {})
    return Field(terrain=t, enemy=frozenset(enemy), friendly=friendly or {})


def test_a_retreat_may_not_end_in_an_engagement_zone():
    f = field(enemy=[(2, 0)])
    assert (1, 0) not in retreat_options(f, (0, 0)) and (-1, 0) in retreat_options(f, (0, 0))
    with pytest.raises(CherbourgInputError, match="engagement zone"):
        retreat(f, [infantry("i")], (0, 0), [(1, 0)])
    out = retreat(f, [infantry("i")], (0, 0), [(-1, 0)])
    assert out.final == (-1, 0) and out.eliminated == ()


def test_two_hex_retreat_refused_when_not_under_siege():
    with pytest.raises(CherbourgInputError, match="exactly one hex"):
        retreat(field(enemy=[(2, 0)]), [infantry("i")], (0, 0), [(-1, 0), (-2, 0)])


def ring_of_enemies():
    # enemies two hexes away on every side: each neighbour of (0, 0) is in a zone
    return [(2, 0), (0, 2), (-2, 2), (-2, 0), (0, -2), (2, -2)]


def test_under_siege_the_second_move_costs_every_unit_a_casualty():
    f = field(enemy=ring_of_enemies())
    assert surrounded(f, (0, 0))
    out = retreat(f, [infantry("i"), infantry("j")], (0, 0), [(-1, 0), (-2, 1)])
    # (-2, 1) is next to (-2, 0) and (-2, 2): still in a zone -> everybody lost
    assert out.survivors == () and set(out.eliminated) == {"i", "j"}


# Enemies next to (0, 0) on two sides and one further east: every neighbour of (0, 0) lies in
# an engagement zone, but (-2, 0), behind (-1, 0), is clear of them.
BREAKOUT = frozenset({(0, -1), (-1, 1), (2, 0)})


def test_siege_breakout_to_a_clear_hex_with_casualties():
    f = Field(terrain=CLEAR, enemy=BREAKOUT)
    assert surrounded(f, (0, 0)) and f.free((-2, 0))
    out = retreat(f, [infantry("i"), infantry("hurt", damaged=True)], (0, 0), [(-1, 0), (-2, 0)])
    assert [u.name for u in out.survivors] == ["i"] and out.survivors[0].damaged
    assert out.eliminated == ("hurt",)  # already flipped: a second casualty removes it
    assert out.final == (-2, 0)
    with pytest.raises(CherbourgInputError, match="give both"):
        retreat(f, [infantry("i")], (0, 0), [(-1, 0)])


def test_siege_through_friends_spares_the_casualty_and_saves_the_hurt():
    f = Field(terrain=CLEAR, enemy=BREAKOUT, friendly={(-1, 0): 1})
    out = retreat(f, [infantry("i")], (0, 0), [(-1, 0), (-2, 0)], hurt_in_combat=frozenset({"i"}))
    assert [u.name for u in out.survivors] == ["i"] and not out.survivors[0].damaged
    g = Field(terrain=CLEAR, enemy=BREAKOUT)
    out = retreat(g, [infantry("i")], (0, 0), [(-1, 0), (-2, 0)], hurt_in_combat=frozenset({"i"}))
    assert out.eliminated == ("i",)


def test_armour_retreating_through_a_river():
    f = field(enemy=[(2, 0)], terrain={(-1, 0): ("clear", "river")})
    out = retreat(f, [TANK, infantry("i")], (0, 0), [(-1, 0)])
    assert out.survivors[0].damaged and not out.survivors[1].damaged  # only armour suffers
    out = retreat(f, [TANK], (0, 0), [(-1, 0)], hurt_in_combat=frozenset({"Pz"}))
    assert out.eliminated == ("Pz",)


def test_no_more_than_four_may_stop_in_a_hex():
    f = field(enemy=[(2, 0)], friendly={(-1, 0): 3})
    with pytest.raises(CherbourgInputError, match="at most 4"):
        retreat(f, [infantry("i"), infantry("j")], (0, 0), [(-1, 0)])
    assert retreat(f, [infantry("i")], (0, 0), [(-1, 0)]).final == (-1, 0)


def test_a_stack_with_nowhere_to_go_is_destroyed():
    hexes = {(0, 0): ("clear",), **{n: ("sea",) for n in neighbours((0, 0))}}
    out = retreat(Field(terrain=hexes), [infantry("i")], (0, 0), [])
    assert out.eliminated == ("i",) and "Cherbourg 5.3" in out.notes[0]


def test_advance_after_combat():
    tank = Unit("Sherman", UnitType.ARMOUR, 6, 4, 8)
    gun = Unit("gun", UnitType.ARTILLERY, 3, 1, 4)
    assert advance_hexes([tank], ["clear"], ["city"]) == 2
    assert advance_hexes([tank], ["clear", "road"], ["clear"]) == 2
    assert advance_hexes([tank], ["bocage"], ["clear"]) == 1
    assert advance_hexes([tank], ["clear"], ["clear", "river"]) == 1
    assert advance_hexes([infantry("i")], ["clear"], ["clear"]) == 1
    assert advance_hexes([tank, infantry("i")], ["clear"], ["clear"]) == 1
    assert advance_hexes([tank, gun], ["clear"], ["clear"]) == 0
