"""CA "Mortars" (HE and smoke), the enemy's mortar decisions and the turn-1 bombardment."""

from fractions import Fraction

import pytest

from hexclass.classroom.combined_arms import CallMortar, DeclareFire, EndPhase, SeatSpec, apply
from hexclass.classroom.combined_arms.mortars import (
    SCATTER_CORNER,
    enemy_mortar_need,
    enemy_phase_smoke,
    impact_hexes,
)
from hexclass.classroom.combined_arms.odds import mortar_odds
from hexclass.classroom.combined_arms.state import MortarTarget
from hexclass.classroom.dice import LoadedDice

from .helpers import at, ok, reason, sketch

P = "player"
FIRE = {"phase": "friendly_fire", "turn": 2}


def test_he_needs_a_spotted_enemy_hex_not_next_to_your_platoons():
    s = sketch(units={"D1": "2d", "E1": "4c"}, enemy={"5d": "potential", "4e": "potential"}, **FIRE)
    assert "next to your platoon E1" in reason(s, CallMortar(P, at(s, "5d"), "D1"))
    ok(s, CallMortar(P, at(s, "4e"), "D1"))
    assert "no enemy counter" in reason(s, CallMortar(P, at(s, "3e"), "D1"))


def test_spotter_must_be_fresh_infantry_not_next_to_an_enemy():
    s = sketch(
        units={"D1": "4d", "D2": "2d spent", "A1": "2e bottom", "M1": "1d"},
        enemy={"5d": "potential", "4g": "real"},
        **FIRE,
    )
    assert "next to an enemy counter" in reason(s, CallMortar(P, at(s, "4g"), "D1"))
    assert "spent" in reason(s, CallMortar(P, at(s, "4g"), "D2"))
    assert "armour" in reason(s, CallMortar(P, at(s, "4g"), "A1"))
    ok(s, CallMortar(P, at(s, "4g"), "M1"))


def test_spotting_needs_a_line_but_not_past_a_single_partial_block():
    s = sketch({"4d": "woods"}, {"D1": "3d"}, {"5e": "potential"}, **FIRE)
    ok(s, CallMortar(P, at(s, "5e"), "D1"))
    s2 = sketch({"4d": "woods", "4e": "woods"}, {"D1": "3d"}, {"5e": "potential"}, **FIRE)
    assert "cannot see" in reason(s2, CallMortar(P, at(s2, "5e"), "D1"))


def test_mortars_are_called_once_before_any_fire_by_the_mortar_seat():
    s = sketch(units={"D1": "2d", "M1": "3c"}, enemy={"5d": "potential", "4g": "potential"}, **FIRE)
    s.dice = LoadedDice([1])
    apply(s, DeclareFire(P, at(s, "4g"), ("D1",)))
    assert "before any platoon fires" in reason(s, CallMortar(P, at(s, "5d"), "M1"))
    seats = {
        "armour": SeatSpec("armour", frozenset({"A1"})),
        "cmd": SeatSpec("cmd", frozenset({"M1"}), frozenset({"mortars", "command"})),
    }
    s2 = sketch(units={"M1": "3c"}, enemy={"5d": "potential"}, seats=seats, **FIRE)
    assert "does not command the mortars" in reason(s2, CallMortar("armour", at(s2, "5d"), "M1"))
    ok(s2, CallMortar("cmd", at(s2, "5d"), "M1"))
    apply(s2, CallMortar("cmd", at(s2, "5d"), "M1"))
    assert "already been called" in reason(s2, CallMortar("cmd", at(s2, "5d"), "M1"))


def test_after_firing_last_turn_the_mortars_may_only_walk_one_hex():
    s = sketch(
        units={"M1": "2d"}, enemy={"5d": "potential", "4d": "potential", "4f": "potential"}, **FIRE
    )
    s.friendly_mortar = MortarTarget(at(s, "5d"), turn=1)
    assert "only fire on that hex or one next to it" in reason(s, CallMortar(P, at(s, "4f"), "M1"))
    ok(s, CallMortar(P, at(s, "4d"), "M1"))
    ok(s, CallMortar(P, at(s, "4d"), "M1", smoke=True))  # retargeting delay whatever the ammo
    s.friendly_mortar = MortarTarget(at(s, "5d"), turn=0)  # two turns ago: free again
    ok(s, CallMortar(P, at(s, "4f"), "M1"))


def test_scatter_lands_on_the_three_hexes_sharing_the_rolled_corner():
    s = sketch()
    t = at(s, "5e")
    # die 1 is the corner towards your rear edge: 5e with 4d and 4e
    assert set(impact_hexes(t, SCATTER_CORNER[1])) == {t, at(s, "4d"), at(s, "4e")}
    assert set(impact_hexes(t, SCATTER_CORNER[4])) == {t, at(s, "6d"), at(s, "6e")}
    assert sorted(SCATTER_CORNER.values()) == list(range(6))


def test_the_target_hex_is_always_struck_five_times_in_six():
    # sample game turn 11: "83% for the mortars alone"
    s = sketch(units={"D1": "4d"}, enemy={"5e": "real"})
    o = mortar_odds(s, at(s, "5e"))
    assert o.landing[at(s, "5e")] == 1 and o.effect[at(s, "5e")] == Fraction(5, 6)
    assert o.landing[at(s, "4d")] == Fraction(1, 3)
    assert o.effect[at(s, "4d")] == Fraction(5, 18)  # your own platoon may be caught
    assert sum(o.landing.values()) == 3


def test_he_pins_everything_but_armour_and_costs_your_infantry_a_loss_each():
    # the mortars were called on 5e before D1 and A1 moved up next to it
    s = sketch(units={"D1": "4d", "A1": "4e bottom"}, enemy={"5e": "real"}, **FIRE)
    s.friendly_mortar = MortarTarget(at(s, "5e"), turn=2)
    s.mortar_called = True
    s.dice = LoadedDice([1, 3, 4] + [1] * 10)  # corner 1: 5e, 4d and 4e; 5e rolls 3, 4d rolls 4
    apply(s, EndPhase(P))
    hits = [e for e in s.events if e.data.get("purpose") == "mortar effect"]
    assert [s.board.label(e.data["target"]) for e in hits] == ["5e", "4d"]  # 4e: armour only
    assert [e.data["outcome"] for e in hits] == [
        ["enemy counters pinned"],
        ["D1 pinned, 1 loss each"],
    ]
    assert s.losses == 1


def test_smoke_blocks_from_landing_until_the_end_of_your_next_fire_phase():
    s = sketch(units={"M1": "2d", "D1": "3c"}, enemy={"6f": "real"}, **FIRE)
    assert "holds your platoon" in reason(s, CallMortar(P, at(s, "3c"), "M1", smoke=True))
    apply(s, CallMortar(P, at(s, "4e"), "M1", smoke=True))  # empty hex: fine for smoke
    assert s.smoke_ammo == 3
    s.dice = LoadedDice([4] + [1] * 10)  # corner 4 (bottom): 4e, 5e, 5f
    apply(s, EndPhase(P))
    assert set(s.smoke) == {at(s, "4e"), at(s, "5e"), at(s, "5f")}
    apply(s, EndPhase(P))  # turn 3 move phase ends; smoke still there in the fire phase
    assert at(s, "4e") in s.smoke
    s.dice = LoadedDice([1] * 10)
    apply(s, EndPhase(P))  # end of turn 3's fire phase: it clears
    assert not s.smoke


def test_smoke_runs_out_after_four_missions():
    s = sketch(units={"M1": "2d"}, smoke_ammo=0, **FIRE)
    assert "no smoke ammo" in reason(s, CallMortar(P, at(s, "4e"), "M1", smoke=True))


@pytest.mark.parametrize("friendly_broken,enemy_broken,need", [(0, 0, 5), (1, 1, 5), (2, 1, 6)])
def test_enemy_mortars_need_six_once_you_have_lost_more_platoons(
    friendly_broken, enemy_broken, need
):
    # sample game turn 16: with more of your platoons broken than theirs, the enemy mortars need a 6
    s = sketch(enemy_platoons_broken=enemy_broken)
    for u in ("D1", "D2")[:friendly_broken]:
        s.units[u].where = "broken"
    assert enemy_mortar_need(s) == need


def test_enemy_mortars_pick_the_spotted_hex_with_most_infantry_then_most_neighbours():
    # Figure 7 in miniature: 1 platoon in each of two hexes; 2b has a neighbour with
    # infantry, 3h has none; the third group is next to an enemy counter and is barred.
    s = sketch(
        units={"E1": "2b", "E2": "1a", "D3": "3h", "D1": "5d", "D2": "5d"},
        enemy={"7c": "potential", "6d": "potential"},
        **FIRE,
    )
    s.dice = LoadedDice([5] + [1] * 20)
    apply(s, EndPhase(P))
    (choice,) = [e for e in s.events if e.kind == "ai" and "mortars" in e.text]
    assert s.board.label(choice.data["target"]) == "2b"
    assert "5d" not in choice.data["compared"]


def test_enemy_mortars_never_fire_in_successive_turns():
    s = sketch(units={"E1": "2b"}, enemy={"6c": "potential"}, **FIRE)
    s.enemy_mortar = MortarTarget(at(s, "2b"), turn=1)
    s.dice = LoadedDice([1] * 10)
    apply(s, EndPhase(P))
    assert any("may not fire this turn" in e.text for e in s.events)
    assert not [e for e in s.events if e.data.get("purpose") == "enemy mortar availability"]


def test_preliminary_bombardment_pins_potential_counters_that_can_see_you_on_turn_1():
    s = sketch(
        {"3d": "woods"},
        {"D1": "2d"},
        {"5d": "potential", "4g": "potential", "6c": "real"},
        phase="friendly_fire",
        turn=1,
    )
    # 5d's line to 2d crosses the woods at 3d; 4g sees D1; 6c is real, not potential
    s.dice = LoadedDice([2] + [1] * 20)
    apply(s, EndPhase(P))
    bomb = [e for e in s.events if e.data.get("purpose") == "preliminary bombardment"]
    assert [s.board.label(e.data["target"]) for e in bomb] == ["4g"]
    assert not s.enemy[at(s, "4g")].fresh or s.phase == "friendly_move"


def test_the_smoke_of_last_turn_is_gone_by_the_enemy_phase():
    """Smoke lasts to the end of the next fire phase (docs/rules-notes.md, "Mortars and
    smoke"): read for the coming enemy phase, only this turn's smoke blocks, and the
    game's smoke is put back afterwards."""
    st = sketch({"5d": "woods"}, {"D1": "2d"}, {"5d": "real"}, turn=4)
    old, new = st.board.hex_at("3c"), st.board.hex_at("3d")
    st.smoke = {old: 4, new: 5}
    with enemy_phase_smoke(st):
        assert st.smoke == {new: 5}
    assert st.smoke == {old: 4, new: 5}
