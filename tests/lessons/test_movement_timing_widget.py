"""The movement-timing lesson's widgets, driven headless (clicks are sent as hexes)."""

from __future__ import annotations

import pytest

from hexclass.classroom.movement.hexmap import step
from hexclass.classroom.movement.scenarios import ESTEL
from hexclass.widgets.movement_timing import (
    PhaseTimingLab,
    chart_html,
    order_for_click,
    phasing_table_html,
    planned_end,
    worked_examples,
)


@pytest.fixture
def lab():
    return PhaseTimingLab()


def test_the_estel_plan_plays_out(lab):
    t = lab.result
    estel = lab.world.centres[ESTEL].hex
    assert t.arrival("APC", estel) == 7 and t.arrival("Infantry", estel) == 12
    assert (
        "·0·0·0·0·0·A" in lab.chart.value.replace("</td>", "").replace('<td title="', "|")
        or "A" in lab.chart.value
    )
    lab.phase.value = 6
    assert "red" in lab.status.value  # Estel still red after phase 6
    lab.phase.value = 7
    assert "Estel Village</td><td>blue" in lab.status.value
    assert "is now controlled by blue" in lab.log.value


def test_clicking_next_to_the_plan_adds_a_direction(lab):
    lab.unit_pick.value = "Infantry"
    lab.set_orders("Infantry", "")
    start = lab.world.centres[601].hex
    assert lab.click(step(start, 3)) == "3"
    assert lab.order_fields["Infantry"].value == "3"
    assert lab.result.position("Infantry", 2) == step(start, 3)
    assert lab.click(step(start, 3)) == "0"  # the plan's end: a wait
    assert lab.click(lab.world.centres[ESTEL].hex) == "605"
    assert lab.order_fields["Infantry"].value == "3,0,605"
    lab.undo_last()
    assert lab.order_fields["Infantry"].value == "3,0"


def test_a_far_click_is_explained_and_changes_nothing(lab):
    before = lab.order_fields["APC"].value
    assert lab.click((1, 2)) is None
    assert "not next to where APC's orders end" in lab.error.message
    assert lab.order_fields["APC"].value == before


def test_bad_orders_are_an_inline_error_and_the_last_turn_stays(lab):
    good = lab.result
    lab.set_orders("Infantry", "0,0,9")
    assert "9 is not a movement instruction" in lab.error.message
    assert lab.result is good
    lab.set_orders("Infantry", "0,0,0,0,0,0,0")
    assert "at most 6 instructions" in lab.error.message


def test_driving_in_early_shows_the_penalty_in_the_log(lab):
    lab.set_orders("Infantry", "605")
    lab.phase.value = 2
    assert "drives into hostile units" in lab.log.value and "blue 2, red 6" in lab.log.value


def test_scenarios_switch_and_redraw(lab):
    draws = lab.board.redraws
    lab.scenario_pick.value = "jungle"
    assert lab.world.label(lab.world.centres[101].hex) == "1328"
    assert lab.result.arrival("jungle company", lab.world.centres[101].hex) == 12
    assert lab.board.redraws >= 1 and lab.board is not None
    lab.scenario_pick.value = "diaz"
    assert set(lab.order_fields) == {"convoy"}
    assert draws >= 1


def test_the_board_uses_flat_topped_hexes_and_finds_clicked_hexes(lab):
    b = lab.board
    for h in list(lab.world.terrain)[:10]:
        assert b.hex_at(*b.centre(h)) == h
    x1, y1 = b.centre((3, 0))
    x2, y2 = b.centre((3, 1))
    assert x1 == x2 and y2 > y1  # direction 4 (south) is straight down


def test_planning_helpers():
    lab = PhaseTimingLab("diaz")
    unit = lab.current_units()[0]
    assert planned_end(lab.world, unit) == lab.world.centres[501].hex
    assert order_for_click(lab.world, unit, lab.world.centres[501].hex) == "0"


def test_tables_and_examples():
    html = phasing_table_html()
    assert html.count("●") == 6 + 7 + 8 + 9 + 10 + 12 + 1  # one per point, and the legend
    lab = PhaseTimingLab()
    assert "⚔" in chart_html(lab.result)
    rows = worked_examples()
    assert any("phase 4" in r[2] for r in rows) and any("phase 12" in r[2] for r in rows)
    assert any("no road route runs straight" in r[2] for r in rows)


def test_the_pursuit_option_is_set_per_unit_and_changes_the_turn():
    lab = PhaseTimingLab("pursuit")
    lab.pursuit_fields["Tanks"].value = 1
    assert not any("pursues" in e.text for e in lab.result.events)
    lab.pursuit_fields["Tanks"].value = 2
    assert any("pursues Rearguard" in e.text for e in lab.result.events)
    lab.pursuit_fields["Tanks"].value = 3
    assert any("breaks through" in e.text for e in lab.result.events)
    assert "Rearguard" not in lab.pursuit_fields  # only our own units take a setting
    before = [str(e) for e in lab.result.events]
    lab.seed.value = 2
    lab.seed.value = 1
    assert [str(e) for e in lab.result.events] == before  # the same seed, the same rolls


def _inside(poly, x, y) -> bool:
    """Point in a convex polygon (corners in order, either winding)."""
    signs = set()
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]):
        cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
        if abs(cross) > 1e-9:
            signs.add(cross > 0)
    return len(signs) <= 1


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_stacked_counters_lie_inside_their_hex_without_overlapping(n):
    from hexclass.classroom.movement.hexmap import FlatLayout
    from hexclass.widgets.movement_timing import stack_boxes

    lay = FlatLayout(30.0, (100.0, 100.0))
    h = (2, 1)
    x, y = lay.hex_to_pixel(h)
    poly = [tuple(p) for p in lay.polygon(h)]
    boxes = stack_boxes(x, y, n, 30.0)
    for left, top, w, ht in boxes:
        assert w > 0 and ht >= (10 if n <= 3 else 8)
        for cx, cy in ((left, top), (left + w, top), (left, top + ht), (left + w, top + ht)):
            assert _inside(poly, cx, cy), (n, cx, cy)
    for (_, t1, _, h1), (_, t2, _, _) in zip(boxes, boxes[1:]):
        assert t1 + h1 <= t2  # one above the next, never over it


def test_counter_labels_fit_their_counters():
    from hexclass.widgets.movement_timing import CHAR_EM, counter_text, stack_boxes

    for n in (1, 2, 3):
        for _left, _top, w, h in stack_boxes(0, 0, n, 30.0):
            largest = min(10, int(h - 2))
            for name in ("APC", "Infantry", "AP Infantry", "Elite Infantry", "Tanks"):
                label, px = counter_text(name, w, largest)
                assert 8 <= px <= largest or px == largest
                fits = len(label) * CHAR_EM * px + 4 <= w
                assert fits or len(label) <= 3, (name, w, label, px)
    assert counter_text("Infantry", stack_boxes(0, 0, 1, 30.0)[0][2])[0] == "Infantry"
