"""The CNA sequence stepper and the skirmish map, driven by calling their handlers."""

from __future__ import annotations

import pytest

from hexclass.classroom.cna import Role, Side
from hexclass.widgets.cna_sequence import SequenceStepper, SkirmishMap, outline_html, reaction_path

RECCE_PATH = [(1, 2), (2, 2), (3, 2)]  # from (0, 3) along the track to the screen


@pytest.fixture
def stepper():
    return SequenceStepper(seed=1940)


def test_next_and_back_walk_the_outline(stepper):
    assert stepper.cursor.key == "I"
    assert stepper.step() and stepper.cursor.key == "II.A"
    assert "II.A Naval Convoy Schedule Phase" in stepper.card.value
    assert stepper.back() and stepper.cursor.key == "I"
    assert not stepper.back() and "nothing to go back to" in stepper.error.message


def test_rolling_the_initiative_names_the_holder_on_the_card(stepper):
    assert not stepper.buttons["roll"].disabled
    assert stepper.roll_initiative()
    holder = stepper.cursor.initiative_holder
    assert holder in (Side.AXIS, Side.COMMONWEALTH)
    assert f"Initiative:</b> {holder.value}" in stepper.card.value
    assert "(CNA 7.14)" in stepper.card.value
    assert stepper.buttons["roll"].disabled


def test_declaring_without_the_initiative_is_refused_inline(stepper):
    stepper.next_stage()
    stepper.next_stage()  # III.A
    assert stepper.cursor.key == "III.A" and not stepper.buttons["as_a"].disabled
    assert not stepper.declare(Role.A)
    assert "CNA 7.14" in stepper.error.message and stepper.cursor.declarations[0] is None


def test_the_holders_choice_decides_who_player_a_is(stepper):
    stepper.roll_initiative()
    holder = stepper.cursor.initiative_holder
    stepper.next_stage()
    stepper.next_stage()
    assert stepper.declare(Role.B)
    while stepper.cursor.key != "III.F":
        stepper.step()
    assert stepper.acting_text == f"Player A ({holder.other.value})"
    assert stepper.buttons["as_a"].disabled


def test_repeat_is_offered_only_at_reserve_release(stepper):
    while stepper.cursor.key != "III.G.4":
        stepper.step()
    assert not stepper.buttons["repeat"].disabled
    assert stepper.repeat()
    assert (stepper.cursor.key, stepper.cursor.movement_pass) == ("III.G.1", 2)
    assert "movement-and-combat pass 2" in stepper.card.value
    assert stepper.buttons["repeat"].disabled
    assert not stepper.repeat() and "CNA 8.22" in stepper.error.message


def test_outline_lights_the_current_leaf(stepper):
    while stepper.cursor.key != "III.G.3.f":
        stepper.step()
    html = outline_html(stepper.cursor)
    assert '<li class="now"><span>f. Close Assault Step' in html
    assert '<li class="path"><span>G. Movement and Combat Phase' in html


@pytest.fixture
def skirmish():
    return SkirmishMap()


def lay_recce_path(m: SkirmishMap) -> None:
    m.click((0, 3))
    for h in RECCE_PATH:
        m.click(h)


def test_clicking_a_unit_then_hexes_builds_a_checked_path(skirmish):
    lay_recce_path(skirmish)
    assert skirmish.selected == "Italian recce bn" and skirmish.path[-1] == (3, 2)
    assert "path of 3 hexes costs 3 CPs" in skirmish.header.value
    assert "1st KRRC" in skirmish.assault.options


def test_a_skipping_step_is_refused_and_the_path_kept(skirmish):
    skirmish.click((0, 3))
    skirmish.click((2, 3))  # two hexes away
    assert "CNA 8.13" in skirmish.error.message and skirmish.path == [(0, 3)]


def test_moving_the_recce_pins_the_krrc_and_its_trucks_react(skirmish):
    before = skirmish.board.redraws
    lay_recce_path(skirmish)
    skirmish.assault.value = "1st KRRC"
    assert skirmish.move()
    play = skirmish.play
    assert play.positions["Italian recce bn"] == (3, 2)
    assert play.positions["1st KRRC"] == (4, 1)  # pinned (CNA 8.53b)
    assert play.positions["2nd Line Light Trucks"] != (4, 1)  # reacted
    text = " ".join(skirmish.lines)
    assert "1st KRRC may not React" in text and "CNA 8.53b" in text
    assert "2nd Line Light Trucks Reacts to" in text
    assert skirmish.board.redraws > before
    assert (
        "<td>Italian recce bn</td><td>Axis</td><td>E3</td><td>45</td><td>3</td>"
        in skirmish.sheet.value
    )


def test_reaction_path_never_enters_an_enemy_zoc(skirmish):
    lay_recce_path(skirmish)
    skirmish.assault.value = "1st KRRC"
    play = skirmish.play
    report = play.move("Italian recce bn", [(0, 3), *RECCE_PATH], assault_on=["1st KRRC"])
    path = reaction_path(play, "2nd Line Light Trucks", report.unit)
    assert path[-1] not in play.zoc(Side.AXIS)


def test_moving_without_a_path_is_refused(skirmish):
    assert not skirmish.move() and "Pick a unit" in skirmish.error.message


def test_the_segment_order_is_kept(skirmish):
    assert not skirmish.end_portion() and "End the Movement Segment first" in skirmish.error.message
    skirmish.click((-1, 2))
    skirmish.click((0, 2))
    skirmish.move()
    assert skirmish.end_segment()
    assert skirmish.cursor.key == "III.G.4"
    assert any("Italian infantry bn may not move again" in x for x in skirmish.lines)  # CNA 8.23
    lay_recce_path(skirmish)
    assert not skirmish.move() and "Movement Segment (CNA 8.1)" in skirmish.error.message
    assert skirmish.another_pass() and skirmish.cursor.key == "III.G.1"
    assert skirmish.play.movement_pass == 2


def test_ending_the_stage_rests_the_idle_rnf_back_to_zero(skirmish):
    assert not skirmish.end_stage()
    skirmish.end_segment()
    assert skirmish.end_portion() and skirmish.cursor.phasing_role is Role.B
    assert skirmish.end_stage()
    assert skirmish.play.sheet.line("1st RNF").cohesion == 0
    assert any("+2 RPs" in x and "CNA 6.24" in x for x in skirmish.lines)
    assert skirmish.cursor.key == "IV.A"


def test_a_click_off_the_map_does_nothing(skirmish):
    skirmish.click(None)
    assert skirmish.selected is None and skirmish.error.message == ""


# --- fixes found by trying the lesson as a learner -------------------------------------------


def test_back_past_the_roll_hides_the_stale_initiative_result(stepper):
    assert stepper.roll_initiative()
    assert "(CNA 7.14)" in stepper.card.value
    assert stepper.back() and stepper.cursor.initiative_holder is None
    assert "(CNA 7.14)" not in stepper.card.value  # no result for a roll not yet made here
    assert "Initiative:</b> not settled" in stepper.card.value


def test_rolling_again_after_back_gives_the_same_dice(stepper):
    stepper.roll_initiative()
    first = stepper.cursor.initiative_holder
    lines = list(stepper.initiative_lines)
    for _ in range(6):  # a learner hoping for the other side
        stepper.back()
        assert stepper.roll_initiative()
        assert stepper.cursor.initiative_holder is first
        assert stepper.initiative_lines == lines
    assert "already rolled" in stepper.error.message and not stepper.error.is_error


def test_the_same_seed_gives_the_same_roll_after_start_again(stepper):
    stepper.roll_initiative()
    lines = list(stepper.initiative_lines)
    stepper.reset()
    assert stepper.initiative_lines == [] and "(CNA 7.14)" not in stepper.card.value
    stepper.roll_initiative()
    assert stepper.initiative_lines == lines


def test_next_stage_at_stage_vi_starts_the_next_game_turn(stepper):
    while not stepper.cursor.is_end_of_turn:
        assert stepper.next_stage()
    assert stepper.cursor.stage.label == "VI"
    assert stepper.buttons["stage"].description == "Next turn ▶▶"
    depth = len(stepper.history)
    assert stepper.next_stage()
    assert (stepper.cursor.game_turn, stepper.cursor.key) == (2, "I")
    assert len(stepper.history) == depth + 1  # one press, one step back
    assert stepper.buttons["stage"].description == "Next stage ▶▶"
    assert not stepper.buttons["roll"].disabled  # a new turn, a new roll
    stepper.back()
    assert stepper.cursor.stage.label == "VI"


def test_every_report_line_names_its_unit(skirmish):
    lay_recce_path(skirmish)
    skirmish.assault.value = "1st KRRC"
    skirmish.move()
    names = set(skirmish.play.units)
    for line in skirmish.lines:
        assert any(n in line for n in names), line
    assert any(x.startswith("Italian recce bn: 3 CPs") for x in skirmish.lines)
    skirmish.end_segment()
    skirmish.end_portion()
    skirmish.end_stage()
    rested = [x for x in skirmish.lines if "RPs" in x]
    assert rested and all(x.startswith("1st RNF: ") or ": +" in x for x in rested)
    assert any(x.startswith("1st RNF: +2 RPs") for x in rested)


def test_a_one_hex_move_says_hex_not_hexes(skirmish):
    skirmish.click((-1, 2))
    skirmish.click((0, 2))
    assert "path of 1 hex costs" in skirmish.header.value
    skirmish.move()
    text = " ".join(skirmish.lines)
    assert "1 hex to B3" in text and "1 hexes" not in text


def test_hex_labels_have_no_negative_coordinates(skirmish):
    from hexclass.classroom.cna.scenario import hex_label

    labels = {hex_label(h) for h, _ in skirmish.scenario.terrain}
    assert len(labels) == len(skirmish.scenario.terrain)
    assert all("-" not in x and "(" not in x for x in labels)
    skirmish.click((0, 3))
    skirmish.click((2, 3))
    assert "B4 to D4 skips hexes" in skirmish.error.message


def test_player_b_moves_in_his_portion_and_pays_to_break_off(skirmish):
    lay_recce_path(skirmish)
    skirmish.assault.value = "1st KRRC"
    skirmish.move()  # the recce ends next to the KRRC: Contact next segment
    skirmish.end_segment()
    assert skirmish.end_portion()
    assert skirmish.cursor.key == "III.G.1" and skirmish.cursor.phasing_role is Role.B
    assert any("break off" in x for x in skirmish.lines)
    skirmish.click((4, 1))  # the KRRC, now Player B's to move
    assert skirmish.selected == "1st KRRC"
    skirmish.click((5, 0))
    assert skirmish.move(), skirmish.error.message
    text = " ".join(skirmish.lines)
    assert "1st KRRC: 2 CPs" in text and "CNA 8.65" in text  # the break-off toll
    assert skirmish.play.positions["1st KRRC"] == (5, 0)


def test_a_one_cp_step_says_cp_not_cps(skirmish):
    skirmish.click((-1, 2))
    skirmish.click((0, 2))  # the infantry steps onto the track: 1 CP
    skirmish.move()
    text = " ".join(skirmish.lines)
    assert "1 CP:" in text and "1 CPs" not in text


def test_the_skirmish_sheet_shows_the_guns_two_cpas(skirmish):
    assert (
        "<td>4th RHA battery</td><td>Commonwealth</td><td>F3</td><td>0 to move, 10 for the rest</td>"
        in (skirmish.sheet.value)
    )
