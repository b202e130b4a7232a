"""The TOAW supply map, curves and cut-off unit, driven by calling their handlers."""

from __future__ import annotations

import numpy as np
import pytest

from hexclass.classroom.toaw import Rules, SupplyStatus, supply_field
from hexclass.classroom.toaw.hexmap import offset_to_axial
from hexclass.widgets.toaw_supply import (
    CURVE_STYLE,
    OVEREXTENDED_FONT,
    CutOffUnit,
    SupplyCurves,
    SupplyMapLab,
    curve_data,
    unit_history,
)

FAR_EAST = offset_to_axial(16, 5)  # inland, far from the railhead
ROAD_MIDDLE = offset_to_axial(10, 2)


class TextRecorder:
    """Stands in for HexBoard.texts on one board and keeps what was drawn where."""

    def __init__(self, board):
        self.board, self.real, self.drawn = board, board.texts, {}
        board.texts = self

    def __call__(self, c, items, color="#222", **kw):
        items = list(items)
        for h, text in items:
            self.drawn[h] = (text, color)
        self.real(c, items, color=color, **kw)


@pytest.fixture
def lab():
    return SupplyMapLab()


def drawn_numbers(lab, rules):
    rec = TextRecorder(lab.boards[rules])
    lab.draw_boards("supply")
    return rec.drawn


def test_placing_a_source_raises_the_number_drawn_on_a_far_hex(lab):
    before = drawn_numbers(lab, Rules.NEW)[FAR_EAST][0]
    rec = TextRecorder(lab.boards[Rules.NEW])
    assert lab.place("source", offset_to_axial(15, 4))
    after = rec.drawn[FAR_EAST][0]
    assert int(after) > int(before)
    assert lab.shown(Rules.NEW, FAR_EAST) == int(after)


def test_each_click_is_one_redraw_per_map(lab):
    counts = {r: b.redraws for r, b in lab.boards.items()}
    lab.place("supply unit", ROAD_MIDDLE)
    assert all(b.redraws == counts[r] + 1 for r, b in lab.boards.items())
    assert lab.last_click_ms > 0


def test_the_numbers_are_the_models_numbers(lab):
    lab.place("supply unit", ROAD_MIDDLE)
    lab.place("enemy unit", offset_to_axial(12, 8))
    f = supply_field(lab.hexmap, lab.situation, lab.settings)  # new rules
    expected = {
        h: int(f.shown_level[h[1], h[0] + h[1] // 2])
        for h in lab.hexes
        if f.supplied[h[1], h[0] + h[1] // 2]
    }
    assert lab.labels(Rules.NEW) == expected
    assert {h: int(t) for h, (t, _) in drawn_numbers(lab, Rules.NEW).items()} == expected


def test_a_supply_unit_helps_both_rules_near_it(lab):
    near = offset_to_axial(12, 3)
    old, new = lab.shown(Rules.OLD, near), lab.shown(Rules.NEW, near)
    lab.place("supply unit", ROAD_MIDDLE)
    assert lab.shown(Rules.NEW, near) > new
    assert lab.shown(Rules.OLD, near) >= old


def test_clicking_again_removes_what_was_placed(lab):
    start = lab.labels(Rules.NEW)
    lab.place("source", offset_to_axial(15, 4))
    lab.place("source", offset_to_axial(15, 4))
    assert lab.labels(Rules.NEW) == start and len(lab.situation.sources) == 1


def test_an_enemy_unit_cuts_supply_next_to_it_and_says_why(lab):
    beside = offset_to_axial(8, 3)
    assert lab.shown(Rules.NEW, beside) is not None
    lab.place("enemy unit", offset_to_axial(8, 4))
    assert lab.shown(Rules.NEW, beside) is None and lab.shown(Rules.OLD, beside) is None
    assert beside not in drawn_numbers(lab, Rules.OLD)
    lab.place("inspect", beside)
    assert "next to an enemy unit" in lab.explain_html[Rules.NEW].value


def test_overextended_numbers_are_drawn_in_their_own_colour(lab):
    drawn = drawn_numbers(lab, Rules.NEW)
    f = lab.fields[Rules.NEW]
    over = [h for h in drawn if f.status_at(h) is SupplyStatus.OVEREXTENDED]
    assert over, "the lesson map should show some overextended hexes"
    assert all(drawn[h][1] == OVEREXTENDED_FONT for h in over)
    assert all(drawn[h][1] != OVEREXTENDED_FONT for h in drawn if h not in over)


@pytest.mark.parametrize(
    ("tool", "hex_", "message"),
    [
        ("enemy unit", (99, 99), "is off the map"),
        ("source", offset_to_axial(5, 0), "must stand on land"),
    ],
)
def test_impossible_placements_are_shown_inline_and_change_nothing(lab, tool, hex_, message):
    before = lab.situation
    assert not lab.place(tool, hex_)
    assert message in lab.error.message and message in lab.error.widget.value
    assert lab.situation is before


@pytest.mark.parametrize("strength", [0, 300])
def test_a_source_strength_outside_1_to_250_is_refused(lab, strength):
    lab.strength.value = strength
    assert not lab.place("source", offset_to_axial(3, 5))
    assert "from 1 to 250" in lab.error.message and len(lab.situation.sources) == 1


def test_a_radius_of_minus_one_is_refused_and_a_good_radius_applied(lab):
    lab.radius.value = -1
    assert "supply radius must be a whole number from 0 to 100" in lab.error.message
    assert lab.settings.radius == 4
    far_before = lab.shown(Rules.NEW, FAR_EAST)
    lab.radius.value = 8
    assert lab.error.message == "" and lab.settings.radius == 8
    assert lab.shown(Rules.NEW, FAR_EAST) > far_before


def test_terrain_and_road_tools_edit_the_map(lab):
    h = offset_to_axial(4, 6)  # dunes without a road
    assert lab.shown(Rules.OLD, h) is None
    lab.place("road", h)
    assert lab.hexmap.has_road(h)
    lab.terrain.value = lab.terrain.options[-1][1]  # water
    lab.place("terrain", offset_to_axial(3, 3))
    assert lab.shown(Rules.NEW, offset_to_axial(3, 3)) is None


def test_hover_explains_a_hex_under_both_rules(lab):
    lab.hover(offset_to_axial(2, 2))
    assert "old rules, hex" in lab.explain_html[Rules.OLD].value
    assert "TOAW 9.1.7.3" in lab.explain_html[Rules.NEW].value


def test_curves_match_the_manuals_points():
    d, curves = curve_data(25)
    assert curves["new rules"][0] == pytest.approx(1.10)
    assert curves["old rules"][0] == 1.0
    i = int(np.argmin(abs(d - 25)))
    assert curves["new rules"][i] == pytest.approx(1.10 / 1.375 ** (d[i] / 25))
    assert max(curves["new rules with supply unit"]) == pytest.approx(1.10)
    assert all(curves["new rules with supply unit"] >= curves["new rules"])


def test_curve_widget_shows_a_bad_radius_inline():
    w = SupplyCurves()
    labels = {ln.get_label() for ln in w.figure.axes[0].lines if not ln.get_label().startswith("_")}
    assert labels == set(CURVE_STYLE)
    w.radius.value = -1
    assert "supply radius" in w.error.message
    w.radius.value = 10
    assert w.error.message == "" and "radius 10" in w.figure.axes[0].get_title()


def test_a_cut_off_unit_loses_a_point_per_half_day_and_readiness_follows():
    reports = unit_history(SupplyStatus.UNSUPPLIED, 0, 50, 8, 3.5)
    supply = [r.supply for r in reports]
    assert supply[0] == 100 and all(a - b == pytest.approx(7) for a, b in zip(supply, supply[1:]))
    assert all(r.readiness <= max(r.supply, 33) for r in reports)
    assert all(r.deserted == 0 for r in reports if r.supply >= 50)


def test_a_supplied_unit_never_deserts():
    reports = unit_history(SupplyStatus.SUPPLIED, 20, 10, 12, 7)
    assert all(r.deserted == 0 for r in reports) and reports[-1].equipment == 100


def test_cut_off_widget_plots_and_refuses_bad_turns():
    w = CutOffUnit()
    equipment = [r.equipment for r in w.reports]
    assert equipment == sorted(equipment, reverse=True) and equipment[-1] < 100
    assert "<td>16</td>" in w.table.value
    w.turns.value = 0
    assert "at least one turn" in w.error.message
    w.turns.value = 5
    w.status.value = "supplied"
    assert w.error.message == "" and len(w.reports) == 5


def test_the_status_line_has_no_timing_for_learners(lab):
    assert "Last click" not in lab.status.value and " ms" not in lab.status.value
    lab.place("supply unit", ROAD_MIDDLE)
    assert "Last click" not in lab.status.value and " ms" not in lab.status.value


def test_hexes_are_named_by_column_and_row_never_negative(lab):
    h = offset_to_axial(1, 5)  # axial q is negative here
    assert h[0] < 0
    lab.hover(h)
    html = lab.explain_html[Rules.OLD].value
    assert "hex (1, 5)" in html and "Hex (1, 5)" in html and f"{h}" not in html


def test_one_hex_is_not_hexes():
    from hexclass.classroom.toaw import HexMap, Situation, SupplySettings, supply_field

    strip = HexMap.from_ascii(["." * 5], ["rrrrr"])
    f = supply_field(strip, Situation().with_source((0, 0)), SupplySettings(rules="old", radius=2))
    text = f.explain((1, 0)).text()
    assert "1 hex " in text and "1 hexes" not in text


def test_the_river_tool_sets_the_side_between_two_clicked_neighbours(lab):
    from hexclass.classroom.toaw.terrain import HexsideFeature

    a, b = offset_to_axial(10, 2), offset_to_axial(11, 2)
    lab.tool.value = "river"
    assert not lab.click(a) and "Now click a hex next to (10, 2)" in lab.error.message
    assert lab.click(b) and lab.hexmap.hexside_at(a, b) is HexsideFeature.MAJOR_RIVER
    lab.click(a)
    assert not lab.click(offset_to_axial(13, 2))  # not a neighbour: refused, nothing changes
    assert "are not neighbours" in lab.error.message
    lab.click(a)
    lab.click(b)  # the same side again: the river goes
    assert lab.hexmap.hexside_at(a, b) is None


def test_an_escarpment_across_the_only_road_changes_the_new_rules(lab):
    from hexclass.classroom.toaw.terrain import HexsideFeature

    lab.tool.value = "escarpment"
    lab.click(offset_to_axial(10, 2))
    lab.click(offset_to_axial(11, 2))
    assert lab.hexmap.hexside_at(offset_to_axial(10, 2), offset_to_axial(11, 2)) is (
        HexsideFeature.MAJOR_ESCARPMENT
    )
    f = supply_field(lab.hexmap, lab.situation, lab.settings)
    assert lab.shown(Rules.NEW, offset_to_axial(14, 2)) == int(f.shown_level[2, 14])


def test_the_improved_road_tool_toggles_the_feature(lab):
    h = offset_to_axial(12, 5)
    lab.place("improved road", h)
    assert lab.hexmap.has_improved_road(h)
    lab.place("improved road", h)
    assert not lab.hexmap.has_improved_road(h)


def test_the_overextended_preset_deserts_into_the_on_hand_pool():
    from hexclass.widgets.toaw_supply import CutOffUnit

    u = CutOffUnit()
    u.preset("overextended")
    deserted = sum(r.deserted for r in u.reports)
    assert deserted > 0 and u.states[-1].on_hand == deserted and u.states[-1].lost == 0
    assert "<th>On Hand</th>" in u.table.value
    u.preset("cut off")
    lost = sum(r.deserted for r in u.reports)
    assert lost > 0 and u.states[-1].lost == lost and u.states[-1].on_hand == 0


def test_the_panels_itemise_resupply_and_consumption_from_the_model():
    from hexclass.classroom.toaw.unit import Activity, activity_cost
    from hexclass.widgets.toaw_supply import CutOffUnit

    u = CutOffUnit()
    u.status.value = "supplied"
    u.level.value = 15.0
    u.hq.value = True
    u.night.value = True
    u.combat.value = 2
    u.moves.value = 4.0
    html = u.panels.value
    assert "cooperative HQ" in html and "night turn" in html and "global handicap" in html
    cost = activity_cost(Activity(movement_points=4.0, combat_rounds=2))
    assert f"<td>in all, per turn</td><td></td><td>{cost:g}</td>" in html
    from hexclass.classroom.toaw.unit import Bookkeeping, resupply_amount

    b = Bookkeeping(
        status=SupplyStatus.SUPPLIED, location_level=15.0, turn_days=3.5, **u.circumstances()
    )
    assert f"= {resupply_amount(b, moved_last_turn=True):.1f} points of unit supply" in html


def test_the_cut_off_table_shows_the_supply_desertion_is_tested_on():
    """TOAW 9.1.7.1: desertion is tested at bookkeeping, before the turn's activity consumes
    supply; the table's column says so and agrees with the model row by row."""
    from hexclass.classroom.toaw.unit import desertion_chance, desertion_threshold

    w = CutOffUnit()
    w.moves.value = 8.0  # activity consumes supply after the test: the two columns differ
    html = w.table.value
    assert "<th>supply at bookkeeping (desertion tested on it)</th>" in html
    threshold = desertion_threshold(w.proficiency.value)
    days = w.days.value
    for r in w.reports:
        expected = desertion_chance(r.tested_supply, w.proficiency.value, days)
        assert r.desertion_chance == pytest.approx(expected)
        if r.tested_supply >= threshold:
            assert r.desertion_chance == 0
        row = f"<td>{r.turn}</td><td>{r.tested_supply:.0f}</td><td>{r.supply:.0f}</td>"
        assert row in html
    assert any(r.tested_supply != r.supply for r in w.reports)


def test_the_road_cut_what_if_is_the_models_answer_for_each_hex():
    from hexclass.classroom.toaw import both_rules
    from hexclass.classroom.toaw.hexmap import offset_to_axial
    from hexclass.widgets.toaw_supply import (
        LESSON_SETTINGS,
        RoadCutWhatIf,
        lesson_map,
        lesson_situation,
    )

    w = RoadCutWhatIf(column=8)
    for column in (None, 3, 8, 12):
        w.cut.value = -1 if column is None else column
        sit = lesson_situation()
        if column is not None:
            sit = sit.with_enemy(offset_to_axial(column, 2))
        old, new = both_rules(lesson_map(), sit, LESSON_SETTINGS)
        base_old, base_new = both_rules(lesson_map(), lesson_situation(), LESSON_SETTINGS)
        for name, b, a in (("old", base_old, old), ("new", base_new, new)):
            row = (
                f"<td>{name} rules</td><td>{int(b.shown_level[1, 14])}</td>"
                f"<td>{int(a.shown_level[1, 14])}</td>"
            )
            assert row in w.out.value, (column, name)
    w.cut.value = 8
    assert "<td>14</td><td>10</td>" in w.out.value  # the new rules charge the detour
