"""Every modified roll and every chance the Combined Arms text quotes, reproduced.

Each test starts from a position in ``scenarios/ca/`` that rebuilds a figure or a
sample-game situation as far as the text allows (docs/rules-notes.md explains each
reconstruction), loads the dice the text reports, and checks the engine's numbers.
"""

from fractions import Fraction

from hexclass.classroom.combined_arms import (
    CallMortar,
    ChooseRollOrder,
    DeclareFire,
    EndPhase,
    Enter,
    Move,
    Options,
    apply,
    fire_odds,
)
from hexclass.classroom.combined_arms import enemy as ai
from hexclass.classroom.combined_arms.board import potential_posts
from hexclass.classroom.combined_arms.odds import (
    armour_survival,
    enemy_fire_on_armour,
    enemy_fire_on_hex,
    mortar_odds,
)
from hexclass.classroom.combined_arms.positions import sketch
from hexclass.classroom.combined_arms.scenarios import scenario_names, start
from hexclass.classroom.dice import LoadedDice

from .helpers import at, ok, reason

P = "player"


def rolls(state, purpose):
    return [e for e in state.events if e.kind == "roll" and e.data.get("purpose") == purpose]


def test_every_scenario_loads():
    assert len(scenario_names()) >= 9
    for name in scenario_names():
        assert start(name).events[0].kind == "setup"


# --- Figure 3: infantry movement ---------------------------------------------------------


def test_figure_3_infantry_movement():
    g = start("figure3-infantry-movement")
    assert "spent" in reason(g, Move(P, "D1", at(g, "2b")))  # pinned D1 cannot even withdraw
    assert "different companies" in reason(g, Enter(P, "E1", at(g, "1b")))
    assert "may only withdraw" in reason(g, Move(P, "M1", at(g, "2e")))
    apply(g, Move(P, "D2", at(g, "2c")))  # onto the crest
    apply(g, Move(P, "D3", at(g, "2d")))  # stays in open ground
    apply(g, Enter(P, "E1", at(g, "1c")))  # in their wake
    apply(g, Enter(P, "E2", at(g, "1e")))
    apply(g, Enter(P, "E3", at(g, "1e")))  # a concentrated target beside the MMG
    fresh = sorted(u.id for u in g.units.values() if u.on_board and u.fresh)
    assert fresh == ["M1"]  # "only the MMGs can still fire"


# --- Figure 4: armour movement -------------------------------------------------------------


def test_figure_4_armour_movement():
    g = start("figure4-armour-movement")
    post = next(p for p in potential_posts(g.board) if p.hex == at(g, "5d"))
    assert post.atg_field == 2 and not post.with_atg  # "only 2 open hexes not behind it"
    assert "poor going" in reason(g, Move(P, "A2", at(g, "2d"), facing=3))
    assert "A3 is already there" in reason(g, Move(P, "A2", at(g, "4f")))
    apply(g, Move(P, "A3", at(g, "4e"), facing=4))  # pivots 120 degrees left (2 corners)
    apply(g, Move(P, "A1", at(g, "3c")))  # keeps facing and reverses, hull down
    apply(g, Move(P, "A2", at(g, "4f")))  # the 2-hex road move
    assert g.units["A1"].facing == 4 and g.board.is_crest(g.units["A1"].hex)
    enemy = at(g, "5d")
    for a in ("A1", "A2", "A3"):  # Figure 4: no tank is left where the platoon could hit it
        assert enemy_fire_on_armour(g, enemy, a).probability == 0


# --- Figure 6: fire combat --------------------------------------------------------------------


def test_figure_6_fire_combat():
    g = start("figure6-fire-combat")
    crest = at(g, "5d")
    o = fire_odds(g, crest, ["F2", "A2"])
    # Figure 6: -2 for range, -1 for the woods on the hexside, and A2 another -1 (not F company)
    assert [a.total for a in o.attacks] == [-3, -4]
    # F2 3, A2 5; enemy mortars not available (1); ATGs 4 on A2; F2 5, F1 2, F3 2
    g.dice = LoadedDice([3, 5, 1, 4, 5, 2, 2])
    apply(g, DeclareFire(P, crest, ("F2", "A2")))
    assert [(r.data["die"], r.data["total"]) for r in rolls(g, "friendly fire")] == [(3, 0), (5, 1)]
    apply(g, EndPhase(P))
    (atg,) = rolls(g, "enemy fire on armour")
    assert (atg.data["die"], atg.data["total"]) == (4, 1)  # "a roll of 4 (modified to 1)"
    # the commander chooses F2, then the exposed F1, then F3
    apply(g, ChooseRollOrder(P, (at(g, "4e"), at(g, "5e"), at(g, "4d"))))
    shots = rolls(g, "enemy fire on infantry")
    assert [(s.data["die"], s.data["total"]) for s in shots] == [(5, 3), (2, 2), (2, 1)]
    assert g.units["F1"].where == "broken" and g.losses == 0  # "losses circle round 2 steps to 0"
    assert not g.units["F2"].fresh and g.units["F3"].fresh  # F3 "escapes thanks to being in woods"
    # Figure 6's closing odds: F3 alone pins (or breaks) 2 times in 3 next turn
    assert fire_odds(g, crest, ["F3"]).pin == Fraction(2, 3)


# --- Figure 7: mortars and revealing enemies ----------------------------------------------------


def test_figure_7_mortars_and_revealing():
    g = start("figure7-mortars-and-revealing")
    farm, side = at(g, "4e"), at(g, "6a")
    mmg = fire_odds(g, farm, ["M1"]).attacks[0]
    assert mmg.pin_chances == 3  # Figure 7: with D company next to the farm the MMGs need a 4+
    apply(g, CallMortar(P, at(g, "5e"), "E2", smoke=True))
    # M1 4 (pins the farm), M2 2; smoke scatter 6; enemy mortars 5; farm platoon 3;
    # side-edge platoon 4; its fire on the wheatfield 2 and on D3 5; scatter 1; E1 1; MMGs 4
    g.dice = LoadedDice([4, 2, 6, 5, 3, 4, 2, 5, 1, 1, 4])
    apply(g, DeclareFire(P, farm, ("M1", "M2")))
    apply(g, EndPhase(P))
    assert set(g.smoke) == {at(g, "5e"), at(g, "4d"), at(g, "5d")}
    (mortar_choice,) = [e for e in g.events if e.kind == "ai" and "mortars" in e.text]
    assert mortar_choice.data["target"] == at(g, "2c")  # E1, next to one more platoon than D3
    assert "4d" not in mortar_choice.data["compared"]  # D1, D2 are next to the farm
    farm_test, side_test = rolls(g, "reveal platoon")
    assert (farm_test.data["die"], farm_test.data["total"]) == (3, 4) and farm not in g.enemy
    assert (side_test.data["die"], side_test.data["total"]) == (4, 5)
    assert g.enemy[side].platoon == "real" and g.enemy[side].atg == "potential"  # ATGs need a 6
    (aim,) = [e for e in g.events if e.kind == "ai" and "engages" in e.text]
    assert aim.data["payoffs"] == {"4d": 4, "5d": 4, "2c": 2} and aim.data["payoff"] == 8
    shots = rolls(g, "enemy fire on infantry")
    assert [(s.data["die"], s.data["total"]) for s in shots] == [(2, -2), (5, 2)]
    hits = rolls(g, "mortar effect")
    assert [g.board.label(h.data["target"]) for h in hits] == ["2c", "1c"]  # A2 in 1b: armour only
    assert g.units["E1"].fresh and not g.units["M1"].fresh
    assert g.losses == 1 + 3  # D3's loss, then "3 more losses"


def test_figure_7_atgs_would_need_a_six_against_a2():
    g = start("figure7-mortars-and-revealing")
    o = enemy_fire_on_armour(g, at(g, "6a"), "A2", with_atg=True)
    assert o.probability == Fraction(1, 6) and o.total == +1 - 5  # side shot at extreme range
    assert ai.best_armour_chance(g, at(g, "6a"), with_atg=True) < ai.ATG_CHANCES_REVEAL


# --- sample game ----------------------------------------------------------------------------------


def test_sample_turn_4_covering_fire_94_67_78():
    g = start("sample-turn04-covering-fire")
    wood = at(g, "4d")
    before = g.copy()
    for uid, h in (("A1", "2e"), ("E1", "2b"), ("E2", "2b")):  # where they stood before advancing
        before.place(before.units[uid], at(before, h))
    assert fire_odds(before, wood, ["M2", "A3"]).pin == Fraction(17, 18)  # 94%
    assert fire_odds(g, wood, ["M2", "A3"]).pin == Fraction(2, 3)  # 67%
    assert fire_odds(g, wood, ["M2", "A3", "E3"]).pin == Fraction(7, 9)  # 78%
    ok(g, DeclareFire(P, wood, ("M2", "A3", "E3")))


def test_sample_turn_5_assault_33_to_56():
    g = start("sample-turn05-assault")
    wood = at(g, "4d")
    assert fire_odds(g, wood, ["E1"]).break_platoon == Fraction(1, 3)
    assert fire_odds(g, wood, ["E1", "E2"]).break_platoon == Fraction(5, 9)
    g.dice = LoadedDice([2, 5])
    apply(g, DeclareFire(P, wood, ("E1", "E2")))  # "overcome in textbook style"
    assert wood not in g.enemy and g.enemy_platoons_broken == 1 and g.atgs_broken == 1


def test_sample_turn_11_fire_lane_67_against_83_and_tanks_33():
    g = start("sample-turn11-fire-lane")
    wood = at(g, "6a")
    assert fire_odds(g, wood, ["D1", "A2"]).pin == Fraction(2, 3)
    assert mortar_odds(g, wood).effect[wood] == Fraction(5, 6)
    assert fire_odds(g, at(g, "6i"), ["A1"]).pin == Fraction(1, 3)
    assert fire_odds(g, at(g, "5j"), ["A3"]).pin == Fraction(1, 3)
    # turn 12: "fails to roll the 6 now needed to hit platoon E2"
    assert enemy_fire_on_hex(g, at(g, "6i"), at(g, "1e")).probability == Fraction(1, 6)


def test_sample_turn_15_one_in_nine_and_one_in_three():
    g = start("sample-turn15-tanks-at-risk")
    assert armour_survival(g, at(g, "6a"), "A2", ["A2"]) == Fraction(1, 9)
    assert enemy_fire_on_armour(g, at(g, "7g"), "A3", with_atg=True).probability == Fraction(1, 3)
    assert enemy_fire_on_armour(g, at(g, "6h"), "A1", with_atg=True).probability == Fraction(1, 3)


def test_sample_turn_16_enemy_mortars_need_a_six():
    g = sketch(
        units={"E1": "2c"},
        enemy={"6c": "potential"},
        phase="friendly_fire",
        turn=16,
        enemy_platoons_broken=1,
    )
    g.units["F2"].where = g.units["D3"].where = "broken"
    g.dice = LoadedDice([5] + [1] * 10)
    apply(g, EndPhase(P))
    (roll,) = rolls(g, "enemy mortar availability")
    assert (roll.data["die"], roll.data["need"], roll.data["outcome"]) == (5, 6, ["not available"])


def test_sample_turn_20_final_score_18():
    for easier, expected in ((False, 18), (True, 20)):
        g = start(
            "sample-turn20-last-gamble", options=Options(easier_game=easier, auto_decisions=True)
        )
        apply(g, CallMortar(P, at(g, "7g"), "D2"))
        # E1 rolls 6 (break); A1 5 (pin); mortar corner 4, 7g rolls 3; enemy mortars 5 but no
        # spotted target; final reveal of 6j: 6, less 1 with 4 real platoons out = 5, real
        g.dice = LoadedDice([6, 5, 4, 3, 5, 6])
        apply(g, DeclareFire(P, at(g, "8b"), ("E1",)))
        apply(g, DeclareFire(P, at(g, "7g"), ("A1",)))
        apply(g, EndPhase(P))
        assert g.over
        assert g.result.total == expected, str(g.result)
        rows = {r["item"]: r["points"] for r in g.result.as_rows()}
        assert rows["enemy platoons still in play"] == 4
        assert rows["ATG counters broken"] + rows["enemy platoons broken"] == 14
        assert rows["your platoons exploiting"] == 6 and rows["your platoons broken"] == -4
