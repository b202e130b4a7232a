"""The mini-scenario: one Operations Stage on a small map, with Player B's reactions."""

import dataclasses

import pytest

from hexclass.classroom.cna.capability import Unit, UnitKind
from hexclass.classroom.cna.errors import CNAInputError, RuleViolation
from hexclass.classroom.cna.initiative import Side
from hexclass.classroom.cna.logsheet import EntryKind
from hexclass.classroom.cna.scenario import DESERT_SKIRMISH, OperationsStagePlay, Placement

RECCE_TO_THE_SCREEN = [(0, 3), (1, 2), (2, 2), (3, 2)]  # ends next to KRRC, RHA and RNF


@pytest.fixture
def play():
    return OperationsStagePlay(DESERT_SKIRMISH)


def test_the_scenario_is_plain_frozen_data():
    assert len(DESERT_SKIRMISH.terrain) == 35
    assert DESERT_SKIRMISH.player_a is Side.AXIS
    with pytest.raises(dataclasses.FrozenInstanceError):
        DESERT_SKIRMISH.name = "x"  # type: ignore[misc]


def test_a_unit_off_the_map_is_refused():
    stray = Placement(Unit("lost patrol", UnitKind.RECCE, cpa=45), Side.AXIS, (20, 20))
    with pytest.raises(CNAInputError, match=r"\(20, 20\), which is not on the map"):
        dataclasses.replace(DESERT_SKIRMISH, placements=(*DESERT_SKIRMISH.placements, stray))


def test_recce_arrival_pins_the_krrc_but_not_its_light_trucks(play):
    report = play.move("Italian recce bn", RECCE_TO_THE_SCREEN, assault_on=["1st KRRC"])
    rules = {name: v.rules for name, v in report.reactions.items()}
    assert rules == {
        "1st KRRC": ("CNA 8.53b",),
        "2nd Line Light Trucks": ("CNA 8.53b",),  # permitted, and why
        "1st RNF": ("CNA 8.53a",),
        "4th RHA battery": ("CNA 8.53a",),
    }
    assert [n for n, v in report.reactions.items() if v.allowed] == ["2nd Line Light Trucks"]
    assert play.sheet.line("Italian recce bn").spent == 3


def test_tanks_cannot_pin_the_motorized_krrc(play):
    report = play.move("Italian tank bn", [(0, 1), (1, 1), (2, 1), (3, 1)], assault_on=["1st KRRC"])
    assert report.reactions["1st KRRC"].allowed  # CPA 25 vs 20: a gap of 5


def test_reacting_costs_cps_in_the_opponents_portion_and_avoids_zocs(play):
    play.move("Italian recce bn", RECCE_TO_THE_SCREEN, assault_on=["1st KRRC"])
    with pytest.raises(RuleViolation) as err:
        play.react("2nd Line Light Trucks", [(4, 1), (3, 1)])
    assert err.value.rule == "CNA 8.55"
    entries = play.react("2nd Line Light Trucks", [(4, 1), (5, 0), (6, 0)])
    assert play.positions["2nd Line Light Trucks"] == (6, 0)
    assert entries[0].cps == 2 and "reaction" in entries[0].text
    with pytest.raises(RuleViolation) as err:
        play.react("1st KRRC", [(4, 1), (5, 0)])
    assert err.value.rule == "CNA 8.51"


def test_movement_follows_8_13_and_8_14(play):
    with pytest.raises(RuleViolation) as err:
        play.move("Italian tank bn", [(0, 1), (2, 1)])
    assert err.value.rule == "CNA 8.13"
    with pytest.raises(RuleViolation) as err:
        play.move("Italian tank bn", [(0, 1), (1, 1), (2, 1), (3, 1), (3, 0)])
    assert err.value.rule == "CNA 8.14"
    with pytest.raises(CNAInputError, match="off the map"):
        play.move("Italian tank bn", [(0, 1), (0, 0), (0, -1)])
    assert play.positions["Italian tank bn"] == (0, 1) and play.sheet.journal == []


def test_the_non_phasing_player_cannot_move_in_the_movement_segment(play):
    with pytest.raises(RuleViolation) as err:
        play.move("1st KRRC", [(4, 1), (5, 0)])
    assert err.value.rule == "CNA 8.11"


def test_8_17_foot_infantry_stops_at_12_cps(play):
    shuttle = [(-1, 2), (-1, 3), (-2, 4), (-1, 3), (-2, 4), (-1, 3), (-2, 4)]  # 6 clear hexes
    with pytest.raises(RuleViolation) as err:
        play.move("Italian infantry bn", [*shuttle, (-1, 3)])
    assert err.value.rule == "CNA 8.17"
    play.move("Italian infantry bn", shuttle)
    assert play.sheet.line("Italian infantry bn").cohesion == -4  # 12 of CPA 8


def test_8_23_a_unit_left_far_from_the_enemy_cannot_move_again(play):
    play.move("Italian infantry bn", [(-1, 2), (0, 2)])
    play.move("Italian recce bn", RECCE_TO_THE_SCREEN)
    verdicts = play.end_movement_segment()
    assert not verdicts["Italian infantry bn"].allowed
    assert verdicts["Italian recce bn"].allowed and verdicts["Italian tank bn"].allowed
    play.next_movement_pass()
    with pytest.raises(RuleViolation) as err:
        play.move("Italian infantry bn", [(0, 2), (1, 2)])
    assert err.value.rule == "CNA 8.23"


def test_a_unit_starting_in_contact_pays_2_cps_to_break_off(play):
    play.move("Italian recce bn", RECCE_TO_THE_SCREEN)
    play.end_movement_segment()
    play.next_movement_pass()
    with pytest.raises(RuleViolation) as err:
        play.move("Italian recce bn", [(3, 2), (3, 1)])  # straight into another enemy ZOC hex
    assert err.value.rule == "CNA 8.15"
    report = play.move("Italian recce bn", [(3, 2), (2, 2)])
    assert [(e.cps, e.rule) for e in report.entries] == [(2, "CNA 8.65"), (1, "CNA 6.12")]
    assert play.sheet.line("Italian recce bn").spent == 6


def test_a_collapsed_unit_surrenders_when_an_enemy_arrives(play):
    placements = tuple(
        dataclasses.replace(p, cohesion=-26) if p.unit.name == "1st RNF" else p
        for p in DESERT_SKIRMISH.placements
    )
    game = OperationsStagePlay(dataclasses.replace(DESERT_SKIRMISH, placements=placements))
    report = game.move("Italian recce bn", RECCE_TO_THE_SCREEN)
    assert report.surrendered == ("1st RNF",)
    assert "1st RNF" not in game.on_map()
    assert game.sheet.entries_for("1st RNF")[-1].kind is EntryKind.SURRENDER


def test_portions_and_the_end_of_the_stage(play):
    play.move("Italian recce bn", RECCE_TO_THE_SCREEN)
    play.end_portion()
    assert play.phasing is Side.COMMONWEALTH
    with pytest.raises(RuleViolation):
        play.end_portion()
    play.end_stage()
    levels = play.sheet.cohesion_levels()
    assert levels["1st RNF"] == 0  # rested a whole stage: -2 + 5, stopped at 0 (CNA 6.24)
    assert levels["Italian recce bn"] == 0
    assert play.sheet.stage == 2


def test_a_won_close_assault_books_cps_losses_rps_and_the_retreat(play):
    play.move("Italian recce bn", RECCE_TO_THE_SCREEN)
    entries = play.close_assault(
        ["Italian recce bn"],
        ["4th RHA battery"],
        cps={"Italian recce bn": 5, "4th RHA battery": 2},
        attacker_strength=(10, 1),
        defender_strength=(4, 2),
        defender_retreat=[(4, 2), (5, 1)],
    )
    assert [(e.unit, e.rule) for e in entries if e.dps or e.rps] == [
        ("Italian recce bn", "CNA 6.24"),
        ("4th RHA battery", "CNA 6.21"),
    ]
    assert play.sheet.line("Italian recce bn").cohesion == 3
    rha = play.sheet.line("4th RHA battery")
    assert (rha.cohesion, rha.spent) == (-3, 4)  # defence 2 + retreat 2, within its CPA of 10
    assert play.positions["4th RHA battery"] == (5, 1)


def test_an_engaged_unit_pays_4_cps_to_break_off_next_pass(play):
    play.move("Italian tank bn", [(0, 1), (1, 1), (2, 1), (3, 1)])
    play.close_assault(
        ["Italian tank bn"],
        ["1st KRRC"],
        cps={"Italian tank bn": 5, "1st KRRC": 2},
        attacker_strength=(10, 0),
        defender_strength=(10, 1),
        engaged=True,
    )
    assert {"Italian tank bn", "1st KRRC"} <= play.engaged
    play.end_movement_segment()
    play.next_movement_pass()
    report = play.move("Italian tank bn", [(3, 1), (2, 1)])
    assert [(e.cps, e.rule) for e in report.entries] == [(4, "CNA 8.66"), (1, "CNA 6.12")]


def test_retreat_before_assault_pays_to_break_contact_in_the_opponents_portion(play):
    play.move("Italian recce bn", RECCE_TO_THE_SCREEN)
    entries = play.retreat_before_assault("1st RNF", [(3, 3), (4, 3)])
    assert [(e.cps, e.rule) for e in entries] == [(2, "CNA 8.65"), (2, "CNA 6.12")]
    rnf = play.sheet.line("1st RNF")
    assert (rnf.spent, rnf.remaining, rnf.cohesion) == (4, 4, -2)
    with pytest.raises(RuleViolation) as err:
        play.retreat_before_assault("Italian tank bn", [(0, 1), (1, 1)])
    assert err.value.rule == "CNA 8.11"


def test_close_assault_input_checks(play):
    with pytest.raises(RuleViolation, match="next to the defenders"):
        play.close_assault(
            ["Italian tank bn"],
            ["1st KRRC"],
            cps={"Italian tank bn": 5, "1st KRRC": 2},
            attacker_strength=(10, 0),
            defender_strength=(10, 0),
        )
    with pytest.raises(CNAInputError, match="CP cost for every unit"):
        play.close_assault(
            ["Italian tank bn"],
            ["1st KRRC"],
            cps={"Italian tank bn": 5},
            attacker_strength=(10, 0),
            defender_strength=(10, 0),
        )
    assert play.sheet.journal == []
