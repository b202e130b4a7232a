"""The attacker ``best`` (bots/lookahead.py): the doctrine attacker, its setting and its
ending chosen each turn by looking ahead on planning copies (issue 26)."""

from __future__ import annotations

import random

from hexclass.classroom.combined_arms import Options, apply, new_game
from hexclass.classroom.combined_arms.actions import EndGame
from hexclass.classroom.combined_arms.bots import make_policy, play_game, state_seat
from hexclass.classroom.combined_arms.bots.base import _close_phase
from hexclass.classroom.combined_arms.bots.doctrine import policy as doctrine
from hexclass.classroom.combined_arms.bots.lookahead import (
    LookaheadBudget,
    LookaheadPolicy,
    best_horizon,
    turn_start,
    worth_by_turn,
)
from hexclass.classroom.combined_arms.bots.search import END
from hexclass.classroom.combined_arms.outlook import end_value

AUTO = Options(auto_decisions=True)
SMALL = LookaheadBudget(forks=3, horizon=2)


def _bold_only(margin: float, seed: int = 4) -> LookaheadPolicy:
    budget = LookaheadBudget(forks=2, horizon=2, margin=margin)
    return LookaheadPolicy(random.Random(seed), budget, ("doctrine_bold",))


def test_best_is_the_lookahead_attacker_and_search_the_old_planner():
    assert isinstance(make_policy("best", 1), LookaheadPolicy)
    assert make_policy("best", 1).name == "best" and make_policy("search", 1).name == "search"


def test_looking_ahead_spends_none_of_the_games_dice():
    """The forks roll the planner's own dice: an attacker whose lookahead never ends the
    game plays exactly the game doctrine_bold plays alone; one whose lookahead always
    ends it ends at its first chance, after turn 1 (CA "Victory")."""
    alone = play_game(4, doctrine("doctrine_bold"), AUTO)
    never = play_game(4, _bold_only(-1e9), AUTO)
    always = play_game(4, _bold_only(1e9), AUTO)
    assert alone.result.turns > 2
    assert [e.text for e in never.events] == [e.text for e in alone.events]
    assert never.result.total == alone.result.total
    assert always.result.turns == 1


def test_the_forks_roll_dice_of_their_own():
    """From one turn start, forks on different seeds of the planner part ways (copying
    the game's dice would make them all one future, known in advance)."""
    g = new_game(4, AUTO)
    seat, pol = state_seat(g), doctrine("doctrine_bold")
    while g.turn < 3 or not turn_start(g, seat):
        apply(g, pol.act(g, seat))
    best = _bold_only(0.0)
    best.inner = pol
    dice = g.dice.snapshot()
    runs = [best.fork_worths(g, seat, "doctrine_bold", s) for s in range(6)]
    assert all(len(r) == 2 for r in runs) and len({tuple(r) for r in runs}) > 1
    assert g.dice.snapshot() == dice  # the game's dice did not move


def test_a_fork_that_runs_past_turn_20_is_worth_the_score_it_ended_with():
    """CA "Victory": the game ends after turn 20 and scores its final reveal, less 1 a
    turn after 18; a fork past that point holds that score, not turn 20's outlook."""

    class Sitter:
        def act(self, state, seat):
            return _close_phase(state, seat)

    g = new_game(2, AUTO)
    seat = state_seat(g)
    while g.turn < 19 or not turn_start(g, seat):
        apply(g, _close_phase(g, seat))
    fork = g.copy()
    worths = worth_by_turn(fork, Sitter(), seat, 3, 10_000)
    assert fork.over and fork.result.turns == 20
    assert worths[1:] == [float(fork.result.total)] * 2 != [worths[0]] * 2


def test_going_on_is_worth_the_best_horizon_and_ending_wins_within_the_margin():
    """Each setting is worth its best horizon's mean; the game ends when the best
    setting is worth no more than ending now plus the margin."""
    assert best_horizon([[1.0, 4.0], [2.0, 0.0]]) == (2.0, [4.0, 0.0])
    values = {"doctrine_bold": 12.0, "doctrine_close": 11.0, "doctrine_run": 12.5, END: 12.8}
    assert LookaheadPolicy(budget=LookaheadBudget(margin=-0.25)).pick(values) == END
    values[END] = 12.7
    assert LookaheadPolicy(budget=LookaheadBudget(margin=-0.25)).pick(values) == "doctrine_run"
    assert LookaheadPolicy(budget=LookaheadBudget(margin=0.0)).pick(values) == END
    bold = LookaheadPolicy(budget=LookaheadBudget(margin=0.0), settings=("doctrine_bold",))
    assert bold.pick({"doctrine_bold": 1.0}) == "doctrine_bold"  # turn 1: no ending yet


def test_a_choice_weighs_ending_exactly_and_every_setting_on_the_same_forks():
    g = new_game(3, AUTO)
    seat = state_seat(g)
    while g.turn < 2 or not turn_start(g, seat):
        apply(g, _close_phase(g, seat))
    bot = LookaheadPolicy(random.Random(1), SMALL)
    choice = bot.choose(g, seat)
    assert set(choice.values) == {"doctrine_bold", "doctrine_close", "doctrine_run", END}
    assert choice.values[END] == end_value(g)[0] == choice.end_mean
    assert choice.rollouts == 3 and all(len(v) == 3 for v in choice.samples.values())
    again = LookaheadPolicy(random.Random(1), SMALL).choose(g, seat)
    assert again.values == choice.values and again.chosen == choice.chosen  # reproducible


def test_a_time_cap_keeps_at_least_one_fork_and_every_setting_even():
    g = new_game(3, AUTO)
    bot = LookaheadPolicy(random.Random(1), LookaheadBudget(forks=50, horizon=2, seconds=0.0))
    choice = bot.choose(g, state_seat(g))
    assert choice.rollouts == 1 and {len(v) for v in choice.samples.values()} == {1}
    assert END not in choice.values  # turn 1: the game may not end yet


def test_best_ends_the_game_itself_when_the_lookahead_says_so():
    g = play_game(4, _bold_only(1e9), AUTO)
    assert any(isinstance(a, EndGame) for a in g.actions)
