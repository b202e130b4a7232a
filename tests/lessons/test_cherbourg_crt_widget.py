"""The Cherbourg lesson's widgets, driven headless: every number they show is the model's."""

from __future__ import annotations

import pytest

from hexclass.classroom.cherbourg import COLUMNS, combat_column, lookup
from hexclass.widgets.cherbourg_crt import (
    BombingExplorer,
    CRTExplorer,
    crt_html,
    explorer_combat,
    one_more_column,
    worked_examples,
)


@pytest.fixture
def lab():
    return CRTExplorer(plot=False)


def test_the_explorer_opens_on_the_5_1_1_example(lab):
    assert lab.report.name == "2-1"
    assert "11 to 4, fraction dropped: 2-1" in lab.steps.value
    assert "Column 2-1" in lab.current.value and "One column right: 3-1" in lab.next.value


def test_bocage_against_armour_moves_four_columns_and_says_why(lab):
    lab.attack.value = 16
    lab.terrain.value = ("bocage",)
    assert lab.report.name == "2-1"
    lab.armour.value = True
    assert lab.report.name == "1-2"
    assert "bocage against armour" in lab.steps.value and "Cherbourg 5.1.2" in lab.steps.value


def test_siege_regiments_and_division_shift_right(lab):
    lab.attack.value, lab.defence.value = 8, 4  # 2-1
    lab.surrounded.value = True
    assert lab.report.name == "3-1"
    lab.regiments.value = 1
    assert lab.report.name == "4-1"
    lab.division.value = True
    assert lab.report.name == "5-1"
    lab.def_regiment.value = True
    assert lab.report.name == "4-1"
    assert "Cherbourg 5.1.3" in lab.steps.value and "Cherbourg 5.1.4" in lab.steps.value


def test_one_more_column_is_exact(lab):
    lab.attack.value, lab.defence.value = 12, 4  # 3-1
    assert "rises by 8/36" in lab.buy.value
    assert "buys nothing" in one_more_column(len(COLUMNS) - 1)


def test_the_roll_uses_seeded_dice_and_lights_the_cell():
    a, b = CRTExplorer(seed=5, plot=False), CRTExplorer(seed=5, plot=False)
    rolls = [a.roll() for _ in range(4)]
    assert rolls == [b.roll() for _ in range(4)]
    result = lookup(a.report.column, rolls[-1])
    assert result.code in a.rolled.value and "outline:2px" in a.table.value


def test_too_few_points_is_an_inline_error_and_keeps_the_last_column(lab):
    lab.armour.value = True
    lab.regiments.value = 3
    lab.attack.value = 3  # four stand-in attackers need four points
    assert "need at least 4 attack points" in lab.error.message
    assert lab.report.name == "2-1" or lab.report is not None


def test_explorer_combat_is_judged_by_the_model():
    c = explorer_combat(9, 3, ("city",), surrounded=True)
    assert combat_column(c).name == "2-1"  # 3-1, two left for the city, one right for the siege


def test_crt_html_shades_the_column():
    html = crt_html(COLUMNS.index("5-1"), 7)
    assert html.count("background:#fff4cc") == 6 and "IMP" in html
    # the marginal value of a column, 1-4 ... 8-1: largest from 3-1 to 5-1
    assert [c.split("<")[0] for c in html.split("one column right adds</th><td>")[1].split("<td>")] == [
        "+0/36", "+0/36", "+2/36", "+4/36", "+6/36", "+8/36", "+8/36", "+6/36", "+0/36", "+0/36", "+0/36", "—",
    ]  # fmt: skip


def test_bombing_explorer_follows_the_62_example():
    bomb = BombingExplorer()
    assert bomb.result.value == 30 and "25-48" in bomb.out.value
    bomb.terrain.value = "grove"
    assert bomb.result.column_name == "1-24"
    bomb.kind.value = "artillery"
    bomb.terrain.value = "river"
    assert bomb.result.left == 0  # rivers do not shelter from guns
    bomb.power.value = 12
    bomb.kind.value = "air"
    assert "3 to 10 air points" in bomb.error.message


def test_worked_examples_match_the_book():
    text = " ".join(" ".join(r) for r in worked_examples())
    for expected in ("6 movement points", "column 2-1", "value 30: column 25-48", "1-24", "= 20"):
        assert expected in text


def test_the_chances_chart_marks_the_current_column():
    from hexclass.widgets.cherbourg_crt import chances_svg

    lab = CRTExplorer(plot=True)
    svg = lab.plot.value
    assert svg.startswith("<svg") and all(f">{c}<" in svg for c in COLUMNS)
    assert "stroke-dasharray" in svg  # the marker for the current column
    assert "stroke-dasharray" not in chances_svg(None)


# --- the retreat lesson on a map (Cherbourg 5.3) ---------------------------------------------------


def test_the_retreat_lab_shows_the_models_siege_and_outcome_in_words():
    from hexclass.classroom.cherbourg import Field, retreat, surrounded
    from hexclass.widgets.cherbourg_retreat import CENTRE, START_ENEMIES, RetreatLab, stack

    lab = RetreatLab()
    terrain = {h: ("clear",) for h in lab.hexes}
    f = Field(terrain=terrain, enemy=START_ENEMIES)
    assert lab.sieged == surrounded(f, CENTRE) is True
    assert len(lab.path) == 2
    expected = retreat(f, stack(), CENTRE, lab.path)
    assert lab.outcome == expected
    text = lab.text.value
    assert "Under siege: yes" in text and "Eliminated:</b> 2/919" in text
    assert "(0, 0)" not in text and "True" not in text and "[(" not in text  # words, no reprs
    lab.friend.value = True  # friends in the first hex: no casualties on the second move
    assert {u.name for u in lab.outcome.survivors} == {"1/919", "2/919"}
    assert "Eliminated:</b> nobody" in lab.text.value


def test_clicking_takes_an_enemy_away_and_lifts_the_siege():
    from hexclass.classroom.cherbourg import Field, retreat_options
    from hexclass.widgets.cherbourg_retreat import CENTRE, RetreatLab

    lab = RetreatLab()
    before = lab.board.redraws
    lab.click((2, 0))
    assert lab.board.redraws > before  # the map is drawn again
    f = Field(terrain={h: ("clear",) for h in lab.hexes}, enemy=frozenset(lab.enemies))
    assert not lab.sieged and lab.options == retreat_options(f, CENTRE)
    assert len(lab.path) == 1 and lab.path[0] in lab.options
    assert "Under siege: no" in lab.text.value
    lab.click(CENTRE)  # our own hex: nothing changes
    assert CENTRE not in lab.enemies
    lab.put_back()
    assert lab.sieged


def test_the_explorer_names_regiments_once():
    from hexclass.classroom.cherbourg import combat_column
    from hexclass.widgets.cherbourg_crt import explorer_combat

    report = combat_column(explorer_combat(11, 4, attack_regiments=2, defence_regiment=True))
    text = " ".join(s.value for s in report.steps)
    assert "regiment regiment" not in text and "attacks complete" in text
    assert "regiment 919 defends complete" in text
