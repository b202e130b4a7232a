"""Allowances, the rebuilt phasing table, orders, terrain costs (PBM "Movement Allowance",
"Movement Phasing by Unit Type", "Combining Admin and Tactical Mode", "Minor Rivers",
"Major Rivers")."""

import pytest

from hexclass.classroom.movement import (
    ADMIN_PHASES,
    Admin,
    MovementInputError,
    Mover,
    Step,
    UnitType,
    Wait,
    World,
    parse_orders,
    phasing_table,
    spending_phases,
)
from hexclass.classroom.movement.hexmap import FlatLayout, direction_between, step
from hexclass.classroom.movement.world import rectangle


def test_allowances_by_type():
    got = sorted((t.allowance, t.label) for t in UnitType)
    assert got == [
        (6, "Artillery"), (6, "Infantry"), (7, "Elite Infantry"), (8, "Armour Slow"),
        (8, "Self Propelled Art"), (9, "Armour Normal"), (10, "Armour Fast"), (12, "Leaders"),
        (12, "Mechanised"),
    ]  # fmt: skip


def test_the_rebuilt_phasing_table():
    assert phasing_table() == {
        6: (2, 4, 6, 8, 10, 12),
        7: (2, 4, 6, 7, 9, 11, 12),
        8: (2, 3, 5, 6, 8, 9, 11, 12),
        9: (2, 3, 4, 6, 7, 8, 10, 11, 12),
        10: (2, 3, 4, 5, 6, 8, 9, 10, 11, 12),
        12: tuple(range(1, 13)),
    }
    for m in range(1, 13):
        phases = spending_phases(m)
        assert len(phases) == m and phases[-1] == 12  # the whole allowance, ending on phase 12
    assert ADMIN_PHASES == (2, 4, 6, 8, 10, 12)
    with pytest.raises(MovementInputError, match="1 to 12"):
        spending_phases(13)


def test_orders_are_parsed_as_a_turn_sheet_writes_them():
    assert parse_orders("0, 1,6 ,101,-505,03825") == (
        Wait(), Step(1), Step(6), Admin(101), Admin(505, rail=True), Admin(hex_label="3825"),
    )  # fmt: skip
    for bad in ("7", "99", "-12", "north"):
        with pytest.raises(MovementInputError, match="not a movement instruction"):
            parse_orders(bad)


def test_directions_name_the_sides_of_a_flat_topped_hex():
    assert [step((0, 0), d) for d in range(1, 7)] == [
        (0, -1),
        (1, -1),
        (1, 0),
        (0, 1),
        (-1, 1),
        (-1, 0),
    ]
    assert direction_between((0, 0), (0, 1)) == 4 and direction_between((0, 0), (2, 0)) is None
    lay = FlatLayout(20, (50, 50))
    north, south = lay.hex_to_pixel((0, -1)), lay.hex_to_pixel((0, 1))
    assert north[0] == south[0] and north[1] < south[1]  # 1 is straight up the screen
    for h in [(0, 0), (3, -1), (-2, 4)]:
        assert lay.pixel_to_hex(*lay.hex_to_pixel(h)) == h


def unit(kind=UnitType.INFANTRY, **kw):
    return Mover("u", "blue", kind, (0, 0), **kw)


def world(**kw):
    t = rectangle(4, 4, "forest")
    t[(1, 0)] = "jungle"
    t[(0, 1)] = "clear"
    return World(t, **kw)


def test_terrain_costs_by_cost_class():
    w = world()
    assert w.step_cost(unit(), (0, 0), (0, 1))[0] == 1
    assert w.step_cost(unit(), (0, 1), (0, 2))[0] == 1  # forest on foot
    assert w.step_cost(unit(UnitType.ARMOUR_NORMAL), (0, 1), (0, 2))[0] == 2
    assert w.step_cost(unit(UnitType.ARTILLERY), (0, 0), (1, 0))[0] == 3
    assert w.step_cost(unit(UnitType.ELITE_INFANTRY, specialty="jungle"), (0, 0), (1, 0))[0] == 1
    cost, why = w.step_cost(unit(UnitType.MECHANISED), (0, 0), (1, 0))
    assert cost is None and "only along a road" in why
    assert w.step_cost(unit(double_costs=True), (0, 1), (0, 2))[0] == 2


def test_minor_rivers_cost_one_on_foot_two_for_others_nothing_for_amphibians():
    side = frozenset({(0, 0), (0, 1)})
    w = world(minor_rivers=frozenset({side}))
    assert w.step_cost(unit(), (0, 0), (0, 1))[0] == 2
    assert w.step_cost(unit(UnitType.MECHANISED), (0, 0), (0, 1))[0] == 3
    assert w.step_cost(unit(UnitType.MECHANISED, amphibious=True), (0, 0), (0, 1))[0] == 1
    assert w.step_cost(unit(specialty="engineer"), (0, 0), (0, 1))[0] == 1


def test_major_rivers_need_a_bridge_unless_the_unit_is_special():
    side = frozenset({(0, 0), (0, 1)})
    w = world(major_rivers=frozenset({side}))
    assert w.step_cost(unit(), (0, 0), (0, 1))[0] is None
    assert (
        w.step_cost(unit(specialty="marine"), (0, 0), (0, 1))[0] == 2
    )  # crossed as a minor river: +1 on foot
    assert w.step_cost(unit(UnitType.MECHANISED, amphibious=True), (0, 0), (0, 1))[0] == 1
    bridged = world(major_rivers=frozenset({side}), bridges=frozenset({side}))
    assert bridged.step_cost(unit(), (0, 0), (0, 1))[0] == 1


def test_bad_units_are_refused():
    with pytest.raises(MovementInputError, match="only armoured and mechanised"):
        unit(UnitType.INFANTRY, pursuit=3)
    with pytest.raises(MovementInputError, match="pursuit option"):
        unit(pursuit=4)
