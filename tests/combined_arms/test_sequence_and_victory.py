"""CA "Sequence of Play" as data, ending the game, and CA "Victory" scoring."""

import pytest

from hexclass.classroom.combined_arms import (
    EndGame,
    EndPhase,
    Enter,
    Options,
    apply,
    legal_actions,
    new_game,
)
from hexclass.classroom.combined_arms.sequence import SEQUENCE, engine_steps_after
from hexclass.classroom.combined_arms.victory import score_from_tally, score_state
from hexclass.classroom.dice import LoadedDice

from .helpers import at, reason, sketch

P = "player"


def test_the_turn_has_four_phases_in_the_rulebook_order():
    assert [p.name for p in SEQUENCE] == [
        "friendly_move",
        "friendly_fire",
        "friendly_recovery",
        "enemy",
    ]
    fire = SEQUENCE[1]
    assert [s.name for s in fire.steps][:2] == ["mortar_call", "fire"]  # mortars first
    assert "preliminary_bombardment" in [s.name for s in fire.steps]


def test_engine_steps_run_in_table_order_and_bombard_only_on_turn_1():
    t1 = [i[0] for i in engine_steps_after("friendly_fire", 1)]
    t2 = [i[0] for i in engine_steps_after("friendly_fire", 2)]
    assert (
        t1.index("friendly_mortar_resolution")
        < t1.index("preliminary_bombardment")
        < t1.index("recovery")
    )
    assert "preliminary_bombardment" not in t2
    assert t2[-3:] == ["activation", "enemy_mortar_resolution", "end_turn"]


def test_recovery_makes_every_platoon_fresh_before_the_enemy_phase():
    s = sketch(units={"D1": "2c spent", "A1": "2e spent bottom"}, phase="friendly_fire", turn=2)
    s.dice = LoadedDice([1])
    apply(s, EndPhase(P))
    assert s.units["D1"].fresh and s.units["A1"].fresh
    assert (s.turn, s.phase) == (3, "friendly_move")


def test_only_ending_the_phase_moves_the_clock():
    g = new_game(4)
    apply(g, Enter(P, "D1", at(g, "1a")))
    assert g.phase == "friendly_move"
    apply(g, EndPhase(P))
    assert g.phase == "friendly_fire"


def test_the_game_may_end_between_turns_only():
    g = new_game(4)
    assert "at least one turn" in reason(g, EndGame(P))
    s = sketch(turn=5)
    apply(s, Enter(P, "D1", at(s, "1a")))
    assert "between turns" in reason(s, EndGame(P))
    s2 = sketch(turn=5)
    apply(s2, EndGame(P))
    assert s2.over and s2.result.turns == 4


def test_after_turn_20_the_game_ends_and_scores_itself():
    s = sketch(turn=20, phase="friendly_fire")
    apply(s, EndPhase(P))
    assert s.over and s.result.turns == 20
    assert legal_actions(s, P) == []
    assert "game is over" in reason(s, EndPhase(P))


def test_unrevealed_counters_are_tested_before_scoring():
    s = sketch(
        units={"D1": "2c"}, enemy={"6c": "potential+potential_atg", "7e": "potential"}, turn=3
    )
    s.dice = LoadedDice([5, 6, 1])  # 6c: platoon 5+1 real, ATGs 6+2 real; 7e: 1 -> empty
    apply(s, EndGame(P))
    assert [line.count for line in s.result.lines[:2]] == [1, 1]  # 1 real ATG, 1 platoon in play


def test_sample_game_final_score_is_18_or_20_in_the_easier_game():
    # the sample game's tally after turn 20: 2 enemy platoons left (4), 3 platoons and an ATG
    # counter broken (14), 3 platoons exploiting (6), 2 of yours broken (-4)
    args = dict(
        enemy_in_play=2,
        real_atgs_in_play=0,
        atgs_broken=1,
        enemy_broken=3,
        exploited=3,
        friendly_broken=2,
        turns=20,
    )
    assert score_from_tally(**args).total == 18
    assert not score_from_tally(**args).won
    assert score_from_tally(**args, easier=True).total == 20
    assert score_from_tally(**args, easier=True).won


def test_exploiters_beyond_the_enemy_broken_count_only_with_no_real_enemy_left():
    blocked = score_from_tally(
        enemy_in_play=1,
        real_atgs_in_play=0,
        atgs_broken=0,
        enemy_broken=1,
        exploited=4,
        friendly_broken=0,
        turns=10,
    )
    clear = score_from_tally(
        enemy_in_play=0,
        real_atgs_in_play=0,
        atgs_broken=0,
        enemy_broken=1,
        exploited=4,
        friendly_broken=0,
        turns=10,
    )
    assert blocked.total == 2 + 4 + 2 * 1
    assert clear.total == 4 + 2 * 4


@pytest.mark.parametrize("turns,deduction", [(18, 0), (19, 1), (20, 2)])
def test_one_point_off_per_turn_after_18(turns, deduction):
    s = score_from_tally(0, 0, 0, 5, 0, 0, turns)
    assert s.total == 20 - deduction


def test_score_state_reads_the_board():
    s = sketch(
        enemy={"6c": "real+atg", "7e": "real"},
        enemy_platoons_broken=2,
        atgs_broken=1,
        options=Options(easier_game=True),
    )
    s.units["D1"].where = "exploited"
    s.units["A1"].where = "broken"
    total = score_state(s, 20).total
    assert total == 1 + 2 * 2 + 2 * 1 + 4 * 2 + 2 * 1 - 2
