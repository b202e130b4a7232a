"""Log-sheet operations return entries that explain each change with its rule."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexclass.classroom.cna.capability import Function, Unit, UnitKind
from hexclass.classroom.cna.errors import CNAInputError, RuleViolation
from hexclass.classroom.cna.logsheet import (
    EntryKind,
    LogSheet,
    UnitLog,
    break_off,
    close_assault_result,
    end_stage,
    spend,
)
from hexclass.classroom.cna.movement import Engagement, Occasion

TANKS = Unit("tank bn", UnitKind.ARMOR, cpa=25)
RNF = Unit("1st RNF", UnitKind.INFANTRY, cpa=8)


def test_heavy_losses_in_a_close_assault_cost_3_dps():
    out = close_assault_result(UnitLog(TANKS), strength_before=10, strength_lost=3, attacking=True)
    assert out.log.cohesion == -3
    assert [(e.kind, e.dps, e.rule) for e in out.entries] == [
        (EntryKind.DISORGANIZATION, 3, "CNA 6.21")
    ]


def test_winning_an_assault_earns_3_rps_for_the_attacker_only():
    won = close_assault_result(
        UnitLog(TANKS), strength_before=10, strength_lost=0, attacking=True, defender_vacated=True
    )
    assert won.log.cohesion == 3 and won.entries[0].rule == "CNA 6.24"
    held = close_assault_result(
        UnitLog(TANKS), strength_before=10, strength_lost=0, attacking=False, defender_vacated=True
    )
    assert held.log.cohesion == 0 and held.entries == ()
    not_won = close_assault_result(
        UnitLog(TANKS), strength_before=10, strength_lost=0, attacking=True
    )
    assert not_won.entries == ()


def test_losses_and_a_win_together_apply_dps_first():
    out = close_assault_result(
        UnitLog(TANKS, cohesion=9),
        strength_before=10,
        strength_lost=4,
        attacking=True,
        defender_vacated=True,
    )
    assert [e.kind for e in out.entries] == [EntryKind.DISORGANIZATION, EntryKind.REORGANIZATION]
    assert out.log.cohesion == 9


def test_rps_past_plus_10_say_they_were_capped():
    out = close_assault_result(
        UnitLog(TANKS, cohesion=9),
        strength_before=10,
        strength_lost=0,
        attacking=True,
        defender_vacated=True,
    )
    assert out.log.cohesion == 10 and "capped at +10" in out.entries[0].text


@pytest.mark.parametrize(
    ("status", "occasion", "cps", "rule"),
    [
        (Engagement.CONTACT, Occasion.MOVEMENT_SEGMENT, 2, "CNA 8.65"),
        (Engagement.ENGAGED, Occasion.MOVEMENT_SEGMENT, 4, "CNA 8.66"),
        (Engagement.ENGAGED, Occasion.RETREAT_BEFORE_ASSAULT, 4, "CNA 8.66"),
    ],
)
def test_breaking_off_costs_2_or_4(status, occasion, cps, rule):
    out = break_off(UnitLog(TANKS), status, occasion)
    assert out.log.spent == cps
    assert (out.entries[0].cps, out.entries[0].rule) == (cps, rule)


def test_reacting_units_break_off_free():
    out = break_off(UnitLog(TANKS), Engagement.ENGAGED, Occasion.REACTION)
    assert out.log.spent == 0 and out.entries == ()


def test_break_off_before_retreat_before_assault_ignores_the_cap():
    at_twelve = spend(UnitLog(RNF), Function.MOVEMENT, 12).log
    out = break_off(at_twelve, Engagement.ENGAGED, Occasion.RETREAT_BEFORE_ASSAULT)
    assert out.log.spent == 16
    with pytest.raises(RuleViolation):
        break_off(at_twelve, Engagement.CONTACT, Occasion.MOVEMENT_SEGMENT)


def test_training_units_earn_no_rest_rps():
    out = end_stage(UnitLog(RNF, cohesion=-4), training=True)
    assert out.log.cohesion == -4
    assert [e.kind for e in out.entries] == [EntryKind.STAGE_END]


def test_a_unit_that_spent_anything_earns_no_rest_rps():
    moved = spend(UnitLog(RNF, cohesion=-4), Function.MOVEMENT, 1).log
    assert end_stage(moved).log.cohesion == -4


def test_a_collapsed_unit_cannot_move_attack_or_defend_but_may_load():
    wreck = UnitLog(TANKS, cohesion=-26)
    for function in (
        Function.MOVEMENT,
        Function.CLOSE_ASSAULT,
        Function.DEFENCE,
        Function.REACTION,
    ):
        with pytest.raises(RuleViolation) as err:
            spend(wreck, function, 1)
        assert err.value.rule == "CNA 6.26"
    assert spend(wreck, Function.LOADING, 1).log.spent == 1


def test_a_single_action_can_carry_a_unit_past_minus_26():
    # CNA 6.26: at -25, one assault that overruns the CPA by 5 lands at -30.
    tired = spend(UnitLog(TANKS, cohesion=-25), Function.MOVEMENT, 25).log
    out = spend(tired, Function.CLOSE_ASSAULT, 5)
    assert out.log.cohesion == -30 and out.log.collapsed


def test_reaction_only_in_the_opponents_portion():
    with pytest.raises(RuleViolation, match="opponent's portion"):
        spend(UnitLog(TANKS), Function.REACTION, 2, own_portion=True)
    assert spend(UnitLog(TANKS), Function.REACTION, 2).log.spent == 2


def test_sheet_rows_show_the_stage_and_the_reasons():
    sheet = LogSheet.of([TANKS, RNF], cohesion={"1st RNF": -2})
    sheet.spend("tank bn", Function.MOVEMENT, 28)
    row = {r["unit"]: r for r in sheet.rows()}["tank bn"]
    assert (row["CPs spent"], row["CPs left"], row["cohesion"], row["DPs this stage"]) == (
        28,
        0,
        -3,
        3,
    )
    assert row["why"] == ["-3 DPs: spent 28 of CPA 25 this stage (CNA 6.21)"]
    sheet.end_stage()
    assert {r["unit"]: r["cohesion"] for r in sheet.rows()} == {"tank bn": -3, "1st RNF": 0}
    assert sheet.cohesion_series("1st RNF") == [(0, -2), (1, 0)]
    assert sheet.stage == 2 and sheet.rows()[0]["CPs spent"] == 0


def test_sheet_close_assault_hits_every_unit_of_the_formation():
    bde = [Unit(f"bn {i}", UnitKind.INFANTRY, cpa=8) for i in range(3)]
    sheet = LogSheet.of(bde)
    entries = sheet.close_assault(
        ["bn 0", "bn 1", "bn 2"], strength_before=20, strength_lost=6, attacking=False
    )
    assert len(entries) == 3 and set(sheet.cohesion_levels().values()) == {-3}


def test_sheet_refuses_unknown_and_duplicate_names():
    sheet = LogSheet.of([TANKS])
    with pytest.raises(
        CNAInputError, match=r"no unit named 'ghost'.*expected one of \['tank bn'\]"
    ):
        sheet.spend("ghost", Function.MOVEMENT, 1)
    with pytest.raises(CNAInputError, match="two units are named"):
        LogSheet.of([TANKS, TANKS])
    with pytest.raises(CNAInputError, match="not on the sheet"):
        LogSheet.of([TANKS], cohesion={"ghost": -1})
    with pytest.raises(CNAInputError, match="list of unit names"):
        sheet.close_assault("tank bn", strength_before=1, strength_lost=0, attacking=True)


def test_replace_unit_keeps_the_line():
    sheet = LogSheet.of([RNF])
    sheet.spend("1st RNF", Function.MOVEMENT, 6)
    sheet.replace_unit(RNF.motorized_by(20))
    assert sheet.line("1st RNF").spent == 6
    assert sheet.check("1st RNF", Function.MOVEMENT, 10) is None  # motorized: no 150% cap


operations = st.lists(
    st.one_of(
        st.tuples(st.just("spend"), st.sampled_from(list(Function)), st.integers(0, 20)),
        st.tuples(st.just("assault"), st.integers(1, 20), st.integers(0, 20), st.booleans()),
        st.tuples(st.just("end"), st.booleans()),
    ),
    max_size=40,
)


@given(operations)
def test_any_play_keeps_cohesion_at_most_10_and_the_journal_consistent(ops):
    sheet = LogSheet.of([TANKS])
    for op in ops:
        if op[0] == "spend":
            if sheet.check("tank bn", op[1], op[2]) is None:
                sheet.spend("tank bn", op[1], op[2])
        elif op[0] == "assault":
            before, lost, won = op[1], min(op[1], op[2]), op[3]
            sheet.close_assault(
                ["tank bn"],
                strength_before=before,
                strength_lost=lost,
                attacking=True,
                defender_vacated=won,
            )
        else:
            sheet.end_stage(training=["tank bn"] if op[1] else [])
        assert sheet.line("tank bn").cohesion <= 10
    level = 0
    for e in sheet.journal:
        assert e.cohesion_before == level
        assert e.cohesion_after == min(10, e.cohesion_before - e.dps + e.rps)
        level = e.cohesion_after
    assert level == sheet.line("tank bn").cohesion
