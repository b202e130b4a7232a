"""The scripted attackers: legal, terminating, deterministic, and better than chance."""

from __future__ import annotations

import random
import statistics
from collections import Counter

import pytest

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.combined_arms import (
    CallMortar,
    DeclareFire,
    EndGame,
    EndPhase,
    Enter,
    Exploit,
    Face,
    Options,
    Withdraw,
    apply,
    check,
    fire,
    record,
)
from hexclass.classroom.combined_arms.bot import (
    MAX_ACTIONS_PER_PHASE,
    POLICIES,
    PassivePolicy,
    RandomPolicy,
    Sight,
    SteadyPolicy,
    make_policy,
    play_game,
)
from hexclass.classroom.combined_arms.game import new_game
from hexclass.classroom.combined_arms.lines import friendly_line
from hexclass.classroom.combined_arms.positions import sketch
from hexclass.classroom.combined_arms.units import BROKEN


class Checked:
    """Wraps a policy: asserts every action it returns is legal and counts them per phase."""

    def __init__(self, inner):
        self.inner = inner
        self.name = inner.name
        self.per_phase: Counter = Counter()
        self.kinds: Counter = Counter()

    def act(self, state, seat):
        action = self.inner.act(state, seat)
        reason = check(state, action)
        assert reason is None, f"turn {state.turn} {state.phase}: {action} refused: {reason}"
        self.per_phase[(state.turn, state.phase)] += 1
        self.kinds[type(action).__name__] += 1
        return action


@pytest.mark.parametrize(("name", "seed"), [("steady", 0), ("steady", 7), ("bold", 0), ("bold", 7)])
def test_bots_play_only_legal_actions_to_the_end(name, seed):
    policy = Checked(make_policy(name, seed))
    state = play_game(seed, policy)
    assert state.over and state.result is not None
    assert 1 <= state.result.turns <= 20
    assert max(policy.per_phase.values()) <= MAX_ACTIONS_PER_PHASE + 1
    if name == "bold":  # it does fight: platoons enter, fire is declared, assaults go in
        assert policy.kinds["Enter"] >= 5 and policy.kinds["DeclareFire"] >= 3


def test_steady_answers_the_commanders_choices_itself():
    """Without auto decisions the engine waits on the policy (which platoon breaks...)."""
    policy = Checked(make_policy("bold", 3))
    asked = 0
    for seed in (3, 11):
        state = play_game(seed, policy, Options(auto_decisions=False))
        assert state.over
        asked += policy.kinds["ChooseBroken"] + policy.kinds["ChooseRollOrder"]
    assert asked >= 1


def test_random_baseline_is_legal_and_never_ends_the_game_early():
    policy = Checked(RandomPolicy(random.Random(5)))
    state = play_game(2, policy)
    assert state.over
    assert state.result.turns == 20
    assert policy.kinds["EndGame"] == 0


def test_same_seed_same_game_and_score():
    a = play_game(9, make_policy("steady", 9))
    b = play_game(9, make_policy("steady", 9))
    assert record(a)["actions"] == record(b)["actions"]
    assert a.result.total == b.result.total
    r1 = play_game(4, make_policy("random", 4))
    r2 = play_game(4, make_policy("random", 4))
    r3 = play_game(4, RandomPolicy(random.Random(99)))
    assert record(r1)["actions"] == record(r2)["actions"]
    assert record(r1)["actions"] != record(r3)["actions"]  # the rng really drives it


def test_steady_beats_the_random_baseline():
    seeds = range(100, 108)
    steady = [play_game(s, make_policy("steady", s)).result.total for s in seeds]
    chance = [play_game(s, make_policy("random", s)).result.total for s in seeds]
    assert statistics.fmean(steady) > statistics.fmean(chance) + 3


def test_registry_and_passive_baseline():
    assert {"steady", "bold", "random", "passive"} <= set(POLICIES)
    assert make_policy("bold", 1).name == "bold" and make_policy("steady", 1).name == "steady"
    with pytest.raises(ValueError, match="unknown policy"):
        make_policy("nope", 1)
    state = play_game(6, PassivePolicy())
    assert state.result.turns == 1 and len(state.actions) == 3  # end move, end fire, end game
    assert all(isinstance(a, (EndPhase, EndGame)) for a in state.actions)


def test_mmgs_enter_once_on_the_rear_edge_apart_and_only_ever_withdraw():
    """CA "Movement": MMGs enter on a rear-edge hex and never move again except to withdraw."""
    state = play_game(1, make_policy("bold", 1))
    mmg_actions = [a for a in state.actions if getattr(a, "unit", None) in ("M1", "M2")]
    entries = [a for a in mmg_actions if isinstance(a, Enter)]
    assert len(entries) == 2
    assert all(a.to in state.board.friendly_edge for a in entries)
    assert entries[0].to != entries[1].to  # not stacked for the enemy mortars
    assert all(isinstance(a, (Enter, Withdraw)) for a in mmg_actions)


def _hexes_at(board, centre, d):
    return [h for h in board.hexes if hg.distance(h, centre) == d]


def test_assault_uses_only_the_adjacent_platoons():
    """CA "Fire Attacks": a break needs every firer adjacent, so distant units hold off."""
    s = sketch(
        units={"D1": "4e", "D2": "4e", "A1": "2d bottom", "M1": "1d"},
        enemy={"5e": "real"},
        phase="friendly_fire",
        turn=5,
    )
    target = s.board.hex_at("5e")
    policy = SteadyPolicy()
    declared = []
    while s.phase == "friendly_fire":
        a = policy.act(s, "player")
        if isinstance(a, DeclareFire):
            declared.append(a)
        apply(s, a)
    on_target = [a for a in declared if a.target == target]
    assert on_target, "the adjacent rifles should have assaulted"
    assert set(on_target[0].firers) == {"D1", "D2"}


def test_armour_turns_to_face_its_target_before_firing():
    board = sketch().board
    target = board.hex_at("5e")
    tank = next(h for h in _hexes_at(board, target, 3) if h[1] < target[1])
    rifle = next(h for h in _hexes_at(board, target, 2) if h[1] == target[1])  # not in the way
    s = sketch(
        units={"A1": f"{board.label(tank)} top", "D1": f"{board.label(rifle)} spent"},
        enemy={"5e": "real"},
        phase="friendly_fire",
        turn=4,
    )
    policy = SteadyPolicy()
    first = policy.act(s, "player")
    assert isinstance(first, Face) and first.unit == "A1"
    assert hg.in_arc(tank, first.facing, target)
    apply(s, first)
    second = policy.act(s, "player")
    assert isinstance(second, DeclareFire) and second.firers == ("A1",)
    assert second.target == target


def test_mortars_are_called_before_any_fire_on_the_biggest_threat():
    board = sketch().board
    target = board.hex_at("6e")
    spot = next(h for h in _hexes_at(board, target, 2) if h[1] < target[1])
    s = sketch(
        units={"D1": board.label(spot)},
        enemy={"6e": "real", "8a": "potential"},
        phase="friendly_fire",
        turn=3,
    )
    a = SteadyPolicy().act(s, "player")
    assert isinstance(a, CallMortar) and a.target == target and not a.smoke


def _move_phase(state) -> list:
    policy, actions = SteadyPolicy(), []
    while state.phase == "friendly_move" and not state.over:
        actions.append(policy.act(state, "player"))
        apply(state, actions[-1])
    return actions


def test_exploits_when_a_broken_enemy_lets_it_count():
    s = sketch(units={"D1": "9d"}, enemy={"6b": "real"}, enemy_platoons_broken=1, turn=10)
    assert Exploit("player", "D1") in _move_phase(s)
    s = sketch(units={"D1": "9d"}, enemy={"6b": "real"}, turn=10)
    assert Exploit("player", "D1") not in _move_phase(s)  # it would not count


def test_ends_the_game_once_more_turns_only_cost_points():
    late = sketch(units={"D1": "3c"}, enemy={"6c": "real"}, turn=19)
    assert SteadyPolicy().act(late, "player") == EndGame("player")
    early = sketch(units={"D1": "3c"}, enemy={"6c": "real"}, turn=10)
    assert SteadyPolicy().act(early, "player") != EndGame("player")


def test_steady_attacks_an_isolated_post_but_not_into_crossfire():
    """An assault hex covered by several other posts is not worth the platoons it costs."""
    lone = sketch(terrain={"6c": "woods"}, enemy={"6c": "real"}, turn=2)
    assert SteadyPolicy().act(lone, "player") != EndGame("player")
    nest = {h: "real" for h in ("6b", "6c", "6d", "7b", "7c", "7d", "5b", "5d")}
    crossfire = sketch(terrain={h: "woods" for h in nest}, enemy=nest, turn=2)
    assert SteadyPolicy().act(crossfire, "player") == EndGame("player")


def test_cuts_its_losses_unless_an_assault_is_ready():
    s = sketch(units={"D1": "3c"}, enemy={"6c": "real"}, turn=8)
    for uid in ("E1", "E2"):
        s.units[uid].where = BROKEN
    assert SteadyPolicy().act(s, "player") == EndGame("player")
    s = sketch(units={"D1": "5c", "D2": "5c"}, enemy={"6c": "real"}, turn=8)
    for uid in ("E1", "E2"):
        s.units[uid].where = BROKEN
    assert SteadyPolicy().act(s, "player") != EndGame("player")


def test_sight_agrees_with_the_engine_fire_odds():
    """The bot's fast pin odds are the engine's (CA "Fire Attacks" modifiers and lines)."""
    compared = 0
    for seed in (2, 5):
        g = new_game(seed, Options(auto_decisions=True))
        policy = make_policy("bold", seed)
        while not g.over and g.turn < 10:
            if g.phase == "friendly_fire" and g.declaration is None:
                sight = Sight(g)
                for u in g.on_board():
                    for target in g.enemy:
                        if (
                            hg.distance(u.hex, target) > 5
                            or friendly_line(g, u.hex, target).blocked
                        ):
                            assert sight.pin(u.id, u.hex, target) == 0
                            continue
                        engine = fire.fire_odds(g, target, [u.id]).attacks[0].pin_chances
                        assert sight.pin(u.id, u.hex, target) == engine, (u.id, target)
                        compared += 1
            apply(g, policy.act(g, "player"))
    assert compared > 30


def test_fast_enemy_odds_agree_with_the_itemised_modifiers():
    """The remembered numbers the bot weighs (armour and infantry shots, reveal odds)
    are the engine's itemised CA "Enemy Fire" / "Enemy Decisions" modifiers summed."""
    from hexclass.classroom.combined_arms import enemy
    from hexclass.classroom.combined_arms.bot import atg_chance, reveal_chance
    from hexclass.classroom.combined_arms.lines import terrain_mask
    from hexclass.classroom.combined_arms.units import BOARD, Platoon
    from hexclass.classroom.dice import chances

    compared = 0
    for seed in (3, 8):
        g = new_game(seed, Options(auto_decisions=True))
        policy = make_policy("bold", seed)
        while not g.over and g.turn < 8:
            if g.phase == "friendly_fire" and g.declaration is None:
                blockers = terrain_mask(g)
                for e, post in g.enemy.items():
                    for h in g.board.hexes:
                        if h == e:
                            continue
                        mods = enemy.infantry_modifiers(g, e, h)
                        want = 0 if mods is None else chances(sum(m.value for m in mods), 2)
                        assert enemy.hit_chances(g, e, h) == want, (e, h)
                        for facing in (0, 3):
                            probe = Platoon("A3", BOARD, h, True, facing)
                            for with_atg in (True, False):
                                mods = enemy.armour_modifiers(g, e, probe, with_atg)
                                fast = enemy.armour_total(g, e, h, facing, with_atg, blockers)
                                assert (mods is None and fast is None) or (
                                    sum(m.value for m in mods) == fast
                                ), (e, h, facing, with_atg)
                                compared += 1
                    if post.platoon is not None:
                        mods = enemy.platoon_reveal_modifiers(g, post)
                        want = chances(sum(m.value for m in mods), enemy.REVEAL) / 6
                        assert post.platoon == "real" or reveal_chance(g, e) == want
                    if post.atg is not None:
                        mods = enemy.atg_reveal_modifiers(g, post)
                        want = chances(sum(m.value for m in mods), enemy.REVEAL) / 6
                        assert post.atg == "real" or atg_chance(g, e) == want
            apply(g, policy.act(g, "player"))
    assert compared > 1000
