"""The live log sheet, the worked-example buttons and the cohesion planner."""

from __future__ import annotations

import pytest

from hexclass.widgets.cna_logsheet import (
    WORKED_EXAMPLES,
    CohesionPlanner,
    LogSheetLab,
    brigades_example,
    cohesion_series,
    run_example,
)


@pytest.fixture
def lab():
    return LogSheetLab(plot=False)


def act(lab, how, unit, cps):
    lab.cps.value = cps
    return getattr(lab, how)(unit)


def test_moving_spends_cps_and_the_row_shows_it(lab):
    assert act(lab, "move", "1st RNF", 4)
    row = lab.row_values("1st RNF")
    assert (row["CPs spent"], row["CPs left"], row["cohesion"]) == ("4", "4", "0")
    assert "1st RNF" in lab.journal.value and "movement" in lab.journal.value
    assert ">4<" in lab.cells["1st RNF"]["CPs spent"].value


def test_overspending_earns_dps_with_their_rule(lab):
    act(lab, "move", "1st RNF", 10)
    row = lab.row_values("1st RNF")
    assert row["cohesion"] == "-2" and "CNA 6.21" in row["DPs / RPs this stage (why)"]
    assert "color:#b00020" in lab.cells["1st RNF"]["cohesion"].value


def test_the_150_percent_ceiling_is_shown_inline_and_nothing_changes(lab):
    act(lab, "move", "1st RNF", 12)
    assert not act(lab, "move", "1st RNF", 1)
    assert "CNA 8.17" in lab.error.message and lab.sheet.line("1st RNF").spent == 12


def test_a_negative_cp_amount_is_an_inline_error(lab):
    assert not act(lab, "move", "Italian tank bn", -3)
    assert "must not be negative" in lab.error.message
    assert lab.sheet.line("Italian tank bn").spent == 0


def test_retreating_in_the_enemys_portion_is_not_capped_but_counts(lab):
    act(lab, "move", "1st RNF", 12)
    assert act(lab, "retreat", "1st RNF", 4)
    assert lab.sheet.line("1st RNF").cohesion == -8  # 16 CPs against a CPA of 8


def test_an_assault_books_heavy_losses_and_a_win(lab):
    lab.before.value, lab.lost.value, lab.vacated.value = 10, 4, True
    assert act(lab, "assault", "Italian tank bn", 5)
    row = lab.row_values("Italian tank bn")
    assert row["DPs / RPs this stage (why)"].startswith("−3 / +3")
    assert row["CPs spent"] == "5" and row["cohesion"] == "0"


def test_impossible_assault_figures_are_refused_before_any_cp_is_paid(lab):
    lab.before.value, lab.lost.value = 5, 9
    assert not act(lab, "assault", "Italian tank bn", 5)
    assert "cannot lose 9" in lab.error.message
    assert lab.sheet.line("Italian tank bn").spent == 0


def test_ending_the_stage_rests_idle_units_and_extends_the_plot(lab):
    lab.sheet.earn_dps("4th RHA battery", 4, "CNA 6.21", "set up for the test")
    act(lab, "move", "Italian tank bn", 30)
    assert lab.end_stage()
    assert lab.sheet.line("4th RHA battery").cohesion == 0  # -4 + 5 RPs, stopped at 0
    assert lab.sheet.line("Italian tank bn").cohesion == -5
    xs, ys = cohesion_series(lab.sheet)["Italian tank bn"]
    assert (xs, ys) == ([0.0, 1.0], [0, -5])


def test_the_plot_is_redrawn_after_each_action():
    lab = LogSheetLab()
    first = lab.figure_out.value
    act(lab, "move", "Italian tank bn", 30)
    assert lab.figure_out.value != first
    line = next(ln for ln in lab.figure.axes[0].lines if ln.get_label() == "Italian tank bn")
    assert list(line.get_ydata()) == [0, -5]


EXPECTED = {  # worked example -> (unit, final Cohesion Level) as the rules give it
    "6.14": ("1st RNF", -1),
    "6.21": ("tank bn (CPA 15)", -3),
    "6.22": ("1st RNF", -4),
    "6.23": ("1st RNF", 2),
    "6.24 rest": ("1st RNF", 0),
    "6.24 assault": ("Italian tank bn", 3),
    "8.17": ("1st RNF", -4),
}


@pytest.mark.parametrize("key", sorted(WORKED_EXAMPLES))
def test_each_worked_example_ends_where_the_rules_say(key):
    sheet, lines = run_example(key)
    unit, level = EXPECTED[key]
    assert sheet.line(unit).cohesion == level
    assert len(lines) == len(WORKED_EXAMPLES[key].steps)


def test_the_6_14_retreat_leaves_two_cps():
    _, lines = run_example("6.14")
    assert "6 of CPA 8 used" in lines[0] and "8 of CPA 8 used" in lines[1]


def test_the_8_17_example_records_the_refusal():
    sheet, lines = run_example("8.17")
    assert "refused" in lines[1] and "(CNA 8.17)" in lines[1]
    assert sheet.line("1st RNF").spent == 12


def test_replay_button_swaps_in_the_example_sheet(lab):
    lab.example_buttons["6.21"].click()
    assert list(lab.sheet.lines) == ["tank bn (CPA 15)"]
    assert lab.row_values("tank bn (CPA 15)")["cohesion"] == "-3"
    assert "Three CPs over the CPA earn 3 DPs" in lab.example_text.value


def test_brigades_fight_at_minus_one():
    level, text = brigades_example()
    assert level == -1 and "CNA 6.27" in text


def test_planner_drives_a_unit_to_the_collapse_stop_and_back():
    planner = CohesionPlanner()
    levels = [lvl for _, lvl in planner.sheet.cohesion_series("Italian tank bn")]
    # stage 3 starts at -20: 25 CPs free, 6 more reach -26 and the unit stops (CNA 6.26)
    assert levels == [0, -10, -20, -26, -21, -16, -11]
    assert "+0, -10, -20, -26, -21, -16, -11" in planner.summary.value
    assert (
        planner.unspent[2] == 4 and "4 of the 35 CPs planned never spent" in planner.summary.value
    )


def test_a_collapsed_unit_spends_nothing_until_it_has_rested():
    planner = CohesionPlanner(plan="35, 35, 35, 35, 0, 35")
    levels = [lvl for _, lvl in planner.sheet.cohesion_series("Italian tank bn")]
    # stage 4: collapsed, it cannot move, so it spends nothing and rests (+5, CNA 6.24);
    # stage 6 starts at -16 and the move stops again exactly at -26
    assert levels == [0, -10, -20, -26, -21, -16, -26]
    assert planner.unspent == [0, 0, 4, 35, 0, 0]


@pytest.mark.parametrize(
    ("unit", "plan", "message"),
    [
        ("Italian tank bn", "5, lots", "expected numbers of CPs"),
        ("Italian tank bn", "", "type at least one number"),
        ("1st RNF", "13", "CNA 8.17"),
        ("Italian tank bn", "5, -2", "must not be negative"),
    ],
)
def test_planner_shows_bad_plans_inline(unit, plan, message):
    planner = CohesionPlanner()
    kept = planner.sheet
    planner.unit.value, planner.plan.value = unit, plan
    assert not planner.run()
    assert message in planner.error.message and planner.sheet is kept


def test_planner_refuses_a_negative_cpa_inline():
    planner = CohesionPlanner()
    planner.cpa.value = -1
    assert not planner.run()
    assert "the CPA of Italian tank bn must be at least 0, got -1" in planner.error.widget.value


def test_planner_uses_a_changed_cpa():
    planner = CohesionPlanner()
    planner.cpa.value = 30
    planner.plan.value = "35"
    assert planner.run()
    assert planner.sheet.cohesion_series("Italian tank bn")[-1] == (1, -5)
    planner.unit.value = "1st RNF"
    assert planner.cpa.value == 8


# --- fixes found by trying the lesson as a learner -------------------------------------------


def test_a_cpa_0_gun_row_and_refusal_agree(lab):
    row = lab.row_values("4th RHA battery")
    assert row["CPA"].startswith("0") and "10" in row["CPA"]  # 0 to move, 10 for the rest
    for how in ("move", "retreat"):
        assert not act(lab, how, "4th RHA battery", 2)
        msg = lab.error.message
        assert "CNA 6.11" in msg and "cannot move under its own power" in msg
        assert "150%" not in msg and "at most 0 CPs" not in msg
    assert lab.sheet.line("4th RHA battery").spent == 0
    lab.before.value, lab.lost.value = 10, 0
    assert act(lab, "assault", "4th RHA battery", 4)  # firing and fighting use its CPA of 10
    assert lab.row_values("4th RHA battery")["CPs left"] == "6"


def test_planner_with_the_gun_says_why_and_drops_the_old_summary():
    planner = CohesionPlanner()
    planner.unit.value = "4th RHA battery"
    assert not planner.run()
    assert "CNA 6.11" in planner.error.message
    assert "Italian tank bn" not in planner.summary.value  # no stale result under a new unit


def test_identical_cohesion_lines_are_drawn_once_with_both_names():
    lab = LogSheetLab()
    act(lab, "move", "Italian tank bn", 30)
    labels = [
        ln.get_label() for ln in lab.figure.axes[0].lines if not ln.get_label().startswith("_")
    ]
    # RNF, KRRC and the battery all stay at 0: one line, named for all three
    together = [x for x in labels if "1st RNF" in x]
    assert len(together) == 1 and "4th RHA battery" in together[0] and "1st KRRC" in together[0]
    assert any(x == "Italian tank bn" for x in labels)
