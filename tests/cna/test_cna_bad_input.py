"""Impossible inputs raise CNAInputError (a ValueError) saying what was expected."""

import math
from fractions import Fraction

import pytest

from hexclass.classroom.cna.capability import Function, Size, Unit, UnitKind, formation_cpa
from hexclass.classroom.cna.cohesion import (
    CohesionGroup,
    apply_disorganization,
    apply_reorganization,
    rest_recovery,
)
from hexclass.classroom.cna.errors import CNAInputError
from hexclass.classroom.cna.logsheet import LogSheet, UnitLog, spend
from hexclass.classroom.cna.scenario import DESERT_SKIRMISH, OperationsStagePlay
from hexclass.classroom.cna.sequence import SequenceCursor, walk_game_turn

TANKS = Unit("tanks", UnitKind.ARMOR, cpa=25)

CASES = [
    ("negative CPA", lambda: Unit("x", UnitKind.ARMOR, cpa=-1), "must be at least 0"),
    ("CPA as text", lambda: Unit("x", UnitKind.ARMOR, cpa="8"), "must be a whole number"),
    ("CPA as a float", lambda: Unit("x", UnitKind.ARMOR, cpa=8.0), "must be a whole number"),
    ("CPA as a bool", lambda: Unit("x", UnitKind.ARMOR, cpa=True), "must be a whole number"),
    ("empty name", lambda: Unit(" ", UnitKind.ARMOR, cpa=8), "non-empty name"),
    ("kind as text", lambda: Unit("x", "armor", cpa=8), "expected a UnitKind"),
    ("size as int", lambda: Unit("x", UnitKind.ARMOR, cpa=8, size=2), "expected a Size"),
    ("negative CPs", lambda: spend(UnitLog(TANKS), Function.MOVEMENT, -1), "must not be negative"),
    (
        "a third of a CP",
        lambda: spend(UnitLog(TANKS), Function.MOVEMENT, Fraction(1, 3)),
        "whole or half CP",
    ),
    ("NaN CPs", lambda: spend(UnitLog(TANKS), Function.MOVEMENT, math.nan), "got NaN"),
    ("infinite CPs", lambda: spend(UnitLog(TANKS), Function.MOVEMENT, math.inf), "finite"),
    ("CPs as text", lambda: spend(UnitLog(TANKS), Function.MOVEMENT, "3"), "number of CPs"),
    ("function as text", lambda: spend(UnitLog(TANKS), "movement", 3), "expected a Function"),
    ("not a log line", lambda: spend(TANKS, Function.MOVEMENT, 3), "expected a UnitLog"),
    ("cohesion above +10", lambda: UnitLog(TANKS, cohesion=11), r"at most \+10"),
    ("negative DPs", lambda: apply_disorganization(0, -2), "must be at least 0"),
    ("negative RPs", lambda: apply_reorganization(0, -2), "must be at least 0"),
    ("level as a float", lambda: rest_recovery(-1.5), "whole number"),
    ("empty formation", lambda: formation_cpa([]), "at least one unit"),
    ("formation of names", lambda: formation_cpa(["tanks"]), "expected Unit members"),
    ("size in a group", lambda: CohesionGroup("x", "brigade", cohesion=0), "expected a Size"),
    ("unit not on the sheet", lambda: LogSheet.of([TANKS]).line("ghost"), "expected one of"),
    ("cursor past the end", lambda: SequenceCursor(index=10_000), "must be below"),
    ("negative cursor", lambda: SequenceCursor(index=-1), "at least 0"),
    ("initiative as text", lambda: SequenceCursor().with_initiative("Axis"), "expected a Side"),
    ("declare a string", lambda: SequenceCursor().declare("A"), "expected Role.A or Role.B"),
    (
        "bad extra passes",
        lambda: walk_game_turn(extra_passes={(4, None): 1}),
        r"expected keys \(1-3, Role\)",
    ),
]


@pytest.mark.parametrize(("label", "call", "message"), CASES, ids=[c[0] for c in CASES])
def test_impossible_input_is_explained(label, call, message):
    with pytest.raises(CNAInputError, match=message) as err:
        call()
    assert isinstance(err.value, ValueError)


def test_hexes_must_be_axial_pairs_on_the_map():
    play = OperationsStagePlay(DESERT_SKIRMISH)
    with pytest.raises(CNAInputError, match=r"axial \(q, r\) pair"):
        play.move("Italian tank bn", [(0, 1), "1,1"])
    with pytest.raises(CNAInputError, match="off the map"):
        DESERT_SKIRMISH.terrain_at((9, 9))
    with pytest.raises(CNAInputError, match="must start at"):
        play.move("Italian tank bn", [(1, 1), (2, 1)])
    with pytest.raises(CNAInputError, match="no unit named 'ghost' is on the map"):
        play.move("ghost", [(0, 1), (1, 1)])
    with pytest.raises(CNAInputError, match="cannot announce an assault"):
        play.move("Italian tank bn", [(0, 1), (1, 1)], assault_on=["ghost"])
    assert play.positions["Italian tank bn"] == (0, 1) and play.sheet.journal == []


def test_size_enum_order_is_company_to_division():
    assert sorted(Size) == [Size.COMPANY, Size.BATTALION, Size.BRIGADE, Size.DIVISION]
