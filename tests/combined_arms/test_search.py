"""The search attacker: legal, reproducible, and blind to the game's own dice."""

from __future__ import annotations

import random

from hexclass.classroom.combined_arms import EndGame, Options, apply, check, record
from hexclass.classroom.combined_arms.bots import BestPolicy, SearchBudget, make_policy, play_game
from hexclass.classroom.combined_arms.bots.search import END
from hexclass.classroom.combined_arms.game import new_game
from hexclass.classroom.combined_arms.positions import sketch
from hexclass.classroom.dice import Dice

SMALL = SearchBudget(rollouts=2)


def test_best_plays_legal_actions_to_the_end_and_is_reproducible():
    a = play_game(3, BestPolicy(random.Random(3), SMALL), Options(auto_decisions=True))
    b = play_game(3, BestPolicy(random.Random(3), SMALL), Options(auto_decisions=True))
    assert a.over and a.result is not None
    assert record(a) == record(b)


def test_registry_has_best():
    assert make_policy("best", 1).name == "best"


def _turn_two(seed: int):
    g = new_game(seed, Options(auto_decisions=True))
    steady = make_policy("steady", seed)
    while g.turn < 2 and not g.over:
        apply(g, steady.act(g, "player"))
    return g


def test_choice_does_not_depend_on_the_game_dice():
    """Two games alike but for their dice stream: the bot chooses the same."""
    g = _turn_two(5)
    h = g.copy()
    h.dice = Dice(987654321)
    a = BestPolicy(random.Random(1), SMALL)
    b = BestPolicy(random.Random(1), SMALL)
    assert a.act(g, "player") == b.act(h, "player")
    assert a.history[-1].values == b.history[-1].values


def test_planning_leaves_the_game_dice_untouched():
    """Thinking rolls only the copies' dice: the game's stream is where it was, so a
    game played with the bot is the one it would be had it not planned at all."""
    g = _turn_two(6)
    before = g.dice.snapshot()
    bot = BestPolicy(random.Random(2), SMALL)
    bot.act(g, "player")
    assert bot.history and bot.history[-1].rollouts == SMALL.rollouts
    assert g.dice.snapshot() == before


def test_ends_a_game_that_can_only_get_worse():
    """Nothing of yours can reach the enemy in time and every turn costs a point:
    ending now (the exact final-reveal odds) beats any plan (CA "Victory")."""
    g = sketch(units={"D1": "1a"}, enemy={"8d": "real"}, turn=19)
    g.options = Options(auto_decisions=True)
    bot = BestPolicy(random.Random(0), SMALL)
    assert check(g, EndGame("player")) is None
    assert bot.act(g, "player") == EndGame("player")
    assert bot.history[-1].chosen == END
