"""One combat from counters to result (Cherbourg 5.1.1-5.1.5, 6.0, 7.0, 8.0)."""

import pytest

from hexclass.classroom.cherbourg import (
    COLUMNS,
    CherbourgInputError,
    Combat,
    Unit,
    UnitType,
    air_power_for_turn,
    combat_column,
    infantry,
    lookup,
    resolve_combat,
)
from hexclass.classroom.dice import Dice

DEF = (infantry("German bn", 2, 4, side="DE"),)


def inf(name, a=4, **kw):
    return infantry(name, a, 4, **kw)


def test_plain_odds_in_the_open():
    c = Combat((inf("a", 6), inf("b", 5)), DEF)
    rep = combat_column(c)
    assert (rep.attack, rep.defence, rep.name) == (11, 4, "2-1")
    assert [s.rule for s in rep.steps][0].startswith("Cherbourg 5.1.1")


def test_terrain_moves_left_and_bocage_punishes_armour():
    tank = Unit("tanks", UnitType.ARMOUR, 8, 6, 8)
    foot = Combat((inf("a", 8), inf("b", 8)), DEF, terrain=("bocage",))
    armour = Combat((inf("a", 8), tank), DEF, terrain=("bocage",))
    assert combat_column(foot).name == "2-1"  # 4-1 less two
    assert combat_column(armour).name == "1-2"  # 4-1 less four: 3-1, 2-1, 1-1, 1-2
    assert any("bocage against armour" in s.value for s in combat_column(armour).steps)


def test_siege_gives_one_column_right():
    open_ = Combat((inf("a", 8),), DEF)
    sieged = Combat((inf("a", 8),), DEF, surrounded=True)
    assert combat_column(open_).name == "2-1" and combat_column(sieged).name == "3-1"


OOB = {
    "8th RI": frozenset({"1/8", "2/8", "3/8"}),
    "12th RI": frozenset({"1/12", "2/12", "3/12"}),
    "22nd RI": frozenset({"1/22", "2/22", "3/22"}),
    "919th RI": frozenset({"1/919", "2/919"}),
    "4th RArt": frozenset({"a/4", "b/4"}),
}


def bn(name, reg, div="4th DI", side="US", a=1, d=4):
    return Unit(name, UnitType.INFANTRY, a, d, 6, side=side, regiment=reg, division=div)


def test_a_complete_regiment_earns_a_column_its_own_way():
    defenders = (
        bn("1/919", "919th RI", "709th DI", "DE"),
        bn("2/919", "919th RI", "709th DI", "DE"),
    )
    whole = Combat(
        tuple(bn(f"{i}/8", "8th RI", a=4) for i in (1, 2, 3)), defenders, order_of_battle=OOB
    )
    partial = Combat(
        tuple(bn(f"{i}/8", "8th RI", a=4) for i in (1, 2)) + (inf("x", 4),),
        defenders,
        order_of_battle=OOB,
    )
    # 12 against 8 is 1-1 in both; the complete 8th moves it right, the complete 919th left
    assert combat_column(whole).right == 0 and combat_column(whole).name == "1-1"
    assert combat_column(partial).right == -1 and combat_column(partial).name == "1-2"


def test_three_regiments_of_one_division_add_a_column():
    attackers = (bn("1/8", "8th RI"), bn("1/12", "12th RI"), bn("1/22", "22nd RI"))
    rep = combat_column(Combat(attackers, (inf("d", 2),), order_of_battle=OOB))
    assert rep.right == 1  # no regiment is complete, the division bonus alone
    two = combat_column(Combat(attackers[:2], (inf("d", 2),), order_of_battle=OOB))
    assert two.right == 0


def test_artillery_regiments_earn_no_command_column():
    guns = (
        Unit("a/4", UnitType.ARTILLERY, 3, 1, 4, regiment="4th RArt"),
        Unit("b/4", UnitType.ARTILLERY, 3, 1, 4, regiment="4th RArt"),
    )
    rep = combat_column(Combat(guns, (inf("d", 2, side="DE"),), order_of_battle=OOB))
    assert rep.right == 0


def test_a_damaged_unit_fights_at_half_rounded_up():
    hurt = Unit("3-3-6", UnitType.INFANTRY, 3, 3, 6, damaged=True)
    assert (hurt.attack_power, hurt.defence_power) == (2, 2)
    rep = combat_column(Combat((inf("a", 4),), (hurt,)))
    assert (rep.attack, rep.defence, rep.name) == (4, 2, "2-1")


def test_air_points_and_supporting_guns_join_the_totals():
    gun = Unit("155 bn", UnitType.ARTILLERY, 3, 1, 4, range=6)
    rep = combat_column(
        Combat(
            (inf("a", 4),),
            (inf("d", 1, side="DE"),),
            attack_air=5,
            supporting_artillery=(gun,),
            defence_air=0,
        )
    )
    assert rep.attack == 12 and rep.name == "3-1"
    with pytest.raises(CherbourgInputError, match="artillery alone cannot have air support"):
        Combat((gun,), DEF, attack_air=3)
    with pytest.raises(CherbourgInputError, match="not artillery"):
        Combat((inf("a"),), DEF, supporting_artillery=(inf("b"),))


def test_a_unit_fights_once():
    with pytest.raises(CherbourgInputError, match="only once"):
        Combat((inf("a"), inf("a")), DEF)


def test_air_power_by_turn():
    assert [air_power_for_turn(t) for t in (19, 21, 22, 23, 30)] == [0, 0, 30, 10, 10]
    with pytest.raises(CherbourgInputError, match="turn 19 to turn 30"):
        air_power_for_turn(31)


def test_resolution_uses_the_seeded_dice_and_the_table():
    c = Combat((inf("a", 12),), DEF)
    first, again = resolve_combat(c, Dice(5)), resolve_combat(c, Dice(5))
    assert first == again
    assert first.result == lookup(COLUMNS.index("3-1"), first.roll)
    rolls = {resolve_combat(c, Dice(s)).roll for s in range(60)}
    assert rolls <= set(range(2, 13)) and len(rolls) > 6
