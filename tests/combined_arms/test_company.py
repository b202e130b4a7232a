"""The company-level planner: legal, blind to the game's dice, and coordinating companies."""

from __future__ import annotations

import random

from hexclass.classroom.combined_arms import DeclareFire, EndGame, Options, apply, check, record
from hexclass.classroom.combined_arms.bots import CompanyBudget, CompanyPlanner, make_policy
from hexclass.classroom.combined_arms.bots.assessment import HOLD
from hexclass.classroom.combined_arms.bots.company import Attack, DirectedSteady
from hexclass.classroom.combined_arms.bots.search import END
from hexclass.classroom.combined_arms.game import new_game
from hexclass.classroom.combined_arms.positions import sketch

SMALL = CompanyBudget(rollouts=2, horizon=2, posts=1)


def _play(seed: int, bot) -> tuple:
    g = new_game(seed, Options(auto_decisions=True))
    for _ in range(3000):
        if g.over:
            break
        a = bot.act(g, "player")
        assert check(g, a) is None, f"the planner gave an order the engine refuses: {a}"
        apply(g, a)
    return g


def test_every_order_is_one_the_engine_accepts_and_games_repeat():
    a = _play(7, CompanyPlanner(random.Random(7), SMALL))
    b = _play(7, CompanyPlanner(random.Random(7), SMALL))
    assert a.over and a.result is not None
    assert record(a) == record(b)


def test_registry_has_company():
    assert make_policy("company", 1).name == "company"


def test_planning_leaves_the_game_dice_untouched():
    g = new_game(5, Options(auto_decisions=True))
    before, snap = g.dice.snapshot(), g.snapshot()
    bot = CompanyPlanner(random.Random(1), SMALL)
    bot.act(g, "player")
    assert bot.history and bot.history[-1].rollouts == SMALL.rollouts
    assert g.dice.snapshot() == before and g.snapshot() == snap


def test_a_massed_attack_sends_every_company_and_only_them():
    """D and E companies below two posts: the planner offers an attack on a post by the
    nearest company alone and by both together; steady directed at it gives the post to
    the named companies and holds the other back (no objective, CA "Movement" left to it)."""
    g = sketch(
        units={"D1": "2b", "D2": "2c", "D3": "2d", "E1": "2f", "E2": "2g", "E3": "2h"},
        enemy={"5c": "real", "5g": "potential"},
        turn=2,
    )
    g.options = Options(auto_decisions=True)
    bot = CompanyPlanner(random.Random(0), SMALL)
    names = bot.candidates(g)
    massed = [a for a in names.values() if a is not None and len(a.companies) > 1]
    assert massed and all(set(a.companies) >= {"D", "E"} for a in massed)
    post = g.board.hex_at("5c")
    only_d = DirectedSteady(Attack(post, ("D",)))
    t = only_d._plan_turn(g)
    assert t.objectives["D"] == post
    assert t.objectives["E"] is None and t.mode["E"] == HOLD
    both = DirectedSteady(Attack(post, ("D", "E")))
    t = both._plan_turn(g)
    assert t.objectives["D"] == t.objectives["E"] == post
    assert t.mode["E"] != HOLD and t.mode["D"] != HOLD


def test_two_platoons_next_to_a_real_post_fire_on_it_together():
    """One rifle breaks a platoon next to it on 5-6 (1 in 3); two together 1-(2/3)^2 = 56 %
    (CA "Fire Attacks"): the planner's fire phase declares one joint attack with both."""
    g = sketch(
        units={"D1": "6c", "D2": "6d"},
        enemy={"7c": "real"},
        phase="friendly_fire",
        turn=5,
    )
    g.options = Options(auto_decisions=True)
    a = CompanyPlanner(random.Random(0), SMALL).act(g, "player")
    assert isinstance(a, DeclareFire) and set(a.firers) == {"D1", "D2"}
    assert check(g, a) is None


def test_ends_a_game_that_can_only_get_worse():
    """Nothing can reach the enemy in time and each turn costs a point (CA "Victory")."""
    g = sketch(units={"D1": "1a"}, enemy={"8d": "real"}, turn=19)
    g.options = Options(auto_decisions=True)
    bot = CompanyPlanner(random.Random(0), SMALL)
    assert bot.act(g, "player") == EndGame("player")
    assert bot.history[-1].chosen == END


def test_an_attack_under_way_is_kept_unless_something_beats_it_for_sure():
    """Dropping an attack half-way leaves platoons in the open for nothing: the attack
    chosen last turn is the safe choice, and ending (exact) or another attack replaces it
    only when the paired gain passes one standard error of the playouts."""
    bot = CompanyPlanner(random.Random(0), SMALL)
    bot._incumbent = "D@0,4"
    values = {END: 13.2, "hold": 12.0, "D@0,4": 13.0, "E@1,4": 13.4}
    samples = {"hold": [12, 12, 12, 12], "D@0,4": [10, 16, 11, 15], "E@1,4": [13, 13, 13, 13.6]}
    assert bot._cautious_pick(values, samples) == "D@0,4"
    values[END] = 20.0  # ending now is worth far more than any playout of the attack
    assert bot._cautious_pick(values, samples) == END
    bot._incumbent = None  # no attack under way: ending (exact) is the safe choice
    values[END] = 13.2
    assert bot._cautious_pick(values, samples) == END
