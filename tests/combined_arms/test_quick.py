"""The engine's fast forms (``quick``, ``outlook``) agree with the itemised rules.

Positions come from games played a random number of legal actions by the random
baseline from a random seed, so they hold platoons of every kind in odd places, spent
and fresh counters, revealed and removed enemies, smoke and mortar targets.
"""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from hexclass.classroom.combined_arms import (
    EndGame,
    Exploit,
    Options,
    apply,
    check,
    enemy,
    fire,
    mortars,
)
from hexclass.classroom.combined_arms.bots import RandomPolicy
from hexclass.classroom.combined_arms.game import new_game
from hexclass.classroom.combined_arms.lines import friendly_line
from hexclass.classroom.combined_arms.outlook import end_distribution, end_value, planning_copy
from hexclass.classroom.combined_arms.positions import sketch
from hexclass.classroom.combined_arms.quick import (
    Sight,
    armour_risk,
    can_exploit_now,
    cluster_payoff,
    he_targets,
    pin_chances,
    reveal_chance,
)
from hexclass.classroom.combined_arms.units import BOARD, REAL, Platoon
from hexclass.classroom.dice import chances

FAST = settings(max_examples=10, deadline=None)


def position(seed: int, steps: int, phase: str | None = None):
    """The game of ``seed`` after ``steps`` random legal actions (then up to ``phase``)."""
    g = new_game(seed, Options(auto_decisions=True))
    policy = RandomPolicy(random.Random(seed))
    for _ in range(steps):
        if g.over:
            break
        apply(g, policy.act(g, "player"))
    if phase is not None:
        for _ in range(200):
            if g.over or (g.phase == phase and g.declaration is None and g.pending is None):
                break
            apply(g, policy.act(g, "player"))
    return g


positions = st.builds(position, st.integers(0, 10_000), st.integers(0, 160))
fire_positions = st.builds(
    position, st.integers(0, 10_000), st.integers(0, 160), st.just("friendly_fire")
)


@FAST
@given(fire_positions)
def test_pin_faces_are_the_summed_fire_modifiers(g):
    """CA "Fire Attacks": Sight.pin and pin_chances = chances of the itemised modifiers."""
    if g.over:
        return
    sight = Sight(g)
    for u in g.on_board():
        for target in g.enemy:
            line = friendly_line(g, u.hex, target)
            far = sight.state.board.dist[u.hex][target] > 5
            if far or line.blocked:
                assert sight.pin(u.id, u.hex, target) == 0 == pin_chances(g, u, target)
                continue
            mods = fire.friendly_modifiers(g, u, target)
            want = chances(sum(m.value for m in mods), fire.PIN)
            assert sight.pin(u.id, u.hex, target) == want, (u.id, target)
            assert pin_chances(g, u, target) == want


def test_pin_faces_follow_the_enemy_player_bonus_too():
    """CA p.7: with a live defender the +1 against unrevealed platoons holds when adjacent."""
    g = sketch(units={"D1": "5b", "D2": "3c"}, enemy={"5c": "potential"}, phase="friendly_fire")
    target = g.board.hex_at("5c")
    solitaire = Sight(g).pin("D2", g.units["D2"].hex, target)
    g.options = Options(enemy_player=True)
    want = chances(
        sum(m.value for m in fire.friendly_modifiers(g, g.units["D2"], target)), fire.PIN
    )
    assert Sight(g).pin("D2", g.units["D2"].hex, target) == want == solitaire + 1
    assert pin_chances(g, g.units["D2"], target) == want


@FAST
@given(positions)
def test_reveal_chances_are_the_itemised_reveal_modifiers(g):
    """CA "Enemy Decisions": the remembered reveal odds equal the modifiers summed."""
    for h, post in g.enemy.items():
        if post.platoon == "potential":
            mods = enemy.platoon_reveal_modifiers(g, post)
            want = chances(sum(m.value for m in mods), enemy.REVEAL) / 6
            assert reveal_chance(g, h) == want
        elif post.platoon == REAL:
            assert reveal_chance(g, h) == 1.0


@FAST
@given(fire_positions)
def test_he_targets_are_the_mortar_rules_enemy_targets(g):
    """CA "Mortars": the fast target list = the engine's eligible high-explosive targets."""
    if g.over or g.phase != "friendly_fire" or g.mortar_called or g.engaged:
        return
    engine = {h for h in mortars.friendly_targets(g, smoke=False) if h in g.enemy}
    fast = he_targets(g)
    assert set(fast) == engine
    for h, spotter in fast.items():
        assert mortars.friendly_target_problem(g, h, g.units[spotter], False) is None


@FAST
@given(positions)
def test_cluster_payoff_is_the_enemy_decision_payoff(g):
    """CA "Enemy Decisions": 1 per spent, 2 per fresh platoon, x chances, x3 adjacent."""
    for h, post in g.enemy.items():
        if post.platoon is None:
            continue
        assert cluster_payoff(g, h, assume_fresh=False) == enemy.best_payoff(g, h), h


@FAST
@given(positions, st.integers(0, 5))
def test_armour_risk_from_real_atgs_is_their_break_chance(g, facing):
    """CA "Enemy Fire": with revealed ATGs the risk is exactly the itemised 2+ chance."""
    for h, post in g.enemy.items():
        if post.atg != REAL or post.platoon is None:
            continue
        for spot in g.board.hexes:
            if spot == h or g.board.dist[h][spot] > 5:
                continue
            probe = Platoon("A3", BOARD, spot, True, facing)
            mods = enemy.armour_modifiers(g, h, probe, True)
            want = 0 if mods is None else chances(sum(m.value for m in mods), enemy.ARMOUR_BREAK)
            assert abs(armour_risk(g, probe, only=h) - want / 6) < 1e-12, (h, spot)


@FAST
@given(positions)
def test_can_exploit_now_is_the_movement_check(g):
    """CA "Movement": exploit only from the 3 central enemy-edge hexes (armour by road)."""
    if g.over or g.phase != "friendly_move" or g.pending is not None:
        return
    for u in g.on_board():
        legal = check(g, Exploit("player", u.id)) is None
        assert can_exploit_now(g, u) == legal, u.id


def test_end_distribution_of_one_post_by_hand():
    """One potential platoon with an ATG counter, nothing else (CA "Victory" reveal):
    platoon 4+ (the ATG counter's +1): 1/2; then ATGs 3+ (+2, platoon revealed): 2/3.
    Scores: nothing 0; platoon only 2; platoon and ATGs 3 (less nothing else)."""
    g = sketch(units={"D1": "2c"}, enemy={"7c": "potential+atg"}, turn=5)
    dist = {s: Fraction(p).limit_denominator(1000) for s, p in end_distribution(g).items()}
    assert dist == {0: Fraction(1, 2), 2: Fraction(1, 6), 3: Fraction(1, 3)}


@FAST
@given(positions)
def test_end_distribution_sums_to_one_and_holds_the_real_ending(g):
    """Ending the game on a planning copy lands on a score the distribution gives a chance."""
    if g.over or g.turn < 2 or g.phase != "friendly_move" or g.acted_this_turn:
        return
    dist = end_distribution(g)
    assert abs(sum(dist.values()) - 1) < 1e-9
    rng = random.Random(7)
    for _ in range(5):
        c = planning_copy(g, rng)
        apply(c, EndGame("player"))
        assert dist.get(c.result.total, 0) > 0, c.result.total


def test_end_value_matches_many_endings():
    """The exact mean is what ending the game many times over averages to, here with
    the coupling of CA "Enemy Decisions" in play: 2 real platoons are out already, so
    the first further real platoon puts -1 on every later test."""
    g = sketch(
        units={"D1": "2c"},
        enemy={
            "7b": "real",
            "7d": "real+potential_atg",
            "8c": "potential+atg",
            "8e": "potential",
            "9d": "potential+atg",
        },
        turn=6,
    )
    g.real_platoons_revealed = 2
    mean, _ = end_value(g)
    rng = random.Random(3)
    scores = []
    for _ in range(1500):
        c = planning_copy(g, rng)
        apply(c, EndGame("player"))
        scores.append(c.result.total)
    assert abs(sum(scores) / len(scores) - mean) < 0.15


def test_planning_copy_leaves_the_game_dice_alone():
    """A planning copy rolls its own dice: the game's stream is neither read nor moved."""
    g = position(5, 30)
    before = g.dice.snapshot()
    c = planning_copy(g, random.Random(1))
    assert c.dice.snapshot() != before
    policy = RandomPolicy(random.Random(2))
    for _ in range(60):
        if c.over:
            break
        apply(c, policy.act(c, "player"))
    assert c.dice.rolled > 0
    assert g.dice.snapshot() == before
