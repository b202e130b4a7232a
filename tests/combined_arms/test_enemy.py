"""CA "Enemy Fire" and "Enemy Decisions": the AI defender, its reveal tests and its fire."""

from fractions import Fraction

import pytest

from hexclass.classroom.combined_arms import ChooseBroken, ChooseRollOrder, EndPhase, Options, apply
from hexclass.classroom.combined_arms import enemy as ai
from hexclass.classroom.combined_arms.odds import (
    enemy_fire_on_armour,
    enemy_fire_on_hex,
    reveal_odds,
)
from hexclass.classroom.dice import LoadedDice

from .helpers import at, reason, sketch

P = "player"
FIRE = {"phase": "friendly_fire", "turn": 2}  # turn 2: no preliminary bombardment


def enemy_phase(state, faces):
    """End the fire phase with loaded dice (the first face is the enemy mortar roll)."""
    state.dice = LoadedDice(faces)
    apply(state, EndPhase(P))


def rolls(state, purpose):
    return [e for e in state.events if e.kind == "roll" and e.data.get("purpose") == purpose]


def test_activation_goes_from_the_front_row_and_from_the_enemys_left():
    s = sketch(enemy={"6b": "potential", "5h": "potential", "5c": "real", "7a": "real"})
    assert [s.board.label(h) for h in ai.activation_order(s)] == ["5c", "5h", "6b", "7a"]


def test_armour_odds_with_atgs_count_arc_partial_block_hull_down_and_range():
    # 5e -> 3d runs along the hexside between 4d (woods) and 4e
    s = sketch({"3d": "crest", "4d": "woods"}, {"A1": "3d lower_right"}, {"5e": "real+atg"})
    o = enemy_fire_on_armour(s, at(s, "5e"), "A1")
    assert [m.value for m in o.modifiers] == [+1, -1, -1, -2]  # side, partial, hull down, range
    assert o.probability == Fraction(2, 6)
    s.units["A1"].facing = 4  # face it: no side shot
    assert enemy_fire_on_armour(s, at(s, "5e"), "A1").probability == Fraction(1, 6)


def test_armour_odds_without_atgs_only_when_adjacent_and_worse_with_a_rifle_platoon():
    s = sketch(units={"A1": "4d bottom", "A2": "3d bottom"}, enemy={"5d": "real"})
    assert enemy_fire_on_armour(s, at(s, "5d"), "A2").probability == 0
    alone = enemy_fire_on_armour(s, at(s, "5d"), "A1")
    assert alone.probability == Fraction(2, 6)  # the text's "5 or more"
    s2 = sketch(units={"A1": "4d bottom", "D1": "4d"}, enemy={"5d": "real"})
    assert enemy_fire_on_armour(s2, at(s2, "5d"), "A1").probability == Fraction(1, 6)
    s3 = sketch(units={"A1": "4d top"}, enemy={"5d": "real"})
    assert enemy_fire_on_armour(s3, at(s3, "5d"), "A1").probability == Fraction(3, 6)  # from behind


def test_infantry_odds_plus_one_in_the_open_and_minus_range():
    s = sketch({"3c": "woods"}, {"D1": "3c", "D2": "3d"}, {"5d": "real"})
    assert enemy_fire_on_hex(s, at(s, "5d"), at(s, "3c")).total == -2
    assert enemy_fire_on_hex(s, at(s, "5d"), at(s, "3d")).total == -1


def test_payoff_counts_fresh_as_two_spent_as_one_times_chances_trebled_adjacent():
    s = sketch(units={"D1": "4d", "D2": "4d spent", "E1": "3c"}, enemy={"5d": "real"})
    pay = ai.hex_payoffs(s, at(s, "5d"))
    # 4d: (2 + 1) x 5 chances (open +1, range -1) x 3 adjacent = 45
    assert pay[at(s, "4d")].payoff == 45
    # 3c: 2 x 4 chances (open +1, range 2) = 8
    assert pay[at(s, "3c")].payoff == 8


def test_clusters_are_mutually_adjacent_hexes_of_up_to_three():
    s = sketch()
    hexes = [at(s, n) for n in ("4c", "4d", "3c", "5f")]
    cl = ai.clusters(hexes)
    assert (at(s, "5f"),) in cl
    assert all(len(c) <= 3 for c in cl)
    triples = [c for c in cl if len(c) == 3]
    assert triples == [tuple(sorted([at(s, "4c"), at(s, "4d"), at(s, "3c")]))]


def test_platoon_reveal_modifiers_and_the_late_minus_one():
    s = sketch(enemy={"5c": "potential+potential_atg", "5e": "potential atg_removed"})
    assert reveal_odds(s, at(s, "5c"))["platoon"].total == +1
    assert reveal_odds(s, at(s, "5e"))["platoon"].total == -1
    s.real_platoons_revealed = 3
    assert reveal_odds(s, at(s, "5c"))["platoon"].total == 0
    # once the late -1 applies, removed ATGs stop costing a further -1
    assert reveal_odds(s, at(s, "5e"))["platoon"].total == -1


def test_atg_reveal_gets_plus_two_once_the_platoon_is_real():
    s = sketch(enemy={"5c": "real+potential_atg", "5e": "potential+potential_atg"})
    assert reveal_odds(s, at(s, "5c"))["atg"].total == 2
    assert reveal_odds(s, at(s, "5e"))["atg"].total == 0
    s.real_atgs_revealed = 2
    assert reveal_odds(s, at(s, "5c"))["atg"].total == 1


def test_adjacent_potential_counter_is_tested_when_activated_platoon_first():
    # Figure 7: the farm's spent counters must be revealed; 3 + 1 (ATG counter) = 4: empty
    s = sketch({"5d": "farm"}, {"D1": "4d"}, {"5d": "potential+potential_atg spent"}, **FIRE)
    enemy_phase(s, [1, 3])
    assert at(s, "5d") not in s.enemy
    (test,) = rolls(s, "reveal platoon")
    assert (test.data["die"], test.data["total"]) == (3, 4)


def test_real_platoon_then_atg_test_with_plus_two():
    s = sketch({"5d": "farm"}, {"D1": "4d spent"}, {"5d": "potential+potential_atg spent"}, **FIRE)
    enemy_phase(s, [1, 4, 3])  # mortars no; platoon 4+1=5 real; ATGs 3+2=5 real
    post = s.enemy[at(s, "5d")]
    assert (post.platoon, post.atg, post.fresh) == ("real", "real", True)  # spent: recovers
    assert (s.real_platoons_revealed, s.real_atgs_revealed) == (1, 1)


def test_failed_atg_test_removes_only_the_atgs():
    s = sketch({"5d": "farm"}, {"D1": "4d"}, {"5d": "real+potential_atg spent"}, **FIRE)
    enemy_phase(s, [1, 2])  # ATGs 2+2 = 4: none
    post = s.enemy[at(s, "5d")]
    assert post.platoon == "real" and post.atg is None and post.atg_removed


def test_fresh_potential_platoon_reveals_itself_at_a_payoff_of_six():
    # 3 fresh platoons in the open 2 hexes away: 6 x 4 chances = 24 >= 6
    s = sketch(units={"D1": "3d", "D2": "3d", "D3": "3d"}, enemy={"5d": "potential"}, **FIRE)
    enemy_phase(s, [1, 6, 6])  # reveal 6: real; then it fires: 6 hits
    assert s.enemy[at(s, "5d")].platoon == "real"
    assert [e.data["target"] for e in rolls(s, "enemy fire on infantry")] == [at(s, "3d")]
    assert s.losses == 3


def test_low_payoff_keeps_a_potential_platoon_hidden():
    s = sketch({"2d": "woods"}, {"D1": "2d"}, {"5d": "potential"}, **FIRE)  # 2 x 2 = 4
    enemy_phase(s, [1])
    assert s.enemy[at(s, "5d")].platoon == "potential"
    assert not rolls(s, "reveal platoon")


def test_potential_atgs_reveal_at_two_chances_against_armour():
    s = sketch(units={"A1": "3d bottom"}, enemy={"5d": "potential+potential_atg"}, **FIRE)
    # range 2, in arc: -2 -> 3 chances; ATG test 5: real, the platoon with them
    enemy_phase(s, [1, 5, 1])
    post = s.enemy[at(s, "5d")]
    assert (post.platoon, post.atg) == ("real", "real")
    (shot,) = rolls(s, "enemy fire on armour")
    assert shot.data["die"] == 1 and s.units["A1"].on_board


def test_enemy_fires_on_the_armour_it_is_likeliest_to_break():
    # A1: range 2 in arc, 3 chances; A2: adjacent and shot from behind, 5 chances
    s = sketch(units={"A1": "3d bottom", "A2": "4d top"}, enemy={"5d": "real+atg"}, **FIRE)
    enemy_phase(s, [1, 6])
    (choice,) = [e for e in s.events if e.kind == "ai" and "armour" in e.text]
    assert choice.data["target"] == "A2"
    assert s.units["A2"].where == "broken"


def test_losses_circle_and_the_commander_picks_who_breaks():
    s = sketch(units={"D1": "4d", "M1": "4d"}, enemy={"5d": "real"}, losses=5, **FIRE)
    enemy_phase(s, [1, 6])  # hit at 1 hex: 2 losses each = 4: 5 -> 1, passing 7 to 0
    assert s.pending.kind == "break" and set(s.pending.options) == {"D1", "M1"}
    assert "waiting for the commander" in reason(s, EndPhase(P))
    apply(s, ChooseBroken(P, "M1"))
    assert s.units["M1"].where == "broken" and s.units["D1"].where == "board"
    assert s.losses == 1 and s.phase == "friendly_move"


def test_roll_order_is_asked_only_when_a_break_could_happen():
    calm = sketch(units={"D1": "3c", "D2": "3d"}, enemy={"5d": "real"}, losses=0, **FIRE)
    enemy_phase(calm, [1, 1, 1])
    assert calm.pending is None
    tight = sketch(units={"D1": "3c", "D2": "3d"}, enemy={"5d": "real"}, losses=7, **FIRE)
    enemy_phase(tight, [1])
    assert tight.pending.kind == "roll_order"
    tight.dice = LoadedDice([6, 1])
    apply(tight, ChooseRollOrder(P, (at(tight, "3d"), at(tight, "3c"))))
    assert tight.units["D2"].where == "broken"


def test_auto_decisions_option_takes_the_commanders_choices():
    s = sketch(
        units={"D1": "4d", "M1": "4d"},
        enemy={"5d": "real"},
        losses=5,
        options=Options(auto_decisions=True),
        **FIRE,
    )
    enemy_phase(s, [1, 6])
    assert s.pending is None and s.units["M1"].where == "broken"


def test_ai_logs_the_payoffs_it_compared():
    s = sketch(units={"D1": "3c", "E1": "3e"}, enemy={"5d": "real"}, **FIRE)
    enemy_phase(s, [1, 1])
    (choice,) = [e for e in s.events if e.kind == "ai"]
    assert set(choice.data["payoffs"]) == {"3c", "3e"}
    assert "payoff" in choice.text


@pytest.mark.parametrize("fresh", [True, False])
def test_spent_counters_recover_instead_of_firing(fresh):
    s = sketch(units={"D1": "4d"}, enemy={"5d": "real" + ("" if fresh else " spent")}, **FIRE)
    enemy_phase(s, [1, 6])
    hits = rolls(s, "enemy fire on infantry")
    assert bool(hits) is fresh
    assert s.enemy[at(s, "5d")].fresh
