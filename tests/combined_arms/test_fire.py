"""CA "Fire Attacks" and Figure 6: eligibility, every modifier, and what each roll does."""

from fractions import Fraction

import pytest

from hexclass.classroom.combined_arms import DeclareFire, Face, ResolveFire, apply, fire_odds
from hexclass.classroom.dice import LoadedDice

from .helpers import at, ok, reason, sketch

P = "player"
FIRE = {"phase": "friendly_fire"}


def mods(state, unit, target):
    o = fire_odds(state, at(state, target), [unit])
    return sorted((m.value, m.reason.split(" ")[0]) for m in o.attacks[0].modifiers)


def test_range_costs_one_per_hex_and_mmgs_one_per_full_two_hexes():
    s = sketch(units={"D1": "5b", "M1": "5a"}, enemy={"5e": "real"}, **FIRE)
    assert fire_odds(s, at(s, "5e"), ["D1"]).attacks[0].total == -3
    assert fire_odds(s, at(s, "5e"), ["M1"]).attacks[0].total == -2  # 4 hexes -> -2
    s2 = sketch(units={"M1": "5b"}, enemy={"5e": "real"}, **FIRE)
    assert fire_odds(s2, at(s2, "5e"), ["M1"]).attacks[0].total == -1  # 3 hexes -> -1


def test_no_fire_at_six_hexes_or_through_a_block():
    s = sketch({"5c": "woods"}, {"D1": "5a", "D2": "5b"}, {"5g": "real", "5e": "real"}, **FIRE)
    assert "the limit is 5" in reason(s, DeclareFire(P, at(s, "5g"), ("D1",)))
    assert "blocked by 5c" in reason(s, DeclareFire(P, at(s, "5e"), ("D2",)))


def test_unrevealed_target_with_no_friend_adjacent_gives_plus_one():
    s = sketch(units={"D1": "5b"}, enemy={"5e": "potential"}, **FIRE)
    assert (1, "target") in mods(s, "D1", "5e")
    s2 = sketch(units={"D1": "5b", "A1": "4e bottom"}, enemy={"5e": "potential"}, **FIRE)
    assert (1, "target") not in mods(s2, "D1", "5e")  # any platoon adjacent cancels it


def test_armour_with_hatches_open_gets_plus_one():
    s = sketch(units={"A1": "2e bottom"}, enemy={"5f": "real"}, **FIRE)
    assert (1, "armour") in mods(s, "A1", "5f")  # 3 hexes from the only enemy counter
    near = sketch(units={"A1": "2e bottom"}, enemy={"5f": "real", "3d": "potential"}, **FIRE)
    assert (1, "armour") not in mods(near, "A1", "5f")  # another counter 2 hexes away


def test_enemy_mortar_target_counter_keeps_the_hatches_shut():
    # sample game turn 3: "my tanks being buttoned up due to the enemy mortar fire"
    from hexclass.classroom.combined_arms.state import MortarTarget

    s = sketch(units={"A1": "2e bottom"}, enemy={"5f": "real"}, turn=3, **FIRE)
    s.enemy_mortar = MortarTarget(at(s, "2c"), turn=2)
    assert (1, "armour") not in mods(s, "A1", "5f")


def test_other_company_rifle_next_to_the_target_costs_firers_at_range_two_or_more():
    s = sketch(
        units={"F1": "5e", "F2": "4e", "E1": "3d", "A2": "3e bottom"}, enemy={"5d": "real"}, **FIRE
    )
    assert (-1, "F1") in mods(s, "E1", "5d")  # E company firer, F1 adjacent to target
    assert (-1, "F1") in mods(s, "A2", "5d")  # armour is of no rifle company
    assert not [m for m in mods(s, "F2", "5d") if m[1] == "F1"]  # same company: spared
    s2 = sketch(units={"F1": "5e", "E1": "5c"}, enemy={"5d": "real"}, **FIRE)
    assert not [m for m in mods(s2, "E1", "5d") if m[1] == "F1"]  # firer adjacent too


def test_figure_6_covering_fire_modifiers():
    # F2 and A2 fire overhead at a crest: -2 range, -1 partial block by the woods,
    # and A2 a further -1 for not being of F company; rolls of 3 and 5 do nothing.
    s = sketch(
        {"5d": "crest", "4d": "woods"},
        {"F1": "5e spent", "F3": "4d spent", "F2": "4e", "A2": "3c bottom"},
        {"5d": "real+atg"},
        **FIRE,
    )
    o = fire_odds(s, at(s, "5d"), ["F2", "A2"])
    assert [a.total for a in o.attacks] == [-3, -4]
    s.dice = LoadedDice([3, 5])
    apply(s, DeclareFire(P, at(s, "5d"), ("F2", "A2")))
    rolls = [e for e in s.events if e.kind == "roll"]
    assert [(r.data["die"], r.data["total"]) for r in rolls] == [(3, 0), (5, 1)]
    assert s.enemy[at(s, "5d")].fresh


def test_pin_on_two_or_more_break_on_four_with_every_firer_adjacent():
    s = sketch(units={"D1": "4d", "D2": "4e"}, enemy={"5e": "real+atg"}, **FIRE)
    o = fire_odds(s, at(s, "5e"), ["D1", "D2"])
    assert o.all_adjacent
    assert o.pin == 1 - Fraction(2, 6) ** 2
    assert o.break_platoon == o.break_atg == 1 - Fraction(4, 6) ** 2  # 56%, sample game turn 5
    s.dice = LoadedDice([5, 1])
    apply(s, DeclareFire(P, at(s, "5e"), ("D1", "D2")))
    assert at(s, "5e") not in s.enemy
    assert (s.enemy_platoons_broken, s.atgs_broken) == (1, 1)


def test_one_distant_firer_spoils_the_break():
    s = sketch(units={"D1": "4d", "D2": "3e"}, enemy={"5e": "real+atg"}, **FIRE)
    o = fire_odds(s, at(s, "5e"), ["D1", "D2"])
    assert not o.all_adjacent and o.break_platoon == 0
    s.dice = LoadedDice([6, 6])
    apply(s, DeclareFire(P, at(s, "5e"), ("D1", "D2")))
    post = s.enemy[at(s, "5e")]
    assert post.platoon == "real" and not post.fresh


def test_armour_breaks_atgs_but_not_the_platoon():
    s = sketch(units={"A1": "4e bottom"}, enemy={"5e": "real+atg"}, **FIRE)
    o = fire_odds(s, at(s, "5e"), ["A1"])
    assert o.break_atg == Fraction(2, 6) and o.break_platoon == 0
    s.dice = LoadedDice([6])
    apply(s, DeclareFire(P, at(s, "5e"), ("A1",)))
    post = s.enemy[at(s, "5e")]
    assert post.atg is None and post.atg_removed and post.platoon == "real"


def test_armour_fires_only_into_its_arc_but_may_turn_first_and_stay_fresh():
    s = sketch(units={"A1": "4d top"}, enemy={"5e": "real"}, **FIRE)
    assert "forward arc" in reason(s, DeclareFire(P, at(s, "5e"), ("A1",)))
    apply(s, Face(P, "A1", 4))
    assert s.units["A1"].fresh
    ok(s, DeclareFire(P, at(s, "5e"), ("A1",)))


def test_rifle_companies_may_not_engage_the_same_hex():
    s = sketch(units={"D1": "4d", "E1": "4e"}, enemy={"5e": "real"}, **FIRE)
    assert "companies D and E" in reason(s, DeclareFire(P, at(s, "5e"), ("D1", "E1")))
    apply(s, DeclareFire(P, at(s, "5e"), ("D1",), resolve=False))
    assert "companies D and E" in reason(s, DeclareFire(P, at(s, "5e"), ("E1",)))


def test_all_fire_on_a_hex_is_committed_before_it_is_resolved():
    s = sketch(
        units={"D1": "4d", "D2": "4e", "M1": "3c"}, enemy={"5e": "real", "5c": "real"}, **FIRE
    )
    s.dice = LoadedDice([1, 1, 1])
    apply(s, DeclareFire(P, at(s, "5e"), ("D1",), resolve=False))
    assert "resolve it first" in reason(s, DeclareFire(P, at(s, "5c"), ("M1",)))
    apply(s, DeclareFire(P, at(s, "5e"), ("D2",), resolve=False))
    apply(s, ResolveFire(P))
    assert "already been engaged" in reason(s, DeclareFire(P, at(s, "5e"), ("M1",)))
    ok(s, DeclareFire(P, at(s, "5c"), ("M1",)))


def test_rifle_shots_turn_the_ammo_track_and_passing_7_to_0_withdraws_the_firer():
    s = sketch(
        units={"D1": "4d", "D2": "4e", "M1": "5c", "A1": "5g lower_left"},
        enemy={"5e": "real"},
        ammo=6,
        **FIRE,
    )
    o = fire_odds(s, at(s, "5e"), ["D1", "M1", "A1", "D2"])
    assert o.ammo_withdrawal == "D2" and o.ammo_after == 0
    s.dice = LoadedDice([1, 1, 1, 1])
    apply(s, DeclareFire(P, at(s, "5e"), ("D1", "M1", "A1", "D2")))
    assert s.ammo == 0
    assert s.units["D2"].where == "withdrawn" and s.units["D1"].where == "board"


def test_firing_spends_the_firer_and_spent_platoons_cannot_fire():
    s = sketch(units={"D1": "4d"}, enemy={"5e": "real", "5d": "real"}, **FIRE)
    s.dice = LoadedDice([1])
    apply(s, DeclareFire(P, at(s, "5e"), ("D1",)))
    assert not s.units["D1"].fresh
    assert "spent" in reason(s, DeclareFire(P, at(s, "5d"), ("D1",)))


@pytest.mark.parametrize("die,pinned", [(2, False), (3, True)])
def test_modified_two_pins(die, pinned):
    s = sketch(units={"D1": "4d"}, enemy={"5e": "real"}, **FIRE)  # range 1: -1
    s.dice = LoadedDice([die])
    apply(s, DeclareFire(P, at(s, "5e"), ("D1",)))
    assert s.enemy[at(s, "5e")].fresh is not pinned


def test_six_firers_odds_are_exact_fractions():
    s = sketch(
        units={"D1": "4d", "D2": "4d", "D3": "4e", "A1": "5f lower_left", "M1": "3d", "M2": "3e"},
        enemy={"5e": "real+atg"},
        **FIRE,
    )
    o = fire_odds(s, at(s, "5e"), ["D1", "D2", "D3", "A1", "M1", "M2"])
    assert isinstance(o.pin, Fraction) and 0 < o.pin < 1
    miss = Fraction(1)
    for a in o.attacks:
        miss *= Fraction(6 - a.pin_chances, 6)
    assert o.pin == 1 - miss
